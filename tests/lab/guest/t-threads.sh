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
#              thread against napi_thread (and the IRQ threads again);
#   rps/       eth0 with RPS (queues/rx-0/rps_cpus): the stack runs in a
#              CPU's backlog.  With one CPU, threaded NAPI and RPS to
#              the CPU itself: the NAPI thread's poll puts each packet
#              into the backlog and raises NET_RX, which runs at the
#              thread's local_bh_enable(), inside its run
#              (net_rx_in_napi_thread; RT's backlog threads take only
#              other CPUs' packets).  With two or more, softirq NAPI and
#              RPS to CPU 1, the NIC's interrupt on CPU 0: where
#              the kernel has RT's backlog threads (backlog_napi/N,
#              PREEMPT_RT 6.10+), backlog_napi/1 runs the stack, against
#              napi_thread.
#   busy/      where interrupts are threaded: softirq NAPI with the
#              sink's socket busy-polling (net.core.busy_read when it
#              was made: its blocking receives poll eth0 themselves),
#              the NIC IRQ threads against irq_thread as in softirq/;
#   busynapi/  where the kernel busy-polls: threaded NAPI with the
#              same busy-polling sink, the NAPI thread against
#              napi_thread as in threaded/.
# Each window is exact for the threads: the sender stops and the threads
# fall asleep before their runtime is read, on both sides of the netcost
# reset and of the end of recording.  eth0's threaded setting is set back
# afterwards.  NAME/netrx.hist: the kernel's own count of NET_RX runs by
# task over the window (a hist trigger on softirq_entry, vec 3), for
# net_rx_in_napi_thread.
#
# The threads' time on the CPU from the kernel's own events, which
# schedstat's runtime only approximates (its clock can skip an update at
# a preempting wake-up): a trace (x86-tsc, the clock netcost stamps with)
# of their sched_switch events and of finish_task_switch() (a kprobe
# event and its twin, created after it so that its handler runs just
# before: one kprobe event's cost), marks nct_in and nct_out where the
# inner runtime reads were.  NAME/trace.
#
# netcost's own probe work at each switch lies between its pause and
# resume stamps and ftrace's events: on the CPU in the thread, in none
# of netcost's runs.  Its size comes from the trace too, with and without
# netcost, so that check-threads takes it out of the reference without
# netcost's own figures:
#   - at sched_switch, a second tracefs instance (ncthr_pre) has the same
#     filtered event, enabled before netcost's load: its probe runs
#     before netcost's and the top instance's after it (a tracepoint
#     calls its probes in the order they were registered), so the gap
#     between the two events' stamps is one ftrace event without netcost
#     and one ftrace event plus netcost's probe with it;
#   - at finish_task_switch(), a kprobe event at the first instruction
#     after the function's fentry call (fts_late, not an ftrace-based
#     kprobe: it runs after every ftrace_ops callback there, netcost's
#     included); the gap from fts to fts_late is the same with and
#     without netcost but for netcost's callback.  kprobes-optimization
#     is off meanwhile, so that fts_late stays an int3 probe throughout.
# cal/ is that trace over the same load before netcost's load.  ftrace's
# kprobe events are disarmed then, so that their ftrace_ops registers
# again after netcost's and runs first (tests/oracle/README.md).
# In cal/ the oracle's stub module ($STUB, tests/oracle/stub) stands
# where netcost's probes will: its sched_switch probe between the two
# instances' events, its ftrace_ops callback after the kprobe events'
# and before fts_late, each stamping as its first act (cal/stub.stamps):
# how far after ncthr_pre's event a probe's first act lies, and how far
# before fts_late a callback's last act lies, place netcost's pause and
# resume stamps in the windows' traces (check-threads).
#
# usage: t-threads.sh OUTDIR [SECONDS]
out=${1:-/mnt/out}
secs=${2:-1}
rate=${T_THREADS_RATE:-2000}
mkdir -p "$out"
. /lab/lib.sh
notok() { not_ok "$@"; }

if lsmod | grep -q '^netcost '; then rmmod netcost; fi

TH=/sys/class/net/eth0/threaded
if [ ! -w $TH ]; then
	skip "t-threads: this kernel has no threaded NAPI ($TH)"
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
		napi/*|backlog_napi/*) echo "${p#/proc/} $comm" ;;
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
P=$T/instances/ncthr_pre
KL=/sys/kernel/debug/kprobes/list
KOPT=/proc/sys/debug/kprobes-optimization
[ -e $T/trace_clock ] || mount -t tracefs nodev $T 2> /dev/null
trace=0
fts=$(fts_sym)
# fts_late - the offset in $fts of the first instruction after its fentry
# call: the first offset a kprobe takes (others are no instruction's
# start) that is no ftrace-based kprobe (kprobes/list marks those
# [FTRACE]: the fentry call, after an endbr64 where IBT is built in)
fts_late() {
	for o in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		echo "p:ncthr/fts_late $fts+$o" >> $T/kprobe_events 2> /dev/null || continue
		if grep "$fts+0x$(printf %x $o)[^0-9a-f]" $KL | grep -q FTRACE; then
			echo "-:ncthr/fts_late" >> $T/kprobe_events
			continue
		fi
		echo "$o"
		return 0
	done
	return 1
}
if [ -w $T/trace_clock ] && [ -n "$fts" ] && [ -r $KL ] && [ -w $KOPT ]; then
	trace_keep $T
	old_cmd=$(cat $T/options/record-cmd)
	old_kopt=$(cat $KOPT)
	echo 0 > $T/tracing_on
	# no comm recording: it adds a probe of its own to sched_switch,
	# after netcost's pause stamp and before ftrace's (tests/oracle)
	echo 0 > $T/options/record-cmd
	f='prev_comm ~ "napi/*" || prev_comm ~ "irq/*" || prev_comm ~ "backlog_napi/*" || next_comm ~ "napi/*" || next_comm ~ "irq/*" || next_comm ~ "backlog_napi/*"'
	if echo x86-tsc > $T/trace_clock && echo 8192 > $T/buffer_size_kb &&
	   echo "$f" > $T/events/sched/sched_switch/filter &&
	   mkdir $P && echo 0 > $P/tracing_on && echo x86-tsc > $P/trace_clock &&
	   echo 4096 > $P/buffer_size_kb &&
	   { [ ! -e $P/options/record-cmd ] || echo 0 > $P/options/record-cmd; } &&
	   echo "$f" > $P/events/sched/sched_switch/filter &&
	   echo 1 > $P/events/sched/sched_switch/enable &&
	   echo "p:ncthr/fts $fts" >> $T/kprobe_events &&
	   echo "p:ncthr/fts_cal $fts" >> $T/kprobe_events &&
	   late=$(fts_late) && echo 0 > $KOPT; then
		trace=1
		diag "threads trace: fts_late at $fts+$late"
	else
		notok "threads trace: x86-tsc clock, a tracefs instance, sched_switch or a kprobe event on $fts refused"
	fi
else
	notok "threads trace: no tracefs, finish_task_switch, kprobes list or kprobes-optimization in this kernel"
fi
echo "$trace" > "$out/trace"
# trace_on 0|1 - both instances' tracing_on, the top one inside
trace_on() {
	if [ "$1" = 1 ]; then
		echo 1 > $P/tracing_on; echo 1 > $T/tracing_on
	else
		echo 0 > $T/tracing_on; echo 0 > $P/tracing_on
	fi
}
# top_events 0|1 - the top instance's events (the ncthr kprobe events:
# armed, their ftrace_ops registered, or neither)
top_events() {
	echo "$1" > $T/events/sched/sched_switch/enable
	echo "$1" > $T/events/ncthr/enable
}
trace_end() {
	[ $trace = 1 ] || return 0
	trace_on 0
	top_events 0
	echo 0 > $P/events/sched/sched_switch/enable
	echo 0 > $T/events/sched/sched_switch/filter
	for e in fts_late fts_cal fts; do echo "-:ncthr/$e" >> $T/kprobe_events; done 2> /dev/null
	: > $T/trace
	rmdir $P
	trace_restore $T
	echo "$old_cmd" > $T/options/record-cmd
	echo "$old_kopt" > $KOPT
}
mark() { [ $trace = 1 ] && echo "$1" > $T/trace_marker; }

rm -f /tmp/tready
netcost-gen sink -p 9200 -l 120 --idle-timeout 60 -q --ready-file /tmp/tready \
	> "$out/sink.out" 2>&1 &
sink=$!
wait_for test -s /tmp/tready || notok "sink did not come up"

# warm_up [PORT] - ARP, the threads' first runs; then let everything settle
warm_up() {
	in-ns netcost-gen send -H 10.0.0.1 -p "${1:-9200}" -m 18 -r 200 -n 20 -q --report-wait 0 > /dev/null 2>&1
	sleep 0.5
}

# RT's backlog threads, and eth0's RPS mask
RPS=/sys/class/net/eth0/queues/rx-0/rps_cpus
backlog=0
for p in /proc/[0-9]*; do
	read -r comm < "$p/comm" 2> /dev/null || continue
	case $comm in backlog_napi/*) backlog=1 ;; esac
done
# with one CPU the backlog threads take nothing (RPS to the CPU itself
# runs its backlog in NET_RX)
[ "$(nproc)" -ge 2 ] || backlog=0
old_rps=$(cat $RPS 2> /dev/null)
# eth0's interrupt (and its IRQ thread) pinned on CPU 0 (pin_irqs, lib.sh),
# so that RPS to CPU 1 goes to another CPU's backlog
[ -w $RPS ] || notok "rps: no $RPS (RPS is in every lab kernel)"
echo "$backlog" > "$out/backlog"

# cal/: the same load with threaded NAPI (and with RPS into the backlog
# thread, where there is one), before netcost's load
if [ $trace = 1 ]; then
	mkdir -p "$out/cal"
	echo 1 > $TH || notok "cal: cannot set $TH to 1"
	warm_up
	: > $T/trace; : > $P/trace
	# the stub (stub=1): its sched_switch probe registered after ncthr_pre's
	# event and before the top instance's, its ftrace_ops before the
	# kprobe events' (so called after theirs, as netcost's is)
	stub=0
	if [ -r "${STUB:-}" ] && insmod "$STUB" sym="$fts" mode=1 n=65536; then
		stub=1
	else
		notok "cal: the oracle's stub module (STUB=${STUB:-unset}) cannot be loaded: no places for netcost's switch stamps"
	fi
	top_events 1
	trace_on 1
	in-ns netcost-gen send -H 10.0.0.1 -p 9200 -m 18 -r "$rate" -b 1 -n 400 -q --report-wait 0 \
		> "$out/cal/send.out" 2>&1 || notok "cal: the sender failed"
	sleep 0.3
	if [ $backlog = 1 ]; then
		pin_irqs eth0 0 rps
		echo 0 > $TH; echo 2 > $RPS
		in-ns netcost-gen send -H 10.0.0.1 -p 9200 -m 18 -r "$rate" -b 1 -n 400 -q --report-wait 0 \
			> "$out/cal/send-rps.out" 2>&1 || notok "cal: the sender failed (RPS)"
		sleep 0.3
		echo "$old_rps" > $RPS
		unpin_irqs
	fi
	trace_on 0
	cat $T/trace > "$out/cal/trace"
	cat $P/trace > "$out/cal/trace.pre"
	top_events 0
	if [ $stub = 1 ]; then
		cat /proc/ncstub > "$out/cal/stub.stamps"
		rmmod ncstub || notok "cal: rmmod ncstub"
	fi
	: > $T/trace; : > $P/trace
	diag "cal: $(grep -c sched_switch: "$out/cal/trace") switches traced without netcost"
fi

if insmod /lib/netcost/netcost.ko; then ok "insmod netcost.ko"; else
	notok "insmod netcost.ko"; trace_end; exit 1
fi
# after netcost's load: the top instance's sched_switch probe runs after
# netcost's, the kprobe events' ftrace_ops before netcost's
[ $trace = 1 ] && top_events 1

# NET_RX runs by task: a hist trigger (the kernel's own count), set
# before netcost's reset and taken away after its recording stops, while
# the threads sleep
SQ=$T/events/irq/softirq_entry
hq='hist:keys=common_pid:vals=hitcount:size=256 if vec == 3'

# window NAME THREADED [RPS [PORT]] - one window into $out/NAME (RPS
# empty: eth0's left as it is; PORT: the sink's, 9200 by default)
window() {
	port=${4:-9200}
	d=/tmp/t.$1
	mkdir -p $d "$out/$1"
	echo "$2" > $d/threaded
	echo "$2" > $TH || { notok "$1: cannot set $TH to $2"; return; }
	if [ -n "${3:-}" ]; then
		echo "$3" > $RPS || { notok "$1: cannot set $RPS to $3"; return; }
	fi
	warm_up "$port"
	runtime $d/before.0
	[ $trace = 1 ] && : > $T/trace && : > $P/trace && trace_on 1
	echo "$hq" > $SQ/trigger || notok "$1: cannot set a hist trigger on softirq_entry"
	netcost reset || notok "$1: netcost reset"
	runtime $d/before.1
	# the kernel's own per-CPU count of packets the stack processed
	# (softnet_stat's first column) and loopback's, for rx_backlog_packets
	cat /proc/net/softnet_stat > $d/softnet.before
	busy_poll_rx > $d/busypoll.before
	cat /sys/class/net/lo/statistics/rx_packets > $d/lo.before
	mark nct_in
	in-ns netcost-gen send -H 10.0.0.1 -p "$port" -m 18 -r "$rate" -b 1 -l "$secs" -q --report-wait 0 \
		> "$out/$1/send.out" 2>&1 || notok "$1: the sender failed"
	sleep 0.3
	runtime $d/after.0
	busy_poll_rx > $d/busypoll.after
	mark nct_out
	netcost config set recording off || notok "$1: recording off"
	cat $SQ/hist > $d/netrx.hist 2> /dev/null
	echo "!$hq" >> $SQ/trigger
	cat /proc/net/softnet_stat > $d/softnet.after
	cat /sys/class/net/lo/statistics/rx_packets > $d/lo.after
	[ $trace = 1 ] && trace_on 0 && cat $T/trace > $d/trace && cat $P/trace > $d/trace.pre
	runtime $d/after.1
	netcost dump -j > $d/after.json || notok "$1: netcost dump -j"
	netcost info -j > $d/info.json || notok "$1: netcost info -j"
	netcost config set recording on
	cp $d/* "$out/$1/"
	[ -n "${3:-}" ] && echo "$old_rps" > $RPS
	diag "$1 (threaded=$2${3:+, rps_cpus=$3}): $(awk '{ printf "%s ", $2 }' $d/after.1)"
	ok "$1: a ${secs}s window of ${rate} pps, threaded=$2${3:+, rps_cpus=$3}"
}

echo "${LAB_ICOUNT:-0}" > "$out/icount"
nproc > "$out/cpus"
window softirq 0
window threaded 1
if [ -w $RPS ]; then
	if [ "$(nproc)" -ge 2 ]; then
		pin_irqs eth0 0 rps
		window rps 0 2
		unpin_irqs
	else
		window rps 1 1
	fi
	if [ "$(nproc)" -lt 2 ]; then
		diag "rps: one CPU, threaded NAPI, RPS to itself: its backlog runs in NET_RX, in the NAPI thread (backlog threads take other CPUs' packets)"
	elif [ $backlog = 0 ]; then
		diag "rps: no backlog threads in this kernel (PREEMPT_RT 6.10+ has them): the backlog runs in NET_RX"
	fi
fi
# busy/: the same load into a sink whose socket busy-polls (busy_read is
# copied into a socket when it is made), where interrupts are threaded;
# busynapi/: the same with threaded NAPI, on every kernel with busy
# polling (the NAPI thread and the sink's loops take eth0's NAPI in turn:
# NAPI_STATE_SCHED is the thread's, NAPI_STATE_IN_BUSY_POLL the loop's).
# With two CPUs or more the sink and eth0's interrupts share CPU 0: on
# another CPU the IRQ thread takes every packet before the sink's loop
# polls (6.12-rt, two CPUs: 0 of 2,000 busy-polled, against 656 on one)
BR=/proc/sys/net/core/busy_read
# busy_window NAME THREADED - window NAME into a busy-polling sink
busy_window() {
	old_br=$(cat $BR)
	on0=""
	if [ "$(nproc)" -ge 2 ]; then
		pin_irqs eth0 0 "$1"
		on0="taskset -c 0"
	fi
	busy_us=${T_THREADS_BUSY_US:-1000}
	echo "$busy_us" > $BR
	rm -f /tmp/bready
	$on0 netcost-gen sink -p 9201 -l 120 --idle-timeout 60 -q --ready-file /tmp/bready \
		> "$out/sink-$1.out" 2>&1 &
	bsink=$!
	wait_for test -s /tmp/bready || notok "$1: the busy-polling sink did not come up"
	echo "$old_br" > $BR
	# with threaded NAPI the IRQ wakes the NAPI thread, which takes every
	# packet before the sink's loop polls (6.12, one CPU: 0 of 2,000
	# busy-polled) unless eth0 defers its interrupts, as busy polling is
	# set up (lib.sh: not on RT, whose threads preempt the loop anyway)
	[ "$2" = 1 ] && defer_irqs eth0
	window "$1" "$2" "" 9201
	[ "$2" = 1 ] && undefer_irqs eth0
	kill $bsink 2> /dev/null
	wait $bsink 2> /dev/null
	[ -n "$on0" ] && unpin_irqs
	echo "$busy_us" > "$out/$1/busy_read"
}
drv=$(basename "$(readlink /sys/class/net/eth0/device/driver 2> /dev/null)")
if [ "$drv" = vmxnet3 ]; then
	# vmxnet3 with LRO on (its default; the image has no ethtool) hands
	# its packets to netif_receive_skb(), not GRO: no skb carries a NAPI
	# id, so no socket can busy-poll it (6.12-rt, two queues: 0 of 2,000)
	skip "busy, busynapi: eth0 is vmxnet3, whose LRO path marks no NAPI id: its sockets cannot busy-poll"
elif [ -w $BR ]; then
	kernel_threads_irqs && busy_window busy 0
	busy_window busynapi 1
else
	# the kernel lacks the feature: 6.1's NET_RX_BUSY_POLL is "default y if !PREEMPT_RT"
	skip "busy, busynapi: this kernel has no busy polling (no $BR: CONFIG_NET_RX_BUSY_POLL is off)"
fi
echo "$old_threaded" > $TH || notok "cannot set $TH back to $old_threaded"
trace_end
kill $sink 2> /dev/null
wait $sink 2> /dev/null
rmmod netcost || notok "rmmod netcost"
