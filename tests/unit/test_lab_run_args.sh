#!/bin/bash
# test_lab_run_args.sh - tests/lab/run refuses a bad option with exit 2
# and a message that names it, before it builds or boots anything: the
# mode options (--rps, --queues, --busy-poll, --threadirqs, --smp with
# --icount) and the usual ones.
set -u
cd "$(dirname "$0")/../.." || exit 2
fail=0 n=0
# bad EXPECT ARGS... - tests/lab/run ARGS -- true must exit 2 and say EXPECT
bad() {
	local expect=$1 out rc
	shift
	n=$((n + 1))
	out=$(NETCOST_LAB_LOCK=/nonexistent/lock timeout 20 tests/lab/run "$@" -- true 2>&1)
	rc=$?
	if ((rc == 2)) && [[ $out == *"$expect"* && $out != *booting* ]]; then
		echo "ok $n - $*: exit 2, '$out'"
	else
		echo "not ok $n - $*: exit $rc, '$out' (expected exit 2 and '$expect')"
		fail=1
	fi
}
bad "wants a hex CPU mask" --kernel 6.12 --rps zz
bad "wants a hex CPU mask" --kernel 6.12 --rps 100
bad "wants a hex CPU mask" --kernel 6.12 --rps -1
bad "names a CPU the guest does not have (--smp 2: CPUs 0..1)" --kernel 6.12 --rps 4
bad "names a CPU the guest does not have (--smp 1: CPUs 0..0)" --kernel 6.12 --icount --rps 2
bad "names a CPU the guest does not have (--smp 2: CPUs 0..1)" --kernel 6.12 --rps 0x6
bad "--queues wants 2, 4 or 8" --kernel 6.12 --queues 3
bad "needs the vmxnet3 NIC" --kernel 6.12 --queues 2 --nic e1000
bad "use --smp 4" --kernel 6.12 --queues 4 --smp 2
bad "--busy-poll wants microseconds" --kernel 6.12 --busy-poll 1e3
bad "PREEMPT_RT always threads" --kernel 6.12-rt --threadirqs
bad "hangs 6.1's boot" --kernel 6.1 --icount --smp 2
bad "unknown kernel 'nope'" --kernel nope
bad "--kernel is required" --smp 2
bad "unknown option '--rsp'" --kernel 6.12 --rsp 2
echo "1..$n"
exit $fail
