// SPDX-License-Identifier: GPL-2.0
/*
 * test_gen_proto.c - netcost-gen payload headers: the layout is chosen by
 * the payload size, a 10-byte payload still carries flow and sequence,
 * and FIN/REPORT survive a round trip.  netcost-gen is its own binary
 * (not in libnetcost.a), so the unit under test is compiled in here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../userspace/netcost-gen/proto.c"

static void test_hdr_len_by_size(void **state)
{
	(void)state;
	assert_int_equal(gen_hdr_len(6), 0);
	assert_int_equal(gen_hdr_len(7), GEN_HDR_COMPACT);
	assert_int_equal(gen_hdr_len(10), GEN_HDR_COMPACT);
	assert_int_equal(gen_hdr_len(15), GEN_HDR_COMPACT);
	assert_int_equal(gen_hdr_len(16), GEN_HDR_FULL);
	assert_int_equal(gen_hdr_len(1025), GEN_HDR_FULL);
}

/* the report's ~10-byte payload: flow and sequence must both survive */
static void test_compact_roundtrip(void **state)
{
	uint8_t buf[10];
	struct gen_hdr h;

	(void)state;
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(gen_data_encode(buf, sizeof(buf), 18, 123456789), GEN_HDR_COMPACT);
	assert_int_equal(buf[7], 0xee);	/* nothing written past the header */
	assert_true(gen_hdr_decode(buf, sizeof(buf), &h));
	assert_int_equal(h.type, GEN_DATA);
	assert_int_equal(h.flow, 18);
	assert_int_equal(h.seq, 123456789);
	assert_int_equal(h.seq_bits, 32);
}

static void test_compact_keeps_low_32_bits(void **state)
{
	uint8_t buf[8];
	struct gen_hdr h;

	(void)state;
	gen_data_encode(buf, sizeof(buf), 65535, 0x100000005ull);
	assert_true(gen_hdr_decode(buf, sizeof(buf), &h));
	assert_int_equal(h.flow, 65535);
	assert_int_equal(h.seq, 5);
}

static void test_full_roundtrip(void **state)
{
	uint8_t buf[18];
	struct gen_hdr h;

	(void)state;
	assert_int_equal(gen_data_encode(buf, sizeof(buf), 7, 0x123456789abcull), GEN_HDR_FULL);
	assert_memory_equal(buf, "NCG1", 4);	/* big endian on the wire */
	assert_true(gen_hdr_decode(buf, sizeof(buf), &h));
	assert_int_equal(h.type, GEN_DATA);
	assert_int_equal(h.flow, 7);
	assert_int_equal(h.seq, 0x123456789abcull);
	assert_int_equal(h.seq_bits, 64);
}

static void test_decode_rejects_foreign(void **state)
{
	uint8_t zeros[64] = { 0 }, buf[16];
	struct gen_hdr h;

	(void)state;
	assert_false(gen_hdr_decode(zeros, sizeof(zeros), &h));
	assert_false(gen_hdr_decode((const uint8_t *)"hello, world", 12, &h));
	/* truncated compact header */
	gen_data_encode(buf, 7, 1, 1);
	assert_false(gen_hdr_decode(buf, 6, &h));
	/* full magic with an unknown type */
	gen_data_encode(buf, 16, 1, 1);
	buf[4] = 9;
	assert_false(gen_hdr_decode(buf, 16, &h));
	/* a full header cut short is not read as a compact one */
	gen_data_encode(buf, 16, 1, 1);
	assert_false(gen_hdr_decode(buf, 15, &h));
}

static void test_fin_roundtrip(void **state)
{
	struct gen_fin in = {
		.nflows = 19, .flow_sent = 6000, .flow_errors = 2,
		.messages = 114000, .errors = 3, .elapsed_ns = 3000000123ull,
		.msg_size = 10, .sockbuf = 212992,
	}, out;
	uint8_t buf[GEN_FIN_LEN];
	struct gen_hdr h;

	(void)state;
	assert_int_equal(gen_fin_encode(buf, 4, &in), GEN_FIN_LEN);
	assert_true(gen_hdr_decode(buf, sizeof(buf), &h));
	assert_int_equal(h.type, GEN_FIN);
	assert_int_equal(h.flow, 4);
	assert_true(gen_fin_decode(buf, sizeof(buf), &out));
	assert_int_equal(out.nflows, 19);
	assert_int_equal(out.flow_sent, 6000);
	assert_int_equal(out.flow_errors, 2);
	assert_int_equal(out.messages, 114000);
	assert_int_equal(out.errors, 3);
	assert_int_equal(out.elapsed_ns, 3000000123ull);
	assert_int_equal(out.msg_size, 10);
	assert_int_equal(out.sockbuf, 212992);
	assert_false(gen_fin_decode(buf, GEN_FIN_LEN - 1, &out));
}

static void test_report_roundtrip(void **state)
{
	struct gen_report in = {
		.messages = 112941, .bytes = 1129410, .loss = 1059,
		.reorder = 3, .dup = 1, .elapsed_ns = 2999970000ull,
		.cpu_ns = 597482000, .sockbuf = 212992,
	}, out;
	struct gen_fin fin;
	uint8_t buf[GEN_REPORT_LEN];

	(void)state;
	gen_report_encode(buf, &in);
	assert_true(gen_report_decode(buf, sizeof(buf), &out));
	assert_int_equal(out.messages, in.messages);
	assert_int_equal(out.bytes, in.bytes);
	assert_int_equal(out.loss, in.loss);
	assert_int_equal(out.reorder, in.reorder);
	assert_int_equal(out.dup, in.dup);
	assert_int_equal(out.elapsed_ns, in.elapsed_ns);
	assert_int_equal(out.cpu_ns, in.cpu_ns);
	assert_int_equal(out.sockbuf, in.sockbuf);
	assert_false(gen_fin_decode(buf, sizeof(buf), &fin));	/* not a FIN */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_len_by_size),
		cmocka_unit_test(test_compact_roundtrip),
		cmocka_unit_test(test_compact_keeps_low_32_bits),
		cmocka_unit_test(test_full_roundtrip),
		cmocka_unit_test(test_decode_rejects_foreign),
		cmocka_unit_test(test_fin_roundtrip),
		cmocka_unit_test(test_report_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
