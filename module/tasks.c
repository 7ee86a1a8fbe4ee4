// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - per-task state for frames that live in a task.
 *
 * A system call or an IRQ thread run can be preempted and migrated, so
 * its frame cannot live in per-CPU data.  The kernel has no spare field in
 * task_struct for us, so netcost keeps a fixed open-addressing table keyed
 * by task pointer, sized at load (module parameter task_slots; default
 * 64 per possible CPU, at least 16,384).  Slots are claimed with cmpxchg
 * from any context and never allocated: a full table is counted
 * (task_table_full) and the event is not measured.  In the table are
 * tasks inside a watched system call, and IRQ threads, ksoftirqd and load
 * tasks (wait.c), which keep their slot until they exit
 * (sched_process_exit releases it).
 *
 * A slot's key is only compared, never dereferenced; a new task at a dead
 * one's address is told apart by its pid.
 *
 * Most look-ups miss (every context switch looks up both tasks, and most
 * tasks have no slot), so each home position keeps a bitmap of the
 * window positions that hold a task homed there (hopscotch hashing): a
 * miss is one load of that word, a hit goes straight to its slot.  A bit
 * is set after its slot is claimed and cleared before the slot is freed;
 * a look-up racing with a claim misses that one task, as it would
 * without the bitmap.
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "netcost.h"
#include "clock.h"
#include "hist.h"
#include "tasks.h"

/*
 * A task's window: the NC_TASK_PROBES slots from its home, one bit each in
 * the home's 32-bit hop word.  Nothing is displaced, so a claim fails
 * when its whole window is held.  At 8 slots a 1,024-slot table failed
 * claims from about 430 tasks (42%); at 32, a simulation of random homes
 * fails 0.02% of 10,000 tasks in the default 16,384 slots (61% full),
 * 1.4% of 14,000 (85%).  Beyond that, the tasks whose window is full
 * are not measured, and each of their events counts in task_table_full.
 */
#define NC_TASK_PROBES	32

unsigned int nc_task_slots;
module_param_named(task_slots, nc_task_slots, uint, 0444);
MODULE_PARM_DESC(task_slots, "task table slots (0: 64 per possible CPU, at least 16384)");

unsigned int nc_task_bits;
struct nc_task *nc_tasks;
atomic_t *nc_task_hop;			/* per home: BIT(i) = slot home+i is its */

DEFINE_PER_CPU(struct nc_cpu, nc_cpu);

/*
 * napi_threaded_poll(), the thread function of every NAPI thread (threaded
 * NAPI), as the hook table resolves it at load (nc_tasks_set_thread_fns()):
 * its entry, or past its IBT endbr (4 bytes).  0: not found, no task is a
 * NAPI thread.
 */
static unsigned long nc_napi_fn;
/*
 * RT's backlog threads (6.10+): smpboot threads "backlog_napi/N", whose
 * loop is smpboot_thread_fn().  0: not found.
 */
static unsigned long nc_smpboot_fn;

#define NC_ENDBR_SIZE	4

/*
 * nc_tasks_set_thread_fns - the addresses of napi_threaded_poll() and
 * smpboot_thread_fn() (0: not found), which hooks.c resolves at load
 * (nc_hooks_init()), before any hook is attached
 */
void nc_tasks_set_thread_fns(unsigned long napi_fn, unsigned long smpboot_fn)
{
	WRITE_ONCE(nc_napi_fn, napi_fn);
	WRITE_ONCE(nc_smpboot_fn, smpboot_fn);
}

/* nc_fn_is - function pointer @fn is the function resolved at @at */
static bool nc_fn_is(unsigned long fn, unsigned long at)
{
	return at && fn && at - fn <= NC_ENDBR_SIZE;
}

/*
 * nc_napi_thread_fn - whether kthread @p runs napi_threaded_poll(): what
 * tells a NAPI thread, its "napi/" name only filters (nc_task_kind()).
 * kthread_func() reads the kthread's own struct, which lives as long as
 * the task; any context.
 */
bool nc_napi_thread_fn(const struct task_struct *p)
{
	return nc_fn_is((unsigned long)kthread_func((struct task_struct *)p),
			READ_ONCE(nc_napi_fn));
}

/*
 * nc_backlog_thread_fn - whether kthread @p runs smpboot_thread_fn(), the
 * loop of RT's backlog threads, whose "backlog_napi/" name tells them
 * from the other smpboot threads (nc_task_kind()).  Their backlog's
 * napi->thread is the thread (backlog_napi_setup()): its polls are
 * matched as a NAPI thread's.
 */
bool nc_backlog_thread_fn(const struct task_struct *p)
{
	return nc_fn_is((unsigned long)kthread_func((struct task_struct *)p),
			READ_ONCE(nc_smpboot_fn));
}

/*
 * test_claim_delay_us and test_claim_recheck (test only): the lab's test
 * of two claims for one task (issue 21, item 2; guest/t-tasks.sh and
 * test_claim_race below) widens the window between a claim and its
 * re-check (a busy wait, at most 2,000 us), and can turn the re-check
 * off, as 0.5.0 claimed, to show that the test finds the second slot.
 */
#ifdef NC_TEST_BUILD
static unsigned int nc_claim_delay_us;
module_param_named(test_claim_delay_us, nc_claim_delay_us, uint, 0600);
MODULE_PARM_DESC(test_claim_delay_us, "test only: busy-wait N us (at most 2000) between a task slot's claim and its re-check (0: off)");
static bool nc_claim_recheck = true;
module_param_named(test_claim_recheck, nc_claim_recheck, bool, 0600);
MODULE_PARM_DESC(test_claim_recheck, "test only: N skips the re-check for another claim of the same task (0.5.0's claim)");

static void nc_claim_test_delay(void)
{
	unsigned int us = min(READ_ONCE(nc_claim_delay_us), 2000U);

	if (us)
		udelay(us);
}

#define nc_claim_recheck_on() READ_ONCE(nc_claim_recheck)
#else
static inline void nc_claim_test_delay(void) { }
#define nc_claim_recheck_on() true
#endif

/* nc_task_claimed_elsewhere - a slot of @p's window but @mine holds @p */
static bool nc_task_claimed_elsewhere(struct task_struct *p, unsigned int home,
				      int mine)
{
	int i;

	for (i = 0; i < NC_TASK_PROBES; i++) {
		if (i != mine && READ_ONCE(nc_slot(home, i)->task) == p)
			return true;
	}
	return false;
}

/*
 * __nc_task_get - nc_task_get()'s slow path, when nc_task_find() missed:
 * the whole probe window is searched for @p before a free slot is
 * claimed, so that a task never holds two.  A slot left by a dead task
 * with the same address is taken over and cleared.
 */
struct nc_task *__nc_task_get(struct task_struct *p)
{
	unsigned int home = nc_home(p);
	unsigned long hop = nc_hop(home);
	int i;

	while (hop) {
		struct nc_task *t = nc_slot(home, __ffs(hop));

		hop &= hop - 1;
		if (READ_ONCE(t->task) != p)
			continue;
		if (READ_ONCE(t->pid) != p->pid) {
			memset(&t->state, 0, sizeof(t->state));
			WRITE_ONCE(t->kind, nc_task_kind(p));
			WRITE_ONCE(t->pid, p->pid);
		}
		return t;
	}
	for (i = 0; i < NC_TASK_PROBES; i++) {
		struct nc_task *t = nc_slot(home, i);

		if (READ_ONCE(t->task) || cmpxchg(&t->task, NULL, p))
			continue;
		/*
		 * Claimed, not yet published (no pid, no hop bit: no look-up
		 * finds it).  Another context may have missed @p too and be
		 * claiming a slot for it (a remote sched_waking and the task's
		 * own sched_switch): whoever sees another claim for @p backs
		 * off.  Each cmpxchg is a full barrier before the other's
		 * re-check, so at least one of two claimers sees the other,
		 * and never do two slots hold @p (both may back off: one
		 * event unmeasured).
		 */
		nc_claim_test_delay();
		if (nc_claim_recheck_on() && nc_task_claimed_elsewhere(p, home, i)) {
			/* nothing was written to it: a plain store frees it */
			WRITE_ONCE(t->task, NULL);
			return nc_task_find(p);
		}
		memset(&t->state, 0, sizeof(t->state));
		WRITE_ONCE(t->kind, nc_task_kind(p));
		WRITE_ONCE(t->pid, p->pid);
		atomic_or(BIT(i), &nc_task_hop[home]);
		return t;
	}
	nc_count(NETCOST_CTR_TASK_TABLE_FULL, 1);
	return NULL;
}

#ifdef NC_TEST_BUILD
/*
 * test_claim_race (test only, write a pid): every online CPU claims a
 * slot for that task at once, from an IPI, each waiting at a barrier
 * for the others first: the claims that a task's own sched_switch and a
 * remote sched_waking make at once after a flush, met every time.  A
 * task then holds at most one slot (netcost tasks lists them), or two
 * with test_claim_recheck=0.
 */
static atomic_t nc_claim_race_in;

static void nc_claim_race_fn(void *p)
{
	atomic_inc(&nc_claim_race_in);
	while (atomic_read(&nc_claim_race_in) < num_online_cpus())
		cpu_relax();
	nc_task_get(p);
}

static int nc_claim_race_set(const char *val, const struct kernel_param *kp)
{
	struct task_struct *p;
	struct pid *pid;
	int nr, ret;

	ret = kstrtoint(val, 0, &nr);
	if (ret)
		return ret;
	pid = find_get_pid(nr);
	p = get_pid_task(pid, PIDTYPE_PID);
	put_pid(pid);
	if (!p)
		return -ESRCH;
	cpus_read_lock();
	atomic_set(&nc_claim_race_in, 0);
	on_each_cpu(nc_claim_race_fn, p, 1);
	cpus_read_unlock();
	put_task_struct(p);
	return 0;
}

static const struct kernel_param_ops nc_claim_race_ops = {
	.set = nc_claim_race_set,
};
module_param_cb(test_claim_race, &nc_claim_race_ops, NULL, 0200);
MODULE_PARM_DESC(test_claim_race, "test only: write a pid: every online CPU claims a task slot for it at once");
#endif

static void nc_slot_free(struct nc_task *t)
{
	struct task_struct *p = READ_ONCE(t->task);
	unsigned int home;

	if (!p)
		return;
	home = nc_home(p);
	atomic_andnot(BIT((t - nc_tasks - home) & (nc_task_slots - 1)),
		      &nc_task_hop[home]);
	WRITE_ONCE(t->pid, 0);
	/* pid cleared before the slot is free: a claimer sets its own after */
	smp_store_release(&t->task, NULL);
}

/*
 * nc_task_put - give the slot back once nothing is open in it.
 * IRQ threads and ksoftirqd keep theirs until they exit: they are woken
 * all the time.
 */
void nc_task_put(struct nc_task *t)
{
	/* a CONFIG flush (nc_tasks_flush()) may have freed the slot meanwhile */
	struct task_struct *p = READ_ONCE(t->task);

	if (p != current || t->frames || READ_ONCE(t->waking) || t->load ||
	    nc_task_kind(p) != NC_TASK_OTHER)
		return;
	nc_slot_free(t);
}

/* nc_task_release - @p exits (sched_process_exit): free its slot */
void nc_task_release(struct task_struct *p)
{
	struct nc_task *t = nc_task_find(p);

	if (t) {
		memset(&t->state, 0, sizeof(t->state));
		nc_slot_free(t);
	}
}

/*
 * nc_tasks_flush - forget every open task frame and wake-up stamp, after
 * hooks came or went (CONFIG): a frame whose end hook was detached would
 * otherwise stay open.  Process context; a probe that races with it
 * measures at most one event wrong, and that one is clamped and counted.
 */
void nc_tasks_flush(void)
{
	unsigned int i;

	for (i = 0; i < nc_task_slots; i++) {
		struct nc_task *t = &nc_tasks[i];

		if (!READ_ONCE(t->task))
			continue;
		memset(&t->state, 0, sizeof(t->state));
		nc_slot_free(t);
	}
}

/*
 * nc_tasks_used - slots held now, for INFO; *@kthreads: of them, those of
 * the packet path's kernel threads (IRQ and NAPI threads, ksoftirqd), which
 * keep theirs until they exit
 */
unsigned int nc_tasks_used(unsigned int *kthreads)
{
	unsigned int i, n = 0, k = 0;

	for (i = 0; i < nc_task_slots; i++) {
		const struct nc_task *t = &nc_tasks[i];

		if (!READ_ONCE(t->task))
			continue;
		n++;
		k += READ_ONCE(t->kind) != NC_TASK_OTHER;
	}
	*kthreads = k;
	return n;
}

/*
 * nc_task_peek - slot @i for TASKS, if it is held: read as it lies, the
 * probes running on (a slot freed or claimed meanwhile reads either way;
 * one claimed but not yet published has no pid and is skipped).  Only
 * the slot's own fields are read, never its task_struct.
 */
bool nc_task_peek(unsigned int i, struct nc_task_view *v)
{
	const struct nc_task *t = &nc_tasks[i];
	u32 frames;

	if (!READ_ONCE(t->task))
		return false;
	v->pid = READ_ONCE(t->pid);
	if (!v->pid)
		return false;
	v->kind = READ_ONCE(t->kind);
	frames = READ_ONCE(t->frames);
	v->frames = (frames & NC_FRAME_SYSCALL ? NETCOST_TASK_FRAME_SYSCALL : 0) |
		    (frames & NC_FRAME_IRQ_THREAD ? NETCOST_TASK_FRAME_IRQ_THREAD : 0) |
		    (frames & NC_FRAME_NAPI_THREAD ? NETCOST_TASK_FRAME_NAPI_THREAD : 0) |
		    (frames & NC_FRAME_BUSY_POLL ? NETCOST_TASK_FRAME_BUSY_POLL : 0) |
		    (frames & NC_FRAME_BH ? NETCOST_TASK_FRAME_SOFTIRQ : 0);
	v->load = READ_ONCE(t->load);
	v->waking = READ_ONCE(t->waking) != 0;
	return true;
}

/*
 * nc_task_switched_in - the task of slot @t is put on a CPU
 * (sched_switch): the end of an IRQ thread's or ksoftirqd's wake-up
 * latency.  The stamp was taken on the waker's CPU; the TSC is shared,
 * and the delta is computed signed.
 */
void nc_task_switched_in(struct nc_task *t, u64 now)
{
	u64 waking;

	if (!t || !READ_ONCE(t->waking))
		return;
	waking = xchg(&t->waking, 0);
	if (waking)
		nc_record(NETCOST_STAGE_WAKEUP_LATENCY, nc_net(now, waking, 0));
}

/* nc_tasks_init - size and allocate the task table */
int nc_tasks_init(void)
{
	if (!nc_task_slots)
		nc_task_slots = max(16384U, 64U * nr_cpu_ids);
	BUILD_BUG_ON(NC_TASK_PROBES > 32);	/* a window is one hop word */
	nc_task_slots = clamp(nc_task_slots, 64U, 1U << 20);
	nc_task_slots = roundup_pow_of_two(nc_task_slots);
	nc_task_bits = ilog2(nc_task_slots);
	nc_tasks = kvcalloc(nc_task_slots, sizeof(*nc_tasks), GFP_KERNEL);
	nc_task_hop = kvcalloc(nc_task_slots, sizeof(*nc_task_hop), GFP_KERNEL);
	if (!nc_tasks || !nc_task_hop) {
		nc_tasks_exit();
		return -ENOMEM;
	}
	return 0;
}

/* nc_tasks_exit - free it; every probe is gone by now */
void nc_tasks_exit(void)
{
	kvfree(nc_task_hop);
	nc_task_hop = NULL;
	kvfree(nc_tasks);
	nc_tasks = NULL;
}
