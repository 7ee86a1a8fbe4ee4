/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flow.h - per-flow loss and reordering accounting of the sink.
 *
 * A flow remembers the highest sequence number it has seen and a window
 * of the GEN_FLOW_WIN sequence numbers below it.  A packet below the
 * highest one is "late" (reordered) unless its bit is already set, in
 * which case it is a duplicate.  Loss is the number of sequence numbers
 * below the end of the flow that never arrived: the end is the sender's
 * count from its FIN when there was one, else the highest seen plus one,
 * so that losses at the tail of a flow count too once the FIN arrives.
 */
#ifndef NETCOST_GEN_FLOW_H
#define NETCOST_GEN_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#define GEN_FLOW_WIN	1024	/* sequence numbers tracked for duplicates */

struct gen_flow {
	uint64_t received;	/* DATA packets, duplicates included */
	uint64_t bytes;		/* payload bytes of those */
	uint64_t next;		/* highest sequence number seen + 1 */
	uint64_t reorder;	/* arrived after a higher sequence number */
	uint64_t dup;		/* sequence number seen before */
	uint64_t fin_sent;	/* sender's count, valid when fin */
	uint64_t fin_errors;	/* sender's failed sends on this flow */
	bool seen;		/* any DATA packet arrived */
	bool fin;		/* the FIN arrived */
	uint64_t win[GEN_FLOW_WIN / 64];	/* bit (seq % WIN) for seq in [next - WIN, next) */
};

/*
 * gen_seq_unwrap - the 64-bit sequence number nearest to @next whose low
 * @bits bits are @seq (serial number arithmetic, RFC 1982).  @bits is
 * 32 or 64.
 */
uint64_t gen_seq_unwrap(uint64_t next, uint64_t seq, unsigned int bits);

/* gen_flow_init - an empty flow. */
void gen_flow_init(struct gen_flow *f);

/*
 * gen_flow_data - account one DATA packet of @bytes payload bytes with the
 * (already unwrapped) sequence number @seq.
 */
void gen_flow_data(struct gen_flow *f, uint64_t seq, uint64_t bytes);

/* gen_flow_fin - the sender says it sent @sent DATA packets on this flow. */
void gen_flow_fin(struct gen_flow *f, uint64_t sent, uint64_t errors);

/* gen_flow_expected - packets the flow should have delivered. */
uint64_t gen_flow_expected(const struct gen_flow *f);

/* gen_flow_loss - expected packets that never arrived (never negative). */
uint64_t gen_flow_loss(const struct gen_flow *f);

#endif
