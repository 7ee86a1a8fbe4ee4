#!/bin/sh
# test_check_wait.sh - tests/lab/check-wait's count of ksoftirqd's waits
# on a recording made by hand, whose replay is known: ksoftirqd/1 waits
# three times on CPU 1 after netcost's reset there.  The first wait ends
# inside the window (it counts); the second ends between
# nc_set_recording(0)'s entry (rec) and its return (recr), so netcost may
# or may not have counted it (either side); the third ends after the
# return (it does not count).  The check passes on a netcost count of 1
# or 2, and fails on 0 and 3.  Until 2026-12-03 a switch-in inside the
# stop, before its return was seen, fell outside the window: a count of 2
# failed (CI, 6.1-rt: netcost 415 against the trace's 414).  Then the
# duration's limits: a stale sched_stat_wait figure, the upper limit,
# and a kernel whose tsc_khz is off (below).
set -u
cd "$(dirname "$0")/../.." || exit 1
command -v jq > /dev/null || { echo "not ok - check-wait: no jq (make setup installs it)"; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0

# the recording: everything but netcost's dump, written once
r=$D/r
mkdir -p "$r"
echo 300 > "$r/load.tids"
echo '{"reset_cycles": 0, "now_cycles": 1000000000, "reset_ns": 0, "now_ns": 1000000000, "tsc_khz": 1000000}' \
	> "$r/info.json"
# "tid comm run_delay switch-ins nonvoluntary" before and after
echo "300 load 0 0 0" > "$r/load.before"
echo "300 load 0 0 0" > "$r/load.after"
for f in kthreads.before.0 kthreads.before.1; do echo "20 ksoftirqd/1 0 0 0" > "$r/$f"; done
for f in kthreads.after.0 kthreads.after.1; do echo "20 ksoftirqd/1 300 2 0" > "$r/$f"; done
sw() {	# sw TS CPU CUR PREV_COMM PREV_PID STATE NEXT_COMM NEXT_PID STATE_VALUE
	echo "  $3 [00$2] d..2.  $1: sched_switch: prev_comm=$4 prev_pid=$5 prev_prio=120 prev_state=$6 ==> next_comm=$7 next_pid=$8 next_prio=120"
	echo "  $7-$8 [00$2] d..2.  $(($1 + 1)): fts: (finish_task_switch+0x0/0x10) s16=$9 s24=0 s32=0 s40=0"
}
wake() {	# wake TS CPU
	echo "  swapper/$2-0 [00$2] d.h2.  $1: sched_wakeup: comm=ksoftirqd/1 pid=20 prio=120 target_cpu=00$2"
}
{
	echo "# tracer: nop"
	echo "# entries-in-buffer/entries-written: 19/19   #P:2"
	echo "  netcost-400 [000] d.h1.  100: rst: (nc_stats_reset_cpu+0x0/0x10)"
	echo "  netcost-400 [001] d.h1.  100: rst: (nc_stats_reset_cpu+0x0/0x10)"
	# the load sleeps once (its switch-out gives the __state offset)
	sw 200 0 load-300 load 300 S swapper/0 0 1
	# wait 1: inside the window
	wake 300 1
	sw 310 1 swapper/1-0 swapper/1 0 R ksoftirqd/1 20 0
	sw 400 1 ksoftirqd/1-20 ksoftirqd/1 20 S swapper/1 0 1
	# recording stops: wait 2 ends between its entry and its return
	echo "  netcost-400 [000] ...1.  500: rec: (nc_set_recording+0x0/0x10) on=0"
	wake 510 1
	sw 520 1 swapper/1-0 swapper/1 0 R ksoftirqd/1 20 0
	sw 560 1 ksoftirqd/1-20 ksoftirqd/1 20 S swapper/1 0 1
	echo "  netcost-400 [000] ...1.  600: recr: (nc_set_recording+0x20/0x30 <- nc_set_recording) arg1=0x0"
	# wait 3: after the stop
	wake 700 1
	sw 710 1 swapper/1-0 swapper/1 0 R ksoftirqd/1 20 0
} > "$r/kthreads.trace"

# expect PASS|FAIL COUNT - netcost's count of ksoftirqd's waits
expect() {
	cat > "$r/after.json" <<EOF
{"cpus": [{"cpu": 1, "stages": {"runq_wait_ksoftirqd": {"count": $2, "cycles": $(($2 * 10))}}, "counters": {}}]}
EOF
	out=$(tests/lab/check-wait "$r" unit 0 2>&1)
	line=$(echo "$out" | grep -E '^(not )?ok [0-9]+ - unit: runq_wait_ksoftirqd: [0-9]+ waits( =|,|:)')
	case $line in
	"ok "*) got=PASS ;;
	"not ok "*) got=FAIL ;;
	*) got="NEITHER (no count line)" ;;
	esac
	if [ "$got" = "$1" ]; then
		echo "ok - check-wait: ksoftirqd count $2: $got"
	else
		echo "not ok - check-wait: ksoftirqd count $2: $got, want $1"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
}
expect FAIL 0
expect PASS 1
expect PASS 2
expect FAIL 3

# A stale figure: the scheduler reports wait 1 (1 ms on the TSC, 1 cycle
# = 1 ns here) as 330 s, as a wait_start left from before a PI boost
# reads (CI 63, 6.12-rt's ksoftirqd); wait 2 (2 ms) it reports right.
# Taken as run_delay's own excess, the 330 s put the lower limit of the
# duration below zero, so that any figure passed; wait 1 is a wait of
# unknown error, and netcost's 10 ns for both against run_delay's 3 ms
# must fail, at 3 ms - 3% - wait 1's 1 ms = 1.910 ms.
s=$D/s
mkdir -p "$s"
cp "$r/load.tids" "$r/info.json" "$r/load.before" "$r/load.after" "$s/"
for f in kthreads.before.0 kthreads.before.1; do echo "20 ksoftirqd/1 0 0 0" > "$s/$f"; done
for f in kthreads.after.0 kthreads.after.1; do echo "20 ksoftirqd/1 3000000 2 0" > "$s/$f"; done
stat() {	# stat TS DELAY_NS
	echo "  swapper/1-0 [001] d..2.  $1: sched_stat_wait: comm=ksoftirqd/1 pid=20 delay=$2 [ns]"
}
{
	echo "# tracer: nop"
	echo "  netcost-400 [000] d.h1.  100: rst: (nc_stats_reset_cpu+0x0/0x10)"
	echo "  netcost-400 [001] d.h1.  100: rst: (nc_stats_reset_cpu+0x0/0x10)"
	echo "  sh-401 [000] ...1.  150: tracing_mark_write: ncw_in"
	sw 200 0 load-300 load 300 S swapper/0 0 1
	wake 1000000 1
	stat 1000005 330000000000
	sw 2000000 1 swapper/1-0 swapper/1 0 R ksoftirqd/1 20 0
	sw 2100000 1 ksoftirqd/1-20 ksoftirqd/1 20 S swapper/1 0 1
	wake 3000000 1
	stat 3000005 2000000
	sw 5000000 1 swapper/1-0 swapper/1 0 R ksoftirqd/1 20 0
	sw 5100000 1 ksoftirqd/1-20 ksoftirqd/1 20 S swapper/1 0 1
	echo "  netcost-400 [000] ...1.  6000000: rec: (nc_set_recording+0x0/0x10) on=0"
	echo "  netcost-400 [000] ...1.  6000100: recr: (nc_set_recording+0x20/0x30 <- nc_set_recording) arg1=0x0"
	echo "  sh-401 [000] ...1.  6000200: tracing_mark_write: ncw_out"
} > "$s/kthreads.trace"
echo '{"cpus": [{"cpu": 1, "stages": {"runq_wait_ksoftirqd": {"count": 2, "cycles": 10}}, "counters": {}}]}' > "$s/after.json"
# dur WANT NS WHAT - check-wait's duration line of ksoftirqd on $s with
# netcost's cycles NS (1 cycle = 1 ns here): WANT is a glob of it
dur() {
	echo "{\"cpus\": [{\"cpu\": 1, \"stages\": {\"runq_wait_ksoftirqd\": {\"count\": 2, \"cycles\": $2}}, \"counters\": {}}]}" \
		> "$s/after.json"
	out=$(tests/lab/check-wait "$s" unit 0 2>&1)
	line=$(echo "$out" | grep -E '^(not )?ok [0-9]+ - unit: runq_wait_ksoftirqd [0-9.]+ ms vs schedstat')
	# shellcheck disable=SC2254 # WANT is a pattern
	case $line in
	$1) echo "ok - check-wait: $3" ;;
	*)
		echo "not ok - check-wait: $3: want '$1', got: ${line:-no duration line}"
		echo "$out" | sed 's/^/# /'
		fail=1 ;;
	esac
}
dur 'not ok *limits 1.910..*in 0 of 1 traced waits*' 10 \
	"a stale sched_stat_wait figure (330 s) is no excess: netcost's 10 ns fails against run_delay's 3 ms"
# The upper limit (issue 20, item 11): run_delay around the commands
# (3 ms) plus the traced shortfall (0: wait 2's figure is its TSC
# interval) plus the waits of unknown error (wait 1: 1 ms), +5%: 4.2 ms.
# Until 2026-12-07 it was one tick a wait over run_delay: 5 ms passed.
dur 'ok *limits 1.910..4.200 ms*' 3000000 "netcost's 3 ms for waits of 3 ms on the TSC passes"
dur 'ok *limits 1.910..4.200 ms*' 4100000 "netcost's 4.1 ms passes (the unknown wait may be 1 ms longer)"
dur 'not ok *limits 1.910..4.200 ms*' 5000000 \
	"netcost's 5 ms fails: over run_delay plus its traced shortfall and the unknown wait, +5%"
# A kernel whose tsc_khz is 10% off (TCG can get it wrong): run_delay is
# then 10% off too, and the trace measures it wait by wait.  Until
# 2026-12-07 every duration line of such a boot was a SKIP, failing
# figures included (issue 20, item 9).
jq -c '.tsc_khz = 1100000' "$r/info.json" > "$s/info.json"
dur 'not ok *limits 1.910..4.200 ms*' 10 "tsc_khz 10% off: netcost's 10 ns still fails, no SKIP"
dur 'ok *limits 1.910..4.200 ms*' 3000000 "tsc_khz 10% off: netcost's 3 ms still passes"
exit $fail
