/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netcost.h - what the parts of the module share.
 *
 * The data path: probes (probes_*.c) time each stage with get_cycles(),
 * net of nested work, and record it with nc_record() into per-CPU
 * histograms (hist.c); netlink.c copies them out for the tool.
 *
 * Nesting: every CPU keeps two monotonic totals, the cycles spent in
 * hardirq handlers (hard_total) and the net cycles spent in softirqs
 * (soft_total).  A frame - one open stage run - snapshots the totals it
 * must exclude when it starts and subtracts their growth when it ends, so
 * that time in a nested interrupt is charged once, to the interrupt.  A
 * frame whose owner task is switched out (PREEMPT_RT runs softirqs and
 * IRQ handlers in preemptible threads) stops the clock until it runs
 * again.  Frames that live in a task (system calls, IRQ thread runs)
 * are kept in the task table (tasks.c) because the task can migrate.
 */
#ifndef _NETCOST_H
#define _NETCOST_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/timex.h>

#include "uapi/netcost.h"
#include "netcost_hist.h"

/* ---- configuration (netlink.c owns it, probes read it) ---- */

struct nc_config {
	u32 groups;			/* NETCOST_GROUP_* attached */
	bool recording;
	bool nic_irqs_auto;
	unsigned long *nic_irqs;	/* bitmap, nr_irqs bits: explicit list */
	cpumask_var_t cpus;		/* CPUs recorded */
};

extern struct nc_config nc_cfg;
extern bool nc_threadirqs;
extern bool nc_open_read;
/* a STATS dump sends each CPU this many times (dump_repeat: test builds) */
#ifdef NC_TEST_BUILD
extern unsigned int nc_dump_repeat;
#define nc_dump_repeat_get() clamp(READ_ONCE(nc_dump_repeat), 1U, 256U)
#else
#define nc_dump_repeat_get() 1U
#endif

/* ---- per-CPU statistics (hist.c) ---- */

/*
 * Writers of one CPU nest (a hardirq probe interrupts a softirq probe),
 * so one sequence count would turn even in the middle of the outer
 * update.  Each context level (task, softirq, hardirq, NMI) has its own:
 * a level cannot nest in itself, and a reader's copy is consistent when
 * all four were even and unchanged across it.
 */
#define NC_LEVELS	4

/*
 * A bucket is a u32 and a u8 of the times it wrapped: 2^40 events between
 * two resets (18 minutes of 1 G events a second, all in one bucket of one
 * CPU), at 5 bytes where a u64 took 8, so that a CPU's histograms stay
 * within 40 KiB and the counts lie in half the cache lines.
 */
struct nc_hist {
	u32 seq[NC_LEVELS];		/* odd while an update of that level runs */
	u32 gen;			/* bumped by every reset of this CPU */
	u32 base;			/* what a bucket starts at (test_bucket_bias) */
	u64 sum;			/* in the stage's unit */
	u64 min_inv;			/* ~min: zeroed memory = no event yet */
	u64 max;
	u32 buckets[NETCOST_HIST_BUCKETS];
	u8 wraps[NETCOST_HIST_BUCKETS];	/* times buckets[i] went round */
};

/*
 * One histogram as the netlink reader sends it: whole u64 counts, of the
 * buckets first..last only (the non-empty range; first > last: none).
 */
struct nc_hist_snap {
	u64 sum;
	u64 min_inv;
	u64 max;
	u64 count;			/* events: the sum of the buckets */
	u32 first, last;
	u64 buckets[NETCOST_HIST_BUCKETS];
};

struct nc_counters {
	/* probe_hits is not kept here but taken from the hooks' (below) */
	u64 counters[__NETCOST_CTR_MAX];
	u64 hits_base;			/* this CPU's hook hits at the last reset */
	u64 self_cycles;		/* cycles: sampled probe bodies, since load */
	u64 self_samples;
	/* the sampled bodies by netcost_hist_index() of their cycles, since load */
	u32 self_hist[NETCOST_HIST_BUCKETS];
};

/*
 * One percpu allocation per stage: a single one for all stages would
 * pass the percpu allocator's 32 KiB limit (PCPU_MIN_UNIT_SIZE).
 */
extern struct nc_hist __percpu *nc_hists[__NETCOST_STAGE_MAX];
extern struct nc_counters __percpu *nc_ctrs;

/* ---- per NAPI instance, per CPU (napi.c) ---- */

#define NC_NAPI_SLOTS_BITS	4
#define NC_NAPI_SLOTS		BIT(NC_NAPI_SLOTS_BITS)

struct nc_napi_slot {
	const void *key;		/* the napi_struct; NULL: free */
	u32 id;				/* napi_id */
	u32 ifindex;
	s32 irq;			/* napi->irq at the last poll; < 0: none */
	u32 pid;			/* its NAPI thread at the last poll; 0: none */
	u64 polls, packets, timed, cycles;
	char ifname[16];		/* IFNAMSIZ */
};

struct nc_napi_table {
	u32 seq;			/* odd while a write or a clear runs */
	struct nc_napi_slot s[NC_NAPI_SLOTS];
};

extern struct nc_napi_table __percpu *nc_napis;

struct napi_struct;
void nc_napi_account(const struct napi_struct *napi, int work, bool timed,
		     u64 cycles);
bool nc_napi_copy(int cpu, struct nc_napi_table *dst);
void nc_napi_clear(int cpu);
int nc_napi_init(void);
void nc_napi_exit(void);

/* A copy of one CPU's statistics, for the netlink reader. */
struct nc_cpu_stats {
	struct nc_hist_snap hist[__NETCOST_STAGE_MAX];
	struct nc_counters c;
	struct nc_napi_table napi;	/* packed: napi.seq slots in use */
	struct nc_hist raw;		/* scratch: one histogram as it lies */
};

/* bytes of statistics per CPU: the histograms and counters (INFO) */
#define NC_STATS_PER_CPU \
	(__NETCOST_STAGE_MAX * sizeof(struct nc_hist) + sizeof(struct nc_counters) + \
	 sizeof(struct nc_napi_table))

extern atomic_t nc_generation;
extern u64 nc_reset_ns;
extern u64 nc_reset_cycles;

extern const u8 nc_stage_role[__NETCOST_STAGE_MAX];

int nc_stats_init(void);
void nc_stats_exit(void);
void nc_stats_reset(void);
void nc_rec_update(void);
void nc_hist_clear(struct nc_hist *h);
bool nc_stats_copy(int cpu, struct nc_cpu_stats *dst);
u32 nc_probe_cost(void);
u32 nc_probe_cost_pct(unsigned int pct);
u64 nc_probe_cost_samples(void);

/* ---- per-CPU probe state (probes_*.c) ---- */

struct nc_frame {
	struct task_struct *owner;	/* task the frame runs in */
	u64 start;			/* cycles */
	u64 excl;			/* cycles to subtract */
	u64 hard_snap;			/* hard_total when last resumed */
	u64 out_at;			/* cycles: owner switched out, or 0 */
	int depth;			/* 0 = no frame open */
	bool list;			/* rx: opened by a list entry */
	bool backlog;			/* rx: a packet of a backlog poll */
	bool flush;			/* rx: a list GRO delivered (gro_normal_list()) */
};

/*
 * A timestamp and the interrupt totals it is compared with, read as one
 * unit (nc_stamp()): time in an interrupt that lands between the reads
 * would otherwise be subtracted without being inside the interval.
 */
struct nc_stamp {
	u64 now;			/* cycles */
	u64 hard;			/* hard_total at @now */
	u64 soft;			/* soft_total at @now */
};

enum nc_softirq_ctx {
	NC_IN_IRQ_EXIT,
	NC_IN_KSOFTIRQD,
	NC_IN_IRQ_THREAD,
	NC_IN_OTHER_IRQ_THREAD,
	NC_IN_TASK_BH_ENABLE,
};

/*
 * The frames of softirq processing: a softirq run and the NAPI poll, rx
 * and tx frames that nest in it (or run with BHs disabled in a task).
 * Where softirqs are serialised per CPU, one set per CPU (nc_cpu.bh);
 * where they are not (compat.h: NC_BH_PER_TASK), runs of two tasks
 * interleave on one CPU and each task keeps its own set in its task slot
 * (nc_task.bh), marked in nc_task.frames by NC_FRAME_BH while any is open.
 */
struct nc_bh {
	struct nc_frame softirq;
	unsigned int softirq_vec;
	enum nc_softirq_ctx softirq_ctx;
	struct nc_frame napi;		/* from NET_RX start or the last poll */
	struct nc_frame rx;
	struct nc_frame tx;
	struct task_struct *rx_skip_owner; /* loopback rx entries being skipped */
	int rx_skip;
};

#define NC_FRAME_BH	BIT(16)		/* nc_task.frames: nc_task.bh in use */

/* nc_cpu.rec: this CPU records (with the NETCOST_GROUP_* bits below) */
#define NC_REC_ON	BIT(31)

struct nc_cpu {
	u32 rec;			/* NC_REC_ON | groups, or 0 (nc_rec_update) */
	u32 rec_depth;			/* histogram updates running (nested) */
	u64 hard_total;			/* cycles in hardirq handlers, vectors, NMIs */
	u64 soft_total;			/* net cycles in softirqs */
	u64 hardirq_start;		/* cycles, 0 = none open */
	int hardirq_irq;
	bool hardirq_nic;
	u64 hardirq_hard;		/* hard_total at hardirq_start (NMIs) */
	u64 vector_start;		/* cycles, 0 = no system vector open */
	u64 vector_hard;		/* hard_total at vector_start (NMIs) */
	struct task_struct *bh_owner;	/* the task inside do_softirq(), or NULL */
	/*
	 * the task in this CPU's backlog poll (process_backlog(): one at a
	 * time, on its own CPU), until the poll's napi_poll event, or NULL
	 */
	struct task_struct *backlog_owner;
	struct nc_bh bh;		/* unused if NC_BH_PER_TASK */
	u64 switch_start;		/* cycles at sched_switch, 0 = none */
	/*
	 * the stage of that switch: NETCOST_STAGE_CTX_SWITCH when it takes a
	 * packet-path task (IRQ or NAPI thread, ksoftirqd, load task) off or
	 * puts one on, else NETCOST_STAGE_CTX_SWITCH_OTHER
	 */
	u8 switch_stage;
	/*
	 * the task the last sched_switch put on this CPU and its task slot
	 * then (or NULL): finish_task_switch() runs in it next, and takes the
	 * slot from here instead of looking it up again
	 */
	struct task_struct *switch_next;
	struct nc_task *switch_slot;
};

DECLARE_PER_CPU(struct nc_cpu, nc_cpu);

static inline struct nc_cpu *this_nc_cpu(void)
{
	return this_cpu_ptr(&nc_cpu);
}

/* Which group a stage belongs to: disabled groups record nothing. */
static const u32 nc_stage_group[__NETCOST_STAGE_MAX] __maybe_unused = {
	[NETCOST_STAGE_HARDIRQ]		= NETCOST_GROUP_IRQ,
	[NETCOST_STAGE_HARDIRQ_OTHER]	= NETCOST_GROUP_IRQ,
	[NETCOST_STAGE_SOFTIRQ_NET_RX]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_STAGE_SOFTIRQ_NET_TX]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_STAGE_SOFTIRQ_OTHER]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_STAGE_IRQ_THREAD]	= NETCOST_GROUP_IRQ,
	[NETCOST_STAGE_NAPI_POLL]	= NETCOST_GROUP_NET,
	[NETCOST_STAGE_NAPI_POLL_WORK]	= NETCOST_GROUP_NET,
	[NETCOST_STAGE_RX_SKB]		= NETCOST_GROUP_NET,
	[NETCOST_STAGE_TX_XMIT]		= NETCOST_GROUP_NET,
	[NETCOST_STAGE_CTX_SWITCH]	= NETCOST_GROUP_SCHED,
	[NETCOST_STAGE_WAKEUP_LATENCY]	= NETCOST_GROUP_SCHED,
	[NETCOST_STAGE_SYSCALL_RX]	= NETCOST_GROUP_SYSCALL,
	[NETCOST_STAGE_SYSCALL_TX]	= NETCOST_GROUP_SYSCALL,
	[NETCOST_STAGE_HARDIRQ_VECTORS]	= NETCOST_GROUP_IRQ,
	[NETCOST_STAGE_RUNQ_WAIT_LOAD]	= NETCOST_GROUP_WAIT,
	[NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD] = NETCOST_GROUP_WAIT,
	[NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD] = NETCOST_GROUP_WAIT,
	[NETCOST_STAGE_BLOCKED_LOAD]	= NETCOST_GROUP_WAIT,
	[NETCOST_STAGE_NAPI_THREAD]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_STAGE_BUSY_POLL]	= NETCOST_GROUP_SYSCALL,
	[NETCOST_STAGE_CTX_SWITCH_OTHER] = NETCOST_GROUP_SCHED,
};

/*
 * Which group a counter belongs to; NC_REC_ON: always counted while
 * recording.  A disabled group counts nothing, as it records nothing.
 */
static const u32 nc_ctr_group[__NETCOST_CTR_MAX] __maybe_unused = {
	[NETCOST_CTR_RX_PACKETS]			= NETCOST_GROUP_NET,
	[NETCOST_CTR_TX_PACKETS]			= NETCOST_GROUP_NET,
	[NETCOST_CTR_NAPI_BUDGET_EXHAUSTED]		= NETCOST_GROUP_NET,
	[NETCOST_CTR_NIC_IRQS]				= NETCOST_GROUP_IRQ,
	[NETCOST_CTR_CTX_SWITCHES]			= NETCOST_GROUP_SCHED,
	[NETCOST_CTR_CTX_SWITCHES_IRQ_THREAD]		= NETCOST_GROUP_SCHED,
	[NETCOST_CTR_CTX_SWITCHES_KSOFTIRQD]		= NETCOST_GROUP_SCHED,
	[NETCOST_CTR_NET_RX_IN_IRQ_EXIT]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_IRQ_EXIT_CYCLES]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_KSOFTIRQD]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_KSOFTIRQD_CYCLES]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_IRQ_THREAD]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_IRQ_THREAD_CYCLES]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD_CYCLES]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE_CYCLES]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_TASK_TABLE_FULL]			= NC_REC_ON,
	[NETCOST_CTR_PROBE_HITS]			= NC_REC_ON,
	[NETCOST_CTR_CLAMPED_NEGATIVE]			= NC_REC_ON,
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES ...
	 NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_OTHER_CYCLES]	= NETCOST_GROUP_WAIT,
	[NETCOST_CTR_NAPI_THREAD_EXCL_CYCLES]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_IRQ_THREAD_EXCL_CYCLES]		= NETCOST_GROUP_IRQ,
	[NETCOST_CTR_BUSY_POLL_PACKETS]			= NETCOST_GROUP_NET,
	[NETCOST_CTR_BUSY_POLL_IDLE_CYCLES]		= NETCOST_GROUP_SYSCALL,
	[NETCOST_CTR_RX_BACKLOG_PACKETS]		= NETCOST_GROUP_NET,
	[NETCOST_CTR_NAPI_TABLE_FULL]			= NETCOST_GROUP_NET,
};

/*
 * __nc_record - add one event of @value to @stage on this CPU, which
 * records it (nc_record() checked).  Called from probes, in any context,
 * with preemption disabled; inline: about 45 instructions, and every
 * interval's end runs one.
 */
static __always_inline void __nc_record(enum netcost_stage stage, u64 value)
{
	struct nc_hist __percpu *h = nc_hists[stage];
	u32 level = this_cpu_inc_return(nc_cpu.rec_depth) - 1;
	u64 old, prev;
	u32 gen, i;

	/* four context levels nest at most: never more, but never past seq[] */
	if (unlikely(level >= NC_LEVELS))
		goto out;
	this_cpu_inc(h->seq[level]);
	smp_wmb();	/* seq odd before the data moves */
	gen = this_cpu_read(h->gen);
	i = netcost_hist_index(value);
	if (unlikely(!this_cpu_inc_return(h->buckets[i])))
		this_cpu_inc(h->wraps[i]);
	this_cpu_add(h->sum, value);

	old = this_cpu_read(h->min_inv);
	while (~value > old) {
		prev = this_cpu_cmpxchg(h->min_inv, old, ~value);
		if (prev == old)
			break;
		old = prev;
	}
	old = this_cpu_read(h->max);
	while (value > old) {
		prev = this_cpu_cmpxchg(h->max, old, value);
		if (prev == old)
			break;
		old = prev;
	}
	/*
	 * A reset (an IPI) that landed in the middle of this update cleared
	 * part of it and left the rest: drop the event, and whatever a nested
	 * writer added since, so that no residue outlives the reset.
	 */
	if (unlikely(this_cpu_read(h->gen) != gen))
		nc_hist_clear(this_cpu_ptr(h));
	smp_wmb();	/* data in place before seq turns even */
	this_cpu_inc(h->seq[level]);
out:
	this_cpu_dec(nc_cpu.rec_depth);
}

/*
 * nc_record - add one event of @value to @stage on this CPU, if this CPU
 * records the stage's group.  The check is inline: a stage's group is
 * known at compile time, and most probe hits that record nothing stop
 * at one per-CPU read.
 */
static __always_inline void nc_record(enum netcost_stage stage, u64 value)
{
	if (this_cpu_read(nc_cpu.rec) & nc_stage_group[stage])
		__nc_record(stage, value);
}

/* nc_count - add @n to counter @ctr on this CPU, if it counts it */
static __always_inline void nc_count(enum netcost_counter ctr, u64 n)
{
	if (this_cpu_read(nc_cpu.rec) & nc_ctr_group[ctr])
		this_cpu_add(nc_ctrs->counters[ctr], n);
}

static inline u64 nc_now(void)
{
	return get_cycles();
}

/*
 * nc_stamp - read the clock and this CPU's interrupt totals as one unit:
 * retry while an interrupt moved a total in between, as osnoise's
 * get_int_safe_duration() does.
 */
static inline void nc_stamp(struct nc_cpu *c, struct nc_stamp *st)
{
	u64 hard, soft;

	do {
		hard = READ_ONCE(c->hard_total);
		soft = READ_ONCE(c->soft_total);
		barrier();
		st->now = nc_now();
		barrier();
	} while (hard != READ_ONCE(c->hard_total) ||
		 soft != READ_ONCE(c->soft_total));
	st->hard = hard;
	st->soft = soft;
}

/*
 * The frame clock (clock.c), inline: every interval's end runs nc_net(),
 * every frame nc_frame_begin() and nc_frame_end().
 *
 * nc_net - @end - @start - @excl, computed signed.  A negative result
 * means the exclusions overlap the interval wrongly; it is recorded as 0
 * and counted in clamped_negative, never hidden.
 */
static __always_inline u64 nc_net(u64 end, u64 start, u64 excl)
{
	s64 net = (s64)(end - start) - (s64)excl;

	if (net < 0) {
		nc_count(NETCOST_CTR_CLAMPED_NEGATIVE, 1);
		return 0;
	}
	return net;
}

/* nc_frame_begin - open per-CPU frame @f in the current task at @st */
static __always_inline void nc_frame_begin(struct nc_frame *f, const struct nc_stamp *st)
{
	f->owner = current;
	f->start = st->now;
	f->excl = 0;
	f->hard_snap = st->hard;
	f->out_at = 0;
	f->list = false;
	f->backlog = false;
	f->flush = false;
	f->depth = 1;
}

/*
 * nc_frame_end - close per-CPU frame @f at @st and return its net cycles:
 * wall time minus nested interrupts minus time its owner was off CPU.
 */
static __always_inline u64 nc_frame_end(struct nc_frame *f, const struct nc_stamp *st)
{
	f->depth = 0;
	return nc_net(st->now, f->start, f->excl + (st->hard - f->hard_snap));
}

/*
 * An rx frame that no exit event closes, opened by a netif_receive_skb
 * event (probes_net.c): a list GRO delivered at a poll's end
 * (nc_frame.flush) or a backlog's packet (nc_frame.backlog).
 * nc_rx_marked - @f is such a frame of the running task, of kind @mark,
 * with nothing nested in it; nc_rx_marked_end - it ends at @st: one
 * rx_skb.  nc_rx_flush_end - the running task's list, if one is open,
 * ends at @st; the caller gives @b back (nc_bh_put()) or reopens its rx
 * frame.
 */
static __always_inline bool nc_rx_marked(const struct nc_frame *f, bool mark)
{
	return mark && f->depth == 1 && f->owner == current;
}

static __always_inline void nc_rx_marked_end(struct nc_frame *f, const struct nc_stamp *st)
{
	f->flush = false;
	f->backlog = false;
	nc_record(NETCOST_STAGE_RX_SKB, nc_frame_end(f, st));
}

static __always_inline bool nc_rx_flush_end(struct nc_bh *b, const struct nc_stamp *st)
{
	if (likely(!nc_rx_marked(&b->rx, b->rx.flush)))
		return false;
	nc_rx_marked_end(&b->rx, st);
	return true;
}

void __nc_frames_pause(struct nc_bh *b, struct task_struct *prev,
		       const struct nc_stamp *st);
void __nc_frames_resume(struct nc_bh *b, struct task_struct *next,
			const struct nc_stamp *st);

/* nc_bh_open - whether any of the softirq frames @b is open */
static __always_inline bool nc_bh_open(const struct nc_bh *b)
{
	return b && (b->softirq.depth | b->napi.depth | b->rx.depth | b->tx.depth);
}

/*
 * nc_frames_pause/resume - stop/restart the clock of the softirq frames
 * @b that @p owns (clock.c), at every context switch: most find none open
 */
static __always_inline void nc_frames_pause(struct nc_bh *b, struct task_struct *p,
					    const struct nc_stamp *st)
{
	if (nc_bh_open(b))
		__nc_frames_pause(b, p, st);
}

static __always_inline void nc_frames_resume(struct nc_bh *b, struct task_struct *p,
					     const struct nc_stamp *st)
{
	if (nc_bh_open(b))
		__nc_frames_resume(b, p, st);
}
void nc_bh_reset(struct nc_bh *b);

/*
 * nc_bh_find - the running task's softirq frames, or NULL if it has none
 * open; nc_bh_get - the same, claimed (NULL: the task table is full);
 * nc_bh_put - after a frame closed: give them back once none is open.
 * Without NC_BH_PER_TASK: this CPU's, always; with it, the task slot's
 * (inline, after the task table below).
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

/* ---- task table (tasks.c) ---- */

enum nc_task_kind {
	NC_TASK_OTHER,
	NC_TASK_IRQ_THREAD,
	NC_TASK_KSOFTIRQD,
	NC_TASK_NAPI_THREAD,		/* runs napi_threaded_poll() (threaded NAPI) */
};

#define NC_FRAME_SYSCALL	BIT(0)
#define NC_FRAME_IRQ_THREAD	BIT(1)
#define NC_FRAME_NAPI_THREAD	BIT(2)	/* thr_start/thr_excl: a NAPI thread's run */
#define NC_FRAME_BUSY_POLL	BIT(3)	/* bp_*: a busy-poll loop, inside NC_FRAME_SYSCALL */

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
unsigned int nc_tasks_used(void);
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

#if NC_BH_PER_TASK
/*
 * The running task's softirq frames (see nc_bh_find() above), inline:
 * every probe on the softirq side looks them up.
 */
static __always_inline struct nc_bh *nc_bh_find(struct nc_cpu *c)
{
	struct nc_task *t = nc_task_find(current);

	return t && (t->frames & NC_FRAME_BH) ? &t->bh : NULL;
}

static __always_inline struct nc_bh *nc_bh_get(struct nc_cpu *c)
{
	struct nc_task *t = nc_task_get(current);

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
	nc_task_put(t);
}
#endif

/* ---- waiting (wait.c) ---- */

/* nc_wait_on - whether the waiting stages are attached */
static inline bool nc_wait_on(void)
{
	return READ_ONCE(nc_cfg.groups) & NETCOST_GROUP_WAIT;
}

void nc_wait_switch(bool preempt, unsigned int prev_state,
		    struct task_struct *prev, struct nc_task *tp,
		    enum nc_task_kind kp, struct task_struct *next,
		    struct nc_task *tn, enum nc_task_kind kn);
void nc_wait_flush(void);
void nc_wait_waking(struct nc_task *t);
void nc_wait_wakeup(struct task_struct *p);
size_t nc_wait_cpu_size(void);

/* ---- hooks (hooks.c) ---- */

/*
 * Task frames resume where the context switch ends, in the
 * finish_task_switch() kprobe; without that kprobe (its symbol not
 * found), at sched_switch.
 */
extern bool nc_resume_in_fts;

int nc_hooks_init(void);
int nc_hooks_apply(u32 groups);
void nc_hooks_exit(void);
struct sk_buff;
int nc_hooks_put(struct sk_buff *skb);
u64 nc_hooks_hits(int cpu);
size_t nc_hooks_size(void);

/*
 * Every hook's table entry (hooks.c) starts with its per-CPU hit count,
 * so that a probe counts its hit inline from the pointer it is given.
 */
struct nc_hook_hits {
	u64 __percpu *hits;
};

/* one hit in NC_SELF_SAMPLE per hook and CPU times its probe body */
#define NC_SELF_SAMPLE	256

void nc_self_add(u64 t0);

/*
 * nc_hit - count a hit of @hook (the tracepoint probe's data, or the entry
 * nc_fe_dispatch() or nc_kp_hook() gives): one per-CPU counter per hook,
 * since load (the probe_hits counter of STATS is their sum less what they
 * held at the last reset, nc_stats_copy()).  Most probes count every call
 * first, also the ones they then filter out; sys_enter and sys_exit count
 * only the watched system calls (nc_sys_stage()), kthread_should_stop()
 * only a NAPI thread's calls and those that end an IRQ thread's run: their
 * filter runs for every system call or kthread loop, so it comes first.
 * For one hit in NC_SELF_SAMPLE, returns the cycle count at which the
 * sampled body starts (the self-cost INFO reports); else 0, and the fast
 * path has taken no timestamp.  nc_probe_end() closes it.
 */
static __always_inline u64 nc_hit(void *hook)
{
	const struct nc_hook_hits *h = hook;

	if (likely(this_cpu_inc_return(*h->hits) & (NC_SELF_SAMPLE - 1)))
		return 0;
	return get_cycles();
}

/* nc_probe_end - the probe's last act: close the sample nc_hit() opened */
static __always_inline void nc_probe_end(u64 t0)
{
	if (unlikely(t0))
		nc_self_add(t0);
}

struct kprobe;
struct ftrace_ops;
struct ftrace_regs;
void *nc_kp_hook(struct kprobe *p);

/* the fentry hooks' callbacks, which nc_fe_dispatch() calls */
enum nc_fe_id {
	NC_FE_FINISH_TASK_SWITCH,
	NC_FE_DO_SOFTIRQ,
	NC_FE_KTHREAD_SHOULD_STOP,
	NC_FE_IRQ_THREAD,
	NC_FE_BUSY_LOOP,
	NC_FE_PROCESS_BACKLOG,
};

void nc_fe_dispatch(unsigned long ip, unsigned long parent_ip,
		    struct ftrace_ops *op, struct ftrace_regs *fregs);

/* ---- probes ---- */

int nc_irq_init(void);
unsigned int nc_irq_max(void);
void nc_irq_exit(void);
bool nc_irq_is_nic(int irq, const char *name);
void nc_irq_config_changed(void);
unsigned int nc_nic_devices(void);

/* vectors.c: interrupt vectors without tracepoints, in INFO */
#define NC_UNTRACED_MAX	3	/* hypervisor callback, KVM async PF, posted MSI */
size_t nc_untraced_size(void);
int nc_untraced_put(struct sk_buff *msg);
void nc_untraced_warn(void);

/* tracepoint probes: (void *data, tracepoint args...) */
struct irqaction;
struct napi_struct;
struct net_device;
struct pt_regs;
void nc_tp_irq_handler_entry(void *data, int irq, struct irqaction *action);
void nc_tp_irq_handler_exit(void *data, int irq, struct irqaction *action,
			    int ret);
void nc_tp_softirq_entry(void *data, unsigned int vec);
void nc_tp_softirq_exit(void *data, unsigned int vec);
void nc_tp_napi_poll(void *data, struct napi_struct *napi, int work,
		     int budget);
void nc_tp_rx_entry(void *data, const struct sk_buff *skb);
void nc_tp_rx_exit(void *data, int ret);
void nc_tp_rx_core(void *data, struct sk_buff *skb);
void nc_tp_start_xmit(void *data, const struct sk_buff *skb,
		      const struct net_device *dev);
void nc_tp_xmit(void *data, struct sk_buff *skb, int rc,
		struct net_device *dev, unsigned int skb_len);
void nc_tp_sched_switch(void *data, bool preempt, struct task_struct *prev,
			struct task_struct *next, unsigned int prev_state);
void nc_tp_sched_waking(void *data, struct task_struct *p);
void nc_tp_sched_wakeup(void *data, struct task_struct *p);
void nc_tp_sched_process_exit(void *data, NC_SCHED_PROCESS_EXIT_ARGS);
void nc_tp_vector_entry(void *data, int vector);
void nc_tp_vector_exit(void *data, int vector);
void nc_tp_nmi_handler(void *data, void *handler, s64 delta_ns, int handled);
void nc_tp_rx_list_entry(void *data, const struct sk_buff *skb);
void nc_tp_rx_list_exit(void *data, int ret);
void nc_tp_sys_enter(void *data, struct pt_regs *regs, long id);
void nc_tp_sys_exit(void *data, struct pt_regs *regs, long ret);

/* NAPI threads (probes_net.c) */
void nc_napi_thread_mark(void *hook);
/* busy polling (probes_syscall.c) */
void nc_busy_poll_mark(const struct napi_struct *napi, int work,
		       const struct nc_stamp *st);

/*
 * fentry callbacks (nc_fe_dispatch()): @hook is the hook's table entry,
 * @fregs the function's argument registers
 */
void nc_fe_finish_task_switch(void *hook, struct ftrace_regs *fregs);
void nc_fe_do_softirq(void *hook, struct ftrace_regs *fregs);
void nc_fe_irq_thread(void *hook, struct ftrace_regs *fregs);
void nc_fe_kthread_should_stop(void *hook, struct ftrace_regs *fregs);
void nc_fe_busy_loop(void *hook, struct ftrace_regs *fregs);
void nc_fe_process_backlog(void *hook, struct ftrace_regs *fregs);
int nc_kp_finish_task_switch(struct kprobe *p, struct pt_regs *regs);

/* ---- netlink (netlink.c) ---- */

int nc_netlink_init(void);
void nc_set_recording(bool on);
void nc_netlink_exit(void);

#endif /* _NETCOST_H */
