#!/bin/sh
# test_check_mq.sh - tests/lab/check-mq on a multiqueue boot's files
# (tests/unit/mq-fixture: t-mq.sh's output of a 6.12 --queues 2 boot,
# the dumps cut down to what check-mq reads).  As recorded, all 12 lines
# pass; each planted fault fails its line: one instance's polls one
# more than the kernel counted, one instance missing, its packets off,
# nic_irqs one short, a queue's vector quiet, the timed polls not adding
# up to napi_poll's, two threads swapped, a thread in the softirq
# window, an instance that polled inside the window missing from the
# dump; an instance the trace saw poll only outside the window passes;
# and a missing dump fails its window's lines, plan kept.
set -u
cd "$(dirname "$0")/../.." || exit 1
command -v jq > /dev/null || { echo "not ok - check-mq: no jq (make setup installs it)"; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0

fresh() { rm -rf "$D/r"; cp -r tests/unit/mq-fixture "$D/r"; }
# jqw WINDOW FILTER - rewrite WINDOW's dump with FILTER
jqw() { jq "$2" "$D/r/$1.json" > "$D/t" && mv "$D/t" "$D/r/$1.json"; }
# expect NAME PATTERN - check-mq's line matching PATTERN fails, every
# other passes, and the plan holds
expect() {
	out=$(tests/lab/check-mq "$D/r" t 2> /dev/null)
	bad=$(echo "$out" | grep -E '^not ok' || true)
	plan=$(echo "$out" | sed -n 's/^1\.\.//p')
	if [ "$plan" != 12 ]; then
		echo "not ok - check-mq: $1: plan '$plan', want 12"; fail=1; return
	fi
	if [ -z "$2" ]; then
		if [ -z "$bad" ]; then echo "ok - check-mq: $1"; else
			echo "not ok - check-mq: $1: $bad"; fail=1; fi
		return
	fi
	if echo "$bad" | grep -qE "$2" && [ "$(echo "$bad" | grep -cvE "$2")" = 0 ]; then
		echo "ok - check-mq: $1 fails ($(echo "$bad" | wc -l) lines)"
	else
		echo "not ok - check-mq: $1 should fail only '$2': got '$bad'"; fail=1
	fi
}

fresh; expect "as recorded" ""
fresh; jqw softirq '(.total.napi[] | select(.id == 8193) | .polls) += 1'
expect "one instance's polls one more than the kernel's" 'softirq: every NAPI instance'
fresh; jqw threaded 'del(.total.napi[] | select(.id == 8195))'
expect "one instance missing" 'threaded: every NAPI instance|threaded: the instances. timed polls'
fresh; jqw softirq '(.total.napi[] | select(.id == 8195) | .packets) -= 1'
expect "one instance's packets one short" 'softirq: every NAPI instance'
fresh; jqw softirq '.total.counters.nic_irqs -= 1'
expect "nic_irqs one short" 'softirq: nic_irqs'
fresh; cp "$D/r/irq.threaded.inner0" "$D/r/irq.threaded.inner1"
expect "no interrupt between the inner readings" 'threaded: nic_irqs|threaded: every eth0 queue'
fresh; jqw softirq '(.total.napi[] | select(.id == 8194) | .timed_polls) -= 1'
expect "timed polls not adding up to napi_poll's" 'softirq: the instances. timed polls'
fresh; jqw threaded '(.total.napi[] | select(.id == 8193) | .thread_pid) = 244'
expect "a thread named for another instance" 'threaded: every instance names'
fresh; jqw softirq '(.total.napi[] | select(.id == 8193) | .thread_pid) = 245'
expect "a thread in the softirq window" 'softirq: no device'
# eth1's second queue polled once between the outer and inner readings
# (CI 44): in the trace, in no dump, and no fault; polled inside too, it
# is one netcost missed
idle() { # FILES... - give eth1 a second instance in these readings
	for f; do awk -v n="$N1" '/dev_name: eth1 / { print; sub(/[0-9]+,/, "18446612904391999999,"); sub(/hitcount: *[0-9]+/, "hitcount: " n); sub(/work: *[0-9]+/, "work: 0") } 1' "$D/r/$f" > "$D/t" && mv "$D/t" "$D/r/$f"; done
}
fresh; N1=1 idle hist.softirq.outer1
expect "an instance that polled only outside the window" ""
fresh; N1=1 idle hist.softirq.inner1 hist.softirq.outer1
expect "an instance that polled inside the window, not in netcost" 'softirq: every NAPI instance'
fresh; rm "$D/r/softirq.json"
expect "no softirq dump" 'softirq: no dump'
exit $fail
