// SPDX-License-Identifier: GPL-2.0
/*
 * test_gen_pace.c - the sender's schedule: deadlines and "how many are
 * due" agree exactly, a run sends rate x duration packets, a total rate
 * split over threads loses nothing, and -n splits over flows evenly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../userspace/netcost-gen/pace.c"

#define SEC	1000000000ull

static void test_due(void **state)
{
	struct gen_pace p;

	(void)state;
	gen_pace_init(&p, 1000, 20000, 1);	/* 20 kpps: every 50 us */
	assert_int_equal(gen_pace_due(&p, 0), 1000);
	assert_int_equal(gen_pace_due(&p, 1), 1000 + 50000);
	assert_int_equal(gen_pace_due(&p, 20000), 1000 + SEC);
	gen_pace_init(&p, 0, 3, 1);		/* 3 pps: floor of 333333333.3 */
	assert_int_equal(gen_pace_due(&p, 1), 333333333);
	assert_int_equal(gen_pace_due(&p, 3), SEC);
}

/* count(now) is the smallest k with due(k) > now, for awkward rates too */
static void test_count_matches_due(void **state)
{
	static const uint64_t rates[][2] = {
		{ 20000, 1 }, { 3, 1 }, { 38000 * 10, 19 }, { 7, 3 },
		{ 1000000007, 1 }, { 1, 1 },
	};

	(void)state;
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		struct gen_pace p;

		gen_pace_init(&p, 12345, rates[r][0], rates[r][1]);
		for (uint64_t k = 0; k < 2000; k++) {
			uint64_t t = gen_pace_due(&p, k);

			assert_true(gen_pace_count(&p, t) >= k + 1);
			if (t > 0)
				assert_true(gen_pace_count(&p, t - 1) <= k);
			assert_true(gen_pace_due(&p, gen_pace_count(&p, t)) > t);
		}
	}
}

static void test_before_start(void **state)
{
	struct gen_pace p;

	(void)state;
	gen_pace_init(&p, 5 * SEC, 1000, 1);
	assert_int_equal(gen_pace_count(&p, 0), 0);
	assert_int_equal(gen_pace_count(&p, 5 * SEC - 1), 0);
	assert_int_equal(gen_pace_count(&p, 5 * SEC), 1);
	assert_int_equal(gen_pace_limit(&p, 5 * SEC), 0);
}

/* -r 20000 -l 3 sends exactly 60000; 19 flows x 2000 pps for 240 s too */
static void test_limit_is_rate_times_duration(void **state)
{
	struct gen_pace p;

	(void)state;
	gen_pace_init(&p, 777, 20000, 1);
	assert_int_equal(gen_pace_limit(&p, 777 + 3 * SEC), 60000);
	gen_pace_init(&p, 777, 38000, 1);
	assert_int_equal(gen_pace_limit(&p, 777 + 240 * SEC), 38000ull * 240);
}

/* 38000 pps over 19 flows in 2 threads (10 + 9 flows): the shares add up */
static void test_thread_shares(void **state)
{
	struct gen_pace a, b;
	uint64_t end = 10 * SEC;

	(void)state;
	gen_pace_init(&a, 0, 38000ull * 10, 19);
	gen_pace_init(&b, 0, 38000ull * 9, 19);
	assert_int_equal(gen_pace_limit(&a, end) + gen_pace_limit(&b, end), 380000);
}

static void test_split(void **state)
{
	uint64_t sum = 0;

	(void)state;
	for (unsigned int i = 0; i < 19; i++)
		sum += gen_split(1001, 19, i);
	assert_int_equal(sum, 1001);
	assert_int_equal(gen_split(1001, 19, 0), 53);	/* 1001 = 19 * 52 + 13 */
	assert_int_equal(gen_split(1001, 19, 12), 53);
	assert_int_equal(gen_split(1001, 19, 13), 52);
	assert_int_equal(gen_split(5, 0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_due),
		cmocka_unit_test(test_count_matches_due),
		cmocka_unit_test(test_before_start),
		cmocka_unit_test(test_limit_is_rate_times_duration),
		cmocka_unit_test(test_thread_shares),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
