# lib.sh - TAP helpers for the guest tests (busybox sh).  Sourced by
# every /lab/t-*.sh.  Each test prints "ok - DESC" or "not ok - DESC"
# lines (no numbers: the host numbers them over all files and boots) and
# "# ..." diagnostics.  A test file exits 0 even when checks fail; the
# host reads the lines, not the status.

LAB_NS_SYS=/run/ns/sys		# sysfs as the peer namespace (eth1) sees it

ok()      { echo "ok - $*"; }
not_ok()  { echo "not ok - $*"; }
skip()    { echo "ok - $* # SKIP"; }
diag()    { echo "$*" | sed '/^$/d; s/^/# /'; }

# check DESC CMD... - run CMD; ok if it succeeds, else not ok and its output
check() {
	_desc=$1; shift
	if _out=$("$@" 2>&1); then
		ok "$_desc"
	else
		not_ok "$_desc"
		diag "\$ $*"
		[ -n "$_out" ] && diag "$_out"
	fi
	return 0
}

# fts_sym - finish_task_switch()'s name in /proc/kallsyms (the compiler
# may have suffixed it: finish_task_switch.isra.0); empty when missing
fts_sym() {
	awk '$3 ~ /^finish_task_switch(\.[a-z]+\.[0-9]+)*$/ && $4 == "" { print $3; exit }' /proc/kallsyms
}

# trace_keep DIR / trace_restore DIR - keep the top tracefs instance's
# trace clock and buffer size (DIR: /sys/kernel/tracing) before a test
# sets its own, and put them back at its end (one kept pair at a time).
# buffer_size_kb reads "7 (expanded: 1408)" until a tracer first used
# the buffer.
trace_keep() {
	_tk_clock=$(sed 's/.*\[\(.*\)\].*/\1/' "$1/trace_clock")
	_tk_kb=$(sed 's/.*expanded: *\([0-9]*\).*/\1/; s/ .*//' "$1/buffer_size_kb")
}
trace_restore() {
	echo "$_tk_clock" > "$1/trace_clock"
	echo "$_tk_kb" > "$1/buffer_size_kb"
}

# guest_ko NAME - the path of module NAME in the lab image (empty if the
# image lacks it: tests/lab/setup's GUEST_MODULES)
guest_ko() {
	_gk=$(sed -n "s#^\\(\\([^:]*/\\)\\{0,1\\}$1\\.ko[.a-z]*\\):.*#\\1#p" "/lib/modules/$(uname -r)/modules.dep" | head -1)
	[ -n "$_gk" ] && echo "/lib/modules/$(uname -r)/$_gk"
}

# hardirq_max_start / hardirq_max_read - the longest device interrupt
# between the two, in ns of the trace clock: from __common_interrupt()'s
# entry to its return (kprobe events; everything a device IRQ runs,
# every tracepoint probe on its way included), per CPU by a hist
# trigger's onmax().  ftrace's own figure, sharing nothing with netcost.
# hardirq_max_read prints the largest over CPUs (empty: no interrupt)
# and removes the events again.
# (the triggers once, to add and to remove them by the same text)
_HM_IN='hist:keys=common_cpu:ts0=common_timestamp'
_HM_OUT='hist:keys=common_cpu:lat=common_timestamp-$ts0:onmax($lat).save(common_pid)'
hardirq_max_start() {
	_T=/sys/kernel/tracing
	echo 'p:nc_hirq_in __common_interrupt' >> $_T/kprobe_events &&
	echo 'r:nc_hirq_out __common_interrupt' >> $_T/kprobe_events &&
	echo "$_HM_IN" > $_T/events/kprobes/nc_hirq_in/trigger &&
	echo "$_HM_OUT" > $_T/events/kprobes/nc_hirq_out/trigger &&
	echo 1 > $_T/events/kprobes/nc_hirq_in/enable &&
	echo 1 > $_T/events/kprobes/nc_hirq_out/enable
}
hardirq_max_read() {
	_T=/sys/kernel/tracing
	echo 0 > $_T/events/kprobes/nc_hirq_in/enable
	echo 0 > $_T/events/kprobes/nc_hirq_out/enable
	awk '$1 == "max:" && $2 + 0 > m { m = $2 + 0 } END { if (m) print m }' \
		$_T/events/kprobes/nc_hirq_out/hist
	echo "!$_HM_OUT" > $_T/events/kprobes/nc_hirq_out/trigger
	echo "!$_HM_IN" > $_T/events/kprobes/nc_hirq_in/trigger
	echo '-:nc_hirq_out' >> $_T/kprobe_events
	echo '-:nc_hirq_in' >> $_T/kprobe_events
}

# wait_for CMD... - poll until CMD succeeds, at most ~10 s
wait_for() {
	_wf=0
	until "$@"; do
		_wf=$((_wf + 1))
		[ $_wf -gt 100 ] && return 1
		sleep 0.1
	done
}

# is DESC GOT WANT - ok if the two strings are equal
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got '$2', want '$3'"
	fi
}

# The JSON dump is one 300 kB document: a regex over it as one line
# (sed 's/.*"total":.*"X":.../') backtracks for tens of seconds in
# busybox sed under TCG.  These split it at braces and commas and read
# it with awk, in one pass.
# json_lines [FILE] - FILE (default: a fresh "netcost dump -j"), one
# key per line
json_lines() {
	if [ -n "$1" ]; then cat "$1"; else netcost dump -j 2>/dev/null; fi |
		tr -d ' \n' | tr '{,' '\n\n'
}

# dump_total NAME [FILE] - NAME's total over all CPUs in a JSON dump: a
# stage's count or a counter's value (empty when it is not there; the
# closing braces after an object's last key are not part of it)
dump_total() {
	json_lines "$2" | awk -v k="\"$1\":" '
		$0 == "\"total\":" { t = 1; next }
		t && $0 == k { getline; sub(/^"count":/, ""); sub(/[]}]+$/, ""); print; exit }
		t && index($0, k) == 1 { v = substr($0, length(k) + 1); sub(/[]}]+$/, "", v); print v; exit }'
}

# dump_cpu_count CPU STAGE [FILE] - STAGE's count on CPU in a JSON dump
dump_cpu_count() {
	json_lines "$3" | awk -v c="\"cpu\":$1" -v k="\"$2\":" '
		$0 == "\"total\":" { exit }
		index($0, "\"cpu\":") == 1 { in_cpu = ($0 == c); next }
		in_cpu && $0 == k { getline; sub(/^"count":/, ""); print; exit }'
}

# info_key KEY - a number from "netcost info -j" (empty when absent)
info_key() {
	netcost info -j -i 0 2>/dev/null | tr -d ' \n' | tr '{,' '\n\n' |
		sed -n "s/^\"$1\"://p" | head -1
}

# kernel_is_rt - the running kernel is PREEMPT_RT
kernel_is_rt() {
	uname -v | grep -q PREEMPT_RT && return 0
	[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ]
}

# kernel_threads_irqs - interrupt handlers run in threads (RT, or threadirqs)
kernel_threads_irqs() {
	kernel_is_rt || grep -qw threadirqs /proc/cmdline
}

# nic_irq_regex IFACE - regex for IFACE's lines in /proc/interrupts.
# e1000 names its IRQ after the interface; vmxnet3 after it and its
# queue (eth0-rxtx-0, eth0-event-2); virtio-net after the virtio device
# (virtioN-input.0, virtioN-output.0, or plain virtioN for INTx).
# IFACE may live in the peer namespace: its sysfs is at $LAB_NS_SYS.
nic_irq_regex() {
	for _sys in /sys "$LAB_NS_SYS"; do
		[ -e "$_sys/class/net/$1/device" ] || continue
		_drv=$(basename "$(readlink "$_sys/class/net/$1/device/driver")")
		case $_drv in
		virtio_net)
			_dev=$(basename "$(readlink "$_sys/class/net/$1/device")")
			echo "[ ,]$_dev(-(input|output)\.[0-9]+)?(,|\$)"
			return 0 ;;
		vmxnet3)
			echo "[ ,]$1-[a-z]+-[0-9]+(,|\$)"
			return 0 ;;
		*)
			echo "[ ,]$1(,|\$)"
			return 0 ;;
		esac
	done
	return 1
}

# irq_count REGEX - interrupts so far, all CPUs, of the matching lines
irq_count() {
	awk -v re="$1" 'NR == 1 { n = NF; next }
		$0 ~ re { for (i = 2; i <= n + 1; i++) s += $i }
		END { print s + 0 }' /proc/interrupts
}

# pin_irqs IFACE CPU WHAT / unpin_irqs - IFACE's interrupts (and their
# IRQ threads) on CPU, each one's affinity kept; and back.  One pinning
# at a time; a refused pin is not ok, named by WHAT.
pin_irqs() {
	_pin=$(awk -v re="$(nic_irq_regex "$1")" 'NR > 1 && $0 ~ re { sub(/:$/, "", $1); print $1 }' /proc/interrupts)
	for _i in $_pin; do
		cat /proc/irq/$_i/smp_affinity_list > /tmp/aff.$_i
		echo "$2" > /proc/irq/$_i/smp_affinity_list || not_ok "$3: cannot pin IRQ $_i to CPU $2"
	done
}
unpin_irqs() { for _i in $_pin; do cat /tmp/aff.$_i > /proc/irq/$_i/smp_affinity_list; done; }

# nics_re - the /proc/interrupts regex of eth0's and eth1's IRQ lines
nics_re() { echo "($(nic_irq_regex eth0))|($(nic_irq_regex eth1))"; }

# busy_poll_rx - TcpExt BusyPollRxPackets of the root netns (eth0's): the
# packets busy-polling receives took from the NIC (t-busy, t-threads)
busy_poll_rx() {
	awk '$1 == "TcpExt:" { if (!h) { for (i = 2; i <= NF; i++) if ($i == "BusyPollRxPackets") c = i; h = 1 }
		else if (c) print $c }' /proc/net/netstat
}

# defer_irqs DEV - DEV defers its interrupts after a poll, the setup busy
# polling is used with (napi_defer_hard_irqs T_BUSY_DEFER, default 100,
# and gro_flush_timeout T_BUSY_GFT, default 2 ms): packets then wait for
# a poll, which a spinning receiver does.  On PREEMPT_RT the NIC's IRQ
# thread preempts the receiver and polls anyway, and the deferral leaves
# the polls to its timer (--icount, 6.12-rt: 8 of 400 packets from the
# loops with it, 84 without): not deferred there.  undefer_irqs DEV sets
# both back.  A kernel without the files is left as it is.
defer_irqs() {
	_defer=${T_BUSY_DEFER:-100}
	kernel_is_rt && _defer=${T_BUSY_DEFER:-0}
	_old_defer=$(cat "/sys/class/net/$1/napi_defer_hard_irqs" 2> /dev/null)
	_old_gft=$(cat "/sys/class/net/$1/gro_flush_timeout" 2> /dev/null)
	[ -n "$_old_defer" ] && [ -n "$_old_gft" ] || return 0
	echo "$_defer" > "/sys/class/net/$1/napi_defer_hard_irqs" &&
		echo "${T_BUSY_GFT:-2000000}" > "/sys/class/net/$1/gro_flush_timeout" ||
		not_ok "cannot set $1's napi_defer_hard_irqs and gro_flush_timeout"
}
undefer_irqs() {
	[ -n "$_old_defer" ] && [ -n "$_old_gft" ] || return 0
	echo "$_old_defer" > "/sys/class/net/$1/napi_defer_hard_irqs"
	echo "$_old_gft" > "/sys/class/net/$1/gro_flush_timeout"
}

# net_rx - NET_RX softirqs so far, all CPUs (/proc/softirqs)
net_rx() { awk '$1 == "NET_RX:" { for (i = 2; i <= NF; i++) s += $i } END { print s + 0 }' /proc/softirqs; }

# dmesg_splats - kernel log lines that mean a bug
dmesg_splats() {
	dmesg | grep -E 'WARNING:|(^|[^A-Za-z_])BUG[: ]|Oops|scheduling while atomic|general protection fault|list_(add|del) corruption|refcount_t:|soft lockup|Poison overwritten|Redzone overwritten'
}

# udp_load SECONDS - UDP from 10.0.0.1 (root ns) to 10.0.0.2 (peer ns)
# for SECONDS: netcost-gen when the image has it, else busybox nc
udp_load() {
	if [ -x /usr/bin/netcost-gen ]; then
		rm -f /tmp/sink.ready
		in-ns netcost-gen sink -q -p 9000 --ready-file /tmp/sink.ready \
			-l $(($1 + 10)) >/tmp/sink.out 2>&1 &
		_sink=$!
		_n=50
		while [ ! -s /tmp/sink.ready ] && [ $_n -gt 0 ]; do sleep 0.1; _n=$((_n - 1)); done
		[ -s /tmp/sink.ready ] || { diag "netcost-gen sink did not start"; kill $_sink; return 1; }
		netcost-gen send -q -H 10.0.0.2 -p 9000 -l "$1" >/tmp/send.out 2>&1
		_rc=$?
		wait $_sink
		return $_rc
	fi
	diag "no netcost-gen: busybox nc"
	in-ns nc -u -l -p 9000 >/dev/null 2>&1 &
	_sink=$!
	sleep 0.2
	timeout "$1" sh -c 'yes 0123456789012345678901234567890123456789 | nc -u 10.0.0.2 9000' >/dev/null 2>&1
	kill $_sink 2>/dev/null
	wait $_sink 2>/dev/null
	return 0
}

# netdev FILE - both namespaces' /proc/net/dev (the root's, then the
# peer's): the devices' own received-packet counts, for check-stages and
# check-run
netdev() { { cat /proc/net/dev; in-ns cat /proc/net/dev; } > "$1"; }

# stages_ref_on / stages_ref_off - the kernel's own count of
# threaded-handler runs, for irq_thread: an ftrace kprobe event on
# irq_forced_thread_fn() with a per-CPU hist trigger (tracefs, not
# netcost).  stages_ref_on fails when it cannot be set.
stages_ref_on() {
	[ -e /sys/kernel/tracing/kprobe_events ] || mount -t tracefs nodev /sys/kernel/tracing
	echo 'p:nc_ref_thr irq_forced_thread_fn' >> /sys/kernel/tracing/kprobe_events &&
		echo 'hist:keys=common_cpu,common_pid.execname' > \
			/sys/kernel/tracing/events/kprobes/nc_ref_thr/trigger
}
stages_ref_off() {
	echo '!hist:keys=common_cpu,common_pid.execname' > \
		/sys/kernel/tracing/events/kprobes/nc_ref_thr/trigger
	echo '-:nc_ref_thr' >> /sys/kernel/tracing/kprobe_events
}

# stages_snap OUT WHEN - netcost's counters (OUT/WHEN.json), sandwiched
# between two reads of the kernel's own: whatever lands inside the dump
# shows in the difference of the two /proc reads, which bounds the
# comparison on the host (check-stages).
stages_snap() {
	cat /proc/interrupts > "$1/interrupts.$2.0"
	cat /proc/softirqs > "$1/softirqs.$2.0"
	cat /sys/kernel/tracing/events/kprobes/nc_ref_thr/hist > "$1/threads.$2.0" 2> /dev/null
	netdev "$1/netdev.$2.0"
	netcost dump -j > "$1/$2.json"
	netdev "$1/netdev.$2.1"
	cat /proc/interrupts > "$1/interrupts.$2.1"
	cat /proc/softirqs > "$1/softirqs.$2.1"
	cat /sys/kernel/tracing/events/kprobes/nc_ref_thr/hist > "$1/threads.$2.1" 2> /dev/null
	in-ns cat /proc/net/snmp > "$1/snmp.$2"
}

# stages_window OUT SECONDS RATE - check-stages' window: a sink in the
# peer namespace, netcost's reset, stages_snap before, SECONDS of 18-byte
# UDP at RATE packets/s (0: as fast as it goes) from 10.0.0.1, the
# sink's end, stages_snap after.  OUT gets sink.json, send.json and the
# snapshots; "not ok" when the sink does not come up.
stages_window() {
	rm -f /tmp/ready
	in-ns netcost-gen sink -p 9000 --idle-timeout 2 -l $(($2 + 30)) -j -q \
		--ready-file /tmp/ready > "$1/sink.json" 2> "$1/sink.err" &
	_sw_sink=$!
	wait_for test -s /tmp/ready || not_ok "sink did not come up"
	netcost reset
	stages_snap "$1" before
	netcost-gen send -H 10.0.0.2 -p 9000 -m 18 -l "$2" -r "$3" -j -q \
		--report-wait 0 > "$1/send.json" 2> "$1/send.err"
	wait $_sw_sink
	stages_snap "$1" after
}
