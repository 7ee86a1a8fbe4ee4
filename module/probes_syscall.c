// SPDX-License-Identifier: GPL-2.0
/*
 * probes_syscall.c - socket system calls, net of everything that is not
 * the call's own work.
 * The definitions are Documentation/stages.md's; this file says where
 * its probes take the stamps that implement them.
 *
 * syscall_rx: recvfrom, recvmsg, recvmmsg; syscall_tx: sendto, sendmsg,
 * sendmmsg (native 64-bit calls) on an inet socket (AF_INET, AF_INET6:
 * UDP, TCP, raw; since 0.14.0: unix and netlink sockets are not the
 * packet path), raw_syscalls:sys_enter -> sys_exit.
 * Excluded: nested hardirqs and softirqs (on PREEMPT_RT the softirq work
 * a call does at local_bh_enable() counts as net_rx_in_task_bh_enable,
 * not here) and all time off CPU, blocked or preempted.  What is left is
 * the CPU time of the call itself: where the RT reports saw the receiving
 * process go from 8% to 41%.
 *
 * busy_poll: one busy-poll loop (net.core.busy_read, SO_BUSY_POLL:
 * napi_busy_loop()) inside a watched receive call, nested in syscall_rx.
 * It runs from the function's entry to the napi_poll event of its last
 * poll (busy_poll_stop()'s, which re-arms the NIC a few instructions
 * before the loop returns; the kernel has no event at the return), net
 * as syscall_rx is: the loop's polls, the packets they delivered
 * (rx_skb nests as in a softirq's poll) and its spin.  The run is
 * recorded when the next loop of the call starts or the call returns.
 * A loop that never took the NAPI instance (a softirq or thread had it)
 * has no poll, so no end: its spin stays in syscall_rx only.
 * busy_poll_idle_cycles sums the stretches of the loops, from the entry
 * or a poll to the next poll, that ended in a poll that delivered
 * nothing: what spinning cost.  busy_poll_packets counts the packets of
 * the loops' own polls (in any task), as the kernel's TcpExt
 * BusyPollRxPackets does: not those of busy_poll_stop()'s last poll.
 * The loop runs inside the call's frame, so what the call took out since
 * the loop's start (sys_excl) is what the loop takes out: the task
 * table keeps sys_excl's value at its start and at its last poll.
 *
 * The two tracepoints fire for every system call of every task: a call
 * netcost does not watch returns before anything else, its hit not even
 * counted (INFO's hits of these two hooks are watched calls only).
 */
#include <linux/compat.h>
#include <linux/file.h>
#include <linux/net.h>
#include <linux/netdevice.h>
#include <net/sock.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "netcost.h"
#include "clock.h"
#include "hist.h"
#include "probes.h"
#include "tasks.h"

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
 * nc_sys_inet - the call's socket (its first argument, the descriptor)
 * is an inet one: AF_INET or AF_INET6, whatever the protocol (UDP, TCP,
 * raw).  A call on a unix, netlink or packet socket, or on a descriptor
 * that is not a socket, is no packet-path work: no frame, no load task.
 * fget() takes a reference under RCU and fput() may run in any context
 * (a last reference defers the release to task work): both are atomic.
 */
static bool nc_sys_inet(struct pt_regs *regs)
{
	unsigned long args[6];
	struct socket *sock;
	struct file *file;
	bool inet = false;

	syscall_get_arguments(current, regs, args);
	if (args[0] > INT_MAX)
		return false;
	file = fget(args[0]);
	if (!file)
		return false;
	sock = sock_from_file(file);
	if (sock && sock->sk)
		inet = sock->sk->sk_family == AF_INET || sock->sk->sk_family == AF_INET6;
	fput(file);
	return inet;
}

/*
 * The probes are a filter and a body: the filter runs for every system
 * call of every task and must be a few instructions (it touches no
 * per-CPU state: preemption may be on there since 6.13); the body, out
 * of line, sets up its frame (stack protector, zeroed locals, the
 * preemption guard) only for the calls netcost watches.
 */
static noinline void nc_sys_enter(void *data, struct pt_regs *regs, int stage)
{
	NC_TP_GUARD()
	u64 t0 = nc_hit(data);
	struct nc_stamp st;
	struct nc_task *t;

	if (in_compat_syscall() || !nc_sys_inet(regs))
		goto out;
	t = nc_task_cur_get();
	if (!t)
		goto out;
	nc_probe_end(t0);
	nc_stamp(this_nc_cpu(), &st);
	nc_task_settle(t, &st);
	t->frames = (t->frames & ~NC_FRAME_BUSY_POLL) | NC_FRAME_SYSCALL;
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
		nc_sys_enter(data, regs, stage);
}

/*
 * nc_busy_close - the busy-poll loop of task slot @t ends at its last
 * poll: recorded if it polled
 */
static void nc_busy_close(struct nc_task *t)
{
	if (!(t->frames & NC_FRAME_BUSY_POLL))
		return;
	t->frames &= ~NC_FRAME_BUSY_POLL;
	if (t->bp_polled)
		nc_record(NETCOST_STAGE_BUSY_POLL,
			  nc_net(t->bp_mark, t->bp_start, t->bp_mark_excl - t->bp_start_excl));
}

/*
 * nc_fe_busy_loop - napi_busy_loop() starts: in a watched receive call,
 * a busy_poll run opens (the call's previous one is recorded)
 */
void nc_fe_busy_loop(void *hook, struct ftrace_regs *fregs)
{
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	preempt_disable_notrace();
	t0 = nc_hit(hook);
	t = nc_task_cur();
	if (!t || !(t->frames & NC_FRAME_SYSCALL) ||
	    t->sys_dir != NETCOST_STAGE_SYSCALL_RX)
		goto out;
	nc_busy_close(t);
	nc_probe_end(t0);
	nc_stamp(this_nc_cpu(), &st);
	nc_task_settle(t, &st);
	t->frames |= NC_FRAME_BUSY_POLL;
	t->bp_polled = 0;
	t->bp_start = st.now;
	t->bp_mark = st.now;
	t->bp_start_excl = t->sys_excl;
	t->bp_mark_excl = t->sys_excl;
	preempt_enable_notrace();
	return;
out:
	nc_probe_end(t0);
	preempt_enable_notrace();
}

/*
 * nc_busy_poll_mark - a poll outside a NET_RX softirq and NAPI threads
 * ended at @st with @work packets: in a busy-poll loop's own polls
 * (NAPI_STATE_IN_BUSY_POLL: busy_poll_stop() clears it before its poll)
 * they count in busy_poll_packets; in a busy_poll run, the stretch since
 * the entry or the previous poll ends here.  Preemption is off (a
 * tracepoint probe).
 */
void nc_busy_poll_mark(const struct napi_struct *napi, int work,
		       const struct nc_stamp *st)
{
	struct nc_task *t;
	u64 seg;

	if (work > 0 && test_bit(NAPI_STATE_IN_BUSY_POLL, &napi->state))
		nc_count(NETCOST_CTR_BUSY_POLL_PACKETS, work);
	t = nc_task_cur();
	if (!t || !(t->frames & NC_FRAME_BUSY_POLL))
		return;
	nc_task_settle(t, st);
	seg = nc_net(st->now, t->bp_mark, t->sys_excl - t->bp_mark_excl);
	if (work <= 0)
		nc_count(NETCOST_CTR_BUSY_POLL_IDLE_CYCLES, seg);
	t->bp_mark = st->now;
	t->bp_mark_excl = t->sys_excl;
	t->bp_polled = 1;
}

static noinline void nc_sys_exit(void *data)
{
	NC_TP_GUARD()
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	nc_stamp(this_nc_cpu(), &st);
	t0 = nc_hit(data);
	t = nc_task_cur();
	if (!t || !(t->frames & NC_FRAME_SYSCALL))
		goto out;
	nc_task_settle(t, &st);
	nc_busy_close(t);
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
