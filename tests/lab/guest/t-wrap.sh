#!/bin/sh
# t-wrap.sh - (guest) a bucket is a u32 that counts on in its wrap count:
# with the test-only module parameter test_bucket_bias=40, every bucket
# starts 40 events short of going round, so that a 2 s UDP load makes
# the busy buckets wrap.  The counts must still match the kernel's own:
# hardirq against the NIC lines of /proc/interrupts, softirq_net_rx
# against NET_RX of /proc/softirqs (each netcost read sandwiched between
# two reads of /proc), and some per-CPU bucket must have passed 40.
. /lab/lib.sh
BIAS=40
insmod /lib/netcost/netcost.ko || { not_ok "insmod"; exit 0; }
re=$(nics_re)

echo $BIAS >/sys/module/netcost/parameters/test_bucket_bias ||
	{ not_ok "set test_bucket_bias"; rmmod netcost; exit 0; }
i0=$(irq_count "$re"); s0=$(net_rx)
netcost reset
i1=$(irq_count "$re"); s1=$(net_rx)
udp_load 2 || diag "udp_load failed"
sleep 0.3
i2=$(irq_count "$re"); s2=$(net_rx)
netcost dump -j >/tmp/wrap.json 2>/tmp/wrap.err || { not_ok "netcost dump -j"; diag "$(cat /tmp/wrap.err)"; }
i3=$(irq_count "$re"); s3=$(net_rx)
echo 0 >/sys/module/netcost/parameters/test_bucket_bias

# within [what /proc counted inside the window, what it counted around it]
within() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && [ "$2" -gt 0 ]; then
		ok "$1 $2 within /proc's [$3, $4] with wrapping buckets"
	else
		not_ok "$1 '$2' within /proc's [$3, $4] with wrapping buckets"
	fi
}
within hardirq "$(dump_total hardirq /tmp/wrap.json)" $((i2 - i1)) $((i3 - i0))
within softirq_net_rx "$(dump_total softirq_net_rx /tmp/wrap.json)" $((s2 - s1)) $((s3 - s0))
# the largest count of one bucket on one CPU (a bucket's "count" comes
# right after its "hi"; the per-CPU part ends at the totals)
big=$(json_lines /tmp/wrap.json | awk '
	$0 == "\"total\":" { exit }
	/^"count":/ && prev ~ /^"hi":/ { v = $0; sub(/^"count":/, "", v); v += 0; if (v > m) m = v }
	{ prev = $0 }
	END { print m + 0 }')
[ "$big" -gt $BIAS ] && ok "a bucket went round: $big events in one bucket of one CPU (> $BIAS)" ||
	not_ok "no bucket passed $BIAS events ($big): the load was too small to test wrapping"
netcost reset
rmmod netcost || not_ok "rmmod netcost"
s=$(dmesg_splats)
[ -z "$s" ] && ok "no kernel splat" || { not_ok "kernel splat"; diag "$s"; }
