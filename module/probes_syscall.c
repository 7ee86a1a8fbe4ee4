// SPDX-License-Identifier: GPL-2.0
/*
 * probes_syscall.c - socket system calls, net of everything that is not
 * the call's own work.
 *
 * syscall_rx: recvfrom, recvmsg, recvmmsg; syscall_tx: sendto, sendmsg,
 * sendmmsg (native 64-bit calls), raw_syscalls:sys_enter -> sys_exit.
 * Excluded: nested hardirqs and softirqs (on PREEMPT_RT the softirq work
 * a call does at local_bh_enable() counts as net_rx_in_task_bh_enable,
 * not here) and all time off CPU, blocked or preempted.  What is left is
 * the CPU time of the call itself: where the RT reports saw the receiving
 * process go from 8% to 41%.
 *
 * The two tracepoints fire for every system call of every task: a call
 * netcost does not watch returns before anything else, its hit not even
 * counted (INFO's hits of these two hooks are watched calls only).
 */
#include <linux/compat.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "netcost.h"

/* nc_sys_stage - the stage of a watched system call, or -1 */
static int nc_sys_stage(long id)
{
	switch (id) {
	case __NR_recvfrom:
	case __NR_recvmsg:
	case __NR_recvmmsg:
		return NETCOST_STAGE_SYSCALL_RX;
	case __NR_sendto:
	case __NR_sendmsg:
	case __NR_sendmmsg:
		return NETCOST_STAGE_SYSCALL_TX;
	default:
		return -1;
	}
}

/*
 * The probes are a filter and a body: the filter runs for every system
 * call of every task and must be a few instructions (it touches no
 * per-CPU state: preemption may be on there since 6.13); the body, out
 * of line, sets up its frame (stack protector, zeroed locals, the
 * preemption guard) only for the calls netcost watches.
 */
static noinline void nc_sys_enter(void *data, int stage)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_stamp st;
	struct nc_task *t;

	if (in_compat_syscall())
		goto out;
	t = nc_task_get(current);
	if (!t)
		goto out;
	nc_probe_end(t0);
	nc_stamp(this_nc_cpu(), &st);
	nc_task_settle(t, &st);
	t->frames |= NC_FRAME_SYSCALL;
	t->load = true;		/* its waits are followed (wait.c) */
	t->sys_excl = 0;
	t->sys_dir = stage;
	t->sys_start = st.now;
	return;
out:
	nc_probe_end(t0);
}

void nc_tp_sys_enter(void *data, struct pt_regs *regs, long id)
{
	int stage = nc_sys_stage(id);

	/* every system call of every task comes here: leave at once */
	if (stage >= 0)
		nc_sys_enter(data, stage);
}

static noinline void nc_sys_exit(void *data)
{
	NC_TP_GUARD()
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	nc_stamp(this_nc_cpu(), &st);
	t0 = nc_hit(data);
	t = nc_task_find(current);
	if (!t || !(t->frames & NC_FRAME_SYSCALL))
		goto out;
	nc_task_settle(t, &st);
	t->frames &= ~NC_FRAME_SYSCALL;
	nc_record(t->sys_dir, nc_net(st.now, t->sys_start, t->sys_excl));
	nc_task_put(t);
out:
	nc_probe_end(t0);
}

void nc_tp_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	if (nc_sys_stage(syscall_get_nr(current, regs)) >= 0)
		nc_sys_exit(data);
}
