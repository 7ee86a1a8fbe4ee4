/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks.h - the hook table (hooks.c): the hooks attached by group, and
 * the fentry hooks' dispatch.  The probes the table attaches: probes.h;
 * the hits they count: hist.h (nc_hit()), below the table, so that the
 * probes include nothing of it.
 */
#ifndef _NETCOST_HOOKS_H
#define _NETCOST_HOOKS_H

#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "hist.h"

int nc_hooks_init(void);
int nc_hooks_apply(u32 groups);
void nc_hooks_exit(void);
struct sk_buff;
int nc_hooks_put(struct sk_buff *skb);
u64 nc_hooks_hits(int cpu);
size_t nc_hooks_size(void);

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
