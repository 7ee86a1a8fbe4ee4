#!/bin/sh
# pair-tested.sh - (tested guest of a pair, 10.0.0.1) the pair runner's
# test, both directions; guest/pair-peer.sh is the peer's half and
# tests/lab/pair-check the host's.  Run with netcost loaded here:
#   rx: the peer sends FLOWS flows of 10-byte payloads at RATE pps for
#       SECONDS; this guest's sink receives; netcost's rx_packets here
#   tx: this guest sends 1025-byte UDP at the maximum rate for SECONDS;
#       the peer's sink receives; netcost's tx_packets here
# Each direction leaves: the snapshot, the sender's and the sink's JSON,
# and eth0's own packet counters around the recorded interval.
# usage: pair-tested.sh OUTDIR SECONDS RATE FLOWS
out=${1:-/mnt/out} secs=${2:-3} rate=${3:-1900} flows=${4:-19}
mkdir -p "$out"
. /lab/lib.sh
st=/sys/class/net/eth0/statistics
die() { echo "pair-tested: $*" >&2; echo "$*" >"$out/error"; exit 1; }
# settle - let the last signal's TCP close (its last ACK and FIN) before
# the NIC's counters and netcost's are read side by side
settle() { sleep 1; }
# nics - eth0's rx and tx packets; read before and after each netcost
# reset and save, so that a late packet widens the range, never fails it
nics() { echo "$(cat $st/rx_packets) $(cat $st/tx_packets)"; }

# no IPv6 chatter (DAD, router solicitations) on the wire while it counts
echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
insmod /lib/netcost/netcost.ko || die "insmod failed"

# ---- rx: the peer sends, this guest receives -----------------------------
rm -f /tmp/sink.ready
netcost-gen sink -j -q -p 9000 --ready-file /tmp/sink.ready -l $((secs + 60)) \
	>"$out/rx-sink.json" 2>"$out/rx-sink.err" &
sink=$!
wait_for test -s /tmp/sink.ready || die "the sink did not start: $(cat "$out/rx-sink.err")"
pair wait peer-ready || die "the peer did not get ready"
settle
nics >"$out/rx-nic0"
netcost reset || die "netcost reset failed"
nics >>"$out/rx-nic0"
pair signal rx-go || die "the peer did not take rx-go"
wait $sink || echo "pair-tested: the sink exited with $?" >&2
# the sender's last FINs and its "rx-done" land in the interval too
pair wait rx-done || die "no rx-done from the peer"
settle
nics >"$out/rx-nic1"
netcost save "$out/rx.json" --note "pair rx: $flows flows, $rate pps, ${secs}s" ||
	die "netcost save failed"
nics >>"$out/rx-nic1"
# the peer's next signal (tx-go) would land in the reads above
pair signal rx-closed || die "the peer did not take rx-closed"

# ---- tx: this guest sends, the peer receives -----------------------------
pair wait tx-go || die "no tx-go from the peer (its sink)"
settle
nics >"$out/tx-nic0"
netcost reset || die "netcost reset failed"
nics >>"$out/tx-nic0"
netcost-gen send -j -q -H 10.0.0.2 -p 9001 -m 1025 -r 0 -l "$secs" \
	>"$out/tx-send.json" 2>"$out/tx-send.err" || echo "pair-tested: the sender failed" >&2
nics >"$out/tx-nic1"
netcost save "$out/tx.json" --note "pair tx: 1025-byte UDP at max rate, ${secs}s" ||
	die "netcost save failed"
nics >>"$out/tx-nic1"
pair signal tx-done || die "the peer did not take tx-done"
# the peer reads its counters after tx-done: this guest's end would stop it
pair wait peer-done || die "no peer-done from the peer"
rmmod netcost
echo "pair-tested: done"
