#!/bin/sh
# test_man.sh - the man pages render without warnings and document what
# the tools accept: every netcost command in netcost(8), every option of
# "netcost-gen send -h" and "sink -h" in netcost-gen(1), and --version.
set -u
cd "$(dirname "$0")/../.."
B=${BUILD:-$PWD/build}/bin
fail=0
if ! command -v man >/dev/null 2>&1; then
	echo "ok - man is missing: rendering not checked # SKIP"
else
	for page in Documentation/netcost.8 Documentation/netcost-gen.1; do
		w=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
		if [ -n "$w" ]; then echo "not ok - $page: $w"; fail=1; else echo "ok - $page renders"; fi
	done
fi
# -- is a plain hyphen in the pages' source: \- or \-\-
text() { sed 's/\\-/-/g' "$1"; }
for cmd in $("$B/netcost" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
	if ! text Documentation/netcost.8 | grep -q "netcost $cmd\|^\.B $cmd"; then
		echo "not ok - netcost(8) lacks the command $cmd"; fail=1
	fi
done
for mode in send sink; do
	for opt in $("$B/netcost-gen" $mode -h | sed -n 's/^  \(-[-a-z0-9]*\).*/\1/p'); do
		if ! text Documentation/netcost-gen.1 | grep -q -- "$opt"; then
			echo "not ok - netcost-gen(1) lacks $mode $opt"; fail=1
		fi
	done
done
[ $fail = 0 ] && echo "ok - every command and generator option is documented"
v=$("$B/netcost-gen" --version) && echo "$v" | grep -q "^netcost-gen [0-9]" &&
	echo "ok - netcost-gen --version: $v" || { echo "not ok - netcost-gen --version"; fail=1; }
exit $fail
