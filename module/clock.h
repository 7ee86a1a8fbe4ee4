/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the frame clock: stamps, frames and their net durations
 * (clock.c: the out-of-line part; tasks.h: frames that live in a task).
 *
 * Every CPU keeps two monotonic totals (struct nc_cpu): the cycles spent
 * in hardirq handlers, system vectors and NMIs (hard_total, probes_irq.c)
 * and the net cycles spent in softirqs (soft_total, probes_softirq.c).
 * A frame - one open stage run (a softirq, a NAPI poll, a packet into
 * the stack, a driver xmit) - snapshots the totals it must exclude when
 * it starts and subtracts their growth when it ends, so that time in a
 * nested interrupt is charged once, to the interrupt.  Its net duration
 * is its wall time minus
 *   - the interrupt time (hard_total) this CPU spent inside it while its
 *     owner was on CPU, and
 *   - the time its owner task was off CPU (PREEMPT_RT runs softirqs and
 *     IRQ handlers in preemptible threads): from the sched_switch probe's
 *     first act, which pauses it, to the finish_task_switch() hook's last
 *     act in it again, which resumes it, so that a frame holds neither
 *     the switch (ctx_switch's) nor netcost's own work at it
 *     (Documentation/stages.md, "The clock: net durations").
 * Every start and end is an nc_stamp: the clock and the totals read as
 * one unit (nc_stamp()).
 * A frame cannot migrate: softirqs and packet processing run with BHs
 * disabled, which on PREEMPT_RT disables migration, so this CPU's totals
 * are the ones to subtract.  Where softirqs are serialised per CPU the
 * frames themselves are per CPU (struct nc_bh in nc_cpu); where they are
 * not (PREEMPT_RT since 6.18 without CONFIG_PREEMPT_RT_NEEDS_BH_LOCK,
 * compat.h's NC_BH_PER_TASK) one task's softirq can be preempted by
 * another's on the same CPU, and each task keeps its own struct nc_bh in
 * its task slot (tasks.c).  Frames that can migrate (system calls, IRQ
 * thread runs) live in the task table too (tasks.h), and exclude the
 * softirq time (soft_total) as well.
 */
#ifndef _NETCOST_CLOCK_H
#define _NETCOST_CLOCK_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/timex.h>
#include <linux/types.h>

#include "netcost.h"
#include "hist.h"

/*
 * Task frames resume where the context switch ends, in the
 * finish_task_switch() hook; without that hook (its symbol not found,
 * or not attached), at sched_switch.  Defined in clock.c, read by
 * the probes; only the hook table (hooks.c) sets it, as it attaches and
 * detaches that hook.
 */
extern bool nc_resume_in_fts;

/*
 * A timestamp and the interrupt totals it is compared with, read as one
 * unit (nc_stamp()): time in an interrupt that lands between the reads
 * would otherwise be subtracted without being inside the interval.
 */
struct nc_stamp {
	u64 now;			/* cycles */
	u64 hard;			/* hard_total at @now */
	u64 soft;			/* soft_total at @now */
};

static inline u64 nc_now(void)
{
	return get_cycles();
}

/*
 * nc_stamp - read the clock and this CPU's interrupt totals as one unit:
 * retry while an interrupt moved a total in between, as osnoise's
 * get_int_safe_duration() does.
 */
static inline void nc_stamp(struct nc_cpu *c, struct nc_stamp *st)
{
	u64 hard, soft;

	do {
		hard = READ_ONCE(c->hard_total);
		soft = READ_ONCE(c->soft_total);
		barrier();
		st->now = nc_now();
		barrier();
	} while (hard != READ_ONCE(c->hard_total) ||
		 soft != READ_ONCE(c->soft_total));
	st->hard = hard;
	st->soft = soft;
}

/*
 * The frame clock, inline: every interval's end runs nc_net(),
 * every frame nc_frame_begin() and nc_frame_end().
 *
 * nc_net - @end - @start - @excl, computed signed.  A negative result
 * means the exclusions overlap the interval wrongly; it is recorded as 0
 * and counted in clamped_negative, never hidden.
 */
static __always_inline u64 nc_net(u64 end, u64 start, u64 excl)
{
	s64 net = (s64)(end - start) - (s64)excl;

	if (net < 0) {
		nc_count(NETCOST_CTR_CLAMPED_NEGATIVE, 1);
		return 0;
	}
	return net;
}

/* nc_frame_begin - open per-CPU frame @f in the current task at @st */
static __always_inline void nc_frame_begin(struct nc_frame *f, const struct nc_stamp *st)
{
	f->owner = current;
	f->start = st->now;
	f->excl = 0;
	f->hard_snap = st->hard;
	f->out_at = 0;
	f->list = false;
	f->backlog = false;
	f->flush = false;
	f->untimed = false;
	f->depth = 1;
}

/*
 * nc_frame_begin_untimed - open rx or tx frame @f in the current task
 * without a stamp: a packet sampling leaves untimed (nc_sampled()).  It
 * nests and closes as a timed one, so that its events pair up, but
 * records nothing: its close counts it in rx_skb_untimed or
 * tx_xmit_untimed.
 */
static __always_inline void nc_frame_begin_untimed(struct nc_frame *f)
{
	f->owner = current;
	f->out_at = 0;
	f->list = false;
	f->backlog = false;
	f->flush = false;
	f->untimed = true;
	f->depth = 1;
}

/*
 * nc_sampled - whether the packet whose rx or tx frame (of @kind) opens
 * now on CPU @c is timed: always, unless CONFIG set sample N; then one
 * event in N of each kind on each CPU, the gap to the next drawn from
 * N - 1, N, N + 1 (the CPU's xorshift32 sequence).
 * Every Nth event, so that the timed ones hold each kind in its share
 * (an rx_skb of GRO's list delivery runs ten times as long as a
 * packet's entry: by independent 1-in-N draws, the timed mean of 6,000
 * events moved by up to 13% at N = 64); the gap jittered, so that no
 * periodic pattern of the load (two flows in turn, say) locks onto the
 * same place.  Preemption is off in the probes; an interrupt's draw in
 * between only moves a count by one.
 */
static __always_inline bool nc_sampled(struct nc_cpu *c, enum nc_sample_kind kind)
{
	u32 n = READ_ONCE(nc_cfg.sample);
	u32 x;

	if (likely(n <= 1))
		return true;
	if (--c->sample_left[kind] > 0)
		return false;
	x = c->sample_rnd;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	c->sample_rnd = x;
	c->sample_left[kind] = n - 1 + x % 3;
	return true;
}

/*
 * nc_frame_end - close per-CPU frame @f at @st and return its net cycles:
 * wall time minus nested interrupts minus time its owner was off CPU.
 */
static __always_inline u64 nc_frame_end(struct nc_frame *f, const struct nc_stamp *st)
{
	f->depth = 0;
	return nc_net(st->now, f->start, f->excl + (st->hard - f->hard_snap));
}

/*
 * An rx frame that no exit event closes, opened by a netif_receive_skb
 * event (probes_net.c): a list GRO delivered at a poll's end
 * (nc_frame.flush) or a backlog's packet (nc_frame.backlog).
 * nc_rx_marked - @f is such a frame of the running task, of kind @mark,
 * with nothing nested in it; nc_rx_marked_end - it ends at @st: one
 * rx_skb.  nc_rx_flush_end - the running task's list, if one is open,
 * ends at @st; the caller gives @b back (nc_bh_put()) or reopens its rx
 * frame.
 */
static __always_inline bool nc_rx_marked(const struct nc_frame *f, bool mark)
{
	return mark && f->depth == 1 && f->owner == current;
}

/*
 * nc_frame_record - rx or tx frame @f closes at @st: its net cycles are
 * one event of @stage, or, left untimed by sampling, one in the stage's
 * _untimed counter
 */
static __always_inline void nc_frame_record(struct nc_frame *f, enum netcost_stage stage,
					    const struct nc_stamp *st)
{
	if (unlikely(f->untimed)) {
		f->depth = 0;
		nc_count(stage == NETCOST_STAGE_RX_SKB ? NETCOST_CTR_RX_SKB_UNTIMED :
			 NETCOST_CTR_TX_XMIT_UNTIMED, 1);
		return;
	}
	nc_record(stage, nc_frame_end(f, st));
}

static __always_inline void nc_rx_marked_end(struct nc_frame *f, const struct nc_stamp *st)
{
	f->flush = false;
	f->backlog = false;
	nc_frame_record(f, NETCOST_STAGE_RX_SKB, st);
}

static __always_inline bool nc_rx_flush_end(struct nc_bh *b, const struct nc_stamp *st)
{
	if (likely(!nc_rx_marked(&b->rx, b->rx.flush)))
		return false;
	nc_rx_marked_end(&b->rx, st);
	return true;
}

void __nc_frames_pause(struct nc_bh *b, struct task_struct *prev,
		       const struct nc_stamp *st);
void __nc_frames_resume(struct nc_bh *b, struct task_struct *next,
			const struct nc_stamp *st);

/* nc_bh_open - whether any of the softirq frames @b is open */
static __always_inline bool nc_bh_open(const struct nc_bh *b)
{
	return b && (b->softirq.depth | b->napi.depth | b->rx.depth | b->tx.depth);
}

/*
 * nc_frames_pause/resume - stop/restart the clock of the softirq frames
 * @b that @p owns (clock.c), at every context switch: most find none open
 */
static __always_inline void nc_frames_pause(struct nc_bh *b, struct task_struct *p,
					    const struct nc_stamp *st)
{
	if (nc_bh_open(b))
		__nc_frames_pause(b, p, st);
}

static __always_inline void nc_frames_resume(struct nc_bh *b, struct task_struct *p,
					     const struct nc_stamp *st)
{
	if (nc_bh_open(b))
		__nc_frames_resume(b, p, st);
}

void nc_bh_reset(struct nc_bh *b);

#endif /* _NETCOST_CLOCK_H */
