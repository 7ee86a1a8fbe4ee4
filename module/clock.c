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
 * disabled, which on PREEMPT_RT disables migration, so per-CPU state is
 * enough; frames that can migrate (system calls, IRQ thread runs) live in
 * the task table (tasks.c).
 */
#include "netcost.h"

/*
 * nc_net - @end - @start - @excl, computed signed.  A negative result
 * means the exclusions overlap the interval wrongly; it is recorded as 0
 * and counted in clamped_negative, never hidden.
 */
u64 nc_net(u64 end, u64 start, u64 excl)
{
	s64 net = (s64)(end - start) - (s64)excl;

	if (net < 0) {
		nc_count(NETCOST_CTR_CLAMPED_NEGATIVE, 1);
		return 0;
	}
	return net;
}

/* nc_frame_begin - open per-CPU frame @f in the current task at @st */
void nc_frame_begin(struct nc_frame *f, const struct nc_stamp *st)
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
u64 nc_frame_end(struct nc_frame *f, const struct nc_stamp *st)
{
	f->depth = 0;
	return nc_net(st->now, f->start, f->excl + (st->hard - f->hard_snap));
}

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
 * nc_frames_pause - @prev leaves the CPU (sched_switch): stop the clock
 * of the per-CPU frames it owns.  On PREEMPT_RT a softirq, and the packet
 * it is processing, run in a preemptible thread.
 */
void nc_frames_pause(struct nc_cpu *c, struct task_struct *prev,
		     const struct nc_stamp *st)
{
	nc_frame_pause(&c->softirq, prev, st);
	nc_frame_pause(&c->napi, prev, st);
	nc_frame_pause(&c->rx, prev, st);
	nc_frame_pause(&c->tx, prev, st);
}

/* nc_frames_resume - @next runs again (finish_task_switch): restart them */
void nc_frames_resume(struct nc_cpu *c, struct task_struct *next,
		      const struct nc_stamp *st)
{
	nc_frame_resume(&c->softirq, next, st);
	nc_frame_resume(&c->napi, next, st);
	nc_frame_resume(&c->rx, next, st);
	nc_frame_resume(&c->tx, next, st);
}
