// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - the frame clock: net durations of per-CPU frames.
 *
 * A frame is one open stage run (a softirq, a NAPI poll, a packet into
 * the stack, a driver xmit).  Its net duration is its wall time minus
 *   - the interrupt time (hard_total: irqaction handlers, system vectors,
 *     NMIs) this CPU spent inside it while its owner was on CPU, and
 *   - the time its owner task was off CPU: from the end of the
 *     sched_switch that took it off to the start of finish_task_switch()
 *     in it again, so that the switch itself is charged to ctx_switch
 *     only, never also to the frame.
 * Every start and end is an nc_stamp (clock and totals read as one unit).
 * A frame cannot migrate: softirqs and packet processing run with BHs
 * disabled, which on PREEMPT_RT disables migration, so this CPU's totals
 * are the ones to subtract.  Where softirqs are serialised per CPU the
 * frames themselves are per CPU (struct nc_bh in nc_cpu); where they are
 * not (PREEMPT_RT since 6.18 without CONFIG_PREEMPT_RT_NEEDS_BH_LOCK,
 * compat.h's NC_BH_PER_TASK) one task's softirq can be preempted by
 * another's on the same CPU, and each task keeps its own struct nc_bh in
 * its task slot (tasks.c).  Frames that can migrate (system calls, IRQ
 * thread runs) live in the task table too.
 */
#include "netcost.h"

static void nc_frame_pause(struct nc_frame *f, struct task_struct *prev,
			   const struct nc_stamp *st)
{
	if (!f->depth || f->owner != prev || f->out_at)
		return;
	f->excl += st->hard - f->hard_snap;
	f->out_at = st->now;
}

static void nc_frame_resume(struct nc_frame *f, struct task_struct *next,
			    const struct nc_stamp *st)
{
	if (!f->depth || f->owner != next || !f->out_at)
		return;
	f->excl += st->now - f->out_at;
	f->out_at = 0;
	f->hard_snap = st->hard;
}

/*
 * __nc_frames_pause - @prev leaves the CPU (sched_switch): stop the clock
 * of the softirq frames @b (nc_bh_of(), some open) it owns.  On PREEMPT_RT a
 * softirq, and the packet it is processing, run in a preemptible thread.
 */
void __nc_frames_pause(struct nc_bh *b, struct task_struct *prev,
		       const struct nc_stamp *st)
{
	nc_frame_pause(&b->softirq, prev, st);
	nc_frame_pause(&b->napi, prev, st);
	nc_frame_pause(&b->rx, prev, st);
	nc_frame_pause(&b->tx, prev, st);
}

/* __nc_frames_resume - @next runs again (finish_task_switch): restart them */
void __nc_frames_resume(struct nc_bh *b, struct task_struct *next,
			const struct nc_stamp *st)
{
	nc_frame_resume(&b->softirq, next, st);
	nc_frame_resume(&b->napi, next, st);
	nc_frame_resume(&b->rx, next, st);
	nc_frame_resume(&b->tx, next, st);
}

/* nc_bh_reset - forget the open softirq frames (hooks came or went) */
void nc_bh_reset(struct nc_bh *b)
{
	WRITE_ONCE(b->rx_skip, 0);
	WRITE_ONCE(b->softirq.depth, 0);
	WRITE_ONCE(b->napi.depth, 0);
	WRITE_ONCE(b->rx.depth, 0);
	WRITE_ONCE(b->tx.depth, 0);
}
