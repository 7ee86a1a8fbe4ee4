// SPDX-License-Identifier: GPL-2.0
/* clock.c - the frame clock's out-of-line part; how the clock works: clock.h */
#include "netcost.h"
#include "clock.h"

/* where task frames resume (clock.h); hooks.c sets it */
bool nc_resume_in_fts;

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
