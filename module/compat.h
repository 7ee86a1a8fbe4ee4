/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference netcost knows of.
 *
 * Kbuild force-includes this file into every source file, so that no
 * other file carries a LINUX_VERSION_CODE check.
 *
 * Tested kernels: 6.1.y, 6.12.y and 7.3.y, stock and PREEMPT_RT (the
 * lab's Debian kernels).  Every tracepoint probe's prototype is checked by the
 * compiler against the kernel's own trace/events headers (probe_types.c),
 * so a changed tracepoint fails the build on any kernel.  What the
 * compiler cannot check - kprobe symbols and the semantics of the hooks
 * (which function runs a threaded handler, where softirqs run) - has
 * been checked in the lab on the tested kernels only, so any other
 * kernel is refused at build time unless the user asks for it:
 *
 *	make module KDIR=... NETCOST_ALLOW_UNTESTED=y
 *
 * Then INFO shows which hooks attached, and the lab's checks (tests/lab)
 * are the way to trust the figures.
 *
 * 7.3 changed the context, not the prototypes (but sched_process_exit's):
 * it calls tracepoint probes inside an SRCU-fast read section, not with
 * preemption disabled, and sys_enter/sys_exit are faultable tracepoints,
 * so every tracepoint probe disables preemption itself (NC_TP_GUARD()).
 */
#ifndef _NETCOST_COMPAT_H
#define _NETCOST_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "netcost supports Linux 6.1 and later"
#endif

#define NC_KERNEL_IS(a, b) \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, 0) && \
	 LINUX_VERSION_CODE < KERNEL_VERSION(a, (b) + 1, 0))

#if !NC_KERNEL_IS(6, 1) && !NC_KERNEL_IS(6, 12) && !NC_KERNEL_IS(7, 3) && \
	!defined(NC_ALLOW_UNTESTED)
#error "netcost: untested kernel version (tested: 6.1, 6.12, 7.3); NETCOST_ALLOW_UNTESTED=y to try"
#endif

/*
 * sched_process_exit gained a "bool group_dead" argument after 6.12 (7.3
 * has it); probe_types.c fails the build if this gate is wrong.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define NC_SCHED_PROCESS_EXIT_ARGS	struct task_struct *p, bool group_dead
#else
#define NC_SCHED_PROCESS_EXIT_ARGS	struct task_struct *p
#endif

/*
 * NC_SCHED_DELAYED - a task that went to sleep but is still on its
 * runqueue: since 6.12, EEVDF's delayed dequeue keeps a fair task queued
 * (se.sched_delayed) until its lag is spent, and a wake-up then only
 * requeues it.  Found by the oracle's threaded-NAPI recordings: the NAPI
 * threads (SCHED_OTHER) lost 2-3 of ~6,000 wake-ups on 6.12.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define NC_SCHED_DELAYED(p)	READ_ONCE((p)->se.sched_delayed)
#else
#define NC_SCHED_DELAYED(p)	0
#endif

/*
 * NC_TP_GUARD - the first line of every tracepoint probe (a declaration,
 * or nothing: it carries its own semicolon), or of its body where a
 * filter that touches no per-CPU state comes before it (sys_enter).  Up to
 * 6.12 the kernel calls tracepoint probes with preemption disabled; later
 * kernels (7.3 among them) call them inside an SRCU-fast read section, or
 * preemptible (faultable sys_enter/sys_exit), so the probe disables
 * preemption itself, until it returns, for its per-CPU state.
 * (k/kretprobe handlers always run with preemption disabled.)
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#include <linux/cleanup.h>
#include <linux/preempt.h>
#define NC_TP_GUARD()	guard(preempt_notrace)();
#else
#define NC_TP_GUARD()
#endif

/*
 * NC_BH_PER_TASK - whether the frames of softirq processing (the softirq
 * run and the NAPI poll, rx and tx frames nested in it) must live in the
 * task, not the CPU.  PREEMPT_RT runs softirqs preemptible, in the task
 * that disables BHs; up to 6.17 a per-CPU local lock (softirq_ctrl.lock)
 * serialises those sections, so one set of frames per CPU is enough.
 * Since 6.18 ("softirq: Allow to drop the softirq-BKL lock on
 * PREEMPT_RT", 3253cb49cbad) local_bh_disable() only disables migration
 * unless CONFIG_PREEMPT_RT_NEEDS_BH_LOCK keeps the lock: a task in a
 * softirq can be preempted by another that runs a softirq on the same
 * CPU (Debian's 7.3 RT kernel: the option is off).  The task still
 * cannot migrate, so its frames keep using this CPU's totals.
 */
#if IS_ENABLED(CONFIG_PREEMPT_RT) && !IS_ENABLED(CONFIG_PREEMPT_RT_NEEDS_BH_LOCK) && \
	LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define NC_BH_PER_TASK	1
#else
#define NC_BH_PER_TASK	0
#endif

/*
 * A NAPI instance's IRQ: napi->irq, set by drivers that call
 * netif_napi_set_irq() (6.8); -1 before, and where a driver set none.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define NC_NAPI_IRQ(n)	READ_ONCE((n)->irq)
#else
#define NC_NAPI_IRQ(n)	(-1)
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
 * nc_fe_arg - argument @n of a function hooked through netcost's
 * ftrace_ops: its registers are saved without FTRACE_OPS_FL_SAVE_REGS on
 * x86-64 (DYNAMIC_FTRACE_WITH_ARGS); ftrace_regs_get_argument() since
 * 6.5, the pt_regs inside struct ftrace_regs before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define nc_fe_arg(fregs, n)	ftrace_regs_get_argument(fregs, n)
#else
#define nc_fe_arg(fregs, n)	regs_get_kernel_argument(&(fregs)->regs, n)
#endif

/*
 * The name of finish_task_switch() in kallsyms depends on what the
 * compiler did to it; netcost tries these in order at load.
 */
#define NC_FINISH_TASK_SWITCH_NAMES \
	"finish_task_switch.isra.0", "finish_task_switch", \
	"finish_task_switch.part.0", "finish_task_switch.constprop.0"

/*
 * do_softirq() is split by the compiler on Debian's 6.1 and 6.12: the
 * in_interrupt() test stays in do_softirq(), the work goes to
 * do_softirq.part.0, which __local_bh_enable_ip() (already past that
 * test) calls directly.  Probing the part catches both callers.
 */
#define NC_DO_SOFTIRQ_NAMES \
	"do_softirq.part.0", "do_softirq"

/*
 * x86's per-CPU interrupt counts (irq_stat): named fields up to 6.12, an
 * array indexed by enum irq_stat_counts on 7.3 (the lab's kernels in
 * between those two; a kernel of the other layout fails to build here).
 * NC_IRQ_STAT(cpu, field, index) reads one of them.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)
#define NC_IRQ_STAT(cpu, field, index)	per_cpu(irq_stat, cpu).counts[IRQ_COUNT_##index]
#else
#define NC_IRQ_STAT(cpu, field, index)	per_cpu(irq_stat, cpu).field
#endif

#endif /* _NETCOST_COMPAT_H */
