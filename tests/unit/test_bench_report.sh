#!/bin/sh
# test_bench_report.sh - bench/overhead-report's headline on rounds made
# by hand: busy cycles a packet (elapsed x busy / packets) over the same
# round's "none", their mean and 95% interval (Student's t over the
# rounds), the rate ratio the same way, netcost's pairs from its dump
# (the events its stages recorded) with its hits beside them, ftrace's
# pairs from its histograms, and a target graded on its interval.
set -u
cd "$(dirname "$0")/../.." || exit 1
command -v python3 > /dev/null || { echo "not ok - bench report: no python3"; exit 1; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
K=$D/6.1
mkdir -p "$K"
echo "Linux lab 6.1 test" > "$K/uname"
echo "console=ttyS0" > "$K/cmdline"
fail=0

# phase TAG PACKETS ELAPSED_S IDLE_TICKS - one phase: 100 ticks in all,
# IDLE_TICKS of them idle
phase() {
	echo "{\"messages\": $2}" > "$K/$1.sink.json"
	echo "{\"messages\": $2, \"elapsed_s\": $3, \"tsc_khz\": 1000000}" > "$K/$1.send.json"
	echo "cpu  0 0 0 0 0 0 0 0 0 0" > "$K/$1.stat0"
	echo "cpu  $((100 - $4)) 0 0 $4 0 0 0 0 0 0" > "$K/$1.stat1"
}
# round N ALL_ELAPSED_S - none: 100,000 packets in 1 s, 90% busy (9,000
# busy cycles a packet); all: 90,000 packets in ALL_ELAPSED_S, 90% busy,
# 180,000 hook hits, 45,000 stage events; ftrace: 80,000 packets in 1 s,
# 80% busy (10,000 busy cycles a packet), 40,000 pairs
round() {
	phase "r$1-none" 100000 1.0 10
	phase "r$1-all" 90000 "$2" 10
	echo '{"hooks": [{"hits": 0}]}' > "$K/r$1-all.info0.json"
	echo '{"hooks": [{"hits": 180000}], "probe_cost_cycles": 70, "probe_cost_p50_cycles": 50}' > "$K/r$1-all.info1.json"
	echo '{"cpus": [{"stages": {"a": {"count": 40000}, "b": {"count": 5000}}}]}' > "$K/r$1-all.dump.json"
	phase "r$1-ftrace" 80000 1.0 20
	for n in nc_hardirq_lat:20000 nc_netrx_lat:10000 nc_rxskb_lat:10000; do
		printf 'Totals:\n    Hits: %s\n' "${n#*:}" > "$K/r$1-ftrace.ftrace-${n%:*}.hist"
	done
}
# all's busy cycles a packet: ELAPSED x 1e9 x 0.9 / 90,000 = ELAPSED x 10,000,
# so 1.09, 1.10, 1.11, 1.10, 1.10 s add 1,900, 2,000, 2,100, 2,000, 2,000
round 1 1.09
round 2 1.10
round 3 1.11
round 4 1.10
round 5 1.10
out=$(bench/overhead-report "$K" 2>&1)
check() {
	if printf '%s\n' "$out" | grep -qF -- "$2"; then
		echo "ok - bench report: $1"
	else
		echo "not ok - bench report: $1: no line with '$2'"
		fail=1
	fi
}
# mean 2,000; sd sqrt(20,000 / 4) = 70.7; t(4) 2.776: 2.776 x 70.7 / sqrt(5) = 88
check "netcost's added busy cycles a packet, mean and 95% interval" "| netcost, all groups (every stage) | 2000 ± 88 |"
# ftrace: 80,000 packets in 1 s at 80% busy = 10,000, less none's 9,000
check "ftrace's, no spread: a zero interval" "| ftrace hist triggers (3 stages) | 1000 ± 0 |"
# netcost: 45,000 events / 90,000 packets = 0.50 pairs, beside 2.00 hits a packet
check "netcost's pairs from its dump, its hits beside them" "| netcost, all groups (every stage) | 0.50 (2.00 hits) | 4000 ± 176 |"
# ftrace: 40,000 pairs / 80,000 packets
check "ftrace's pairs from its histograms" "| ftrace hist triggers (3 stages) | 0.50 | 2000 ± 0 |"
# the rate: 90,000 / 1.09 ... against 100,000 / 1: 0.826, 0.818, 0.811, 0.818, 0.818
check "the rate ratio's interval" "| all | 0.818 ± 0.007 |"
# 0.818 + 0.007 below 0.97: missed on its interval
check "the rate target graded on the interval" "| UDP rate, netcost all groups vs none (95% interval) | >= 0.97 | 0.818 ± 0.007 (missed) |"
# all-in: 2,000 ± 88 over 2 hits a packet: 1,000 ± 44, above 60
check "the probe cost graded all-in" "all-in 1000 ± 44 a hit under UDP"
exit $fail
