// SPDX-License-Identifier: GPL-2.0
/*
 * proto.c - encode and decode netcost-gen payload headers (see proto.h).
 */
#include <string.h>

#include "proto.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

/* put_full - the 16-byte full header. */
static void put_full(uint8_t *buf, enum gen_type type, uint16_t flow,
		     uint64_t seq)
{
	put32(buf, GEN_MAGIC);
	buf[4] = type;
	buf[5] = 0;
	put16(buf + 6, flow);
	put64(buf + 8, seq);
}

size_t gen_hdr_len(size_t payload)
{
	if (payload >= GEN_HDR_FULL)
		return GEN_HDR_FULL;
	if (payload >= GEN_HDR_COMPACT)
		return GEN_HDR_COMPACT;
	return 0;
}

size_t gen_data_encode(uint8_t *buf, size_t len, uint16_t flow, uint64_t seq)
{
	size_t hlen = gen_hdr_len(len);

	if (hlen == GEN_HDR_FULL) {
		put_full(buf, GEN_DATA, flow, seq);
	} else if (hlen == GEN_HDR_COMPACT) {
		buf[0] = GEN_MAGIC_COMPACT;
		put16(buf + 1, flow);
		put32(buf + 3, (uint32_t)seq);
	}
	return hlen;
}

bool gen_hdr_decode(const uint8_t *buf, size_t len, struct gen_hdr *h)
{
	if (len >= GEN_HDR_FULL && get32(buf) == GEN_MAGIC) {
		if (buf[4] > GEN_REPORT || buf[5] != 0)
			return false;
		h->type = buf[4];
		h->flow = get16(buf + 6);
		h->seq = get64(buf + 8);
		h->seq_bits = 64;
		return true;
	}
	if (len >= GEN_HDR_COMPACT && buf[0] == GEN_MAGIC_COMPACT) {
		h->type = GEN_DATA;
		h->flow = get16(buf + 1);
		h->seq = get32(buf + 3);
		h->seq_bits = 32;
		return true;
	}
	return false;
}

size_t gen_fin_encode(uint8_t *buf, uint16_t flow, const struct gen_fin *f)
{
	memset(buf, 0, GEN_FIN_LEN);
	put_full(buf, GEN_FIN, flow, f->flow_sent);
	put16(buf + 16, f->nflows);
	put64(buf + 24, f->messages);
	put64(buf + 32, f->errors);
	put64(buf + 40, f->elapsed_ns);
	put32(buf + 48, f->msg_size);
	put32(buf + 52, f->sockbuf);
	put64(buf + 56, f->flow_errors);
	return GEN_FIN_LEN;
}

bool gen_fin_decode(const uint8_t *buf, size_t len, struct gen_fin *f)
{
	struct gen_hdr h;

	if (len < GEN_FIN_LEN || !gen_hdr_decode(buf, len, &h) ||
	    h.type != GEN_FIN)
		return false;
	f->flow_sent = h.seq;
	f->nflows = get16(buf + 16);
	f->messages = get64(buf + 24);
	f->errors = get64(buf + 32);
	f->elapsed_ns = get64(buf + 40);
	f->msg_size = get32(buf + 48);
	f->sockbuf = get32(buf + 52);
	f->flow_errors = get64(buf + 56);
	return true;
}

size_t gen_report_encode(uint8_t *buf, const struct gen_report *r)
{
	memset(buf, 0, GEN_REPORT_LEN);
	put_full(buf, GEN_REPORT, 0, r->messages);
	put64(buf + 16, r->bytes);
	put64(buf + 24, r->loss);
	put64(buf + 32, r->reorder);
	put64(buf + 40, r->elapsed_ns);
	put64(buf + 48, r->cpu_ns);
	put32(buf + 56, r->sockbuf);
	put64(buf + 64, r->dup);
	return GEN_REPORT_LEN;
}

bool gen_report_decode(const uint8_t *buf, size_t len, struct gen_report *r)
{
	struct gen_hdr h;

	if (len < GEN_REPORT_LEN || !gen_hdr_decode(buf, len, &h) ||
	    h.type != GEN_REPORT)
		return false;
	r->messages = h.seq;
	r->bytes = get64(buf + 16);
	r->loss = get64(buf + 24);
	r->reorder = get64(buf + 32);
	r->elapsed_ns = get64(buf + 40);
	r->cpu_ns = get64(buf + 48);
	r->sockbuf = get32(buf + 56);
	r->dup = get64(buf + 64);
	return true;
}
