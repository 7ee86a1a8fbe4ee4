#!/bin/sh
# t-run.sh - (guest) "netcost run" end to end: soak, generator and sink,
# snapshot with the load and the closure.  check-run compares on the host.
# usage: t-run.sh OUTDIR
out=${1:-/mnt/out}
mkdir -p "$out"
. /lab/lib.sh
lsmod | grep -q '^netcost ' || insmod /lib/netcost/netcost.ko || { not_ok "insmod"; exit 0; }
# both namespaces' /proc/net/dev around the run (lib.sh): the devices'
# own count of the packets that entered the stack bounds the snapshot's
# rx_packets
netdev "$out/netdev.before"
if netcost run --gen "-H 10.0.0.2 -m 18 -r 1500" --sink-prefix in-ns --duration 4 \
	--note "lab t-run" -o "$out/run.json" > "$out/run.out" 2> "$out/run.err"; then
	ok "netcost run: $(grep -m1 'unexplained' "$out/run.out")"
else
	not_ok "netcost run failed: $(tail -3 "$out/run.err")"
fi
netdev "$out/netdev.after"
netcost show "$out/run.json" > "$out/show.out" 2>&1 && ok "netcost show reads the snapshot" || not_ok "netcost show: $(head -2 "$out/show.out")"
rmmod netcost
