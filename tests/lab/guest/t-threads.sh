#!/bin/sh
# t-threads.sh - (guest) netcost's cycles for the runs of the packet-only
# kernel threads against the threads' own runtime, which shares none of
# netcost's definitions: /proc/<pid>/schedstat field 1 (ns on CPU, the
# scheduler's sum_exec_runtime).  The host's check-threads compares;
# this script keeps the figures in OUTDIR.
#
# Two windows of the same paced UDP load into eth0 (the sink in the root
# netns, the sender in the peer's):
#   softirq/   eth0 with NAPI in the NET_RX softirq (threaded = 0): the
#              NIC IRQ threads, where interrupts are threaded (RT or
#              threadirqs), against irq_thread;
#   threaded/  eth0 with threaded NAPI (threaded = 1): its napi/eth0-N
#              thread against napi_thread (and the IRQ threads again).
# Each window is exact for the threads: the sender stops and the threads
# fall asleep before their runtime is read, on both sides of the netcost
# reset and of the end of recording.  eth0's threaded setting is set back
# afterwards.
#
# usage: t-threads.sh OUTDIR [SECONDS]
out=${1:-/mnt/out}
secs=${2:-1}
rate=${T_THREADS_RATE:-2000}
mkdir -p "$out"
. /lab/lib.sh
notok() { not_ok "$@"; }

if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "insmod netcost.ko"; else notok "insmod netcost.ko"; exit 1; fi

TH=/sys/class/net/eth0/threaded
if [ ! -w $TH ]; then
	skip "t-threads: this kernel has no threaded NAPI ($TH)"
	rmmod netcost
	exit 0
fi
old_threaded=$(cat $TH)

# the NIC IRQs' numbers, from /proc/interrupts
nic_irqs=$(awk -v re="$(nics_re)" 'NR > 1 && $0 ~ re { sub(/:$/, "", $1); print $1 }' /proc/interrupts)
# threads - "pid comm" of the NIC IRQ threads and the NAPI threads
threads() {
	for p in /proc/[0-9]*; do
		read -r comm < "$p/comm" 2> /dev/null || continue
		case $comm in
		napi/*) echo "${p#/proc/} $comm" ;;
		irq/*)
			n=${comm#irq/}; n=${n%%-*}
			for i in $nic_irqs; do
				[ "$i" = "$n" ] && echo "${p#/proc/} $comm"
			done ;;
		esac
	done
}
# runtime FILE - "pid comm runtime_ns switches run_delay_ns" of every
# such thread (schedstat fields 1, 3 and 2)
runtime() {
	: > "$1"
	threads | while read -r pid comm; do
		read -r run delay n < "/proc/$pid/schedstat" || continue
		echo "$pid $comm $run $n $delay" >> "$1"
	done
}

rm -f /tmp/tready
netcost-gen sink -p 9200 -l 120 --idle-timeout 60 -q --ready-file /tmp/tready \
	> "$out/sink.out" 2>&1 &
sink=$!
wait_for test -s /tmp/tready || notok "sink did not come up"

# window NAME THREADED - one window into $out/NAME
window() {
	d=/tmp/t.$1
	mkdir -p $d "$out/$1"
	echo "$2" > $TH || { notok "$1: cannot set $TH to $2"; return; }
	# warm up (ARP, the thread's first run), then let everything settle
	in-ns netcost-gen send -H 10.0.0.1 -p 9200 -m 18 -r 200 -n 20 -q --report-wait 0 > /dev/null 2>&1
	sleep 0.5
	runtime $d/before.0
	netcost reset || notok "$1: netcost reset"
	runtime $d/before.1
	in-ns netcost-gen send -H 10.0.0.1 -p 9200 -m 18 -r "$rate" -b 1 -l "$secs" -q --report-wait 0 \
		> "$out/$1/send.out" 2>&1 || notok "$1: the sender failed"
	sleep 0.3
	runtime $d/after.0
	netcost config set recording off || notok "$1: recording off"
	runtime $d/after.1
	netcost dump -j > $d/after.json || notok "$1: netcost dump -j"
	netcost info -j > $d/info.json || notok "$1: netcost info -j"
	netcost config set recording on
	cp $d/* "$out/$1/"
	diag "$1 (threaded=$2): $(awk '{ printf "%s ", $2 }' $d/after.1)"
	ok "$1: a ${secs}s window of ${rate} pps, threaded=$2"
}

echo "${LAB_ICOUNT:-0}" > "$out/icount"
window softirq 0
window threaded 1
echo "$old_threaded" > $TH || notok "cannot set $TH back to $old_threaded"
kill $sink 2> /dev/null
wait $sink 2> /dev/null
rmmod netcost || notok "rmmod netcost"
