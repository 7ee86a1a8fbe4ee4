// SPDX-License-Identifier: GPL-2.0
/*
 * probe_types.c - the compiler checks every tracepoint probe against the
 * tracepoint it is attached to.
 *
 * netcost attaches tracepoints by name (hooks.c): Debian exports almost
 * none of them for register_trace_*(), so the compiler never sees which
 * prototype a probe must have.  Here each probe is passed to its
 * tracepoint's register_trace_*() inside sizeof(): the call is type
 * checked (the kernel builds with -Werror=incompatible-pointer-types) but
 * never made, and needs no exported symbol.  A kernel whose tracepoint
 * changed its arguments fails to build here, with the probe's name in
 * the error, instead of crashing at run time.  The fentry hooks'
 * dispatcher is held against ftrace_func_t the same way.  Nothing in
 * this file is ever called.
 */
#include <linux/build_bug.h>
#include <linux/ftrace.h>
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <trace/events/irq.h>
#include <trace/events/napi.h>
#include <trace/events/net.h>
#include <trace/events/nmi.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <asm/trace/irq_vectors.h>

#include "hooks.h"
#include "probes.h"

#define NC_CHECK(tp, probe) \
	BUILD_BUG_ON(sizeof(register_trace_##tp(probe, NULL)) != sizeof(int))
/* function hooks: the callback type of the mechanism that calls them */
#define NC_CHECK_FN(type, fn) \
	BUILD_BUG_ON(!__builtin_types_compatible_p(typeof(fn) *, type))

static void __maybe_unused nc_probe_types(void)
{
	NC_CHECK(irq_handler_entry, nc_tp_irq_handler_entry);
	NC_CHECK(irq_handler_exit, nc_tp_irq_handler_exit);
	NC_CHECK(local_timer_entry, nc_tp_vector_entry);
	NC_CHECK(local_timer_exit, nc_tp_vector_exit);
	NC_CHECK(reschedule_entry, nc_tp_vector_entry);
	NC_CHECK(irq_work_exit, nc_tp_vector_exit);
	NC_CHECK(nmi_handler, nc_tp_nmi_handler);
	NC_CHECK(softirq_entry, nc_tp_softirq_entry);
	NC_CHECK(softirq_exit, nc_tp_softirq_exit);
	NC_CHECK(napi_poll, nc_tp_napi_poll);
	NC_CHECK(netif_receive_skb_entry, nc_tp_rx_entry);
	NC_CHECK(napi_gro_receive_entry, nc_tp_rx_entry);
	NC_CHECK(napi_gro_frags_entry, nc_tp_rx_entry);
	NC_CHECK(netif_rx_entry, nc_tp_rx_entry);
	NC_CHECK(netif_receive_skb_exit, nc_tp_rx_exit);
	NC_CHECK(napi_gro_receive_exit, nc_tp_rx_exit);
	NC_CHECK(napi_gro_frags_exit, nc_tp_rx_exit);
	NC_CHECK(netif_rx_exit, nc_tp_rx_exit);
	NC_CHECK(netif_receive_skb, nc_tp_rx_core);
	NC_CHECK(netif_receive_skb_list_entry, nc_tp_rx_list_entry);
	NC_CHECK(netif_receive_skb_list_exit, nc_tp_rx_list_exit);
	NC_CHECK(net_dev_start_xmit, nc_tp_start_xmit);
	NC_CHECK(net_dev_xmit, nc_tp_xmit);
	NC_CHECK(sched_switch, nc_tp_sched_switch);
	NC_CHECK(sched_waking, nc_tp_sched_waking);
	NC_CHECK(sched_wakeup, nc_tp_sched_wakeup);
	NC_CHECK(sched_wakeup_new, nc_tp_sched_wakeup);
	NC_CHECK(sched_process_exit, nc_tp_sched_process_exit);
	NC_CHECK(sys_enter, nc_tp_sys_enter);
	NC_CHECK(sys_exit, nc_tp_sys_exit);
	NC_CHECK_FN(ftrace_func_t, nc_fe_dispatch);
#ifdef NC_PROBE_TYPES_SELFTEST
	/* must not compile: "make lint" proves that the check bites */
	NC_CHECK(irq_handler_exit, nc_tp_irq_handler_entry);
#endif
}
