/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference netcost knows of.
 *
 * Kbuild force-includes this file into every source file, so that no
 * other file carries a LINUX_VERSION_CODE check.  Supported: 6.1 to 6.12,
 * stock and PREEMPT_RT.
 *
 * Tracepoint prototypes.  netcost attaches tracepoints by name, so the
 * compiler cannot check a probe against the tracepoint it serves.  The
 * prototypes below were checked against include/trace/events/{irq,net,
 * napi,sched,syscalls}.h of 6.1.0-57 and 6.12.117 (stock and -rt); they
 * are identical there:
 *   irq_handler_entry	(int irq, struct irqaction *action)
 *   irq_handler_exit	(int irq, struct irqaction *action, int ret)
 *   softirq_entry/exit	(unsigned int vec_nr)
 *   napi_poll		(struct napi_struct *napi, int work, int budget)
 *   *_entry (rx)	(const struct sk_buff *skb)
 *   *_exit (rx)	(int ret)
 *   net_dev_start_xmit	(const struct sk_buff *skb, const struct net_device *dev)
 *   net_dev_xmit	(struct sk_buff *skb, int rc, struct net_device *dev,
 *			 unsigned int skb_len)
 *   sched_switch	(bool preempt, struct task_struct *prev,
 *			 struct task_struct *next, unsigned int prev_state)
 *   sched_waking	(struct task_struct *p)
 *   sys_enter		(struct pt_regs *regs, long id)
 *   sys_exit		(struct pt_regs *regs, long ret)
 * A kernel outside the checked range is refused at build time until its
 * headers have been checked and this comment says so.
 *
 * 7.3.4 (Debian 7.3.4+deb13, stock and -rt) was checked too: the
 * prototypes above are unchanged there.  What changed is the context:
 * 7.3 calls tracepoint probes inside an SRCU-fast read section, not with
 * preemption disabled, and sys_enter/sys_exit are faultable tracepoints
 * (rcu_tasks_trace, might_fault()), so a probe must not rely on its
 * caller for preemption being off.
 */
#ifndef _NETCOST_COMPAT_H
#define _NETCOST_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "netcost supports Linux 6.1 and later"
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0) && \
	!(LINUX_VERSION_CODE >= KERNEL_VERSION(7, 3, 0) && \
	  LINUX_VERSION_CODE < KERNEL_VERSION(7, 4, 0))
#warning "netcost: tracepoint prototypes not checked for this kernel; see compat.h"
#endif

/*
 * nr_irqs is hidden since 6.13 ("genirq: Introduce irq_get_nr_irqs()");
 * the exported getter replaces it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define nc_get_nr_irqs()	irq_get_nr_irqs()
#else
#define nc_get_nr_irqs()	nr_irqs
#endif

/*
 * genl pre_doit/post_doit take a genl_split_ops since 6.2
 * (commit 0b588afdd1e, "genetlink: use split ops in the pre/post hooks").
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define nc_genl_hook_ops genl_split_ops
#else
#define nc_genl_hook_ops genl_ops
#endif

/*
 * The name of finish_task_switch() in kallsyms depends on what the
 * compiler did to it; netcost tries these in order at load.
 */
#define NC_FINISH_TASK_SWITCH_NAMES \
	"finish_task_switch.isra.0", "finish_task_switch", \
	"finish_task_switch.part.0", "finish_task_switch.constprop.0"

#endif /* _NETCOST_COMPAT_H */
