/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proto.h - what netcost-gen puts in a UDP payload.
 *
 * Every datagram starts with a header that names its flow and sequence
 * number, so that the sink counts loss and reordering per flow.  Two
 * layouts exist, told apart by their first byte; all fields are big
 * endian and nothing is read through a packed struct:
 *
 *   full (16 bytes, payloads of 16 bytes and more):
 *     0  u32 magic  GEN_MAGIC ("NCG1")
 *     4  u8  type   enum gen_type
 *     5  u8  zero
 *     6  u16 flow
 *     8  u64 seq    DATA: sequence number in the flow, from 0
 *
 *   compact (7 bytes, DATA only, for payloads of 7 to 15 bytes such as
 *   the ~10-byte payloads of the original report):
 *     0  u8  GEN_MAGIC_COMPACT
 *     1  u16 flow
 *     3  u32 seq    low 32 bits; the sink unwraps it (flow.c)
 *
 * FIN and REPORT are control messages, always in the full layout and
 * larger than the data packets, and never counted as data:
 *
 *   FIN (sender -> sink, one per flow every 100 ms until a REPORT comes
 *   back), full header with seq = DATA messages sent on this flow, then
 *     16 u16 nflows (of this sender; 0 means 65536)   18 u16 zero
 *     20 u32 zero          24 u64 messages (sender)   32 u64 errors (sender)
 *     40 u64 elapsed ns    48 u32 message size        52 u32 SO_SNDBUF
 *     56 u64 errors on this flow                      = 64 bytes
 *
 *   REPORT (sink -> sender, once FINs of all flows are in), full header
 *   with flow = 0 and seq = DATA messages received, then
 *     16 u64 bytes         24 u64 loss                32 u64 reorder
 *     40 u64 elapsed ns    48 u64 sink CPU ns         56 u32 SO_RCVBUF
 *     60 u32 zero          64 u64 duplicates          = 72 bytes
 */
#ifndef NETCOST_GEN_PROTO_H
#define NETCOST_GEN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GEN_MAGIC		0x4e434731u	/* "NCG1" */
#define GEN_MAGIC_COMPACT	0xd7u
#define GEN_HDR_FULL		16	/* bytes */
#define GEN_HDR_COMPACT		7	/* bytes */
#define GEN_FIN_LEN		64	/* bytes */
#define GEN_REPORT_LEN		72	/* bytes */
#define GEN_MAX_FLOWS		65536

enum gen_type {
	GEN_DATA = 0,
	GEN_FIN = 1,
	GEN_REPORT = 2,
};

/* One decoded header. */
struct gen_hdr {
	enum gen_type type;
	uint16_t flow;
	uint64_t seq;
	unsigned int seq_bits;	/* 64, or 32 for the compact layout */
};

/* The body of a FIN: what the sender knows at its end. */
struct gen_fin {
	uint16_t nflows;
	uint64_t flow_sent;	/* DATA messages sent on this flow */
	uint64_t flow_errors;
	uint64_t messages;	/* over all flows */
	uint64_t errors;
	uint64_t elapsed_ns;
	uint32_t msg_size;	/* bytes */
	uint32_t sockbuf;	/* SO_SNDBUF, bytes */
};

/* The body of a REPORT: the sink's totals. */
struct gen_report {
	uint64_t messages;
	uint64_t bytes;
	uint64_t loss;
	uint64_t reorder;
	uint64_t dup;
	uint64_t elapsed_ns;
	uint64_t cpu_ns;
	uint32_t sockbuf;	/* SO_RCVBUF, bytes */
};

/*
 * gen_hdr_len - header bytes a DATA payload of @payload bytes carries.
 * Returns GEN_HDR_FULL or GEN_HDR_COMPACT, or 0 when the payload is too
 * small for any header.
 */
size_t gen_hdr_len(size_t payload);

/*
 * gen_data_encode - write a DATA header for (@flow, @seq) at the start of
 * @buf, a payload of @len bytes, choosing the layout by @len.
 * Returns the header length, or 0 when @len is too small.
 */
size_t gen_data_encode(uint8_t *buf, size_t len, uint16_t flow, uint64_t seq);

/*
 * gen_hdr_decode - parse the header at the start of a received payload.
 * Returns true and fills @h when @buf holds a known header; false for
 * foreign or truncated datagrams.
 */
bool gen_hdr_decode(const uint8_t *buf, size_t len, struct gen_hdr *h);

/* gen_fin_encode - write a FIN for @flow; returns GEN_FIN_LEN. */
size_t gen_fin_encode(uint8_t *buf, uint16_t flow, const struct gen_fin *f);

/*
 * gen_fin_decode - parse a whole FIN message (header included) into @f.
 * Returns false when @buf is not a FIN or is too short.
 */
bool gen_fin_decode(const uint8_t *buf, size_t len, struct gen_fin *f);

/* gen_report_encode - write a REPORT; returns GEN_REPORT_LEN. */
size_t gen_report_encode(uint8_t *buf, const struct gen_report *r);

/* gen_report_decode - parse a REPORT; false when it is not one. */
bool gen_report_decode(const uint8_t *buf, size_t len, struct gen_report *r);

#endif
