#!/bin/sh
# stream-tested.sh - (tested guest of a pair) the 1025-byte stream to the
# peer's sink (peer.sh) in several modes, one netcost snapshot each:
#   nosoak  max rate, no soak          soak   max rate, netcost soak
#   yield   max rate, netcost soak --yield-us 50
#   pnosoak / psoak / pyield: the same at a paced 2000 packets/s
#   fifo    max rate, netcost soak, the sender SCHED_FIFO 1 (--sched fifo:1)
# The soak's JSON (load, waits) and the sender's JSON per mode; with
# TRACE=1 an ftrace record of 0.5 s of "soak" (sched, PI, vruntime).
# usage: stream-tested.sh OUTDIR SECONDS "MODES" [TRACE]
out=${1:-/mnt/out} secs=${2:-4} modes=${3:-"nosoak soak"} trace=${4:-0}
T=/sys/kernel/tracing
mkdir -p "$out"
echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
insmod /lib/netcost/netcost.ko || echo "insmod failed" >&2
uname -a >"$out/uname"
trace_on() {
	echo 0 >$T/tracing_on; echo >$T/trace; echo 8192 >$T/buffer_size_kb
	for e in sched/sched_switch sched/sched_wakeup sched/sched_waking sched/sched_pi_setprio \
		sched/sched_stat_runtime irq/irq_handler_entry irq/softirq_entry irq/softirq_exit \
		net/net_dev_xmit irq_vectors/local_timer_entry; do
		echo 1 >$T/events/$e/enable 2>/dev/null
	done
	echo 1 >$T/tracing_on
}
trace_off() {
	echo 0 >$T/tracing_on
	for e in $T/events/*/enable; do echo 0 >$e; done
	cat $T/trace >"$1"; echo >$T/trace
}
# calibrate both soaks up front, on the idle guest
netcost soak -d 1 -q --calib-file /tmp/cal0 >/dev/null 2>"$out/cal0.err"
netcost soak -d 1 -q --yield-us 50 --calib-file /tmp/cal50 >/dev/null 2>"$out/cal50.err"
for m in $modes; do
	d=$out/$m; mkdir -p $d
	case $m in p*) rate=2000 ;; *) rate=0 ;; esac
	case $m in *fifo) sched="--sched fifo:1" ;; *) sched= ;; esac
	case $m in *nosoak) soak= ;; *yield) soak="--yield-us 50 --calib-file /tmp/cal50" ;; *) soak="--calib-file /tmp/cal0" ;; esac
	pair wait go-$m 120 || echo "no go-$m" >&2
	netcost reset
	if [ -n "$soak" ]; then
		netcost soak -d $((secs + 1)) -q -j $soak >$d/soak.json 2>$d/soak.err &
		sk=$!
		sleep 0.5
	fi
	netcost-gen send -j -q -H 10.0.0.2 -p 9001 -m 1025 -r $rate -l $secs $sched >$d/send.json 2>$d/send.err &
	snd=$!
	if [ "$trace" = 1 ] && [ $m = soak ]; then
		sleep 1; trace_on; sleep 0.5; trace_off $d/trace
	fi
	wait $snd
	[ -n "$soak" ] && wait $sk
	netcost save $d/snap.json --note "$(uname -r) stream $m: 1025-byte UDP at $rate pps (0: max)" >/dev/null
	echo "$m: $(grep -o '"messages":[0-9]*' $d/send.json) $(grep -o '"pps":[0-9.]*' $d/send.json)" \
		"$(grep -o 'the soak slowed[^(]*' $d/soak.err 2>/dev/null | head -c 200)"
done
echo "stream-tested: done"
