/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hooks.h - the hook table (hooks.c): every place netcost attaches to.
 *
 * The module's levels; a file calls and includes only its own level's
 * and those below it:
 *   top	main.c (init, exit), netlink.c (the commands)
 *   hooks	hooks.c: attaches each probe, counts its hits, sets what
 *		the probes read (nc_resume_in_fts_set(),
 *		nc_napi_thread_fn_set()); probe_types.c checks its probes'
 *		types
 *   probes	probes_*.c, wait.c (probes.h)
 *   bottom	tasks.c (tasks.h) on clock.c (clock.h) on hist.c (hist.h);
 *		nic.c (nic.h); netcost.h under all
 * A probe gets its table entry as a pointer (struct nc_hook_head,
 * probes.h); hist.c gets the hooks' hits from its caller
 * (nc_stats_copy(), nc_stats_reset(): netlink.c passes nc_hooks_hits()).
 */
#ifndef _NETCOST_HOOKS_H
#define _NETCOST_HOOKS_H

#include "netcost.h"

struct ftrace_ops;
struct ftrace_regs;
struct sk_buff;

int nc_hooks_init(void);
int nc_hooks_apply(u32 groups);
void nc_hooks_exit(void);
int nc_hooks_put(struct sk_buff *skb);
u64 nc_hooks_hits(int cpu);
size_t nc_hooks_size(void);

/* netcost's one ftrace_ops callback: calls the fentry hooks' callbacks */
void nc_fe_dispatch(unsigned long ip, unsigned long parent_ip,
		    struct ftrace_ops *op, struct ftrace_regs *fregs);

#endif /* _NETCOST_HOOKS_H */
