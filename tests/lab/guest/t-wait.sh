#!/bin/sh
# t-wait.sh - (guest) the waiting stages against the scheduler's own
# figures: /proc/<pid>/task/<tid>/schedstat, field 2 (run_delay, ns: the
# time a task spent queued before it ran).  The host's check-wait
# compares; this script keeps the figures in OUTDIR and checks what
# needs no arithmetic.
#
#   CPU 0: the sink (root ns), the sender (peer ns, paced) and a nice-0
#          spinner, so that the load tasks queue behind each other and
#          behind the spinner;
#   CPU 1: this script and every netcost command (they are load tasks
#          too: netlink is sendmsg/recvmsg), so that their own waits stay
#          off CPU 0.
#
# The window is exact for the load: the load is stopped (SIGSTOP, every
# thread in state T, so no wait is open) while run_delay is read and
# netcost is reset, then runs SECONDS, then is stopped again before
# run_delay is read back.  IRQ threads and ksoftirqd cannot be stopped:
# their run_delay is read right before the reset and right after
# recording stops, and waits that end inside those reads count on one
# side only (check-wait's tolerance).
#
# Their run_delay has its own clock error, which the host measures from
# a trace of this window (kthreads.trace): the scheduler's per-wait
# figure (sched_stat_wait, rq_clock ns, the same stamps run_delay adds
# up) beside the TSC times of the wait's sched_wakeup/sched_switch
# (trace_clock x86-tsc, the clock netcost stamps with).  Only the IRQ
# threads' and ksoftirqd's events are kept (event filters); schedstats
# (which sched_stat_wait needs) and the trace settings are set back
# afterwards.
#
# usage: t-wait.sh OUTDIR [SECONDS]
out=${1:-/mnt/out}
secs=${2:-4}
mkdir -p "$out"
. /lab/lib.sh
notok() { not_ok "$@"; }

ncpu=$(grep -c ^processor /proc/cpuinfo)
if [ "$ncpu" -lt 2 ]; then
	skip "t-wait needs 2 CPUs (this guest has $ncpu)"
	exit 0
fi
taskset -p -c 1 $$ > /dev/null || notok "taskset: this script to CPU 1"

if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "insmod netcost.ko"; else notok "insmod netcost.ko"; exit 1; fi

# threads PID... - the thread ids of the processes
threads() {
	for p in "$@"; do ls "/proc/$p/task" 2> /dev/null; done
}
# workers PID - the threads of PID but its main thread
workers() {
	ls "/proc/$1/task" 2> /dev/null | grep -vx "$1"
}
# stopped TID... - every thread is stopped (state T)
stopped() {
	for t in "$@"; do
		s=$(sed 's/.*) //' "/proc/$t/stat" 2> /dev/null | cut -d' ' -f1)
		[ "$s" = T ] || [ "$s" = t ] || return 1
	done
}
# delays FILE TID... - "tid comm run_delay switch-ins preemptions" per
# thread (schedstat fields 2 and 3, nonvoluntary_ctxt_switches)
delays() {
	f=$1; shift
	: > "$f"
	for t in "$@"; do
		read -r run delay n < "/proc/$t/schedstat" || continue
		read -r comm < "/proc/$t/comm"
		nv=$(sed -n 's/^nonvoluntary_ctxt_switches:[^0-9]*//p' "/proc/$t/status")
		echo "$t $comm $delay $n ${nv:-0}" >> "$f"
	done
}
kthreads() {
	for p in /proc/[0-9]*; do
		read -r comm < "$p/comm" 2> /dev/null || continue
		# netcost's IRQ-thread class holds the NAPI threads too:
		# threaded NAPI's napi/*, RT's backlog_napi/*
		case $comm in irq/*|napi/*|backlog_napi/*|ksoftirqd/*) echo "${p#/proc/}" ;; esac
	done
}

taskset -c 0 sh -c 'while :; do :; done' &
spin=$!
rm -f /tmp/wready
netcost-gen sink -p 9100 -C 0 -l 120 --idle-timeout 60 -q --ready-file /tmp/wready \
	> "$out/sink.out" 2>&1 &
sink=$!
wait_for test -s /tmp/wready || notok "sink did not come up"
in-ns netcost-gen send -H 10.0.0.1 -p 9100 -m 18 -r 4000 -b 4 -l 120 -C 0 -q --report-wait 0 \
	> "$out/send.out" 2>&1 &
send=$!
# the sender is running once its worker thread exists (nsenter has
# exec'd netcost-gen under the same pid, which started its worker)
nthreads() { set -- /proc/$1/task/*; [ -e "$1" ] && echo $# || echo 0; }
sender_up() { [ "$(nthreads $send)" -ge 2 ]; }
wait_for sender_up || notok "the sender's worker thread did not start"
sleep 1

# The load tasks: the sink, and the sender's worker threads.  The
# sender's main thread only waits for its workers and never enters a
# socket call: it is no load task, and its run_delay is left out.
all=$(threads $sink $send)
load="$sink $(workers $send)"
kill -STOP $sink $send
wait_for stopped $all || notok "the load did not stop"
# A thread in state T may still be queued: stopped on its way into
# schedule(), preempted before it got there.  It leaves the runqueue at
# its next turn on CPU 0, within the scheduler's latency (a few ms
# beside one nice-0 spinner); check-wait verifies it in the trace (every
# load thread's last event is its switch-out in T).
settle() { sleep 0.3; }
settle
kt=$(kthreads)
# the trace of the IRQ threads' and ksoftirqd's waits (see the top)
T=/sys/kernel/tracing
[ -e $T/trace_clock ] || mount -t tracefs nodev $T 2> /dev/null
ktrace=0 kprobe=0
if [ -w $T/trace_clock ] && [ -e $T/events/sched/sched_stat_wait ] &&
   [ -w /proc/sys/kernel/sched_schedstats ]; then
	trace_keep $T
	old_stats=$(cat /proc/sys/kernel/sched_schedstats)
	echo 0 > $T/tracing_on
	if echo x86-tsc > $T/trace_clock && echo 8192 > $T/buffer_size_kb &&
	   echo 1 > /proc/sys/kernel/sched_schedstats; then
		: > $T/trace
		# the load's threads too, by pid: their switches and wake-ups
		# give the waits schedstat does not count (check-wait)
		lw="" ls=""
		for t in $load; do
			lw="$lw || pid == $t"
			ls="$ls || prev_pid == $t || next_pid == $t"
		done
		k='comm ~ "ksoftirqd/*" || comm ~ "irq/*" || comm ~ "napi/*" || comm ~ "backlog_napi/*"'
		echo "$k$lw" > $T/events/sched/sched_wakeup/filter
		echo "$k$lw" > $T/events/sched/sched_stat_wait/filter
		f='prev_comm ~ "ksoftirqd/*" || prev_comm ~ "irq/*" || prev_comm ~ "napi/*" || prev_comm ~ "backlog_napi/*"'
		f="$f || next_comm ~ \"ksoftirqd/*\" || next_comm ~ \"irq/*\" || next_comm ~ \"napi/*\" || next_comm ~ \"backlog_napi/*\"$ls"
		echo "$f" > $T/events/sched/sched_switch/filter
		for e in sched_wakeup sched_stat_wait sched_switch; do
			echo 1 > $T/events/sched/$e/enable
		done
		ktrace=1
		# The sched_switch event prints every preemption as "R+",
		# whatever the task's state, and a sleep that schedule()
		# cancelled for a pending signal as the state it had.  The state
		# that decides is the task's own __state at the switch, which
		# finish_task_switch(prev) can still read: until it releases the
		# runqueue lock nothing else writes it (a wake-up takes that
		# lock).  A kprobe event there reads it at the offsets where
		# task_struct can have it (after x86's struct thread_info: 24;
		# 32 where PREEMPT_RT's lazy preemption adds a count, as on
		# 6.1-rt; 16 and 40 besides): check-wait takes the one that
		# agrees with the states sched_switch printed, and fails when
		# none does.  Its common_pid is next (it runs after the switch).
		fts=$(fts_sym)
		if [ -n "$fts" ] &&
		   echo "p:ncwait/fts $fts s16=+16(%di):u32 s24=+24(%di):u32 s32=+32(%di):u32 s40=+40(%di):u32" >> $T/kprobe_events &&
		   echo 1 > $T/events/ncwait/fts/enable; then
			kprobe=1
		else
			notok "kthreads trace: no kprobe event on finish_task_switch ('$fts'): the load's switches cannot be classified"
		fi
		# netcost's own window, for the IRQ threads' and ksoftirqd's
		# waits, which run on through it: its reset clears each CPU in an
		# IPI on that CPU (nc_stats_reset_cpu), and recording stops when
		# nc_set_recording(0) writes every CPU's flag (between its entry
		# and its return)
		if [ $kprobe = 1 ] &&
		   echo "p:ncwait/rst nc_stats_reset_cpu" >> $T/kprobe_events &&
		   echo "p:ncwait/rec nc_set_recording on=%di:u8" >> $T/kprobe_events &&
		   echo "r:ncwait/recr nc_set_recording" >> $T/kprobe_events &&
		   echo 1 > $T/events/ncwait/enable; then
			kprobe=2
		else
			notok "kthreads trace: no kprobe events at netcost's reset and recording switch: the kthreads' waits cannot be counted in netcost's window"
		fi
	else
		notok "kthreads trace: x86-tsc clock, buffer or schedstats refused"
	fi
else
	notok "kthreads trace: no tracefs, sched_stat_wait or sched_schedstats in this kernel"
fi
# ktrace_end - stop the trace, keep it, set everything back
ktrace_end() {
	[ $ktrace = 1 ] || return 0
	echo 0 > $T/tracing_on
	for e in sched_wakeup sched_stat_wait sched_switch; do
		echo 0 > $T/events/sched/$e/enable
		echo 0 > $T/events/sched/$e/filter
	done
	[ $kprobe -ge 1 ] && echo 0 > $T/events/ncwait/enable
	cat $T/trace > /tmp/w.kthreads.trace
	# after the copy: removing a kprobe event clears the ring buffer
	if [ $kprobe -ge 1 ]; then
		for e in fts rst rec recr; do echo "-:ncwait/$e" >> $T/kprobe_events; done 2> /dev/null
	fi
	: > $T/trace
	echo "$old_stats" > /proc/sys/kernel/sched_schedstats
	trace_restore $T
}
# the figures go to /tmp first: a write to /mnt/out (9p) inside the
# window would wake the virtio IRQ thread there
# IRQ threads and ksoftirqd run on: their figures are read on both
# sides of each netcost command (.0 before, .1 after), so that the waits
# that end inside the command are bounded, as check-stages bounds counts
# The trace runs from before the reset to after recording stops (the
# kthreads' waits in netcost's window, counted exactly); the marks
# ncw_in and ncw_out are where the inner reads were (run_delay's error,
# measured over the same waits as the schedstat figures it is set
# against).
mark() { [ $ktrace = 1 ] && echo "$1" > $T/trace_marker; }
delays /tmp/w.load.before $load
delays /tmp/w.kthreads.before.0 $kt
[ $ktrace = 1 ] && echo 1 > $T/tracing_on
netcost reset || notok "netcost reset"
mark ncw_in
delays /tmp/w.kthreads.before.1 $kt
kill -CONT $sink $send
sleep "$secs"
kill -STOP $sink $send
wait_for stopped $all || notok "the load did not stop"
settle
delays /tmp/w.kthreads.after.0 $kt
mark ncw_out
netcost config set recording off || notok "recording off"
[ $ktrace = 1 ] && echo 0 > $T/tracing_on
delays /tmp/w.kthreads.after.1 $kt
delays /tmp/w.load.after $load
ktrace_end
netcost dump -j > /tmp/w.after.json || notok "netcost dump -j"
netcost info -j > /tmp/w.info.json || notok "netcost info -j"
echo "$load" > /tmp/w.load.tids
netcost save /tmp/w.snapshot.json --note "t-wait: ${secs}s of paced UDP beside a spinner" ||
	notok "netcost save"
for f in load.before load.after kthreads.before.0 kthreads.before.1 kthreads.after.0 kthreads.after.1 \
	 after.json info.json snapshot.json load.tids; do
	cp "/tmp/w.$f" "$out/$f"
done
[ $ktrace = 1 ] && cp /tmp/w.kthreads.trace "$out/kthreads.trace"
netcost config set recording on

# A disabled group records nothing: without "wait", 1 s of the same
# load leaves the waiting stages and counters empty (syscall_rx shows
# that the load ran, and was recorded)
if netcost config set groups irq,softirq,net,sched,syscall; then
	netcost reset
	kill -CONT $sink $send
	sleep 1
	kill -STOP $sink $send
	netcost dump -j > /tmp/w.off.json || notok "netcost dump -j (group wait off)"
	n=0
	for s in runq_wait_load runq_wait_irq_thread runq_wait_ksoftirqd blocked_load \
		 runq_wait_behind_other_cycles blocked_load_woken_by_softirq blocked_load_woken_by_irq_thread; do
		v=$(dump_total $s /tmp/w.off.json)
		n=$((n + ${v:-0}))
	done
	r=$(dump_total syscall_rx /tmp/w.off.json)
	if [ "$n" -eq 0 ] && [ "${r:-0}" -gt 0 ]; then
		ok "group wait off: no waiting figures ($r syscall_rx recorded)"
	else
		notok "group wait off: waiting figures sum $n, syscall_rx ${r:-0}"
	fi
	netcost config set groups all || notok "groups all"
else
	notok "netcost config set groups (all but wait)"
fi
kill $spin
kill -CONT $sink $send
kill $send $sink 2> /dev/null
wait $send $sink $spin 2> /dev/null
if [ -s "$out/after.json" ] && [ -s "$out/load.after" ]; then
	ok "t-wait: $secs s of paced UDP on CPU 0 beside a spinner, run_delay kept"
else
	notok "t-wait: no figures kept"
fi

# blocked_load follows the sleeper's CPU (issue 21, item 10): with
# "cpus 1", a sink on CPU 1 woken by eth0's NET_RX on CPU 0 (its IRQ and
# the sender pinned there) sleeps and wakes on a recording CPU, so every
# sleep counts: blocked_load equals the sink's voluntary switches within
# 2% (the netcost commands on CPU 1 are load tasks too).  Where the
# kernel lets it (sched feature TTWU_QUEUE off), the wake-up runs on
# CPU 0, not in an IPI on CPU 1, and at least half the sleeps are written
# into CPU 0's figures: by the waker's CPU (before 0.10.0) they were
# lost.
pin_irqs eth0 0 mask
F=/sys/kernel/debug/sched/features
[ -e $F ] || mount -t debugfs none /sys/kernel/debug 2> /dev/null
ttwu=""
if [ -w $F ] && grep -qw TTWU_QUEUE $F && echo NO_TTWU_QUEUE > $F; then
	ttwu=off
fi
rm -f /tmp/mready
netcost-gen sink -p 9101 -C 1 -l 120 --idle-timeout 30 -q --expect-flows 4 --ready-file /tmp/mready \
	> "$out/msink.out" 2>&1 &
msink=$!
wait_for test -s /tmp/mready || notok "mask: sink did not come up"
vol() { sed -n 's/^voluntary_ctxt_switches:[^0-9]*//p' "/proc/$1/status"; }
if netcost config set cpus 1; then
	netcost reset || notok "mask: netcost reset"
	v0=$(vol $msink)
	# up to 4 rounds of 2,000 packets (flows 0-3), until the sink slept
	# 500 times: on a slow host it takes several packets a wake-up
	# (CI 77's 6.12/threadirqs boot: 343 sleeps in one round)
	r=0
	while [ $r -lt 4 ]; do
		in-ns netcost-gen send -H 10.0.0.1 -p 9101 -m 18 -r 1000 -b 1 -l 2 -C 0 -q --report-wait 0 \
			--flow-base $r > "$out/msend$r.out" 2>&1 || notok "mask: the sender failed (round $r)"
		r=$((r + 1))
		sleep 0.3
		v1=$(vol $msink)
		[ $((${v1:-0} - ${v0:-0})) -ge 500 ] && break
	done
	netcost dump -j > /tmp/w.mask.json || notok "mask: netcost dump -j"
	netcost config set recording off
	cp /tmp/w.mask.json "$out/mask.json"
	bl=$(dump_total blocked_load /tmp/w.mask.json)
	bl0=$(dump_cpu_count 0 blocked_load /tmp/w.mask.json)
	n=$((v1 - v0))
	msg="mask cpus 1: blocked_load ${bl:-0} (${bl0:-0} of them written on CPU 0, the waker's), the sink on CPU 1 slept $n times (voluntary switches), TTWU_QUEUE ${ttwu:-on}"
	if [ "$n" -lt 500 ]; then
		notok "$msg: too few sleeps to compare"
	elif [ $((100 * ${bl:-0})) -lt $((98 * n)) ] || [ $((100 * ${bl:-0})) -gt $((102 * n)) ]; then
		notok "$msg: not within 2%"
	elif [ "$ttwu" = off ] && [ $((2 * ${bl0:-0})) -lt "${bl:-0}" ]; then
		notok "$msg: fewer than half woken from CPU 0 with TTWU_QUEUE off"
	else
		ok "$msg: within 2%"
	fi
	netcost config set cpus 0-1 || notok "mask: cpus 0-1"
	netcost config set recording on
else
	notok "netcost config set cpus 1"
fi
kill $msink 2> /dev/null
wait $msink 2> /dev/null
[ "$ttwu" = off ] && echo TTWU_QUEUE > $F
unpin_irqs
rmmod netcost || notok "rmmod netcost"
dmesg > "$out/dmesg"
if grep -qE 'WARNING|BUG|Oops|scheduling while atomic' "$out/dmesg"; then notok "dmesg clean"; else ok "dmesg clean"; fi
