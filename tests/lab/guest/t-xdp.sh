#!/bin/sh
# t-xdp.sh - (guest) frames a poll consumes without handing them to the
# stack (rx_frames_consumed): an XDP program on eth0 in driver mode
# (nc-xdp: no compiler in the guest) takes every frame, and netcost's
# count must equal the kernel's own.
#
# Meant for a NIC with native XDP (tests/lab/check runs it in the 6.1
# virtio-net boot).  Three windows of the same paced UDP load from the
# peer namespace into eth0, each sandwiched between a netcost reset and
# the end of its recording:
#   1. no XDP program: every frame goes to the stack, rx_frames_consumed
#      is 0 and rx_packets holds the load;
#   2. "return XDP_ABORTED": every frame is dropped in the poll, and the
#      kernel says so at each one (the xdp:xdp_exception tracepoint,
#      counted by a hist trigger): rx_frames_consumed = that count,
#      exactly, above 0;
#   3. "return XDP_PASS": the program runs but hands every frame on:
#      rx_frames_consumed is 0 again.
# The peer's neighbour entry for eth0 is permanent: a learnt one ages,
# and its unicast ARP probes, which XDP_ABORTED drops unanswered, come on
# their own timers.  Until 0.13.0 the warm-up's ARP made it, and CI at
# 0.13.0 counted 302 xdp_exception events for 300 datagrams and 301
# consumed frames: a probe had landed on a window's edge, its exception
# inside the window and its poll's end after the recording stopped.
out=${1:-/mnt/out/xdp}
n=${2:-300}
mkdir -p "$out"
. /lab/lib.sh

T=/sys/kernel/tracing
[ -e $T/trace_clock ] || mount -t tracefs nodev $T 2> /dev/null
TRIG=$T/events/xdp/xdp_exception/trigger
HQ='hist:keys=ifindex:vals=hitcount'
if ! command -v nc-xdp > /dev/null; then
	not_ok "xdp: nc-xdp is not in the image"
	exit 1
fi
if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "xdp: insmod netcost.ko"; else
	not_ok "xdp: insmod netcost.ko"; exit 1
fi

rm -f /tmp/xsink.ready
netcost-gen sink -q -p 9400 --ready-file /tmp/xsink.ready -l 120 --idle-timeout 60 \
	> "$out/sink.out" 2>&1 &
sink=$!
wait_for test -s /tmp/xsink.ready || not_ok "xdp: the sink did not come up"
# send N - N datagrams from the peer's namespace to eth0
send() {
	in-ns netcost-gen send -H 10.0.0.1 -p 9400 -m 18 -r 1000 -n "$1" -q --report-wait 0 \
		> "$out/send.out" 2>&1
}
in-ns arp -i eth1 -s 10.0.0.1 "$(cat /sys/class/net/eth0/address)" ||
	not_ok "xdp: the peer's permanent neighbour entry for eth0 (arp -s)"
send 20 || not_ok "xdp: the warm-up send failed"
sleep 0.5

# exceptions - the xdp_exception events the trigger counted so far
exceptions() {
	awk '/hitcount:/ { for (i = 1; i < NF; i++) if ($i == "hitcount:") s += $(i + 1) }
		END { print s + 0 }' $T/events/xdp/xdp_exception/hist
}

# window NAME ACTION - one window with ACTION's program (none: no program)
window() {
	if [ "$2" = none ]; then
		nc-xdp eth0 off > /dev/null 2>&1
	elif ! nc-xdp eth0 "$2" > "$out/$1.xdp" 2>&1; then
		not_ok "xdp: $1: nc-xdp eth0 $2: $(cat "$out/$1.xdp")"
		return 1
	fi
	sleep 0.2
	netcost reset || not_ok "xdp: $1: netcost reset"
	e0=$(exceptions)
	send "$n" || not_ok "xdp: $1: the sender failed"
	sleep 0.3
	netcost config set recording off || not_ok "xdp: $1: recording off"
	e1=$(exceptions)
	netcost dump -j > "$out/$1.json" || not_ok "xdp: $1: netcost dump -j"
	netcost config set recording on
	ex=$((e1 - e0))
	con=$(dump_total rx_frames_consumed "$out/$1.json")
	rx=$(dump_total rx_packets "$out/$1.json")
	work=$(json_lines "$out/$1.json" | awk '
		$0 == "\"total\":" { t = 1; next }
		t && $0 == "\"napi_poll_work\":" { w = 1; next }
		w && index($0, "\"packets\":") == 1 { print substr($0, 11); exit }')
	diag "$1 ($2): rx_frames_consumed ${con:-?}, xdp_exception events $ex, rx_packets ${rx:-?}, napi_poll_work's packets ${work:-?}"
}

echo "$HQ" > $TRIG || { not_ok "xdp: a hist trigger on xdp:xdp_exception"; exit 1; }

window none none
is "xdp: no program: rx_frames_consumed is 0" "${con:-}" 0
[ "${rx:-0}" -ge "$n" ] && ok "xdp: no program: rx_packets ${rx} holds the $n datagrams" ||
	not_ok "xdp: no program: rx_packets ${rx:-?}, below the $n datagrams"

if window aborted aborted; then
	is "xdp: XDP_ABORTED: rx_frames_consumed = the kernel's xdp_exception events ($ex)" "${con:-}" "$ex"
	# the datagrams and nothing else: no neighbour probe, no stray frame
	is "xdp: XDP_ABORTED: the kernel dropped the $n datagrams and no other frame" "$ex" "$n"
fi

if window pass pass; then
	is "xdp: XDP_PASS: rx_frames_consumed is 0" "${con:-}" 0
	is "xdp: XDP_PASS: no xdp_exception" "$ex" 0
fi

nc-xdp eth0 off > /dev/null 2>&1 || not_ok "xdp: nc-xdp eth0 off"
echo "!$HQ" >> $TRIG
kill $sink 2> /dev/null
wait $sink 2> /dev/null
rmmod netcost || not_ok "xdp: rmmod netcost"
