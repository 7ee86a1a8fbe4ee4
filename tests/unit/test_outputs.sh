#!/bin/sh
# test_outputs.sh - what netcost writes, from the user's side (issue 22):
# export never replaces its input or another snapshot, however it is laid
# out (bug 2); a snapshot with control characters is refused and none
# reaches the terminal (bug 9); the exposition is valid for promtool, and
# a name collision is refused (bug 11); "--stage ''" is a usage error and
# a stage filter does not claim "no packets" (bug 12); "show -" reads
# stdin; -o /dev/null is a dry run; a snapshot's NAPI instances, text and
# JSON, and diff's NAPI instances one by one.
set -u
cd "$(dirname "$0")/../.."
NC=${BUILD:-$PWD/build}/bin/netcost
C=tests/unit/corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; fail=1; }

# bug 2: a key-sorted snapshot is still a snapshot; the input is never the output
jq -S . $C/stock.json >"$tmp/sorted.json"
cp "$tmp/sorted.json" "$tmp/sorted.orig"
rc=0
"$NC" export --prometheus --snapshot $C/stock.json -o "$tmp/sorted.json" 2>"$tmp/e.err" || rc=$?
if [ "$rc" != 0 ] && cmp -s "$tmp/sorted.json" "$tmp/sorted.orig"; then
	ok "export -o a key-sorted snapshot: exit $rc, $(cat "$tmp/e.err")"
else
	nok "export -o a key-sorted snapshot: exit $rc, the snapshot was $(cmp -s "$tmp/sorted.json" "$tmp/sorted.orig" && echo kept || echo replaced)"
fi
cp $C/stock.json "$tmp/in.json"
ln "$tmp/in.json" "$tmp/in-link.json"
for out in "$tmp/in.json" "$tmp/in-link.json" "$tmp/../$(basename "$tmp")/in.json"; do
	rc=0
	"$NC" export --prometheus --snapshot "$tmp/in.json" -o "$out" 2>"$tmp/e.err" || rc=$?
	if [ "$rc" != 0 ] && cmp -s "$tmp/in.json" $C/stock.json && grep -q "snapshot being read" "$tmp/e.err"; then
		ok "export --snapshot F -o $(basename "$out") (the same file): exit $rc"
	else
		nok "export --snapshot F -o $out (the same file): exit $rc, $(cat "$tmp/e.err")"
	fi
done
rc=0
"$NC" plot "$tmp/in.json" -o "$tmp/in-link.json" 2>"$tmp/e.err" || rc=$?
[ "$rc" != 0 ] && grep -q "snapshot being read" "$tmp/e.err" && cmp -s "$tmp/in.json" $C/stock.json &&
	ok "plot F -o a hard link to F: exit $rc" || nok "plot F -o a hard link to F: exit $rc, $(cat "$tmp/e.err")"

# bug 9: control characters never reach the terminal, nor the SVG
esc=$(printf '\033')
jq '.meta.note = "\u001b[31mred\u001b[0m" | .meta.cpu_model = "\u001b]0;title\u0007"' $C/stock.json >"$tmp/esc.json"
jq '.cpus[0].counters["x\u001b[2J"] = 1' $C/stock.json >"$tmp/esckey.json"
for f in esc esckey; do
	for cmd in show plot; do
		rc=0
		if [ $cmd = plot ]; then
			"$NC" plot "$tmp/$f.json" -o "$tmp/$f.svg" >"$tmp/o.out" 2>"$tmp/o.err" || rc=$?
		else
			"$NC" show "$tmp/$f.json" >"$tmp/o.out" 2>"$tmp/o.err" || rc=$?
		fi
		if [ -f "$tmp/$f.svg" ] && ! xmllint --noout "$tmp/$f.svg" 2>/dev/null; then
			nok "$cmd $f.json: an SVG xmllint rejects"
		elif grep -q "$esc" "$tmp/o.out" "$tmp/o.err"; then
			nok "$cmd $f.json: exit $rc, a raw ESC in the output"
		elif [ "$rc" = 0 ]; then
			nok "$cmd $f.json: exit 0"
		else
			ok "$cmd $f.json: exit $rc, $(cat "$tmp/o.err")"
		fi
	done
done

rc=0
"$NC" save "$tmp/note.json" --note "$(printf 'a\033[2Jb')" >/dev/null 2>"$tmp/e.err" || rc=$?
[ "$rc" = 2 ] && [ ! -e "$tmp/note.json" ] && ok "save --note with ESC: exit 2" ||
	nok "save --note with ESC: exit $rc, $(cat "$tmp/e.err")"

# bug 11: valid exposition; a counter cpu_X next to X per CPU is refused
if command -v promtool >/dev/null 2>&1; then
	for f in stock rt; do
		"$NC" export --prometheus --per-cpu --snapshot $C/$f.json -o "$tmp/$f.prom" &&
			promtool check metrics <"$tmp/$f.prom" >"$tmp/p.out" 2>&1 &&
			ok "export --per-cpu of $f.json: promtool accepts it" ||
			nok "export --per-cpu of $f.json: $(cat "$tmp/p.out")"
	done
	jq '.cpus[0].counters.cpu_rx_packets = 5' $C/stock.json >"$tmp/coll.json"
	"$NC" export --prometheus --snapshot "$tmp/coll.json" -o "$tmp/coll.prom" &&
		promtool check metrics <"$tmp/coll.prom" >"$tmp/p.out" 2>&1 &&
		ok "export with a counter cpu_rx_packets: promtool accepts it" ||
		nok "export with a counter cpu_rx_packets: $(cat "$tmp/p.out")"
	rc=0
	"$NC" export --prometheus --per-cpu --snapshot "$tmp/coll.json" -o "$tmp/coll2.prom" \
		2>"$tmp/e.err" || rc=$?
	if [ "$rc" = 0 ]; then
		promtool check metrics <"$tmp/coll2.prom" >"$tmp/p.out" 2>&1 &&
			ok "export --per-cpu with cpu_rx_packets and rx_packets: valid" ||
			nok "export --per-cpu with cpu_rx_packets and rx_packets: $(cat "$tmp/p.out")"
	elif [ ! -e "$tmp/coll2.prom" ] && grep -q "cpu_rx_packets" "$tmp/e.err"; then
		ok "export --per-cpu with cpu_rx_packets and rx_packets: exit $rc, $(cat "$tmp/e.err")"
	else
		nok "export --per-cpu with a collision: exit $rc, $(cat "$tmp/e.err")"
	fi
else
	echo "ok - no promtool: exposition not checked # SKIP"
fi

# bug 12: --stage '' names nothing; --stage rx_skb has packets
rc=0
"$NC" show --stage '' $C/stock.json >/dev/null 2>"$tmp/e.err" || rc=$?
[ "$rc" = 2 ] && ok "show --stage '': exit 2, $(head -1 "$tmp/e.err")" || nok "show --stage '': exit $rc"
"$NC" show --stage rx_skb $C/stock.json >"$tmp/s.out" 2>&1
grep -q "no packets" "$tmp/s.out" && nok "show --stage rx_skb says 'no packets'" ||
	ok "show --stage rx_skb: $(grep '^total' "$tmp/s.out")"

# one message for one error: a JSON report that cannot reach stdout
if [ -w /dev/full ]; then
	for args in "show -j $C/stock.json" "diff -j $C/stock.json $C/rt.json" "show $C/stock.json"; do
		rc=0
		# shellcheck disable=SC2086 # one word per argument
		"$NC" $args >/dev/full 2>"$tmp/e.err" || rc=$?
		n=$(grep -c "^netcost: [^w]" "$tmp/e.err")
		[ "$rc" = 1 ] && [ "$n" = 1 ] && ok "netcost $args >/dev/full: exit 1, one message" ||
			nok "netcost $args >/dev/full: exit $rc, $n messages: $(cat "$tmp/e.err")"
	done
fi

# show - reads stdin; -o /dev/null is a dry run
"$NC" show - <$C/stock.json >"$tmp/stdin.out" 2>&1 && "$NC" show $C/stock.json >"$tmp/file.out" &&
	cmp -s "$tmp/stdin.out" "$tmp/file.out" && ok "show - reads stdin" ||
	nok "show -: $(head -3 "$tmp/stdin.out")"
"$NC" export --prometheus --snapshot $C/stock.json -o /dev/null 2>"$tmp/e.err" &&
	ok "export -o /dev/null" || nok "export -o /dev/null: $(cat "$tmp/e.err")"

# NAPI instances (0.9.0): show prints a snapshot's table and its "napi"
# arrays, absent values null; a snapshot from before has neither
"$NC" show $C/napi.json >"$tmp/napi.out" 2>&1
row=$(sed -n '/^NAPI instances /,/^$/p' "$tmp/napi.out" | awk '$1 == "eth0" { $1 = $1; print }')
[ "$row" = "eth0 8193 24 812 3700 37000 10.0 3700 13000 0" ] &&
	grep -q '^  backlog  *0  *-  *-  *10  *30 ' "$tmp/napi.out" && ok "show napi.json: the NAPI table" ||
	nok "show napi.json: eth0's row \"$row\": $(sed -n '/^NAPI instances /,/^$/p' "$tmp/napi.out")"
j=$("$NC" show -j $C/napi.json | jq -c '[.total.napi[] | [.device, .irq, .thread_pid, .cpus, .per_poll]]')
[ "$j" = '[["eth0",24,812,[0],13000],["eth1",null,null,[0],null],[null,null,null,[0],2000]]' ] &&
	ok "show -j napi.json: total.napi $j" || nok "show -j napi.json: total.napi $j"
"$NC" show $C/stock.json >"$tmp/old.out" 2>&1 && ! grep -q NAPI "$tmp/old.out" &&
	[ "$("$NC" show -j $C/stock.json | jq -c '[.total.napi, .cpus[0].napi, .napi_dropped]')" = '[[],[],0]' ] &&
	ok "show stock.json (before 0.9.0): no NAPI table, empty napi arrays" ||
	nok "show stock.json (before 0.9.0): $(grep NAPI "$tmp/old.out")"

# diff pairs the NAPI instances one by one: of one boot by napi_id, of
# another (napi.json's, renumbered; eth0 slower) by order, backlogs by CPU;
# against a snapshot from before 0.9.0 each alone, and none between two
jq '(.cpus[].napi[], .total.napi[]) |= (if .device == "eth0" then .id = 9001 | .cycles = 59200000
	elif .device == "eth1" then .id = 9002 else . end)' $C/napi.json >"$tmp/napi-b.json"
"$NC" diff $C/napi.json "$tmp/napi-b.json" >"$tmp/nd.out" 2>&1
row=$(sed -n '/^NAPI instances /,/^$/p' "$tmp/nd.out" | awk '$1 == "eth0" { $1 = $1; print }')
[ "$row" = "eth0 8193 9001 order 3700 3700 37000 37000 13000 16000 1.23x 1300 1600 1.23x" ] &&
	grep -q "^  order: the device's napi_ids differ" "$tmp/nd.out" &&
	ok "diff napi.json, renumbered: eth0 by order" ||
	nok "diff napi.json, renumbered: eth0's row \"$row\": $(sed -n '/^NAPI instances /,/^$/p' "$tmp/nd.out")"
for b in "$tmp/napi-b.json" $C/napi.json; do
	j=$("$NC" diff -j $C/napi.json "$b" 2>/dev/null |
		jq -c '[.napi_instances[] | [.device, .paired_by, .a.id, .b.id,
			(.ratio_cycles_per_poll | if . == null then . else . * 1000 | round end)]]')
	if [ "$b" = "$C/napi.json" ]; then
		want='[["eth0","napi_id",8193,8193,1000],["eth1","napi_id",8194,8194,null],["backlog","cpu",0,0,1000]]'
	else
		want='[["eth0","order",8193,9001,1231],["eth1","order",8194,9002,null],["backlog","cpu",0,0,1000]]'
	fi
	[ "$j" = "$want" ] && ok "diff -j napi.json $(basename "$b"): napi_instances $j" ||
		nok "diff -j napi.json $(basename "$b"): napi_instances $j"
done
j=$("$NC" diff -j $C/stock.json $C/napi.json 2>/dev/null |
	jq -c '[.napi_instances[] | [.device, .paired_by, .a, .b.id]]')
[ "$j" = '[["eth0",null,null,8193],["eth1",null,null,8194],["backlog",null,null,0]]' ] &&
	ok "diff -j stock.json (before 0.9.0) napi.json: B's instances alone" ||
	nok "diff -j stock.json napi.json: napi_instances $j"
"$NC" diff $C/stock.json $C/rt.json >"$tmp/nd.out" 2>/dev/null && ! grep -q NAPI "$tmp/nd.out" &&
	[ "$("$NC" diff -j $C/stock.json $C/rt.json 2>/dev/null | jq -c .napi_instances)" = '[]' ] &&
	ok "diff stock.json rt.json (before 0.9.0): no NAPI section, napi_instances []" ||
	nok "diff stock.json rt.json: $(grep NAPI "$tmp/nd.out")"
exit $fail
