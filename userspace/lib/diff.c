// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - "netcost diff A B": where the extra cycles per packet of B
 * come from.  Per stage: cost per packet in A and B (cycles, and ns from
 * each snapshot's own TSC rate), ratio, delta and its share of the total
 * difference, sorted by contribution; percentile shifts and the KS and
 * earth mover's distances of the histograms; counters per packet side by
 * side; the NAPI instances by device, then one by one, each of A's with
 * its counterpart in B.  Warns when the two runs are not comparable.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "hist.h"
#include "metrics.h"
#include "pathcfg.h"
#include "snapshot.h"

/* nc_diff_warn - remember a warning; it goes to stderr and into -j */
static void __attribute__((format(printf, 2, 3)))
nc_diff_warn(struct nc_diff *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nr_warnings == ARRAY_SIZE(d->warning))
		return;
	va_start(ap, fmt);
	vsnprintf(d->warning[d->nr_warnings++], sizeof(d->warning[0]), fmt, ap);
	va_end(ap);
}

/* nc_diff_stage_fill - one stage row from A's stage @sa and B's @sb (-1: none) */
static void nc_diff_stage_fill(struct nc_diff_stage *r, const struct nc_model *a, int sa,
			       const struct nc_model *b, int sb)
{
	static const struct nc_hist empty;
	const struct nc_stage_desc *desc = sa >= 0 ? &a->stage[sa] : &b->stage[sb];
	const struct nc_hist *ha = sa >= 0 && a->total.stage[sa] ? a->total.stage[sa] : &empty;
	const struct nc_hist *hb = sb >= 0 && b->total.stage[sb] ? b->total.stage[sb] : &empty;
	bool own = desc->role == NC_ROLE_TOP;

	snprintf(r->name, sizeof(r->name), "%s", desc->name);
	r->role = desc->role;
	r->unit = desc->unit;
	/* a top-level stage counts its own cycles, so that the rows add up */
	r->a = nc_stage_per_packet_named(a, desc->name, desc->per_tx, own);
	r->b = nc_stage_per_packet_named(b, desc->name, desc->per_tx, own);
	r->a_ns = r->a >= 0 ? nc_cycles_to_ns(r->a, a->info.tsc_khz) : -1;
	r->b_ns = r->b >= 0 ? nc_cycles_to_ns(r->b, b->info.tsc_khz) : -1;
	r->ratio = -1;
	if (r->a >= 0 && r->b >= 0) {
		r->delta = r->b - r->a;
		r->ratio = nc_ratio(r->b, r->a);
	}
	/* -1: no events on that side, no percentile */
	r->p50_a = ha->count ? nc_hist_percentile(ha, 50) : -1;
	r->p50_b = hb->count ? nc_hist_percentile(hb, 50) : -1;
	r->p99_a = ha->count ? nc_hist_percentile(ha, 99) : -1;
	r->p99_b = hb->count ? nc_hist_percentile(hb, 99) : -1;
	if (ha->count && hb->count) {
		r->ks = nc_hist_ks(ha, hb);
		r->emd = nc_hist_emd(ha, hb);
	} else {
		r->ks = r->emd = -1;	/* no shape to compare */
	}
}

/* nc_diff_rank - the section of a stage: the total, other CPU work, waiting */
static int nc_diff_rank(const struct nc_diff_stage *r)
{
	return r->role == NC_ROLE_TOP ? 0 : r->role == NC_ROLE_LATENCY ? 2 : 1;
}

/*
 * nc_diff_cmp - top-level stages first, then the other CPU work, then
 * waiting; in each, by the size of their delta
 */
static int nc_diff_cmp(const void *x, const void *y)
{
	const struct nc_diff_stage *a = x, *b = y;

	if (nc_diff_rank(a) != nc_diff_rank(b))
		return nc_diff_rank(a) - nc_diff_rank(b);
	if (fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) > fabs(b->delta) ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* nc_diff_counter_fill - counter @name per rx packet on both sides */
static void nc_diff_counter_fill(struct nc_diff *d, const char *name)
{
	struct nc_diff_counter *c = &d->counter[d->nr_counters++];
	const struct nc_model *m[2] = { d->ma, d->mb };
	double *v[2] = { &c->a, &c->b };
	unsigned int i;

	snprintf(c->name, sizeof(c->name), "%s", name);
	for (i = 0; i < 2; i++) {
		int k = nc_model_find_counter(m[i], name);

		*v[i] = k < 0 ? -1 : nc_counter_per_packet(m[i], &m[i]->total, (unsigned int)k);
	}
}

/*
 * nc_loads_differ - whether two snapshots ran different loads: their
 * generator arguments when "netcost run" recorded them (its results
 * always differ), else the whole meta.load objects.
 */
static bool nc_loads_differ(json_t *a, json_t *b)
{
	json_t *ga = json_object_get(a, "gen_args");
	json_t *gb = json_object_get(b, "gen_args");

	if (ga || gb)
		return !ga || !gb || !json_equal(ga, gb);
	return (a || b) && !json_equal(a, b);
}

/* nc_diff_loads - the warnings for runs that are not alike */
static void nc_diff_loads(struct nc_diff *d)
{
	const struct nc_model *a = d->ma, *b = d->mb;
	const char *cpu_a = a->meta.cpu_model ? a->meta.cpu_model : "";
	const char *cpu_b = b->meta.cpu_model ? b->meta.cpu_model : "";
	double hi = fmax(d->pps_a, d->pps_b);

	if (strcmp(cpu_a, cpu_b))
		nc_diff_warn(d, "CPU models differ (A: %s, B: %s): cycles are not comparable, the ns columns may be",
			     cpu_a, cpu_b);
	/* the kernel's TSC calibration wobbles by a kHz or so: 0.1% is noise */
	else if (fabs((double)a->info.tsc_khz - b->info.tsc_khz) >
		 0.001 * fmax(a->info.tsc_khz, b->info.tsc_khz))
		nc_diff_warn(d, "TSC rates differ (A: %u kHz, B: %u kHz): compare the ns columns",
			     a->info.tsc_khz, b->info.tsc_khz);
	if (hi > 0 && fabs(d->pps_a - d->pps_b) / hi > 0.2)
		nc_diff_warn(d, "loads differ: A ran %.0f packets/s, B %.0f (more than 20%% apart); per-packet costs depend on the rate",
			     d->pps_a, d->pps_b);
	if (nc_model_sample(a) != nc_model_sample(b))
		nc_diff_warn(d, "A timed rx_skb and tx_xmit on 1 packet in %u, B on 1 in %u (config sample): a sampled side's means and percentiles are its timed packets'",
			     nc_model_sample(a), nc_model_sample(b));
	if (nc_packet_basis(a) != nc_packet_basis(b))
		nc_diff_warn(d, "A and B are not per the same packets: A is %s, B %s",
			     nc_basis_desc(nc_packet_basis(a)), nc_basis_desc(nc_packet_basis(b)));
	{
		char la[256], lb[256];
		unsigned int na = nc_recorded_cpulist(a, la, sizeof(la));
		unsigned int nb = nc_recorded_cpulist(b, lb, sizeof(lb));

		if (strcmp(la, lb))
			nc_diff_warn(d, "A and B cover different CPUs (A: %s, %u CPU%s; B: %s, %u CPU%s): their totals add up different CPUs",
				     la, na, na == 1 ? "" : "s", lb, nb, nb == 1 ? "" : "s");
	}
	if (nc_loads_differ(a->meta.load, b->meta.load))
		nc_diff_warn(d, "loads differ: meta.load (the generator's arguments) is not the same in A and B");
	if (nc_ctx_switch_holds_all(a) != nc_ctx_switch_holds_all(b))
		nc_diff_warn(d, "ctx_switch differs by definition: %s holds every switch (a module before 0.10.0), %s only the packet path's (the rest is ctx_switch_other)",
			     nc_ctx_switch_holds_all(a) ? "A" : "B", nc_ctx_switch_holds_all(a) ? "B" : "A");
	if (nc_frames_hold_switch_work(a) != nc_frames_hold_switch_work(b))
		nc_diff_warn(d, "preempted stages differ by definition: %s's frames hold netcost's own switch work (a module before 0.12.0: syscall_tx on RT reads about 4-5%% more), %s's do not",
			     nc_frames_hold_switch_work(a) ? "A" : "B", nc_frames_hold_switch_work(a) ? "B" : "A");
	if (nc_syscalls_any_socket(a) != nc_syscalls_any_socket(b))
		nc_diff_warn(d, "syscall_rx and syscall_tx differ by definition: %s's count calls on any socket (a module before 0.14.0: unix and netlink ones too, netcost's own commands among them), %s's on inet sockets only",
			     nc_syscalls_any_socket(a) ? "A" : "B", nc_syscalls_any_socket(a) ? "B" : "A");
}

/* nc_diff_paths - the packet-path settings that differ between A and B */
static void nc_diff_paths(struct nc_diff *d)
{
	json_t *list = nc_pathcfg_diff(d->ma->meta.path_config, d->mb->meta.path_config), *e;
	size_t i;

	d->nr_path_all = (unsigned int)json_array_size(list);
	json_array_foreach(list, i, e) {
		struct nc_diff_path *p = &d->path[d->nr_path];
		char *a, *b;

		if (d->nr_path == ARRAY_SIZE(d->path))
			break;
		a = json_dumps(json_object_get(e, "a"), JSON_ENCODE_ANY | JSON_COMPACT);
		b = json_dumps(json_object_get(e, "b"), JSON_ENCODE_ANY | JSON_COMPACT);
		snprintf(p->key, sizeof(p->key), "%s", json_string_value(json_object_get(e, "key")));
		snprintf(p->a, sizeof(p->a), "%s", a ? a : "null");
		snprintf(p->b, sizeof(p->b), "%s", b ? b : "null");
		free(a);
		free(b);
		d->nr_path++;
	}
	json_decref(list);
}

/*
 * nc_diff_napi - the NAPI instances of A and B by device (their ids differ
 * between kernels), and B/A of their napi_poll cycles per timed poll; then
 * one by one (nc_napi_pair())
 */
static void nc_diff_napi(struct nc_diff *d)
{
	unsigned int i;

	nc_napi_by_device(&d->napi, d->ma, d->mb);
	for (i = 0; i < d->napi.nr; i++)
		d->napi_ratio[i] = nc_ratio(d->napi.dev[i].side[1].cycles_per_poll,
					    d->napi.dev[i].side[0].cycles_per_poll);
	if (d->napi.left_out)
		nc_diff_warn(d, "NAPI: %llu instance%s of devices past the first %d left out of the comparison",
			     (unsigned long long)d->napi.left_out, d->napi.left_out == 1 ? "" : "s",
			     NC_MAX_NAPI_DEVICES);
	nc_napi_pair(&d->napi_pairs, d->ma, d->mb);
	if (d->napi_pairs.left_out)
		nc_diff_warn(d, "NAPI: %llu instance row%s past the first %d left out of the comparison",
			     (unsigned long long)d->napi_pairs.left_out,
			     d->napi_pairs.left_out == 1 ? "" : "s", NC_MAX_NAPI_PAIRS);
}

/*
 * nc_diff_compute - compare snapshot @a with @b into @d.  Returns 0, or
 * NC_EXIT_NO_PACKETS when either counted no packets (nothing to divide by).
 * Per packet follows each side's nc_packet_basis().
 */
int nc_diff_compute(struct nc_diff *d, const struct nc_model *a, const char *name_a,
		    const struct nc_model *b, const char *name_b)
{
	const struct nc_model *m[2] = { a, b };
	const char *names[2] = { name_a, name_b };
	double total_delta;
	unsigned int i, s;

	memset(d, 0, sizeof(*d));
	d->ma = a;
	d->mb = b;
	d->name_a = name_a;
	d->name_b = name_b;
	for (i = 0; i < 2; i++) {
		if (m[i]->basis_forced && !nc_basis_packets(m[i])) {
			nc_err("%s: no %s packets in the snapshot: nothing to divide by with --basis %s",
			       names[i], nc_basis_name(nc_packet_basis(m[i])),
			       nc_basis_name(nc_packet_basis(m[i])));
			return NC_EXIT_NO_PACKETS;
		}
		if (!nc_basis_packets(m[i])) {
			nc_err("%s: no rx packets and no tx packets in the snapshot: nothing to divide by",
			       names[i]);
			return NC_EXIT_NO_PACKETS;
		}
	}
	/* per sent packet on one side, per received on the other: no ratio means anything */
	if ((nc_packet_basis(a) == NC_BASIS_TX) != (nc_packet_basis(b) == NC_BASIS_TX)) {
		nc_err("A (%s) is %s, B (%s) %s: their figures do not compare; choose one with --basis rx or --basis tx",
		       name_a, nc_basis_desc(nc_packet_basis(a)), name_b,
		       nc_basis_desc(nc_packet_basis(b)));
		return NC_EXIT_NO_PACKETS;
	}
	d->pps_a = fmax(nc_per_s(a, nc_basis_packets(a)), 0);
	d->pps_b = fmax(nc_per_s(b, nc_basis_packets(b)), 0);

	for (s = 0; s < a->nr_stages; s++)
		nc_diff_stage_fill(&d->stage[d->nr_stages++], a, (int)s, b,
				   nc_model_find_stage(b, a->stage[s].name));
	for (s = 0; s < b->nr_stages; s++)
		if (nc_model_find_stage(a, b->stage[s].name) < 0)
			nc_diff_stage_fill(&d->stage[d->nr_stages++], a, -1, b, (int)s);

	d->total_a = nc_top_per_packet(a, &a->total);
	d->total_b = nc_top_per_packet(b, &b->total);
	d->total_a_ns = nc_cycles_to_ns(d->total_a, a->info.tsc_khz);
	d->total_b_ns = nc_cycles_to_ns(d->total_b, b->info.tsc_khz);
	d->ratio = nc_ratio(d->total_b, d->total_a);
	d->ratio_ns = nc_ratio(d->total_b_ns, d->total_a_ns);
	total_delta = d->total_b - d->total_a;
	/* NAN: no total difference to share (printed "-", null) */
	for (s = 0; s < d->nr_stages; s++)
		d->stage[s].share = d->stage[s].unit == NETCOST_UNIT_CYCLES ?
				    nc_share(d->stage[s].delta, total_delta) : NAN;
	qsort(d->stage, d->nr_stages, sizeof(d->stage[0]), nc_diff_cmp);

	for (s = 0; s < a->nr_counters; s++)
		nc_diff_counter_fill(d, a->counter[s]);
	for (s = 0; s < b->nr_counters; s++)
		if (nc_model_find_counter(a, b->counter[s]) < 0)
			nc_diff_counter_fill(d, b->counter[s]);
	nc_diff_loads(d);
	nc_diff_paths(d);
	nc_diff_napi(d);
	return NC_EXIT_OK;
}

/* nc_fmt - a per-packet figure, or "-" when the side had none */
static const char *nc_fmt(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else
		nc_report_value(buf, len, v);
	return buf;
}

/* nc_diff_side_json - what -j says about one snapshot */
static json_t *nc_diff_side_json(const struct nc_model *m, const char *name,
				 double total, double total_ns, double pps)
{
	json_t *o = json_object();

	json_object_set_new(o, "file", json_string(name));
	json_object_set_new(o, "kernel", json_string(m->info.kernel));
	json_object_set_new(o, "preempt", json_string(nc_preempt_model(m->info.preempt_rt,
									m->info.threadirqs)));
	json_object_set_new(o, "cpu_model", json_string(m->meta.cpu_model ? m->meta.cpu_model : ""));
	json_object_set_new(o, "tsc_khz", json_integer(m->info.tsc_khz));
	json_object_set_new(o, "note", m->meta.note ? json_string(m->meta.note) : json_null());
	json_object_set_new(o, "rx_packets",
			    json_integer((json_int_t)nc_cpu_counter(m, &m->total, "rx_packets")));
	json_object_set_new(o, "tx_packets",
			    json_integer((json_int_t)nc_cpu_counter(m, &m->total, "tx_packets")));
	json_object_set_new(o, "per_packet_basis", json_string(nc_basis_name(nc_packet_basis(m))));
	json_object_set_new(o, "packets_per_s", json_real(pps));
	json_object_set_new(o, "cycles_per_packet", json_real(total));
	json_object_set_new(o, "ns_per_packet", json_real(total_ns));
	return o;
}

/* nc_jnum - a per-packet figure for -j: null when the side had no packets */
static json_t *nc_jnum(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

/* nc_diff_napi_figures_json - a NAPI side's counts and figures, added to @o */
static json_t *nc_diff_napi_figures_json(json_t *o, const struct nc_napi_side *s)
{
	json_object_set_new(o, "polls", nc_json_u64(s->sum.polls));
	json_object_set_new(o, "packets", nc_json_u64(s->sum.packets));
	json_object_set_new(o, "timed_polls", nc_json_u64(s->sum.timed_polls));
	json_object_set_new(o, "cycles", nc_json_u64(s->sum.cycles));
	json_object_set_new(o, "packets_per_poll", nc_jnum(s->packets_per_poll));
	json_object_set_new(o, "cycles_per_poll", nc_jnum(s->cycles_per_poll));
	json_object_set_new(o, "cycles_per_packet", nc_jnum(s->cycles_per_packet));
	return o;
}

/* nc_diff_napi_side_json - one side of a device's NAPI row: null when it has none */
static json_t *nc_diff_napi_side_json(const struct nc_napi_side *s)
{
	if (!s->instances)
		return json_null();
	return nc_diff_napi_figures_json(json_pack("{s:o}", "instances",
						   nc_json_u64(s->instances)), s);
}

/* nc_json_u32_or_null - @v, or null when @has is false (unknown, none) */
static json_t *nc_json_u32_or_null(bool has, uint32_t v)
{
	return has ? nc_json_u64(v) : json_null();
}

/* nc_diff_napi_inst_json - one side of a pair: the instance and its figures, or null */
static json_t *nc_diff_napi_inst_json(const struct nc_napi_side *s)
{
	const struct nc_napi *n = &s->sum;
	json_t *o;

	if (!s->instances)
		return json_null();
	o = json_object();
	json_object_set_new(o, "id", nc_json_u64(n->id));
	json_object_set_new(o, "ifindex", nc_json_u64(n->ifindex));
	json_object_set_new(o, "backlog_cpu", nc_json_u32_or_null(!n->has_ifname, n->backlog_cpu));
	json_object_set_new(o, "irq", nc_json_u32_or_null(n->has_irq, n->irq));
	json_object_set_new(o, "thread_pid", nc_json_u32_or_null(n->has_thread_pid, n->thread_pid));
	return nc_diff_napi_figures_json(o, s);
}

/* nc_diff_napi_pairs_json - "napi_instances": each instance of A with its counterpart in B */
static json_t *nc_diff_napi_pairs_json(const struct nc_diff *d)
{
	json_t *na = json_array();
	unsigned int i;

	for (i = 0; i < d->napi_pairs.nr; i++) {
		const struct nc_napi_pair *p = &d->napi_pairs.pair[i];
		const char *by = nc_napi_match_name(p->match);

		json_array_append_new(na, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
						    "device", p->device,
						    "paired_by", by ? json_string(by) : json_null(),
						    "a", nc_diff_napi_inst_json(&p->side[0]),
						    "b", nc_diff_napi_inst_json(&p->side[1]),
						    "ratio_cycles_per_poll",
						    nc_jnum(p->ratio_cycles_per_poll),
						    "ratio_cycles_per_packet",
						    nc_jnum(p->ratio_cycles_per_packet)));
	}
	return na;
}

/* nc_diff_napi_json - "napi": a device's instances in A and B, an object each */
static json_t *nc_diff_napi_json(const struct nc_diff *d)
{
	json_t *na = json_array();
	unsigned int i;

	for (i = 0; i < d->napi.nr; i++) {
		const struct nc_napi_dev *n = &d->napi.dev[i];

		json_array_append_new(na, json_pack("{s:s, s:o, s:o, s:o}", "device", n->device,
						    "a", nc_diff_napi_side_json(&n->side[0]),
						    "b", nc_diff_napi_side_json(&n->side[1]),
						    "ratio_cycles_per_poll",
						    nc_jnum(d->napi_ratio[i])));
	}
	return na;
}

/* nc_json_text - JSON text back to a value (a cut one stays a string) */
static json_t *nc_json_text(const char *s)
{
	json_t *v = json_loads(s, JSON_DECODE_ANY, NULL);

	return v ? v : json_string(s);
}

/* nc_diff_json - the whole diff as one JSON document */
static json_t *nc_diff_json(const struct nc_diff *d)
{
	json_t *o = json_object(), *st = json_object(), *ct = json_object(), *w = json_array();
	unsigned int i;

	json_object_set_new(o, "schema", json_integer(NC_SNAPSHOT_SCHEMA));
	json_object_set_new(o, "a", nc_diff_side_json(d->ma, d->name_a, d->total_a,
						      d->total_a_ns, d->pps_a));
	json_object_set_new(o, "b", nc_diff_side_json(d->mb, d->name_b, d->total_b,
						      d->total_b_ns, d->pps_b));
	json_object_set_new(o, "ratio", nc_jnum(d->ratio));
	json_object_set_new(o, "ratio_ns", nc_jnum(d->ratio_ns));
	for (i = 0; i < d->nr_stages; i++) {
		const struct nc_diff_stage *r = &d->stage[i];
		json_t *s = json_object();

		json_object_set_new(s, "stage", json_string(r->name));
		json_object_set_new(s, "role", json_string(nc_role_name(r->role)));
		json_object_set_new(s, "unit", json_string(r->unit == NETCOST_UNIT_PACKETS ?
							   "packets" : "cycles"));
		json_object_set_new(s, "a_per_packet", nc_jnum(r->a));
		json_object_set_new(s, "b_per_packet", nc_jnum(r->b));
		json_object_set_new(s, "a_ns_per_packet", nc_jnum(r->unit ? -1 : r->a_ns));
		json_object_set_new(s, "b_ns_per_packet", nc_jnum(r->unit ? -1 : r->b_ns));
		json_object_set_new(s, "ratio", nc_jnum(r->ratio));
		json_object_set_new(s, "delta", r->a >= 0 && r->b >= 0 ? json_real(r->delta) :
						json_null());
		json_object_set_new(s, "share", r->a >= 0 && r->b >= 0 && r->role == NC_ROLE_TOP &&
						r->unit == NETCOST_UNIT_CYCLES && !isnan(r->share) ?
						json_real(r->share) : json_null());
		json_object_set_new(s, "p50_a", nc_jnum(r->p50_a));
		json_object_set_new(s, "p50_b", nc_jnum(r->p50_b));
		json_object_set_new(s, "p99_a", nc_jnum(r->p99_a));
		json_object_set_new(s, "p99_b", nc_jnum(r->p99_b));
		json_object_set_new(s, "ks", nc_jnum(r->ks));
		json_object_set_new(s, "emd", nc_jnum(r->emd));
		json_object_set_new(st, r->name, s);	/* in the text's order */
	}
	for (i = 0; i < d->nr_counters; i++) {
		json_t *c = json_object();

		json_object_set_new(c, "counter", json_string(d->counter[i].name));
		json_object_set_new(c, "a_per_packet", nc_jnum(d->counter[i].a));
		json_object_set_new(c, "b_per_packet", nc_jnum(d->counter[i].b));
		json_object_set_new(ct, d->counter[i].name, c);
	}
	for (i = 0; i < d->nr_warnings; i++)
		json_array_append_new(w, json_string(d->warning[i]));
	{
		json_t *pd = json_array();

		for (i = 0; i < d->nr_path; i++)
			json_array_append_new(pd, json_pack("{s:s, s:o, s:o}", "key", d->path[i].key,
							    "a", nc_json_text(d->path[i].a),
							    "b", nc_json_text(d->path[i].b)));
		json_object_set_new(o, "path_differences", pd);
	}
	json_object_set_new(o, "stages", st);
	json_object_set_new(o, "counters", ct);
	json_object_set_new(o, "napi", nc_diff_napi_json(d));
	json_object_set_new(o, "napi_instances", nc_diff_napi_pairs_json(d));
	json_object_set_new(o, "warnings", w);
	json_object_set_new(o, "a_sample", json_integer(nc_model_sample(d->ma)));
	json_object_set_new(o, "b_sample", json_integer(nc_model_sample(d->mb)));
	return o;
}

/* nc_diff_heading - "A = file: kernel (model), N s, N pkt/s, TSC", then the note */
static void nc_diff_heading(FILE *f, const char *tag, const struct nc_model *m,
			    const char *name, double pps)
{
	const char *base = strrchr(name, '/');

	fprintf(f, "%s = %s: %s (%s), %.3f s, %.0f %s pkt/s, TSC %.1f MHz\n", tag,
		base && base[1] ? base + 1 : name, m->info.kernel,
		nc_preempt_model(m->info.preempt_rt, m->info.threadirqs),
		nc_interval_s(m), pps, nc_packet_basis(m) == NC_BASIS_TX ? "tx" : "rx",
		m->info.tsc_khz / 1000.0);
	if (m->meta.note)
		fprintf(f, "    note: %s\n", m->meta.note);
	if (nc_model_sample(m) > 1)
		fprintf(f, "    sampled: rx_skb and tx_xmit timed on 1 packet in %u (config sample)\n",
			nc_model_sample(m));
}

/* nc_count_or_dash - @v as text, or "-" when @has is false (the side has none) */
static const char *nc_count_or_dash(char *buf, size_t len, bool has, uint64_t v)
{
	if (has)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* nc_ratio_fmt - a B/A as "1.50x", or "-" when undefined */
static const char *nc_ratio_fmt(char *buf, size_t len, double r)
{
	if (r >= 0)
		snprintf(buf, len, "%.2fx", r);
	else
		snprintf(buf, len, "-");
	return buf;
}

/*
 * nc_diff_napi_text - the NAPI section, when A or B has instances that
 * polled: per device, the instances of each side, their packets per poll
 * and napi_poll cycles per timed poll, and B/A of those
 */
static void nc_diff_napi_text(FILE *f, const struct nc_diff *d)
{
	char v[7][32];
	unsigned int i, k;
	int w = 16;	/* IFNAMSIZ - 1, or the longest name */

	if (!d->napi.nr)
		return;
	for (i = 0; i < d->napi.nr; i++)
		if ((int)strlen(d->napi.dev[i].device) > w)
			w = (int)strlen(d->napi.dev[i].device);
	fprintf(f, "\n%-*s %6s %6s %11s %10s %11s %10s %7s\n", w, "NAPI by device", "A inst",
		"B inst", "A pkt/poll", "B pkt/poll", "A cyc/poll", "B cyc/poll", "B/A");
	for (i = 0; i < d->napi.nr; i++) {
		const struct nc_napi_side *a = &d->napi.dev[i].side[0];
		const struct nc_napi_side *b = &d->napi.dev[i].side[1];

		for (k = 0; k < 2; k++)	/* "-": the side has none of the device */
			nc_count_or_dash(v[k], 32, d->napi.dev[i].side[k].instances,
					 d->napi.dev[i].side[k].instances);
		fprintf(f, "%-*s %6s %6s %11s %10s %11s %10s %7s\n", w, d->napi.dev[i].device, v[0],
			v[1], nc_fmt(v[2], 32, a->packets_per_poll),
			nc_fmt(v[3], 32, b->packets_per_poll),
			nc_fmt(v[4], 32, a->cycles_per_poll), nc_fmt(v[5], 32, b->cycles_per_poll),
			nc_ratio_fmt(v[6], 32, d->napi_ratio[i]));
	}
	if (d->napi.left_out)
		fprintf(f, "  ... %llu instance%s of more devices left out\n",
			(unsigned long long)d->napi.left_out, d->napi.left_out == 1 ? "" : "s");
}

/*
 * nc_diff_napi_pair_name - a pair's row name: its device, and for an
 * instance without one (a CPU's own: a backlog) "/cpuN", its CPU
 */
static const char *nc_diff_napi_pair_name(char *buf, size_t len, const struct nc_napi_pair *p)
{
	const struct nc_napi *n = p->side[0].instances ? &p->side[0].sum : &p->side[1].sum;

	if (n->has_ifname)
		snprintf(buf, len, "%s", p->device);
	else
		snprintf(buf, len, "%s/cpu%u", p->device, n->backlog_cpu);
	return buf;
}

/*
 * nc_diff_napi_pairs_text - the NAPI instances one by one, when A or B has
 * instances that polled: each of A with its counterpart in B and how they
 * were paired, their polls and packets, napi_poll cycles per poll and per
 * packet and B/A of those
 */
static void nc_diff_napi_pairs_text(FILE *f, const struct nc_diff *d)
{
	const struct nc_napi_pairs *t = &d->napi_pairs;
	char name[NC_NAME_LEN + 16], v[12][32];
	bool by_order = false;
	unsigned int i, k;
	int w = 16;	/* IFNAMSIZ - 1, or the longest name */

	if (!t->nr)
		return;
	for (i = 0; i < t->nr; i++)
		if ((int)strlen(nc_diff_napi_pair_name(name, sizeof(name), &t->pair[i])) > w)
			w = (int)strlen(name);
	fprintf(f, "\n%-*s %6s %6s %-7s %9s %9s %10s %10s %10s %10s %7s %9s %9s %7s\n", w + 2,
		"NAPI instances", "A id", "B id", "by", "A polls", "B polls", "A pkts", "B pkts",
		"A cyc/poll", "B cyc/poll", "B/A", "A cyc/pkt", "B cyc/pkt", "B/A");
	for (i = 0; i < t->nr; i++) {
		const struct nc_napi_pair *p = &t->pair[i];
		const char *by = nc_napi_match_name(p->match);

		for (k = 0; k < 2; k++) {
			const struct nc_napi_side *s = &p->side[k];

			nc_count_or_dash(v[k], 32, s->instances, s->sum.id);
			nc_count_or_dash(v[2 + k], 32, s->instances, s->sum.polls);
			nc_count_or_dash(v[4 + k], 32, s->instances, s->sum.packets);
			nc_fmt(v[6 + k], 32, s->cycles_per_poll);
			nc_fmt(v[8 + k], 32, s->cycles_per_packet);
		}
		by_order |= p->match == NC_NAPI_BY_ORDER;
		fprintf(f, "  %-*s %6s %6s %-7s %9s %9s %10s %10s %10s %10s %7s %9s %9s %7s\n", w,
			nc_diff_napi_pair_name(name, sizeof(name), p), v[0], v[1], by ? by : "-",
			v[2], v[3], v[4], v[5], v[6], v[7],
			nc_ratio_fmt(v[10], 32, p->ratio_cycles_per_poll), v[8], v[9],
			nc_ratio_fmt(v[11], 32, p->ratio_cycles_per_packet));
	}
	if (t->left_out)
		fprintf(f, "  ... %llu more instance row%s left out\n",
			(unsigned long long)t->left_out, t->left_out == 1 ? "" : "s");
	if (by_order)
		fprintf(f, "  order: the device's napi_ids differ between A and B (another boot): its instances\n"
			"  paired in napi_id order, the order its driver added its queues; id 0 with id 0\n");
}

/* nc_diff_text - the tables of "netcost diff" */
static void nc_diff_text(FILE *f, const struct nc_diff *d)
{
	char v[6][32];
	unsigned int i;
	int section = 0;

	nc_diff_heading(f, "A", d->ma, d->name_a, d->pps_a);
	nc_diff_heading(f, "B", d->mb, d->name_b, d->pps_b);
	fprintf(f, "\ntotal per packet (top-level stages): A %s cycles (%s ns), B %s cycles (%s ns)",
		nc_fmt(v[0], 32, d->total_a), nc_fmt(v[1], 32, d->total_a_ns),
		nc_fmt(v[2], 32, d->total_b), nc_fmt(v[3], 32, d->total_b_ns));
	if (d->ratio >= 0)
		fprintf(f, "\n  B/A %.2fx cycles, %.2fx ns", d->ratio,
			d->ratio_ns >= 0 ? d->ratio_ns : 0);
	if (d->nr_path) {
		int w = 10;

		for (i = 0; i < d->nr_path; i++)
			if ((int)strlen(d->path[i].key) > w)
				w = (int)strlen(d->path[i].key);
		fprintf(f, "\n\npacket path settings that differ:\n  %-*s %-16s %s\n", w,
			"setting", "A", "B");
		for (i = 0; i < d->nr_path; i++)
			fprintf(f, "  %-*s %-16s %s\n", w, d->path[i].key, d->path[i].a,
				d->path[i].b);
		if (d->nr_path_all > d->nr_path)
			fprintf(f, "  ... %u more in -j\n", d->nr_path_all - d->nr_path);
	}
	fprintf(f, "\n\n%-18s %10s %10s %7s %10s %7s %9s %9s\n", "stage", "A cyc/pkt",
		"B cyc/pkt", "B/A", "delta", "share", "A ns/pkt", "B ns/pkt");
	for (i = 0; i < d->nr_stages; i++) {
		const struct nc_diff_stage *r = &d->stage[i];

		if (r->unit != NETCOST_UNIT_CYCLES || (r->a <= 0 && r->b <= 0))
			continue;
		if (nc_diff_rank(r) == 1 && section < 1)
			fprintf(f, "-- not in the total (nested, or other work):\n");
		if (nc_diff_rank(r) == 2 && section < 2)
			fprintf(f, "-- waiting (time off CPU, not in the total):\n");
		section = nc_diff_rank(r);
		fprintf(f, "%-18s %10s %10s", r->name, nc_fmt(v[0], 32, r->a), nc_fmt(v[1], 32, r->b));
		if (r->ratio >= 0)
			fprintf(f, " %6.2fx", r->ratio);
		else
			fprintf(f, " %7s", "-");
		if (r->a >= 0 && r->b >= 0)
			fprintf(f, " %+10.0f", r->delta);
		else
			fprintf(f, " %10s", "-");
		if (r->role == NC_ROLE_TOP && !isnan(r->share))
			fprintf(f, " %6.1f%%", 100 * r->share);
		else if (r->role == NC_ROLE_TOP)
			fprintf(f, " %7s", "-");
		else
			fprintf(f, " %7s", "");
		fprintf(f, " %9s %9s\n", nc_fmt(v[2], 32, r->a_ns), nc_fmt(v[3], 32, r->b_ns));
	}

	fprintf(f, "\n%-18s %21s %21s %6s %10s\n", "shape (cycles)", "p50 A -> B", "p99 A -> B",
		"KS", "EMD");
	for (i = 0; i < d->nr_stages; i++) {
		const struct nc_diff_stage *r = &d->stage[i];
		char shift[2][80];

		if (r->p50_a <= 0 && r->p50_b <= 0 && r->p99_a <= 0 && r->p99_b <= 0)
			continue;
		nc_fmt(v[0], 32, r->p50_a);
		nc_fmt(v[1], 32, r->p50_b);
		nc_fmt(v[2], 32, r->p99_a);
		nc_fmt(v[3], 32, r->p99_b);
		snprintf(shift[0], sizeof(shift[0]), "%s -> %s", v[0], v[1]);
		snprintf(shift[1], sizeof(shift[1]), "%s -> %s", v[2], v[3]);
		if (r->ks < 0)
			snprintf(v[5], 32, "-");
		else
			snprintf(v[5], 32, "%.3f", r->ks);
		fprintf(f, "%-18s %21s %21s %6s %10s%s\n", r->name, shift[0], shift[1], v[5],
			nc_fmt(v[4], 32, r->emd), r->unit == NETCOST_UNIT_PACKETS ? " (packets)" : "");
	}

	fprintf(f, "\n%-32s %10s %10s\n", nc_packet_basis(d->ma) == NC_BASIS_TX ?
		"per tx packet" : "per rx packet", "A", "B");	/* one basis: see compute */
	for (i = 0; i < d->nr_counters; i++) {
		const struct nc_diff_counter *c = &d->counter[i];

		if (!strcmp(c->name, "rx_packets") || (c->a <= 0 && c->b <= 0))
			continue;
		fprintf(f, "%-32s %10s %10s\n", c->name, nc_fmt(v[0], 32, c->a),
			nc_fmt(v[1], 32, c->b));
	}
	nc_diff_napi_text(f, d);
	nc_diff_napi_pairs_text(f, d);
	fprintf(f, "\npercentiles within %.1f%%; KS: 0 same shape .. 1 disjoint; EMD: cycles an event moves on average\n",
		100.0 * NC_HIST_REL_ERROR);
	if (nc_irq_thread_holds_net_rx(d->ma) || nc_irq_thread_holds_net_rx(d->mb))
		fprintf(f, "irq_thread: less the NET_RX it runs, which softirq_net_rx counts (a module before 0.6.0)\n");
	if (d->napi.nr)
		fprintf(f, "NAPI: the instances that polled, by device (backlog: every CPU's); cyc/poll: napi_poll cycles\n"
			"  per timed poll (NET_RX, NAPI threads; busy polls are not timed)\n");
	if (d->napi_pairs.nr)
		fprintf(f, "NAPI instances: A's paired with B's by napi_id (one boot), by order where a device's\n"
			"  ids differ, a backlog with the same CPU's (cpu), - on one side only; cyc/pkt:\n"
			"  napi_poll cycles per packet, where every poll was timed\n");
}

/*
 * nc_diff_print - the diff on @f, text or JSON, with its warnings on
 * stderr.  Returns 0 or NC_EXIT_ERROR.
 */
int nc_diff_print(FILE *f, const struct nc_diff *d, bool json)
{
	unsigned int i;
	int ret = NC_EXIT_OK;

	for (i = 0; i < d->nr_warnings; i++)
		nc_warn("%s", d->warning[i]);
	if (json) {
		json_t *o = nc_diff_json(d);

		ret = nc_json_print(f, o, 2);
		json_decref(o);
		return ret;
	}
	nc_diff_text(f, d);
	return ferror(f) ? NC_EXIT_ERROR : NC_EXIT_OK;
}
