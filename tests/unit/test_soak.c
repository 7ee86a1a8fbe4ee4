// SPDX-License-Identifier: GPL-2.0
/*
 * test_soak.c - the cyclesoak engine (lib/soak.c): load math, the running
 * statistics behind "mean / stddev over 240 samples", the calibration
 * cache file and when it goes stale, and one short live run.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include "soak.h"

static void test_load_pct(void **state)
{
	(void)state;
	assert_float_equal(soak_load_pct(1000000, 1.0, 1e6), 0.0, 1e-9);
	assert_float_equal(soak_load_pct(500000, 1.0, 1e6), 50.0, 1e-9);
	assert_float_equal(soak_load_pct(0, 2.0, 1e6), 100.0, 1e-9);
	assert_float_equal(soak_load_pct(1500000, 2.0, 1e6), 25.0, 1e-9);
	/* more than calibrated: negative, not clamped */
	assert_float_equal(soak_load_pct(1010000, 1.0, 1e6), -1.0, 1e-9);
	/* nothing to divide by */
	assert_float_equal(soak_load_pct(5, 1.0, 0), 0.0, 0);
	assert_float_equal(soak_load_pct(5, 0.0, 1e6), 0.0, 0);
}

static void test_stat(void **state)
{
	const double x[] = { 48, 50, 46, 52 };
	struct soak_stat s;

	(void)state;
	soak_stat_init(&s);
	assert_float_equal(soak_stat_var(&s), 0, 0);
	for (size_t i = 0; i < 4; i++)
		soak_stat_add(&s, x[i]);
	assert_int_equal(s.n, 4);
	assert_float_equal(s.mean, 49, 1e-12);
	assert_float_equal(soak_stat_var(&s), 20.0 / 3, 1e-12);	/* n - 1 */
	assert_float_equal(soak_stat_stddev(&s), sqrt(20.0 / 3), 1e-12);
	assert_float_equal(s.min, 46, 0);
	assert_float_equal(s.max, 52, 0);
}

/* Welford: no cancellation with a large offset and tiny spread */
static void test_stat_stable(void **state)
{
	struct soak_stat s;

	(void)state;
	soak_stat_init(&s);
	for (int i = 0; i < 240; i++)
		soak_stat_add(&s, 1e9 + (i % 2 ? 0.5 : -0.5));
	assert_float_equal(s.mean, 1e9, 1e-6);
	assert_float_equal(soak_stat_var(&s), 0.25 * 240 / 239, 1e-6);
}

static void test_stat_single_negative(void **state)
{
	struct soak_stat s;

	(void)state;
	soak_stat_init(&s);
	soak_stat_add(&s, -0.1);
	assert_float_equal(s.min, -0.1, 0);
	assert_float_equal(s.max, -0.1, 0);
	assert_float_equal(soak_stat_stddev(&s), 0, 0);
}

static void test_median(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	(void)state;
	assert_float_equal(soak_median(odd, 3), 3, 0);
	assert_float_equal(soak_median(even, 4), 2.5, 0);
	assert_float_equal(soak_median(one, 1), 7, 0);
	assert_float_equal(soak_median(NULL, 0), 0, 0);
}

static void test_quantile(void **state)
{
	double v[] = { 40, 10, 30, 20, 50 };

	(void)state;
	assert_float_equal(soak_quantile(v, 5, 0.75), 40, 0);
	assert_float_equal(soak_quantile(v, 5, 0), 10, 0);
	assert_float_equal(soak_quantile(v, 5, 1), 50, 0);
	assert_float_equal(soak_quantile(v, 5, 0.875), 45, 1e-12);
	assert_float_equal(soak_quantile(v, 4, 0.5), 25, 1e-12);	/* 10 20 30 40 */
}

static void test_default_path(void **state)
{
	char buf[4096];

	(void)state;
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	assert_int_equal(soak_calib_default_path(buf, sizeof(buf)), 0);
	if (geteuid() == 0)
		assert_string_equal(buf, "/var/cache/netcost/soak-calib");
	else
		assert_string_equal(buf, "/xdg/netcost/soak-calib");
	assert_int_equal(soak_calib_default_path(buf, 8), -ENAMETOOLONG);
}

static char dir[64], path[128];

/* tmp_path - a fresh directory's @name, for the cache file tests */
static char *tmp_path(const char *name)
{
	snprintf(dir, sizeof(dir), "/tmp/test_soak.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

/* tmp_clean - remove the tmp_path() file and the directories up to dir */
static void tmp_clean(void)
{
	char *slash;

	unlink(path);
	while ((slash = strrchr(path, '/')) && slash - path > (long)strlen(dir)) {
		*slash = '\0';
		rmdir(path);
	}
	rmdir(dir);
}

static void test_calib_file_roundtrip(void **state)
{
	int cpu[] = { 0, 3 };
	double rate[] = { 2412345.6, 1234567.8 }, spread[] = { 1.5, 0.25 };
	struct soak_calib in = {
		.kernel = "6.12.0-rt5", .cpu_model = "AMD EPYC 7B13 64-Core",
		.timestamp = 1700000000, .seconds = 3, .ncpus = 2,
		.cpu = cpu, .rate = rate, .spread = spread,
	}, out;
	char *path = tmp_path("sub/dir/soak-calib");	/* directories are made */

	(void)state;
	assert_int_equal(soak_calib_save(path, &in, NULL, 0), 0);
	assert_int_equal(soak_calib_load(path, &out), 0);
	assert_string_equal(out.kernel, in.kernel);
	assert_string_equal(out.cpu_model, in.cpu_model);
	assert_int_equal(out.timestamp, in.timestamp);
	assert_int_equal(out.ncpus, 2);
	assert_int_equal(out.cpu[1], 3);
	assert_float_equal(out.rate[0], 2412345.6, 0.05);
	assert_float_equal(out.spread[1], 0.25, 0.005);
	/* made on another kernel and long ago */
	assert_non_null(soak_calib_stale(&out, time(NULL)));
	soak_calib_free(&out);
	tmp_clean();
}

/*
 * issue 22, bug 16: a calibration flagged as uneven (a busy system) is
 * never used from the cache, however fresh (it gave loads of -1466%)
 */
static void test_calib_uneven(void **state)
{
	int cpu[] = { 0, 3 };
	double rate[] = { 2412345.6, 1234567.8 }, spread[] = { 1.5, 55 };
	struct soak_calib c = {
		.kernel = "6.12.0-rt5", .cpu_model = "AMD EPYC 7B13 64-Core",
		.timestamp = 1700000000, .seconds = 3, .ncpus = 2,
		.cpu = cpu, .rate = rate, .spread = spread,
	};
	const char *why;

	(void)state;
	why = soak_calib_stale(&c, time(NULL));
	if (!why || !strstr(why, "uneven"))
		fail_msg("an uneven calibration: stale says '%s'", why ? why : "(fine)");
	assert_non_null(soak_calib_bad(&c));
	spread[1] = 2;
	assert_null(soak_calib_bad(&c));
	rate[0] = 0;
	assert_non_null(soak_calib_bad(&c));
}

static void test_calib_file_bad(void **state)
{
	char *path = tmp_path("soak-calib");
	struct soak_calib c;
	FILE *f;

	(void)state;
	assert_int_equal(soak_calib_load(path, &c), -ENOENT);
	f = fopen(path, "w");
	assert_non_null(f);
	/* claims two CPUs, has one */
	fputs("version 1\nkernel x\ncpu_model y\ntimestamp 5\nncpus 2\ncpu 0 100.0 1.0\n", f);
	fclose(f);
	assert_int_equal(soak_calib_load(path, &c), -EINVAL);
	f = fopen(path, "w");
	fputs("version 1\nkernel x\ncpu_model y\ntimestamp 5\nncpus 1\ncpu 0 -3 1.0\n", f);
	fclose(f);
	assert_int_equal(soak_calib_load(path, &c), -EINVAL);
	f = fopen(path, "w");
	fputs("version 99\nkernel x\ncpu_model y\ntimestamp 5\nncpus 1\ncpu 0 3 1.0\n", f);
	fclose(f);
	assert_int_equal(soak_calib_load(path, &c), -EINVAL);
	tmp_clean();
}

/* cpu_s - the process's user + system time (the spinners are its threads) */
static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * calibrate_counting - a 1 s calibration of @n CPUs whose spinners count.
 * The spinners run SCHED_IDLE: on a host whose every CPU is busy (the lab's
 * qemu boots beside the tests) one can get no CPU for the whole second and
 * count nothing, so that its rate is 0.  That is the soak measuring a full
 * machine, not a fault, and it shows as the process getting much less than
 * n CPU-seconds: then try again (5 times at most).  A rate of 0 while the
 * spinners did get nearly all of their n CPU-seconds is a fault, and fails.
 */
static void calibrate_counting(struct soak_calib *c, const int *cpus, int n)
{
	for (int attempt = 1;; attempt++) {
		double t0 = cpu_s(), got;
		int zero = 0;

		assert_int_equal(soak_calibrate(c, cpus, n, 1.0), 0);
		got = cpu_s() - t0;
		assert_int_equal(c->ncpus, n);
		for (int i = 0; i < n; i++) {
			assert_true(c->rate[i] >= 0);
			zero += c->rate[i] == 0;
		}
		if (!zero)
			return;
		if (got >= (n - 0.25) * c->seconds)
			fail_msg("%d CPU(s) calibrated to rate 0 although the spinners ran %.2f of %.2f CPU-s",
				 zero, got, n * c->seconds);
		print_message("# attempt %d: %d spinner(s) starved (the process got %.2f of %.2f CPU-s: a busy host)\n",
			      attempt, zero, got, n * c->seconds);
		if (attempt == 5) {
			print_message("# the host stayed busy: rate > 0 not checked this time\n");
			return;
		}
		soak_calib_free(c);
	}
}

/*
 * A real (short) calibration is fresh on this system; changing what it
 * was made on makes it stale.  Then a one-sample live run.
 */
static void test_calibrate_stale_and_run(void **state)
{
	struct soak_calib c;
	struct soak_result r;
	struct soak *s;
	double load[4096], total;
	int *cpus, n;

	(void)state;
	n = soak_online_cpus(&cpus);
	assert_true(n >= 1);
	calibrate_counting(&c, cpus, n);
	free(cpus);
	if (soak_calib_bad(&c)) {	/* a busy host (test_calib_uneven checks that rule) */
		print_message("# calibration %s: spreads set to 0 to check the other rules\n",
			      soak_calib_bad(&c));
		for (int i = 0; i < c.ncpus; i++) {
			c.spread[i] = 0;
			if (!(c.rate[i] > 0))
				c.rate[i] = 1;
		}
	}
	assert_null(soak_calib_stale(&c, c.timestamp + 60));
	assert_non_null(soak_calib_stale(&c, c.timestamp + SOAK_CALIB_MAX_AGE + 1));
	assert_non_null(soak_calib_stale(&c, c.timestamp - 60));
	c.cpu_model[0] ^= 1;
	assert_non_null(soak_calib_stale(&c, c.timestamp));
	c.cpu_model[0] ^= 1;
	c.kernel[0] ^= 1;
	assert_non_null(soak_calib_stale(&c, c.timestamp));
	c.kernel[0] ^= 1;

	s = soak_start(&c, 1);
	assert_non_null(s);
	assert_int_equal(soak_ncpus(s), 1);
	usleep(200000);
	total = soak_sample(s, load);
	assert_true(isfinite(total));
	assert_true(total <= 100.0);
	soak_stop(s, &r);
	assert_int_equal(r.ncpus, 1);
	assert_int_equal(r.total.n, 1);
	assert_float_equal(r.per_cpu[0].mean, load[0], 1e-12);
	/* one sample: the CPU-seconds taken are its load over the window */
	assert_true(r.seconds > 0.1);
	assert_float_equal(r.busy_s[0], load[0] / 100 * r.seconds, 1e-9);
	soak_result_free(&r);
	assert_null(r.busy_s);
	soak_calib_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_pct),
		cmocka_unit_test(test_stat),
		cmocka_unit_test(test_stat_stable),
		cmocka_unit_test(test_stat_single_negative),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_calib_uneven),
		cmocka_unit_test(test_calib_file_roundtrip),
		cmocka_unit_test(test_calib_file_bad),
		cmocka_unit_test(test_calibrate_stale_and_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
