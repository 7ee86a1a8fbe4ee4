#!/bin/sh
# test_layering.sh - issue 11's one-way data flow: the renderers (report,
# diff, plot, export, watch, info) print the figures lib/metrics.c derives
# and divide nothing of their own.  A renderer that divides a histogram's
# sum or count, a counter, or anything by packets, runs, cycles or the
# span is a derived figure in the wrong place: move it to metrics.c.
set -u
cd "$(dirname "$0")/../.."
fail=0
files="userspace/lib/report.c userspace/lib/diff.c userspace/netcost/plot.c
	userspace/netcost/export.c userspace/netcost/watch.c userspace/netcost/info.c"
pat='->(sum|count)\)? */|counter\[[^]]+\]\)? */|/ *\(double\) *\(?(pkts|rx|tx|span|runs|cycles|total|nr)\b|/ *interval_s\b|->total_[ab](_ns)? */'
for f in $files; do
	[ -f "$f" ] || continue
	hits=$(grep -nE -- "$pat" "$f")
	if [ -n "$hits" ]; then
		echo "not ok - $f derives figures of its own (belongs in lib/metrics.c):"
		printf '%s\n' "$hits" | sed 's/^/#   /'
		fail=1
	else
		echo "ok - $f only renders"
	fi
done
exit $fail
