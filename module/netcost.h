/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netcost.h - what every part of the module needs: the configuration and
 * each CPU's probe state.
 * Every stage and counter is defined in Documentation/stages.md, the
 * one source the oracle's replay (tests/oracle) implements too.
 *
 * The data path: probes (probes_*.c) time each stage with get_cycles(),
 * net of nested work (the frame clock, clock.h), and record it with
 * nc_record() into per-CPU histograms (hist.h); netlink.c copies them
 * out for the tool.  Each part's interface is in the header named after
 * its .c file, included by the files that use it:
 *   clock.h	stamps and frames: how nested time is taken out
 *   tasks.h	the task table: frames that live in a task
 *   hist.h	per-CPU histograms and counters: nc_record(), nc_count()
 *   napi.h	per NAPI instance, per CPU
 *   wait.h	the waiting stages
 *   hooks.h	the hook table, and every hit's count (nc_hit())
 *   probes.h	the probes the hooks call (probes_*.c)
 *   nic.h	NIC IRQs; vectors.h: vectors without tracepoints;
 *   netlink.h	the generic netlink family
 */
#ifndef _NETCOST_H
#define _NETCOST_H

#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "uapi/netcost.h"

/* ---- configuration (netlink.c owns it, probes read it) ---- */

struct nc_config {
	u32 groups;			/* NETCOST_GROUP_* attached */
	bool recording;
	bool nic_irqs_auto;		/* else nic.c's explicit list */
	/* rx_skb and tx_xmit timed on 1 packet in @sample (1: every one) */
	u32 sample;
	cpumask_var_t cpus;		/* CPUs recorded */
};

extern struct nc_config nc_cfg;
void nc_sample_set(u32 n);
extern bool nc_threadirqs;
extern bool nc_open_read;
/* a STATS dump sends each CPU this many times (dump_repeat: test builds) */
#ifdef NC_TEST_BUILD
extern unsigned int nc_dump_repeat;
#define nc_dump_repeat_get() clamp(READ_ONCE(nc_dump_repeat), 1U, 256U)
#else
#define nc_dump_repeat_get() 1U
#endif
/*
 * bench_untimed_net (test builds): rx_skb and tx_xmit count their packets
 * but time nothing, the probes returning after their hit and counter:
 * what a mode that samples those stages could at best save
 * (bench/overhead's configuration "untimed")
 */
#ifdef NC_TEST_BUILD
extern bool nc_bench_untimed_net;
#define nc_untimed_net() READ_ONCE(nc_bench_untimed_net)
#else
#define nc_untimed_net() false
#endif

/* ---- per-CPU probe state (probes_*.c) ---- */

/* one open stage run, which the frame clock times (clock.h) */
struct nc_frame {
	struct task_struct *owner;	/* task the frame runs in */
	u64 start;			/* cycles */
	u64 excl;			/* cycles to subtract */
	u64 hard_snap;			/* hard_total when last resumed */
	u64 out_at;			/* cycles: owner switched out, or 0 */
	int depth;			/* 0 = no frame open */
	bool list;			/* rx: opened by a list entry */
	bool backlog;			/* rx: a packet of a backlog poll */
	bool flush;			/* rx: a list GRO delivered (gro_normal_list()) */
	/* rx, tx: open but left untimed by sampling (nc_frame_begin_untimed()) */
	bool untimed;
};

enum nc_softirq_ctx {
	NC_IN_IRQ_EXIT,
	NC_IN_KSOFTIRQD,
	NC_IN_IRQ_THREAD,
	NC_IN_OTHER_IRQ_THREAD,
	NC_IN_TASK_BH_ENABLE,
	NC_IN_NAPI_THREAD,
};

/*
 * The frames of softirq processing: a softirq run and the NAPI poll, rx
 * and tx frames that nest in it (or run with BHs disabled in a task).
 * Where softirqs are serialised per CPU, one set per CPU (nc_cpu.bh);
 * where they are not (compat.h: NC_BH_PER_TASK), runs of two tasks
 * interleave on one CPU and each task keeps its own set in its task slot
 * (nc_task.bh), marked in nc_task.frames by NC_FRAME_BH while any is open.
 */
struct nc_bh {
	struct nc_frame softirq;
	unsigned int softirq_vec;
	enum nc_softirq_ctx softirq_ctx;
	struct nc_frame napi;		/* from NET_RX start or the last poll */
	struct nc_frame rx;
	struct nc_frame tx;
	struct task_struct *rx_skip_owner; /* loopback rx entries being skipped */
	int rx_skip;
	u32 poll_rx;			/* packets handed to the stack since the poll began */
};

/* nc_cpu.rec: this CPU records (with the NETCOST_GROUP_* bits below) */
#define NC_REC_ON	BIT(31)

/*
 * The kinds of event that sampling (CONFIG sample N) times 1 in N of,
 * each on its own count (nc_sampled()): a packet's rx frame from its
 * entry event, one that a netif_receive_skb event opens (a list GRO
 * delivered, a backlog's packet: both rx_skb), a transmit
 */
enum nc_sample_kind {
	NC_SAMPLE_RX,
	NC_SAMPLE_RX_MARKED,
	NC_SAMPLE_TX,
	NC_SAMPLE_KINDS
};

struct nc_cpu {
	u32 rec;			/* NC_REC_ON | groups, or 0 (nc_rec_update) */
	u32 rec_depth;			/* histogram updates running (nested) */
	u64 hard_total;			/* cycles in hardirq handlers, vectors, NMIs */
	u64 soft_total;			/* net cycles in softirqs */
	u64 hardirq_start;		/* cycles, 0 = none open */
	int hardirq_irq;
	bool hardirq_nic;
	u64 hardirq_hard;		/* hard_total at hardirq_start (NMIs) */
	u64 vector_start;		/* cycles, 0 = no system vector open */
	u64 vector_hard;		/* hard_total at vector_start (NMIs) */
	struct task_struct *bh_owner;	/* the task inside do_softirq(), or NULL */
	/*
	 * the task in this CPU's backlog poll (process_backlog(): one at a
	 * time, on its own CPU), until the poll's napi_poll event, or NULL
	 */
	struct task_struct *backlog_owner;
	struct nc_bh bh;		/* unused if NC_BH_PER_TASK */
	u64 switch_start;		/* cycles at sched_switch, 0 = none */
	/*
	 * the stage of that switch: NETCOST_STAGE_CTX_SWITCH when it takes a
	 * packet-path task (IRQ or NAPI thread, ksoftirqd, load task) off or
	 * puts one on, else NETCOST_STAGE_CTX_SWITCH_OTHER
	 */
	u8 switch_stage;
	/*
	 * the task the last sched_switch put on this CPU and its task slot
	 * then (or NULL): finish_task_switch() runs in it next, and takes the
	 * slot from here instead of looking it up again
	 */
	struct task_struct *switch_next;
	struct nc_task *switch_slot;
	/*
	 * the slot this CPU last found for the task running on it, or NULL
	 * (nc_task_cur(): checked, not trusted)
	 */
	struct nc_task *cur_slot;
	u32 sample_rnd;			/* xorshift32 state of nc_sampled(), never 0 */
	s32 sample_left[NC_SAMPLE_KINDS]; /* events of each kind to the next timed one */
};

DECLARE_PER_CPU(struct nc_cpu, nc_cpu);

static inline struct nc_cpu *this_nc_cpu(void)
{
	return this_cpu_ptr(&nc_cpu);
}

#endif /* _NETCOST_H */
