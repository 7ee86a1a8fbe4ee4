/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - the probes (probes_*.c): the callbacks the hook table
 * attaches (hooks.c), each checked against its tracepoint's or hook's
 * type (probe_types.c), and what one probe file calls in another.
 */
#ifndef _NETCOST_PROBES_H
#define _NETCOST_PROBES_H

#include <linux/types.h>

struct ftrace_regs;
struct irqaction;
struct napi_struct;
struct nc_stamp;
struct net_device;
struct pt_regs;
struct sk_buff;
struct task_struct;

/* tracepoint probes: (void *data, tracepoint args...) */
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

#endif /* _NETCOST_PROBES_H */
