// SPDX-License-Identifier: GPL-2.0
/*
 * test_result.c - nc_result_save(), the end of "netcost run" (issue 11,
 * bug 9): when the snapshot cannot be written, the measurement is kept
 * in a rescue file that loads back, and the caller learns where.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "perf.h"
#include "result.h"
#include "snapshot.h"
#include "synth.h"

static void check_loads(const char *path, const char *note)
{
	struct nc_model *m = calloc(1, sizeof(*m));

	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, path), 0);
	assert_string_equal(m->meta.note, note);
	nc_model_free(m);
	free(m);
}

static void test_saved(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	char kept[4096];

	(void)state;
	nc_model_init(m);
	synth_model(m, true, true);
	assert_int_equal(nc_result_save(m, TEST_OUT "/result-ok.json", kept, sizeof(kept)), 0);
	assert_string_equal(kept, TEST_OUT "/result-ok.json");
	check_loads(kept, "rt, 38k pps");
	nc_model_free(m);
	free(m);
}

/* the target is a directory: the data goes next to it */
static void test_rescued_next_to_target(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	char kept[4096];

	(void)state;
	mkdir(TEST_OUT "/result-dir.json", 0755);
	nc_model_init(m);
	synth_model(m, false, true);
	nc_err_quiet = true;
	assert_int_equal(nc_result_save(m, TEST_OUT "/result-dir.json", kept, sizeof(kept)),
			 NC_EXIT_ERROR);
	nc_err_quiet = false;
	assert_non_null(strstr(kept, TEST_OUT "/result-dir.json.rescued-"));
	check_loads(kept, "stock, 38k pps");
	unlink(kept);
	nc_model_free(m);
	free(m);
}

/* its folder is gone: the data goes to $TMPDIR */
static void test_rescued_in_tmpdir(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	char kept[4096];

	(void)state;
	mkdir(TEST_OUT "/result-tmp", 0755);
	setenv("TMPDIR", TEST_OUT "/result-tmp", 1);
	nc_model_init(m);
	synth_model(m, false, true);
	nc_err_quiet = true;
	assert_int_equal(nc_result_save(m, TEST_OUT "/no/such/dir/r.json", kept, sizeof(kept)),
			 NC_EXIT_ERROR);
	nc_err_quiet = false;
	unsetenv("TMPDIR");
	assert_non_null(strstr(kept, TEST_OUT "/result-tmp/r.json.rescued-"));
	check_loads(kept, "stock, 38k pps");
	unlink(kept);
	nc_model_free(m);
	free(m);
}

/* the target is checked before a run: not a folder, in a writable folder */
static void test_check_target(void **state)
{
	(void)state;
	nc_err_quiet = true;
	assert_int_equal(nc_result_check_target("run", TEST_OUT "/ok.json"), 0);
	assert_int_equal(nc_result_check_target("run", TEST_OUT), NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "run: -o " TEST_OUT " is a directory"));
	assert_int_equal(nc_result_check_target("run", "/nonexistent/dir/x.json"), NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "cannot write the snapshot into /nonexistent/dir"));
	nc_err_quiet = false;
}

/* rx_packets against what the sink's UDP layer got, and the line printed */
static void test_packets(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	json_t *snd = json_pack("{s:i}", "messages", 1000);
	json_t *snk = json_pack("{s:i, s:i, s:i}", "messages", 900, "socket_drops", 50,
				"loss", 50);
	uint64_t rx;
	json_t *p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	rx = nc_cpu_counter(m, &m->total, "rx_packets");
	p = nc_result_packets(m, snd, snk);
	assert_int_equal(json_integer_value(json_object_get(p, "rx_packets")), rx);
	assert_int_equal(json_integer_value(json_object_get(p, "sender_messages")), 1000);
	assert_int_equal(json_integer_value(json_object_get(p, "sink_messages")), 900);
	assert_int_equal(json_integer_value(json_object_get(p, "rx_minus_sink")),
			 (json_int_t)rx - 950);
	assert_true(fabs(json_number_value(json_object_get(p, "rx_vs_sink_pct")) -
			 100.0 * ((double)rx - 950) / 950) < 1e-9);
	f = open_memstream(&buf, &len);
	nc_result_print_packets(f, p);
	fclose(f);
	assert_non_null(strstr(buf, "sender sent 1000; sink received 900 (loss 50) + 50 dropped"));
	free(buf);
	json_decref(p);
	/* --external: no results, only the module's counts */
	p = nc_result_packets(m, NULL, NULL);
	assert_null(json_object_get(p, "sink_messages"));
	assert_null(json_object_get(p, "rx_vs_sink_pct"));
	json_decref(p);
	json_decref(snd);
	json_decref(snk);
	nc_model_free(m);
	free(m);
}

/* /proc/stat's irq column, and -1 for what cannot be read */
static void test_proc_irq(void **state)
{
	FILE *f = fopen(TEST_OUT "/stat", "w");

	(void)state;
	assert_non_null(f);
	fputs("cpu  10 20 30 40 50 66 70 0 0 0\ncpu0 1 2 3 4 5 6 7 0 0 0\n", f);
	fclose(f);
	assert_int_equal(nc_proc_irq_ticks(TEST_OUT "/stat"), 66);
	assert_int_equal(nc_proc_irq_ticks(TEST_OUT "/nonexistent"), -1);
	f = fopen(TEST_OUT "/stat", "w");
	fputs("garbage\n", f);
	fclose(f);
	assert_int_equal(nc_proc_irq_ticks(TEST_OUT "/stat"), -1);
	assert_true(nc_proc_irq_ticks(NULL) >= 0);
}

/* the closure lines of a child and of the main thread, from their rusage */
static void test_closure_lines(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_child ch, self;
	struct rusage ru0 = { 0 }, ru1 = { 0 };
	struct nc_closure cl;
	struct nc_cl_line *l;
	int cpus[2] = { 0, 1 };
	double busy[2] = { 0.5, 0.25 };

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	nc_closure_init(&cl, m->info.tsc_khz, 10, 2, cpus, busy, NULL);
	nc_child_init(&ch, "sender");
	ch.ru.ru_utime.tv_sec = 1;
	ch.ru.ru_stime.tv_usec = 500000;
	ch.ru.ru_nvcsw = 7;
	ch.ru.ru_nivcsw = 3;
	ch.result = json_pack("{s:f}", "cpu_s", 1.4);
	l = nc_result_closure_child(&cl, "sender (netcost-gen send)", &ch);
	assert_non_null(l);
	assert_float_equal(l->total, 1.5 * m->info.tsc_khz * 1000.0, 1);
	assert_float_equal(l->switches, 10, 0);
	assert_string_equal(l->what, "utime 1.000 + stime 0.500 s; its JSON: 1.400 s");
	assert_null(l->cpu);		/* no task clocks: not known per CPU */
	json_decref(ch.result);
	ch.result = NULL;
	l = nc_result_closure_child(&cl, "sink", &ch);
	assert_string_equal(l->what, "utime 1.000 + stime 0.500 s (no JSON result)");

	nc_child_init(&self, "netcost run");
	ru0.ru_utime.tv_sec = 2;
	ru0.ru_nvcsw = 5;
	ru1.ru_utime.tv_sec = 2;
	ru1.ru_stime.tv_usec = 250000;
	ru1.ru_nvcsw = 9;
	l = nc_result_closure_self(&cl, "netcost run (main thread)", &self, &ru0, &ru1);
	assert_non_null(l);
	assert_float_equal(l->total, 0.25 * m->info.tsc_khz * 1000.0, 1);
	assert_float_equal(l->switches, 4, 0);
	nc_closure_free(&cl);
	nc_model_free(m);
	free(m);
}

/* the warnings a reader of the run gets */
static void test_warn(void **state)
{
	struct nc_child snd, snk;

	(void)state;
	nc_child_init(&snd, "sender");
	nc_child_init(&snk, "sink");
	nc_err_quiet = true;
	snk.int_ns = 1;
	snk.killed = true;
	nc_last_err[0] = '\0';
	nc_result_warn(&snd, &snk, false, 10);
	assert_non_null(strstr(nc_last_err, "the sink overstayed and was stopped with SIGKILL"));
	snd.result = json_pack("{s:n, s:s}", "receiver", "receiver_missing", "timeout");
	nc_result_warn(&snd, &snk, false, 10);
	assert_non_null(strstr(nc_last_err, "the sender got no report from the sink (timeout)"));
	nc_result_warn(&snd, &snk, true, 4.2);
	assert_non_null(strstr(nc_last_err, "interrupted after 4.2 s"));
	json_decref(snd.result);
	nc_err_quiet = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saved),
		cmocka_unit_test(test_rescued_next_to_target),
		cmocka_unit_test(test_rescued_in_tmpdir),
		cmocka_unit_test(test_check_target),
		cmocka_unit_test(test_packets),
		cmocka_unit_test(test_proc_irq),
		cmocka_unit_test(test_closure_lines),
		cmocka_unit_test(test_warn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
