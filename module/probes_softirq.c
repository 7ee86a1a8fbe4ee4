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
 *   net_rx_in_irq_thread	in an IRQ thread, at its local_bh_enable()
 *				(RT, or stock with threadirqs)
 *   net_rx_in_task_bh_enable	in any other task, at local_bh_enable()
 */
#include <linux/interrupt.h>

#include "netcost.h"

static const enum netcost_counter nc_net_rx_where[] = {
	[NC_IN_IRQ_EXIT]	= NETCOST_CTR_NET_RX_IN_IRQ_EXIT,
	[NC_IN_KSOFTIRQD]	= NETCOST_CTR_NET_RX_IN_KSOFTIRQD,
	[NC_IN_IRQ_THREAD]	= NETCOST_CTR_NET_RX_IN_IRQ_THREAD,
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
	case NC_TASK_IRQ_THREAD:
		return NC_IN_IRQ_THREAD;
	default:
		return NC_IN_TASK_BH_ENABLE;
	}
}

void nc_tp_softirq_entry(void *data, unsigned int vec)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	u64 now;

	c->softirq_vec = vec;
	c->softirq_ctx = nc_softirq_where(c);
	nc_probe_end(t0);
	now = nc_now();
	nc_frame_begin(&c->softirq, c, now);
	if (vec == NET_RX_SOFTIRQ)
		nc_frame_begin(&c->napi, c, now);
}

void nc_tp_softirq_exit(void *data, unsigned int vec)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	enum netcost_counter where;
	u64 net;

	if (!c->softirq.depth || c->softirq_vec != vec)
		goto out;
	net = nc_frame_end(&c->softirq, c, now);
	c->soft_total += net;
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
