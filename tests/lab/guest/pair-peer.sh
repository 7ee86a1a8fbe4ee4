#!/bin/sh
# pair-peer.sh - (peer of a pair, 10.0.0.2) the other half of
# guest/pair-tested.sh: in rx, the sender; in tx, the sink.
# usage: pair-peer.sh OUTDIR SECONDS RATE FLOWS
out=${1:-/mnt/out} secs=${2:-3} rate=${3:-1900} flows=${4:-19}
mkdir -p "$out"
st=/sys/class/net/eth0/statistics
. /lab/lib.sh
die() { echo "pair-peer: $*" >&2; echo "$*" >"$out/error"; exit 1; }

echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
pair signal peer-ready || die "the tested guest did not take peer-ready"

# ---- rx: send to the tested guest -----------------------------------------
pair wait rx-go || die "no rx-go from the tested guest"
netcost-gen send -j -q -H 10.0.0.1 -p 9000 -m 10 --flows "$flows" -r "$rate" -l "$secs" \
	>"$out/rx-send.json" 2>"$out/rx-send.err" || echo "pair-peer: the sender failed" >&2
pair signal rx-done || die "the tested guest did not take rx-done"

# ---- tx: receive from the tested guest ------------------------------------
pair wait rx-closed || die "no rx-closed from the tested guest"
rm -f /tmp/sink.ready
sleep 1		# rx-closed's TCP closes
echo "$(cat $st/rx_packets) $(cat $st/tx_packets)" >"$out/tx-nic0"
netcost-gen sink -j -q -p 9001 --ready-file /tmp/sink.ready -l $((secs + 60)) \
	>"$out/tx-sink.json" 2>"$out/tx-sink.err" &
sink=$!
wait_for test -s /tmp/sink.ready || die "the sink did not start: $(cat "$out/tx-sink.err")"
pair signal tx-go || die "the tested guest did not take tx-go"
wait $sink || echo "pair-peer: the sink exited with $?" >&2
pair wait tx-done || die "no tx-done from the tested guest"
sleep 1		# the signal's TCP closes
echo "$(cat $st/rx_packets) $(cat $st/tx_packets)" >"$out/tx-nic1"
pair signal peer-done || die "the tested guest did not take peer-done"
echo "pair-peer: done"
