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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saved),
		cmocka_unit_test(test_rescued_next_to_target),
		cmocka_unit_test(test_rescued_in_tmpdir),
		cmocka_unit_test(test_check_target),
		cmocka_unit_test(test_packets),
		cmocka_unit_test(test_proc_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
