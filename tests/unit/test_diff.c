// SPDX-License-Identifier: GPL-2.0
/*
 * test_diff.c - "netcost diff" arithmetic on synthetic models: cost per
 * packet, ratio, delta and share, the sort by contribution, ns from each
 * side's TSC rate, counters per packet, the comparability warnings and
 * exit 7 when a snapshot counted no packets.
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
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	const struct nc_diff_stage *h, *s, *n;

	(void)state;
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
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

/* stock vs PREEMPT_RT: shares add up, a stage only B has, ratios */
static void test_synthetic_rt(void **state)
{
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	const struct nc_diff_stage *t;
	double share = 0, delta = 0;
	unsigned int i;

	(void)state;
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
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

/* warnings when the runs differ; exit 7 without packets */
static void test_warnings_and_no_packets(void **state)
{
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	int rx;

	(void)state;
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
	assert_int_equal(d->nr_warnings, 3);
	assert_non_null(strstr(d->warning[2], "ctx_switch differs by definition: A holds every switch"));
	strcpy(b->info.version, "0.8.1");
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), 0);
	assert_int_equal(d->nr_warnings, 2);

	rx = nc_model_find_counter(b, "rx_packets");
	b->total.counter[rx] = 0;
	b->total.counter[nc_model_find_counter(b, "tx_packets")] = 0;
	nc_err_quiet = true;
	assert_int_equal(nc_diff_compute(d, a, "a", b, "b"), NC_EXIT_NO_PACKETS);
	nc_err_quiet = false;
	assert_non_null(strstr(nc_last_err, "b: no rx packets"));
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

/* the printed forms: text names the ratio, JSON parses back */
static void test_print(void **state)
{
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	char *buf = NULL;
	size_t len = 0;
	json_t *o;
	FILE *f;

	(void)state;
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
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

/*
 * the waiting stages (issue 12) have a section of their own, after the
 * other work, and are not in the total
 */
static void test_waiting_section(void **state)
{
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	const char *nested, *waiting, *napi, *runq, *blocked;
	char *buf = NULL;
	size_t len = 0;
	double total_a;
	FILE *f;
	int i;

	(void)state;
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
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

/* diff_json - nc_diff_print(-j) of @d, parsed */
static json_t *diff_json(const struct nc_diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *o;

	assert_int_equal(nc_diff_print(f, d, true), 0);
	fclose(f);
	o = json_loads(buf, 0, NULL);
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
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	json_t *o;

	(void)state;
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
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

/*
 * issue 22, bug 6: equal totals leave the shares undefined (null, "-"),
 * not 0.0%; bug 16: snapshots of different CPU sets are warned about
 */
static void test_share_and_cpus(void **state)
{
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct nc_diff *d = calloc(1, sizeof(*d));
	char *buf = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;
	json_t *o;

	(void)state;
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
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_synthetic_rt),
		cmocka_unit_test(test_warnings_and_no_packets),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_waiting_section),
		cmocka_unit_test(test_undefined_figures),
		cmocka_unit_test(test_share_and_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
