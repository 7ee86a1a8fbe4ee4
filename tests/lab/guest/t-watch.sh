#!/bin/sh
# t-watch.sh - (guest) "netcost watch" as a person at a terminal sees it:
# on a terminal it redraws in place (ANSI home + clear) and quits on q or
# Ctrl-C with status 0; piped, it prints plain lines and stops after -n.
. /lab/lib.sh
lsmod | grep -q '^netcost ' || insmod /lib/netcost/netcost.ko || { not_ok "insmod"; exit 0; }
esc=$(printf '\033')

nc-pty -k q -t 2.5 -- netcost watch -i 1 > /tmp/watch.tty 2>&1
rc=$?
is "watch on a terminal quits on q with status 0" "$rc" 0
if grep -q "$esc\[" /tmp/watch.tty && grep -q 'hardirq\|stage' /tmp/watch.tty; then
	ok "watch on a terminal redraws in place ($(grep -o "$esc\[[0-9;]*[HJ]" /tmp/watch.tty | wc -l) cursor/clear sequences)"
else
	not_ok "watch on a terminal: no redraw sequences"; diag "$(head -c 400 /tmp/watch.tty | od -c | head -5)"
fi

nc-pty -s 2 -t 2.5 -- netcost watch -i 1 > /tmp/watch.int 2>&1
is "watch on a terminal ends cleanly on SIGINT (status 0)" "$?" 0

netcost watch -i 1 -n 2 > /tmp/watch.pipe 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q "$esc" /tmp/watch.pipe && [ -s /tmp/watch.pipe ]; then
	ok "watch piped: plain lines, stops after -n 2 ($(wc -l < /tmp/watch.pipe) lines)"
else
	not_ok "watch piped: rc=$rc"; diag "$(head -5 /tmp/watch.pipe)"
fi
rmmod netcost
