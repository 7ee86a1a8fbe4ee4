/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - per-CPU histograms and counters (hist.c): what a probe records
 * an event with, inline (nc_record(), nc_count()), each hook's hits and
 * the sampled self-cost of its probe (nc_hit(), nc_probe_end()), and what
 * the netlink reader copies (nc_stats_copy()).
 */
#ifndef _NETCOST_MODULE_HIST_H	/* _NETCOST_HIST_H: include/netcost_hist.h */
#define _NETCOST_MODULE_HIST_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/timex.h>
#include <linux/types.h>

#include "netcost.h"
#include "netcost_hist.h"

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

/* A copy of one CPU's statistics, for the netlink reader. */
struct nc_cpu_stats {
	struct nc_hist_snap hist[__NETCOST_STAGE_MAX];
	struct nc_counters c;
	struct nc_hist raw;		/* scratch: one histogram as it lies */
};

/* bytes of statistics per CPU: the histograms and counters (INFO) */
#define NC_STATS_PER_CPU \
	(__NETCOST_STAGE_MAX * sizeof(struct nc_hist) + sizeof(struct nc_counters))

extern atomic_t nc_generation;
extern u64 nc_reset_ns;
extern u64 nc_reset_cycles;

extern const u8 nc_stage_role[__NETCOST_STAGE_MAX];

int nc_stats_init(void);
void nc_stats_exit(void);
/*
 * nc_stats_reset - clear every CPU's statistics, and with each CPU's,
 * @clear_cpu(cpu): the caller's own per-CPU figures (netlink.c: the NAPI
 * tables), cleared at the same point (for an online CPU in the reset's
 * IPI on it, interrupts off)
 */
void nc_stats_reset(void (*clear_cpu)(int cpu));
/*
 * nc_stats_set_hits_fn - where probe_hits comes from: @fn(cpu) is every
 * hook's hits on that CPU since load (the hook table's nc_hooks_hits()),
 * set by main.c once the counters exist and before netlink can copy or
 * reset the statistics; NULL: none (probe_hits 0)
 */
void nc_stats_set_hits_fn(u64 (*fn)(int cpu));
void nc_rec_update(void);
void nc_hist_clear(struct nc_hist *h);
bool nc_stats_copy(int cpu, struct nc_cpu_stats *dst);
u32 nc_probe_cost(void);
u32 nc_probe_cost_pct(unsigned int pct);
u64 nc_probe_cost_samples(void);

/* nc_self_add - a sampled probe body (nc_probe_end(), hooks.h) ends now */
void nc_self_add(u64 t0);

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
	[NETCOST_CTR_NET_RX_IN_NAPI_THREAD]		= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_NET_RX_IN_NAPI_THREAD_CYCLES]	= NETCOST_GROUP_SOFTIRQ,
	[NETCOST_CTR_RX_FRAMES_CONSUMED]		= NETCOST_GROUP_NET,
	[NETCOST_CTR_RX_SKB_UNTIMED]			= NETCOST_GROUP_NET,
	[NETCOST_CTR_TX_XMIT_UNTIMED]			= NETCOST_GROUP_NET,
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

/*
 * Every hook's table entry (hooks.c) starts with its per-CPU hit count,
 * so that a probe counts its hit inline from the pointer it is given.
 */
struct nc_hook_hits {
	u64 __percpu *hits;
};

/* one hit in NC_SELF_SAMPLE per hook and CPU times its probe body */
#define NC_SELF_SAMPLE	256

/*
 * nc_hit - count a hit of @hook (the tracepoint probe's data, or the entry
 * nc_fe_dispatch() gives):
 * one per-CPU counter per hook, since load (the probe_hits counter of
 * STATS is their sum less what they held at the last reset,
 * nc_stats_copy()).  Most probes count every call first, also the ones
 * they then filter out; sys_enter and sys_exit count only the watched
 * system calls (nc_sys_stage()), kthread_should_stop() only a NAPI
 * thread's calls and those that end an IRQ thread's run: their filter
 * runs for every system call or kthread loop, so it comes first.
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

#endif /* _NETCOST_MODULE_HIST_H */
