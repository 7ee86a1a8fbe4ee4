/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wait.h - the waiting stages (wait.c): what the scheduler's probes
 * (probes_sched.c) hand to them.
 */
#ifndef _NETCOST_WAIT_H
#define _NETCOST_WAIT_H

#include <linux/compiler.h>
#include <linux/types.h>

#include "netcost.h"
#include "tasks.h"

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

#endif /* _NETCOST_WAIT_H */
