// SPDX-License-Identifier: GPL-2.0
/*
 * probes_sched.c - context switches, wake-up latency, task exit.
 *
 * ctx_switch: from the end of the outgoing task's sched_switch event to
 * the start of finish_task_switch() in the incoming task (a kprobe: the
 * first code the incoming task runs after the stack switch).  It measures
 * context_switch() itself: the mm switch, switch_to() and FPU state, with
 * interrupts off, so nothing nests in it.  A task that runs for the first
 * time reaches finish_task_switch() through schedule_tail(), which counts
 * the same way.
 *
 * The same two points drive the frame clocks (clock.c, tasks.c): the
 * outgoing task's frames stop where ctx_switch starts, the incoming
 * task's resume where it ends, so the switch is charged once, here.
 *
 * wakeup_latency: for IRQ threads and ksoftirqd, from the first
 * sched_waking that finds the thread off every runqueue (on the waker's
 * CPU; the TSC is shared) to the sched_switch that puts it on a CPU.  A
 * waking of a thread that is queued or running changes nothing and is
 * not a start.
 *
 * Runqueue waits and sleeps of the packet path's tasks: wait.c, fed from
 * sched_switch, sched_waking and sched_wakeup(_new).
 */
#include <linux/kprobes.h>

#include "netcost.h"

void nc_tp_sched_switch(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	enum nc_task_kind kp = nc_task_kind(prev);
	enum nc_task_kind kn = nc_task_kind(next);
	struct nc_stamp st;

	nc_count(NETCOST_CTR_CTX_SWITCHES, 1);
	if (kp == NC_TASK_IRQ_THREAD || kn == NC_TASK_IRQ_THREAD)
		nc_count(NETCOST_CTR_CTX_SWITCHES_IRQ_THREAD, 1);
	if (kp == NC_TASK_KSOFTIRQD || kn == NC_TASK_KSOFTIRQD)
		nc_count(NETCOST_CTR_CTX_SWITCHES_KSOFTIRQD, 1);
	nc_probe_end(t0);

	nc_stamp(c, &st);
	nc_frames_pause(c, prev, &st);
	nc_task_pause(prev, &st);
	if (kn != NC_TASK_OTHER)
		nc_task_switched_in(next, st.now);
	nc_wait_switch(preempt, prev, next, prev_state, st.now);
	if (!READ_ONCE(nc_resume_in_fts)) {
		nc_frames_resume(c, next, &st);
		nc_task_resume(next, &st);
	}
	/*
	 * ctx_switch starts as the probe's last act, so that none of the
	 * frame work above is in it (interrupts are off: a plain read)
	 */
	c->switch_start = nc_now();
}

int nc_kp_finish_task_switch(struct kprobe *p, struct pt_regs *regs)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->switch_start;
	struct nc_stamp st;
	u64 t0;

	nc_stamp(c, &st);
	t0 = nc_probe_begin(nc_kp_hook(p));
	if (start) {
		c->switch_start = 0;
		nc_record(NETCOST_STAGE_CTX_SWITCH, nc_net(st.now, start, 0));
	}
	nc_frames_resume(c, current, &st);
	nc_task_resume(current, &st);
	nc_probe_end(t0);
	return 0;
}

void nc_tp_sched_waking(void *data, struct task_struct *p)
{
	NC_TP_GUARD()
	struct nc_task *t;
	u64 t0;

	nc_wait_waking(p);
	if (nc_task_kind(p) == NC_TASK_OTHER || READ_ONCE(p->on_rq))
		return;
	t0 = nc_probe_begin(data);
	t = nc_task_get(p);
	nc_probe_end(t0);
	/* the start of an interval: stamped as the probe's last act */
	if (t)
		cmpxchg(&t->waking, 0, nc_now());
}

/*
 * sched_wakeup and sched_wakeup_new: @p joins a runqueue (wait.c).  The
 * stamp is the probe's first act, as at every end of an interval: it
 * ends a load task's sleep and starts its runqueue wait.
 */
void nc_tp_sched_wakeup(void *data, struct task_struct *p)
{
	NC_TP_GUARD()
	u64 now = nc_now();
	u64 t0 = nc_probe_begin(data);

	nc_wait_wakeup(p, now);
	nc_probe_end(t0);
}

void nc_tp_sched_process_exit(void *data, NC_SCHED_PROCESS_EXIT_ARGS)
{
	NC_TP_GUARD()
	u64 t0 = nc_probe_begin(data);

	nc_task_release(p);
	nc_probe_end(t0);
}
