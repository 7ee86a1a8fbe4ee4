/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * netcost_names.h - the names of stages and counters, shared by the module
 * (which sends them) and the tools (which print and look them up).
 * The order follows enum netcost_stage and enum netcost_counter.
 * These names are part of netcost's interface: never rename one.
 */
#ifndef _NETCOST_NAMES_H
#define _NETCOST_NAMES_H

#include "uapi/netcost.h"

#ifndef __maybe_unused
#define __maybe_unused __attribute__((__unused__))
#endif

static const char *const netcost_stage_names[] __maybe_unused = {
	[NETCOST_STAGE_HARDIRQ]		= "hardirq",
	[NETCOST_STAGE_HARDIRQ_OTHER]	= "hardirq_other",
	[NETCOST_STAGE_SOFTIRQ_NET_RX]	= "softirq_net_rx",
	[NETCOST_STAGE_SOFTIRQ_NET_TX]	= "softirq_net_tx",
	[NETCOST_STAGE_SOFTIRQ_OTHER]	= "softirq_other",
	[NETCOST_STAGE_IRQ_THREAD]	= "irq_thread",
	[NETCOST_STAGE_NAPI_POLL]	= "napi_poll",
	[NETCOST_STAGE_NAPI_POLL_WORK]	= "napi_poll_work",
	[NETCOST_STAGE_RX_SKB]		= "rx_skb",
	[NETCOST_STAGE_TX_XMIT]		= "tx_xmit",
	[NETCOST_STAGE_CTX_SWITCH]	= "ctx_switch",
	[NETCOST_STAGE_WAKEUP_LATENCY]	= "wakeup_latency",
	[NETCOST_STAGE_SYSCALL_RX]	= "syscall_rx",
	[NETCOST_STAGE_SYSCALL_TX]	= "syscall_tx",
	[NETCOST_STAGE_HARDIRQ_VECTORS]	= "hardirq_vectors",
	[NETCOST_STAGE_RUNQ_WAIT_LOAD]	= "runq_wait_load",
	[NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD] = "runq_wait_irq_thread",
	[NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD] = "runq_wait_ksoftirqd",
	[NETCOST_STAGE_BLOCKED_LOAD]	= "blocked_load",
	[NETCOST_STAGE_NAPI_THREAD]	= "napi_thread",
	[NETCOST_STAGE_BUSY_POLL]	= "busy_poll",
	[NETCOST_STAGE_CTX_SWITCH_OTHER] = "ctx_switch_other",
};

static const char *const netcost_counter_names[] __maybe_unused = {
	[NETCOST_CTR_RX_PACKETS]			= "rx_packets",
	[NETCOST_CTR_TX_PACKETS]			= "tx_packets",
	[NETCOST_CTR_NIC_IRQS]				= "nic_irqs",
	[NETCOST_CTR_CTX_SWITCHES]			= "ctx_switches",
	[NETCOST_CTR_CTX_SWITCHES_IRQ_THREAD]		= "ctx_switches_irq_thread",
	[NETCOST_CTR_CTX_SWITCHES_KSOFTIRQD]		= "ctx_switches_ksoftirqd",
	[NETCOST_CTR_NET_RX_IN_IRQ_EXIT]		= "net_rx_in_irq_exit",
	[NETCOST_CTR_NET_RX_IN_IRQ_EXIT_CYCLES]		= "net_rx_in_irq_exit_cycles",
	[NETCOST_CTR_NET_RX_IN_KSOFTIRQD]		= "net_rx_in_ksoftirqd",
	[NETCOST_CTR_NET_RX_IN_KSOFTIRQD_CYCLES]	= "net_rx_in_ksoftirqd_cycles",
	[NETCOST_CTR_NET_RX_IN_IRQ_THREAD]		= "net_rx_in_irq_thread",
	[NETCOST_CTR_NET_RX_IN_IRQ_THREAD_CYCLES]	= "net_rx_in_irq_thread_cycles",
	[NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE]		= "net_rx_in_task_bh_enable",
	[NETCOST_CTR_NET_RX_IN_TASK_BH_ENABLE_CYCLES]	= "net_rx_in_task_bh_enable_cycles",
	[NETCOST_CTR_NAPI_BUDGET_EXHAUSTED]		= "napi_budget_exhausted",
	[NETCOST_CTR_TASK_TABLE_FULL]			= "task_table_full",
	[NETCOST_CTR_PROBE_HITS]			= "probe_hits",
	[NETCOST_CTR_CLAMPED_NEGATIVE]			= "clamped_negative",
	[NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD]	= "net_rx_in_other_irq_thread",
	[NETCOST_CTR_NET_RX_IN_OTHER_IRQ_THREAD_CYCLES]	= "net_rx_in_other_irq_thread_cycles",
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES] = "runq_wait_behind_irq_thread_cycles",
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_KSOFTIRQD_CYCLES] = "runq_wait_behind_ksoftirqd_cycles",
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_SOAK_CYCLES] = "runq_wait_behind_soak_cycles",
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_LOAD_CYCLES] = "runq_wait_behind_load_cycles",
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_IDLE_CYCLES] = "runq_wait_behind_idle_cycles",
	[NETCOST_CTR_RUNQ_WAIT_BEHIND_OTHER_CYCLES] = "runq_wait_behind_other_cycles",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_HARDIRQ] = "blocked_load_woken_by_hardirq",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_HARDIRQ_CYCLES] = "blocked_load_woken_by_hardirq_cycles",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_SOFTIRQ] = "blocked_load_woken_by_softirq",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_SOFTIRQ_CYCLES] = "blocked_load_woken_by_softirq_cycles",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_IRQ_THREAD] = "blocked_load_woken_by_irq_thread",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_IRQ_THREAD_CYCLES] =
		"blocked_load_woken_by_irq_thread_cycles",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_KSOFTIRQD] = "blocked_load_woken_by_ksoftirqd",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_KSOFTIRQD_CYCLES] =
		"blocked_load_woken_by_ksoftirqd_cycles",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_LOAD] = "blocked_load_woken_by_load",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_LOAD_CYCLES] = "blocked_load_woken_by_load_cycles",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_OTHER] = "blocked_load_woken_by_other",
	[NETCOST_CTR_BLOCKED_LOAD_WOKEN_BY_OTHER_CYCLES] = "blocked_load_woken_by_other_cycles",
	[NETCOST_CTR_NAPI_THREAD_EXCL_CYCLES]		= "napi_thread_excl_cycles",
	[NETCOST_CTR_IRQ_THREAD_EXCL_CYCLES]		= "irq_thread_excl_cycles",
	[NETCOST_CTR_BUSY_POLL_PACKETS]			= "busy_poll_packets",
	[NETCOST_CTR_BUSY_POLL_IDLE_CYCLES]		= "busy_poll_idle_cycles",
	[NETCOST_CTR_RX_BACKLOG_PACKETS]		= "rx_backlog_packets",
	[NETCOST_CTR_NAPI_TABLE_FULL]			= "napi_table_full",
	[NETCOST_CTR_NET_RX_IN_NAPI_THREAD]		= "net_rx_in_napi_thread",
	[NETCOST_CTR_NET_RX_IN_NAPI_THREAD_CYCLES]	= "net_rx_in_napi_thread_cycles",
	[NETCOST_CTR_RX_FRAMES_CONSUMED]		= "rx_frames_consumed",
	[NETCOST_CTR_RX_SKB_UNTIMED]			= "rx_skb_untimed",
	[NETCOST_CTR_TX_XMIT_UNTIMED]			= "tx_xmit_untimed",
};

static const char *const netcost_role_names[] __maybe_unused = {
	[NETCOST_ROLE_TOP]	= "top",
	[NETCOST_ROLE_NESTED]	= "nested",
	[NETCOST_ROLE_OTHER]	= "other",
	[NETCOST_ROLE_WAITING]	= "waiting",
	[NETCOST_ROLE_COUNT]	= "count",
};

static const char *const netcost_group_names[] __maybe_unused = {
	"irq", "softirq", "net", "sched", "syscall", "wait",
};

/* TASKS: enum netcost_task_kind, and the NETCOST_TASK_FRAME_* bits in order */
static const char *const netcost_task_kind_names[] __maybe_unused = {
	[NETCOST_TASK_KIND_OTHER]	= "other",
	[NETCOST_TASK_KIND_IRQ_THREAD]	= "irq-thread",
	[NETCOST_TASK_KIND_KSOFTIRQD]	= "ksoftirqd",
	[NETCOST_TASK_KIND_NAPI_THREAD]	= "napi-thread",
};

static const char *const netcost_task_frame_names[] __maybe_unused = {
	"syscall", "irq-thread", "napi-thread", "busy-poll", "softirq",
};

#endif /* _NETCOST_NAMES_H */
