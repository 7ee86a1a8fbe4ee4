#!/bin/sh
# test_gen_errors.sh - netcost-gen on the loopback (issue 11, bug 10): a
# second sink on a busy port fails with "port in use" instead of taking
# the traffic; a sender with no listener says "no receiver" and exits
# non-zero when nothing was delivered.
set -u
cd "$(dirname "$0")/../.."
GEN=${BUILD:-$PWD/build}/bin/netcost-gen
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0

# a sink on a free port, then another on the same one
"$GEN" sink -p 0 -q -l 20 --ready-file "$tmp/ready" >"$tmp/sink1.out" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$tmp/ready" ] && break; sleep 0.05; done
port=$(cat "$tmp/ready")
if "$GEN" sink -p "$port" -q -l 1 >"$tmp/sink2.out" 2>&1; then
	echo "not ok - a second sink on busy port $port started"
	fail=1
elif ! grep -q "port $port in use" "$tmp/sink2.out"; then
	echo "not ok - a second sink on busy port $port: no 'port in use' message:"
	cat "$tmp/sink2.out"
	fail=1
else
	echo "ok - a second sink on a busy port: $(cat "$tmp/sink2.out")"
fi
kill "$pid"
wait "$pid" 2>/dev/null
pid=

# a sender to that port, now free: nobody listens
rc=0
"$GEN" send -H 127.0.0.1 -p "$port" -l 0.3 -r 1000 -q --report-wait 0.3 \
	>"$tmp/send.out" 2>&1 || rc=$?
if [ "$rc" = 0 ]; then
	echo "not ok - send with no receiver exits 0:"
	cat "$tmp/send.out"
	fail=1
elif ! grep -q "no receiver" "$tmp/send.out"; then
	echo "not ok - send with no receiver (exit $rc) does not say 'no receiver':"
	cat "$tmp/send.out"
	fail=1
else
	echo "ok - send with no receiver: exit $rc"
fi

# one option table for both modes: each mode refuses the other's options
for args in "sink --gso" "sink -r 100" "send --ready-file x -H 127.0.0.1" \
	"send -H 127.0.0.1 -p 0" "send" "sink extra" "send -H ::1 -4 -6"; do
	rc=0
	# shellcheck disable=SC2086 # one word per argument
	"$GEN" $args >"$tmp/opt.out" 2>&1 || rc=$?
	if [ "$rc" != 2 ] || ! grep -q "Try 'netcost-gen $(echo $args | cut -d' ' -f1) -h'" "$tmp/opt.out"; then
		echo "not ok - netcost-gen $args: exit $rc, want 2 and a hint"
		fail=1
	fi
done
[ $fail = 0 ] && echo "ok - each mode refuses the other's options with exit 2"
exit $fail
