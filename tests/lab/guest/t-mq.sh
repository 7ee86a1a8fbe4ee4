#!/bin/sh
# t-mq.sh - (guest) a multiqueue NIC (issue 19, item 6): every queue's
# IRQ is a NIC IRQ, and netcost's per-NAPI-instance figures against the
# kernel's own count of the same polls.
#
# Meant for a --queues boot (tests/lab/run --queues 2: vmxnet3, one NAPI
# instance, MSI-X vector and tx/rx queue pair per CPU).  qemu's vmxnet3
# receives on queue 0 only (no RSS), so eth1's packets all come in on its
# queue 0; eth0's transmit queues are chosen by the sending CPU (XPS, set
# here: CPU i sends on tx-i), so that the load's two sending threads,
# one per CPU, each complete their packets on their own queue's vector
# and NAPI instance.
#
# The window, sandwiched as t-nic's count is: the hist trigger on
# napi:napi_poll (per napi_struct and device: polls and work) is read
# before and after netcost's reset and before and after its dump, so
# that for every instance: polls between the inner reads <= netcost's <=
# polls between the outer reads, and the same for packets.
# OUTDIR/, for W in softirq and threaded (a second window with threaded
# NAPI): hist.W.{outer0,inner0,inner1,outer1} (the trigger's readings),
# irq.W.* (/proc/interrupts, read with them), W.json (netcost dump -j);
# threads (each NAPI thread's pid and comm), queues.  The host's
# check-mq compares them.
out=${1:-/mnt/out/mq}
mkdir -p "$out"
. /lab/lib.sh

T=/sys/kernel/tracing
[ -e $T/trace_clock ] || mount -t tracefs nodev $T 2> /dev/null
nq=$(find /sys/class/net/eth0/queues -maxdepth 1 -name 'rx-*' 2> /dev/null | wc -l)
echo "$nq" > "$out/queues"
if [ "$nq" -ge 2 ]; then ok "mq: eth0 has $nq rx queues"; else
	not_ok "mq: eth0 has $nq rx queues (a --queues boot has 2 or more)"
	exit 1
fi
nv=$(grep -c 'eth0-rxtx-' /proc/interrupts)
is "mq: eth0 has a vector per queue pair" "$nv" "$nq"
# CPU i transmits on tx-i
i=0
while [ $i -lt "$nq" ] && [ $i -lt "$(nproc)" ]; do
	printf '%x\n' $((1 << i)) > /sys/class/net/eth0/queues/tx-$i/xps_cpus
	i=$((i + 1))
done

if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "mq: insmod netcost.ko"; else
	not_ok "mq: insmod netcost.ko"; exit 1
fi
TRIG=$T/events/napi/napi_poll/trigger
echo 'hist:keys=napi,dev_name:vals=hitcount,work:sort=napi' > $TRIG ||
	{ not_ok "mq: hist trigger on napi:napi_poll"; exit 1; }

# load TAG - two sending threads, one per CPU, through eth0; the readings
# around netcost's reset and dump
load() {
	rm -f /tmp/sink.ready
	in-ns netcost-gen sink -q -p 9000 --ready-file /tmp/sink.ready -l 20 \
		> "$out/sink.$1" 2>&1 &
	_sink=$!
	_n=50
	while [ ! -s /tmp/sink.ready ] && [ $_n -gt 0 ]; do sleep 0.1; _n=$((_n - 1)); done
	[ -s /tmp/sink.ready ] || { diag "netcost-gen sink did not start"; kill $_sink; return 1; }
	cat $T/events/napi/napi_poll/hist > "$out/hist.$1.outer0"
	cat /proc/interrupts > "$out/irq.$1.outer0"
	netcost reset
	cat /proc/interrupts > "$out/irq.$1.inner0"
	cat $T/events/napi/napi_poll/hist > "$out/hist.$1.inner0"
	netcost-gen send -q -H 10.0.0.2 -p 9000 -T 2 --flows 2 -C 0 -r 4000 -l 2 \
		> "$out/send.$1" 2>&1
	_rc=$?
	kill $_sink 2> /dev/null
	wait $_sink
	sleep 0.3
	cat $T/events/napi/napi_poll/hist > "$out/hist.$1.inner1"
	cat /proc/interrupts > "$out/irq.$1.inner1"
	netcost dump -j > "$out/$1.json"
	cat /proc/interrupts > "$out/irq.$1.outer1"
	cat $T/events/napi/napi_poll/hist > "$out/hist.$1.outer1"
	return $_rc
}
check "mq: the load through $nq queues (softirq NAPI)" load softirq

# the same with threaded NAPI on both NICs: every instance has a thread
for d in /sys/class/net/eth0 "$LAB_NS_SYS/class/net/eth1"; do
	echo 1 > "$d/threaded" || diag "no threaded NAPI on $d"
done
check "mq: the load through $nq queues (threaded NAPI)" load threaded
for p in /proc/[0-9]*; do
	read -r c < "$p/comm" 2> /dev/null
	case $c in napi/*) echo "${p#/proc/} $c" ;; esac
done > "$out/threads"
for d in /sys/class/net/eth0 "$LAB_NS_SYS/class/net/eth1"; do
	echo 0 > "$d/threaded"
done

echo '!hist:keys=napi,dev_name:vals=hitcount,work:sort=napi' > $TRIG
rmmod netcost || not_ok "mq: rmmod netcost"
s=$(dmesg_splats)
if [ -z "$s" ]; then ok "mq: no kernel splat"; else not_ok "mq: kernel splat"; diag "$s"; fi
