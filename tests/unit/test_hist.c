// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - the bucket math both sides share (netcost_hist.h) and the
 * statistics the tools draw from it (lib/hist.c): index/lo/hi round trips
 * for every bucket, percentiles against exact values within the stated
 * bound, and the KS and earth mover's distances.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"
#include "synth.h"

/*
 * every bucket: contiguous, lo and hi map back to it, and hi - lo <= lo/8,
 * so that any value in the bucket is within 12.5% of any other
 */
static void test_bucket_round_trip(void **state)
{
	uint32_t i;

	(void)state;
	assert_int_equal(NETCOST_HIST_BUCKETS, 313);
	assert_int_equal(netcost_hist_lo(0), 0);
	for (i = 0; i < NETCOST_HIST_BUCKETS; i++) {
		uint64_t lo = netcost_hist_lo(i), hi = netcost_hist_hi(i);

		assert_true(lo <= hi);
		assert_int_equal(netcost_hist_index(lo), i);
		assert_int_equal(netcost_hist_index(hi), i);
		if (i + 1 < NETCOST_HIST_BUCKETS)
			assert_int_equal(netcost_hist_lo(i + 1), hi + 1);	/* contiguous */
		if (lo > 0 && i != NETCOST_HIST_OVERFLOW)
			assert_true((double)(hi - lo) / (double)lo <= NC_HIST_REL_ERROR);
		if (lo < 16)
			assert_int_equal(lo, hi);	/* exact below 16 */
		if (lo > 0)
			assert_int_equal(netcost_hist_index(lo - 1), i - 1);
	}
	assert_int_equal(netcost_hist_index(UINT64_MAX), NETCOST_HIST_OVERFLOW);
	assert_int_equal(netcost_hist_index((uint64_t)1 << NETCOST_HIST_MAX_BITS),
			 NETCOST_HIST_OVERFLOW);
	assert_int_equal(netcost_hist_index(((uint64_t)1 << NETCOST_HIST_MAX_BITS) - 1),
			 NETCOST_HIST_OVERFLOW - 1);
}

/* lo(i) <= v <= hi(i) <=> index(v) == i, over many values of every size */
static void test_bucket_membership(void **state)
{
	uint64_t seed = 42, v;
	int k;

	(void)state;
	for (k = 0; k < 200000; k++) {
		uint32_t i;

		v = (uint64_t)(synth_rand(&seed) * 1e6) >> (k % 20);
		v <<= (k % 40);
		i = netcost_hist_index(v);
		assert_true(netcost_hist_lo(i) <= v && v <= netcost_hist_hi(i));
		if (i > 0)
			assert_true(v > netcost_hist_hi(i - 1));
		if (i + 1 < NETCOST_HIST_BUCKETS)
			assert_true(v < netcost_hist_lo(i + 1));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* exact nearest-rank percentile of sorted samples */
static uint64_t exact_pct(const uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

/* percentiles from buckets within 12.5% of the exact ones */
static void test_percentile_bound(void **state)
{
	static const double pcts[] = { 1, 10, 25, 50, 75, 90, 99, 99.9, 100 };
	struct nc_hist *h = calloc(1, sizeof(*h));
	uint64_t *v, seed = 7;
	size_t n = 50000, i, trial;

	(void)state;
	v = calloc(n, sizeof(*v));
	for (trial = 0; trial < 6; trial++) {
		memset(h, 0, sizeof(*h));
		for (i = 0; i < n; i++) {
			double u = synth_rand(&seed);

			/* log-uniform over 6 decades, a different range each trial */
			v[i] = (uint64_t)(pow(10, 6 * u) * (double)(trial + 1));
			synth_record(h, v[i]);
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		for (i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			double est = nc_hist_percentile(h, pcts[i]);
			double ex = (double)exact_pct(v, n, pcts[i]);

			assert_true(fabs(est - ex) <= NC_HIST_REL_ERROR * ex);
		}
		assert_true(nc_hist_percentile(h, 100) == (double)v[n - 1]);	/* clamped to max */
		assert_true(nc_hist_percentile(h, 0.0001) >= (double)v[0]);	/* and to min */
	}
	free(v);
	free(h);
}

/* below 16 every value has its bucket: percentiles are exact */
static void test_percentile_small_exact(void **state)
{
	static const uint64_t samples[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4,
					     6, 2, 6, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7,
					     1, 6, 9, 15, 10, 12, 11, 14, 13, 15 };
	size_t n = sizeof(samples) / sizeof(samples[0]), i;
	uint64_t sorted[sizeof(samples) / sizeof(samples[0])];
	struct nc_hist *h = calloc(1, sizeof(*h));
	double p;

	(void)state;
	for (i = 0; i < n; i++)
		synth_record(h, samples[i]);
	memcpy(sorted, samples, sizeof(sorted));
	qsort(sorted, n, sizeof(sorted[0]), cmp_u64);
	for (p = 1; p <= 100; p += 1)
		assert_true(nc_hist_percentile(h, p) == (double)exact_pct(sorted, n, p));
	free(h);
}

/* one value: every percentile is that value; the mean is exact */
static void test_single_value(void **state)
{
	struct nc_hist *h = calloc(1, sizeof(*h));

	(void)state;
	assert_true(nc_hist_percentile(h, 50) == 0);	/* empty */
	assert_true(nc_hist_mean(h) == 0);
	synth_record(h, 123456);
	synth_record(h, 123456);
	assert_true(nc_hist_percentile(h, 1) == 123456);
	assert_true(nc_hist_percentile(h, 99.9) == 123456);
	assert_true(nc_hist_mean(h) == 123456);
	synth_record(h, (uint64_t)1 << 45);	/* the overflow bucket: clamped to max */
	assert_true(nc_hist_percentile(h, 100) == (double)((uint64_t)1 << 45));
	free(h);
}

/* KS: 0 for the same shape, 1 for disjoint; EMD: the shift between them */
static void test_distances(void **state)
{
	struct nc_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	int i;

	(void)state;
	for (i = 0; i < 1000; i++) {
		synth_record(a, 1000 + i % 100);
		synth_record(b, 1000 + i % 100);
	}
	assert_true(nc_hist_ks(a, b) == 0);
	assert_true(nc_hist_emd(a, b) == 0);
	memset(b, 0, sizeof(*b));
	for (i = 0; i < 500; i++)
		synth_record(b, 1000 + i % 100);	/* same shape, half the events */
	assert_true(nc_hist_ks(a, b) < 1e-9);
	memset(b, 0, sizeof(*b));
	for (i = 0; i < 1000; i++)
		synth_record(b, 100000 + i % 100);
	assert_true(fabs(nc_hist_ks(a, b) - 1) < 1e-9);
	/* everything moves by ~99000 cycles; bucket edges blur it by <12.5% */
	assert_true(fabs(nc_hist_emd(a, b) - 99000) < 0.125 * 99000);
	assert_true(fabs(nc_hist_emd(b, a) - nc_hist_emd(a, b)) < 1e-6);
	/* small values: exact buckets, exact distance (3 -> 5 is 2) */
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	synth_record(a, 3);
	synth_record(b, 5);
	assert_true(fabs(nc_hist_emd(a, b) - 2) < 1e-9);
	assert_true(nc_hist_ks(a, b) == 1);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_round_trip),
		cmocka_unit_test(test_bucket_membership),
		cmocka_unit_test(test_percentile_bound),
		cmocka_unit_test(test_percentile_small_exact),
		cmocka_unit_test(test_single_value),
		cmocka_unit_test(test_distances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
