// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - per-task state for frames that live in a task, and the
 * per-CPU frame clock.
 *
 * A system call or an IRQ thread run can be preempted and migrated, so
 * its frame cannot live in per-CPU data.  The kernel has no spare field in
 * task_struct for us, so netcost keeps a fixed open-addressing table keyed
 * by task pointer.  Slots are claimed with cmpxchg from any context and
 * never allocated: a full table is counted (task_table_full) and the event
 * is not measured.  Only tasks inside a watched system call, and IRQ
 * threads and ksoftirqd (which keep their slot), are in the table.
 *
 * A stale slot (a task that died holding one) is harmless: its key is
 * only compared, never dereferenced, and a new task at the same address
 * is told apart by its pid.
 */
#include <linux/hash.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "netcost.h"

#define NC_TASK_BITS	10
#define NC_TASK_SLOTS	(1 << NC_TASK_BITS)
#define NC_TASK_PROBES	8

static struct nc_task *nc_tasks;

DEFINE_PER_CPU(struct nc_cpu, nc_cpu);

/* nc_task_kind - IRQ threads and ksoftirqd are told apart by their name */
enum nc_task_kind nc_task_kind(const struct task_struct *p)
{
	if (!(READ_ONCE(p->flags) & PF_KTHREAD))
		return NC_TASK_OTHER;
	if (!strncmp(p->comm, "irq/", 4))
		return NC_TASK_IRQ_THREAD;
	if (!strncmp(p->comm, "ksoftirqd/", 10))
		return NC_TASK_KSOFTIRQD;
	return NC_TASK_OTHER;
}

static inline struct nc_task *nc_slot(struct task_struct *p, int i)
{
	return &nc_tasks[(hash_ptr(p, NC_TASK_BITS) + i) & (NC_TASK_SLOTS - 1)];
}

/* nc_task_find - @p's slot, or NULL */
struct nc_task *nc_task_find(struct task_struct *p)
{
	int i;

	for (i = 0; i < NC_TASK_PROBES; i++) {
		struct nc_task *t = nc_slot(p, i);

		if (READ_ONCE(t->task) == p)
			return READ_ONCE(t->pid) == p->pid ? t : NULL;
	}
	return NULL;
}

/*
 * nc_task_get - @p's slot, claimed if @p has none.  A slot left by a
 * dead task with the same address is taken over and cleared.
 */
struct nc_task *nc_task_get(struct task_struct *p)
{
	int i;

	for (i = 0; i < NC_TASK_PROBES; i++) {
		struct nc_task *t = nc_slot(p, i);
		struct task_struct *key = READ_ONCE(t->task);

		if (key == p) {
			if (READ_ONCE(t->pid) != p->pid) {
				memset(&t->state, 0, sizeof(t->state));
				WRITE_ONCE(t->pid, p->pid);
			}
			return t;
		}
		if (!key && !cmpxchg(&t->task, NULL, p)) {
			memset(&t->state, 0, sizeof(t->state));
			WRITE_ONCE(t->pid, p->pid);
			return t;
		}
	}
	nc_count(NETCOST_CTR_TASK_TABLE_FULL, 1);
	return NULL;
}

/*
 * nc_task_put - give the slot back once nothing is open in it.
 * IRQ threads and ksoftirqd keep theirs: they are woken all the time.
 */
void nc_task_put(struct nc_task *t)
{
	if (t->frames || READ_ONCE(t->waking) ||
	    nc_task_kind(t->task) != NC_TASK_OTHER)
		return;
	WRITE_ONCE(t->pid, 0);
	smp_store_release(&t->task, NULL);
}

/*
 * nc_task_settle - charge the interrupt time this CPU spent since the
 * task last resumed to the task's open frames: a system call excludes
 * hardirq and softirq time, an IRQ thread run only hardirq time (its
 * softirq work, at local_bh_enable(), is part of the run).
 */
void nc_task_settle(struct nc_task *t, struct nc_cpu *c)
{
	u64 dh = c->hard_total - t->hard_snap;
	u64 ds = c->soft_total - t->soft_snap;

	if (t->frames & NC_FRAME_SYSCALL)
		t->sys_excl += dh + ds;
	if (t->frames & NC_FRAME_IRQ_THREAD)
		t->thr_excl += dh;
	t->hard_snap = c->hard_total;
	t->soft_snap = c->soft_total;
}

/*
 * nc_task_switch - stop the clock of @prev's frames and restart @next's,
 * so that time off CPU is never charged to a frame.  Also measures the
 * wake-up latency of IRQ threads and ksoftirqd.
 */
void nc_task_switch(struct nc_cpu *c, struct task_struct *prev,
		    struct task_struct *next, u64 now)
{
	struct nc_task *t;

	t = nc_task_find(prev);
	if (t && t->frames) {
		nc_task_settle(t, c);
		t->out_at = now;
	}

	t = nc_task_find(next);
	if (!t)
		return;
	if (t->frames && t->out_at) {
		u64 out = now - t->out_at;

		if (t->frames & NC_FRAME_SYSCALL)
			t->sys_excl += out;
		if (t->frames & NC_FRAME_IRQ_THREAD)
			t->thr_excl += out;
		t->out_at = 0;
	}
	t->hard_snap = c->hard_total;
	t->soft_snap = c->soft_total;

	if (READ_ONCE(t->waking)) {
		u64 waking = xchg(&t->waking, 0);

		if (waking && (s64)(now - waking) >= 0)
			nc_record(NETCOST_STAGE_WAKEUP_LATENCY, now - waking);
	}
}

/* nc_frame_begin - open per-CPU frame @f in the current task */
void nc_frame_begin(struct nc_frame *f, struct nc_cpu *c, u64 now)
{
	f->owner = current;
	f->start = now;
	f->excl = 0;
	f->hard_snap = c->hard_total;
	f->out_at = 0;
	f->depth = 1;
}

/*
 * nc_frame_end - close per-CPU frame @f and return its net cycles: wall
 * time minus nested hardirqs minus time its owner spent switched out.
 */
u64 nc_frame_end(struct nc_frame *f, struct nc_cpu *c, u64 now)
{
	u64 gross = now - f->start;
	u64 excl = f->excl + (c->hard_total - f->hard_snap);

	f->depth = 0;
	return gross > excl ? gross - excl : 0;
}

static void nc_frame_switch(struct nc_frame *f, struct nc_cpu *c,
			    struct task_struct *prev, struct task_struct *next,
			    u64 now)
{
	if (!f->depth)
		return;
	if (f->owner == prev) {
		f->excl += c->hard_total - f->hard_snap;
		f->out_at = now;
	} else if (f->owner == next && f->out_at) {
		f->excl += now - f->out_at;
		f->out_at = 0;
		f->hard_snap = c->hard_total;
	}
}

/*
 * nc_frames_switch - the per-CPU frames' half of a context switch.  On
 * PREEMPT_RT a softirq (and the packet it is processing) runs in a
 * preemptible thread; it cannot migrate (BH sections disable migration),
 * so a per-CPU frame only needs to pause while its owner is off CPU.
 */
void nc_frames_switch(struct nc_cpu *c, struct task_struct *prev,
		      struct task_struct *next, u64 now)
{
	nc_frame_switch(&c->softirq, c, prev, next, now);
	nc_frame_switch(&c->napi, c, prev, next, now);
	nc_frame_switch(&c->rx, c, prev, next, now);
	nc_frame_switch(&c->tx, c, prev, next, now);
}

/* nc_tasks_init - allocate the task table */
int nc_tasks_init(void)
{
	nc_tasks = kvcalloc(NC_TASK_SLOTS, sizeof(*nc_tasks), GFP_KERNEL);
	return nc_tasks ? 0 : -ENOMEM;
}

/* nc_tasks_exit - free it; every probe is gone by now */
void nc_tasks_exit(void)
{
	kvfree(nc_tasks);
	nc_tasks = NULL;
}
