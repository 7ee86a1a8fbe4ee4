#!/bin/sh
# t-stages.sh - (guest) run a UDP load across the lab wire and keep the
# kernel's own counters and netcost's, before and after, for the host's
# check-stages to compare.  Then unload under load, and try an
# unprivileged reader.  Prints TAP lines for what it checks itself.
#
#   10.0.0.1 eth0 (root ns: netcost-gen send) ==wire== eth1 10.0.0.2 (ns: sink)
#
# usage: t-stages.sh OUTDIR [SECONDS] [PPS]
out=${1:-/mnt/out}
secs=${2:-5}
rate=${3:-0}
mkdir -p "$out"
. /lab/lib.sh
notok() { not_ok "$@"; }

# The kernel's own counts for check-stages: stages_ref_on/stages_window
# (lib.sh) keep them around netcost's dumps.
stages_ref_on || notok "ftrace kprobe event on irq_forced_thread_fn"

if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "insmod netcost.ko"; else notok "insmod netcost.ko"; exit 1; fi
netcost info -j > "$out/info.json" 2> "$out/info.err" || notok "netcost info"

stages_window "$out" "$secs" "$rate"
if netcost save "$out/snapshot.json" --note "t-stages: ${secs}s of 18-byte UDP at max rate" 2> "$out/save.err"; then
	ok "netcost save after the load"
else
	notok "netcost save: $(head -1 "$out/save.err")"
fi
if [ -s "$out/after.json" ]; then ok "netcost dump -j after $secs s of UDP"; else notok "netcost dump -j"; fi

# A reset that lands inside a STATS dump marks it NLM_F_DUMP_INTR.
if command -v nc-dump-intr > /dev/null; then nc-dump-intr; else notok "nc-dump-intr is not in the image"; fi

# ctx_switch holds only the packet path's switches (into or out of an IRQ
# or NAPI thread, ksoftirqd, a load task), ctx_switch_other the rest
# (0.10.0): 2,000 usleeps of a shell, which is none of those, are about
# 4,000 switches of ctx_switch_other; ctx_switch stays within the IRQ
# threads' and ksoftirqd's switches (the netcost commands' netlink calls
# make no load task since 0.14.0), and the two add up to every switch
# (ctx_switches) within two a CPU (a switch the counter took at
# sched_switch whose end, where the stage records, came after the dump or
# before the reset).
netcost reset
i=0
while [ $i -lt 2000 ]; do usleep 100; i=$((i + 1)); done
netcost dump -j > /tmp/sw.json || notok "netcost dump -j (switches)"
cp /tmp/sw.json "$out/switches.json"
sw=$(dump_total ctx_switch /tmp/sw.json) swo=$(dump_total ctx_switch_other /tmp/sw.json)
all=$(dump_total ctx_switches /tmp/sw.json)
kt=$(($(dump_total ctx_switches_irq_thread /tmp/sw.json) + $(dump_total ctx_switches_ksoftirqd /tmp/sw.json)))
n=$(nproc)
msg="2,000 usleeps: ctx_switch ${sw:-none}, ctx_switch_other ${swo:-none}, ctx_switches ${all:-none} (IRQ threads' and ksoftirqd's $kt)"
if [ -z "$swo" ] || [ "$swo" -lt 3600 ]; then
	notok "$msg: the usleeps' switches are not in ctx_switch_other"
elif [ "${sw:-0}" -gt $((kt + 2 * n)) ]; then
	notok "$msg: ctx_switch holds more than the packet path's switches (+2 a CPU)"
elif [ $((sw + swo)) -lt $((all - 2 * n)) ] || [ $((sw + swo)) -gt $((all + 2 * n)) ]; then
	notok "$msg: the two stages do not add up to ctx_switches"
else
	ok "$msg: apart, and adding up"
fi

# syscall_rx and syscall_tx count calls on inet sockets only (0.14.0,
# issue 21 item 8): 1,000 sendto/recvfrom pairs on a unix socketpair
# are none of theirs, 1,000 on a UDP socket that sends to itself are
# each one event; netcost's own netlink calls (the reset, the dump) are
# none either.  Nothing else in the guest makes socket calls meanwhile.
netcost reset
if ! sc=$(nc-sockcalls unix 1000 2>&1) || ! sc2=$(nc-sockcalls inet 1000 2>&1); then
	notok "nc-sockcalls: $sc $sc2"
else
	netcost dump -j > /tmp/sc.json || notok "netcost dump -j (socket calls)"
	cp /tmp/sc.json "$out/sockcalls.json"
	stx=$(dump_total syscall_tx /tmp/sc.json) srx=$(dump_total syscall_rx /tmp/sc.json)
	msg="1,000 unix and 1,000 inet sendto/recvfrom pairs: syscall_tx ${stx:-none}, syscall_rx ${srx:-none}"
	if [ "${stx:-0}" = 1000 ] && [ "${srx:-0}" = 1000 ]; then
		ok "$msg: the inet calls only"
	else
		notok "$msg, not 1000 and 1000"
	fi
fi

# An unprivileged reader gets EPERM, and the tool says why (exit 4).
su user -c "netcost dump" > "$out/user.out" 2> "$out/user.err"
rc=$?
if [ $rc -eq 4 ] && grep -qi 'permission' "$out/user.err"; then
	ok "unprivileged dump refused: $(head -1 "$out/user.err")"
else
	notok "unprivileged dump: rc=$rc, $(head -1 "$out/user.err")"
fi
su user -c "netcost reset" > /dev/null 2> "$out/user-reset.err"
rc=$?
if [ $rc -eq 4 ]; then ok "unprivileged reset refused"; else notok "unprivileged reset: rc=$rc"; fi

# Unload while packets flow: wait until the NIC is interrupting, then rmmod.
nic_irqs() { awk '/eth[0-9]|virtio[0-9]+-input/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts; }
rm -f /tmp/ready
in-ns netcost-gen sink -p 9001 --idle-timeout 2 -l 30 -q --ready-file /tmp/ready > /dev/null 2>&1 &
sink=$!
wait_for test -s /tmp/ready
netcost-gen send -H 10.0.0.2 -p 9001 -m 18 -l 4 -q --report-wait 0 > /dev/null 2>&1 &
send=$!
base=$(nic_irqs)
wait_for [ "$(nic_irqs)" -gt $((base + 50)) ]
if rmmod netcost; then ok "rmmod under load (NIC irqs $base -> $(nic_irqs))"; else notok "rmmod under load"; fi
wait $send
wait $sink
if lsmod | grep -q '^netcost '; then notok "module still loaded"; fi
if insmod /lib/netcost/netcost.ko && rmmod netcost; then ok "insmod/rmmod again after unload under load"; else notok "reload"; fi
stages_ref_off
dmesg > "$out/dmesg"
if grep -qE 'WARNING|BUG|Oops|scheduling while atomic' "$out/dmesg"; then notok "dmesg clean"; else ok "dmesg clean"; fi
