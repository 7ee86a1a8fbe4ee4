/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * netcost - per-stage cycle accounting of the Linux packet path.
 *
 * The generic netlink API shared by the netcost module and its tools.
 * Documentation/netlink/netcost.yaml is the same contract in YNL form;
 * tests/unit/check-spec keeps the two in agreement.
 */
#ifndef _UAPI_NETCOST_H
#define _UAPI_NETCOST_H

#define NETCOST_GENL_NAME	"netcost"
#define NETCOST_GENL_VERSION	1
/* Module and tool release; the tool refuses a module of another one. */
#define NETCOST_VERSION		"0.15.1"

/*
 * Histograms are log-linear: values below 2^NETCOST_HIST_SUB_BITS get a
 * bucket each, then every power of two is split into 2^SUB_BITS buckets.
 * The last bucket (NETCOST_HIST_BUCKETS - 1) is the overflow bucket for
 * values of 2^(NETCOST_HIST_MAX_BITS) cycles and more.
 * include/netcost_hist.h holds the index <-> bound math.
 */
#define NETCOST_HIST_SUB_BITS	3
#define NETCOST_HIST_MAX_BITS	41
#define NETCOST_HIST_BUCKETS	\
	(((NETCOST_HIST_MAX_BITS - NETCOST_HIST_SUB_BITS + 1) << NETCOST_HIST_SUB_BITS) + 1)

enum netcost_cmd {
	NETCOST_CMD_UNSPEC,
	NETCOST_CMD_INFO,		/* do: module, kernel, config, self-cost */
	NETCOST_CMD_STATS,		/* dump: one or more messages per CPU */
	NETCOST_CMD_RESET,		/* do: clear all statistics */
	NETCOST_CMD_CONFIG_GET,		/* do: the configuration (NETCOST_A_CONFIG) */
	NETCOST_CMD_CONFIG_SET,		/* do: change the configuration */
	NETCOST_CMD_TASKS,		/* dump: the task table's held slots (0.13.0) */

	__NETCOST_CMD_MAX,
	NETCOST_CMD_MAX = __NETCOST_CMD_MAX - 1
};

enum netcost_attr {
	NETCOST_A_UNSPEC,
	NETCOST_A_PAD,
	NETCOST_A_VERSION,		/* string: NETCOST_VERSION of the module */
	NETCOST_A_KERNEL,		/* string: kernel release (uname -r) */
	NETCOST_A_PREEMPT_RT,		/* u8: kernel is PREEMPT_RT */
	NETCOST_A_THREADIRQS,		/* u8: IRQ handlers are force-threaded */
	NETCOST_A_TSC_KHZ,		/* u32: get_cycles() rate, kHz */
	NETCOST_A_NR_CPUS_POSSIBLE,	/* u32 */
	NETCOST_A_NR_CPUS_ONLINE,	/* u32 */
	NETCOST_A_PROBE_COST,		/* u32: cycles one probe hit costs */
	NETCOST_A_HIST_BUCKETS,		/* u32: NETCOST_HIST_BUCKETS */
	NETCOST_A_HIST_SUB_BITS,	/* u32: NETCOST_HIST_SUB_BITS */
	NETCOST_A_MEM_PER_CPU,		/* u32: bytes of statistics per CPU */
	NETCOST_A_RESET_NS,		/* u64: ktime_get_ns() at the last reset */
	NETCOST_A_NOW_NS,		/* u64: ktime_get_ns() when answering */
	NETCOST_A_RESET_CYCLES,		/* u64: get_cycles() at the last reset */
	NETCOST_A_NOW_CYCLES,		/* u64: get_cycles() when answering */
	NETCOST_A_GENERATION,		/* u32: bumped by every reset */
	NETCOST_A_CONFIG,		/* nest: enum netcost_cfg_attr */
	NETCOST_A_HOOK,			/* nest, repeated: enum netcost_hook_attr */
	NETCOST_A_CPU,			/* u32: the CPU a STATS message is about */
	NETCOST_A_STAGE,		/* nest, repeated: enum netcost_stage_attr */
	NETCOST_A_COUNTER,		/* nest, repeated: enum netcost_counter_attr */
	NETCOST_A_TASK_SLOTS,		/* u32: slots in the task table */
	NETCOST_A_TASK_SLOTS_USED,	/* u32: slots held now */
	NETCOST_A_PROBE_COST_P50,	/* u32: cycles, median of the sampled bodies (0.4.0) */
	NETCOST_A_PROBE_COST_P90,	/* u32: cycles, their 90th percentile (0.4.0) */
	NETCOST_A_PROBE_COST_SAMPLES,	/* u64: probe bodies timed since load (0.4.0) */
	NETCOST_A_NAPI,			/* nest, repeated (STATS): netcost_napi_attr (0.9.0) */
	NETCOST_A_NIC_DEVICES,		/* u32: devices with a parent: names that find NIC IRQs */
	NETCOST_A_UNTRACED,		/* nest, repeated (INFO): netcost_untraced_attr */
	NETCOST_A_TASK_SLOTS_KTHREADS,	/* u32: of those, IRQ/NAPI threads, ksoftirqd (0.11.0) */
	NETCOST_A_TASK,			/* nest, repeated (TASKS): netcost_task_attr (0.13.0) */

	__NETCOST_A_MAX,
	NETCOST_A_MAX = __NETCOST_A_MAX - 1
};

enum netcost_cfg_attr {
	NETCOST_CFG_A_UNSPEC,
	NETCOST_CFG_A_NIC_IRQS_AUTO,	/* u8: NIC IRQs found by device name */
	NETCOST_CFG_A_NIC_IRQ,		/* u32, repeated: an explicit NIC IRQ */
	NETCOST_CFG_A_CPUMASK,		/* string: cpulist of CPUs recorded */
	NETCOST_CFG_A_GROUPS,		/* u32: NETCOST_GROUP_* bits enabled */
	NETCOST_CFG_A_RECORDING,	/* u8: 0 pauses all recording */
	/*
	 * u32 N (1-65536): rx_skb and tx_xmit timed on 1 packet in N (every
	 * Nth event of each kind, the gap jittered by one); 1 times every
	 * packet (0.15.0)
	 */
	NETCOST_CFG_A_SAMPLE,

	__NETCOST_CFG_A_MAX,
	NETCOST_CFG_A_MAX = __NETCOST_CFG_A_MAX - 1
};

/* Stage groups: each one is a set of hooks switched on and off together. */
enum netcost_group {
	NETCOST_GROUP_IRQ	= 1 << 0,	/* hardirq*, irq_thread */
	NETCOST_GROUP_SOFTIRQ	= 1 << 1,	/* softirq_*, net_rx_in_*, napi_thread */
	NETCOST_GROUP_NET	= 1 << 2,	/* napi_poll*, rx_skb, tx_xmit */
	NETCOST_GROUP_SCHED	= 1 << 3,	/* ctx_switch, wakeup_latency */
	NETCOST_GROUP_SYSCALL	= 1 << 4,	/* syscall_rx, syscall_tx, busy_poll */
	NETCOST_GROUP_WAIT	= 1 << 5,	/* runq_wait_*, blocked_load */
	NETCOST_GROUP_ALL	= (1 << 6) - 1,
};

enum netcost_hook_attr {
	NETCOST_HOOK_A_UNSPEC,
	NETCOST_HOOK_A_PAD,
	NETCOST_HOOK_A_NAME,		/* string: tracepoint or symbol name */
	NETCOST_HOOK_A_KIND,		/* u8: enum netcost_hook_kind */
	NETCOST_HOOK_A_GROUP,		/* u32: the NETCOST_GROUP_* it serves */
	NETCOST_HOOK_A_ATTACHED,	/* u8 */
	NETCOST_HOOK_A_HITS,		/* u64: times it fired */
	NETCOST_HOOK_A_MISSED,		/* u64: k(ret)probe hits the kernel dropped */

	__NETCOST_HOOK_A_MAX,
	NETCOST_HOOK_A_MAX = __NETCOST_HOOK_A_MAX - 1
};

enum netcost_hook_kind {
	NETCOST_HOOK_TRACEPOINT,
	NETCOST_HOOK_KPROBE,
	NETCOST_HOOK_KRETPROBE,
	NETCOST_HOOK_FENTRY,		/* ftrace function entry, no registers */
};

enum netcost_stage_attr {
	NETCOST_STAGE_A_UNSPEC,
	NETCOST_STAGE_A_PAD,
	NETCOST_STAGE_A_ID,		/* u32: enum netcost_stage */
	NETCOST_STAGE_A_NAME,		/* string */
	NETCOST_STAGE_A_UNIT,		/* u8: enum netcost_unit */
	NETCOST_STAGE_A_COUNT,		/* u64: events (= sum of buckets) */
	NETCOST_STAGE_A_SUM,		/* u64: total, in the unit */
	NETCOST_STAGE_A_MIN_VAL,	/* u64: smallest event */
	NETCOST_STAGE_A_MAX_VAL,	/* u64: largest event */
	/* nest, repeated: non-empty buckets (modules before 0.3.0) */
	NETCOST_STAGE_A_BUCKET,
	NETCOST_STAGE_A_ROLE,		/* u8: enum netcost_role */
	NETCOST_STAGE_A_BUCKET_FIRST,	/* u32: index of BUCKET_COUNTS[0] */
	/*
	 * binary: u64 counts (host order) of the buckets BUCKET_FIRST on, up
	 * to the last non-empty one, in the layout that the message's
	 * NETCOST_A_HIST_BUCKETS and NETCOST_A_HIST_SUB_BITS name
	 */
	NETCOST_STAGE_A_BUCKET_COUNTS,

	__NETCOST_STAGE_A_MAX,
	NETCOST_STAGE_A_MAX = __NETCOST_STAGE_A_MAX - 1
};

enum netcost_bucket_attr {
	NETCOST_BUCKET_A_UNSPEC,
	NETCOST_BUCKET_A_PAD,
	NETCOST_BUCKET_A_LO,		/* u64: lowest value, inclusive */
	NETCOST_BUCKET_A_HI,		/* u64: highest value, inclusive */
	NETCOST_BUCKET_A_COUNT,		/* u64 */

	__NETCOST_BUCKET_A_MAX,
	NETCOST_BUCKET_A_MAX = __NETCOST_BUCKET_A_MAX - 1
};

enum netcost_counter_attr {
	NETCOST_COUNTER_A_UNSPEC,
	NETCOST_COUNTER_A_PAD,
	NETCOST_COUNTER_A_ID,		/* u32: enum netcost_counter */
	NETCOST_COUNTER_A_NAME,		/* string */
	NETCOST_COUNTER_A_VALUE,	/* u64 */

	__NETCOST_COUNTER_A_MAX,
	NETCOST_COUNTER_A_MAX = __NETCOST_COUNTER_A_MAX - 1
};

/*
 * One NAPI instance's polls on the CPU of the STATS message (0.9.0), sent
 * after the CPU's stages and counters.  An instance that polled on
 * several CPUs has one nest in each CPU's messages: readers add them up
 * by (ID, IFINDEX, IFNAME).  Instances the CPU's table had no room for
 * count in the counter napi_table_full.
 */
/*
 * An interrupt vector without tracepoints that this kernel takes (the
 * hypervisor callback, KVM's async page faults, posted MSI): hardirq does
 * not see its interrupts.
 */
enum netcost_untraced_attr {
	NETCOST_UNTRACED_A_UNSPEC,
	NETCOST_UNTRACED_A_PAD,
	NETCOST_UNTRACED_A_NAME,	/* string: hyperv_callback, xen_callback, ... */
	NETCOST_UNTRACED_A_COUNT,	/* u64: its interrupts since boot; absent: not counted */

	__NETCOST_UNTRACED_A_MAX,
	NETCOST_UNTRACED_A_MAX = __NETCOST_UNTRACED_A_MAX - 1
};

/* TASKS: what kind of task holds a slot (NETCOST_TASK_A_KIND) */
enum netcost_task_kind {
	NETCOST_TASK_KIND_OTHER,	/* any other task: a load task, a softirq's host */
	NETCOST_TASK_KIND_IRQ_THREAD,
	NETCOST_TASK_KIND_KSOFTIRQD,
	NETCOST_TASK_KIND_NAPI_THREAD,	/* a NAPI thread, or RT's backlog thread */
};

/* TASKS: the frames a slot has open (NETCOST_TASK_A_FRAMES) */
enum netcost_task_frame {
	NETCOST_TASK_FRAME_SYSCALL	= 1 << 0,	/* a watched rx/tx system call */
	NETCOST_TASK_FRAME_IRQ_THREAD	= 1 << 1,	/* an IRQ thread's run */
	NETCOST_TASK_FRAME_NAPI_THREAD	= 1 << 2,	/* a NAPI thread's run */
	NETCOST_TASK_FRAME_BUSY_POLL	= 1 << 3,	/* a busy-poll loop */
	NETCOST_TASK_FRAME_SOFTIRQ	= 1 << 4,	/* softirq frames (RT: per task) */
};

/* TASKS: one held slot of the task table */
enum netcost_task_attr {
	NETCOST_TASK_A_UNSPEC,
	NETCOST_TASK_A_SLOT,		/* u32: its index in the table */
	NETCOST_TASK_A_PID,		/* u32: the holder's pid (thread id) */
	NETCOST_TASK_A_KIND,		/* u8: enum netcost_task_kind */
	NETCOST_TASK_A_FRAMES,		/* u32: NETCOST_TASK_FRAME_* open */
	NETCOST_TASK_A_LOAD,		/* u8: a load task: held to its exit */
	NETCOST_TASK_A_WAKING,		/* u8: a wake-up stamp is pending */

	__NETCOST_TASK_A_MAX,
	NETCOST_TASK_A_MAX = __NETCOST_TASK_A_MAX - 1
};

enum netcost_napi_attr {
	NETCOST_NAPI_A_UNSPEC,
	NETCOST_NAPI_A_PAD,
	NETCOST_NAPI_A_ID,		/* u32: napi_id; 0: none (backlog, tx-only) */
	NETCOST_NAPI_A_IFNAME,		/* string: its device when first seen; absent: none */
	NETCOST_NAPI_A_IFINDEX,		/* u32: its device's ifindex (in its namespace) */
	NETCOST_NAPI_A_IRQ,		/* u32: napi->irq; absent: unknown (kernel or driver) */
	NETCOST_NAPI_A_THREAD_PID,	/* u32: its NAPI thread at its last poll; absent: none */
	NETCOST_NAPI_A_POLLS,		/* u64: napi_poll events */
	NETCOST_NAPI_A_PACKETS,		/* u64: their work (packets) */
	NETCOST_NAPI_A_TIMED_POLLS,	/* u64: polls timed in the napi_poll stage */
	NETCOST_NAPI_A_CYCLES,		/* u64: those polls' napi_poll cycles */

	__NETCOST_NAPI_A_MAX,
	NETCOST_NAPI_A_MAX = __NETCOST_NAPI_A_MAX - 1
};

enum netcost_unit {
	NETCOST_UNIT_CYCLES,
	NETCOST_UNIT_PACKETS,
};

/*
 * What a stage's figures are, for the tools that add them up: only TOP
 * stages are summed into a packet's total.
 */
enum netcost_role {
	NETCOST_ROLE_TOP,		/* CPU work of its own, summed into the total */
	NETCOST_ROLE_NESTED,		/* runs inside a TOP stage */
	NETCOST_ROLE_OTHER,		/* CPU work that is not the packet path's */
	NETCOST_ROLE_WAITING,		/* waiting time, not CPU time */
	NETCOST_ROLE_COUNT,		/* not time at all (unit packets) */
};

/*
 * A STATS dump sends, for every recorded CPU, one or more messages that
 * carry NETCOST_A_CPU.  A stage whose buckets do not fit in one message
 * continues in the next one: the fragment repeats ID, NAME, UNIT, COUNT,
 * SUM, MIN_VAL and MAX_VAL (all taken from one consistent copy) and carries the
 * following buckets.  Readers merge fragments by (cpu, stage id).
 */
enum netcost_stage {
	NETCOST_STAGE_HARDIRQ,		/* NIC IRQ primary handler */
	NETCOST_STAGE_HARDIRQ_OTHER,	/* every other primary handler */
	NETCOST_STAGE_SOFTIRQ_NET_RX,	/* NET_RX run, net of nested hardirqs */
	NETCOST_STAGE_SOFTIRQ_NET_TX,	/* NET_TX run, net of nested hardirqs */
	NETCOST_STAGE_SOFTIRQ_OTHER,	/* other vectors, net of hardirqs */
	NETCOST_STAGE_IRQ_THREAD,	/* threaded handler run of a NIC IRQ */
	NETCOST_STAGE_NAPI_POLL,	/* one NAPI poll, cycles */
	NETCOST_STAGE_NAPI_POLL_WORK,	/* one NAPI poll, packets */
	NETCOST_STAGE_RX_SKB,		/* one packet into the stack */
	NETCOST_STAGE_TX_XMIT,		/* one packet through the driver */
	NETCOST_STAGE_CTX_SWITCH,	/* sched_switch -> next runs; packet path's */
	NETCOST_STAGE_WAKEUP_LATENCY,	/* IRQ thread/ksoftirqd waking -> on CPU */
	NETCOST_STAGE_SYSCALL_RX,	/* recvfrom/recvmsg/recvmmsg, net */
	NETCOST_STAGE_SYSCALL_TX,	/* sendto/sendmsg/sendmmsg, net */
	NETCOST_STAGE_HARDIRQ_VECTORS,	/* x86 system vectors (timer, IPIs, irq_work) and NMIs */
	NETCOST_STAGE_RUNQ_WAIT_LOAD,	/* a load task queued -> on CPU, wall */
	NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD, /* an IRQ thread queued -> on CPU */
	NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD, /* ksoftirqd queued -> on CPU */
	NETCOST_STAGE_BLOCKED_LOAD,	/* a load task asleep -> woken, wall */
	NETCOST_STAGE_NAPI_THREAD,	/* a NAPI thread's poll loop run, net (0.5.0) */
	NETCOST_STAGE_BUSY_POLL,	/* a busy-poll loop in syscall_rx, net (0.7.0) */
	/*
	 * a context switch neither into nor out of a packet-path task (an IRQ
	 * or NAPI thread, ksoftirqd, a load task): other work's (0.10.0;
	 * ctx_switch holds only the packet path's since)
	 */
	NETCOST_STAGE_CTX_SWITCH_OTHER,

	__NETCOST_STAGE_MAX,
	NETCOST_STAGE_MAX = __NETCOST_STAGE_MAX - 1
};

enum netcost_counter {
	NETCOST_CTR_RX_PACKETS,
	NETCOST_CTR_TX_PACKETS,
	NETCOST_CTR_NIC_IRQS,
	NETCOST_CTR_CTX_SWITCHES,
	NETCOST_CTR_CTX_SWITCHES_IRQ_THREAD,
	NETCOST_CTR_CTX_SWITCHES_KSOFTIRQD,
	NETCOST_CTR_NET_RX_IN_IRQ_EXIT,
	NETCOST_CTR_NET_RX_IN_IRQ_EXIT_CYCLES,
	NETCOST_CTR_NET_RX_IN_KSOFTIRQD,
	NETCOST_CTR_NET_RX_IN_KSOFTIRQD_CYCLES,
	NETCOST_CTR_NET_RX_IN_IRQ_THREAD,
	NETCOST_CTR_NET_RX_IN_IRQ_THREAD_CYCLES,
	NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE,
	NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE_CYCLES,
	NETCOST_CTR_NAPI_BUDGET_EXHAUSTED,
	NETCOST_CTR_TASK_TABLE_FULL,
	NETCOST_CTR_PROBE_HITS,
	NETCOST_CTR_CLAMPED_NEGATIVE,		/* a net duration came out < 0: recorded as 0 */
	NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD,	/* NET_RX in a non-NIC IRQ thread */
	NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD_CYCLES,
	/* runq_wait_* cycles by the class of the task on that CPU meanwhile */
	NETCOST_CTR_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES,
	NETCOST_CTR_RUNQ_WAIT_BEHIND_KSOFTIRQD_CYCLES,
	NETCOST_CTR_RUNQ_WAIT_BEHIND_SOAK_CYCLES,	/* SCHED_IDLE tasks */
	NETCOST_CTR_RUNQ_WAIT_BEHIND_LOAD_CYCLES,
	NETCOST_CTR_RUNQ_WAIT_BEHIND_IDLE_CYCLES,
	NETCOST_CTR_RUNQ_WAIT_BEHIND_OTHER_CYCLES,	/* and waits that migrated */
	/* blocked_load by who woke the task (sched_waking's context) */
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_HARDIRQ,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_HARDIRQ_CYCLES,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_SOFTIRQ,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_SOFTIRQ_CYCLES,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_IRQ_THREAD,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_IRQ_THREAD_CYCLES,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_KSOFTIRQD,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_KSOFTIRQD_CYCLES,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_LOAD,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_LOAD_CYCLES,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_OTHER,
	NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_OTHER_CYCLES,
	/* interrupt and softirq cycles taken out of napi_thread runs (0.5.0) */
	NETCOST_CTR_NAPI_THREAD_EXCL_CYCLES,
	/* interrupt and softirq cycles taken out of irq_thread runs (0.6.0) */
	NETCOST_CTR_IRQ_THREAD_EXCL_CYCLES,
	/* packets the busy-poll loops' polls delivered (TcpExt BusyPollRxPackets) (0.7.0) */
	NETCOST_CTR_BUSY_POLL_PACKETS,
	/* busy_poll cycles that ended in a poll that delivered nothing (0.7.0) */
	NETCOST_CTR_BUSY_POLL_IDLE_CYCLES,
	/* packets the stack took from this CPU's backlog (RPS, netif_rx()) (0.8.0) */
	NETCOST_CTR_RX_BACKLOG_PACKETS,
	/* polls of NAPI instances this CPU's NAPI table had no room for (0.9.0) */
	NETCOST_CTR_NAPI_TABLE_FULL,
	/* NET_RX inside a NAPI thread (RT's backlog threads too) (0.11.0) */
	NETCOST_CTR_NET_RX_IN_NAPI_THREAD,
	NETCOST_CTR_NET_RX_IN_NAPI_THREAD_CYCLES,
	/* frames polls consumed without handing them to the stack (XDP) (0.11.0) */
	NETCOST_CTR_RX_FRAMES_CONSUMED,
	/*
	 * rx_skb and tx_xmit events left untimed by sampling (CONFIG sample
	 * N): each stage's events are its histogram's count plus these (0.15.0)
	 */
	NETCOST_CTR_RX_SKB_UNTIMED,
	NETCOST_CTR_TX_XMIT_UNTIMED,

	__NETCOST_CTR_MAX,
	NETCOST_CTR_MAX = __NETCOST_CTR_MAX - 1
};

#endif /* _UAPI_NETCOST_H */
