#!/bin/sh
# test_layering.sh - the one-way data flow.
# Userspace: the renderers (report, diff, plot, export, watch, info)
# print the figures lib/metrics.c derives and divide nothing of their
# own.  A renderer that divides a histogram's sum or count, a counter, or
# anything by packets, runs, cycles or the span is a derived figure in
# the wrong place: move it to metrics.c.
# The module: the hook table (hooks.c, hooks.h, probes.h, probe_types.c)
# on top, the probes below it, the clock, the task table and the
# histograms at the bottom.  No probe includes the table's header (the
# hits a probe counts are hist.h's), and no bottom file includes a
# probe's or the table's.
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
up='"(hooks|probes)\.h"'
for f in module/probes_*.c; do
	if grep -qE "^#include \"hooks\.h\"" "$f"; then
		echo "not ok - $f includes the hook table's header (hooks.h): the table names the probes, not the other way"
		fail=1
	else
		echo "ok - $f includes nothing of the hook table"
	fi
done
for f in module/clock.c module/clock.h module/tasks.c module/tasks.h module/hist.c module/hist.h \
	module/wait.c module/wait.h module/napi.c module/napi.h module/nic.c module/nic.h; do
	[ -f "$f" ] || continue
	if grep -qE "^#include $up" "$f"; then
		echo "not ok - $f, at the bottom, includes the probes' or the table's header: $(grep -E "^#include $up" "$f" | tr '\n' ' ')"
		fail=1
	else
		echo "ok - $f includes no header above it"
	fi
done
exit $fail
