#!/bin/sh
# peer.sh - (peer) one sink per mode of probe-tested.sh or
# stream-tested.sh, each started when the tested guest is told "go-MODE"
# usage: peer.sh OUTDIR "MODES"
out=${1:-/mnt/out} modes=${2:-"nosoak soak"}
mkdir -p "$out"
echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
echo 8388608 >/proc/sys/net/core/rmem_max
for m in $modes; do
	rm -f /tmp/ready
	netcost-gen sink -j -q -p 9001 -S 8388608 --ready-file /tmp/ready >$out/sink-$m.json 2>$out/sink-$m.err &
	sink=$!
	while [ ! -s /tmp/ready ]; do sleep 0.1; done
	pair signal go-$m
	wait $sink
done
echo "peer: done"
