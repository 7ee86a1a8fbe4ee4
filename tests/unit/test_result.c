// SPDX-License-Identifier: GPL-2.0
/*
 * test_result.c - nc_result_save(), the end of "netcost run" (issue 11,
 * bug 9): when the snapshot cannot be written, the measurement is kept
 * in a rescue file that loads back, and the caller learns where.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saved),
		cmocka_unit_test(test_rescued_next_to_target),
		cmocka_unit_test(test_rescued_in_tmpdir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
