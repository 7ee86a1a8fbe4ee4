#!/bin/sh
# test_build.sh - the tools build with a distribution's command line:
# "make -C userspace CFLAGS=-O2" (and CPPFLAGS=...) must keep the
# project's include paths and flags (issue 11, bug 11).  Builds two
# objects that need ../include into a scratch directory.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for args in "CFLAGS=-O2" "CFLAGS=-O1 CPPFLAGS=-DNDEBUG"; do
	# shellcheck disable=SC2086 # one word per variable
	if ! make --no-print-directory -s -C userspace BUILD="$tmp" $args \
		"$tmp/obj/lib/model.o" "$tmp/obj/netcost-gen/proto.o" >"$tmp/log" 2>&1; then
		cat "$tmp/log" >&2
		echo "not ok - make -C userspace $args fails"
		exit 1
	fi
	echo "ok - make -C userspace $args"
done
