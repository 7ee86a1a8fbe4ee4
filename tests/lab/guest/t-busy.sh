#!/bin/sh
# t-busy.sh - (guest) busy polling (issue 19): a paced UDP load into eth0
# received by a sink whose blocking receives busy-poll the NIC
# (net.core.busy_read), recorded by netcost and by the kernel's own
# trace, for the host's check-busy.  The guest checks the count it can:
# netcost's busy_poll_packets against the kernel's TcpExt
# BusyPollRxPackets over the same window, exactly.
#
# The window: trace on, netcost reset, the sink starts, the sender sends,
# the sink is stopped (its last busy-poll run ends with its system
# call), recording off, trace off.  Every busy-poll loop of the sink is
# inside both.  The trace (x86-tsc: the clock netcost stamps with) has a
# kprobe event at napi_busy_loop()'s entry and its twin (loop_cal,
# created after it so that its handler runs just before: the size of one
# such event, which check-busy takes out), every napi_poll, the
# interrupts (irq_handler, softirq, the x86 vectors) and sched_switch:
# check-busy replays the sink's loops from it.  OUTDIR/: trace, dump.json,
# info.json, mib (BusyPollRxPackets before and after), busy_read.
#
# PACKETS (default 400) at T_BUSY_RATE (2,000 pps); busy_read (default
# 1,000 us) is above the packets' interval, so that the loops spin.
#
# Meant for --icount boots (one CPU: the two readings' probe costs are
# then steady; in real-time TCG an event's cost swings with the
# translation cache, and the readings of one run part by a few %).  The
# sender runs only when a loop yields the CPU, so eth0 defers its
# interrupts (napi_defer_hard_irqs, gro_flush_timeout) on stock kernels,
# and the packets wait for a loop's poll: 294 of 400 (6.12).  With two
# CPUs or more, the sink runs on CPU 0 and the sender on CPU 1.  The
# trace's buffer must not overrun (OUTDIR/overrun: events lost, 0).
#
# usage: t-busy.sh OUTDIR [PACKETS] [BUSY_READ_US]
out=${1:-/mnt/out/busy}
pkts=${2:-400}
us=${3:-1000}
rate=${T_BUSY_RATE:-2000}
mkdir -p "$out"
. /lab/lib.sh

BR=/proc/sys/net/core/busy_read
T=/sys/kernel/tracing
if [ ! -w $BR ]; then
	not_ok "t-busy: this kernel has no busy polling ($BR)"
	exit 1
fi
[ -e $T/trace_clock ] || mount -t tracefs nodev $T 2> /dev/null
if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "busy: insmod netcost.ko"; else
	not_ok "busy: insmod netcost.ko"; exit 1
fi


# the sink on CPU 0, the sender (and this script) on CPU 1
on0="" on1=""
if [ "$(nproc)" -ge 2 ]; then
	on0="taskset -c 0" on1="taskset -c 1"
	taskset -p -c 1 $$ > /dev/null || not_ok "busy: taskset: this script to CPU 1"
fi
old_br=$(cat $BR)
trace_keep $T
old_cmd=$(cat $T/options/record-cmd)
echo 0 > $T/tracing_on
: > $T/trace
echo 0 > $T/options/record-cmd
trace=0
if echo x86-tsc > $T/trace_clock && echo 32768 > $T/buffer_size_kb &&
   echo "p:ncbp/loop napi_busy_loop" >> $T/kprobe_events &&
   echo "p:ncbp/loop_cal napi_busy_loop" >> $T/kprobe_events &&
   echo 1 > $T/events/ncbp/enable &&
   echo 1 > $T/events/napi/napi_poll/enable &&
   echo 1 > $T/events/irq/irq_handler_entry/enable &&
   echo 1 > $T/events/irq/irq_handler_exit/enable &&
   echo 1 > $T/events/irq/softirq_entry/enable &&
   echo 1 > $T/events/irq/softirq_exit/enable &&
   echo 1 > $T/events/sched/sched_switch/enable; then
	trace=1
else
	not_ok "busy: the trace (x86-tsc, a kprobe event on napi_busy_loop, napi_poll, irq, sched_switch) was refused"
fi
# the x86 vectors' entries and exits (what netcost counts as hardirq_vectors)
for e in "$T"/events/irq_vectors/*_entry "$T"/events/irq_vectors/*_exit; do
	[ -w "$e/enable" ] && echo 1 > "$e/enable"
done

echo "$us" > $BR || not_ok "busy: cannot set $BR to $us"
# eth0 defers its interrupts after a poll (lib.sh)
defer_irqs eth0
cat $BR > "$out/busy_read"
# ARP and the first packets, before the window
rm -f /tmp/bready
netcost-gen sink -p 9300 -l 10 -q --ready-file /tmp/bready > /dev/null 2>&1 &
s=$!
wait_for test -s /tmp/bready
in-ns netcost-gen send -H 10.0.0.1 -p 9300 -m 18 -r 200 -n 20 -q --report-wait 0 > /dev/null 2>&1
kill $s; wait $s 2> /dev/null
sleep 0.3

[ $trace = 1 ] && echo 1 > $T/tracing_on
netcost reset || not_ok "busy: netcost reset"
m0=$(busy_poll_rx)
rm -f /tmp/bready
$on0 netcost-gen sink -p 9300 -l 120 --idle-timeout 60 -q --ready-file /tmp/bready \
	> "$out/sink.out" 2>&1 &
sink=$!
wait_for test -s /tmp/bready || not_ok "busy: the sink did not come up"
in-ns $on1 netcost-gen send -H 10.0.0.1 -p 9300 -m 18 -r "$rate" -b 1 -n "$pkts" -q --report-wait 0 \
	> "$out/send.out" 2>&1 || not_ok "busy: the sender failed"
sleep 0.3
kill $sink
wait $sink 2> /dev/null
m1=$(busy_poll_rx)
netcost config set recording off || not_ok "busy: recording off"
echo 0 > $T/tracing_on
echo "$sink $m0 $m1" > "$out/mib"
# events the ring buffer overwrote or dropped: none, or no replay
cat $T/per_cpu/cpu*/stats | awk '$1 == "overrun:" || $1 == "dropped" { s += $NF } END { print s + 0 }' > "$out/overrun"
netcost dump -j > "$out/dump.json" || not_ok "busy: netcost dump -j"
netcost info -j > "$out/info.json" || not_ok "busy: netcost info -j"
[ $trace = 1 ] && cat $T/trace > "$out/trace"
echo "$trace" > "$out/traced"

echo "$old_br" > $BR
undefer_irqs eth0
echo 0 > $T/events/enable
for e in loop_cal loop; do echo "-:ncbp/$e" >> $T/kprobe_events; done 2> /dev/null
: > $T/trace
trace_restore $T
echo "$old_cmd" > $T/options/record-cmd
rmmod netcost || not_ok "busy: rmmod netcost"

# the count the guest can check: the kernel's own
got=$(dump_total busy_poll_packets "$out/dump.json")
want=$((m1 - m0))
if [ "${got:-x}" = "$want" ] && [ "$want" -gt 0 ]; then
	ok "busy: busy_poll_packets $got = TcpExt BusyPollRxPackets +$want (busy_read $us us)"
else
	not_ok "busy: busy_poll_packets ${got:-none} != TcpExt BusyPollRxPackets +$want (busy_read $us us; must be > 0)"
fi
runs=$(dump_total busy_poll "$out/dump.json")
diag "busy: ${runs:-no} busy_poll runs, rx_packets $(dump_total rx_packets "$out/dump.json")"
