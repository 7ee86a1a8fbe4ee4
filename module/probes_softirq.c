// SPDX-License-Identifier: GPL-2.0
/*
 * probes_softirq.c - softirq runs, net of nested hardirqs, and where each
 * NET_RX run happened.
 *
 * softirq_net_rx / softirq_net_tx / softirq_other: softirq_entry ->
 * softirq_exit of one vector.  Softirqs do not nest on a CPU (on RT the
 * per-CPU BH lock serialises them and keeps the task on the CPU), so one
 * per-CPU frame is enough; it pauses while its owner is switched out.
 * The run's net cycles go to the CPU's soft_total, which system calls
 * subtract.
 *
 * Where NET_RX ran:
 *   net_rx_in_irq_exit		inside irq_exit_rcu() (stock kernels)
 *   net_rx_in_ksoftirqd	in a ksoftirqd thread
 *   net_rx_in_irq_thread	in a NIC IRQ thread's run (the irq_thread
 *				stage), at its local_bh_enable() (RT, or
 *				stock with threadirqs): the part of
 *				irq_thread that is NET_RX
 *   net_rx_in_other_irq_thread	in any other IRQ thread
 *   net_rx_in_task_bh_enable	in any other task, at local_bh_enable()
 */
#include <linux/interrupt.h>

#include "netcost.h"

static const enum netcost_counter nc_net_rx_where[] = {
	[NC_IN_IRQ_EXIT]	= NETCOST_CTR_NET_RX_IN_IRQ_EXIT,
	[NC_IN_KSOFTIRQD]	= NETCOST_CTR_NET_RX_IN_KSOFTIRQD,
	[NC_IN_IRQ_THREAD]	= NETCOST_CTR_NET_RX_IN_IRQ_THREAD,
	[NC_IN_OTHER_IRQ_THREAD] = NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD,
	[NC_IN_TASK_BH_ENABLE]	= NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE,
};

/* nc_softirq_where - the context a softirq run starts in */
static enum nc_softirq_ctx nc_softirq_where(const struct nc_cpu *c)
{
	if (c->irq_exit_depth > 0)
		return NC_IN_IRQ_EXIT;
	switch (nc_task_kind(current)) {
	case NC_TASK_KSOFTIRQD:
		return NC_IN_KSOFTIRQD;
	case NC_TASK_IRQ_THREAD: {
		struct nc_task *t = nc_task_find(current);

		return t && (t->frames & NC_FRAME_IRQ_THREAD) ?
		       NC_IN_IRQ_THREAD : NC_IN_OTHER_IRQ_THREAD;
	}
	default:
		return NC_IN_TASK_BH_ENABLE;
	}
}

void nc_tp_softirq_entry(void *data, unsigned int vec)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	struct nc_stamp st;

	c->softirq_vec = vec;
	c->softirq_ctx = nc_softirq_where(c);
	nc_probe_end(t0);
	nc_stamp(c, &st);
	nc_frame_begin(&c->softirq, &st);
	if (vec == NET_RX_SOFTIRQ)
		nc_frame_begin(&c->napi, &st);
}

void nc_tp_softirq_exit(void *data, unsigned int vec)
{
	struct nc_cpu *c = this_nc_cpu();
	enum netcost_counter where;
	struct nc_stamp st;
	u64 t0, net;

	nc_stamp(c, &st);
	t0 = nc_probe_begin(data);
	if (!c->softirq.depth || c->softirq_vec != vec)
		goto out;
	net = nc_frame_end(&c->softirq, &st);
	this_cpu_add(nc_cpu.soft_total, net);
	c->napi.depth = 0;

	switch (vec) {
	case NET_RX_SOFTIRQ:
		nc_record(NETCOST_STAGE_SOFTIRQ_NET_RX, net);
		where = nc_net_rx_where[c->softirq_ctx];
		nc_count(where, 1);
		/* each place's _CYCLES counter follows its count */
		nc_count(where + 1, net);
		break;
	case NET_TX_SOFTIRQ:
		nc_record(NETCOST_STAGE_SOFTIRQ_NET_TX, net);
		break;
	default:
		nc_record(NETCOST_STAGE_SOFTIRQ_OTHER, net);
		break;
	}
out:
	nc_probe_end(t0);
}
