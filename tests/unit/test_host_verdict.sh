#!/bin/bash
# test_host_verdict.sh - lab_host_verdict (tests/lab/lib.sh): a host
# check that dies, stops short of its plan or exits non-zero without a
# failing line adds a failure; a whole one adds nothing.  tests/lab/check
# and tests/lab/threads-check count every host check's run with it (until
# 0.14.0 threads-check passed check-threads' and check-busy's lines on
# without a look at their plan or status, so that a check that died
# printed fewer lines and failed nothing).
set -u
cd "$(dirname "$0")/../.."
# shellcheck source=tests/lab/lib.sh
. tests/lab/lib.sh
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# case RC EXPECT LINES... - LINES as the check's output, RC its status;
# EXPECT: "" (nothing added) or a part of the added line
case_() {
	local rc=$1 expect=$2 out
	shift 2
	printf '%s\n' "$@" >"$log"
	out=$(lab_host_verdict "$log" "$rc" boot check-x)
	if [[ -z $expect && -z $out ]] || [[ -n $expect && $out == "not ok - boot: check-x $expect"* ]]; then
		echo "ok - status $rc, $# lines: '${out:-nothing added}'"
	else
		echo "not ok - status $rc, $# lines: '$out', expected '${expect:-nothing}'"
		fail=1
	fi
}
case_ 0 "" "ok 1 - a" "not ok 2 - b" "1..2"
case_ 1 "" "ok 1 - a" "not ok 2 - b" "1..2"
case_ 0 "printed no plan" "ok 1 - a"
case_ 1 "printed no plan (exit status 1, 0 lines)" "Segmentation fault"
case_ 1 "printed 1 of its 3 planned lines" "ok 1 - a" "1..3"
case_ 0 "printed 3 of its 2 planned lines" "ok 1 - a" "ok 2 - b" "ok 3 - c" "1..2"
case_ 2 "exited with status 2 without a failing line" "ok 1 - a" "1..1"
case_ 0 "" "ok 1 - a # SKIP no IRQ threads" "# comment" "1..1"
# both hosts of the lab's checks use it, and neither keeps a copy
for f in tests/lab/check tests/lab/threads-check; do
	if grep -q 'lab_host_verdict' "$f" && ! grep -q 'planned lines' "$f"; then
		echo "ok - $f counts its host checks with lab_host_verdict"
	else
		echo "not ok - $f does not count its host checks with lab_host_verdict alone"
		fail=1
	fi
done
exit $fail
