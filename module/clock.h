/* SPDX-License-Identifier: GPL-2.0 */
/*
 * clock.h - the frame clock: net durations (clock.c; tasks.h for the
 * frames that live in a task).  What a net duration is: see
 * Documentation/stages.md, "The clock: net durations".  How it is kept:
 *
 * A frame is one open stage run: a softirq, a NAPI poll, a packet into
 * the stack, a driver xmit (struct nc_frame), or a system call, an IRQ or
 * NAPI thread's run (struct nc_task).  It opens at a stamp and closes at
 * a stamp; its net duration is the time between them less the nested
 * time it must not hold.
 *
 * Stamps.  A stamp (struct nc_stamp, nc_stamp()) is the clock
 * (get_cycles(): the TSC) and this CPU's two interrupt totals, read as
 * one unit: retried while an interrupt moved a total in between.  Every
 * CPU keeps the two totals, monotonic: hard_total, the cycles in hardirq
 * handlers, system vectors and NMIs (probes_irq.c adds each run's), and
 * soft_total, the net cycles in softirqs (probes_softirq.c).  As a rule
 * a stamp sits at the edge of its probe: a start is the probe's last
 * act, an end its first.
 *
 * Nested time is subtracted by snapshot: a frame snapshots the totals it
 * must exclude when it opens (or resumes), and adds their growth to its
 * exclusion when it closes (or pauses), so that time in a nested
 * interrupt is charged once, to the interrupt.  A per-CPU frame excludes
 * hard_total (nc_frame_begin(), nc_frame_end()); a system call both
 * totals, an IRQ thread's run hard_total, a NAPI thread's run both
 * (nc_task_settle()).  nc_net() takes the exclusions off, signed: a
 * result below zero is recorded as 0 and counted in clamped_negative.
 *
 * Time off CPU.  A frame whose owner task is switched out (PREEMPT_RT
 * runs softirqs and IRQ handlers in preemptible threads) stops its clock
 * from the end of the sched_switch that takes the task off
 * (nc_frames_pause(), nc_task_pause()) to the start of
 * finish_task_switch() in it again (nc_frames_resume(),
 * nc_task_resume(); both in probes_sched.c), so that the switch is
 * charged to ctx_switch only, never also to the frame.  A resume
 * snapshots the totals afresh: what they grew by meanwhile was other
 * tasks' time.
 *
 * Where frames live.  Softirqs and packet processing run with BHs
 * disabled, which on PREEMPT_RT disables migration: their frames cannot
 * migrate, and this CPU's totals are the ones to subtract.  Where
 * softirqs are serialised per CPU those frames are per CPU (struct nc_bh
 * in nc_cpu); where they are not (PREEMPT_RT since 6.18 without
 * CONFIG_PREEMPT_RT_NEEDS_BH_LOCK, compat.h's NC_BH_PER_TASK) one task's
 * softirq can be preempted by another's on the same CPU, and each task
 * keeps its own struct nc_bh in its task slot (tasks.h).  Frames that can
 * migrate (system calls, IRQ and NAPI thread runs) live in the task table
 * (tasks.c), and take the totals of the CPU they resume on.
 */
#ifndef _NETCOST_CLOCK_H
#define _NETCOST_CLOCK_H

#include <linux/timex.h>

#include "netcost.h"
#include "hist.h"

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
 * The frame clock, inline: every interval's end runs nc_net(), every
 * frame nc_frame_begin() and nc_frame_end().
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
	f->depth = 1;
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

/*
 * nc_bh_find - the running task's softirq frames, or NULL if it has none
 * open; nc_bh_get - the same, claimed (NULL: the task table is full);
 * nc_bh_put - after a frame closed: give them back once none is open.
 * Without NC_BH_PER_TASK: this CPU's, always; with it, the task slot's
 * (inline, tasks.h).
 */
#if !NC_BH_PER_TASK
static inline struct nc_bh *nc_bh_find(struct nc_cpu *c)
{
	return &c->bh;
}

static inline struct nc_bh *nc_bh_get(struct nc_cpu *c)
{
	return &c->bh;
}

static inline void nc_bh_put(struct nc_bh *b)
{
}
#endif

#endif /* _NETCOST_CLOCK_H */
