/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes.h - what the probes (probes_*.c, wait.c) share, and the entry
 * points hooks.c attaches.  A probe is given its hook's table entry and
 * sees only its head (struct nc_hook_head); it never calls into hooks.c
 * (hooks.h: the levels).
 */
#ifndef _NETCOST_PROBES_H
#define _NETCOST_PROBES_H

#include <linux/kprobes.h>

#include "netcost.h"
#include "hist.h"
#include "tasks.h"

/* ---- every probe: its hit and its self-cost ---- */

/*
 * nc_hook_head - the head of every hook's table entry (hooks.c's struct
 * nc_hook starts with it): what a probe is given.  A tracepoint probe
 * gets the entry as its data, an fentry callback from nc_fe_dispatch(),
 * a kprobe handler its kprobe, which lies in the head: nc_kp_hook().
 */
struct nc_hook_head {
	u64 __percpu *hits;		/* first: nc_hit() counts through it */
	struct kprobe kp;		/* a kprobe hook's; unused by the others */
};

/* nc_kp_hook - the table entry behind a kprobe */
static __always_inline void *nc_kp_hook(struct kprobe *p)
{
	return container_of(p, struct nc_hook_head, kp);
}

/* one hit in NC_SELF_SAMPLE per hook and CPU times its probe body */
#define NC_SELF_SAMPLE	256

/*
 * nc_hit - the first act of every probe: count a hit of @hook (the
 * tracepoint probe's data, or the entry nc_fe_dispatch() or nc_kp_hook() gives),
 * every hit, also the ones the probe filters out at once: one per-CPU
 * counter per hook, since load (the probe_hits counter of STATS is their
 * sum less what they held at the last reset, nc_stats_copy()).  For one hit in
 * NC_SELF_SAMPLE, returns the cycle count at which the sampled body
 * starts (the self-cost INFO reports); else 0, and the fast path has
 * taken no timestamp.  nc_probe_end() closes it.
 */
static __always_inline u64 nc_hit(void *hook)
{
	const struct nc_hook_head *h = hook;

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

/* ---- context switches (probes_sched.c) ---- */

/*
 * Task frames resume where the context switch ends, in the
 * finish_task_switch() hook; without that hook (its symbol not found),
 * at sched_switch.  hooks.c says which, as it attaches and detaches it.
 */
extern bool nc_resume_in_fts;

static inline void nc_resume_in_fts_set(bool on)
{
	WRITE_ONCE(nc_resume_in_fts, on);
}

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

/* ---- the probes hooks.c attaches ---- */

/* tracepoint probes: (void *data, tracepoint args...) */
struct irqaction;
struct napi_struct;
struct net_device;
struct pt_regs;
struct sk_buff;
void nc_tp_irq_handler_entry(void *data, int irq, struct irqaction *action);
void nc_tp_irq_handler_exit(void *data, int irq, struct irqaction *action,
			    int ret);
void nc_tp_softirq_entry(void *data, unsigned int vec);
void nc_tp_softirq_exit(void *data, unsigned int vec);
void nc_tp_napi_poll(void *data, struct napi_struct *napi, int work,
		     int budget);
void nc_tp_rx_entry(void *data, const struct sk_buff *skb);
void nc_tp_rx_exit(void *data, int ret);
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

/*
 * fentry callbacks (nc_fe_dispatch()): @hook is the hook's table entry,
 * @fregs the function's argument registers
 */
struct ftrace_regs;
void nc_fe_finish_task_switch(void *hook, struct ftrace_regs *fregs);
void nc_fe_do_softirq(void *hook, struct ftrace_regs *fregs);
void nc_fe_irq_thread(void *hook, struct ftrace_regs *fregs);
void nc_fe_kthread_should_stop(void *hook, struct ftrace_regs *fregs);
int nc_kp_finish_task_switch(struct kprobe *p, struct pt_regs *regs);

/* NAPI threads (probes_net.c), from the IRQ side's kthread_should_stop() hook */
void nc_napi_thread_mark(void *hook);

#endif /* _NETCOST_PROBES_H */
