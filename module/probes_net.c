// SPDX-License-Identifier: GPL-2.0
/*
 * probes_net.c - NAPI polls, received packets, transmitted packets.
 * The definitions are Documentation/stages.md's; this file says where
 * its probes take the stamps that implement them.
 *
 * napi_poll: the kernel has a tracepoint only after a poll, so a poll's
 * cost runs from the start of the NET_RX softirq, or from the end of the
 * previous poll in the same run, to its napi_poll event: net_rx_action()'s
 * loop overhead is charged to the poll that follows it.  A NAPI thread's
 * polls are timed the same way inside its run (below), a busy-poll
 * loop's inside busy_poll (probes_syscall.c).
 * napi_poll_work is the packets per poll; a poll that used its whole
 * budget counts in napi_budget_exhausted.
 *
 * napi_thread: threaded NAPI (/sys/class/net/DEV/threaded) polls in a
 * "napi/DEV-N" kthread that runs napi_threaded_poll() (nc_task_kind()),
 * with no NET_RX softirq.  Its loop asks kthread_should_stop() in
 * napi_thread_wait() before it sleeps and again after it wakes, each
 * time before it polls.  A run goes from one of those calls to the
 * first one after a poll: it holds the thread's way into schedule(), its
 * wake-up (from finish_task_switch() on: the switch itself is
 * ctx_switch's) and the poll loop, net of interrupts, of softirqs (their
 * own stages; napi_thread_excl_cycles sums what was taken out) and of
 * the time off CPU.  The next run starts at the same stamp, so the runs
 * hold all the thread runs but those few instructions.  The run's state
 * lives in the task table, like an IRQ thread's.  RT's backlog threads
 * ("backlog_napi/N", 6.10+: RPS and netif_rx() backlogs) are NAPI threads
 * too (nc_task_kind()): their smpboot loop asks kthread_should_stop()
 * before each call of its thread function, and their CPU's backlog has
 * napi->thread set to them.  They take only other CPUs' RPS packets: a
 * CPU's own backlog runs in its NET_RX softirq.
 *
 * rx_skb: one packet handed to the stack, from netif_receive_skb_entry,
 * napi_gro_receive_entry, napi_gro_frags_entry or netif_rx_entry to the
 * matching _exit, or a list from netif_receive_skb_list_entry to its one
 * _exit; packets of loopback devices are neither counted nor timed.  With
 * GRO, the stack delivers the packets it passed on (GRO_NORMAL) in lists
 * of gro_normal_batch: inside a later napi_gro_receive(), whose run then
 * carries their cost, or at the poll's end (napi_complete_done(),
 * gro_normal_list()), with no entry event.  There the list is one run,
 * from its first packet's netif_receive_skb event to the poll's napi_poll
 * event (or to the next entry, the NET_RX softirq's end, the NAPI
 * thread's next mark: a poll that used its whole budget flushes after its
 * napi_poll event); its packets were counted at their entries.  A nested
 * entry (a tunnel re-injecting a packet) counts a packet but not a second
 * run.
 * A backlog poll (process_backlog(): RPS, netif_rx()) hands its packets
 * to the stack with no entry event: there a packet runs from its
 * netif_receive_skb event to the next packet's or to the poll's
 * napi_poll event, which holds the loop's few instructions between
 * packets; it counts in rx_backlog_packets, on the CPU that processed
 * it (rx_packets counted it where it entered, before the backlog).
 *
 * tx_xmit: one packet through a driver's xmit, net_dev_start_xmit ->
 * net_dev_xmit, loopback excluded.
 *
 * The frames are this CPU's, or the running task's where softirqs are
 * not serialised per CPU (NC_BH_PER_TASK: nc_bh_get(), probes_softirq.c).
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>

#include "netcost.h"
#include "clock.h"
#include "hist.h"
#include "napi.h"
#include "probes.h"
#include "tasks.h"

/*
 * nc_napi_thread_poll - a poll of the running NAPI thread's own NAPI
 * instance ended at @st: timed from the run's wake-up or its previous
 * poll, net as the run is
 */
static noinline bool nc_napi_thread_poll(const struct nc_stamp *st, u64 *cycles)
{
	struct nc_task *t = nc_task_cur();

	if (!t || !(t->frames & NC_FRAME_NAPI_THREAD))
		return false;
	nc_task_settle(t, st);
	*cycles = nc_net(st->now, t->poll_start, t->thr_excl - t->poll_excl);
	nc_record(NETCOST_STAGE_NAPI_POLL, *cycles);
	t->poll_start = st->now;
	t->poll_excl = t->thr_excl;
	t->thr_worked = 1;
	return true;
}

/*
 * nc_napi_thread_mark - a NAPI thread asks kthread_should_stop()
 * (probes_irq.c): a run that has polled ends, and the next starts at the
 * same stamp; a run that has not (the call after the wake-up) goes on,
 * its polls timed from here.  Preemption off for the per-CPU state (the
 * thread is preemptible here).
 */
void nc_napi_thread_mark(void *hook)
{
	struct nc_stamp st;
	struct nc_task *t;
	struct nc_bh *b;
	u64 t0;

	preempt_disable_notrace();
	/*
	 * an end and a start: stamped first, before the look-up (a poll that
	 * starts here would otherwise miss it), the hit counted after
	 */
	nc_stamp(this_nc_cpu(), &st);
	t0 = nc_hit(hook);
	t = nc_task_cur_get();
	if (!t) {
		nc_probe_end(t0);
		goto out;
	}
	nc_task_settle(t, &st);
	/* a list GRO flushed after a poll's event (a poll that used its budget) */
	b = nc_bh_of(this_nc_cpu(), t);
	if (b && nc_rx_flush_end(b, &st))
		nc_bh_put(b);
	if ((t->frames & NC_FRAME_NAPI_THREAD) && t->thr_worked) {
		nc_record(NETCOST_STAGE_NAPI_THREAD, nc_net(st.now, t->thr_start, t->thr_excl));
		nc_count(NETCOST_CTR_NAPI_THREAD_EXCL_CYCLES, t->thr_irq);
		t->frames &= ~NC_FRAME_NAPI_THREAD;
	}
	if (!(t->frames & NC_FRAME_NAPI_THREAD)) {
		t->frames |= NC_FRAME_NAPI_THREAD;
		t->thr_start = st.now;
		t->thr_excl = 0;
		t->thr_irq = 0;
		t->thr_worked = 0;
	}
	t->poll_start = st.now;
	t->poll_excl = t->thr_excl;
	nc_probe_end(t0);
out:
	preempt_enable_notrace();
}

/*
 * nc_poll_bh - where the running task's polls count the packets they
 * hand on (nc_bh.poll_rx), claiming no task slot (a kthread keeps one it
 * claims): this CPU's frames, or with NC_BH_PER_TASK the task slot's,
 * open or not (NULL: the task has no slot, so none of its poll's
 * entries was counted either)
 */
static __always_inline struct nc_bh *nc_poll_bh(struct nc_cpu *c)
{
#if NC_BH_PER_TASK
	struct nc_task *t = nc_task_cur();

	return t ? &t->bh : NULL;
#else
	return &c->bh;
#endif
}

/*
 * nc_poll_consumed - a poll of @work frames ended: the frames it did not
 * hand to the stack (XDP's drops, transmits and redirects; the driver's
 * own drops) count in rx_frames_consumed.  The packets it handed are its
 * task's rx entries (GRO's included: one entry a frame) and backlog
 * packets since the poll began (NET_RX's start, the previous poll's
 * end).  Not at a NAPI thread's mark or a busy-poll loop's start: on RT
 * another task's poll on this CPU can be preempted there mid-poll, and
 * would lose its count (6.12-rt, one frame in 6,000); an entry counted
 * outside any poll can only make a later poll count fewer.
 */
static void nc_poll_consumed(struct nc_cpu *c, int work)
{
	struct nc_bh *b = nc_poll_bh(c);
	u32 handed;

	if (!b)
		return;
	handed = b->poll_rx;
	b->poll_rx = 0;
	if (work > 0 && (u32)work > handed)
		nc_count(NETCOST_CTR_RX_FRAMES_CONSUMED, work - handed);
}

void nc_tp_napi_poll(void *data, struct napi_struct *napi, int work,
		     int budget)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;
	struct nc_bh *b;
	bool backlog, timed;
	u64 t0, cycles = 0;

	/* an end: stamped first, the hit counted after */
	nc_stamp(c, &st);
	t0 = nc_hit(data);
	nc_record(NETCOST_STAGE_NAPI_POLL_WORK, max(work, 0));
	if (work >= budget)
		nc_count(NETCOST_CTR_NAPI_BUDGET_EXHAUSTED, 1);
	nc_poll_consumed(c, work);
	/* the first poll to end in the backlog poll's task is that poll */
	backlog = c->backlog_owner == current;
	if (unlikely(backlog))
		c->backlog_owner = NULL;
	b = nc_bh_find(c);
	/* the backlog's last packet, or the list GRO delivered at the poll's end */
	if (b && (nc_rx_marked(&b->rx, b->rx.flush) ||
		  (backlog && nc_rx_marked(&b->rx, b->rx.backlog)))) {
		nc_rx_marked_end(&b->rx, &st);
		nc_bh_put(b);
		b = nc_bh_find(c);
	}
	if (b && b->napi.depth && b->napi.owner == current) {
		cycles = nc_frame_end(&b->napi, &st);
		nc_record(NETCOST_STAGE_NAPI_POLL, cycles);
		nc_napi_account(napi, work, true, cycles);
		nc_probe_end(t0);
		nc_stamp(c, &st);
		nc_frame_begin(&b->napi, &st);
		return;
	}
	if (READ_ONCE(napi->thread) == current) {
		timed = nc_napi_thread_poll(&st, &cycles);
	} else {
		nc_busy_poll_mark(napi, work, &st);
		timed = false;
	}
	nc_napi_account(napi, work, timed, cycles);
	nc_probe_end(t0);
}

/* nc_frame_nest - go one level deeper if @f is open in this task */
static __always_inline bool nc_frame_nest(struct nc_frame *f)
{
	if (f->depth && f->owner == current) {
		f->depth++;
		return true;
	}
	return false;
}

/* nc_frame_unnest - whether this exit closes the outermost level */
static __always_inline bool nc_frame_unnest(struct nc_frame *f)
{
	if (!f->depth || f->owner != current)
		return false;
	return --f->depth == 0;
}

/*
 * nc_frame_start - open @f at a stamp taken now, or without one where
 * sampling leaves this event of @kind untimed (nc_sampled())
 */
static __always_inline void nc_frame_start(struct nc_cpu *c, struct nc_frame *f,
					   enum nc_sample_kind kind)
{
	struct nc_stamp st;

	if (!nc_sampled(c, kind)) {
		nc_frame_begin_untimed(f);
		return;
	}
	nc_stamp(c, &st);
	nc_frame_begin(f, &st);
}

/*
 * nc_frame_open - open @f now, or nest into it; the probe sample ends.
 * @f is in softirq frames from nc_bh_get().  A GRO flush list still open
 * in @f (nc_rx_flush_end()) ends first.  A packet that sampling leaves
 * untimed (nc_sampled()) opens it without a stamp.
 */
static __always_inline void nc_frame_open(struct nc_cpu *c, struct nc_frame *f,
					  enum nc_sample_kind kind, u64 t0)
{
	struct nc_stamp st;

	if (unlikely(nc_rx_marked(f, f->flush))) {
		nc_stamp(c, &st);
		nc_rx_marked_end(f, &st);
	}
	nc_probe_end(t0);
	if (!nc_frame_nest(f))
		nc_frame_start(c, f, kind);
}

/*
 * nc_frame_close - leave one level of @f, one of @b's, recording @stage
 * at the last (an untimed frame counts in @stage's _untimed counter);
 * then @b may go back (nc_bh_put())
 */
static __always_inline void nc_frame_close(struct nc_bh *b, struct nc_frame *f,
					   enum netcost_stage stage,
					   const struct nc_stamp *st)
{
	if (!nc_frame_unnest(f))
		return;
	nc_frame_record(f, stage, st);
	nc_bh_put(b);
}

static bool nc_skb_loopback(const struct sk_buff *skb)
{
	return skb->dev && (skb->dev->flags & IFF_LOOPBACK);
}

/*
 * nc_rx_skip - a loopback packet's entry: neither counted nor timed.
 * Its exit carries no skb, so the skipped entries of the running task
 * are counted, and as many exits are skipped.
 */
static void nc_rx_skip(struct nc_bh *b)
{
	if (!b->rx_skip || b->rx_skip_owner != current) {
		b->rx_skip_owner = current;
		b->rx_skip = 0;
	}
	b->rx_skip++;
}

static bool nc_rx_unskip(struct nc_bh *b)
{
	if (!b->rx_skip || b->rx_skip_owner != current)
		return false;
	if (!--b->rx_skip)
		nc_bh_put(b);
	return true;
}

void nc_tp_rx_entry(void *data, const struct sk_buff *skb)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_cpu *c = this_nc_cpu();
	struct nc_bh *b;

	if (nc_skb_loopback(skb)) {
		b = nc_bh_get(c);
		if (b)
			nc_rx_skip(b);
		nc_probe_end(t0);
		return;
	}
	nc_count(NETCOST_CTR_RX_PACKETS, 1);
	if (nc_untimed_net()) {
		nc_probe_end(t0);
		return;
	}
	b = nc_bh_get(c);
	if (!b) {
		nc_probe_end(t0);
		return;
	}
	b->poll_rx++;
	nc_frame_open(c, &b->rx, NC_SAMPLE_RX, t0);
}

void nc_tp_rx_exit(void *data, int ret)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;
	struct nc_bh *b;
	u64 t0;

	if (nc_untimed_net()) {
		nc_probe_end(nc_hit(data));
		return;
	}
	nc_stamp(c, &st);
	t0 = nc_hit(data);
	b = nc_bh_find(c);
	if (b && !nc_rx_unskip(b))
		nc_frame_close(b, &b->rx, NETCOST_STAGE_RX_SKB, &st);
	nc_probe_end(t0);
}

/*
 * nc_fe_process_backlog - this CPU's backlog poll starts: until its
 * napi_poll event, each netif_receive_skb event of its task is a packet
 * it took (nc_tp_rx_core())
 */
void nc_fe_process_backlog(void *hook, struct ftrace_regs *fregs)
{
	u64 t0;

	preempt_disable_notrace();
	t0 = nc_hit(hook);
	this_nc_cpu()->backlog_owner = current;
	nc_probe_end(t0);
	preempt_enable_notrace();
}

/*
 * nc_rx_open_marked - open the running task's rx frame for a backlog's
 * packet (@backlog) or for the first packet of a list GRO delivered (the
 * list's next packets are inside it); the probe sample (@t0) ends
 */
static noinline void nc_rx_open_marked(struct nc_cpu *c, bool backlog, u64 t0)
{
	struct nc_bh *b = nc_bh_get(c);

	nc_probe_end(t0);
	if (!b)
		return;
	if (backlog)
		b->poll_rx++;
	nc_frame_start(c, &b->rx, NC_SAMPLE_RX_MARKED);
	b->rx.backlog = backlog;
	b->rx.flush = !backlog;
}

/*
 * nc_tp_rx_core - netif_receive_skb: every packet the stack processes,
 * also inside the rx frames above.  In a backlog poll's task, outside
 * any other packet's frame, it ends the previous backlog packet and
 * starts this one; elsewhere, outside any frame, it starts a GRO flush
 * list.
 */
void nc_tp_rx_core(void *data, struct sk_buff *skb)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	bool backlog = c->backlog_owner == current;
	struct nc_stamp st;
	struct nc_bh *b;
	u64 t0;

	if (nc_untimed_net()) {
		nc_probe_end(nc_hit(data));
		return;
	}
	/* in a backlog poll an end and a start: stamped first, the hit counted after */
	if (unlikely(backlog))
		nc_stamp(c, &st);
	t0 = nc_hit(data);
	b = nc_bh_find(c);
	if (b && b->rx.depth && b->rx.owner == current) {
		/* inside a packet's or a list's frame (a tunnel's packet, say) */
		if (!backlog || !nc_rx_marked(&b->rx, b->rx.backlog)) {
			nc_probe_end(t0);
			return;
		}
		/* the backlog's previous packet */
		nc_rx_marked_end(&b->rx, &st);
		nc_bh_put(b);
	}
	if (nc_skb_loopback(skb)) {
		/* not timed, but a packet its backlog poll handed on */
		b = backlog ? nc_poll_bh(c) : NULL;
		if (b)
			b->poll_rx++;
		nc_probe_end(t0);
		return;
	}
	if (backlog)
		nc_count(NETCOST_CTR_RX_BACKLOG_PACKETS, 1);
	nc_rx_open_marked(c, backlog, t0);
}

/*
 * nc_tp_rx_list_entry/exit - netif_receive_skb_list(): one entry event
 * per packet of the list, then one exit for the whole list.  The first
 * entry opens the rx frame (or one level of it), the exit closes it.
 */
void nc_tp_rx_list_entry(void *data, const struct sk_buff *skb)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_cpu *c = this_nc_cpu();
	struct nc_bh *b;

	if (nc_skb_loopback(skb)) {
		nc_probe_end(t0);
		return;
	}
	nc_count(NETCOST_CTR_RX_PACKETS, 1);
	if (nc_untimed_net()) {
		nc_probe_end(t0);
		return;
	}
	b = nc_bh_get(c);
	if (b)
		b->poll_rx++;
	if (!b || (b->rx.depth && b->rx.owner == current && b->rx.list)) {
		nc_probe_end(t0);
		return;
	}
	nc_frame_open(c, &b->rx, NC_SAMPLE_RX, t0);
	b->rx.list = true;
}

void nc_tp_rx_list_exit(void *data, int ret)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;
	struct nc_bh *b;
	u64 t0;

	if (nc_untimed_net()) {
		nc_probe_end(nc_hit(data));
		return;
	}
	nc_stamp(c, &st);
	t0 = nc_hit(data);
	b = nc_bh_find(c);
	if (b && b->rx.depth && b->rx.owner == current && b->rx.list) {
		b->rx.list = false;
		nc_frame_close(b, &b->rx, NETCOST_STAGE_RX_SKB, &st);
	}
	nc_probe_end(t0);
}

void nc_tp_start_xmit(void *data, const struct sk_buff *skb,
		      const struct net_device *dev)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_cpu *c = this_nc_cpu();
	struct nc_bh *b;

	if (dev->flags & IFF_LOOPBACK) {
		nc_probe_end(t0);
		return;
	}
	nc_count(NETCOST_CTR_TX_PACKETS, 1);
	if (nc_untimed_net()) {
		nc_probe_end(t0);
		return;
	}
	b = nc_bh_get(c);
	if (!b) {
		nc_probe_end(t0);
		return;
	}
	nc_frame_open(c, &b->tx, NC_SAMPLE_TX, t0);
}

void nc_tp_xmit(void *data, struct sk_buff *skb, int rc,
		struct net_device *dev, unsigned int skb_len)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	struct nc_stamp st;
	struct nc_bh *b;
	u64 t0;

	if ((dev->flags & IFF_LOOPBACK) || nc_untimed_net()) {
		nc_probe_end(nc_hit(data));
		return;
	}
	nc_stamp(c, &st);
	t0 = nc_hit(data);
	b = nc_bh_find(c);
	if (b)
		nc_frame_close(b, &b->tx, NETCOST_STAGE_TX_XMIT, &st);
	nc_probe_end(t0);
}
