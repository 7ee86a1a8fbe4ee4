#!/bin/sh
# test_check_busy.sh - tests/lab/check-busy on a recording made by hand,
# whose replay is known: one busy-poll loop (kprobe event 1,100, its
# twin 1,000 before: the loop starts at 1,200), polls at 2,200 (work 0),
# 3,200 (work 1, an interrupt of 300 inside) and 4,000 (work 0): a run of
# 2,500 cycles, 1,800 of them idle; a softirq's poll (inside the
# interrupt's depth) and another task's poll are no part of it.  The
# check passes on netcost's figures that match, and fails on each planted
# fault: a run too many, cycles or idle cycles 4% off, busy_poll above
# syscall_rx, an overrun trace, no twin event.
set -u
cd "$(dirname "$0")/../.."
command -v jq > /dev/null || { echo "not ok - check-busy: no jq (make setup installs it)"; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0

mk() {	# mk COUNT CYCLES IDLE SYSCALL_RX [TWIN] [OVERRUN]
	rm -rf "$D/r"
	mkdir -p "$D/r"
	echo 1 > "$D/r/traced"
	echo "${6:-0}" > "$D/r/overrun"
	echo "100 5 7" > "$D/r/mib"
	{
		echo "# tracer: nop"
		[ "${5:-1}" = 1 ] &&
		echo "  <...>-100 [000] ...1.  1000: loop_cal: (napi_busy_loop+0x4/0x50)"
		echo "  <...>-100 [000] ...1.  1100: loop: (napi_busy_loop+0x4/0x50)"
		if [ "${AMB:-0}" = 1 ]; then
			echo "  <...>-100 [000] d.h1.  1900: irq_handler_entry: irq=11 name=eth0"
			echo "  <...>-100 [000] d.h1.  2100: irq_handler_exit: irq=11 ret=handled"
		fi
		echo "  <...>-100 [000] b..1.  2200: napi_poll: napi poll on napi struct 0 for device eth0 work 0 budget 8"
		echo "  <...>-100 [000] d.h1.  2500: irq_handler_entry: irq=11 name=eth0"
		echo "  <...>-100 [000] d.h1.  2700: irq_handler_exit: irq=11 ret=handled"
		echo "  <...>-100 [000] ..s1.  2700: softirq_entry: vec=3 [action=NET_RX]"
		echo "  <...>-100 [000] ..s1.  2750: napi_poll: napi poll on napi struct 0 for device eth0 work 1 budget 64"
		echo "  <...>-100 [000] ..s1.  2800: softirq_exit: vec=3 [action=NET_RX]"
		echo "  <...>-200 [001] b..1.  3000: napi_poll: napi poll on napi struct 1 for device eth1 work 0 budget 8"
		echo "  <...>-100 [000] b..1.  3200: napi_poll: napi poll on napi struct 0 for device eth0 work 1 budget 8"
		echo "  <...>-100 [000] b..1.  4000: napi_poll: napi poll on napi struct 0 for device eth0 work 0 budget 8"
	} > "$D/r/trace"
	cat > "$D/r/dump.json" <<EOF
{"cpus": [{"cpu": 0, "stages": {"busy_poll": {"count": $1, "cycles": $2},
 "syscall_rx": {"count": 1, "cycles": $4}}, "counters": {"busy_poll_idle_cycles": $3}}]}
EOF
}
# expect PASS|FAIL WHAT ARGS...
expect() {
	want=$1 what=$2
	shift 2
	mk "$@"
	out=$(tests/lab/check-busy "$D/r" unit 2>&1)
	rc=$?
	# a pass: exit 0, four checks, none failing; a failure: a "not ok"
	# line and exit 1 (a check that died is neither)
	if [ $rc = 0 ] && [ "$(echo "$out" | grep -c '^ok')" = 4 ] && ! echo "$out" | grep -q '^not ok'; then
		got=PASS
	elif [ $rc = 1 ] && echo "$out" | grep -q '^not ok'; then
		got=FAIL
	else
		got="NEITHER (exit $rc)"
	fi
	if [ "$got" = "$want" ]; then
		echo "ok - check-busy: $what: $got"
	else
		echo "not ok - check-busy: $what: $got, want $want"
		echo "$out" | sed 's/^/# /'
		fail=1
	fi
}
expect PASS "netcost's figures match the replay" 1 2500 1800 5000
expect FAIL "a run too many" 2 2500 1800 5000
expect FAIL "busy_poll 4% high" 1 2600 1800 5000
expect FAIL "busy_poll_idle_cycles 4% low" 1 2500 1728 5000
expect FAIL "busy_poll above syscall_rx" 1 2500 1800 2400
expect FAIL "no twin event" 1 2500 1800 5000 0
expect FAIL "an overrun trace" 1 2500 1800 5000 1 3
# an interrupt block (200 cycles) ending 100 before the idle poll at
# 2,200 that comes before the delivering one: the replay's idle is 1,600
# (run 2,300), and the block may have come between the tools' probes
# there, its 900 other cycles then in netcost's delivering stretch:
# idle down to 700
AMB=1 expect PASS "idle 1,000: within the second reading of an interrupt before a poll" 1 2300 1000 5000
AMB=1 expect FAIL "idle 600: below it" 1 2300 600 5000
exit $fail
