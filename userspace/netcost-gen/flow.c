// SPDX-License-Identifier: GPL-2.0
/*
 * flow.c - per-flow loss, reordering and duplicate counting (see flow.h).
 */
#include <string.h>

#include "flow.h"

uint64_t gen_seq_unwrap(uint64_t next, uint64_t seq, unsigned int bits)
{
	uint32_t d;

	if (bits >= 64)
		return seq;
	/* the signed 32-bit distance from next to seq, applied to next */
	d = (uint32_t)seq - (uint32_t)next;
	if ((int32_t)d < 0 && (uint64_t)-(int64_t)(int32_t)d > next)
		return (uint32_t)seq;	/* would go below 0: early in the flow */
	return next + (int64_t)(int32_t)d;
}

void gen_flow_init(struct gen_flow *f)
{
	memset(f, 0, sizeof(*f));
}

static bool win_test(const struct gen_flow *f, uint64_t seq)
{
	return f->win[(seq % GEN_FLOW_WIN) / 64] & (1ull << (seq % 64));
}

static void win_set(struct gen_flow *f, uint64_t seq)
{
	f->win[(seq % GEN_FLOW_WIN) / 64] |= 1ull << (seq % 64);
}

static void win_clear(struct gen_flow *f, uint64_t seq)
{
	f->win[(seq % GEN_FLOW_WIN) / 64] &= ~(1ull << (seq % 64));
}

void gen_flow_data(struct gen_flow *f, uint64_t seq, uint64_t bytes)
{
	f->received++;
	f->bytes += bytes;
	f->seen = true;

	if (seq >= f->next) {
		/* forget the slots that now fall out of the window */
		if (seq - f->next >= GEN_FLOW_WIN) {
			memset(f->win, 0, sizeof(f->win));
		} else {
			for (uint64_t s = f->next; s < seq; s++)
				win_clear(f, s);
		}
		win_clear(f, seq);
		win_set(f, seq);
		f->next = seq + 1;
		return;
	}

	if (f->next - seq > GEN_FLOW_WIN) {
		/* too old to tell a duplicate from a late one: call it late */
		f->reorder++;
		return;
	}
	if (win_test(f, seq)) {
		f->dup++;
		return;
	}
	win_set(f, seq);
	f->reorder++;
}

void gen_flow_fin(struct gen_flow *f, uint64_t sent, uint64_t errors)
{
	f->fin = true;
	f->fin_sent = sent;
	f->fin_errors = errors;
}

uint64_t gen_flow_expected(const struct gen_flow *f)
{
	if (f->fin && f->fin_sent > f->next)
		return f->fin_sent;
	return f->next;
}

uint64_t gen_flow_loss(const struct gen_flow *f)
{
	uint64_t unique = f->received - f->dup;
	uint64_t expected = gen_flow_expected(f);

	return unique < expected ? expected - unique : 0;
}
