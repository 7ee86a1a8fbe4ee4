// SPDX-License-Identifier: GPL-2.0
/*
 * probes_sched.c - context switches, wake-up latency, task exit.
 * The definitions are Documentation/stages.md's; this file says where
 * its probes take the stamps that implement them.
 *
 * ctx_switch: from the end of the outgoing task's sched_switch event to
 * the start of finish_task_switch() in the incoming task (its function
 * entry, hooked by ftrace: the first code the incoming task runs after
 * the stack switch).  It measures
 * context_switch() itself: the mm switch, switch_to() and FPU state, with
 * interrupts off, so nothing nests in it.  A task that runs for the first
 * time reaches finish_task_switch() through schedule_tail(), which counts
 * the same way.
 *
 * The frame clocks (clock.c, tasks.c) stop at the sched_switch probe's
 * first act and resume at the finish_task_switch() hook's last act, so
 * that a preempted frame holds none of netcost's own switch work, which
 * lies in no stage (nor does ftrace's: the oracle's stub places both
 * stamps, tests/oracle/README.md).
 * sched_switch looks each of the two tasks up in the task table once,
 * and hands the incoming one's slot to finish_task_switch() through
 * nc_cpu (IRQs stay off between the two, on this CPU).
 *
 * wakeup_latency: for IRQ threads, NAPI threads and ksoftirqd, from the
 * first sched_waking that finds the thread asleep (off every runqueue,
 * or still queued only because EEVDF delayed its dequeue: 6.12 and
 * later) on the waker's CPU (the TSC is shared) to the sched_switch that
 * puts it on a CPU.  A waking of a thread that is queued or running
 * changes nothing and is not a start.
 *
 * Runqueue waits and sleeps of the packet path's tasks: wait.c, fed from
 * sched_switch, sched_waking and sched_wakeup(_new).
 */
#include <linux/ftrace.h>

#include "netcost.h"
#include "clock.h"
#include "hist.h"
#include "probes.h"
#include "tasks.h"
#include "wait.h"

void nc_tp_sched_switch(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	enum nc_task_kind kp, kn;
	struct nc_task *tp, *tn;
	struct nc_stamp st;
	u64 t0, now;

	/*
	 * the outgoing task's frames stop at the probe's first act: none of
	 * netcost's switch work below is theirs (nor ctx_switch's)
	 */
	nc_stamp(c, &st);
	t0 = nc_hit(data);
	kp = nc_task_kind(prev);
	kn = nc_task_kind(next);
	nc_count(NETCOST_CTR_CTX_SWITCHES, 1);
	if (kp == NC_TASK_IRQ_THREAD || kn == NC_TASK_IRQ_THREAD)
		nc_count(NETCOST_CTR_CTX_SWITCHES_IRQ_THREAD, 1);
	if (kp == NC_TASK_KSOFTIRQD || kn == NC_TASK_KSOFTIRQD)
		nc_count(NETCOST_CTR_CTX_SWITCHES_KSOFTIRQD, 1);
	/*
	 * the waiting stages follow IRQ threads and ksoftirqd from here on;
	 * an exiting one gets no new slot (sched_process_exit freed its own);
	 * @prev is the running task still
	 */
	tp = kp != NC_TASK_OTHER && nc_wait_on() && !(prev->flags & PF_EXITING) ?
	     nc_task_cur_get() : nc_task_cur();
	tn = nc_task_find(next);

	nc_wait_switch(preempt, prev_state, prev, tp, kp, next, tn, kn);
	/* wakeup_latency ends after the look-ups, where the oracle places it */
	now = nc_now();
	nc_frames_pause(nc_bh_of(c, tp), prev, &st);
	nc_task_pause(tp, &st);
	if (kn != NC_TASK_OTHER)
		nc_task_switched_in(tn, now);
	c->switch_next = next;
	c->switch_slot = tn;
	c->switch_stage = kp != NC_TASK_OTHER || kn != NC_TASK_OTHER ||
			  (tp && tp->load) || (tn && tn->load) ?
			  NETCOST_STAGE_CTX_SWITCH : NETCOST_STAGE_CTX_SWITCH_OTHER;
	/* its last switch: whatever it claimed after sched_process_exit goes */
	if (unlikely(prev_state & TASK_DEAD) && tp)
		nc_task_release(prev);
	/* without the finish_task_switch() hook the frames resume here */
	if (!READ_ONCE(nc_resume_in_fts)) {
		nc_stamp(c, &st);
		nc_frames_resume(nc_bh_of(c, tn), next, &st);
		nc_task_resume(tn, &st);
	}
	nc_probe_end(t0);
	/*
	 * ctx_switch starts as the probe's last act, so that none of the
	 * frame work above is in it (interrupts are off: a plain read)
	 */
	c->switch_start = nc_now();
}

/*
 * nc_finish_task_switch - the first code of the incoming task after the
 * switch (finish_task_switch()'s entry, interrupts off; also after
 * schedule_tail() for a task that runs for the first time), from hook
 * @hook: its ftrace_ops
 */
static __always_inline void nc_finish_task_switch(void *hook)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->switch_start;
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	nc_stamp(c, &st);
	t0 = nc_hit(hook);
	if (start) {
		c->switch_start = 0;
		nc_record(c->switch_stage, nc_net(st.now, start, 0));
	}
	t = c->switch_next == current ? c->switch_slot : nc_task_cur();
	c->switch_next = NULL;
	/* the running task's slot for nc_task_cur() */
	if (t)
		c->cur_slot = t;
	nc_wait_flush();
	nc_probe_end(t0);
	/*
	 * the incoming task's frames resume at the hook's last act: none of
	 * netcost's switch work above is theirs
	 */
	nc_stamp(c, &st);
	nc_frames_resume(nc_bh_of(c, t), current, &st);
	nc_task_resume(t, &st);
}

void nc_fe_finish_task_switch(void *hook, struct ftrace_regs *fregs)
{
	nc_finish_task_switch(hook);
}

void nc_tp_sched_waking(void *data, struct task_struct *p)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_task *t;

	if (nc_task_kind(p) == NC_TASK_OTHER) {
		/* who wakes a load task (wait.c); IRQ threads and ksoftirqd are none */
		if (nc_wait_on())
			nc_wait_waking(nc_task_find(p));
		goto out;
	}
	/* queued, unless only its dequeue was delayed (it sleeps) */
	if (READ_ONCE(p->on_rq) && !NC_SCHED_DELAYED(p))
		goto out;
	t = nc_task_get(p);
	nc_probe_end(t0);
	/* the start of an interval: stamped as the probe's last act */
	if (t)
		cmpxchg(&t->waking, 0, nc_now());
	return;
out:
	nc_probe_end(t0);
}

/*
 * sched_wakeup and sched_wakeup_new: @p joins a runqueue (wait.c).  It
 * ends a load task's sleep and starts its runqueue wait at one stamp,
 * taken after the look-ups, as near the probe's end (and the ftrace
 * event that follows it) as the recording allows.
 */
void nc_tp_sched_wakeup(void *data, struct task_struct *p)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);

	nc_probe_end(t0);
	nc_wait_wakeup(p);
}

void nc_tp_sched_process_exit(void *data, NC_SCHED_PROCESS_EXIT_ARGS)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);

	nc_task_release(p);
	nc_probe_end(t0);
}
