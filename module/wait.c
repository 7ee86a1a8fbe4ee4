// SPDX-License-Identifier: GPL-2.0
/*
 * wait.c - where the time of the packet path's tasks goes when they do
 * not run: waiting on a runqueue, or asleep.
 *
 * Three kinds of task are followed: load tasks (a task becomes one when
 * it first enters a watched rx/tx system call: the sink, the generator,
 * the user's server), IRQ threads and ksoftirqd.  Their state lives in
 * their task-table slot (tasks.c), so it survives preemption and
 * migration.
 *
 * runq_wait_<kind>: from the moment the task joins a runqueue - its
 * sched_wakeup or sched_wakeup_new, or a sched_switch that takes it off
 * the CPU still runnable (preempted) - to the sched_switch that puts it
 * on a CPU.  Wall cycles: the scheduler's own run_delay
 * (/proc/<pid>/schedstat, field 2) covers the same interval.
 *
 * blocked_load: a load task's sleep, from the sched_switch that takes it
 * off the CPU not runnable to its sched_wakeup.  Wall cycles.  The waker
 * is who ran at its sched_waking (in the waker's context): a hardirq, a
 * softirq served outside IRQ threads and ksoftirqd, an IRQ thread,
 * ksoftirqd, a load task, anything else; blocked_load_woken_by_<waker>
 * counts the sleeps and their cycles.
 *
 * runq_wait_behind_<class>_cycles splits the runqueue waits of all three
 * kinds by what ran on that CPU meanwhile, as osnoise accounts its
 * noise: every CPU accumulates the wall time of each class of task it
 * ran (advanced at each sched_switch), a wait snapshots its CPU's
 * accumulators when it starts and is charged their growth when it ends.
 * The classes add up to the wait exactly.  A wait that ends on another
 * CPU than the one it started on (the task migrated while queued) is
 * charged to "other" whole.  Interrupts count to the task they
 * interrupted.
 *
 * Locking: a CPU's accumulators are written by its sched_switch and read
 * by a sched_wakeup that queues a task on it; both hold that CPU's
 * runqueue lock.  A task's slot is written by its own sched_switch, and
 * by its sched_waking/sched_wakeup, which the scheduler serialises.
 */
#include <linux/hardirq.h>
#include <linux/sched.h>

#include "netcost.h"

struct nc_wait_cpu {
	u64 acc[NC_CLS_NR];		/* cycles each class ran on this CPU */
	u64 since;			/* cycles: the last sched_switch, or 0 */
	u8 cur;				/* class of the task on the CPU */
};

static DEFINE_PER_CPU(struct nc_wait_cpu, nc_wait_cpu);

static const enum netcost_stage nc_wait_stage[] = {
	[NC_TASK_OTHER]		= NETCOST_STAGE_RUNQ_WAIT_LOAD,
	[NC_TASK_IRQ_THREAD]	= NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD,
	[NC_TASK_KSOFTIRQD]	= NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD,
};

/* counter @n of waker @w: 0 its sleeps, 1 their cycles */
static inline enum netcost_counter nc_woken_by(u8 w, int n)
{
	return NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_HARDIRQ + 2 * (w - NC_WAKER_HARDIRQ) + n;
}

/* the counter of class @cls in runq_wait_behind_* */
static inline enum netcost_counter nc_behind(int cls)
{
	return NETCOST_CTR_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES + cls;
}

static inline bool nc_wait_on(void)
{
	return READ_ONCE(nc_cfg.groups) & NETCOST_GROUP_WAIT;
}

/* nc_wait_class - what @p (slot @t, or NULL) is, as the task on a CPU */
static u8 nc_wait_class(struct task_struct *p, const struct nc_task *t)
{
	if (is_idle_task(p))
		return NC_CLS_IDLE;
	switch (nc_task_kind(p)) {
	case NC_TASK_IRQ_THREAD:
		return NC_CLS_IRQ_THREAD;
	case NC_TASK_KSOFTIRQD:
		return NC_CLS_KSOFTIRQD;
	default:
		break;
	}
	if (t && t->load)
		return NC_CLS_LOAD;
	if (READ_ONCE(p->policy) == SCHED_IDLE)
		return NC_CLS_SOAK;
	return NC_CLS_OTHER;
}

/*
 * nc_wait_snap - @cpu's accumulators at @now into @snap: the class on
 * that CPU is charged up to @now.
 */
static void nc_wait_snap(int cpu, u64 now, u64 *snap)
{
	const struct nc_wait_cpu *w = per_cpu_ptr(&nc_wait_cpu, cpu);
	u64 since = READ_ONCE(w->since);
	u8 cur = READ_ONCE(w->cur);
	int i;

	for (i = 0; i < NC_CLS_NR; i++)
		snap[i] = READ_ONCE(w->acc[i]);
	if (since && (s64)(now - since) > 0 && cur < NC_CLS_NR)
		snap[cur] += now - since;
}

/* nc_wait_queued - @t joins @cpu's runqueue at @now */
static void nc_wait_queued(struct nc_task *t, int cpu, u64 now)
{
	nc_wait_snap(cpu, now, t->wait_snap);
	t->wait_cpu = cpu;
	t->wait_start = now;
	t->wstate = NC_WAIT_RUNQ;
}

/*
 * nc_wait_ran - @t's runqueue wait ends on this CPU at @now (its kind
 * @kind): record it, and split it by what ran here meanwhile.
 */
static void nc_wait_ran(struct nc_task *t, enum nc_task_kind kind, u64 now)
{
	struct nc_wait_cpu *w = this_cpu_ptr(&nc_wait_cpu);
	u64 wait = nc_net(now, t->wait_start, 0);
	int i;

	t->wstate = NC_WAIT_NONE;
	nc_record(nc_wait_stage[kind], wait);
	if (t->wait_cpu != smp_processor_id()) {
		nc_count(NETCOST_CTR_RUNQ_WAIT_BEHIND_OTHER_CYCLES, wait);
		return;
	}
	/* this CPU's accumulators are up to date at @now (nc_wait_switch()) */
	for (i = 0; i < NC_CLS_NR; i++)
		nc_count(nc_behind(i), w->acc[i] - t->wait_snap[i]);
}

/* nc_wait_kind - the kind @p (slot @t) waits as, or -1: not followed */
static int nc_wait_kind(struct task_struct *p, const struct nc_task *t)
{
	enum nc_task_kind k = nc_task_kind(p);

	if (k != NC_TASK_OTHER)
		return k;
	return t && t->load ? NC_TASK_OTHER : -1;
}

/*
 * nc_wait_switch - sched_switch on this CPU at @now: charge the time
 * since the last switch to the class of @prev, start @prev's wait
 * (queued if it is still runnable, else asleep), end @next's.
 */
void nc_wait_switch(bool preempt, struct task_struct *prev,
		    struct task_struct *next, unsigned int prev_state, u64 now)
{
	struct nc_wait_cpu *w = this_cpu_ptr(&nc_wait_cpu);
	struct nc_task *tp, *tn;
	int kp, kn;

	if (!nc_wait_on())
		return;
	tp = nc_task_kind(prev) != NC_TASK_OTHER ? nc_task_get(prev) :
						   nc_task_find(prev);
	tn = nc_task_find(next);

	if (w->since && (s64)(now - w->since) > 0 && w->cur < NC_CLS_NR)
		w->acc[w->cur] += now - w->since;
	w->since = now;
	w->cur = nc_wait_class(next, tn);

	kp = nc_wait_kind(prev, tp);
	if (kp >= 0 && tp) {
		if (preempt || prev_state == TASK_RUNNING) {
			nc_wait_queued(tp, smp_processor_id(), now);
		} else if (tp->load) {
			tp->wstate = NC_WAIT_BLOCKED;
			tp->waker = NC_WAKER_NONE;
			tp->wait_start = now;
		} else {
			tp->wstate = NC_WAIT_NONE;
		}
	}

	kn = nc_wait_kind(next, tn);
	if (kn >= 0 && tn) {
		if (tn->wstate == NC_WAIT_RUNQ)
			nc_wait_ran(tn, kn, now);
		/* asleep without a wake-up seen (hooks just attached): dropped */
		tn->wstate = NC_WAIT_NONE;
	}
}

/* nc_waker - who runs the current wake-up */
static u8 nc_waker(void)
{
	struct nc_task *t;

	if (in_hardirq() || in_nmi())
		return NC_WAKER_HARDIRQ;
	switch (nc_task_kind(current)) {
	case NC_TASK_IRQ_THREAD:
		return NC_WAKER_IRQ_THREAD;
	case NC_TASK_KSOFTIRQD:
		return NC_WAKER_KSOFTIRQD;
	default:
		break;
	}
	if (in_serving_softirq())
		return NC_WAKER_SOFTIRQ;
	t = nc_task_find(current);
	return t && t->load ? NC_WAKER_LOAD : NC_WAKER_OTHER;
}

/* nc_wait_waking - sched_waking of @p: note who wakes a sleeping load task */
void nc_wait_waking(struct task_struct *p)
{
	struct nc_task *t;

	if (!nc_wait_on())
		return;
	t = nc_task_find(p);
	if (t && t->wstate == NC_WAIT_BLOCKED)
		t->waker = nc_waker();
}

/*
 * nc_wait_wakeup - sched_wakeup(_new) of @p at @now: @p joins a runqueue
 * (task_cpu(@p)'s), which ends a load task's sleep.  A task already
 * queued (preempted, then woken) keeps its wait; a task on a CPU that is
 * woken starts one that its next sched_switch replaces.
 */
void nc_wait_wakeup(struct task_struct *p, u64 now)
{
	struct nc_task *t;
	u8 waker;

	if (!nc_wait_on())
		return;
	t = nc_task_kind(p) != NC_TASK_OTHER ? nc_task_get(p) : nc_task_find(p);
	if (!t || nc_wait_kind(p, t) < 0 || t->wstate == NC_WAIT_RUNQ)
		return;
	if (t->wstate == NC_WAIT_BLOCKED) {
		u64 slept = nc_net(now, t->wait_start, 0);

		waker = t->waker ? t->waker : NC_WAKER_OTHER;
		nc_record(NETCOST_STAGE_BLOCKED_LOAD, slept);
		nc_count(nc_woken_by(waker, 0), 1);
		nc_count(nc_woken_by(waker, 1), slept);
	}
	nc_wait_queued(t, task_cpu(p), now);
}
