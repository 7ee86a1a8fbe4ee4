// SPDX-License-Identifier: GPL-2.0
/*
 * probes_net.c - NAPI polls, received packets, transmitted packets.
 *
 * napi_poll: the kernel has a tracepoint only after a poll, so a poll's
 * cost runs from the start of the NET_RX softirq, or from the end of the
 * previous poll in the same run, to its napi_poll event: net_rx_action()'s
 * loop overhead is charged to the poll that follows it.  Polls outside a
 * NET_RX softirq (busy polling, threaded NAPI) count their work only.
 * napi_poll_work is the packets per poll; a poll that used its whole
 * budget counts in napi_budget_exhausted.
 *
 * rx_skb: one packet handed to the stack, from netif_receive_skb_entry,
 * napi_gro_receive_entry or netif_rx_entry to the matching _exit.  With
 * GRO, the stack may deliver a batch of earlier packets inside a later
 * napi_gro_receive(); that run carries their cost.  A nested entry (a
 * tunnel re-injecting a packet) counts a packet but not a second run.
 *
 * tx_xmit: one packet through a driver's xmit, net_dev_start_xmit ->
 * net_dev_xmit, loopback excluded.
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "netcost.h"

void nc_tp_napi_poll(void *data, struct napi_struct *napi, int work,
		     int budget)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);

	nc_record(NETCOST_STAGE_NAPI_POLL_WORK, work > 0 ? work : 0);
	if (work >= budget)
		nc_count(NETCOST_CTR_NAPI_BUDGET_EXHAUSTED, 1);
	if (c->napi.depth && c->napi.owner == current) {
		nc_record(NETCOST_STAGE_NAPI_POLL, nc_frame_end(&c->napi, c, now));
		nc_probe_end(t0);
		nc_frame_begin(&c->napi, c, nc_now());
		return;
	}
	nc_probe_end(t0);
}

/* nc_frame_nest - open @f, or go one level deeper if it is open */
static bool nc_frame_nest(struct nc_frame *f)
{
	if (f->depth && f->owner == current) {
		f->depth++;
		return true;
	}
	return false;
}

/* nc_frame_unnest - whether this exit closes the outermost level */
static bool nc_frame_unnest(struct nc_frame *f)
{
	if (!f->depth || f->owner != current)
		return false;
	return --f->depth == 0;
}

void nc_tp_rx_entry(void *data, const struct sk_buff *skb)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);

	nc_count(NETCOST_CTR_RX_PACKETS, 1);
	if (nc_frame_nest(&c->rx)) {
		nc_probe_end(t0);
		return;
	}
	nc_probe_end(t0);
	nc_frame_begin(&c->rx, c, nc_now());
}

void nc_tp_rx_exit(void *data, int ret)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);

	if (nc_frame_unnest(&c->rx)) {
		nc_record(NETCOST_STAGE_RX_SKB, nc_frame_end(&c->rx, c, now));
	}
	nc_probe_end(t0);
}

void nc_tp_start_xmit(void *data, const struct sk_buff *skb,
		      const struct net_device *dev)
{
	struct nc_cpu *c = this_nc_cpu();
	u64 t0;

	if (dev->flags & IFF_LOOPBACK)
		return;
	t0 = nc_probe_begin(data);
	nc_count(NETCOST_CTR_TX_PACKETS, 1);
	if (nc_frame_nest(&c->tx)) {
		nc_probe_end(t0);
		return;
	}
	nc_probe_end(t0);
	nc_frame_begin(&c->tx, c, nc_now());
}

void nc_tp_xmit(void *data, struct sk_buff *skb, int rc,
		struct net_device *dev, unsigned int skb_len)
{
	u64 now = nc_now();
	struct nc_cpu *c = this_nc_cpu();
	u64 t0;

	if (dev->flags & IFF_LOOPBACK)
		return;
	t0 = nc_probe_begin(data);
	if (nc_frame_unnest(&c->tx)) {
		nc_record(NETCOST_STAGE_TX_XMIT, nc_frame_end(&c->tx, c, now));
	}
	nc_probe_end(t0);
}
