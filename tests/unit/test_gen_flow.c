// SPDX-License-Identifier: GPL-2.0
/*
 * test_gen_flow.c - the sink's per-flow accounting: loss, late (reordered)
 * and duplicate packets, the FIN's tail loss, and unwrapping of the
 * compact header's 32-bit sequence numbers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../userspace/netcost-gen/flow.c"

static void feed(struct gen_flow *f, const uint64_t *seq, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gen_flow_data(f, seq[i], 10);
}

static void test_in_order(void **state)
{
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	for (uint64_t s = 0; s < 5000; s++)
		gen_flow_data(&f, s, 10);
	assert_int_equal(f.received, 5000);
	assert_int_equal(f.bytes, 50000);
	assert_int_equal(gen_flow_loss(&f), 0);
	assert_int_equal(f.reorder, 0);
	assert_int_equal(f.dup, 0);
}

static void test_gap_is_loss(void **state)
{
	const uint64_t seq[] = { 0, 1, 2, 5, 6, 9 };
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	feed(&f, seq, 6);
	assert_int_equal(gen_flow_expected(&f), 10);
	assert_int_equal(gen_flow_loss(&f), 4);	/* 3 4 7 8 */
	assert_int_equal(f.reorder, 0);
}

static void test_late_packet_is_reorder_not_loss(void **state)
{
	const uint64_t seq[] = { 0, 2, 1, 3, 5, 4 };
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	feed(&f, seq, 6);
	assert_int_equal(gen_flow_loss(&f), 0);
	assert_int_equal(f.reorder, 2);
	assert_int_equal(f.dup, 0);
}

static void test_duplicate(void **state)
{
	const uint64_t seq[] = { 0, 1, 1, 2, 0 };
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	feed(&f, seq, 5);
	assert_int_equal(f.dup, 2);
	assert_int_equal(f.reorder, 0);
	assert_int_equal(gen_flow_loss(&f), 0);
}

/* a late packet after a gap wider than the window is still "late" */
static void test_beyond_window(void **state)
{
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	gen_flow_data(&f, 0, 10);
	gen_flow_data(&f, 5000, 10);
	assert_int_equal(gen_flow_loss(&f), 4999);
	gen_flow_data(&f, 1, 10);		/* 4999 behind: outside the window */
	assert_int_equal(f.reorder, 1);
	assert_int_equal(gen_flow_loss(&f), 4998);
	gen_flow_data(&f, 4500, 10);		/* inside the window, never seen */
	assert_int_equal(f.reorder, 2);
	assert_int_equal(f.dup, 0);
	gen_flow_data(&f, 4500, 10);
	assert_int_equal(f.dup, 1);
	assert_int_equal(gen_flow_loss(&f), 4997);
}

/* the window slots of skipped numbers must not keep stale bits */
static void test_window_reuse(void **state)
{
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	gen_flow_data(&f, 3, 10);
	gen_flow_data(&f, 3 + GEN_FLOW_WIN + 10, 10);	/* slot of 3 is reused */
	gen_flow_data(&f, 3 + GEN_FLOW_WIN, 10);	/* late, not a dup */
	assert_int_equal(f.dup, 0);
	assert_int_equal(f.reorder, 1);
}

static void test_fin_counts_tail_loss(void **state)
{
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	for (uint64_t s = 0; s < 100; s++)
		gen_flow_data(&f, s, 10);
	assert_int_equal(gen_flow_loss(&f), 0);
	gen_flow_fin(&f, 130, 0);		/* the last 30 never came */
	assert_int_equal(gen_flow_expected(&f), 130);
	assert_int_equal(gen_flow_loss(&f), 30);
}

static void test_fin_of_empty_flow(void **state)
{
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	gen_flow_fin(&f, 25, 0);
	assert_int_equal(gen_flow_loss(&f), 25);
}

static void test_unwrap(void **state)
{
	(void)state;
	assert_int_equal(gen_seq_unwrap(0, 0, 32), 0);
	assert_int_equal(gen_seq_unwrap(10, 12, 32), 12);
	assert_int_equal(gen_seq_unwrap(10, 7, 32), 7);
	/* across the 32-bit wrap, both ways */
	assert_int_equal(gen_seq_unwrap(0xfffffff0ull, 5, 32), 0x100000005ull);
	assert_int_equal(gen_seq_unwrap(0x100000002ull, 0xfffffffeu, 32), 0xfffffffeull);
	assert_int_equal(gen_seq_unwrap(0x500000000ull, 3, 32), 0x500000003ull);
	/* never below zero early in a flow */
	assert_int_equal(gen_seq_unwrap(2, 0xffffffffu, 32), 0xffffffffull);
	assert_int_equal(gen_seq_unwrap(7, 0x123456789ull, 64), 0x123456789ull);
}

/* a compact flow that runs past 2^32 packets still counts no loss */
static void test_wrap_no_loss(void **state)
{
	struct gen_flow f;

	(void)state;
	gen_flow_init(&f);
	f.next = 0xfffffff0ull;			/* pretend we got this far */
	f.received = 0xfffffff0ull;
	for (uint64_t s = 0xfffffff0ull; s < 0x100000010ull; s++)
		gen_flow_data(&f, gen_seq_unwrap(f.next, (uint32_t)s, 32), 10);
	assert_int_equal(f.next, 0x100000010ull);
	assert_int_equal(gen_flow_loss(&f), 0);
	assert_int_equal(f.reorder, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_gap_is_loss),
		cmocka_unit_test(test_late_packet_is_reorder_not_loss),
		cmocka_unit_test(test_duplicate),
		cmocka_unit_test(test_beyond_window),
		cmocka_unit_test(test_window_reuse),
		cmocka_unit_test(test_fin_counts_tail_loss),
		cmocka_unit_test(test_fin_of_empty_flow),
		cmocka_unit_test(test_unwrap),
		cmocka_unit_test(test_wrap_no_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
