#!/bin/sh
# probe-tested.sh - (tested guest of a pair) the 1025-byte max-rate stream
# to the peer's sink, without and with "netcost soak", with an ftrace
# record of one second of each and the sender's schedstat.
# usage: probe-tested.sh OUTDIR SECONDS [MODES]   (MODES: "nosoak soak")
out=${1:-/mnt/out} secs=${2:-3} modes=${3:-"nosoak soak"}
T=/sys/kernel/tracing
mkdir -p "$out"
echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
insmod /lib/netcost/netcost.ko || echo "insmod failed" >&2
uname -a >"$out/uname"
# policy of every task: pid comm policy rtprio nice (stat fields 42 41 19)
tasks() {
	for t in /proc/[0-9]*/task/[0-9]*; do
		[ -r $t/stat ] || continue
		sed 's/^\([0-9]*\) (\(.*\)) /\1 \2 /' $t/stat | tr -s ' ' |
			awk '{ printf "%6s %-20s policy %s rtprio %s nice %s\n", $1, $2, $(41), $(40), $(19) }'
	done
}
trace_on() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 16384 >$T/buffer_size_kb
	echo 'p:wfree sock_wfree' >>$T/kprobe_events 2>/dev/null
	echo 'p:wspace sock_def_write_space' >>$T/kprobe_events 2>/dev/null
	echo 'p:allocsend sock_alloc_send_pskb' >>$T/kprobe_events 2>/dev/null
	for e in sched/sched_switch sched/sched_wakeup sched/sched_waking \
		irq/irq_handler_entry irq/irq_handler_exit irq/softirq_raise \
		irq/softirq_entry irq/softirq_exit net/net_dev_xmit net/net_dev_queue \
		napi/napi_poll sched/sched_pi_setprio sched/sched_stat_runtime timer/hrtimer_expire_entry timer/timer_expire_entry \
		irq_vectors/local_timer_entry kprobes/wfree kprobes/wspace kprobes/allocsend \
		raw_syscalls/sys_enter raw_syscalls/sys_exit; do
		echo 1 >$T/events/$e/enable 2>/dev/null || echo "no event $e" >&2
	done
	echo 'stacktrace if prev_state & 3' >$T/events/sched/sched_switch/trigger 2>/dev/null
	echo 1 >$T/tracing_on
}
trace_off() {
	echo 0 >$T/tracing_on
	echo '!stacktrace if prev_state & 3' >$T/events/sched/sched_switch/trigger 2>/dev/null
	for e in $T/events/*/enable; do echo 0 >$e; done
	cat $T/trace >"$1"
	echo >$T/trace
}
for m in $modes; do
	d=$out/$m; mkdir -p $d
	pair wait go-$m 120 || echo "no go-$m" >&2
	if [ $m = soak ]; then
		netcost soak -d $((secs + 2)) -q -j >$d/soak.json 2>$d/soak.err &
		soak=$!
		sleep 1
	fi
	cat /proc/softirqs >$d/softirqs0; cat /proc/interrupts >$d/interrupts0
	cat /sys/class/net/eth0/statistics/tx_packets >$d/txp0
	netcost reset
	netcost-gen send -j -q -H 10.0.0.2 -p 9001 -m 1025 -r 0 -l $secs >$d/send.json 2>$d/send.err &
	snd=$!
	sleep 1
	tasks >$d/tasks
	for t in /proc/$snd/task/*; do echo "${t##*/} $(cat $t/schedstat) $(grep ctxt $t/status | tr -d '\n\t')"; done >$d/schedstat0
	cat /proc/schedstat >$d/cpuschedstat0
	trace_on
	sleep 1
	trace_off $d/trace
	for t in /proc/$snd/task/*; do echo "${t##*/} $(cat $t/schedstat) $(grep ctxt $t/status | tr -d '\n\t')"; done >$d/schedstat1
	cat /proc/schedstat >$d/cpuschedstat1
	cat /proc/$snd/wchan >$d/wchan 2>/dev/null
	cat /proc/$snd/stack >$d/stack 2>/dev/null
	wait $snd
	netcost save $d/snap.json --note "$m" >/dev/null
	cat /proc/softirqs >$d/softirqs1; cat /proc/interrupts >$d/interrupts1
	cat /sys/class/net/eth0/statistics/tx_packets >$d/txp1
	[ $m = soak ] && wait $soak
	echo "$m: $(cat $d/send.json | tr -d '\n' | head -c 300)"
done
echo "probe-tested: done"
