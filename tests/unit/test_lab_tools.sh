#!/bin/sh
# test_lab_tools.sh - the lab's netlink tools (tests/lab/tools/nc-*.c) and
# bench/overhead-dump.c share one libmnl helper, tests/lab/tools/nc-mnl.h:
# none carries its own family lookup or request loop, and each, run here
# where the module cannot be loaded, says the family is missing and exits
# as it documents (the lookup through the helper works and fails cleanly).
set -u
cd "$(dirname "$0")/../.."
B=${BUILD:-$PWD/build}/bin
# under "make unit-san" BUILD is BUILD/san, whose bin has only the tools
# built with the sanitizers: the lab's tools are in BUILD/bin
[ -x "$B/nc-dump-intr" ] || B=$(dirname "${BUILD:-$PWD/build/san}")/bin
fail=0
for f in tests/lab/tools/nc-*.c bench/overhead-dump.c; do
	grep -q 'libmnl\|mnl_' "$f" || continue		# nc-pty: no netlink
	if grep -q 'CTRL_CMD_GETFAMILY\|mnl_socket_bind' "$f"; then
		echo "not ok - $f has its own family lookup or request loop (use nc-mnl.h)"
		fail=1
	elif ! grep -q '#include "nc-mnl.h"' "$f"; then
		echo "not ok - $f does not use nc-mnl.h"
		fail=1
	else
		echo "ok - $f uses nc-mnl.h"
	fi
done
# tool and arguments, expected status, expected words
while IFS='|' read -r tool want words; do
	set -- $tool
	if [ ! -x "$B/$1" ]; then
		# make unit and make unit-san build them all: a missing one is
		# a failure, never a skip
		echo "not ok - $1 not built in $B"
		fail=1
		continue
	fi
	out=$(timeout 20 "$B/$@" 2>&1)
	rc=$?
	if [ $rc -eq "$want" ] && echo "$out" | grep -q "$words"; then
		echo "ok - $tool without the module: exit $rc, \"$(echo "$out" | head -n 1)\""
	else
		echo "not ok - $tool without the module: exit $rc (want $want), \"$out\""
		fail=1
	fi
done <<'CASES'
nc-bench-dump|1|no netcost family
nc-dump-intr|1|family netcost not found
nc-dumpcheck|2|family netcost not found
nc-nlfuzz --print-id|2|family netcost not found
nc-task-slots|0|not ok - netcost family not found
nc-xdp|2|usage: nc-xdp DEV
nc-xdp lo fly|2|usage: nc-xdp DEV
nc-xdp nosuch0 aborted|1|nosuch0: no such device
CASES
# nc-hold-tasks (no netlink): N holders, then READY-FILE says N; bad
# arguments are exit 2
if [ -x "$B/nc-hold-tasks" ]; then
	r=$(mktemp -u)
	"$B/nc-hold-tasks" 4 "$r" 3 2>/dev/null &
	pid=$!
	i=0
	while [ ! -s "$r" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if [ "$(cat "$r" 2>/dev/null)" = 4 ] && [ ! -e "$r.tmp" ] && kill -0 $pid 2>/dev/null; then
		echo "ok - nc-hold-tasks 4 F 3: F says 4 and the holders stay"
	else
		echo "not ok - nc-hold-tasks 4 F 3: F '$(cat "$r" 2>/dev/null)'"
		fail=1
	fi
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	rm -f "$r"
	for args in "" "0 $r" "5 $r 0" "5 $r 21" "x $r"; do
		# shellcheck disable=SC2086 # one word per argument
		"$B/nc-hold-tasks" $args >/dev/null 2>&1
		rc=$?
		if [ $rc -eq 2 ] && [ ! -e "$r" ]; then echo "ok - nc-hold-tasks '$args': exit 2"; else
			echo "not ok - nc-hold-tasks '$args': exit $rc"
			fail=1
		fi
	done
else
	echo "not ok - nc-hold-tasks not built in $B"
	fail=1
fi
# nc-sockcalls: exactly N sendto/recvfrom pairs of one family; bad
# arguments are exit 2
if [ -x "$B/nc-sockcalls" ]; then
	for fam in unix inet; do
		o=$("$B/nc-sockcalls" $fam 10 2>&1)
		if [ "$o" = "$fam 10 sendto 10 recvfrom" ]; then echo "ok - nc-sockcalls $fam 10: $o"; else
			echo "not ok - nc-sockcalls $fam 10: '$o'"
			fail=1
		fi
	done
	for args in "" "unix" "tcp 5" "unix 0" "inet x"; do
		# shellcheck disable=SC2086 # one word per argument
		"$B/nc-sockcalls" $args >/dev/null 2>&1
		rc=$?
		if [ $rc -eq 2 ]; then echo "ok - nc-sockcalls '$args': exit 2"; else
			echo "not ok - nc-sockcalls '$args': exit $rc"
			fail=1
		fi
	done
else
	echo "not ok - nc-sockcalls not built in $B"
	fail=1
fi
exit $fail
