// SPDX-License-Identifier: GPL-2.0
/*
 * probes_irq.c - hardirq handlers, threaded handlers and irq_exit().
 * The definitions are Documentation/stages.md's; this file says where
 * its probes take the stamps that implement them.
 *
 * hardirq / hardirq_other: one primary handler run, irq_handler_entry ->
 * irq_handler_exit.  Handlers do not nest, so one per-CPU start time is
 * enough; the run's cycles are added to the CPU's hard_total, which every
 * other stage subtracts.  hardirq_vectors: the same for x86 system
 * vectors (irq_vectors tracepoints) and NMI handlers (nmi_handler).
 *
 * irq_thread: one run of a NIC's IRQ thread, from one handler call to the
 * next: irq_thread() goes back to irq_wait_for_interrupt() after every
 * handler call, and that asks kthread_should_stop() first, before the
 * thread sleeps or runs the handler again (6.1 to 7.x; 7.x checks the
 * thread's affinity just before it).  A run ends at the first
 * kthread_should_stop() after a handler call (the entry of
 * irq_forced_thread_fn() or irq_thread_fn()), and the next starts at
 * the same stamp: the runs hold everything the thread runs, its loop
 * around the handler, its way into schedule() and its wake-up (from
 * finish_task_switch() on: the switch itself is ctx_switch's), but the
 * few instructions of kthread_should_stop() before the stamp, as a NAPI
 * thread's do (probes_net.c).  The thread's first run, after netcost
 * learnt it is a NIC's, starts at the handler's entry.  Net of the time
 * off CPU and of the interrupts and softirqs inside, as a NAPI thread's
 * run: the softirqs that local_bh_enable() runs at the end of a
 * forced-threaded handler are in their own stages (NET_RX's also counted
 * in net_rx_in_irq_thread), and irq_thread_excl_cycles sums what was
 * taken out (0.6.0; until then the run held the softirqs, and a
 * packet's total took NET_RX's share back out).  The run's state lives
 * in the task table: on RT the thread can be preempted and migrated
 * mid-run.
 *
 * Which IRQs are a NIC's: nc_irq_is_nic() (nic.c).
 */
#include <linux/bitmap.h>
#include <linux/ftrace.h>
#include <linux/interrupt.h>
#include <linux/irqnr.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/tsc.h>

#include "netcost.h"
#include "clock.h"
#include "hist.h"
#include "nic.h"
#include "probes.h"
#include "tasks.h"

/*
 * nc_irq_came - an interrupt starts (irq_handler_entry, a system vector):
 * on a stock kernel, a softirq run at its irq_exit() runs in no
 * do_softirq() of the task it interrupted, unless that task was serving
 * a softirq (then irq_exit() runs none).  See nc_fe_do_softirq().
 */
static __always_inline void nc_irq_came(struct nc_cpu *c)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_RT) && !in_serving_softirq())
		c->bh_owner = NULL;
}

void nc_tp_irq_handler_entry(void *data, int irq, struct irqaction *action)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;

	nc_irq_came(c);
	c->hardirq_irq = irq;
	c->hardirq_nic = nc_irq_is_nic(irq, action->name);
	nc_probe_end(t0);
	nc_stamp(c, &st);
	c->hardirq_hard = st.hard;
	c->hardirq_start = st.now;
}

/*
 * nc_hard_end - a hard frame ended: its net cycles (less the NMIs inside
 * it, which added their own) go to this CPU's hard_total, in one
 * instruction, since an NMI may add to it at any time.
 */
static u64 nc_hard_end(struct nc_cpu *c, u64 start, u64 hard_at_start)
{
	struct nc_stamp st;
	u64 d;

	nc_stamp(c, &st);
	d = nc_net(st.now, start, st.hard - hard_at_start);
	this_cpu_add(nc_cpu.hard_total, d);
	return d;
}

void nc_tp_irq_handler_exit(void *data, int irq, struct irqaction *action,
			    int ret)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->hardirq_start;
	u64 t0, d;

	if (!start || c->hardirq_irq != irq) {
		nc_probe_end(nc_hit(data));
		return;
	}
	/* an end: stamped first, the hit counted after */
	d = nc_hard_end(c, start, c->hardirq_hard);
	t0 = nc_hit(data);
	c->hardirq_start = 0;
	if (c->hardirq_nic) {
		nc_record(NETCOST_STAGE_HARDIRQ, d);
		nc_count(NETCOST_CTR_NIC_IRQS, 1);
	} else {
		nc_record(NETCOST_STAGE_HARDIRQ_OTHER, d);
	}
	nc_probe_end(t0);
}

/*
 * nc_tp_vector_entry/exit - x86 system vectors (local APIC timer, IPIs,
 * irq_work, ...; the irq_vectors tracepoints, one probe pair for all):
 * interrupt time like any handler's, recorded as hardirq_vectors.  They
 * do not nest in each other or in a handler (interrupts are off).
 */
void nc_tp_vector_entry(void *data, int vector)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;

	nc_irq_came(c);
	nc_probe_end(t0);
	nc_stamp(c, &st);
	c->vector_hard = st.hard;
	c->vector_start = st.now;
}

void nc_tp_vector_exit(void *data, int vector)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->vector_start;
	u64 t0, d;

	if (!start) {
		nc_probe_end(nc_hit(data));
		return;
	}
	d = nc_hard_end(c, start, c->vector_hard);
	t0 = nc_hit(data);
	c->vector_start = 0;
	nc_record(NETCOST_STAGE_HARDIRQ_VECTORS, d);
	nc_probe_end(t0);
}

/*
 * nc_tp_nmi_handler - one NMI handler ran for @delta_ns (the kernel's
 * own measurement; there is no entry event): its cycles are interrupt
 * time of whatever it interrupted.
 */
void nc_tp_nmi_handler(void *data, void *handler, s64 delta_ns, int handled)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	u64 d;

	if (delta_ns > 0) {
		d = mul_u64_u32_div(delta_ns, tsc_khz, NSEC_PER_MSEC);
		this_cpu_add(nc_cpu.hard_total, d);
		nc_record(NETCOST_STAGE_HARDIRQ_VECTORS, d);
	}
	nc_probe_end(t0);
}

/*
 * nc_fe_do_softirq - do_softirq()'s entry: the way a stock kernel's
 * local_bh_enable() runs pending softirqs, in the current task.  A
 * softirq run anywhere else on a stock kernel, but in ksoftirqd, comes
 * from irq_exit().  The mark stays until the next interrupt that does
 * not land in a softirq (nc_irq_came()): every irq_exit() run follows
 * one, and do_softirq() runs with interrupts off until it serves a
 * softirq, so no return hook is needed (a kretprobe here cost more than
 * the rest of the softirq group).  Preemption is off in its callers
 * (__local_bh_enable_ip()); one per-CPU write all the same.
 */
void nc_fe_do_softirq(void *hook, struct ftrace_regs *fregs)
{
	u64 t0 = nc_hit(hook);

	this_cpu_write(nc_cpu.bh_owner, current);
	nc_probe_end(t0);
}

/*
 * nc_fe_irq_thread - a threaded handler starts (the entry of
 * irq_forced_thread_fn() or irq_thread_fn(), in the IRQ thread, which
 * runs preemptible: preemption off here for the per-CPU state).  For a
 * NIC's IRQ the thread's run is open from here on (its first: opened
 * here); the call marks it to end at the next kthread_should_stop().  A
 * call inside a run that has called already is part of that call: since
 * 7.x irq_forced_thread_fn() calls irq_thread_fn().  An IRQ that is no
 * longer a NIC's (CONFIG) drops the thread's run.
 */
void nc_fe_irq_thread(void *hook, struct ftrace_regs *fregs)
{
	struct irqaction *action;
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	preempt_disable_notrace();
	t0 = nc_hit(hook);
	action = fregs ? (void *)nc_fe_arg(fregs, 1) : NULL;
	if (!action || !nc_irq_is_nic(action->irq, action->name)) {
		t = nc_task_cur();
		if (t)
			t->frames &= ~NC_FRAME_IRQ_THREAD;
		goto out;
	}
	t = nc_task_cur_get();
	if (!t)
		goto out;
	if (t->frames & NC_FRAME_IRQ_THREAD) {
		t->thr_worked = 1;
		goto out;
	}
	nc_probe_end(t0);
	nc_stamp(this_nc_cpu(), &st);
	nc_task_settle(t, &st);
	t->frames |= NC_FRAME_IRQ_THREAD;
	t->thr_excl = 0;
	t->thr_irq = 0;
	t->thr_start = st.now;
	t->thr_worked = 1;
	preempt_enable_notrace();
	return;

out:
	nc_probe_end(t0);
	preempt_enable_notrace();
}

/*
 * nc_fe_kthread_should_stop - every kthread's loop asks it: in a NIC's
 * IRQ thread whose run called its handler, that run ends (wherever the
 * thread now is) and the next starts at the same stamp; any other call
 * (other kthreads, the IRQ thread again after it woke) leaves at once,
 * its hit not even counted.  The look-up comes before the end stamp, so
 * that the calls that end nothing take none: the run holds those few
 * instructions too.
 */
static noinline void nc_irq_thread_stop(void *hook)
{
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	preempt_disable_notrace();
	t = nc_task_cur();
	if (!t || !(t->frames & NC_FRAME_IRQ_THREAD) || !t->thr_worked)
		goto out;
	nc_stamp(this_nc_cpu(), &st);
	t0 = nc_hit(hook);
	nc_task_settle(t, &st);
	nc_record(NETCOST_STAGE_IRQ_THREAD, nc_net(st.now, t->thr_start, t->thr_excl));
	nc_count(NETCOST_CTR_IRQ_THREAD_EXCL_CYCLES, t->thr_irq);
	t->thr_start = st.now;
	t->thr_excl = 0;
	t->thr_irq = 0;
	t->thr_worked = 0;
	nc_probe_end(t0);
out:
	preempt_enable_notrace();
}

void nc_fe_kthread_should_stop(void *hook, struct ftrace_regs *fregs)
{
	/*
	 * the filter inline, the body (its frame set up) only in IRQ threads
	 * and NAPI threads (probes_net.c)
	 */
	switch (nc_task_kind(current)) {
	case NC_TASK_IRQ_THREAD:
		nc_irq_thread_stop(hook);
		break;
	case NC_TASK_NAPI_THREAD:
		nc_napi_thread_mark(hook);
		break;
	default:
		break;
	}
}
