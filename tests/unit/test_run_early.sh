#!/bin/sh
# test_run_early.sh - "netcost run" checks everything before it touches
# the module (issue 22, bug 14): a typo in --gen or --sink is netcost-gen's
# usage error (exit 2) before the module check and before RESET, and an
# -o that is a symlink or a device is refused at once.  Here the module
# is not loaded, so a check done too late shows as exit 3.
set -u
cd "$(dirname "$0")/../.."
B=${BUILD:-$PWD/build}/bin
NC=$B/netcost
export NETCOST_GEN=$B/netcost-gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {	# check WANT_RC WANT_TEXT ARGS...
	want=$1 text=$2
	shift 2
	rc=0
	"$NC" run "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$text" "$tmp/err"; then
		echo "ok - run $*: exit $rc, $(tail -1 "$tmp/err")"
	else
		echo "not ok - run $*: exit $rc (want $want, '$text'): $(cat "$tmp/err")"
		fail=1
	fi
}
check 2 "nothing was reset" --gen '-H 127.0.0.1 -r abc' -o "$tmp/a.json"
check 2 "'abc' is not a number" --gen '-H 127.0.0.1 -r abc' -o "$tmp/a.json"
check 2 "nothing was reset" --gen '-H 127.0.0.1 --flows 0' -o "$tmp/a.json"
check 2 "nothing was reset" --gen '-H 127.0.0.1' --sink '--work 5parsecs' -o "$tmp/a.json"
ln -s "$tmp/real.json" "$tmp/link.json"
check 1 "symbolic link" --external -o "$tmp/link.json"
check 1 "not a regular file" --external -o /dev/zero
[ -e "$tmp/real.json" ] && { echo "not ok - the symlink's target was written"; fail=1; }
exit $fail
