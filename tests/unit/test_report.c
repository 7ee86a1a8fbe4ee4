// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - the selection that "dump", "show" and "watch" apply
 * before they print (--stage, --cpu): a name or CPU the model does not
 * have is a usage error whose message names it, and the model that is
 * left is the one asked for.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "metrics.h"
#include "report.h"
#include "snapshot.h"
#include "synth.h"

/*
 * bug 1 of issue 11: "--stage nosuch" printed the name from a list it had
 * already freed.  The message must hold the name the user typed.
 */
static void test_stage_nosuch_names_it(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m)), *out = calloc(1, sizeof(*out));
	struct nc_report_opts o = { .stages = "hardirq,nosuch_stage_with_a_long_name" };

	(void)state;
	nc_model_init(m);
	synth_model(m, false, false);
	nc_err_quiet = true;
	nc_last_err[0] = '\0';
	assert_int_equal(nc_report_select(out, m, &o), NC_EXIT_USAGE);
	nc_err_quiet = false;
	if (!strstr(nc_last_err, "no stage 'nosuch_stage_with_a_long_name'"))
		fail_msg("message: %s", nc_last_err);
	assert_non_null(strstr(nc_last_err, "hardirq"));
	nc_model_free(m);
	free(m);
	free(out);
}

/* filters make a new model: the one they read stays whole */
static void test_select_leaves_input(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m)), *out = calloc(1, sizeof(*out));
	struct nc_report_opts o = { .stages = "hardirq,rx_skb", .cpus = "1" };
	json_t *before, *after;
	int s;

	(void)state;
	nc_model_init(m);
	synth_model(m, true, true);
	before = nc_snapshot_to_json(m);
	assert_int_equal(nc_report_select(out, m, &o), 0);
	after = nc_snapshot_to_json(m);
	assert_true(json_equal(before, after));
	assert_int_equal(out->nr_cpus, 1);
	assert_int_equal(out->cpus[0].cpu, 1);
	s = nc_model_find_stage(out, "hardirq");
	assert_non_null(out->total.stage[s]);
	assert_int_equal(out->total.stage[s]->count, m->cpus[1].stage[s]->count);
	assert_null(out->total.stage[nc_model_find_stage(out, "syscall_rx")]);
	assert_string_equal(out->meta.note, m->meta.note);
	json_decref(before);
	json_decref(after);
	nc_model_free(out);
	nc_model_free(m);
	free(out);
	free(m);
}

/* text_report - nc_report_print() of @m with @o, as a string */
static char *text_report(const struct nc_model *m, const struct nc_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(nc_report_print(f, m, o), 0);
	fclose(f);
	return buf;
}

/*
 * issue 22, bug 12: "--stage ''" names no stage (a usage error), and a
 * selection without a top-level stage does not claim "no packets"
 */
static void test_stage_filter_total(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m)), *out = calloc(1, sizeof(*out));
	struct nc_report_opts o = { .stages = "" };
	const char *bad[] = { "", ",", "hardirq,," };
	unsigned int i;
	char *text;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	nc_err_quiet = true;
	for (i = 0; i < 3; i++) {
		o.stages = bad[i];
		nc_last_err[0] = '\0';
		assert_int_equal(nc_report_select(out, m, &o), NC_EXIT_USAGE);
		if (!strstr(nc_last_err, "--stage"))
			fail_msg("--stage '%s': %s", bad[i], nc_last_err);
	}
	nc_err_quiet = false;
	o.stages = "rx_skb";
	assert_int_equal(nc_report_select(out, m, &o), 0);
	text = text_report(out, &o);
	if (strstr(text, "no packets") || !strstr(text, "rx_skb"))
		fail_msg("--stage rx_skb:\n%s", text);
	assert_non_null(strstr(text, "total: "));
	free(text);
	nc_model_free(out);
	nc_model_free(m);
	free(out);
	free(m);
}

/*
 * issue 22, bug 8: one rule for "per packet": the packets of all CPUs, as
 * the footer says.  --cpu 1 shows what --per-cpu shows for CPU 1.
 */
static void test_cpu_filter_basis(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m)), *out = calloc(1, sizeof(*out));
	struct nc_report_opts o = { .cpus = "1" };
	int s;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	assert_int_equal(nc_report_select(out, m, &o), 0);
	s = nc_model_find_stage(m, "hardirq");
	assert_true(s >= 0);
	assert_float_equal(nc_stage_per_packet(out, &out->total, (unsigned int)s),
			   nc_stage_per_packet(m, &m->cpus[1], (unsigned int)s), 1e-9);
	assert_float_equal(nc_top_per_packet(out, &out->total),
			   nc_top_per_packet(m, &m->cpus[1]), 1e-9);
	nc_model_free(out);
	nc_model_free(m);
	free(out);
	free(m);
}

/*
 * issue 22, "What a user reads": the header labels the module's version
 * (from the snapshot) and the tool's, writes the CPU lists with counts,
 * and a long counter or stage name widens its column instead of pushing
 * the figures out of line
 */
static void test_header_and_columns(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	const char *longname = "runq_wait_behind_irq_thread_cycles_of_a_box";
	char *text, *a, *b, *eol;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	strcpy(m->info.version, "0.0.9");	/* the module's, as the snapshot has it */
	synth_counter(m, 0, longname, 12345);
	nc_model_sum_total(m, NULL);
	text = text_report(m, &o);
	if (!strstr(text, "netcost module 0.0.9") ||
	    !strstr(text, "tool " NETCOST_VERSION))
		fail_msg("versions not labelled:\n%.300s", text);
	if (!strstr(text, "CPUs: 0-1 (2 CPUs)"))
		fail_msg("CPU list and count:\n%.300s", text);
	/* the long name's figure starts where rx_packets' does */
	a = strstr(text, "\nrx_packets ");
	b = strstr(text, longname);
	assert_non_null(a);
	assert_non_null(b);
	a++;
	eol = strchr(a, '\n');
	assert_non_null(eol);
	assert_int_equal(strcspn(a + strlen("rx_packets"), "0123456789") + strlen("rx_packets") +
			 strcspn(a + strlen("rx_packets") + strcspn(a + strlen("rx_packets"), "0123456789"), " "),
			 strcspn(b + strlen(longname), "0123456789") + strlen(longname) +
			 strcspn(b + strlen(longname) + strcspn(b + strlen(longname), "0123456789"), " "));
	free(text);
	nc_model_free(m);
	free(m);

	/* a long stage name: its events end where hardirq's do */
	m = calloc(1, sizeof(*m));
	nc_model_init(m);
	synth_model(m, false, true);
	assert_true(nc_model_stage(m, "a_stage_name_longer_than_its_column", NETCOST_UNIT_CYCLES) >= 0);
	synth_stage(m, 0, "a_stage_name_longer_than_its_column", 5, 100, 0.1, 7);
	nc_model_sum_total(m, NULL);
	text = text_report(m, &o);
	a = strstr(text, "\nhardirq ");
	b = strstr(text, "\na_stage_name_longer_than_its_column");
	assert_non_null(a);
	assert_non_null(b);
	a++;
	b++;
	{
		size_t ea = strspn(a + strcspn(a, " "), " ") + strcspn(a, " ");
		size_t eb = strspn(b + strcspn(b, " "), " ") + strcspn(b, " ");

		ea += strcspn(a + ea, " ");
		eb += strcspn(b + eb, " ");
		if (ea != eb)
			fail_msg("stage columns out of line:\n%.*s\n%.*s", (int)strcspn(a, "\n"), a,
				 (int)strcspn(b, "\n"), b);
	}
	free(text);
	nc_model_free(m);
	free(m);
}

/* issue 11: "show" prints the snapshot's note, time, kernel and CPU model */
static void test_show_prints_meta(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	nc_model_init(m);
	synth_model(m, true, true);
	f = open_memstream(&buf, &len);
	assert_int_equal(nc_report_print(f, m, &o), 0);
	fclose(f);
	assert_non_null(strstr(buf, "kernel 6.1.0-57-rt-amd64 (PREEMPT_RT)"));
	assert_non_null(strstr(buf, "snapshot: taken 2024-05-01T12:00:00Z, CPU QEMU Virtual CPU version 2.5+\n"));
	assert_non_null(strstr(buf, "note: rt, 38k pps\n"));
	free(buf);
	nc_model_free(m);
	free(m);
}

/* json_report - nc_report_print(-j) of @m with @o, parsed */
static json_t *json_report(const struct nc_model *m, struct nc_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *j;

	o->json = true;
	assert_int_equal(nc_report_print(f, m, o), 0);
	fclose(f);
	j = json_loads(buf, 0, NULL);
	assert_non_null(j);
	free(buf);
	return j;
}

/*
 * issue 11: -j follows --all and --ns as the text does, absent figures are
 * null (never missing keys), and the document has its schema version
 */
static void test_json_options(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	json_t *j, *st;
	double cyc, ns;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);	/* stock: no irq_thread events */
	j = json_report(m, &o);
	assert_int_equal(json_integer_value(json_object_get(j, "schema")), NC_SNAPSHOT_SCHEMA);
	assert_string_equal(json_string_value(json_object_get(j, "time_unit")), "cycles");
	st = json_object_get(json_object_get(j, "total"), "stages");
	assert_null(json_object_get(st, "irq_thread"));
	cyc = json_real_value(json_object_get(json_object_get(st, "hardirq"), "p50"));
	assert_true(cyc > 0);
	json_decref(j);

	o = (struct nc_report_opts){ .all = true };
	j = json_report(m, &o);
	st = json_object_get(json_object_get(j, "total"), "stages");
	assert_non_null(json_object_get(st, "irq_thread"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "irq_thread"),
							    "count")), 0);
	assert_true(json_is_null(json_object_get(json_object_get(st, "irq_thread"), "p50")));
	assert_true(json_is_null(json_object_get(json_object_get(st, "irq_thread"), "mean")));
	json_decref(j);

	o = (struct nc_report_opts){ .ns = true };
	j = json_report(m, &o);
	assert_string_equal(json_string_value(json_object_get(j, "time_unit")), "ns");
	st = json_object_get(json_object_get(j, "total"), "stages");
	ns = json_real_value(json_object_get(json_object_get(st, "hardirq"), "p50"));
	assert_true(fabs(ns - cyc * 1e6 / m->info.tsc_khz) < 1e-6 * ns);
	json_decref(j);

	/* no tx packets: a receiving box, the tx stages per rx packet too */
	synth_stage(m, 0, "tx_xmit", 10, 500, 0.1, 3);
	m->cpus[0].counter[NETCOST_CTR_TX_PACKETS] = m->cpus[1].counter[NETCOST_CTR_TX_PACKETS] = 0;
	nc_model_sum_total(m, NULL);
	o = (struct nc_report_opts){ 0 };
	j = json_report(m, &o);
	st = json_object_get(json_object_get(j, "total"), "stages");
	assert_string_equal(json_string_value(json_object_get(j, "per_packet_basis")), "rx");
	assert_false(json_is_null(json_object_get(json_object_get(st, "tx_xmit"), "per_packet")));
	json_decref(j);
	nc_model_free(m);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stage_nosuch_names_it),
		cmocka_unit_test(test_select_leaves_input),
		cmocka_unit_test(test_show_prints_meta),
		cmocka_unit_test(test_json_options),
		cmocka_unit_test(test_stage_filter_total),
		cmocka_unit_test(test_cpu_filter_basis),
		cmocka_unit_test(test_header_and_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
