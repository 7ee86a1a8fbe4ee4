/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tasks.h - the task table (tasks.c): the frames that live in a task
 * (system calls, IRQ and NAPI thread runs), a task's waiting state
 * (wait.c), and whose softirq frames a task uses (nc_bh_find()).
 */
#ifndef _NETCOST_TASKS_H
#define _NETCOST_TASKS_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>

#include "netcost.h"
#include "clock.h"

/* the uapi's kinds, which TASKS sends as they lie */
enum nc_task_kind {
	NC_TASK_OTHER		= NETCOST_TASK_KIND_OTHER,
	NC_TASK_IRQ_THREAD	= NETCOST_TASK_KIND_IRQ_THREAD,
	NC_TASK_KSOFTIRQD	= NETCOST_TASK_KIND_KSOFTIRQD,
	/* runs napi_threaded_poll() (threaded NAPI) */
	NC_TASK_NAPI_THREAD	= NETCOST_TASK_KIND_NAPI_THREAD,
};

#define NC_FRAME_SYSCALL	BIT(0)
#define NC_FRAME_IRQ_THREAD	BIT(1)
#define NC_FRAME_NAPI_THREAD	BIT(2)	/* thr_start/thr_excl: a NAPI thread's run */
#define NC_FRAME_BUSY_POLL	BIT(3)	/* bp_*: a busy-poll loop, inside NC_FRAME_SYSCALL */
#define NC_FRAME_BH		BIT(16)	/* nc_task.bh in use (NC_BH_PER_TASK) */

/* wait.c: a task's waiting state (nc_task.wstate) */
enum nc_wait_state {
	NC_WAIT_NONE,			/* on CPU, or not known */
	NC_WAIT_RUNQ,			/* queued since wait_start */
	NC_WAIT_BLOCKED,		/* asleep since wait_start */
};

/* wait.c: who runs on a CPU meanwhile (runq_wait_behind_*, in order) */
enum nc_wait_class {
	NC_CLS_IRQ_THREAD,
	NC_CLS_KSOFTIRQD,
	NC_CLS_SOAK,			/* SCHED_IDLE */
	NC_CLS_LOAD,
	NC_CLS_IDLE,			/* the idle task */
	NC_CLS_OTHER,
	NC_CLS_NR
};

/* wait.c: who woke a task (blocked_load_woken_by_*, in order) */
enum nc_waker {
	NC_WAKER_NONE,			/* no sched_waking seen */
	NC_WAKER_HARDIRQ,
	NC_WAKER_SOFTIRQ,
	NC_WAKER_IRQ_THREAD,
	NC_WAKER_KSOFTIRQD,
	NC_WAKER_LOAD,
	NC_WAKER_OTHER,
};

struct nc_task {
	struct task_struct *task;	/* key; NULL = free slot */
	pid_t pid;
	u8 kind;			/* enum nc_task_kind of the task, at its claim */
	struct_group(state,
#if NC_BH_PER_TASK
		struct nc_bh bh;	/* softirq frames, NC_FRAME_BH */
#endif
		u32 frames;		/* NC_FRAME_* open */
		u64 waking;		/* cycles at sched_waking, or 0 */
		u64 out_at;		/* cycles: switched out, or 0 */
		u64 hard_snap;		/* CPU totals when last resumed */
		u64 soft_snap;
		union {
			struct {	/* a task in a system call */
				u64 sys_start;	/* cycles */
				u64 sys_excl;	/* cycles: nested irq, softirq, off-CPU */
				int sys_dir;	/* stage of the open syscall */
				/*
				 * a busy-poll loop, nested in the call: its
				 * exclusions are the call's since its start
				 */
				u8 bp_polled;	/* the busy-poll loop has polled */
				u64 bp_start;	/* cycles: the busy-poll loop's entry */
				u64 bp_start_excl; /* sys_excl at bp_start */
				u64 bp_mark;	/* cycles: its last poll (or entry) */
				u64 bp_mark_excl; /* sys_excl at bp_mark */
			};
			struct {	/* an IRQ or NAPI thread (a kthread: no system call) */
				u64 poll_start;	/* cycles: the NAPI run's wake or last poll */
				u64 poll_excl;	/* thr_excl at poll_start */
				u64 thr_irq;	/* cycles: interrupts, softirqs in the run */
			};
		};
		u64 thr_start;		/* cycles: the IRQ/NAPI thread run's start */
		u64 thr_excl;		/* cycles: nested hardirq and softirq, off-CPU */
		bool load;		/* entered a watched rx/tx system call */
		u8 wstate;		/* enum nc_wait_state */
		u8 waker;		/* enum nc_waker */
		u8 thr_worked;		/* the IRQ/NAPI thread's run called its handler or polled */
		int wait_cpu;		/* CPU whose runqueue it joined */
		u64 wait_start;		/* cycles: queued, or went to sleep */
		u64 wait_snap[NC_CLS_NR]; /* that CPU's nc_wait_cpu.acc */
	);
};

extern unsigned int nc_task_slots;

/*
 * what tells a NAPI thread, and RT's backlog threads, from other kthreads
 * of their name (nc_task_kind()): their thread function, which the hook
 * table resolves at load and hands over (nc_tasks_set_thread_fns())
 */
void nc_tasks_set_thread_fns(unsigned long napi_fn, unsigned long smpboot_fn);
bool nc_napi_thread_fn(const struct task_struct *p);
bool nc_backlog_thread_fn(const struct task_struct *p);

/*
 * nc_task_kind - IRQ threads and ksoftirqd are told apart by their name:
 * "irq/..." and "ksoftirqd/...", compared as whole words (it runs twice
 * in every context switch: inline).  A NAPI thread is a kthread named
 * "napi/..." whose thread function is napi_threaded_poll()
 * (nc_napi_thread_fn(), out of line: only those names pay for it); RT's
 * backlog threads (6.10+) are NAPI threads too: kthreads named
 * "backlog_napi/..." that run smpboot_thread_fn() (nc_backlog_thread_fn()).
 */
static __always_inline enum nc_task_kind nc_task_kind(const struct task_struct *p)
{
	u64 w8;
	u32 w4;

	if (!(READ_ONCE(p->flags) & PF_KTHREAD))
		return NC_TASK_OTHER;
	memcpy(&w4, p->comm, sizeof(w4));
	if (w4 == *(const u32 *)"irq/")
		return NC_TASK_IRQ_THREAD;
	if (w4 == *(const u32 *)"napi" && p->comm[4] == '/' && nc_napi_thread_fn(p))
		return NC_TASK_NAPI_THREAD;
	memcpy(&w8, p->comm, sizeof(w8));
	if (w8 == *(const u64 *)"ksoftirq" && p->comm[8] == 'd' && p->comm[9] == '/')
		return NC_TASK_KSOFTIRQD;
	if (w8 == *(const u64 *)"backlog_" && !memcmp(p->comm + 8, "napi/", 5) &&
	    nc_backlog_thread_fn(p))
		return NC_TASK_NAPI_THREAD;
	return NC_TASK_OTHER;
}

int nc_tasks_init(void);
void nc_tasks_exit(void);
/*
 * The task table (tasks.c): look-ups and the frame clock of task slots
 * are inline, since every context switch runs them for two tasks.
 */
extern unsigned int nc_task_bits;
extern struct nc_task *nc_tasks;
extern atomic_t *nc_task_hop;

static inline unsigned int nc_home(const struct task_struct *p)
{
	return hash_ptr(p, nc_task_bits);
}

static inline struct nc_task *nc_slot(unsigned int home, int i)
{
	return &nc_tasks[(home + i) & (nc_task_slots - 1)];
}

/*
 * nc_hop - the hop word of @home: bit i = slot home+i holds a task homed
 * there.  Read as u32: bit 31 must not sign-extend into bits that are no slot.
 */
static inline unsigned long nc_hop(unsigned int home)
{
	return (u32)atomic_read(&nc_task_hop[home]);
}

/* nc_task_find - @p's slot, or NULL */
static __always_inline struct nc_task *nc_task_find(struct task_struct *p)
{
	unsigned int home = nc_home(p);
	unsigned long hop = nc_hop(home);

	while (hop) {
		struct nc_task *t = nc_slot(home, __ffs(hop));

		if (READ_ONCE(t->task) == p)
			return READ_ONCE(t->pid) == p->pid ? t : NULL;
		hop &= hop - 1;
	}
	return NULL;
}

struct nc_task *__nc_task_get(struct task_struct *p);

/*
 * nc_task_cur - the running task's slot, or NULL.  Most look-ups are of
 * the running task, and most come in runs of the same task (the packet
 * path's probes ask about five times a packet), so each CPU keeps the
 * slot it last found for a running task (nc_cpu.cur_slot) and checks it
 * first, as nc_task_find() checks a slot: the task, then its pid.  A slot
 * freed or taken by another task since fails the check; the table moves
 * no task, so a slot that passes is the task's.  Preemption off.
 */
static __always_inline struct nc_task *nc_task_cur(void)
{
	struct task_struct *p = current;
	struct nc_task *t = this_cpu_read(nc_cpu.cur_slot);

	if (likely(t && READ_ONCE(t->task) == p && READ_ONCE(t->pid) == p->pid))
		return t;
	t = nc_task_find(p);
	if (t)
		this_cpu_write(nc_cpu.cur_slot, t);
	return t;
}

/* nc_task_cur_get - the running task's slot, claimed if it has none */
static __always_inline struct nc_task *nc_task_cur_get(void)
{
	struct nc_task *t = nc_task_cur();

	if (t)
		return t;
	t = __nc_task_get(current);
	if (t)
		this_cpu_write(nc_cpu.cur_slot, t);
	return t;
}

/*
 * nc_task_get - @p's slot, claimed if @p has none (NULL: the table is
 * full).  Most calls find one (IRQ threads and ksoftirqd keep theirs):
 * the look-up is inline, the claim is not.
 */
static __always_inline struct nc_task *nc_task_get(struct task_struct *p)
{
	struct nc_task *t = nc_task_find(p);

	return t ? t : __nc_task_get(p);
}

void nc_task_put(struct nc_task *t);
void nc_task_release(struct task_struct *p);
void nc_tasks_flush(void);
unsigned int nc_tasks_used(unsigned int *kthreads);

/* what TASKS reports of a held slot (nc_task_peek()) */
struct nc_task_view {
	pid_t pid;
	u8 kind;			/* enum netcost_task_kind */
	u32 frames;			/* NETCOST_TASK_FRAME_* */
	bool load;
	bool waking;
};

bool nc_task_peek(unsigned int i, struct nc_task_view *v);
void nc_task_switched_in(struct nc_task *t, u64 now);

/*
 * nc_task_settle - charge the interrupt time this CPU spent since the
 * task last resumed to the task's open frames: each excludes hardirq and
 * softirq time (the softirqs' own stages hold it); an IRQ or NAPI thread
 * run keeps their sum apart too (irq_thread_excl_cycles,
 * napi_thread_excl_cycles: the thread's own runtime holds them).
 */
static __always_inline void nc_task_settle(struct nc_task *t, const struct nc_stamp *st)
{
	u64 dh = st->hard - t->hard_snap;
	u64 ds = st->soft - t->soft_snap;

	if (t->frames & NC_FRAME_SYSCALL)
		t->sys_excl += dh + ds;
	if (t->frames & (NC_FRAME_IRQ_THREAD | NC_FRAME_NAPI_THREAD)) {
		t->thr_excl += dh + ds;
		t->thr_irq += dh + ds;
	}
	t->hard_snap = st->hard;
	t->soft_snap = st->soft;
}

/* nc_task_pause - the task of slot @t leaves the CPU: stop its frames' clock */
static __always_inline void nc_task_pause(struct nc_task *t, const struct nc_stamp *st)
{
	if (!t || !t->frames || t->out_at)
		return;
	nc_task_settle(t, st);
	t->out_at = st->now;
}

/*
 * nc_task_resume - the task of slot @t runs again: the time it was off
 * CPU, context switch included, is no part of its frames.  Interrupt
 * totals are snapshot afresh on this CPU, which may not be the one it
 * left.
 */
static __always_inline void nc_task_resume(struct nc_task *t, const struct nc_stamp *st)
{
	if (!t)
		return;
	if (t->frames && t->out_at) {
		u64 out = st->now - t->out_at;

		if (t->frames & NC_FRAME_SYSCALL)
			t->sys_excl += out;
		if (t->frames & (NC_FRAME_IRQ_THREAD | NC_FRAME_NAPI_THREAD))
			t->thr_excl += out;
	}
	t->out_at = 0;
	t->hard_snap = st->hard;
	t->soft_snap = st->soft;
}

/*
 * nc_bh_of - the softirq frames task slot @t (of a task on this CPU, or
 * NULL) may own: this CPU's, or with NC_BH_PER_TASK the task's own, if
 * it has any open
 */
static inline struct nc_bh *nc_bh_of(struct nc_cpu *c, struct nc_task *t)
{
#if NC_BH_PER_TASK
	return t && (t->frames & NC_FRAME_BH) ? &t->bh : NULL;
#else
	return &c->bh;
#endif
}

/*
 * nc_bh_find - the running task's softirq frames, or NULL if it has none
 * open; nc_bh_get - the same, claimed (NULL: the task table is full);
 * nc_bh_put - after a frame closed: give them back once none is open.
 * Without NC_BH_PER_TASK: this CPU's, always; with it, the task slot's
 * (inline, below).
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

#if NC_BH_PER_TASK
/*
 * The running task's softirq frames (see nc_bh_find() above), inline:
 * every probe on the softirq side looks them up.
 */
static __always_inline struct nc_bh *nc_bh_find(struct nc_cpu *c)
{
	struct nc_task *t = nc_task_cur();

	return t && (t->frames & NC_FRAME_BH) ? &t->bh : NULL;
}

static __always_inline struct nc_bh *nc_bh_get(struct nc_cpu *c)
{
	struct nc_task *t = nc_task_cur_get();

	if (!t)
		return NULL;
	t->frames |= NC_FRAME_BH;
	return &t->bh;
}

/*
 * nc_bh_put - once none of the task's softirq frames is open (and no
 * loopback entry is being skipped), the slot may go back to the table
 */
static __always_inline void nc_bh_put(struct nc_bh *b)
{
	struct nc_task *t = container_of(b, struct nc_task, bh);

	if (b->softirq.depth || b->napi.depth || b->rx.depth || b->tx.depth ||
	    b->rx_skip)
		return;
	t->frames &= ~NC_FRAME_BH;
	/* a run still open in it (an IRQ or NAPI thread's) keeps it: no call */
	if (!t->frames)
		nc_task_put(t);
}
#endif

#endif /* _NETCOST_TASKS_H */
