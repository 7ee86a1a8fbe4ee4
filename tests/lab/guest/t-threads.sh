#!/bin/sh
# t-threads.sh - (guest) netcost's cycles for the runs of the packet-only
# kernel threads against the threads' own runtime, which shares none of
# netcost's definitions: /proc/<pid>/schedstat field 1 (ns on CPU, the
# scheduler's sum_exec_runtime).  The host's check-threads compares;
# this script keeps the figures in OUTDIR.
#
# Two windows of the same paced UDP load into eth0 (the sink in the root
# netns, the sender in the peer's):
#   softirq/   eth0 with NAPI in the NET_RX softirq (threaded = 0): the
#              NIC IRQ threads, where interrupts are threaded (RT or
#              threadirqs), against irq_thread;
#   threaded/  eth0 with threaded NAPI (threaded = 1): its napi/eth0-N
#              thread against napi_thread (and the IRQ threads again).
# Each window is exact for the threads: the sender stops and the threads
# fall asleep before their runtime is read, on both sides of the netcost
# reset and of the end of recording.  eth0's threaded setting is set back
# afterwards.
#
# The threads' time on the CPU from the kernel's own events, which
# schedstat's runtime only approximates (its clock can skip an update at
# a preempting wake-up): a trace (x86-tsc, the clock netcost stamps with)
# of their sched_switch events and of finish_task_switch() (a kprobe
# event and its twin, created after it so that its handler runs just
# before: one kprobe event's cost, so that the check knows where
# netcost's own resume stamp there falls), marks
# nct_in and nct_out where the inner runtime reads were.  NAME/trace.
#
# usage: t-threads.sh OUTDIR [SECONDS]
out=${1:-/mnt/out}
secs=${2:-1}
rate=${T_THREADS_RATE:-2000}
mkdir -p "$out"
. /lab/lib.sh
notok() { not_ok "$@"; }

if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "insmod netcost.ko"; else notok "insmod netcost.ko"; exit 1; fi

TH=/sys/class/net/eth0/threaded
if [ ! -w $TH ]; then
	skip "t-threads: this kernel has no threaded NAPI ($TH)"
	rmmod netcost
	exit 0
fi
old_threaded=$(cat $TH)

# the NIC IRQs' numbers, from /proc/interrupts
nic_irqs=$(awk -v re="$(nics_re)" 'NR > 1 && $0 ~ re { sub(/:$/, "", $1); print $1 }' /proc/interrupts)
# threads - "pid comm" of the NIC IRQ threads and the NAPI threads
threads() {
	for p in /proc/[0-9]*; do
		read -r comm < "$p/comm" 2> /dev/null || continue
		case $comm in
		napi/*) echo "${p#/proc/} $comm" ;;
		irq/*)
			n=${comm#irq/}; n=${n%%-*}
			for i in $nic_irqs; do
				[ "$i" = "$n" ] && echo "${p#/proc/} $comm"
			done ;;
		esac
	done
}
# runtime FILE - "pid comm runtime_ns switches run_delay_ns" of every
# such thread (schedstat fields 1, 3 and 2)
runtime() {
	: > "$1"
	threads | while read -r pid comm; do
		read -r run delay n < "/proc/$pid/schedstat" || continue
		echo "$pid $comm $run $n $delay" >> "$1"
	done
}

# the trace of the threads' switches (see the top); trace=1 when it runs
T=/sys/kernel/tracing
[ -e $T/trace_clock ] || mount -t tracefs nodev $T 2> /dev/null
trace=0
fts=$(awk '$3 ~ /^finish_task_switch(\.[a-z]+\.[0-9]+)*$/ && $4 == "" { print $3; exit }' /proc/kallsyms)
if [ -w $T/trace_clock ] && [ -n "$fts" ]; then
	old_clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
	old_kb=$(sed 's/.*expanded: *\([0-9]*\).*/\1/; s/ .*//' $T/buffer_size_kb)
	old_cmd=$(cat $T/options/record-cmd)
	echo 0 > $T/tracing_on
	# no comm recording: it adds a probe of its own to sched_switch,
	# after netcost's pause stamp and before ftrace's (tests/oracle)
	echo 0 > $T/options/record-cmd
	f='prev_comm ~ "napi/*" || prev_comm ~ "irq/*" || next_comm ~ "napi/*" || next_comm ~ "irq/*"'
	if echo x86-tsc > $T/trace_clock && echo 8192 > $T/buffer_size_kb &&
	   echo "$f" > $T/events/sched/sched_switch/filter &&
	   echo 1 > $T/events/sched/sched_switch/enable &&
	   echo "p:ncthr/fts $fts" >> $T/kprobe_events &&
	   echo "p:ncthr/fts_cal $fts" >> $T/kprobe_events &&
	   echo 1 > $T/events/ncthr/enable; then
		trace=1
	else
		notok "threads trace: x86-tsc clock, sched_switch or a kprobe event on $fts refused"
	fi
else
	notok "threads trace: no tracefs or no finish_task_switch in this kernel"
fi
echo "$trace" > "$out/trace"
trace_end() {
	[ $trace = 1 ] || return 0
	echo 0 > $T/tracing_on
	echo 0 > $T/events/sched/sched_switch/enable
	echo 0 > $T/events/sched/sched_switch/filter
	echo 0 > $T/events/ncthr/enable
	for e in fts_cal fts; do echo "-:ncthr/$e" >> $T/kprobe_events; done 2> /dev/null
	: > $T/trace
	echo "$old_clock" > $T/trace_clock
	echo "$old_kb" > $T/buffer_size_kb
	echo "$old_cmd" > $T/options/record-cmd
}
mark() { [ $trace = 1 ] && echo "$1" > $T/trace_marker; }

rm -f /tmp/tready
netcost-gen sink -p 9200 -l 120 --idle-timeout 60 -q --ready-file /tmp/tready \
	> "$out/sink.out" 2>&1 &
sink=$!
wait_for test -s /tmp/tready || notok "sink did not come up"

# window NAME THREADED - one window into $out/NAME
window() {
	d=/tmp/t.$1
	mkdir -p $d "$out/$1"
	echo "$2" > $TH || { notok "$1: cannot set $TH to $2"; return; }
	# warm up (ARP, the thread's first run), then let everything settle
	in-ns netcost-gen send -H 10.0.0.1 -p 9200 -m 18 -r 200 -n 20 -q --report-wait 0 > /dev/null 2>&1
	sleep 0.5
	runtime $d/before.0
	[ $trace = 1 ] && : > $T/trace && echo 1 > $T/tracing_on
	netcost reset || notok "$1: netcost reset"
	runtime $d/before.1
	mark nct_in
	in-ns netcost-gen send -H 10.0.0.1 -p 9200 -m 18 -r "$rate" -b 1 -l "$secs" -q --report-wait 0 \
		> "$out/$1/send.out" 2>&1 || notok "$1: the sender failed"
	sleep 0.3
	runtime $d/after.0
	mark nct_out
	netcost config set recording off || notok "$1: recording off"
	[ $trace = 1 ] && echo 0 > $T/tracing_on && cat $T/trace > $d/trace
	runtime $d/after.1
	netcost dump -j > $d/after.json || notok "$1: netcost dump -j"
	netcost info -j > $d/info.json || notok "$1: netcost info -j"
	netcost config set recording on
	cp $d/* "$out/$1/"
	diag "$1 (threaded=$2): $(awk '{ printf "%s ", $2 }' $d/after.1)"
	ok "$1: a ${secs}s window of ${rate} pps, threaded=$2"
}

echo "${LAB_ICOUNT:-0}" > "$out/icount"
window softirq 0
window threaded 1
echo "$old_threaded" > $TH || notok "cannot set $TH back to $old_threaded"
trace_end
kill $sink 2> /dev/null
wait $sink 2> /dev/null
rmmod netcost || notok "rmmod netcost"
