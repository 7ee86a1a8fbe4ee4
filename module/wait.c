// SPDX-License-Identifier: GPL-2.0
/*
 * wait.c - where the time of the packet path's tasks goes when they do
 * not run: waiting on a runqueue, or asleep.
 * The definitions are Documentation/stages.md's; this file says where
 * its probes take the stamps that implement them.
 *
 * Three kinds of task are followed: load tasks (a task becomes one when
 * it first enters a watched rx/tx system call: the sink, the generator,
 * the user's server), IRQ threads and ksoftirqd; NAPI threads are
 * followed as IRQ threads (runq_wait_irq_thread, the irq_thread class and
 * waker), being the same kind of packet-only kthread.  Their state lives in
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
 * counts the sleeps and their cycles.  A sleep counts when the CPU the
 * sleeper wakes on records, and is written into the waker's CPU's figures.
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
#include "clock.h"
#include "hist.h"
#include "tasks.h"
#include "wait.h"

struct nc_wait_cpu {
	u64 acc[NC_CLS_NR];		/* cycles each class ran on this CPU */
	u64 since;			/* cycles: the last sched_switch, or 0 */
	u8 cur;				/* class of the task on the CPU */
	/*
	 * the runqueue wait that ended at the last sched_switch, recorded in
	 * finish_task_switch() (nc_wait_flush())
	 */
	bool pend;
	bool pend_moved;		/* it started on another CPU */
	u8 pend_stage;			/* enum netcost_stage */
	u64 pend_start, pend_end;	/* cycles */
	u64 pend_d[NC_CLS_NR];		/* its cycles behind each class */
};

static DEFINE_PER_CPU(struct nc_wait_cpu, nc_wait_cpu);

static const enum netcost_stage nc_wait_stage[] = {
	[NC_TASK_OTHER]		= NETCOST_STAGE_RUNQ_WAIT_LOAD,
	[NC_TASK_IRQ_THREAD]	= NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD,
	[NC_TASK_KSOFTIRQD]	= NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD,
	/* NAPI threads are followed as IRQ threads (their class, their waker) */
	[NC_TASK_NAPI_THREAD]	= NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD,
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

/* nc_wait_class - what @p (kind @k, slot @t or NULL) is, as the task on a CPU */
static u8 nc_wait_class(struct task_struct *p, enum nc_task_kind k,
			const struct nc_task *t)
{
	if (is_idle_task(p))
		return NC_CLS_IDLE;
	switch (k) {
	case NC_TASK_IRQ_THREAD:
	case NC_TASK_NAPI_THREAD:
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
static __always_inline void nc_wait_snap(int cpu, u64 now, u64 *snap)
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
static __always_inline void nc_wait_queued(struct nc_task *t, int cpu, u64 now)
{
	nc_wait_snap(cpu, now, t->wait_snap);
	t->wait_cpu = cpu;
	t->wait_start = now;
	t->wstate = NC_WAIT_RUNQ;
}

/*
 * nc_wait_snap_base - @t joins this CPU's runqueue at the stamp that
 * follows: its snapshot of the accumulators up to this CPU's last
 * switch (nc_wait_switch() adds the time since, once it has the stamp)
 */
static __always_inline void nc_wait_snap_base(const struct nc_wait_cpu *w, struct nc_task *t)
{
	int i;

	for (i = 0; i < NC_CLS_NR; i++)
		t->wait_snap[i] = w->acc[i];
	t->wait_cpu = smp_processor_id();
	t->wstate = NC_WAIT_RUNQ;
}

/*
 * nc_wait_ran - @t's runqueue wait ends on this CPU at @now (its kind
 * @kind): split it by what ran here meanwhile, for nc_wait_flush() to
 * record.  The recording is left to finish_task_switch(), after the
 * switch: at sched_switch it would lie between netcost's stamps and the
 * sched_switch event, as a cost the oracle cannot model.
 */
static __always_inline void nc_wait_ran(struct nc_wait_cpu *w,
					struct nc_task *t,
					enum nc_task_kind kind, u64 now)
{
	int i;

	t->wstate = NC_WAIT_NONE;
	w->pend_stage = nc_wait_stage[kind];
	w->pend_start = t->wait_start;
	w->pend_end = now;
	w->pend_moved = t->wait_cpu != smp_processor_id();
	/* this CPU's accumulators are up to date at @now (nc_wait_switch()) */
	if (!w->pend_moved)
		for (i = 0; i < NC_CLS_NR; i++)
			w->pend_d[i] = w->acc[i] - t->wait_snap[i];
	w->pend = true;
}

/*
 * nc_wait_flush - record the runqueue wait that ended at this CPU's last
 * sched_switch, if any: from the finish_task_switch() hook (or at
 * sched_switch without it)
 */
void nc_wait_flush(void)
{
	struct nc_wait_cpu *w = this_cpu_ptr(&nc_wait_cpu);
	u64 wait;
	int i;

	if (!w->pend)
		return;
	w->pend = false;
	wait = nc_net(w->pend_end, w->pend_start, 0);
	nc_record(w->pend_stage, wait);
	if (w->pend_moved) {
		nc_count(NETCOST_CTR_RUNQ_WAIT_BEHIND_OTHER_CYCLES, wait);
		return;
	}
	/* the split's counters are all of the wait group: one check */
	if (!(this_cpu_read(nc_cpu.rec) & NETCOST_GROUP_WAIT))
		return;
	for (i = 0; i < NC_CLS_NR; i++)
		this_cpu_add(nc_ctrs->counters[nc_behind(i)], w->pend_d[i]);
}

/* nc_wait_kind - the kind a task of kind @k (slot @t) waits as, or -1: not followed */
static int nc_wait_kind(enum nc_task_kind k, const struct nc_task *t)
{
	if (k != NC_TASK_OTHER)
		return k;
	return t && t->load ? NC_TASK_OTHER : -1;
}

/*
 * nc_wait_switch - sched_switch on this CPU: charge the time since the
 * last switch to the class of @prev, start @prev's wait (queued if it is
 * still runnable, else asleep), end @next's.  The probe gives each task
 * with its kind (@kp, @kn) and slot (@tp, @tn: an IRQ thread or
 * ksoftirqd has one claimed).  Called before the probe takes its own
 * stamp, so that none of this work lies between that stamp and the
 * sched_switch event for the other stages; its own stamp follows the
 * task-table look-ups, close to the probe's.
 */
void nc_wait_switch(bool preempt, unsigned int prev_state,
		    struct task_struct *prev, struct nc_task *tp,
		    enum nc_task_kind k_prev, struct task_struct *next,
		    struct nc_task *tn, enum nc_task_kind k_next)
{
	struct nc_wait_cpu *w = this_cpu_ptr(&nc_wait_cpu);
	bool queued;
	int kp, kn;
	u8 cls;
	u64 now;

	if (!nc_wait_on())
		return;
	nc_wait_flush();	/* none left without finish_task_switch() */
	cls = nc_wait_class(next, k_next, tn);
	kp = nc_wait_kind(k_prev, tp);
	kn = nc_wait_kind(k_next, tn);
	queued = kp >= 0 && tp && (preempt || prev_state == TASK_RUNNING);
	/*
	 * A preempted task's wait starts here: its snapshot of this CPU's
	 * accumulators is taken before the stamp and completed after it
	 * with the time since the last switch, so that the work after the
	 * stamp is nearly the same at every switch.  The oracle places the
	 * stamp at a fixed distance from the sched_switch event: with the
	 * whole snapshot after it, the waits ending at a switch that also
	 * queued its prev read ~60-110 cycles shorter than the others, and
	 * their mean moved with the mix (CI at bf3110b, 6.12's
	 * runq_wait_ksoftirqd: -92 cycles a wait against -34 committed).
	 */
	if (queued)
		nc_wait_snap_base(w, tp);
	now = nc_now();

	if (w->since && (s64)(now - w->since) > 0 && w->cur < NC_CLS_NR) {
		w->acc[w->cur] += now - w->since;
		if (queued)
			tp->wait_snap[w->cur] += now - w->since;
	}
	w->since = now;
	w->cur = cls;

	if (queued) {
		tp->wait_start = now;
	} else if (kp >= 0 && tp) {
		if (tp->load) {
			tp->wstate = NC_WAIT_BLOCKED;
			tp->wait_start = now;
		} else {
			tp->wstate = NC_WAIT_NONE;
		}
	}

	if (kn >= 0 && tn) {
		if (tn->wstate == NC_WAIT_RUNQ)
			nc_wait_ran(w, tn, kn, now);
		/* asleep without a wake-up seen (hooks just attached): dropped */
		tn->wstate = NC_WAIT_NONE;
	}
	if (!READ_ONCE(nc_resume_in_fts))
		nc_wait_flush();
}

/* nc_waker - who runs the current wake-up */
static u8 nc_waker(void)
{
	struct nc_task *t;

	if (in_hardirq() || in_nmi())
		return NC_WAKER_HARDIRQ;
	switch (nc_task_kind(current)) {
	case NC_TASK_IRQ_THREAD:
	case NC_TASK_NAPI_THREAD:
		return NC_WAKER_IRQ_THREAD;
	case NC_TASK_KSOFTIRQD:
		return NC_WAKER_KSOFTIRQD;
	default:
		break;
	}
	if (in_serving_softirq())
		return NC_WAKER_SOFTIRQ;
	t = nc_task_cur();
	return t && t->load ? NC_WAKER_LOAD : NC_WAKER_OTHER;
}

/* nc_wait_cpu_size - bytes of per-CPU waiting state, for INFO */
size_t nc_wait_cpu_size(void)
{
	return sizeof(struct nc_wait_cpu);
}

/*
 * nc_wait_waking - sched_waking of a task (its slot @t, or NULL): note
 * who wakes a load task, for its sched_wakeup.  Not only a sleeping one:
 * on another CPU the waking can come before the sched_switch that puts
 * it to sleep (the wake-up then waits for it to be off its CPU); every
 * sched_waking is followed by a sched_wakeup, which takes the note.
 */
void nc_wait_waking(struct nc_task *t)
{
	if (t && t->load)
		t->waker = nc_waker();
}

/*
 * nc_wait_wakeup - sched_wakeup(_new) of @p: @p joins a runqueue
 * (task_cpu(@p)'s), which ends a load task's sleep.  A task already
 * queued (preempted, then woken) keeps its wait; a task on a CPU that is
 * woken starts one that its next sched_switch replaces.  The stamp
 * follows the look-up: it is as close to the probe's end as the
 * recording allows, where the sched_wakeup event is.
 */
void nc_wait_wakeup(struct task_struct *p)
{
	enum nc_task_kind k;
	struct nc_task *t;
	u8 waker;
	u64 now;
	int cpu;

	if (!nc_wait_on())
		return;
	k = nc_task_kind(p);
	t = k != NC_TASK_OTHER ? nc_task_get(p) : nc_task_find(p);
	if (!t)
		return;
	waker = t->waker;
	t->waker = NC_WAKER_NONE;
	if (nc_wait_kind(k, t) < 0 || t->wstate == NC_WAIT_RUNQ)
		return;
	now = nc_now();
	cpu = task_cpu(p);
	/*
	 * The sleep is the sleeper's: it counts when the CPU it wakes on
	 * records (as its runqueue wait, which ends there), whichever CPU
	 * wakes it; it goes into this CPU's histogram, the only one a probe
	 * writes.  By the waker's CPU, a CPU mask of the application's CPUs
	 * lost every sleep the NIC's CPU ended (issue 21, item 10).
	 */
	if (t->wstate == NC_WAIT_BLOCKED &&
	    (READ_ONCE(per_cpu(nc_cpu, cpu).rec) & NETCOST_GROUP_WAIT)) {
		u64 slept = nc_net(now, t->wait_start, 0);

		if (waker == NC_WAKER_NONE)
			waker = NC_WAKER_OTHER;
		__nc_record(NETCOST_STAGE_BLOCKED_LOAD, slept);
		this_cpu_add(nc_ctrs->counters[nc_woken_by(waker, 0)], 1);
		this_cpu_add(nc_ctrs->counters[nc_woken_by(waker, 1)], slept);
	}
	nc_wait_queued(t, cpu, now);
}
