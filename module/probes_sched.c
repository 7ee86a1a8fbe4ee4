// SPDX-License-Identifier: GPL-2.0
/*
 * probes_sched.c - context switches and wake-up latency.
 *
 * ctx_switch: from the end of the outgoing task's sched_switch event to
 * the start of finish_task_switch() in the incoming task (a kprobe: the
 * first code the incoming task runs after the stack switch).  It measures
 * context_switch() itself: the mm switch, switch_to() and FPU state, with
 * interrupts off, so nothing nests in it.  A task that runs for the first
 * time reaches finish_task_switch() through schedule_tail(), which counts
 * the same way.
 *
 * wakeup_latency: for IRQ threads and ksoftirqd, from sched_waking (on
 * the waker's CPU; the TSC is shared) to the sched_switch that puts the
 * thread on a CPU.
 *
 * sched_switch also drives the frame clocks (tasks.c): a frame whose task
 * goes off CPU stops counting until the task is back.
 */
#include <linux/kprobes.h>

#include "netcost.h"

void nc_tp_sched_switch(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	enum nc_task_kind kp = nc_task_kind(prev);
	enum nc_task_kind kn = nc_task_kind(next);

	nc_count(NETCOST_CTR_CTX_SWITCHES, 1);
	if (kp == NC_TASK_IRQ_THREAD || kn == NC_TASK_IRQ_THREAD)
		nc_count(NETCOST_CTR_CTX_SWITCHES_IRQ_THREAD, 1);
	if (kp == NC_TASK_KSOFTIRQD || kn == NC_TASK_KSOFTIRQD)
		nc_count(NETCOST_CTR_CTX_SWITCHES_KSOFTIRQD, 1);

	nc_frames_switch(c, prev, next, now);
	nc_task_switch(c, prev, next, now);
	nc_probe_end(t0);
	c->switch_start = nc_now();
}

int nc_kp_finish_task_switch(struct kprobe *p, struct pt_regs *regs)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->switch_start;
	u64 t0 = nc_probe_begin(nc_kp_hook(p));

	if (start) {
		c->switch_start = 0;
		nc_record(NETCOST_STAGE_CTX_SWITCH, now - start);
	}
	nc_probe_end(t0);
	return 0;
}

void nc_tp_sched_waking(void *data, struct task_struct *p)
{
	u64 now = nc_now();
	u64 t0;
	struct nc_task *t;

	if (nc_task_kind(p) == NC_TASK_OTHER)
		return;
	t0 = nc_probe_begin(data);
	t = nc_task_get(p);
	if (t)
		cmpxchg(&t->waking, 0, now);
	nc_probe_end(t0);
}
