/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks.h - the hook table (hooks.c): the hooks attached by group, every
 * hook's hits, counted inline by the probes (nc_hit()), and the fentry
 * hooks' dispatch.  The probes the table attaches: probes.h.
 */
#ifndef _NETCOST_HOOKS_H
#define _NETCOST_HOOKS_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/timex.h>
#include <linux/types.h>

#include "hist.h"

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

struct ftrace_ops;
struct ftrace_regs;

/* the function hooks' callbacks, which nc_fe_dispatch() calls (fentry) */
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

#endif /* _NETCOST_HOOKS_H */
