#!/bin/sh
# demo-peer.sh - (peer of a pair, 10.0.0.2) the other half of
# guest/demo-tested.sh: the same list of windows, in the same order.
#   rx window (flows19): on rx-go, send FLOWS flows of 10-byte payloads
#       to the tested guest at RATE pps in all (by this guest's clock: real
#       time) until rx-stop; then one round of FINs, and rx-sent.
#   tx window (stream): on tx-sink, start a sink for the tested guest's
#       stream (port 9001, an 8 MiB receive buffer), tx-ready once bound;
#       tx-done once the sender's FINs stopped it.
# usage: demo-peer.sh OUTDIR FLOWS WINDOW...
#   WINDOW: SCENARIO:SOAK:RATE[:SUFFIX], as demo-tested.sh takes them
out=${1:?} flows=${2:?}
shift 2
mkdir -p "$out"
die() { echo "demo-peer: $*" >&2; echo "$*" >>"$out/error"; exit 1; }

echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
echo 8388608 >/proc/sys/net/core/rmem_max
pair signal peer-ready 300 || die "the tested guest did not take peer-ready"
for w in "$@"; do
	IFS=: read -r scen soak rate suffix <<-E
	$w
	E
	name=$scen-$soak$suffix
	case $scen in
	flows19)
		pair wait rx-go 900 || die "$name: no rx-go"
		netcost-gen send -j -q -H 10.0.0.1 -p 9000 -m 10 --flows "$flows" -r "$rate" -l 3600 \
			>"$out/$name.send.json" 2>"$out/$name.send.err" &
		pid=$!
		pair wait rx-stop 900 || die "$name: no rx-stop"
		kill -INT $pid
		wait $pid || echo "demo-peer: $name: the sender exited with $?: $(tail -2 "$out/$name.send.err")" >&2
		pair signal rx-sent || die "$name: the tested guest did not take rx-sent"
		;;
	stream)
		pair wait tx-sink 900 || die "$name: no tx-sink"
		rm -f /tmp/sink.ready
		netcost-gen sink -j -q -p 9001 -S 8388608 --idle-timeout 30 --ready-file /tmp/sink.ready \
			>"$out/$name.sink.json" 2>"$out/$name.sink.err" &
		pid=$!
		n=100
		while [ ! -s /tmp/sink.ready ]; do
			n=$((n - 1)); [ $n -gt 0 ] || die "$name: the sink did not start: $(cat "$out/$name.sink.err")"
			sleep 0.1
		done
		pair signal tx-ready || die "$name: the tested guest did not take tx-ready"
		wait $pid || echo "demo-peer: $name: the sink exited with $?" >&2
		pair signal tx-done || die "$name: the tested guest did not take tx-done"
		;;
	*)
		die "unknown scenario '$scen' in '$w'"
		;;
	esac
done
echo "demo-peer: done"
