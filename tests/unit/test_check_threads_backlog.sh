#!/bin/sh
# test_check_threads_backlog.sh - tests/lab/check-threads' rps line
# (rx_backlog_packets against the kernel's softnet_stat "processed"
# count, 0.8.0) on windows made by hand: two CPUs, netcost's counts
# equal to the kernel's per CPU pass; one CPU off by one, none at all,
# a per-CPU split that only adds up, and missing kernel counts fail;
# with loopback traffic the totals are compared, less loopback's.
set -u
cd "$(dirname "$0")/../.." || exit 1
command -v jq > /dev/null || { echo "not ok - check-threads backlog: no jq (make setup installs it)"; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail=0

# mk NC0 NC1 P0 P1 [LO] - netcost's rx_backlog_packets on CPUs 0 and 1,
# the kernel's processed change on each, loopback's received change
mk() {
	rm -rf "$D/r"
	for w in softirq threaded rps; do
		mkdir -p "$D/r/$w"
		for f in before.0 before.1 after.0 after.1; do : > "$D/r/$w/$f"; done
		echo '{"reset_cycles": 0, "now_cycles": 1000000, "reset_ns": 0, "now_ns": 1000000}' > "$D/r/$w/info.json"
		echo '{"cpus": [{"cpu": 0, "counters": {}, "stages": {}}]}' > "$D/r/$w/after.json"
	done
	printf '{"cpus": [{"cpu": 1, "counters": {"rx_backlog_packets": %d}, "stages": {}}, {"cpu": 0, "counters": {"rx_backlog_packets": %d}, "stages": {}}]}\n' \
		"$2" "$1" > "$D/r/rps/after.json"
	printf '%08x 00000000 00000001\n%08x 00000000 00000002\n' 4096 16 > "$D/r/rps/softnet.before"
	printf '%08x 00000000 00000001\n%08x 00000000 00000002\n' $((4096 + $3)) $((16 + $4)) > "$D/r/rps/softnet.after"
	echo 7 > "$D/r/rps/lo.before"
	echo $((7 + ${5:-0})) > "$D/r/rps/lo.after"
}
# expect NAME ok|not - the rps line's verdict
expect() {
	line=$(tests/lab/check-threads "$D/r" t 2> /dev/null | grep -E '^(not )?ok [0-9]+ - t: rps: (rx_backlog_packets|no softnet_stat)')
	case $2 in
	ok) case $line in "ok "*) echo "ok - check-threads backlog: $1" ;; *) echo "not ok - check-threads backlog: $1: got '$line'"; fail=1 ;; esac ;;
	not) case $line in "not ok "*) echo "ok - check-threads backlog: $1 fails" ;; *) echo "not ok - check-threads backlog: $1 should fail: got '$line'"; fail=1 ;; esac ;;
	esac
}
mk 1500 500 1500 500;	expect "equal per CPU" ok
mk 1500 499 1500 500;	expect "one packet short on CPU 1" not
mk 0 0 0 0;		expect "no backlog packet at all" not
mk 1000 1000 1500 500;	expect "the right total split wrongly over CPUs" not
mk 1500 500 1503 500 3;	expect "loopback's 3 packets taken out of the total" ok
mk 1500 500 1500 500 3;	expect "loopback's 3 packets not in the kernel's count" not
mk 1500 500 1500 500; rm "$D/r/rps/softnet.after"; expect "no kernel count" not
exit $fail
