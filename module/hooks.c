// SPDX-License-Identifier: GPL-2.0
/*
 * hooks.c - every place netcost attaches to, in one table.
 *
 * Debian exports almost no tracepoint for register_trace_*(), so they
 * are looked up by name with for_each_kernel_tracepoint() and attached
 * with tracepoint_probe_register().  Where no tracepoint exists, a
 * function's entry is hooked (fentry) through netcost's one ftrace_ops:
 * no registers saved, its callback called straight from ftrace's
 * trampoline, the cheapest way into a function (a kprobe there, ftrace-
 * based too, saves all registers and looks the probe up: about 120 more
 * instructions a hit; a kretprobe's return path on an IRQ thread's run
 * cost about 1,700).  Every fentry hook is one function in that ops'
 * filter, and nc_fe_dispatch() calls its callback by the address it came
 * from; the symbol is tried under each name the compiler may have given
 * it.  Hooks are attached and detached by stage group
 * (CONFIG command); a hook several groups need stays while any of them is
 * on.  Callers hold the netlink config mutex (or are init/exit).
 */
#include <linux/bitmap.h>
#include <linux/ftrace.h>
#include <linux/irqnr.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <net/genetlink.h>

#include "netcost.h"
#include "clock.h"
#include "hooks.h"
#include "probes.h"
#include "tasks.h"

struct nc_hook {
	struct nc_hook_hits hh;		/* first: nc_hit() counts through it */
	const char *name;		/* tracepoint name, or NULL */
	const char *const syms[5];	/* function hooks: symbols to try */
	enum netcost_hook_kind kind;
	u32 groups;			/* attached while one of them is on */
	void *probe;			/* tracepoint probe function */
	enum nc_fe_id fe_id;		/* fentry: which callback */
	unsigned long fe_ip;		/* fentry: its ftrace call site, while attached */
	struct tracepoint *tp;
	const char *sym;		/* the symbol that registered */
	bool optional;			/* may be missing even when NC_G_ALL */
	bool attached;
	bool failed;			/* last attach failed (name kept) */
};

#define NC_G_ALL	NETCOST_GROUP_ALL

#define NC_TP(_name, _groups, _probe) \
	{ .name = _name, .kind = NETCOST_HOOK_TRACEPOINT, .groups = _groups, \
	  .probe = _probe }
/* a tracepoint that not every kernel or configuration has */
#define NC_TPO(_name, _groups, _probe) \
	{ .name = _name, .kind = NETCOST_HOOK_TRACEPOINT, .groups = _groups, \
	  .probe = _probe, .optional = true }
#define NC_VEC(_v) \
	NC_TPO(_v "_entry", NC_G_ALL, nc_tp_vector_entry), \
	NC_TPO(_v "_exit", NC_G_ALL, nc_tp_vector_exit)
/* a function's entry, through netcost's ftrace_ops (may be missing: optional) */
#define NC_FE(_groups, _id, ...) \
	{ .syms = { __VA_ARGS__, NULL }, .kind = NETCOST_HOOK_FENTRY, \
	  .groups = _groups, .fe_id = _id, .optional = true }

static struct nc_hook nc_hooks[] = {
	/* interrupt time is subtracted from every other stage */
	NC_TP("irq_handler_entry", NC_G_ALL, nc_tp_irq_handler_entry),
	NC_TP("irq_handler_exit", NC_G_ALL, nc_tp_irq_handler_exit),
	NC_VEC("local_timer"),
	NC_VEC("reschedule"),
	NC_VEC("call_function"),
	NC_VEC("call_function_single"),
	NC_VEC("irq_work"),
	NC_VEC("x86_platform_ipi"),
	NC_VEC("spurious_apic"),
	NC_VEC("error_apic"),
	NC_VEC("thermal_apic"),
	NC_VEC("threshold_apic"),
	NC_VEC("deferred_error_apic"),
	NC_TPO("nmi_handler", NC_G_ALL, nc_tp_nmi_handler),
	/*
	 * frames pause while their task is off CPU, from sched_switch to
	 * finish_task_switch(): needed by all (without this hook, frames
	 * resume at sched_switch and the switch is charged to them too).
	 * netcost keeps no kprobe (nc_fe_addr()'s is gone again at once),
	 * so that where ftrace's kprobe events share the function (the
	 * oracle's), theirs run first: kprobes share one ftrace_ops,
	 * registered with the first one, and ftrace calls the newest ops
	 * first.
	 */
	NC_FE(NC_G_ALL, NC_FE_FINISH_TASK_SWITCH, NC_FINISH_TASK_SWITCH_NAMES),
	/*
	 * tells a softirq run at local_bh_enable() from one at irq_exit() on
	 * stock kernels (PREEMPT_RT has no softirq at irq_exit(), nor this
	 * path through do_softirq(): not attached there)
	 */
	NC_FE(NETCOST_GROUP_SOFTIRQ, NC_FE_DO_SOFTIRQ, NC_DO_SOFTIRQ_NAMES),
	/*
	 * irq_thread: a threaded handler's run, from its entry to the IRQ
	 * thread's next kthread_should_stop() (probes_irq.c); the end first,
	 * so that no run opens without it.  napi_thread: a NAPI thread's
	 * runs, from one kthread_should_stop() to another (probes_net.c).
	 */
	NC_FE(NETCOST_GROUP_IRQ | NETCOST_GROUP_SOFTIRQ, NC_FE_KTHREAD_SHOULD_STOP,
	      "kthread_should_stop"),
	NC_FE(NETCOST_GROUP_IRQ, NC_FE_IRQ_THREAD, "irq_forced_thread_fn"),
	NC_FE(NETCOST_GROUP_IRQ, NC_FE_IRQ_THREAD, "irq_thread_fn"),
	/* softirq time is subtracted from system calls; NET_RX opens NAPI */
	NC_TP("softirq_entry", NETCOST_GROUP_SOFTIRQ | NETCOST_GROUP_NET |
	      NETCOST_GROUP_SYSCALL, nc_tp_softirq_entry),
	NC_TP("softirq_exit", NETCOST_GROUP_SOFTIRQ | NETCOST_GROUP_NET |
	      NETCOST_GROUP_SYSCALL, nc_tp_softirq_exit),
	/*
	 * busy_poll: a busy-poll loop's entry (probes_syscall.c); its polls
	 * end at napi_poll.  napi_busy_loop_rcu() (6.9+, io_uring) has the
	 * same loop, not through napi_busy_loop().
	 */
	NC_FE(NETCOST_GROUP_SYSCALL, NC_FE_BUSY_LOOP, "napi_busy_loop"),
	NC_FE(NETCOST_GROUP_SYSCALL, NC_FE_BUSY_LOOP, "napi_busy_loop_rcu"),
	NC_TP("napi_poll", NETCOST_GROUP_NET | NETCOST_GROUP_SYSCALL, nc_tp_napi_poll),
	NC_TP("netif_receive_skb_entry", NETCOST_GROUP_NET, nc_tp_rx_entry),
	NC_TP("napi_gro_receive_entry", NETCOST_GROUP_NET, nc_tp_rx_entry),
	NC_TP("netif_rx_entry", NETCOST_GROUP_NET, nc_tp_rx_entry),
	NC_TP("napi_gro_frags_entry", NETCOST_GROUP_NET, nc_tp_rx_entry),
	NC_TP("netif_receive_skb_exit", NETCOST_GROUP_NET, nc_tp_rx_exit),
	NC_TP("napi_gro_receive_exit", NETCOST_GROUP_NET, nc_tp_rx_exit),
	NC_TP("netif_rx_exit", NETCOST_GROUP_NET, nc_tp_rx_exit),
	NC_TP("napi_gro_frags_exit", NETCOST_GROUP_NET, nc_tp_rx_exit),
	/*
	 * a backlog poll (RPS, netif_rx()) hands its packets to the stack
	 * with no entry event: its start, and each packet's core event
	 */
	NC_FE(NETCOST_GROUP_NET, NC_FE_PROCESS_BACKLOG, "process_backlog"),
	NC_TP("netif_receive_skb", NETCOST_GROUP_NET, nc_tp_rx_core),
	NC_TP("netif_receive_skb_list_entry", NETCOST_GROUP_NET, nc_tp_rx_list_entry),
	NC_TP("netif_receive_skb_list_exit", NETCOST_GROUP_NET, nc_tp_rx_list_exit),
	NC_TP("net_dev_start_xmit", NETCOST_GROUP_NET, nc_tp_start_xmit),
	NC_TP("net_dev_xmit", NETCOST_GROUP_NET, nc_tp_xmit),
	NC_TP("sched_switch", NC_G_ALL, nc_tp_sched_switch),
	NC_TP("sched_waking", NETCOST_GROUP_SCHED | NETCOST_GROUP_WAIT, nc_tp_sched_waking),
	/* a task joins a runqueue (wait.c) */
	NC_TP("sched_wakeup", NETCOST_GROUP_WAIT, nc_tp_sched_wakeup),
	NC_TP("sched_wakeup_new", NETCOST_GROUP_WAIT, nc_tp_sched_wakeup),
	/* frees the task-table slot of an exiting task */
	NC_TP("sched_process_exit", NC_G_ALL, nc_tp_sched_process_exit),
	/* and they make a task a load task (wait.c) */
	NC_TP("sys_enter", NETCOST_GROUP_SYSCALL | NETCOST_GROUP_WAIT, nc_tp_sys_enter),
	NC_TP("sys_exit", NETCOST_GROUP_SYSCALL | NETCOST_GROUP_WAIT, nc_tp_sys_exit),
};

/* nc_is_fe - whether @h is the fentry hook of callback @id */
static bool nc_is_fe(const struct nc_hook *h, enum nc_fe_id id)
{
	return h->kind == NETCOST_HOOK_FENTRY && h->fe_id == id;
}

/* ---- fentry: netcost's one ftrace_ops ---- */

/*
 * Its callback is called straight from ftrace's trampoline, with no
 * FTRACE_OPS_FL_SAVE_REGS (the argument registers are in @fregs all the
 * same) and no FTRACE_OPS_FL_RECURSION (the callbacks call nothing that
 * this ops traces, so ftrace adds no wrapper).  Changed under the config
 * mutex only.
 */
static struct ftrace_ops nc_fops;
static unsigned int nc_fops_funcs;	/* functions in its filter */
/* the fentry hooks of the table, for nc_fe_dispatch() */
static struct nc_hook *nc_fe_hooks[12];
static unsigned int nc_nr_fe;

/*
 * nc_fe_dispatch - netcost's ftrace_ops callback: the hook whose
 * function's call site @ip is (a few compares: the table's fentry hooks,
 * the most frequent first), with preemption as the kernel has it there
 */
void nc_fe_dispatch(unsigned long ip, unsigned long parent_ip,
		    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned int i;

	for (i = 0; i < nc_nr_fe; i++) {
		struct nc_hook *h = nc_fe_hooks[i];

		if (READ_ONCE(h->fe_ip) != ip)
			continue;
		switch (h->fe_id) {
		case NC_FE_FINISH_TASK_SWITCH:
			nc_fe_finish_task_switch(h, fregs);
			break;
		case NC_FE_DO_SOFTIRQ:
			nc_fe_do_softirq(h, fregs);
			break;
		case NC_FE_KTHREAD_SHOULD_STOP:
			nc_fe_kthread_should_stop(h, fregs);
			break;
		case NC_FE_IRQ_THREAD:
			nc_fe_irq_thread(h, fregs);
			break;
		case NC_FE_BUSY_LOOP:
			nc_fe_busy_loop(h, fregs);
			break;
		case NC_FE_PROCESS_BACKLOG:
			nc_fe_process_backlog(h, fregs);
			break;
		}
		return;
	}
}

#ifdef NC_TEST_BUILD
/*
 * bench_empty_hooks (test only, at load): every hook attaches as usual,
 * but to a probe that returns at once: bench/overhead's and qprof's
 * configuration "hooks", the floor that the dispatch alone costs (the
 * tracepoint's call, ftrace's trampoline), below which no probe body
 * can bring the rate.  Extra arguments are harmless to an empty
 * function in the x86-64 calling convention (no kCFI in these gcc
 * builds).
 */
static bool nc_bench_empty_hooks;
module_param_named(bench_empty_hooks, nc_bench_empty_hooks, bool, 0444);
MODULE_PARM_DESC(bench_empty_hooks, "benchmarks only: every hook attached to an empty probe (the dispatch's floor)");

static void nc_tp_empty(void *data)
{
}

static void nc_fe_empty(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static void *nc_hook_probe(const struct nc_hook *h)
{
	return nc_bench_empty_hooks ? (void *)nc_tp_empty : h->probe;
}

static ftrace_func_t nc_fe_func(void)
{
	return nc_bench_empty_hooks ? nc_fe_empty : nc_fe_dispatch;
}
#else
static void *nc_hook_probe(const struct nc_hook *h)
{
	return h->probe;
}

static ftrace_func_t nc_fe_func(void)
{
	return nc_fe_dispatch;
}
#endif

/*
 * nc_fe_addr - the ftrace call site of @sym, or 0: kallsyms_lookup_name()
 * is not exported, a kprobe on the symbol's entry resolves it (kprobes
 * move an entry probe onto the ftrace site, past an IBT endbr)
 */
static unsigned long nc_fe_addr(const char *sym)
{
	struct kprobe kp = { .symbol_name = sym };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/* nc_hook_attach_fentry - add @sym's entry to netcost's ftrace_ops */
static int nc_hook_attach_fentry(struct nc_hook *h, const char *sym)
{
	unsigned long addr = nc_fe_addr(sym);
	int err;

	if (!addr)
		return -ENOENT;
	if (!nc_fops_funcs) {
		memset(&nc_fops, 0, sizeof(nc_fops));
		nc_fops.func = nc_fe_func();
	}
	/* the address is in place before the first call can come */
	WRITE_ONCE(h->fe_ip, addr);
	err = ftrace_set_filter_ip(&nc_fops, addr, 0, 0);
	if (!err && !nc_fops_funcs)
		err = register_ftrace_function(&nc_fops);
	if (err) {
		if (!nc_fops_funcs)
			ftrace_free_filter(&nc_fops);
		else
			ftrace_set_filter_ip(&nc_fops, addr, 1, 0);
		WRITE_ONCE(h->fe_ip, 0);
		/* a function ftrace cannot hook is one this kernel does not have */
		return err == -EINVAL ? -ENOENT : err;
	}
	nc_fops_funcs++;
	return 0;
}

/*
 * nc_hook_detach_fentry - take the function out of the ops' filter; the
 * last one unregisters the ops (an empty filter would trace every
 * function), which waits until no CPU runs the callback any more
 */
static void nc_hook_detach_fentry(struct nc_hook *h)
{
	if (nc_fops_funcs == 1) {
		unregister_ftrace_function(&nc_fops);
		ftrace_free_filter(&nc_fops);
	} else {
		ftrace_set_filter_ip(&nc_fops, h->fe_ip, 1, 0);
	}
	nc_fops_funcs--;
	WRITE_ONCE(h->fe_ip, 0);
}

static void nc_tp_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		if (nc_hooks[i].name && !strcmp(tp->name, nc_hooks[i].name))
			nc_hooks[i].tp = tp;
	}
}

static int nc_hook_attach_function(struct nc_hook *h)
{
	int i, err = -ENOENT;

	for (i = 0; h->syms[i]; i++) {
		err = nc_hook_attach_fentry(h, h->syms[i]);
		if (!err) {
			h->sym = h->syms[i];
			return 0;
		}
	}
	return err;
}

/*
 * fault_attach (test only): the Nth hook attach from now fails with
 * -ENOMEM, as a tracepoint or ftrace filter that cannot allocate would;
 * the lab's reliability test proves with it that CONFIG rolls back.
 * 0: off.
 */
#ifdef NC_TEST_BUILD
static int nc_fault_attach;
module_param_named(fault_attach, nc_fault_attach, int, 0600);
MODULE_PARM_DESC(fault_attach, "test only: make the Nth hook attach from now fail (0: off)");

static bool nc_fault_now(void)
{
	int n = READ_ONCE(nc_fault_attach);

	if (n <= 0)
		return false;
	WRITE_ONCE(nc_fault_attach, n - 1);
	return n == 1;
}
#else
static bool nc_fault_now(void)
{
	return false;
}
#endif

static int nc_hook_attach(struct nc_hook *h)
{
	int err;

	if (nc_fault_now()) {
		pr_info("netcost: fault_attach: failing the attach of %s\n",
			h->name ? h->name : h->syms[0]);
		h->failed = true;
		return -ENOMEM;
	}
	if (h->kind == NETCOST_HOOK_TRACEPOINT) {
		if (!h->tp)
			return -ENOENT;
		err = tracepoint_probe_register(h->tp, nc_hook_probe(h), h);
	} else {
		err = nc_hook_attach_function(h);
	}
	h->failed = !!err;
	if (!err)
		h->attached = true;
	return err;
}

static void nc_hook_detach(struct nc_hook *h)
{
	if (!h->attached)
		return;
	if (h->kind == NETCOST_HOOK_TRACEPOINT)
		tracepoint_probe_unregister(h->tp, nc_hook_probe(h), h);
	else
		nc_hook_detach_fentry(h);
	h->attached = false;
}

static const char *nc_hook_name(const struct nc_hook *h)
{
	return h->name ? h->name : (h->sym ? h->sym : h->syms[0]);
}

/* nc_frames_reset - forget open frames after hooks came or went */
static void nc_frames_reset(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct nc_cpu *c = per_cpu_ptr(&nc_cpu, cpu);

		WRITE_ONCE(c->hardirq_start, 0);
		WRITE_ONCE(c->vector_start, 0);
		WRITE_ONCE(c->switch_start, 0);
		WRITE_ONCE(c->switch_next, NULL);
		WRITE_ONCE(c->bh_owner, NULL);
		WRITE_ONCE(c->backlog_owner, NULL);
		nc_bh_reset(&c->bh);
	}
	nc_tasks_flush();
}

/*
 * nc_hook_needed - whether this kernel needs @h at all: PREEMPT_RT never
 * runs softirqs through do_softirq() (nor at irq_exit()), so that probe
 * would only cost
 */
static bool nc_hook_needed(const struct nc_hook *h)
{
	return !(IS_ENABLED(CONFIG_PREEMPT_RT) && nc_is_fe(h, NC_FE_DO_SOFTIRQ));
}

/*
 * nc_irq_thread_end_on - whether an IRQ thread run can end: its start
 * hooks attach only with kthread_should_stop()'s (a run that never ends
 * would swallow every later one of its thread)
 */
static bool nc_irq_thread_end_on(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		if (nc_is_fe(&nc_hooks[i], NC_FE_KTHREAD_SHOULD_STOP))
			return nc_hooks[i].attached;
	}
	return false;
}

/*
 * nc_resume_in_fts_update - whether the finish_task_switch() hook is on
 * (nc_resume_in_fts, clock.h: the hook table is its only writer)
 */
static void nc_resume_in_fts_update(void)
{
	bool on = false;
	int i;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		if (nc_is_fe(&nc_hooks[i], NC_FE_FINISH_TASK_SWITCH))
			on |= nc_hooks[i].attached;
	}
	WRITE_ONCE(nc_resume_in_fts, on);
}

/*
 * nc_hook_absent - @err says the hook does not exist on this kernel (no
 * such tracepoint or symbol, or one kprobes cannot probe), which leaves
 * its stage empty; any other error is a failure to attach.
 */
static bool nc_hook_absent(int err)
{
	return err == -ENOENT || err == -EINVAL || err == -EILSEQ ||
	       err == -EOPNOTSUPP;
}

/* nc_hooks_restore - back to the attached set @was, after a failure */
static void nc_hooks_restore(const unsigned long *was)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		if (!test_bit(i, was))
			nc_hook_detach(&nc_hooks[i]);
	}
	tracepoint_synchronize_unregister();
	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		struct nc_hook *h = &nc_hooks[i];

		if (test_bit(i, was) && !h->attached && nc_hook_attach(h))
			pr_err("netcost: cannot re-attach %s while rolling back\n",
			       nc_hook_name(h));
	}
	nc_frames_reset();
	nc_resume_in_fts_update();
}

/*
 * nc_hooks_apply - attach the hooks @groups need and detach the others.
 * A hook that does not exist on this kernel is skipped (INFO shows it),
 * except the tracepoints every group relies on.  Any other failure
 * rolls back to the hooks attached before, and returns the error: the
 * attached set always matches the groups in nc_cfg.
 */
int nc_hooks_apply(u32 groups)
{
	DECLARE_BITMAP(was, ARRAY_SIZE(nc_hooks));
	bool changed = false;
	int i, err;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++)
		__assign_bit(i, was, nc_hooks[i].attached);

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		struct nc_hook *h = &nc_hooks[i];

		if (!(h->groups & groups) && h->attached) {
			nc_hook_detach(h);
			changed = true;
		}
	}
	if (changed)
		tracepoint_synchronize_unregister();

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		struct nc_hook *h = &nc_hooks[i];

		if (!(h->groups & groups) || h->attached || !nc_hook_needed(h))
			continue;
		if (nc_is_fe(h, NC_FE_IRQ_THREAD) &&
		    !nc_irq_thread_end_on())
			continue;
		err = nc_hook_attach(h);
		if (err && ((h->groups == NC_G_ALL && !h->optional) || !nc_hook_absent(err))) {
			pr_err("netcost: cannot attach %s: %d; restoring the previous hooks\n",
			       nc_hook_name(h), err);
			nc_hooks_restore(was);
			return err;
		}
		if (err)
			pr_info("netcost: %s not available (%d), its stage stays empty\n",
				nc_hook_name(h), err);
		changed = true;
	}
	if (changed)
		nc_frames_reset();
	nc_resume_in_fts_update();
	return 0;
}

/* nc_hooks_init - find the tracepoints by name and allocate hit counters */
int nc_hooks_init(void)
{
	unsigned long napi_fn, smpboot_fn;
	int i;

	for_each_kernel_tracepoint(nc_tp_lookup, NULL);
	/* the thread functions that tell NAPI and backlog threads (tasks.c) */
	napi_fn = nc_fe_addr("napi_threaded_poll");
	if (!napi_fn)
		pr_info("netcost: napi_threaded_poll not found, no NAPI thread is followed\n");
	smpboot_fn = nc_fe_addr("smpboot_thread_fn");
	if (!smpboot_fn)
		pr_info("netcost: smpboot_thread_fn not found, no backlog thread is followed\n");
	nc_tasks_set_thread_fns(napi_fn, smpboot_fn);
	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		if (nc_hooks[i].kind == NETCOST_HOOK_FENTRY && nc_nr_fe < ARRAY_SIZE(nc_fe_hooks))
			nc_fe_hooks[nc_nr_fe++] = &nc_hooks[i];
		nc_hooks[i].hh.hits = alloc_percpu(u64);
		if (!nc_hooks[i].hh.hits)
			goto err_free_hits;
	}
	return 0;

err_free_hits:
	while (i--)
		free_percpu(nc_hooks[i].hh.hits);
	return -ENOMEM;
}

/*
 * nc_hooks_exit - detach everything, wait until no probe runs any more,
 * then free.  After this, no probe can touch netcost's memory.
 */
void nc_hooks_exit(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++)
		nc_hook_detach(&nc_hooks[i]);
	tracepoint_synchronize_unregister();
	WRITE_ONCE(nc_resume_in_fts, false);
	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++)
		free_percpu(nc_hooks[i].hh.hits);
}

/* nc_hooks_size - room for the NETCOST_A_HOOK nests of INFO */
size_t nc_hooks_size(void)
{
	return ARRAY_SIZE(nc_hooks) *
	       (nla_total_size(0) +			/* NETCOST_A_HOOK */
		nla_total_size(KSYM_NAME_LEN) +		/* NETCOST_HOOK_A_NAME */
		nla_total_size(sizeof(u8)) +		/* NETCOST_HOOK_A_KIND */
		nla_total_size(sizeof(u32)) +		/* NETCOST_HOOK_A_GROUP */
		nla_total_size(sizeof(u8)) +		/* NETCOST_HOOK_A_ATTACHED */
		nla_total_size_64bit(sizeof(u64)) +	/* NETCOST_HOOK_A_HITS */
		nla_total_size_64bit(sizeof(u64)));	/* NETCOST_HOOK_A_MISSED */
}

static int nc_hook_put(struct sk_buff *skb, const struct nc_hook *h)
{
	struct nlattr *nest;
	u64 hits = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		hits += *per_cpu_ptr(h->hh.hits, cpu);

	nest = nla_nest_start(skb, NETCOST_A_HOOK);
	if (!nest)
		return -EMSGSIZE;
	/* MISSED, the hits a k(ret)probe dropped: 0, netcost attaches none */
	if (nla_put_string(skb, NETCOST_HOOK_A_NAME, nc_hook_name(h)) ||
	    nla_put_u8(skb, NETCOST_HOOK_A_KIND, h->kind) ||
	    nla_put_u32(skb, NETCOST_HOOK_A_GROUP, h->groups) ||
	    nla_put_u8(skb, NETCOST_HOOK_A_ATTACHED, h->attached) ||
	    nla_put_u64_64bit(skb, NETCOST_HOOK_A_HITS, hits, NETCOST_HOOK_A_PAD) ||
	    nla_put_u64_64bit(skb, NETCOST_HOOK_A_MISSED, 0, NETCOST_HOOK_A_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* nc_hooks_hits - every hook's hits on @cpu since load */
u64 nc_hooks_hits(int cpu)
{
	u64 hits = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++)
		hits += READ_ONCE(*per_cpu_ptr(nc_hooks[i].hh.hits, cpu));
	return hits;
}

/* nc_hooks_put - one NETCOST_A_HOOK nest per hook */
int nc_hooks_put(struct sk_buff *skb)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(nc_hooks); i++) {
		err = nc_hook_put(skb, &nc_hooks[i]);
		if (err)
			return err;
	}
	return 0;
}
