// SPDX-License-Identifier: GPL-2.0
/*
 * probes_softirq.c - softirq runs, net of nested hardirqs, and where each
 * NET_RX run happened.
 * The definitions are Documentation/stages.md's; this file says where
 * its probes take the stamps that implement them.
 *
 * softirq_net_rx / softirq_net_tx / softirq_other: softirq_entry ->
 * softirq_exit of one vector.  Softirqs do not nest on a CPU (on RT up
 * to 6.17, and with CONFIG_PREEMPT_RT_NEEDS_BH_LOCK, the per-CPU BH lock
 * serialises them), so one per-CPU frame is enough; it pauses while its
 * owner is switched out.  Without that lock (NC_BH_PER_TASK) a task in a
 * softirq can be preempted by another that runs one on the same CPU:
 * each task's run is its own frame, in its task slot (nc_bh_get()).
 * Either way the task cannot migrate inside the run.  The run's net
 * cycles go to the CPU's soft_total, which system calls subtract.
 *
 * Where NET_RX ran:
 *   net_rx_in_irq_exit		at irq_exit() (stock kernels: any run that is
 *				not in do_softirq() or ksoftirqd)
 *   net_rx_in_ksoftirqd	in a ksoftirqd thread
 *   net_rx_in_irq_thread	in a NIC IRQ thread's run (the irq_thread
 *				stage), at its local_bh_enable() (RT, or
 *				stock with threadirqs): the part of
 *				irq_thread that is NET_RX
 *   net_rx_in_other_irq_thread	in any other IRQ thread
 *   net_rx_in_napi_thread	in a NAPI thread (RT's backlog threads too),
 *				at its local_bh_enable(): a NET_RX its poll
 *				raised (RPS to this CPU's backlog), taken out
 *				of the napi_thread run like any softirq
 *   net_rx_in_task_bh_enable	in any other task, at local_bh_enable()
 */
#include <linux/interrupt.h>
#include <linux/sched/task_stack.h>

#include "netcost.h"
#include "clock.h"
#include "hist.h"
#include "probes.h"
#include "tasks.h"

static const enum netcost_counter nc_net_rx_where[] = {
	[NC_IN_IRQ_EXIT]	= NETCOST_CTR_NET_RX_IN_IRQ_EXIT,
	[NC_IN_KSOFTIRQD]	= NETCOST_CTR_NET_RX_IN_KSOFTIRQD,
	[NC_IN_IRQ_THREAD]	= NETCOST_CTR_NET_RX_IN_IRQ_THREAD,
	[NC_IN_OTHER_IRQ_THREAD] = NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD,
	[NC_IN_TASK_BH_ENABLE]	= NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE,
	[NC_IN_NAPI_THREAD]	= NETCOST_CTR_NET_RX_IN_NAPI_THREAD,
};

/* nc_softirq_in_thread - NET_RX in an IRQ thread: in a NIC run, or not */
static enum nc_softirq_ctx nc_softirq_in_thread(void)
{
	struct nc_task *t = nc_task_cur();

	return t && (t->frames & NC_FRAME_IRQ_THREAD) ?
	       NC_IN_IRQ_THREAD : NC_IN_OTHER_IRQ_THREAD;
}

/*
 * nc_softirq_where - the context a softirq run starts in.  A stock
 * kernel runs softirqs in do_softirq() (local_bh_enable(), in a task or
 * an IRQ thread), in ksoftirqd, or else at irq_exit(); PREEMPT_RT runs
 * them at local_bh_enable() in the task, in ksoftirqd or in IRQ threads,
 * never at irq_exit().  An interrupt can also land in ksoftirqd between
 * its runs, and its irq_exit() run softirqs there (6.1 does, with a
 * tasklet pending): that run is at irq_exit(), on the IRQ stack, while
 * ksoftirqd's own runs are on its task stack.
 */
static enum nc_softirq_ctx nc_softirq_where(const struct nc_cpu *c)
{
	enum nc_task_kind kind = nc_task_kind(current);
	int here;

	if (IS_ENABLED(CONFIG_PREEMPT_RT) || c->bh_owner == current) {
		switch (kind) {
		case NC_TASK_KSOFTIRQD:
			return NC_IN_KSOFTIRQD;
		case NC_TASK_IRQ_THREAD:
			return nc_softirq_in_thread();
		case NC_TASK_NAPI_THREAD:
			return NC_IN_NAPI_THREAD;
		default:
			return NC_IN_TASK_BH_ENABLE;
		}
	}
	return kind == NC_TASK_KSOFTIRQD && object_is_on_stack(&here) ?
	       NC_IN_KSOFTIRQD : NC_IN_IRQ_EXIT;
}

void nc_tp_softirq_entry(void *data, unsigned int vec)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;
	struct nc_bh *b;

	b = nc_bh_get(c);
	if (!b) {
		nc_probe_end(t0);
		return;
	}
	b->softirq_vec = vec;
	b->softirq_ctx = nc_softirq_where(c);
	nc_probe_end(t0);
	nc_stamp(c, &st);
	nc_frame_begin(&b->softirq, &st);
	if (vec == NET_RX_SOFTIRQ) {
		nc_frame_begin(&b->napi, &st);
		b->poll_rx = 0;
	}
}

void nc_tp_softirq_exit(void *data, unsigned int vec)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	enum netcost_counter where;
	struct nc_stamp st;
	struct nc_bh *b;
	u64 t0, net;

	/* an end: stamped first, the hit counted after */
	nc_stamp(c, &st);
	t0 = nc_hit(data);
	b = nc_bh_find(c);
	if (!b || !b->softirq.depth || b->softirq_vec != vec)
		goto out;
	net = nc_frame_end(&b->softirq, &st);
	this_cpu_add(nc_cpu.soft_total, net);
	b->napi.depth = 0;

	switch (vec) {
	case NET_RX_SOFTIRQ:
		/* a list GRO flushed after the last poll's event */
		nc_rx_flush_end(b, &st);
		nc_record(NETCOST_STAGE_SOFTIRQ_NET_RX, net);
		where = nc_net_rx_where[b->softirq_ctx];
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
	nc_bh_put(b);
out:
	nc_probe_end(t0);
}
