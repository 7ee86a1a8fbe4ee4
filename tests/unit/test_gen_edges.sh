#!/bin/sh
# test_gen_edges.sh - netcost-gen's edges (issue 22): -n below --flows
# ends (bug 1), write errors on stdout fail (bug 3), a sink that received
# nothing exits 1 (bug 4), --work is bounded and interruptible (bug 5),
# "pps" over no time is null (bug 6), the sink does not leak (bug 13: in
# "make unit-san" LeakSanitizer fails the sink's exit status), and
# --ready-file refuses to replace a file that is not a ready file (bug 15).
# Also: "netcost-gen help", "[::1]" as a host, "too large" numbers and
# one "netcost-gen MODE: " prefix on every message.
set -u
cd "$(dirname "$0")/../.."
GEN=${BUILD:-$PWD/build}/bin/netcost-gen
tmp=$(mktemp -d)
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; fail=1; }

# start_sink NAME ARGS... - a sink on a free port; its port in $port
start_sink() {
	name=$1
	shift
	rm -f "$tmp/$name.ready"
	"$GEN" sink -p 0 -q --ready-file "$tmp/$name.ready" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	sink=$!
	pids="$pids $sink"
	for _ in $(seq 200); do [ -s "$tmp/$name.ready" ] && break; sleep 0.05; done
	port=$(cat "$tmp/$name.ready" 2>/dev/null)
	[ -n "$port" ] || { nok "sink $name did not start: $(cat "$tmp/$name.err")"; exit 1; }
}

# bug 1: -n 5 over 6 flows leaves one flow without a packet, and ends
rc=0
timeout 10 "$GEN" send -H 127.0.0.1 -p 9 -n 5 --flows 6 -q --report-wait 0.2 \
	>"$tmp/b1.out" 2>&1 || rc=$?
[ "$rc" != 124 ] && ok "send -n 5 --flows 6 ends (exit $rc)" ||
	nok "send -n 5 --flows 6 did not end in 10 s"

# bug 4 and 13: a sink that received nothing exits 1 and says so; one
# that received something exits 0 (under the sanitizers: with no leak)
rc=0
"$GEN" sink -p 0 -q -l 0.3 >"$tmp/b4.out" 2>"$tmp/b4.err" || rc=$?
if [ "$rc" = 1 ] && grep -q "^netcost-gen sink: .*no message" "$tmp/b4.err"; then
	ok "a sink that received nothing: exit 1, $(cat "$tmp/b4.err")"
else
	nok "a sink that received nothing: exit $rc, $(cat "$tmp/b4.err")"
fi
start_sink b13 -l 20 -j
rc=0
"$GEN" send -H 127.0.0.1 -p "$port" -n 5 -q -j >"$tmp/b6.json" 2>"$tmp/b6.err" || rc=$?
src=0
wait "$sink" || src=$?
if [ "$rc" = 0 ] && [ "$src" = 0 ] && ! grep -q Sanitizer "$tmp/b13.err"; then
	ok "send -n 5 to a sink: both exit 0"
else
	nok "send -n 5 to a sink: send exit $rc, sink exit $src: $(cat "$tmp/b6.err" "$tmp/b13.err")"
fi
# bug 6: a rate over no time is null, as in the sink's JSON
if jq -e 'if .elapsed_s == 0 then .pps == null and .mbit_s == null else .pps > 0 end' \
	"$tmp/b6.json" >/dev/null; then
	ok "send -j: pps agrees with elapsed_s ($(jq -c '[.elapsed_s, .pps]' "$tmp/b6.json"))"
else
	nok "send -j: $(jq -c '[.elapsed_s, .pps, .mbit_s]' "$tmp/b6.json"): a rate over no time is not null"
fi

# bug 5: --work 1000ms per packet (30 s for 30 packets) still stops at
# -l, and at SIGTERM
for how in limit term; do
	if [ $how = limit ]; then start_sink b5$how --work 1000ms -l 1; else
		start_sink b5$how --work 1000ms -l 60; fi
	"$GEN" send -H 127.0.0.1 -p "$port" -n 30 -q --report-wait 0 >/dev/null 2>&1
	t0=$(date +%s)
	[ $how = term ] && { sleep 0.5; kill -TERM "$sink"; }
	n=0
	while kill -0 "$sink" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	if kill -0 "$sink" 2>/dev/null; then
		nok "sink --work 1000ms ($how) still runs after 10 s"
		kill -KILL "$sink"
	else
		ok "sink --work 1000ms ($how) stopped within $(($(date +%s) - t0)) s"
	fi
done
rc=0
"$GEN" sink --work 30000ms >/dev/null 2>"$tmp/b5.err" || rc=$?
[ "$rc" = 2 ] && grep -q "too large" "$tmp/b5.err" && ok "--work 30000ms: exit 2, $(head -1 "$tmp/b5.err")" ||
	nok "--work 30000ms: exit $rc, $(cat "$tmp/b5.err")"

# bug 3: a write error on stdout is an error, with a message
if [ -w /dev/full ]; then
	start_sink b3 -l 20
	for args in "send -H 127.0.0.1 -p $port -n 3 -q -j" "sink -p 0 -l 0.2 -q" "--help" \
		"--version" "send -h" "help"; do
		rc=0
		# shellcheck disable=SC2086 # one word per argument
		"$GEN" $args >/dev/full 2>"$tmp/b3.err" || rc=$?
		if [ "$rc" != 0 ] && grep -q "^netcost-gen.*standard output" "$tmp/b3.err"; then
			ok "netcost-gen $args >/dev/full: exit $rc, $(grep 'standard output' "$tmp/b3.err")"
		else
			nok "netcost-gen $args >/dev/full: exit $rc, '$(cat "$tmp/b3.err")'"
		fi
	done
	kill "$sink" 2>/dev/null
else
	echo "ok - no /dev/full # SKIP"
fi

# bug 15: --ready-file never replaces a file that is not a ready file
printf '{\n  "tool": "netcost",\n  "version": 1\n}\n' >"$tmp/snap.json"
cp "$tmp/snap.json" "$tmp/snap.orig"
rc=0
"$GEN" sink -p 0 -q -l 0.2 --ready-file "$tmp/snap.json" >/dev/null 2>"$tmp/b15.err" || rc=$?
if [ "$rc" != 0 ] && cmp -s "$tmp/snap.json" "$tmp/snap.orig"; then
	ok "--ready-file on a snapshot: exit $rc, $(cat "$tmp/b15.err")"
else
	nok "--ready-file on a snapshot: exit $rc, file $(cmp -s "$tmp/snap.json" "$tmp/snap.orig" && echo kept || echo replaced)"
fi
echo 9000 >"$tmp/old.ready"
rc=0
"$GEN" sink -p 0 -q -l 0.2 --ready-file "$tmp/old.ready" >/dev/null 2>"$tmp/b15b.err" || rc=$?
if [ "$(cat "$tmp/old.ready")" != 9000 ] && [ -s "$tmp/old.ready" ]; then
	ok "--ready-file replaces an old ready file"
else
	nok "--ready-file on an old ready file: exit $rc, $(cat "$tmp/b15b.err")"
fi

# "help", "[::1]", numbers too large, one prefix
"$GEN" help >"$tmp/help.out" 2>&1 && grep -q "^usage: netcost-gen" "$tmp/help.out" &&
	ok "netcost-gen help" || nok "netcost-gen help: $(cat "$tmp/help.out")"
if "$GEN" sink -H ::1 -p 0 -l 0.1 -q >/dev/null 2>&1 || [ $? = 1 ] && ip -6 addr show lo 2>/dev/null | grep -q '::1'; then
	start_sink b6 -H ::1 -l 20
	rc=0
	"$GEN" send -H '[::1]' -p "$port" -n 3 -q >"$tmp/v6.out" 2>&1 || rc=$?
	[ "$rc" = 0 ] && ok "send -H [::1]" || nok "send -H [::1]: exit $rc, $(cat "$tmp/v6.out")"
	kill "$sink" 2>/dev/null
else
	echo "ok - no IPv6 loopback: [::1] not tried # SKIP"
fi
rc=0
"$GEN" send -H 127.0.0.1 -n 99999999999999999999999 >/dev/null 2>"$tmp/big.err" || rc=$?
[ "$rc" = 2 ] && grep -q "too large" "$tmp/big.err" && ok "a number too large: $(head -1 "$tmp/big.err")" ||
	nok "a number too large: exit $rc, $(cat "$tmp/big.err")"
rc=0
"$GEN" sink -p 0 -q -l 0.2 --ready-file "$tmp/nodir/x" >/dev/null 2>"$tmp/pfx.err" || rc=$?
grep -q "^netcost-gen sink: " "$tmp/pfx.err" && ok "an error from error(): $(head -1 "$tmp/pfx.err")" ||
	nok "an error without the 'netcost-gen sink: ' prefix: $(cat "$tmp/pfx.err")"
exit $fail
