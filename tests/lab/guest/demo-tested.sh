#!/bin/sh
# demo-tested.sh - (tested guest of a pair, 10.0.0.1) make demo's
# measurements of this box alone; guest/demo-peer.sh is the peer's half,
# tests/lab/demo the host's.  Each WINDOW records SECONDS (this guest's
# clock) of one scenario into OUTDIR/TAG-SCENARIO-SOAK[SUFFIX].json:
#   flows19  the peer sends FLOWS flows of 10-byte payloads, RATE pps in
#            all (real time); this box's sink receives (-S 8 MiB)
#   stream   this box sends 1025-byte UDP at the maximum rate; the peer's
#            sink receives
#   soak     "netcost run" with NETCOST_GEN=/lab/demo-gen.sh (its local
#            half here, the other half on the peer): the soak, the
#            snapshot, the closure; its report in .out
#   nosoak   the same two processes between "netcost reset" and "netcost
#            save --load" (no soak: run always runs one); "netcost show"
#            in .out
#   SUFFIX -threaded: threaded NAPI on eth0 for the window (the setup RT
#            users are told to use): its polls run in a napi/eth0-N thread
# usage: demo-tested.sh OUTDIR TAG SECONDS FLOWS WINDOW...
#   WINDOW: SCENARIO:SOAK:RATE[:SUFFIX], e.g. flows19:soak:4000 stream:nosoak:0
out=${1:?} tag=${2:?} secs=${3:?} flows=${4:?}
shift 4
mkdir -p "$out"
die() { echo "demo-tested: $*" >&2; echo "$*" >>"$out/$tag.error"; exit 1; }
GEN=/lab/demo-gen.sh
# nic - eth0's own counters, for where a flows19 loss happened: on the
# wire (before the NIC: sent - rx_packets - missed), in the NIC's ring
# (rx_missed_errors, rx_fifo_errors), at the socket (the sink's drops)
st=/sys/class/net/eth0/statistics
nic() {
	echo "{\"rx_packets\": $(cat $st/rx_packets), \"rx_missed_errors\": $(cat $st/rx_missed_errors), \"rx_fifo_errors\": $(cat $st/rx_fifo_errors), \"rx_dropped\": $(cat $st/rx_dropped), \"tx_packets\": $(cat $st/tx_packets)}"
}

echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
# the flows19 sink's 8 MiB receive buffer: bursts, not CPU, made the
# loss in a pair (tests/lab/README.md)
echo 8388608 >/proc/sys/net/core/rmem_max
insmod /lib/netcost/netcost.ko || die "insmod failed"
# the soak's calibration, once, while this guest idles (the peer waits)
netcost soak --calibrate -d 1 -q >/dev/null 2>"$out/$tag.calib.err" ||
	die "soak calibration failed: $(tail -2 "$out/$tag.calib.err")"
pair wait peer-ready 300 || die "the peer did not get ready"

for w in "$@"; do
	IFS=: read -r scen soak rate suffix <<-E
	$w
	E
	name=$tag-$scen-$soak$suffix
	case $scen in
	flows19)
		export DEMO_LOAD=rx
		gen="-H 10.0.0.1 -p 9000 -m 10 --flows $flows -r $rate"
		sink="-S 8388608 --idle-timeout 10"
		note="$tag flows19: the peer sends $flows flows of 10-byte payloads, $rate pps in all (its real time); this box receives"
		;;
	stream)
		export DEMO_LOAD=tx
		gen="-H 10.0.0.2 -p 9001 -m 1025 -r 0"
		sink=""
		note="$tag stream: this box sends 1025-byte UDP at the maximum rate; the peer receives"
		;;
	*)
		die "unknown scenario '$scen' in '$w'"
		;;
	esac
	case $suffix in
	"") ;;
	-threaded)
		echo 1 >/sys/class/net/eth0/threaded || die "$name: cannot turn threaded NAPI on for eth0"
		note="$note; threaded NAPI on eth0"
		;;
	*)
		die "SUFFIX is empty or -threaded, not '$suffix' in '$w'"
		;;
	esac
	echo "demo-tested: $name: $secs s, $soak"
	n0=$(nic)
	case $soak in
	soak)
		NETCOST_GEN=$GEN netcost run --gen "$gen" --sink "$sink" -d "$secs" \
			--note "$note; netcost soak running" -o "$out/$name.json" \
			>"$out/$name.out" 2>"$out/$name.err" ||
			die "$name: netcost run failed: $(tail -3 "$out/$name.err")"
		;;
	nosoak)
		# what netcost run starts, in its order, without the soak
		netcost reset || die "netcost reset failed"
		rm -f /tmp/demo.ready
		# shellcheck disable=SC2086
		$GEN sink $(case $scen in flows19) echo "-p 9000 --flows $flows" ;; *) echo "-p 9001" ;; esac) \
			$sink -j -q --ready-file /tmp/demo.ready >"$out/$name.sink.json" 2>"$out/$name.err" &
		pid=$!
		n=600
		while [ ! -s /tmp/demo.ready ]; do
			n=$((n - 1)); [ $n -gt 0 ] || die "$name: the sink did not get ready: $(cat "$out/$name.err")"
			sleep 0.1
		done
		# shellcheck disable=SC2086
		$GEN send $gen -l "$secs" -j -q >"$out/$name.send.json" 2>>"$out/$name.err" ||
			die "$name: the sender failed: $(tail -3 "$out/$name.err")"
		wait $pid || die "$name: the sink failed: $(tail -3 "$out/$name.err")"
		netcost save "$out/$name.json" --note "$note; no soak" \
			--load "{\"tool\": \"netcost reset; load; netcost save\", \"duration_s\": $secs, \"gen_args\": \"$gen\", \"sender\": $(cat "$out/$name.send.json"), \"sink\": $(cat "$out/$name.sink.json")}" ||
			die "$name: netcost save failed"
		netcost show "$out/$name.json" >"$out/$name.out" 2>>"$out/$name.err"
		;;
	*)
		die "SOAK is soak or nosoak, not '$soak' in '$w'"
		;;
	esac
	echo "{\"before\": $n0, \"after\": $(nic)}" >"$out/$name.nic.json"
	[ "$suffix" = -threaded ] && echo 0 >/sys/class/net/eth0/threaded
	# the closure's headline, for the console (netcost's "total:" line
	# divides by received packets: wrong for a sender, see tests/lab/demo)
	grep -E '^unexplained:' "$out/$name.out"
done
rmmod netcost
echo "demo-tested: done"
