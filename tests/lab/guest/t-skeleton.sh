#!/bin/sh
# t-skeleton.sh - the module loads, reports the kernel's preemption model,
# survives UDP between the NICs, and unloads cleanly (issue "kernel lab").
. /lab/lib.sh

KO=/lib/netcost/netcost.ko

check "insmod netcost.ko ($LAB_KERNEL)" insmod $KO

# netcost info -j: preempt_rt and threadirqs must match the kernel
if [ -x /usr/bin/netcost ]; then
	info=$(netcost info -j 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		not_ok "netcost info -j"
		diag "status $rc: $info"
	else
		ok "netcost info -j"
	fi
	got_rt=$(echo "$info" | sed -nE 's/^ *"preempt_rt": *(true|false).*/\1/p' | head -n 1)
	got_ti=$(echo "$info" | sed -nE 's/^ *"threadirqs": *(true|false).*/\1/p' | head -n 1)
	want_rt=false; kernel_is_rt && want_rt=true
	want_ti=false; kernel_threads_irqs && want_ti=true
	is "info: preempt_rt matches the kernel ($(uname -v | cut -d' ' -f2-3))" "$got_rt" "$want_rt"
	is "info: threadirqs matches the kernel (cmdline: $(grep -ow threadirqs /proc/cmdline || echo -))" "$got_ti" "$want_ti"
else
	not_ok "netcost info -j: no /usr/bin/netcost in the image (run make)"
fi

# UDP 10.0.0.1 -> 10.0.0.2 for 5 s: the receiving NIC's interrupts rise
re=$(nic_irq_regex eth1)
before=$(irq_count "$re")
udp_load 5
rc=$?
after=$(irq_count "$re")
if [ $rc -eq 0 ]; then ok "UDP for 5 s ($LAB_NIC)"; else not_ok "UDP for 5 s ($LAB_NIC)"; fi
[ -s /tmp/send.out ] && diag "$(tail -n 3 /tmp/send.out)"
[ -s /tmp/sink.out ] && diag "$(tail -n 3 /tmp/sink.out)"
if [ "$after" -gt "$before" ]; then
	ok "eth1 interrupts rose: $before -> $after"
else
	not_ok "eth1 interrupts rose: $before -> $after"
	diag "lines matching '$re':"
	diag "$(grep -E "$re" /proc/interrupts)"
fi

check "rmmod netcost" rmmod netcost
if lsmod | grep -qw '^netcost'; then not_ok "netcost is gone after rmmod"; else ok "netcost is gone after rmmod"; fi

splats=$(dmesg_splats)
if [ -z "$splats" ]; then
	ok "dmesg: no WARNING/BUG/Oops/scheduling while atomic"
else
	not_ok "dmesg: no WARNING/BUG/Oops/scheduling while atomic"
	diag "$splats"
fi
