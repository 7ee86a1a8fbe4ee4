#!/bin/sh
# record.sh - (guest, busybox sh) one oracle recording: calibrate both
# tools' per-event costs, then run the reference load with netcost and
# ftrace (trace_clock x86-tsc) watching it together.
#
#   tests/lab/run --icount --share build/oracle/share --out DIR -- \
#       STUB=/mnt/host/ncstub-KERNEL.ko sh /mnt/host/record.sh
#
# Writes to /mnt/out: calib.txt, nc.json (netcost's snapshot),
# trace.txt (the raw ftrace text), trace-cpuN.raw (its ring-buffer
# pages), fts-stub.trace and fts-stub.stamps (d, E, L: the stub
# module $STUB), switch-stub.stamps (the stub's stamps at phase B's
# switches and wake-ups), interrupts.txt, trace-stats.txt, kprobe-profile.txt,
# uname.txt, events.txt (the events and kprobe events that were on),
# record.log.
# The order of registration matters and is part of the method
# (tests/oracle/README.md): netcost is loaded first, so its tracepoint
# probes run before ftrace's; ftrace's kprobe events are created after,
# so on a shared kprobe address ftrace's handler runs first.
set -u
OUT=/mnt/out
T=/sys/kernel/tracing
CAL=/mnt/host/calib
LOG=$OUT/record.log
: > "$LOG"
say() { echo "oracle: $*" | tee -a "$LOG"; }
die() { say "FAILED: $*"; exit 1; }

[ -d $T/events ] || T=/sys/kernel/debug/tracing
[ -d $T/events ] || die "no tracefs"
cd $T || die "cd $T"

# ---- calibration: cost of one call, with nothing, ftrace, netcost ----
cal() { _v=$($CAL "$2") || die "calib $2"; echo "$1 ${_v#* }" >> $OUT/calib.txt; }
: > $OUT/calib.txt
echo 0 > tracing_on
echo 0 > options/record-cmd
echo x86-tsc > trace_clock || die "no x86-tsc trace clock"
cal base_getppid getppid
cal base_sendto sendto
cal base_sendto_nosock sendto-nosock
cal base_sendto_badfd sendto-badfd
# one ftrace tracepoint event: raw_syscalls makes two per call
echo 1 > events/raw_syscalls/enable
cal ftrace_tp_getppid getppid
echo 0 > events/raw_syscalls/enable
# one ftrace kprobe event handler: a second event on the same address
GP=$(awk '$3 == "__x64_sys_getppid" { print $3; exit }' /proc/kallsyms)
[ -n "$GP" ] || die "no __x64_sys_getppid"
echo "p:oracle_cal/k1 $GP" >> kprobe_events || die "kprobe event on $GP"
echo "p:oracle_cal/k2 $GP" >> kprobe_events || die "kprobe event on $GP"
echo 1 > events/oracle_cal/k1/enable
cal ftrace_kp1_getppid getppid
echo 1 > events/oracle_cal/k2/enable
cal ftrace_kp2_getppid getppid
echo 0 > events/oracle_cal/enable
echo "-:oracle_cal/k1" >> kprobe_events
echo "-:oracle_cal/k2" >> kprobe_events
echo > trace

# ---- ftrace: kprobe events, then tracepoint events ----
ksym() { awk -v re="^$1(\\.[a-z]+\\.[0-9]+)*\$" '$3 ~ re && $4 == "" { print $3; exit }' /proc/kallsyms; }
kp() { echo "$1" >> kprobe_events 2>>"$LOG" || say "kprobe event not created: $1"; }
FTS=$(ksym finish_task_switch)
[ -n "$FTS" ] || die "no finish_task_switch symbol"
ftrace_on() {
	echo 30720 > buffer_size_kb || die "buffer_size_kb"
	# no comm/tgid recording: it adds a probe of its own to sched_switch
	# (saving the comms of both tasks), between netcost's and ftrace's
	echo 0 > options/record-cmd
	echo 0 > options/record-tgid 2>/dev/null
	echo x86-tsc > trace_clock
	# each *_cal event is created right after its twin, so its handler
	# runs just before the twin's: the gap between the two timestamps is
	# one ftrace kprobe-event handler at that address (the model's K)
	kp "p:oracle/fts $FTS"
	kp "p:oracle/fts_cal $FTS"
	for f in irq_forced_thread_fn irq_thread_fn irq_exit_rcu; do
		s=$(ksym $f)
		[ -n "$s" ] || { say "no symbol $f"; continue; }
		# p before r: at the entry the newest handler runs first (r's
		# instance push, then p's record, then netcost's); at the return
		# netcost's handler runs first (its instance was pushed last)
		kp "p:oracle/${f}_e $s"
		[ $f = irq_exit_rcu ] || kp "p:oracle/${f}_cal $s"
		kp "r:oracle/${f}_r $s"
	done
	# netcost 0.4.0 ends an IRQ thread run at the thread's next
	# kthread_should_stop() (every kthread's loop calls it), with a twin
	s=$(ksym kthread_should_stop)
	if [ -n "$s" ]; then
		kp "p:oracle/kss $s"
		kp "p:oracle/kss_cal $s"
	fi
	grep -q ' nc_set_recording' /proc/kallsyms && kp "p:oracle/rec nc_set_recording on=%di:u8"
	# phase B: the system calls netcost times are those on inet sockets
	# (0.14.0): the replay's own mark is the call reaching inet's
	# sendmsg/recvmsg (every AF_INET/AF_INET6 socket type's proto_ops:
	# UDP, TCP, raw).  Exported, so never renamed by the compiler: no
	# ksym(), whose scan of /proc/kallsyms costs seconds of the boot
	# under TCG (with four of them a phase, 6.1's recording boot took 95
	# s against 62 s without).  In phase B only: phase A's trace does not
	# need them
	if [ "${1:-}" = B ]; then
		for f in inet_sendmsg inet_recvmsg inet6_sendmsg inet6_recvmsg; do
			kp "p:oracle/$f $f"
		done
	fi
	# RPS=1: a backlog poll's start (netcost 0.8.0 times its packets)
	if [ "${RPS:-0}" = 1 ]; then
		s=$(ksym process_backlog)
		[ -n "$s" ] && kp "p:oracle/backlog $s"
	fi
	echo 1 > events/oracle/enable || die "enable kprobe events"
	for e in irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit \
		irq_vectors nmi/nmi_handler \
		sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new \
		sched/sched_process_exit \
		raw_syscalls napi/napi_poll \
		net/netif_receive_skb_entry net/netif_receive_skb_exit net/netif_receive_skb \
		net/napi_gro_receive_entry net/napi_gro_receive_exit \
		net/netif_rx_entry net/netif_rx_exit \
		net/netif_receive_skb_list_entry net/netif_receive_skb_list_exit \
		net/napi_gro_frags_entry net/napi_gro_frags_exit \
		net/net_dev_start_xmit net/net_dev_xmit; do
		if [ -e events/$e/enable ]; then
			echo 1 > events/$e/enable || say "cannot enable $e"
		else
			say "event $e does not exist here"
		fi
	done
	echo > trace
}
ftrace_off() {
	echo 0 > tracing_on
	echo 0 > events/enable
	echo 0 > events/oracle/enable
	echo > kprobe_events
	echo > trace
}
# LOAD (tests/oracle/run's config suffix): udp18 (the default: 18-byte
# UDP at 1,500/s), udp1472 (1472-byte UDP as fast as the sender goes:
# full frames, a sender that fills its socket), tcp (one TCP stream,
# 16 KiB sends, 24 MiB: GSO on the sender, GRO at the receiver, the
# receiver's ACKs); phase A runs half of phase B's
LOAD=${LOAD:-udp18}
case $LOAD in udp18|udp1472|tcp) ;; *) die "LOAD=$LOAD: one of udp18, udp1472, tcp" ;; esac
# SAMPLE (tests/oracle/run's -sampleN): netcost config sample N
case ${SAMPLE:-1} in *[!0-9]*) die "SAMPLE=$SAMPLE: a number of packets" ;; esac
sink_start() {
	rm -f /tmp/sink.ready
	if [ "$LOAD" = tcp ]; then
		in-ns $CAL tcp-sink 9000 /tmp/sink.ready > "$OUT/sink$1.out" 2>&1 &
	else
		in-ns netcost-gen sink -q -p 9000 --ready-file /tmp/sink.ready --idle-timeout 5 \
			> "$OUT/sink$1.out" 2>&1 &
	fi
	SINK=$!
	n=100
	while [ ! -s /tmp/sink.ready ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	[ -s /tmp/sink.ready ] || die "sink did not start"
}
# load HALVES - the sender, root ns -> peer ns, for HALVES half-units
load() {
	case $LOAD in
	udp18) netcost-gen send -q -H 10.0.0.2 -p 9000 -m 18 -r 1500 -l "$1" ;;
	udp1472) netcost-gen send -q -H 10.0.0.2 -p 9000 -m 1472 -r 0 -n $(($1 * 1500)) ;;
	tcp) $CAL tcp-send 10.0.0.2 9000 $(($1 * 12582912)) ;;
	esac
}

# ---- phase A: ftrace alone, 1 s of the load: the durations without
# netcost's probes, from which the replay measures netcost's probe cost ----
ftrace_on
echo 1 > tracing_on
sink_start -a
load 1 > $OUT/send-a.out 2>&1 || say "send (phase A) failed"
echo 0 > tracing_on
wait $SINK
cat trace > $OUT/trace-a.txt || die "cat trace"
ftrace_off

# ---- d: where an ftrace_ops callback stamps behind ftrace's kprobes ----
# netcost hooks finish_task_switch() with an ftrace_ops of its own; with
# ftrace's kprobe events on the same function, ftrace's list function
# calls the kprobes' ops first, then steps on to netcost's.  The model
# knows where a handler right after ftrace's kprobe handlers stamps (+K:
# the twins), not how far the step to the next ops' callback is.  The
# oracle's stub (tests/oracle/stub/ncstub.c, $STUB: no netcost code)
# registers one ftrace_ops there as netcost does and stamps as its
# callback's first act; on a switch-only load, with ftrace's sched_switch
# event and the same two kprobe events on that address (created after
# the stub: their ops runs first, as in phase B), each stamp less its
# switch's fts event, less K, is that step (compare.c).  netcost's own
# work before its stamp (finding the hook) is not in it: the stages that
# end or start at a fentry hook carry it (residuals.md).
if [ -z "${STUB:-}" ] || [ ! -r "$STUB" ]; then
	die "no stub ftrace_ops module (STUB=${STUB:-unset})"
fi
insmod "$STUB" sym="$FTS" mode=2 || die "insmod $STUB sym=$FTS mode=2"
kp "p:oracle_cal/fts $FTS"
kp "p:oracle_cal/fts_cal $FTS"
echo 1 > events/oracle_cal/enable || die "enable the fts calibration events"
echo 1 > events/sched/sched_switch/enable || die "enable sched_switch"
echo > trace
# tracing on, as in phase B: a handler that writes no event costs less
echo 1 > tracing_on
_v=$($CAL pipe 2001) || die "calib pipe"
echo 0 > tracing_on
cat /proc/ncstub > $OUT/fts-stub.stamps || die "cat /proc/ncstub"
cat trace > $OUT/fts-stub.trace || die "cat trace"
echo 0 > events/sched/sched_switch/enable
echo 0 > events/oracle_cal/enable
echo "-:oracle_cal/fts" >> kprobe_events
echo "-:oracle_cal/fts_cal" >> kprobe_events
echo > trace
rmmod ncstub || die "rmmod ncstub"
echo "fts_stub_pipe ${_v#* }" >> $OUT/calib.txt

# ---- where netcost's frames pause and resume at each switch ----
# netcost's sched_switch probe pauses the outgoing task's frames as its
# first act, its finish_task_switch() hook resumes the incoming task's
# as its last act (Documentation/stages.md, "time off CPU").  The stub,
# loaded again before netcost (mode 1: one probe, one callback), stamps
# every switch just before netcost's probe and every switch-in just after
# netcost's callback; the stub phase above measured how far a probe's
# first act lies from the next one's (its s and t stamps: E) and a
# callback's from the next one's (f and h: L), so the replay places
# netcost's two stamps switch by switch (compare.c, replay.c sw_pause()).
insmod "$STUB" sym="$FTS" mode=1 n=262144 || die "insmod $STUB sym=$FTS mode=1"

# ---- netcost, first: its probes run before ftrace's on every tracepoint ----
insmod /lib/netcost/netcost.ko || die "insmod"
netcost config set groups all recording on ${SAMPLE:+sample $SAMPLE} > /dev/null || die "netcost config"
cal nc_getppid getppid
cal nc_sendto sendto
cal nc_sendto_nosock sendto-nosock
cal nc_sendto_badfd sendto-badfd
# both on one tracepoint: the tracepoint then iterates its probes (one
# probe alone is called directly); the difference is that dispatch
echo 1 > events/raw_syscalls/enable
cal both_getppid getppid
echo 0 > events/raw_syscalls/enable
netcost config set recording off > /dev/null || die "netcost config"
netcost reset > /dev/null || die "netcost reset"

# ---- phase B: ftrace again, after netcost ----
# the stub's wake-up probes, registered now: after netcost's, before
# ftrace's (its stamps show where the other vCPU's turn fell: replay.c,
# wake_stamp())
echo 1 > /sys/module/ncstub/parameters/wake || die "ncstub wake=1"
ftrace_on B
grep -v '^#' set_event > $OUT/events.txt
cat kprobe_events >> $OUT/events.txt

# ---- the load (LOAD), root ns -> peer ns ----
# RPS=1: the receiving NIC (eth1, in the peer ns) steers every packet to
# the one CPU's backlog (RPS to itself: process_backlog() in NET_RX)
if [ "${RPS:-0}" = 1 ]; then
	for q in /run/ns/sys/class/net/eth1/queues/rx-*/rps_cpus; do
		echo 1 > "$q" || die "cannot set $q"
	done
	say "RPS: $(cat /run/ns/sys/class/net/eth1/queues/rx-0/rps_cpus) on eth1"
fi
echo 1 > tracing_on
sink_start ""
netcost config set recording on > /dev/null || die "recording on"
load 2 > $OUT/send.out 2>&1 || say "send failed"
# the sink leaves on the sender's FIN: its exit before the netcost command
# that ends the window, not racing it (CI run 20, 6.1-rt: the exiting
# sink slept on a lock that command held, one blocked_load_woken_by_other)
wait $SINK
netcost config set recording off > /dev/null || die "recording off"
echo 0 > tracing_on

# ---- results ----
netcost save $OUT/nc.json || die "netcost save"
cat /proc/interrupts > $OUT/interrupts.txt
# network devices and their parent devices: what names a NIC IRQ has
for sys in /sys /run/ns/sys; do
	for d in "$sys"/class/net/*; do
		[ -e "$d/device" ] || continue
		echo "$(basename "$d") $(basename "$(readlink "$d/device")")"
	done
done > $OUT/netdevs.txt
cat per_cpu/cpu*/stats > $OUT/trace-stats.txt
# each kprobe event's hits and the hits it missed (a kprobe inside
# another's handler is missed: compare.c, exit_missed_check())
cat kprobe_profile > $OUT/kprobe-profile.txt
cat /proc/ncstub > $OUT/switch-stub.stamps || die "cat /proc/ncstub"
uname -v > $OUT/uname.txt
cat trace > $OUT/trace.txt || die "cat trace"
# the same events as ring-buffer pages (reading them empties the buffer,
# so after the text): where each page starts, the event that paid for
# ftrace's move to that page (replay.c, read_page_starts())
for d in per_cpu/cpu*; do
	"$CAL" raw "$d/trace_pipe_raw" "$OUT/trace-${d#per_cpu/}.raw" >> "$LOG" || die "read $d/trace_pipe_raw"
done
# tracing is off since the window's end; the events and kprobes stay
# (the guest powers off next; taking them out would only add boot time)
rmmod netcost
rmmod ncstub
say "done: $(wc -l < $OUT/trace.txt) trace lines"
