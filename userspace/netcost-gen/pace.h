/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pace.h - the sender's absolute-deadline schedule.
 *
 * Packet k of a paced sender is due at t0 + floor(k * 1e9 / rate) ns,
 * with the rate a fraction num/den packets per second so that a total
 * rate divided over threads stays exact.  The sender never sleeps per
 * packet: it asks how many packets are due by now, sends them all (one
 * sendmmsg per flow), and sleeps with TIMER_ABSTIME until the next
 * deadline.  A late wake-up therefore costs no packets, only a bigger
 * batch, and the long-run rate has no drift.
 */
#ifndef NETCOST_GEN_PACE_H
#define NETCOST_GEN_PACE_H

#include <stdint.h>

struct gen_pace {
	uint64_t t0;	/* ns, CLOCK_MONOTONIC: packet 0 is due here */
	uint64_t num;	/* rate = num / den packets per second; num 0: unpaced */
	uint64_t den;
};

/* gen_pace_init - a schedule from @t0 at @num/@den packets per second. */
void gen_pace_init(struct gen_pace *p, uint64_t t0, uint64_t num, uint64_t den);

/* gen_pace_due - the time packet @k is due, in ns. */
uint64_t gen_pace_due(const struct gen_pace *p, uint64_t k);

/*
 * gen_pace_count - how many packets are due at or before @now, i.e. the
 * smallest k with gen_pace_due(k) > now.  0 before t0.
 */
uint64_t gen_pace_count(const struct gen_pace *p, uint64_t now);

/*
 * gen_pace_limit - how many packets are due strictly before @end: the
 * number a run that stops at @end sends (rate * duration when exact).
 */
uint64_t gen_pace_limit(const struct gen_pace *p, uint64_t end);

/*
 * gen_split - the share of @total that part @i of @parts gets when
 * @total is split as evenly as possible, the first parts taking the
 * remainder.
 */
uint64_t gen_split(uint64_t total, unsigned int parts, unsigned int i);

#endif
