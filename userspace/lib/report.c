// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - "netcost dump" (and "show", "watch"): one row per stage with
 * events, events and cycles per packet, mean and percentiles and the share
 * of the interval's CPU time; then the counters, where NET_RX ran and the
 * NAPI instances (0.9.0).  JSON (-j) prints the same model as {"info",
 * "cpus", "total", "napi_dropped"}.
 *
 * Per packet: see nc_packet_basis() (metrics.c); on a box doing both
 * directions, per rx packet, except for the transmit stages
 * (tx_xmit, syscall_tx, softirq_net_tx), which are per tx packet.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "report.h"
#include "snapshot.h"

#define NC_TOP_N	3	/* stages named in the closing line */

enum {
	OPT_PER_CPU = 256,
	OPT_CPU,
	OPT_STAGE,
	OPT_NS,
	OPT_ALL,
	OPT_WIDE,
};

/* nc_parse_double - a whole number string as a double in [@lo, @hi] */
static int nc_parse_double(const char *s, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return (*s && !*end && *v >= lo && *v <= hi) ? 0 : -1;
}

/*
 * nc_report_getopt - the options "dump", "show" and (with @watch, which
 * adds -i and -n) "watch" share.  Leaves optind at the first operand and
 * checks that there are @min_args..@max_args.  Returns 0 or NC_EXIT_USAGE.
 */
int nc_report_getopt(int argc, char **argv, struct nc_report_opts *o,
		     int min_args, int max_args, bool watch)
{
	static const struct option opts[] = {
		{ "json",	no_argument,		NULL, 'j' },
		{ "per-cpu",	no_argument,		NULL, OPT_PER_CPU },
		{ "cpu",	required_argument,	NULL, OPT_CPU },
		{ "stage",	required_argument,	NULL, OPT_STAGE },
		{ "ns",		no_argument,		NULL, OPT_NS },
		{ "all",	no_argument,		NULL, OPT_ALL },
		{ "wide",	no_argument,		NULL, OPT_WIDE },
		{ "interval",	required_argument,	NULL, 'i' },
		{ "count",	required_argument,	NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	bool cpus[NC_MAX_CPUS];
	double v;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval = 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, watch ? "ji:n:" : "j", opts, NULL)) != -1) {
		if (!watch && (c == 'i' || c == 'n'))
			c = '?';
		switch (c) {
		case 'i':
			if (nc_parse_double(optarg, 0.1, 3600, &o->interval))
				return nc_usage_err("%s: -i wants seconds from 0.1 to 3600, not '%s'",
						    argv[0], optarg);
			break;
		case 'n':
			if (nc_parse_double(optarg, 1, 1e9, &v) || v != (long)v)
				return nc_usage_err("%s: -n wants a count >= 1, not '%s'",
						    argv[0], optarg);
			o->count = (long)v;
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_PER_CPU:
			o->per_cpu = true;
			break;
		case OPT_CPU:
			if (nc_parse_cpulist(optarg, cpus, NC_MAX_CPUS))
				return nc_usage_err("%s: bad CPU list '%s'", argv[0], optarg);
			o->cpus = optarg;
			break;
		case OPT_STAGE:
			o->stages = optarg;
			break;
		case OPT_NS:
			o->ns = true;
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case OPT_WIDE:
			o->wide = true;
			break;
		default:
			return nc_usage_err("%s: unknown option or missing argument '%s'",
					    argv[0], argv[optind - 1]);
		}
	}
	if (argc - optind < min_args)
		return nc_usage_err("%s: missing FILE", argv[0]);
	if (argc - optind > max_args)
		return nc_usage_err("%s: unexpected argument '%s'", argv[0],
				    argv[optind + max_args]);
	return NC_EXIT_OK;
}

/*
 * nc_report_select - @out (not inited) becomes @m narrowed to the CPUs of
 * --cpu and the stages of --stage, totalled again; @m stays as it is.  A
 * stage name or CPU the model does not have is a usage error that lists
 * the ones it does (and @out is left empty).  Returns 0 or the status.
 */
int nc_report_select(struct nc_model *out, const struct nc_model *m,
		     const struct nc_report_opts *o)
{
	bool keep[NC_MAX_STAGES] = { false };
	bool *set = NULL, *have;
	unsigned int i, s;
	char list[256];
	int ret = NC_EXIT_OK;

	memset(out, 0, sizeof(*out));
	if (o->stages) {
		char *copy = nc_xstrdup(o->stages), *save = NULL, *name;
		size_t len = strlen(o->stages);

		/* every name given: no empty list, no empty element */
		if (!len || o->stages[0] == ',' || o->stages[len - 1] == ',' ||
		    strstr(o->stages, ",,")) {
			free(copy);
			return nc_usage_err("--stage '%s': name one or more stages, separated by commas",
					    o->stages);
		}

		for (name = strtok_r(copy, ",", &save); name && !ret;
		     name = strtok_r(NULL, ",", &save)) {
			int idx = nc_model_find_stage(m, name);

			if (idx < 0) {
				char known[1024] = "";

				for (s = 0; s < m->nr_stages; s++)
					snprintf(known + strlen(known), sizeof(known) - strlen(known),
						 "%s%s", s ? "," : "", m->stage[s].name);
				/* @name points into @copy: report, then free */
				ret = nc_usage_err("no stage '%s' (stages: %s)", name, known);
				break;
			}
			keep[idx] = true;
		}
		free(copy);
		if (ret)
			return ret;
	}
	if (o->cpus) {
		set = nc_xcalloc(NC_MAX_CPUS, sizeof(*set));
		have = nc_xcalloc(NC_MAX_CPUS, sizeof(*have));
		nc_parse_cpulist(o->cpus, set, NC_MAX_CPUS);
		for (i = 0; i < m->nr_cpus; i++)
			have[m->cpus[i].cpu] = true;
		for (i = 0; i < NC_MAX_CPUS && !ret; i++) {
			if (!set[i] || have[i])
				continue;
			nc_format_cpulist(have, NC_MAX_CPUS, list, sizeof(list));
			ret = nc_usage_err("--cpu %s: CPU %u has no statistics here (CPUs: %s)",
					   o->cpus, i, *list ? list : "none");
		}
		free(have);
		if (ret) {
			free(set);
			return ret;
		}
	}
	nc_model_filter(out, m, o->stages ? keep : NULL, set);
	free(set);
	return NC_EXIT_OK;
}

/*
 * nc_opt_json - parse a command line that takes only -j/--json, with
 * @min_args..@max_args operands left at optind.  Returns 0 or
 * NC_EXIT_USAGE.
 */
int nc_opt_json(int argc, char **argv, bool *json, int min_args, int max_args)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*json = false;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "j", opts, NULL)) != -1) {
		if (c != 'j')
			return nc_usage_err("%s: unknown option '%s'", argv[0], argv[optind - 1]);
		*json = true;
	}
	if (argc - optind < min_args)
		return nc_usage_err("%s: missing argument", argv[0]);
	if (argc - optind > max_args)
		return nc_usage_err("%s: unexpected argument '%s'", argv[0],
				    argv[optind + max_args]);
	return NC_EXIT_OK;
}

/* What a report prints a block with: the model and the unit switch */
struct nc_block {
	FILE *f;
	const struct nc_model *m;
	const struct nc_report_opts *o;
	unsigned int nr_cpus;		/* CPUs behind the block's numbers */
	double interval_s;
	int name_w;			/* the stage column: 17, or the longest name + mark */
};

/* nc_block_time - a cycle figure in the report's unit (cycles or ns) */
static double nc_block_time(const struct nc_block *b, unsigned int s, double v)
{
	if (!b->o->ns || b->m->stage[s].unit != NETCOST_UNIT_CYCLES)
		return v;
	return nc_cycles_to_ns(v, b->m->info.tsc_khz);
}

/* nc_stage_mark - the marker after a stage name: nested or latency */
static const char *nc_stage_mark(const struct nc_stage_desc *d)
{
	switch (d->role) {
	case NC_ROLE_NESTED:
		return "*";
	case NC_ROLE_LATENCY:
		return "~";
	case NC_ROLE_OTHER:
		return "+";
	default:
		return "";
	}
}

/*
 * The percentile columns: p50 and p99 fit the table in 100 columns;
 * --wide adds p90 and p99.9.
 */
static const double nc_pct[] = { 50, 99 };
static const double nc_pct_wide[] = { 50, 90, 99, 99.9 };

/* nc_print_stage_row - one stage's row of the table */
static void nc_print_stage_row(const struct nc_block *b, const struct nc_cpu *c,
			       unsigned int s)
{
	const double *pct = b->o->wide ? nc_pct_wide : nc_pct;
	unsigned int nr_pct = b->o->wide ? ARRAY_SIZE(nc_pct_wide) : ARRAY_SIZE(nc_pct);
	const struct nc_model *m = b->m;
	const struct nc_stage_desc *d = &m->stage[s];
	const struct nc_hist *h = c->stage[s];
	static const struct nc_hist empty;
	double evpp = nc_stage_events_per_packet(m, c, s);
	double pp = nc_stage_per_packet(m, c, s);
	double cpu_pct = nc_stage_cpu_pct(m, c, s, b->nr_cpus);
	char name[NC_NAME_LEN + 2], v[32];
	unsigned int i;

	if (!h)
		h = &empty;
	snprintf(name, sizeof(name), "%s%s", d->name, nc_stage_mark(d));
	fprintf(b->f, "%-*s %10llu", b->name_w, name, (unsigned long long)h->count);
	if (evpp >= 0) {
		nc_report_value(v, sizeof(v), evpp);
		fprintf(b->f, " %7s", v);
	} else {
		fprintf(b->f, " %7s", "-");
	}
	if (evpp >= 0 && d->unit == NETCOST_UNIT_CYCLES) {
		nc_report_value(v, sizeof(v), nc_block_time(b, s, pp < 0 ? 0 : pp));
		fprintf(b->f, " %8s", v);
	} else {
		fprintf(b->f, " %8s", "-");
	}
	if (!h->count) {
		for (i = 0; i < nr_pct + 2; i++)
			fprintf(b->f, " %8s", "-");
	} else {
		nc_report_value(v, sizeof(v), nc_block_time(b, s, nc_hist_mean(h)));
		fprintf(b->f, " %8s", v);
		for (i = 0; i < nr_pct; i++) {
			nc_report_value(v, sizeof(v),
					nc_block_time(b, s, nc_hist_percentile(h, pct[i])));
			fprintf(b->f, " %8s", v);
		}
		nc_report_value(v, sizeof(v), nc_block_time(b, s, (double)h->max));
		fprintf(b->f, " %8s", v);
	}
	fprintf(b->f, " %-7s", d->unit == NETCOST_UNIT_PACKETS ? "packets" :
				b->o->ns ? "ns" : "cycles");
	if (cpu_pct >= 0)
		fprintf(b->f, " %5.2f\n", cpu_pct);
	else
		fprintf(b->f, " %5s\n", "-");
}

/* nc_print_stages - the stage table of @c, its total and its largest stages */
static void nc_print_stages(const struct nc_block *b, const struct nc_cpu *c)
{
	const struct nc_model *m = b->m;
	const char *u = b->o->ns ? "ns" : "cyc";
	unsigned int s, i, top[NC_TOP_N], nr_top;
	double total = nc_top_per_packet(m, c);
	double top_pct = nc_cpu_time_pct(m, nc_top_cycles(m, c), b->nr_cpus);
	char v[32];

	if (b->o->wide)
		fprintf(b->f, "%-*s %10s %7s %5s/pkt %8s %8s %8s %8s %8s %8s %-7s %5s\n", b->name_w,
			"stage", "events", "ev/pkt", u, "mean", "p50", "p90", "p99", "p99.9",
			"max", "unit", "cpu%");
	else
		fprintf(b->f, "%-*s %10s %7s %5s/pkt %8s %8s %8s %8s %-7s %5s\n", b->name_w,
			"stage", "events", "ev/pkt", u, "mean", "p50", "p99", "max", "unit", "cpu%");
	for (s = 0; s < m->nr_stages; s++) {
		if (!b->o->all && (!c->stage[s] || !c->stage[s]->count))
			continue;
		nc_print_stage_row(b, c, s);
	}

	nr_top = nc_top_stages(m, c, top, NC_TOP_N);
	if (total < 0 && nc_basis_packets(m)) {
		/* --stage left out every top-level stage: no total to give */
		fprintf(b->f, "total: none of the stages shown is top-level (--stage %s)\n",
			b->o->stages ? b->o->stages : "");
		return;
	}
	if (total < 0) {
		fprintf(b->f, "total: no packets, no cost per packet\n");
		return;
	}
	nc_report_value(v, sizeof(v), b->o->ns ? nc_cycles_to_ns(total, m->info.tsc_khz) : total);
	fprintf(b->f, "total: %s %s/pkt in top-level stages", v, u);
	if (!b->o->ns && m->info.tsc_khz) {
		nc_report_value(v, sizeof(v), nc_cycles_to_ns(total, m->info.tsc_khz));
		fprintf(b->f, " (%s ns)", v);
	}
	if (top_pct >= 0)
		fprintf(b->f, ", %.2f%% of the recorded CPU time", top_pct);
	fprintf(b->f, "\nlargest per packet:");
	for (i = 0; i < nr_top; i++) {
		double x = nc_stage_own_per_packet(m, c, top[i]);

		nc_report_value(v, sizeof(v), nc_block_time(b, top[i], x));
		fprintf(b->f, "%s %s %s (%.0f%%)", i ? "," : "", m->stage[top[i]].name, v,
			100.0 * x / total);
	}
	fprintf(b->f, " %s/pkt\n", u);
}

/*
 * nc_print_counters - the counters of @c, per packet and per second, then
 * where NET_RX ran: the runs and cycles in each context with their share.
 */
static void nc_print_counters(const struct nc_block *b, const struct nc_cpu *c)
{
	const struct nc_model *m = b->m;
	struct nc_netrx_row rows[NC_MAX_COUNTERS];
	unsigned int i, n;
	char v[32];

	int w = b->o->wide ? 34 : 28;

	/* as wide as the longest name shown */
	for (i = 0; i < m->nr_counters; i++)
		if (c->has_counter[i] && (int)strlen(m->counter[i]) > w)
			w = (int)strlen(m->counter[i]);
	fprintf(b->f, "\n%-*s %14s %9s %10s\n", w, "counter", "total",
		"per pkt", "per s");
	for (i = 0; i < m->nr_counters; i++) {
		const char *name = m->counter[i];

		if (!c->has_counter[i] || nc_is_netrx_runs(name) || nc_is_netrx_cycles(name))
			continue;
		if (!c->counter[i] && !b->o->all)
			continue;
		fprintf(b->f, "%-*s %14llu", w, name, (unsigned long long)c->counter[i]);
		if (strcmp(name, "rx_packets") && strcmp(name, "tx_packets") &&
		    nc_counter_per_packet(m, c, i) >= 0) {
			nc_report_value(v, sizeof(v), nc_counter_per_packet(m, c, i));
			fprintf(b->f, " %9s", v);
		} else {
			fprintf(b->f, " %9s", "-");
		}
		if (nc_per_s(m, c->counter[i]) >= 0)
			fprintf(b->f, " %10.0f\n", nc_per_s(m, c->counter[i]));
		else
			fprintf(b->f, " %10s\n", "-");
	}

	n = nc_netrx_placement(m, c, rows, ARRAY_SIZE(rows));
	if (!n)
		return;
	fprintf(b->f, "\n%-28s %14s %6s %14s %6s %9s\n", "NET_RX ran in", "runs", "share",
		b->o->ns ? "ns" : "cycles", "share", b->o->ns ? "ns/pkt" : "cyc/pkt");
	for (i = 0; i < n; i++) {
		const struct nc_netrx_row *r = &rows[i];

		fprintf(b->f, "  %-26s %14llu %5.1f%% %14.0f %5.1f%%", r->where,
			(unsigned long long)r->runs, r->runs_pct,
			b->o->ns ? nc_cycles_to_ns((double)r->cycles, m->info.tsc_khz) :
				   (double)r->cycles, r->cycles_pct);
		if (r->per_packet >= 0) {
			nc_report_value(v, sizeof(v), b->o->ns ?
					nc_cycles_to_ns(r->per_packet, m->info.tsc_khz) :
					r->per_packet);
			fprintf(b->f, " %9s\n", v);
		} else {
			fprintf(b->f, " %9s\n", "-");
		}
	}
}

/* nc_napi_cpulist - the CPUs @n (an instance of @c) polled on, as a cpulist */
static void nc_napi_cpulist(const struct nc_napi *n, const struct nc_cpu *c, char *buf,
			    size_t len)
{
	bool *set;
	unsigned int i;

	if (!n->nr_cpus) {
		snprintf(buf, len, "%u", c->cpu);
		return;
	}
	set = nc_xcalloc(NC_MAX_CPUS, sizeof(*set));
	for (i = 0; i < n->nr_cpus; i++)
		if (n->cpus[i] < NC_MAX_CPUS)
			set[n->cpus[i]] = true;
	nc_format_cpulist(set, NC_MAX_CPUS, buf, len);
	free(set);
}

/* nc_u32_or_dash - @v as text, or "-" when @has is false */
static const char *nc_u32_or_dash(char *buf, size_t len, bool has, uint32_t v)
{
	if (!has)
		return "-";
	snprintf(buf, len, "%u", v);
	return buf;
}

/*
 * nc_print_napi - the NAPI instances of @c (0.9.0), by device name, then
 * id: each one's IRQ and NAPI thread, polls, packets and the napi_poll
 * time of its timed polls, and the CPUs it polled on.  Instances without
 * polls only with --all.
 */
static void nc_print_napi(const struct nc_block *b, const struct nc_cpu *c)
{
	const struct nc_model *m = b->m;
	char irq[16], pid[16], pp[32], cp[32], cpus[256];
	unsigned int i, shown = 0;
	int w = 16;		/* IFNAMSIZ - 1, or the longest name */

	for (i = 0; i < c->nr_napi; i++)
		if ((int)strlen(nc_napi_device(&c->napi[i])) > w)
			w = (int)strlen(nc_napi_device(&c->napi[i]));
	for (i = 0; i < c->nr_napi; i++) {
		const struct nc_napi *n = &c->napi[i];
		double ppp = nc_napi_packets_per_poll(n), cpp = nc_napi_cycles_per_poll(n);

		if (!n->polls && !b->o->all)
			continue;
		if (!shown++)
			fprintf(b->f, "\n%-*s %8s %5s %7s %11s %11s %8s %11s %8s %s\n", w + 2,
				"NAPI instances", "id", "irq", "thread", "polls", "packets", "pkt/poll",
				"timed polls", b->o->ns ? "ns/poll" : "cyc/poll", "CPUs");
		strcpy(pp, "-");
		if (ppp >= 0)
			nc_report_value(pp, sizeof(pp), ppp);
		strcpy(cp, "-");
		if (cpp >= 0)
			nc_report_value(cp, sizeof(cp), b->o->ns ?
					nc_cycles_to_ns(cpp, m->info.tsc_khz) : cpp);
		nc_napi_cpulist(n, c, cpus, sizeof(cpus));
		fprintf(b->f, "  %-*s %8u %5s %7s %11llu %11llu %8s %11llu %8s %s\n", w,
			nc_napi_device(n), n->id, nc_u32_or_dash(irq, sizeof(irq), n->has_irq, n->irq),
			nc_u32_or_dash(pid, sizeof(pid), n->has_thread_pid, n->thread_pid),
			(unsigned long long)n->polls, (unsigned long long)n->packets, pp,
			(unsigned long long)n->timed_polls, cp, cpus);
	}
	if (c == &m->total && m->napi_dropped)
		fprintf(b->f, "%s%llu NAPI instance%s of CPUs not shown: netcost keeps %d\n",
			shown ? "" : "\n", (unsigned long long)m->napi_dropped,
			m->napi_dropped == 1 ? "" : "s", NC_MAX_NAPI);
}

/* nc_print_block - the tables for @c (the total, or one CPU) */
static void nc_print_block(struct nc_block *b, const struct nc_cpu *c)
{
	uint64_t rx = nc_cpu_counter(b->m, c, "rx_packets");
	uint64_t tx = nc_cpu_counter(b->m, c, "tx_packets");

	fprintf(b->f, "packets: rx %llu", (unsigned long long)rx);
	if (nc_per_s(b->m, rx) >= 0)
		fprintf(b->f, " (%.0f/s)", nc_per_s(b->m, rx));
	fprintf(b->f, ", tx %llu", (unsigned long long)tx);
	if (nc_per_s(b->m, tx) >= 0)
		fprintf(b->f, " (%.0f/s)", nc_per_s(b->m, tx));
	fprintf(b->f, "\n\n");
	nc_print_stages(b, c);
	nc_print_counters(b, c);
	nc_print_napi(b, c);
}

/* nc_print_header - kernel, preemption model, CPUs and interval */
static void nc_print_header(const struct nc_block *b)
{
	const struct nc_info *info = &b->m->info;
	char cpus[256];
	bool *set = nc_xcalloc(NC_MAX_CPUS, sizeof(*set));
	unsigned int i, n = b->m->nr_cpus, nrec = 0;

	for (i = 0; i < b->m->nr_cpus; i++)
		set[b->m->cpus[i].cpu] = true;
	nc_format_cpulist(set, NC_MAX_CPUS, cpus, sizeof(cpus));
	if (!nc_parse_cpulist(info->config.cpus, set, NC_MAX_CPUS))
		for (i = 0; i < NC_MAX_CPUS; i++)
			nrec += set[i];
	free(set);
	/* the module's version is the one that recorded (a snapshot's); the tool's is ours */
	fprintf(b->f, "kernel %s (%s), netcost module %s, tool %s\n", info->kernel,
		nc_preempt_model(info->preempt_rt, info->threadirqs), info->version,
		NETCOST_VERSION);
	fprintf(b->f, "CPUs: %s (%u CPU%s) with statistics", *cpus ? cpus : "none", n,
		n == 1 ? "" : "s");
	if (nrec)
		fprintf(b->f, ", recording %s (%u CPU%s)", info->config.cpus, nrec,
			nrec == 1 ? "" : "s");
	fprintf(b->f, "; interval %.3f s, TSC %.1f MHz\n", b->interval_s,
		info->tsc_khz / 1000.0);
	nc_print_sampled(b->f, b->m);
	if (!b->m->has_meta)
		return;
	/* a snapshot: where and when it was taken, and what for */
	fprintf(b->f, "snapshot: taken %s, CPU %s\n",
		b->m->meta.taken_at && *b->m->meta.taken_at ? b->m->meta.taken_at : "(unknown time)",
		b->m->meta.cpu_model && *b->m->meta.cpu_model ? b->m->meta.cpu_model : "unknown");
	if (b->m->meta.kernel && strcmp(b->m->meta.kernel, info->kernel))
		fprintf(b->f, "snapshot kernel: %s\n", b->m->meta.kernel);
	if (b->m->meta.note && *b->m->meta.note)
		fprintf(b->f, "note: %s\n", b->m->meta.note);
}

/*
 * nc_print_sampled - the line that says which stages of @m were timed on
 * 1 packet in N (nothing when none was)
 */
void nc_print_sampled(FILE *f, const struct nc_model *m)
{
	unsigned int s, n = 0;

	for (s = 0; s < m->nr_stages; s++) {
		if (!nc_stage_sampled(m, s))
			continue;
		fprintf(f, "%s%s", n++ ? ", " : "sampled: ", m->stage[s].name);
	}
	if (n)
		fprintf(f, " timed on 1 packet in %u (config sample); mean and percentiles\n"
			"  from the timed packets, events and per-packet figures of all of them\n",
			nc_model_sample(m));
}

/* nc_print_footer - how to read the marks, and how exact percentiles are */
static void nc_print_footer(const struct nc_block *b)
{
	fprintf(b->f, "\n* inside another stage, not in the total    + not packet work, not in the total\n"
		"~ waiting time, not CPU time\n");
	if (nc_irq_thread_holds_net_rx(b->m))
		fprintf(b->f, "irq_thread includes the NET_RX it runs (in softirq_net_rx too): the total and the\n"
			"largest stages count it once.\n");
	else
		fprintf(b->f, "irq_thread is net of the softirqs its thread runs (in their own stages).\n");
	fprintf(b->f, "per pkt: %s.\ncpu%%: of %u CPU(s) x interval.\n",
		nc_basis_desc(nc_packet_basis(b->m)), b->nr_cpus);
	fprintf(b->f, "percentiles from log-linear buckets: within %.1f%% of the true value, exact below %u.\n",
		100.0 * NC_HIST_REL_ERROR, 2 * NETCOST_HIST_SUB);
	if (b->m->total.nr_napi)
		fprintf(b->f, "NAPI instances: %s/poll of the polls timed in napi_poll (NET_RX, NAPI threads;\n"
			"busy polls are not); backlog: the CPUs' backlogs; irq, thread: - unknown, none.\n",
			b->o->ns ? "ns" : "cyc");
}

/* nc_jnull - a derived figure, or null when it does not exist */
static json_t *nc_jnull(bool exists, double v)
{
	return exists ? json_real(v) : json_null();
}

/*
 * nc_report_stage_json - add to stage object @o of @c what "dump" derives:
 * mean and percentiles per event, events and the sum per packet (in
 * ns with --ns); null where they do not exist
 */
static void nc_report_stage_json(json_t *o, const struct nc_model *m, const struct nc_cpu *c,
				 unsigned int s, const struct nc_report_opts *opts)
{
	static const struct nc_hist empty;
	const struct nc_hist *h = c->stage[s] ? c->stage[s] : &empty;
	double evpp = nc_stage_events_per_packet(m, c, s);
	double pp = nc_stage_per_packet(m, c, s);
	double k = opts->ns && m->stage[s].unit == NETCOST_UNIT_CYCLES ?
		   nc_cycles_to_ns(1, m->info.tsc_khz) : 1;

	json_object_set_new(o, "mean", nc_jnull(h->count, k * nc_hist_mean(h)));
	json_object_set_new(o, "p50", nc_jnull(h->count, k * nc_hist_percentile(h, 50)));
	json_object_set_new(o, "p90", nc_jnull(h->count, k * nc_hist_percentile(h, 90)));
	json_object_set_new(o, "p99", nc_jnull(h->count, k * nc_hist_percentile(h, 99)));
	json_object_set_new(o, "p999", nc_jnull(h->count, k * nc_hist_percentile(h, 99.9)));
	json_object_set_new(o, "events_per_packet", nc_jnull(evpp >= 0, evpp));
	json_object_set_new(o, "per_packet", nc_jnull(evpp >= 0, pp < 0 ? 0 : k * pp));
}

/*
 * nc_report_napi_json - add to each NAPI object of @c in @na what "dump"
 * derives: packets per poll, and the napi_poll time per timed poll (in
 * ns with --ns); null where they do not exist
 */
static void nc_report_napi_json(json_t *na, const struct nc_model *m, const struct nc_cpu *c,
				const struct nc_report_opts *o)
{
	double k = o->ns ? nc_cycles_to_ns(1, m->info.tsc_khz) : 1;
	unsigned int i;

	for (i = 0; i < c->nr_napi; i++) {
		json_t *jn = json_array_get(na, i);
		double ppp = nc_napi_packets_per_poll(&c->napi[i]);
		double cpp = nc_napi_cycles_per_poll(&c->napi[i]);

		json_object_set_new(jn, "packets_per_poll", nc_jnull(ppp >= 0, ppp));
		json_object_set_new(jn, "per_poll", nc_jnull(cpp >= 0, k * cpp));
	}
}

/* nc_report_cpu_json - the derived figures of every stage and NAPI instance of @c in @jc */
static void nc_report_cpu_json(json_t *jc, const struct nc_model *m, const struct nc_cpu *c,
			       const struct nc_report_opts *o)
{
	json_t *st = json_object_get(jc, "stages");
	unsigned int s;

	nc_report_napi_json(json_object_get(jc, "napi"), m, c, o);

	for (s = 0; s < m->nr_stages; s++) {
		json_t *js = json_object_get(st, m->stage[s].name);

		/*
		 * The stages the module reported, with or without events (the
		 * lab's jq reads zero counts); --all adds every stage known.
		 */
		if (js)
			nc_report_stage_json(js, m, c, s, o);
	}
}

/*
 * nc_report_json - the "dump -j" document: the snapshot's info, cpus and
 * total (snapshot.c) with the schema, the time unit, and in each stage
 * the figures "dump" derives
 */
json_t *nc_report_json(const struct nc_model *m, const struct nc_report_opts *o)
{
	json_t *body = nc_model_to_json(m, o->all), *root = json_object(), *cpus, *sampled;
	unsigned int i;

	json_object_set_new(root, "schema", json_integer(NC_SNAPSHOT_SCHEMA));
	json_object_set_new(root, "time_unit", json_string(o->ns ? "ns" : "cycles"));
	json_object_set_new(root, "per_packet_basis",
			    json_string(nc_basis_name(nc_packet_basis(m))));
	sampled = json_array();
	for (i = 0; i < m->nr_stages; i++)
		if (nc_stage_sampled(m, i))
			json_array_append_new(sampled, json_string(m->stage[i].name));
	json_object_set_new(root, "sample", json_integer(nc_model_sample(m)));
	json_object_set_new(root, "sampled_stages", sampled);
	json_object_update(root, body);
	json_decref(body);
	cpus = json_object_get(root, "cpus");
	for (i = 0; i < m->nr_cpus; i++)
		nc_report_cpu_json(json_array_get(cpus, i), m, &m->cpus[i], o);
	nc_report_cpu_json(json_object_get(root, "total"), m, &m->total, o);
	return root;
}

/*
 * nc_report_print - the "dump" report of @in (a copy narrowed by --cpu and
 * --stage: @in is not changed) on @f: text, or JSON with -j.  Returns 0 or
 * the exit status.
 */
int nc_report_print(FILE *f, const struct nc_model *in, const struct nc_report_opts *o)
{
	struct nc_model *m = nc_xcalloc(1, sizeof(*m));
	struct nc_block b = { .f = f, .m = m, .o = o };
	unsigned int i;
	int ret;

	ret = nc_report_select(m, in, o);
	if (ret)
		goto out_free;
	if (o->json) {
		json_t *root;

		if (o->ns && !m->info.tsc_khz) {
			nc_err("--ns needs the TSC rate, and the module reported none");
			ret = NC_EXIT_ERROR;
			goto out_free;
		}
		root = nc_report_json(m, o);
		ret = nc_json_print(f, root, o->json_lines ? 0 : 2);
		json_decref(root);
		goto out_free;
	}
	if (o->ns && !m->info.tsc_khz) {
		nc_err("--ns needs the TSC rate, and the module reported none");
		ret = NC_EXIT_ERROR;
		goto out_free;
	}
	b.nr_cpus = nc_recorded_cpus(m);
	b.interval_s = nc_interval_s(m);
	b.name_w = 17;		/* as wide as the longest stage name and its mark */
	for (i = 0; i < m->nr_stages; i++)
		if ((int)strlen(m->stage[i].name) + 1 > b.name_w)
			b.name_w = (int)strlen(m->stage[i].name) + 1;
	nc_print_header(&b);
	nc_print_block(&b, &m->total);
	for (i = 0; o->per_cpu && i < m->nr_cpus; i++) {
		b.nr_cpus = 1;
		fprintf(f, "\n=== CPU %u ===\n", m->cpus[i].cpu);
		nc_print_block(&b, &m->cpus[i]);
	}
	b.nr_cpus = nc_recorded_cpus(m);
	nc_print_footer(&b);
	ret = ferror(f) ? NC_EXIT_ERROR : NC_EXIT_OK;
out_free:
	nc_model_free(m);
	free(m);
	return ret;
}
