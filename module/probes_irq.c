// SPDX-License-Identifier: GPL-2.0
/*
 * probes_irq.c - hardirq handlers, threaded handlers and irq_exit().
 *
 * hardirq / hardirq_other: one primary handler run, irq_handler_entry ->
 * irq_handler_exit.  Handlers do not nest, so one per-CPU start time is
 * enough; the run's cycles are added to the CPU's hard_total, which every
 * other stage subtracts.
 *
 * irq_thread: one threaded-handler run of a NIC IRQ, by kretprobe on
 * irq_forced_thread_fn()/irq_thread_fn().  The start time lives in the
 * kretprobe instance, the excluded time in the task table: on RT the
 * thread can be preempted and migrated mid-run.  The softirq work that
 * local_bh_enable() does at the end of a forced-threaded run is part of
 * the run (and also shows as net_rx_in_irq_thread).
 *
 * Which IRQs are a NIC's: nc_irq_is_nic() (nic.c).
 */
#include <linux/bitmap.h>
#include <linux/interrupt.h>
#include <linux/irqnr.h>
#include <linux/kprobes.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "netcost.h"

void nc_tp_irq_handler_entry(void *data, int irq, struct irqaction *action)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);

	c->hardirq_irq = irq;
	c->hardirq_nic = nc_irq_is_nic(irq, action->name);
	nc_probe_end(t0);
	c->hardirq_start = nc_now();
}

void nc_tp_irq_handler_exit(void *data, int irq, struct irqaction *action,
			    int ret)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	u64 d;

	if (!c->hardirq_start || c->hardirq_irq != irq)
		goto out;
	d = now - c->hardirq_start;
	c->hardirq_start = 0;
	c->hard_total += d;
	if (c->hardirq_nic) {
		nc_record(NETCOST_STAGE_HARDIRQ, d);
		nc_count(NETCOST_CTR_NIC_IRQS, 1);
	} else {
		nc_record(NETCOST_STAGE_HARDIRQ_OTHER, d);
	}
out:
	nc_probe_end(t0);
}

/*
 * nc_krp_irq_exit_entry/ret - track whether this CPU is inside
 * irq_exit_rcu(), where a stock kernel runs pending softirqs.  Depth,
 * because an interrupt can nest inside those softirqs.
 */
int nc_krp_irq_exit_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 t0 = nc_probe_begin(nc_krp_hook(ri));

	this_nc_cpu()->irq_exit_depth++;
	nc_probe_end(t0);
	return 0;
}

int nc_krp_irq_exit_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct nc_cpu *c = this_nc_cpu();

	if (c->irq_exit_depth > 0)
		c->irq_exit_depth--;
	return 0;
}

/*
 * nc_krp_irq_thread_entry - a threaded handler starts: open the task's
 * IRQ-thread frame.  Returning non-zero skips the return probe, for
 * handlers that are not a NIC's.
 */
int nc_krp_irq_thread_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct irqaction *action = (void *)regs_get_kernel_argument(regs, 1);
	struct nc_irq_thread_run *run = (void *)ri->data;
	u64 t0 = nc_probe_begin(nc_krp_hook(ri));
	struct nc_task *t;
	int skip = 1;

	if (!action || !nc_irq_is_nic(action->irq, action->name))
		goto out;
	t = nc_task_get(current);
	if (!t)
		goto out;
	nc_task_settle(t, this_nc_cpu());
	t->frames |= NC_FRAME_IRQ_THREAD;
	t->thr_excl = 0;
	run->irq = action->irq;
	skip = 0;
out:
	nc_probe_end(t0);
	run->start = nc_now();
	return skip;
}

/* nc_krp_irq_thread_ret - the run ends, wherever the thread now is */
int nc_krp_irq_thread_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 now = nc_now();
	struct nc_irq_thread_run *run = (void *)ri->data;
	u64 t0 = nc_probe_begin(NULL);
	struct nc_task *t = nc_task_find(current);
	u64 gross = now - run->start;

	if (!t || !(t->frames & NC_FRAME_IRQ_THREAD))
		goto out;
	nc_task_settle(t, this_nc_cpu());
	t->frames &= ~NC_FRAME_IRQ_THREAD;
	nc_record(NETCOST_STAGE_IRQ_THREAD,
		  gross > t->thr_excl ? gross - t->thr_excl : 0);
out:
	nc_probe_end(t0);
	return 0;
}
