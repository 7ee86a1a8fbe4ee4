// SPDX-License-Identifier: GPL-2.0
/*
 * test_diff.c - "netcost diff" arithmetic on synthetic models: cost per
 * packet, ratio, delta and share, the sort by contribution, ns from each
 * side's TSC rate, counters per packet, the NAPI instances by device and
 * one by one (paired by napi_id, by order across boots, backlogs by CPU), the
 * comparability warnings and exit 7 when a snapshot counted no packets.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diff.h"
#include "metrics.h"
#include "report.h"
#include "snapshot.h"
#include "synth.h"

#define NEAR(a, b)	(fabs((double)(a) - (double)(b)) < 1e-9 * fmax(1, fabs((double)(b))))

/* a pair of models and their diff for one test, freed after it */
struct pair {
	struct nc_model m[2];
	struct nc_diff d;
};

static int pair_setup(void **state)
{
	*state = calloc(1, sizeof(struct pair));
	return *state ? 0 : -1;
}

static int pair_teardown(void **state)
{
	struct pair *p = *state;

	nc_model_free(&p->m[0]);
	nc_model_free(&p->m[1]);
	free(p);
	return 0;
}

/* tiny - a model with exact figures: @pkts rx packets and per-packet costs */
static void tiny(struct nc_model *m, uint64_t pkts, double hardirq, double syscall_rx,
		 double napi, uint32_t tsc_khz)
{
	struct nc_cpu *c;
	uint64_t i;

	nc_model_init(m);
	synth_info(m, false, 1);
	m->info.tsc_khz = tsc_khz;
	c = nc_model_cpu(m, 0);
	for (i = 0; i < pkts; i++) {
		synth_record(nc_cpu_hist(c, NETCOST_STAGE_HARDIRQ), (uint64_t)hardirq);
		synth_record(nc_cpu_hist(c, NETCOST_STAGE_SYSCALL_RX), (uint64_t)syscall_rx);
		synth_record(nc_cpu_hist(c, NETCOST_STAGE_NAPI_POLL), (uint64_t)napi);
	}
	synth_counter(m, 0, "rx_packets", pkts);
	synth_counter(m, 0, "ctx_switches", pkts / 2);
	nc_model_sum_total(m, NULL);
}

static const struct nc_diff_stage *find(const struct nc_diff *d, const char *name)
{
	unsigned int i;

	for (i = 0; i < d->nr_stages; i++)
		if (!strcmp(d->stage[i].name, name))
			return &d->stage[i];
	fail_msg("no stage %s", name);
	return NULL;
}

/* exact figures: per packet, ratio, delta, shares, order, ns */
static void test_exact(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	const struct nc_diff_stage *h, *s, *n;

	tiny(a, 10, 100, 200, 1000, 2000000);		/* 2 cycles per ns */
	tiny(b, 20, 150, 450, 1000, 1000000);		/* 1 cycle per ns */
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	h = find(d, "hardirq");
	s = find(d, "syscall_rx");
	n = find(d, "napi_poll");
	assert_true(NEAR(h->a, 100) && NEAR(h->b, 150));
	assert_true(NEAR(h->ratio, 1.5) && NEAR(h->delta, 50));
	assert_true(NEAR(s->ratio, 2.25) && NEAR(s->delta, 250));
	assert_true(NEAR(d->total_a, 300) && NEAR(d->total_b, 600));	/* napi_poll is nested */
	assert_true(NEAR(h->share, 50.0 / 300) && NEAR(s->share, 250.0 / 300));
	assert_true(NEAR(h->a_ns, 50) && NEAR(h->b_ns, 150));
	assert_true(NEAR(d->total_a_ns, 150) && NEAR(d->total_b_ns, 600));
	assert_true(NEAR(n->delta, 0));
	/* the largest contribution first, top-level before nested */
	assert_string_equal(d->stage[0].name, "syscall_rx");
	assert_string_equal(d->stage[1].name, "hardirq");
	assert_true(d->stage[2].role == NC_ROLE_TOP || d->stage[2].delta == 0);
	/* all the same value: no shape change */
	assert_true(NEAR(h->p50_a, 100) && NEAR(h->p50_b, 150));
	assert_true(NEAR(n->ks, 0) && NEAR(n->emd, 0));
	assert_true(NEAR(h->ks, 1));
	/* counters per rx packet */
	assert_string_equal(d->counter[NETCOST_CTR_CTX_SWITCHES].name, "ctx_switches");
	assert_true(NEAR(d->counter[NETCOST_CTR_CTX_SWITCHES].a, 0.5));
	/* same CPU model, other TSC rate; pps differs (10 vs 20 per s) */
	assert_int_equal(d->nr_warnings, 2);
	assert_non_null(strstr(d->warning[0], "TSC rates differ"));
	assert_non_null(strstr(d->warning[1], "loads differ"));
}

/* stock vs PREEMPT_RT: shares add up, a stage only B has, ratios */
static void test_synthetic_rt(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	const struct nc_diff_stage *t;
	double share = 0, delta = 0;
	unsigned int i;

	nc_model_init(a);
	nc_model_init(b);
	synth_model(a, false, true);
	synth_model(b, true, true);
	assert_int_equal(nc_diff_compute(d, a, "stock", b, "rt"), 0);
	assert_int_equal(d->nr_warnings, 0);	/* same CPU, load and rate */
	for (i = 0; i < d->nr_stages; i++) {
		if (d->stage[i].role != NC_ROLE_TOP)
			continue;
		share += d->stage[i].share;
		delta += d->stage[i].delta;
		if (i > 0 && d->stage[i - 1].role == NC_ROLE_TOP)
			assert_true(fabs(d->stage[i - 1].delta) >= fabs(d->stage[i].delta));
	}
	assert_true(NEAR(share, 1));
	assert_true(NEAR(delta, d->total_b - d->total_a));
	assert_true(d->total_b > 1.5 * d->total_a);
	t = find(d, "irq_thread");
	assert_true(t->a == 0 && t->b > 0 && t->ratio == -1 && t->ks < 0);
	t = find(d, "hardirq");
	assert_true(t->ratio < 0.5 && t->ks > 0.9);	/* the RT hardirq only wakes the thread */
}

/* warnings when the runs differ; exit 7 without packets */
static void test_warnings_and_no_packets(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	int rx;

	nc_model_init(a);
	nc_model_init(b);
	synth_model(a, false, true);
	synth_model(b, true, true);
	free(b->meta.cpu_model);
	b->meta.cpu_model = nc_xstrdup("Intel(R) Xeon(R) Gold 6230");
	json_object_set_new(b->meta.load, "pps", json_integer(100000));
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);
	assert_non_null(strstr(d->warning[0], "CPU models differ"));
	assert_non_null(strstr(d->warning[1], "meta.load"));

	/* ctx_switch held every switch before 0.10.0: a diff across says so */
	strcpy(a->info.version, "0.9.0");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 5);
	assert_non_null(strstr(d->warning[2], "ctx_switch differs by definition: A holds every switch"));
	assert_non_null(strstr(d->warning[3], "preempted stages differ by definition: A's frames hold"));
	assert_non_null(strstr(d->warning[4], "syscall_rx and syscall_tx differ by definition: A's count calls on any socket"));
	strcpy(b->info.version, "0.8.1");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);
	/* frames hold netcost's switch work before 0.12.0 */
	strcpy(a->info.version, "0.11.0");
	strcpy(b->info.version, "0.12.0");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 3);
	assert_non_null(strstr(d->warning[2], "preempted stages differ by definition: A's frames hold"));
	strcpy(b->info.version, "0.11.1");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);
	/* syscall stages count any socket's calls before 0.14.0 */
	strcpy(a->info.version, "0.14.0");
	strcpy(b->info.version, "0.13.0");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 3);
	assert_non_null(strstr(d->warning[2], "B's count calls on any socket"));
	strcpy(b->info.version, "0.14.1");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);
	/* one side sampled (0.15.0 config sample); 0 (an older file) is 1 */
	a->info.config.sample = 64;
	b->info.config.sample = 0;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 3);
	assert_true(strstr(d->warning[0], "A timed rx_skb and tx_xmit on 1 packet in 64, B on 1 in 1") ||
		    strstr(d->warning[1], "A timed rx_skb and tx_xmit on 1 packet in 64, B on 1 in 1") ||
		    strstr(d->warning[2], "A timed rx_skb and tx_xmit on 1 packet in 64, B on 1 in 1"));
	b->info.config.sample = 64;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);
	a->info.config.sample = 1;
	b->info.config.sample = 0;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);

	rx = nc_model_find_counter(b, "rx_packets");
	b->total.counter[rx] = 0;
	b->total.counter[nc_model_find_counter(b, "tx_packets")] = 0;
	nc_err_quiet = true;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), NC_EXIT_NO_PACKETS);
	nc_err_quiet = false;
	assert_non_null(strstr(nc_last_err, "b: no rx packets"));
}

/* the printed forms: text names the ratio, JSON parses back */
static void test_print(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	char *buf = NULL;
	size_t len = 0;
	json_t *o;
	FILE *f;

	tiny(a, 10, 100, 200, 1000, 2000000);
	tiny(b, 10, 150, 450, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(nc_diff_print(f, d, false), 0);
	fclose(f);
	assert_non_null(strstr(buf, "B/A 2.00x cycles"));
	assert_non_null(strstr(buf, "syscall_rx"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(nc_diff_print(f, d, true), 0);
	fclose(f);
	o = json_loads(buf, 0, NULL);
	assert_non_null(o);
	assert_true(NEAR(json_real_value(json_object_get(o, "ratio")), 2));
	/* stages and counters are objects keyed by name, as in dump -j */
	assert_true(json_is_object(json_object_get(o, "stages")));
	assert_true(json_is_object(json_object_get(o, "counters")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		json_object_get(o, "stages"), "syscall_rx"), "stage")), "syscall_rx");
	assert_true(NEAR(json_real_value(json_object_get(json_object_get(
		json_object_get(o, "stages"), "syscall_rx"), "ratio")), 2.25));
	assert_int_equal(json_integer_value(json_object_get(o, "schema")), NC_SNAPSHOT_SCHEMA);
	json_decref(o);
	free(buf);
}

/*
 * the waiting stages (issue 12) have a section of their own, after the
 * other work, and are not in the total
 */
static void test_waiting_section(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	const char *nested, *waiting, *napi, *runq, *blocked;
	char *buf = NULL;
	size_t len = 0;
	double total_a;
	FILE *f;
	int i;

	tiny(a, 10, 100, 200, 1000, 2000000);
	tiny(b, 10, 150, 450, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	total_a = d->total_a;
	memset(d, 0, sizeof(*d));
	for (i = 0; i < 10; i++) {
		synth_record(nc_cpu_hist(nc_model_cpu(a, 0), NETCOST_STAGE_RUNQ_WAIT_LOAD), 5000);
		synth_record(nc_cpu_hist(nc_model_cpu(b, 0), NETCOST_STAGE_RUNQ_WAIT_LOAD), 90000);
		synth_record(nc_cpu_hist(nc_model_cpu(b, 0), NETCOST_STAGE_BLOCKED_LOAD), 7000);
	}
	nc_model_sum_total(a, NULL);
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_true(NEAR(d->total_a, total_a));
	assert_int_equal(find(d, "runq_wait_load")->role, NC_ROLE_LATENCY);
	f = open_memstream(&buf, &len);
	assert_int_equal(nc_diff_print(f, d, false), 0);
	fclose(f);
	nested = strstr(buf, "-- not in the total (nested, or other work):");
	waiting = strstr(buf, "-- waiting (time off CPU, not in the total):");
	napi = strstr(buf, "napi_poll ");
	runq = strstr(buf, "runq_wait_load ");
	blocked = strstr(buf, "blocked_load ");
	assert_non_null(nested);
	assert_non_null(waiting);
	assert_non_null(napi);
	assert_non_null(runq);
	assert_non_null(blocked);
	assert_true(nested < napi && napi < waiting && waiting < runq && runq < blocked);
	free(buf);
}

/* diff_out - what nc_diff_print() prints of @d, text or (@json) JSON */
static char *diff_out(const struct nc_diff *d, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(nc_diff_print(f, d, json), 0);
	fclose(f);
	return buf;
}

/* diff_json - nc_diff_print(-j) of @d, parsed */
static json_t *diff_json(const struct nc_diff *d)
{
	char *buf = diff_out(d, true);
	json_t *o = json_loads(buf, 0, NULL);

	assert_non_null(o);
	free(buf);
	return o;
}

/* json_stage - the entry of stage @name in a diff -j document */
static json_t *json_stage(json_t *o, const char *name)
{
	json_t *st = json_object_get(o, "stages"), *v;
	size_t i;

	if (json_is_object(st))
		return json_object_get(st, name);
	json_array_foreach(st, i, v)
		if (!strcmp(json_string_value(json_object_get(v, "stage")), name))
			return v;
	return NULL;
}

/*
 * issue 11, bug 8: figures without a meaning printed as numbers.  A side
 * without rx packets is exit 7; a ratio over zero is null in -j.
 */
static void test_undefined_figures(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	json_t *o;

	/* A's hardirq costs 0 per packet: B/A is undefined */
	tiny(a, 10, 0, 200, 1000, 2000000);
	tiny(b, 10, 150, 450, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	o = diff_json(d);
	assert_non_null(json_stage(o, "hardirq"));
	assert_true(json_is_null(json_object_get(json_stage(o, "hardirq"), "ratio")));
	assert_true(NEAR(json_real_value(json_object_get(json_stage(o, "syscall_rx"), "ratio")),
			 2.25));
	json_decref(o);
	nc_model_free(a);
	nc_model_free(b);

	/* no top-level cycles at all in A: the total ratio is undefined */
	tiny(a, 10, 0, 0, 1000, 2000000);
	tiny(b, 10, 150, 450, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	o = diff_json(d);
	assert_true(json_is_null(json_object_get(o, "ratio")));
	assert_true(json_is_null(json_object_get(o, "ratio_ns")));
	json_decref(o);
	nc_model_free(b);

	/*
	 * issue 22, bug 7: B received nothing but sent (per tx packet), A
	 * per rx packet: no ratio across bases (was "B/A 19380x"), exit 7
	 * and a hint; --basis rx|tx forces one, and a side without those
	 * packets is then exit 7 too
	 */
	tiny(b, 10, 150, 450, 1000, 2000000);
	b->total.counter[nc_model_find_counter(b, "rx_packets")] = 0;
	b->total.counter[nc_model_counter(b, "tx_packets")] = 5;
	b->total.has_counter[nc_model_counter(b, "tx_packets")] = true;
	nc_err_quiet = true;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), NC_EXIT_NO_PACKETS);
	assert_non_null(strstr(nc_last_err, "--basis"));
	nc_model_force_basis(a, NC_BASIS_RX);
	nc_model_force_basis(b, NC_BASIS_RX);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), NC_EXIT_NO_PACKETS);
	assert_non_null(strstr(nc_last_err, "b: no rx packets"));
	nc_model_force_basis(a, NC_BASIS_TX);
	nc_model_force_basis(b, NC_BASIS_TX);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), NC_EXIT_NO_PACKETS);
	assert_non_null(strstr(nc_last_err, "a: no tx packets"));
	nc_err_quiet = false;
	/* both per tx packet: B's 600 cycles over its 5 sent packets */
	a->total.counter[nc_model_counter(a, "tx_packets")] = 10;
	a->total.has_counter[nc_model_counter(a, "tx_packets")] = true;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_true(NEAR(d->total_b, 600.0 * 10 / 5));
	o = diff_json(d);
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "b"),
							      "per_packet_basis")), "tx");
	json_decref(o);
	nc_model_force_basis(a, NC_BASIS_MIXED);	/* back to each side's own */
	nc_model_free(b);

	/* B neither received nor sent: nothing to divide by */
	tiny(b, 10, 150, 450, 1000, 2000000);
	b->total.counter[nc_model_find_counter(b, "rx_packets")] = 0;
	nc_err_quiet = true;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), NC_EXIT_NO_PACKETS);
	nc_err_quiet = false;
	assert_non_null(strstr(nc_last_err, "b: no rx packets and no tx packets"));
}

/* a sampled side (config sample, 0.15.0): its heading and the JSON say so */
static void test_sampled_heading(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	json_t *o;
	char *txt;

	nc_model_init(a);
	nc_model_init(b);
	synth_model(a, false, true);
	synth_model(b, false, true);
	a->info.config.sample = 64;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	txt = diff_out(d, false);
	assert_non_null(strstr(txt, "    sampled: rx_skb and tx_xmit timed on 1 packet in 64"));
	assert_null(strstr(strstr(txt, "B = "), "sampled:"));
	free(txt);
	o = diff_json(d);
	assert_int_equal(json_integer_value(json_object_get(o, "a_sample")), 64);
	assert_int_equal(json_integer_value(json_object_get(o, "b_sample")), 1);
	json_decref(o);
}

/*
 * issue 22, bug 6: equal totals leave the shares undefined (null, "-"),
 * not 0.0%; bug 16: snapshots of different CPU sets are warned about
 */
static void test_share_and_cpus(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;
	json_t *o;

	tiny(a, 10, 100, 200, 1000, 2000000);
	tiny(b, 20, 100, 200, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	o = diff_json(d);
	assert_true(json_is_null(json_object_get(json_stage(o, "hardirq"), "share")));
	json_decref(o);
	f = open_memstream(&buf, &len);
	nc_diff_print(f, d, false);
	fclose(f);
	if (strstr(buf, "0.0%"))
		fail_msg("a share over a zero total delta:\n%s", buf);
	free(buf);
	for (i = 0; i < d->nr_warnings; i++)
		if (strstr(d->warning[i], "CPUs"))
			fail_msg("a warning about CPUs for the same CPUs: %s", d->warning[i]);
	nc_model_free(b);

	/* B has a second CPU */
	tiny(b, 20, 100, 200, 1000, 2000000);
	synth_record(nc_cpu_hist(nc_model_cpu(b, 1), NETCOST_STAGE_HARDIRQ), 100);
	snprintf(b->info.config.cpus, sizeof(b->info.config.cpus), "0-1");
	snprintf(a->info.config.cpus, sizeof(a->info.config.cpus), "0");
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	for (i = 0; i < d->nr_warnings; i++)
		if (strstr(d->warning[i], "CPUs") && strstr(d->warning[i], "A: 0,") &&
		    strstr(d->warning[i], "B: 0-1"))
			break;
	if (i == d->nr_warnings)
		fail_msg("no warning about different CPU sets (%u warnings)", d->nr_warnings);
}

/*
 * napi - NAPI instance @id of device @dev (NULL: none, a backlog with id
 * 0) on @cpu of @m: @polls polls of @packets packets, @timed of them
 * timed at @cycles napi_poll cycles in all
 */
static void napi(struct nc_model *m, uint32_t cpu, const char *dev, uint32_t id, uint64_t polls,
		 uint64_t packets, uint64_t timed, uint64_t cycles)
{
	struct nc_napi n = { .id = id, .ifindex = dev ? 2 : 0, .has_ifname = dev != NULL,
			     .polls = polls, .packets = packets, .timed_polls = timed,
			     .cycles = cycles };

	if (dev)
		snprintf(n.ifname, sizeof(n.ifname), "%s", dev);
	synth_napi(m, cpu, &n);
}

/* row - the words of the text line that starts with "@name " in @text */
static int row(const char *text, const char *name, char w[8][32])
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "\n%s ", name);
	p = strstr(text, want);
	if (!p)
		fail_msg("no row %s in:\n%s", name, text);
	return sscanf(p + 1, "%31s %31s %31s %31s %31s %31s %31s %31s", w[0], w[1], w[2], w[3],
		      w[4], w[5], w[6], w[7]);
}

/* napi_side - the "a" or "b" object of device @dev in a diff -j document's "napi" */
static json_t *napi_side(json_t *o, const char *dev, const char *side)
{
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(o, "napi"), i, v)
		if (!strcmp(json_string_value(json_object_get(v, "device")), dev))
			return json_object_get(v, side);
	fail_msg("no NAPI device %s", dev);
	return NULL;
}

/*
 * The NAPI instances by device, as instance ids differ between kernels:
 * exact figures a side, every backlog in one row, a side without the
 * device null, undefined figures null and "-", instances without polls
 * left out; no section when neither side has instances; past
 * NC_MAX_NAPI_DEVICES devices, a warning.
 */
static void test_napi_by_device(void **state)
{
	struct pair *p = *state;
	struct nc_model *a = &p->m[0], *b = &p->m[1];
	struct nc_diff *d = &p->d;
	const struct nc_napi_dev *eth0, *eth1, *bl;
	char *text, w[8][32], dev[16];
	json_t *o, *v, *na;
	unsigned int i;

	/*
	 * neither side has instances (snapshots before 0.9.0): no section,
	 * "napi" and "napi_instances" [] (test_napi_instances() pairs them)
	 */
	tiny(a, 10, 100, 200, 1000, 2000000);
	tiny(b, 10, 150, 450, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->napi.nr, 0);
	assert_int_equal(d->napi_pairs.nr, 0);
	text = diff_out(d, false);
	assert_null(strstr(text, "NAPI"));
	free(text);
	o = diff_json(d);
	assert_true(json_is_array(json_object_get(o, "napi")));
	assert_int_equal(json_array_size(json_object_get(o, "napi")), 0);
	assert_true(json_is_array(json_object_get(o, "napi_instances")));
	assert_int_equal(json_array_size(json_object_get(o, "napi_instances")), 0);
	json_decref(o);

	/*
	 * A: eth0's two queues (100 polls of 10 packets at 10,000 cycles, 50
	 * of 5 at 4,000), a backlog on each CPU (10 polls of 2 and of 4
	 * packets, at 2,000 and 4,000 cycles), eth2 idle; B: eth0's one queue
	 * under another id (200 polls of 5 packets, 100 timed at 12,000),
	 * eth1 busy-polled only (not timed)
	 */
	napi(a, 0, "eth0", 8193, 100, 1000, 100, 100 * 10000);
	napi(a, 0, "eth0", 8194, 50, 250, 50, 50 * 4000);
	napi(a, 0, NULL, 0, 10, 20, 10, 10 * 2000);
	napi(a, 1, NULL, 0, 10, 40, 10, 10 * 4000);
	napi(a, 0, "eth2", 8195, 0, 0, 0, 0);
	napi(b, 0, "eth0", 9001, 200, 1000, 100, 100 * 12000);
	napi(b, 0, "eth1", 9002, 30, 30, 0, 0);
	nc_model_sum_total(a, NULL);
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->napi.nr, 3);
	eth0 = &d->napi.dev[0];
	eth1 = &d->napi.dev[1];
	bl = &d->napi.dev[2];
	assert_string_equal(eth0->device, "eth0");
	assert_string_equal(eth1->device, "eth1");
	assert_string_equal(bl->device, "backlog");
	assert_int_equal(eth0->side[0].instances, 2);
	assert_int_equal(eth0->side[0].sum.polls, 150);
	assert_int_equal(eth0->side[0].sum.packets, 1250);
	assert_true(NEAR(eth0->side[0].packets_per_poll, 1250.0 / 150));
	assert_true(NEAR(eth0->side[0].cycles_per_poll, 8000));
	assert_int_equal(eth0->side[1].instances, 1);
	assert_true(NEAR(eth0->side[1].packets_per_poll, 5));
	assert_true(NEAR(eth0->side[1].cycles_per_poll, 12000));
	assert_true(NEAR(d->napi_ratio[0], 1.5));
	assert_int_equal(eth1->side[0].instances, 0);
	assert_true(NEAR(eth1->side[1].packets_per_poll, 1));
	assert_true(eth1->side[1].cycles_per_poll < 0 && d->napi_ratio[1] < 0);
	assert_int_equal(bl->side[0].instances, 2);
	assert_true(NEAR(bl->side[0].packets_per_poll, 3));
	assert_true(NEAR(bl->side[0].cycles_per_poll, 3000));
	assert_true(bl->side[1].instances == 0 && d->napi_ratio[2] < 0);

	text = diff_out(d, false);
	assert_non_null(strstr(text, "NAPI by device"));
	assert_true(strstr(text, "NAPI by device") > strstr(text, "per rx packet"));
	assert_int_equal(row(text, "eth0", w), 8);
	assert_string_equal(w[1], "2");
	assert_string_equal(w[2], "1");
	assert_string_equal(w[3], "8.33");
	assert_string_equal(w[4], "5.00");
	assert_string_equal(w[5], "8000");
	assert_string_equal(w[6], "12000");
	assert_string_equal(w[7], "1.50x");
	assert_int_equal(row(text, "eth1", w), 8);
	assert_true(!strcmp(w[1], "-") && !strcmp(w[3], "-") && !strcmp(w[5], "-"));
	assert_true(!strcmp(w[2], "1") && !strcmp(w[4], "1.00") && !strcmp(w[6], "-"));
	assert_string_equal(w[7], "-");
	assert_int_equal(row(text, "backlog", w), 8);
	assert_true(!strcmp(w[1], "2") && !strcmp(w[5], "3000") && !strcmp(w[6], "-"));
	assert_null(strstr(text, "eth2"));
	free(text);

	o = diff_json(d);
	na = json_object_get(o, "napi");
	assert_int_equal(json_array_size(na), 3);
	v = napi_side(o, "eth0", "a");
	assert_int_equal(json_integer_value(json_object_get(v, "instances")), 2);
	assert_int_equal(json_integer_value(json_object_get(v, "polls")), 150);
	assert_int_equal(json_integer_value(json_object_get(v, "packets")), 1250);
	assert_true(NEAR(json_real_value(json_object_get(v, "packets_per_poll")), 1250.0 / 150));
	assert_true(NEAR(json_real_value(json_object_get(v, "cycles_per_poll")), 8000));
	assert_true(NEAR(json_real_value(json_object_get(napi_side(o, "eth0", "b"),
							 "cycles_per_poll")), 12000));
	assert_true(NEAR(json_real_value(json_object_get(json_array_get(na, 0),
							 "ratio_cycles_per_poll")), 1.5));
	/* a side without the device, a figure without timed polls: null */
	assert_true(json_is_null(napi_side(o, "eth1", "a")));
	assert_true(json_is_null(json_object_get(napi_side(o, "eth1", "b"), "cycles_per_poll")));
	assert_true(json_is_null(json_object_get(json_array_get(na, 1), "ratio_cycles_per_poll")));
	assert_true(json_is_null(napi_side(o, "backlog", "b")));
	json_decref(o);

	/* more devices than a diff keeps: the first ones, and a warning */
	for (i = 0; i < NC_MAX_NAPI_DEVICES + 6; i++) {
		snprintf(dev, sizeof(dev), "dev%03u", i);
		napi(b, 1, dev, 10000 + i, 1, 1, 1, 100);
	}
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->napi.nr, NC_MAX_NAPI_DEVICES);
	/* A's eth0 and backlog came first, then B's by name: dev062 .. dev069 and eth1 left out */
	assert_int_equal(d->napi.left_out, 9);
	assert_string_equal(d->napi.dev[NC_MAX_NAPI_DEVICES - 1].device, "backlog");
	for (i = 0; i < d->nr_warnings; i++)
		if (strstr(d->warning[i], "NAPI: 9 instances of devices past the first 64"))
			break;
	if (i == d->nr_warnings)
		fail_msg("no warning about the NAPI devices left out (%u warnings)", d->nr_warnings);
}

/*
 * inst_row - the words of the @nth (0: first) row of device @name in the
 * "NAPI instances" section of @text: name, A id, B id, by, A polls, B
 * polls, A pkts, B pkts, A cyc/poll, B cyc/poll, B/A, A cyc/pkt, B cyc/pkt,
 * B/A; returns how many
 */
static int inst_row(const char *text, const char *name, int nth, char w[14][32])
{
	const char *p = strstr(text, "\nNAPI instances ");
	char want[80];

	if (!p)
		fail_msg("no NAPI instances section in:\n%s", text);
	snprintf(want, sizeof(want), "\n  %s ", name);
	for (p = strstr(p, want); p && nth; nth--)
		p = strstr(p + 1, want);
	if (!p)
		fail_msg("no row %s in:\n%s", name, text);
	return sscanf(p + 1, "%31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s %31s",
		      w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11],
		      w[12], w[13]);
}

/* pair_json - entry @i of a diff -j document's "napi_instances" */
static json_t *pair_json(json_t *o, size_t i)
{
	json_t *v = json_array_get(json_object_get(o, "napi_instances"), i);

	assert_non_null(v);
	return v;
}

/* pair_num - number @key of side @side ("a", "b") of pair @i, -1 for null */
static double pair_num(json_t *o, size_t i, const char *side, const char *key)
{
	json_t *v = json_object_get(json_object_get(pair_json(o, i), side), key);

	assert_non_null(v);
	return json_is_null(v) ? -1 : json_number_value(v);
}

/* pair_by - how pair @i was made: "paired_by", "-" for null */
static const char *pair_by(json_t *o, size_t i)
{
	json_t *v = json_object_get(pair_json(o, i), "paired_by");

	assert_non_null(v);
	return json_is_null(v) ? "-" : json_string_value(v);
}

/*
 * The NAPI instances one by one: of one boot by (device, napi_id), an
 * instance that did not poll on one side alone there; of another boot
 * (the device's napi_ids differ, or are shifted) by the order of their
 * ids, id 0 with id 0, whatever the ifindex; backlogs by CPU; polls,
 * packets, cycles per poll and per packet (only where every poll was
 * timed) and B/A, in text and -j; against a snapshot without instances
 * (before 0.9.0) each alone; past NC_MAX_NAPI_PAIRS rows, a warning.
 */
static void test_napi_instances(void **state)
{
	struct nc_model *a = calloc(3, sizeof(*a)), *b = a + 1, *c = a + 2;
	struct nc_diff *d = calloc(1, sizeof(*d));
	const struct nc_napi_pair *p;
	char *text, w[14][32];
	json_t *o, *v;
	unsigned int i;

	(void)state;
	tiny(a, 10, 100, 200, 1000, 2000000);
	tiny(b, 10, 150, 450, 1000, 2000000);
	/*
	 * A: eth0's two queues 8193 (100 polls of 10 packets at 10,000
	 * cycles) and 8194 (50 of 5 at 4,000), its tx-only instance (id 0: 20
	 * polls, no packets, 500 cycles each), a backlog on CPUs 0 and 1.
	 * B, the same boot: 8193 (200 polls of 5 packets at 6,000), 8194 did
	 * not poll, id 0 (10 polls at 700), CPU 1's backlog (10 polls of 4 at
	 * 3,000); eth1 busy-polled (30 polls, 10 timed at 3,000)
	 */
	napi(a, 0, "eth0", 8193, 100, 1000, 100, 100 * 10000);
	napi(a, 0, "eth0", 8194, 50, 250, 50, 50 * 4000);
	napi(a, 0, "eth0", 0, 20, 0, 20, 20 * 500);
	napi(a, 0, NULL, 0, 10, 20, 10, 10 * 2000);
	napi(a, 1, NULL, 0, 10, 40, 10, 10 * 4000);
	napi(b, 0, "eth0", 8193, 200, 1000, 200, 200 * 6000);
	napi(b, 0, "eth0", 0, 10, 0, 10, 10 * 700);
	napi(b, 1, NULL, 0, 10, 40, 10, 10 * 3000);
	napi(b, 0, "eth1", 9000, 30, 30, 10, 10 * 3000);
	nc_model_sum_total(a, NULL);
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->napi_pairs.nr, 6);
	/* eth0: id 0, 8193 by napi_id, 8194 in A alone; eth1 in B alone; backlogs */
	p = &d->napi_pairs.pair[0];
	assert_string_equal(p->device, "eth0");
	assert_int_equal(p->match, NC_NAPI_BY_ID);
	assert_true(p->side[0].sum.id == 0 && p->side[1].sum.id == 0);
	assert_true(NEAR(p->ratio_cycles_per_poll, 700.0 / 500));
	assert_true(p->side[0].cycles_per_packet < 0 && p->ratio_cycles_per_packet < 0);
	p = &d->napi_pairs.pair[1];
	assert_int_equal(p->match, NC_NAPI_BY_ID);
	assert_true(p->side[0].sum.id == 8193 && p->side[1].sum.id == 8193);
	assert_int_equal(p->side[0].sum.polls, 100);
	assert_int_equal(p->side[1].sum.packets, 1000);
	assert_true(NEAR(p->side[0].cycles_per_poll, 10000) &&
		    NEAR(p->side[1].cycles_per_poll, 6000));
	assert_true(NEAR(p->side[0].cycles_per_packet, 1000) &&
		    NEAR(p->side[1].cycles_per_packet, 1200));
	assert_true(NEAR(p->ratio_cycles_per_poll, 0.6) && NEAR(p->ratio_cycles_per_packet, 1.2));
	p = &d->napi_pairs.pair[2];
	assert_true(p->match == NC_NAPI_ALONE && p->side[0].sum.id == 8194 &&
		    !p->side[1].instances && p->ratio_cycles_per_poll < 0);
	p = &d->napi_pairs.pair[3];
	assert_string_equal(p->device, "eth1");
	assert_true(p->match == NC_NAPI_ALONE && !p->side[0].instances);
	assert_true(NEAR(p->side[1].cycles_per_poll, 3000));
	assert_true(p->side[1].cycles_per_packet < 0);	/* busy polls: not every poll timed */
	p = &d->napi_pairs.pair[4];
	assert_string_equal(p->device, "backlog");
	assert_true(p->match == NC_NAPI_ALONE && p->side[0].sum.backlog_cpu == 0);
	p = &d->napi_pairs.pair[5];
	assert_true(p->match == NC_NAPI_BY_CPU && p->side[0].sum.backlog_cpu == 1 &&
		    p->side[1].sum.backlog_cpu == 1);
	assert_true(NEAR(p->ratio_cycles_per_poll, 0.75) && NEAR(p->ratio_cycles_per_packet, 0.75));

	text = diff_out(d, false);
	assert_true(strstr(text, "\nNAPI instances ") > strstr(text, "NAPI by device"));
	assert_int_equal(inst_row(text, "eth0", 1, w), 14);
	assert_true(!strcmp(w[1], "8193") && !strcmp(w[2], "8193") && !strcmp(w[3], "napi_id"));
	assert_true(!strcmp(w[4], "100") && !strcmp(w[5], "200") && !strcmp(w[6], "1000") &&
		    !strcmp(w[7], "1000"));
	assert_true(!strcmp(w[8], "10000") && !strcmp(w[9], "6000") && !strcmp(w[10], "0.60x"));
	assert_true(!strcmp(w[11], "1000") && !strcmp(w[12], "1200") && !strcmp(w[13], "1.20x"));
	assert_int_equal(inst_row(text, "eth0", 2, w), 14);
	assert_true(!strcmp(w[1], "8194") && !strcmp(w[2], "-") && !strcmp(w[3], "-") &&
		    !strcmp(w[5], "-") && !strcmp(w[10], "-"));
	assert_int_equal(inst_row(text, "backlog/cpu1", 0, w), 14);
	assert_true(!strcmp(w[3], "cpu") && !strcmp(w[10], "0.75x"));
	assert_int_equal(inst_row(text, "backlog/cpu0", 0, w), 14);
	assert_true(!strcmp(w[2], "-") && !strcmp(w[4], "10"));
	assert_null(strstr(text, "  order: "));		/* one boot: no pair by order */
	free(text);

	o = diff_json(d);
	assert_int_equal(json_array_size(json_object_get(o, "napi_instances")), 6);
	assert_string_equal(pair_by(o, 1), "napi_id");
	assert_true(pair_num(o, 1, "a", "id") == 8193 && pair_num(o, 1, "a", "polls") == 100);
	assert_true(pair_num(o, 1, "b", "cycles") == 200 * 6000);
	assert_true(NEAR(pair_num(o, 1, "b", "cycles_per_packet"), 1200));
	assert_true(pair_num(o, 1, "a", "backlog_cpu") < 0 && pair_num(o, 1, "a", "irq") < 0 &&
		    pair_num(o, 1, "a", "thread_pid") < 0);
	v = json_object_get(pair_json(o, 1), "ratio_cycles_per_packet");
	assert_true(NEAR(json_real_value(v), 1.2));
	assert_string_equal(pair_by(o, 2), "-");
	assert_true(json_is_null(json_object_get(pair_json(o, 2), "b")));
	assert_true(json_is_null(json_object_get(pair_json(o, 2), "ratio_cycles_per_poll")));
	assert_true(pair_num(o, 3, "b", "cycles_per_packet") < 0);
	assert_string_equal(pair_by(o, 5), "cpu");
	assert_true(pair_num(o, 5, "a", "backlog_cpu") == 1 &&
		    pair_num(o, 5, "b", "backlog_cpu") == 1);
	/* the device table's sides carry cycles and cycles per packet too */
	assert_true(NEAR(json_real_value(json_object_get(json_object_get(
		json_array_get(json_object_get(o, "napi"), 0), "a"), "cycles_per_packet")),
		(100.0 * 10000 + 50 * 4000 + 20 * 500) / 1250));
	json_decref(o);
	nc_model_free(b);

	/*
	 * B, another boot: eth0's queues are 9001 and 9002, a third 9003, its
	 * ifindex 3; paired by order, A's 8193 with 9001, id 0 with id 0
	 */
	nc_model_init(b);
	synth_info(b, false, 1);
	synth_counter(b, 0, "rx_packets", 10);
	for (i = 0; i < 3; i++)
		synth_napi(b, 0, &(struct nc_napi){ .id = 9001 + i, .ifindex = 3,
			   .has_ifname = true, .ifname = "eth0", .polls = 100, .packets = 500,
			   .timed_polls = 100, .cycles = 100 * (12000 + 1000 * i) });
	synth_napi(b, 0, &(struct nc_napi){ .id = 0, .ifindex = 3, .has_ifname = true,
		   .ifname = "eth0", .polls = 10, .timed_polls = 10, .cycles = 10 * 600 });
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->napi_pairs.nr, 6);		/* 4 of eth0, the backlogs alone */
	assert_true(d->napi_pairs.pair[0].match == NC_NAPI_BY_ID &&
		    d->napi_pairs.pair[0].side[1].sum.id == 0);
	p = &d->napi_pairs.pair[1];
	assert_true(p->match == NC_NAPI_BY_ORDER && p->side[0].sum.id == 8193 &&
		    p->side[1].sum.id == 9001);
	assert_true(NEAR(p->ratio_cycles_per_poll, 1.2) && NEAR(p->ratio_cycles_per_packet, 2.4));
	p = &d->napi_pairs.pair[2];
	assert_true(p->match == NC_NAPI_BY_ORDER && p->side[0].sum.id == 8194 &&
		    p->side[1].sum.id == 9002);
	p = &d->napi_pairs.pair[3];
	assert_true(p->match == NC_NAPI_ALONE && p->side[1].sum.id == 9003);
	text = diff_out(d, false);
	assert_int_equal(inst_row(text, "eth0", 1, w), 14);
	assert_true(!strcmp(w[1], "8193") && !strcmp(w[2], "9001") && !strcmp(w[3], "order"));
	assert_true(!strcmp(w[10], "1.20x") && !strcmp(w[13], "2.40x"));
	assert_non_null(strstr(text, "  order: the device's napi_ids differ"));
	free(text);
	o = diff_json(d);
	assert_string_equal(pair_by(o, 1), "order");
	assert_true(pair_num(o, 1, "b", "id") == 9001 && pair_num(o, 1, "b", "ifindex") == 3);
	json_decref(o);
	nc_model_free(b);

	/*
	 * ids shifted by one (another boot where a queue came first): B's
	 * 8194 is not A's 8194 but its first queue, so eth0 pairs by order;
	 * and A's 8194 pairs with B's second even where it did not poll
	 */
	nc_model_init(b);
	synth_info(b, false, 1);
	synth_counter(b, 0, "rx_packets", 10);
	napi(b, 0, "eth0", 8194, 100, 1000, 100, 100 * 11000);
	napi(b, 0, "eth0", 8195, 50, 250, 50, 50 * 5000);
	napi(b, 0, "eth0", 8196, 0, 0, 0, 0);
	nc_model_sum_total(b, NULL);
	nc_model_init(c);
	synth_info(c, false, 1);
	synth_counter(c, 0, "rx_packets", 10);
	napi(c, 0, "eth0", 8193, 100, 1000, 100, 100 * 10000);
	napi(c, 0, "eth0", 8194, 0, 0, 0, 0);
	nc_model_sum_total(c, NULL);
	assert_int_equal(nc_diff_compute(d, c, "c", b, "b"), 0);
	assert_int_equal(d->napi_pairs.nr, 2);		/* 8196 and nothing: no row */
	p = &d->napi_pairs.pair[0];
	assert_true(p->match == NC_NAPI_BY_ORDER && p->side[0].sum.id == 8193 &&
		    p->side[1].sum.id == 8194 && NEAR(p->ratio_cycles_per_poll, 1.1));
	p = &d->napi_pairs.pair[1];
	assert_true(p->match == NC_NAPI_BY_ORDER && p->side[0].sum.id == 8194 &&
		    p->side[0].sum.polls == 0 && p->side[1].sum.id == 8195);

	/* A from before 0.9.0 (no instances): B's alone, A null */
	nc_model_free(c);
	tiny(c, 10, 100, 200, 1000, 2000000);
	assert_int_equal(nc_diff_compute(d, c, "c", b, "b"), 0);
	assert_int_equal(d->napi_pairs.nr, 2);
	o = diff_json(d);
	assert_true(json_is_null(json_object_get(pair_json(o, 0), "a")));
	assert_string_equal(pair_by(o, 0), "-");
	assert_true(pair_num(o, 0, "b", "id") == 8194);
	json_decref(o);

	/* more rows than a diff keeps: the first ones, and a warning */
	for (i = 0; i < NC_MAX_NAPI_PAIRS + 3; i++)
		napi(b, 1, "eth9", 20000 + i, 1, 1, 1, 100);
	nc_model_sum_total(b, NULL);
	assert_int_equal(nc_diff_compute(d, c, "c", b, "b"), 0);
	assert_int_equal(d->napi_pairs.nr, NC_MAX_NAPI_PAIRS);
	assert_int_equal(d->napi_pairs.left_out, 5);
	for (i = 0; i < d->nr_warnings; i++)
		if (strstr(d->warning[i], "NAPI: 5 instance rows past the first 512"))
			break;
	if (i == d->nr_warnings)
		fail_msg("no warning about the NAPI rows left out (%u warnings)", d->nr_warnings);
	text = diff_out(d, false);
	assert_non_null(strstr(text, "  ... 5 more instance rows left out\n"));
	free(text);
	nc_model_free(a);
	nc_model_free(b);
	nc_model_free(c);
	free(a);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exact, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_synthetic_rt, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_warnings_and_no_packets, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_print, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_waiting_section, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_undefined_figures, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_sampled_heading, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_share_and_cpus, pair_setup, pair_teardown),
		cmocka_unit_test_setup_teardown(test_napi_by_device, pair_setup, pair_teardown),
		cmocka_unit_test(test_napi_instances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
