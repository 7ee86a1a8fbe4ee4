#!/bin/sh
# t-reliability.sh - (guest) the module survives its users (issue 10):
# unload under fire, hostile netlink, permissions and namespaces, CPU
# hotplug, concurrent dumpers and resets, CONFIG rollback by fault
# injection, no probe misses.  The runner (tests/lab/run) fails the
# boot on any WARNING/BUG/Oops/RCU stall/soft lockup/slub report, with
# page_poison=1 on the command line.
#
# Sizes: make check runs a subset; REL_FULL=1 (make reliability) the
# issue's figures.  REL_CYCLES, REL_FUZZ, REL_HOTPLUG, REL_DUMP_SECS,
# REL_FLAPS, REL_VETHS and REL_SEED override each.  "# figure: KEY VALUE" lines are collected by
# tests/reliability/run into Documentation/reliability.md.
. /lab/lib.sh

OUT=${1:-/tmp/t-reliability}
mkdir -p "$OUT"
KO=/lib/netcost/netcost.ko
if [ "${REL_FULL:-0}" = 1 ]; then
	CYCLES=${REL_CYCLES:-100} FUZZ=${REL_FUZZ:-10000} HOTPLUG=${REL_HOTPLUG:-20} DUMPSECS=${REL_DUMP_SECS:-20}
	FLAPS=${REL_FLAPS:-300} VETHS=${REL_VETHS:-2000}
else
	CYCLES=${REL_CYCLES:-6} FUZZ=${REL_FUZZ:-1500} HOTPLUG=${REL_HOTPLUG:-3} DUMPSECS=${REL_DUMP_SECS:-5}
	FLAPS=${REL_FLAPS:-20} VETHS=${REL_VETHS:-50}
fi
# make check boots some kernels twice more (virtio-net, threadirqs): the
# subset runs once per kernel, in its e1000 boot
if [ "${REL_FULL:-0}" != 1 ] && [ "${LAB_NIC}${LAB_THREADIRQS}" != e10000 ]; then
	skip "reliability subset: runs in each kernel's e1000 boot (make reliability for the full figures)"
	exit 0
fi
SEED=${REL_SEED:-$(( $(date +%s) % 1000000 * 1000 + $$ % 1000 ))}
NCPU=$(grep -c ^processor /proc/cpuinfo)
figure() { echo "# figure: $*"; }
# section NAME - start section NAME, after the time the last one took
# ("# section time: unload 41 s": where make check's subset spends)
_sec= _sec_t0=
uptime_s() { cut -d. -f1 /proc/uptime; }
section() {
	_t=$(uptime_s)
	[ -n "$_sec" ] && echo "# section time: $_sec $((_t - _sec_t0)) s"
	_sec=$1 _sec_t0=$_t
	[ -n "$1" ] && echo "# section: $1"
	return 0
}
figure kernel "$LAB_KERNEL"

# ---- helpers -------------------------------------------------------------

# load_start SECONDS RATE - UDP 10.0.0.1 -> 10.0.0.2 in the background
load_start() {
	rm -f /tmp/rel.ready
	in-ns netcost-gen sink -q -p 9400 --ready-file /tmp/rel.ready -l $(($1 + 15)) >/tmp/rel.sink 2>&1 &
	LOAD_SINK=$!
	wait_for test -s /tmp/rel.ready
	netcost-gen send -q -H 10.0.0.2 -p 9400 -m 64 -r "$2" -l "$1" --report-wait 0 >/tmp/rel.send 2>&1 &
	LOAD_SEND=$!
}
load_stop() {
	kill $LOAD_SEND $LOAD_SINK 2>/dev/null
	wait $LOAD_SEND $LOAD_SINK 2>/dev/null
}


NICRE=""
nic_re() {
	[ -n "$NICRE" ] && return
	NICRE=$(nics_re)
}

# match_proc DESC CMD... - reset, run CMD, then: nic_irqs and the
# softirq_net_rx count within what /proc/interrupts and /proc/softirqs
# counted (each netcost read sandwiched between two reads of /proc)
match_proc() {
	_d=$1; shift
	nic_re
	i0=$(irq_count "$NICRE"); s0=$(net_rx)
	netcost reset
	i1=$(irq_count "$NICRE"); s1=$(net_rx)
	"$@"
	sleep 0.5
	i2=$(irq_count "$NICRE"); s2=$(net_rx)
	netcost dump -j >/tmp/rel.dump 2>/tmp/rel.dump.err
	i3=$(irq_count "$NICRE"); s3=$(net_rx)
	ni=$(dump_total nic_irqs /tmp/rel.dump)
	nr=$(dump_total softirq_net_rx /tmp/rel.dump)
	if [ -n "$ni" ] && [ "$ni" -ge $((i2 - i1)) ] && [ "$ni" -le $((i3 - i0)) ] && [ "$ni" -gt 0 ]; then
		ok "$_d: nic_irqs $ni within /proc/interrupts [$((i2 - i1)), $((i3 - i0))]"
	else
		not_ok "$_d: nic_irqs '${ni}' within /proc/interrupts [$((i2 - i1)), $((i3 - i0))]"
		diag "$(grep -E "$NICRE" /proc/interrupts)"
		diag "$(head -c 600 /tmp/rel.dump.err)"
	fi
	if [ -n "$nr" ] && [ "$nr" -ge $((s2 - s1)) ] && [ "$nr" -le $((s3 - s0)) ] && [ "$nr" -gt 0 ]; then
		ok "$_d: softirq_net_rx $nr within /proc/softirqs NET_RX [$((s2 - s1)), $((s3 - s0))]"
	else
		not_ok "$_d: softirq_net_rx '${nr}' within /proc/softirqs NET_RX [$((s2 - s1)), $((s3 - s0))]"
	fi
}
run_load() { load_start "$1" "${2:-1500}"; sleep "$1"; load_stop; }

# filp_active - the filp cache's active objects
filp_active() { awk '$1 == "filp" { print $2 }' /proc/slabinfo; }

# slab_settle - wait until deferred frees of files are done (struct file
# is freed after an RCU grace period): filp has not fallen over three
# reads 0.2 s apart (at most 30 s).  (When the shell itself wrote every
# cache's shrink file, those were 70-150 objects in an idle guest, and
# make check in CI once read filp 44 -> 386.)
slab_settle() {
	_prev=$(filp_active) _still=0 _k=0
	while [ $_still -lt 3 ] && [ $_k -lt 150 ]; do
		sleep 0.2
		_cur=$(filp_active)
		if [ "$_cur" -lt $((_prev - 2)) ]; then _still=0; else _still=$((_still + 1)); fi
		_prev=$_cur _k=$((_k + 1))
	done
}

# The snapshots come from nc-slabsnap, which holds every cache's shrink
# file open for the whole test: a shell opened and closed ~240 of them a
# snapshot, and kernfs frees each file's open node with kfree_rcu(),
# which batches for seconds, so that a cache read up to one object a
# shrink file high or not depending on when the batch drained (full run,
# 6.12: "kmalloc-96:2341->2584", all of it allocated at kernfs_fop_open();
# +242 in a guest that never loaded netcost).
rm -f /tmp/rel.snapreq
mkfifo /tmp/rel.snapreq
nc-slabsnap /tmp/rel.snapreq 2>/tmp/rel.snapd.err &
SNAPD=$!
# slab_snap FILE - active objects per slab cache, Percpu and VmallocUsed
# (kB), caches flushed first (SLUB counts objects on per-CPU slabs as in
# use); 0 once FILE is written
slab_snap() {
	slab_settle
	rm -f "$1"
	echo "$1" >/tmp/rel.snapreq
	_k=0
	while [ ! -e "$1" ] && [ $_k -lt 600 ] && kill -0 $SNAPD 2>/dev/null; do
		sleep 0.1; _k=$((_k + 1))
	done
	[ -e "$1" ] || { not_ok "nc-slabsnap gave no snapshot: $(cat /tmp/rel.snapd.err)"; return 1; }
}

# ---- 1. unload under fire ------------------------------------------------
section unload
echo "# unload under fire: $CYCLES insmod/rmmod cycles during UDP load, a STATS reader, a CONFIG flipper"
sleep 1
# The baseline is settled: a second snapshot 7 s later (past kfree_rcu's
# batching), idle, has no cache half the leak limit or more above it
# (vmap_area left out, as below: freed areas are purged lazily).  The
# test's own processes come and go, and their maple tree nodes are freed
# after a grace period (7.3, full run: maple_node 82 -> 106 in 7 s; CI,
# 7.3-rt: 85 -> 133), so a baseline that moved is taken again, up to 4
# times; one that never settles fails.
_half=$CYCLES; [ "$_half" -lt 64 ] && _half=64; _half=$((_half / 2))
slab_snap /tmp/rel.slab0
_try=1
while :; do
	sleep 7
	slab_snap /tmp/rel.slabchk
	_off=$(awk -v half=$_half 'FILENAME == ARGV[1] { a[$1] = $2; next }
		($1 in a) && $1 !~ /^@/ && $1 != "vmap_area" && $2 - a[$1] >= half { print $1 ":" a[$1] "->" $2 }' /tmp/rel.slab0 /tmp/rel.slabchk | tr '\n' ' ')
	[ -z "$_off" ] && break
	[ $_try -ge 4 ] && break
	diag "baseline $_try moved in 7 s, idle: $_off; taking the later one"
	cp /tmp/rel.slabchk /tmp/rel.slab0
	_try=$((_try + 1))
done
figure slab_baseline_tries "$_try"
if [ -z "$_off" ]; then
	ok "slab snapshot settled (baseline $_try): 7 s later, idle, no cache $_half objects higher (filp $(awk '$1 == "filp" { print $2 }' /tmp/rel.slab0) -> $(awk '$1 == "filp" { print $2 }' /tmp/rel.slabchk))"
else
	not_ok "slab snapshot not settled after $_try baselines 7 s apart, idle: $_off"
fi
taint0=$(cat /proc/sys/kernel/tainted)
rm -f /tmp/rel.stop /tmp/rel.reader /tmp/rel.flipper
load_start $((CYCLES * 10 + 60)) 1500
(
	ok=0 gone=0 race=0 hang=0 other=0
	while [ ! -e /tmp/rel.stop ]; do
		timeout 30 netcost dump -j >/dev/null 2>/tmp/rel.rd.err
		rc=$?
		case $rc in
		0) ok=$((ok + 1)) ;;
		3) gone=$((gone + 1)) ;;
		124|143) hang=$((hang + 1)) ;;
		1) if grep -qE 'No such file|not loaded|Operation not supported|Protocol not supported|Unknown|family' /tmp/rel.rd.err; then
			race=$((race + 1)); else other=$((other + 1)); cp /tmp/rel.rd.err /tmp/rel.rd.other; fi ;;
		*) other=$((other + 1)); { echo "status $rc"; cat /tmp/rel.rd.err; } >/tmp/rel.rd.other ;;
		esac
	done
	echo "$ok $gone $race $hang $other" >/tmp/rel.reader
) &
READER=$!
(
	n=0 bad=0
	while [ ! -e /tmp/rel.stop ]; do
		for a in "groups irq" "groups all" "recording off" "recording on" "groups net,sched" "groups all"; do
			# shellcheck disable=SC2086
			timeout 30 netcost config set $a >/dev/null 2>/tmp/rel.fl.err
			rc=$?
			n=$((n + 1))
			case $rc in
			0|3) ;;
			1) grep -qE 'No such file|not loaded|Operation not supported|Protocol not supported|Unknown|family' /tmp/rel.fl.err ||
				{ bad=$((bad + 1)); cp /tmp/rel.fl.err /tmp/rel.fl.other; } ;;
			*) bad=$((bad + 1)); { echo "status $rc"; cat /tmp/rel.fl.err; } >/tmp/rel.fl.other ;;
			esac
		done
	done
	echo "$n $bad" >/tmp/rel.flipper
) &
FLIPPER=$!
cycles=0 eagain=0 fails=0
i=0
while [ $i -lt "$CYCLES" ]; do
	i=$((i + 1))
	if ! insmod $KO 2>/tmp/rel.ins.err; then
		fails=$((fails + 1)); diag "cycle $i: insmod: $(cat /tmp/rel.ins.err)"; continue
	fi
	sleep "0.$((RANDOM % 5 + 1))"
	while ! rmmod netcost 2>/tmp/rel.rm.err; do
		if grep -q 'Resource temporarily unavailable' /tmp/rel.rm.err; then
			eagain=$((eagain + 1)); sleep 0.02
		else
			fails=$((fails + 1)); diag "cycle $i: rmmod: $(cat /tmp/rel.rm.err)"; break
		fi
	done
	cycles=$((cycles + 1))
	sleep "0.$((RANDOM % 3 + 1))"
done
touch /tmp/rel.stop
wait $READER $FLIPPER
load_stop
read -r r_ok r_gone r_race r_hang r_other </tmp/rel.reader
read -r f_n f_bad </tmp/rel.flipper
figure cycles "$cycles"
figure rmmod_eagain "$eagain"
is "unload under fire: $cycles insmod/rmmod cycles, no failure ($eagain rmmod EAGAIN retried)" "$cycles/$fails" "$CYCLES/0"
diag "reader: $r_ok dumps, $r_gone exit 3 (module gone), $r_race raced an unload, $r_hang hung, $r_other other"
[ "$r_hang" = 0 ] && ok "reader never hung ($((r_ok + r_gone + r_race)) runs)" || not_ok "reader hung $r_hang times"
[ "$r_other" = 0 ] && ok "reader: only exit 0, clean exit 3 or an unload race" || { not_ok "reader: $r_other unexpected results"; diag "$(cat /tmp/rel.rd.other)"; }
[ "$r_gone" -gt 0 ] && ok "reader got exit 3 while the module was gone ($r_gone times)" || not_ok "reader never saw the module gone"
[ "$f_bad" = 0 ] && ok "CONFIG flipper: $f_n requests, each done, refused for a missing module, or raced" || { not_ok "CONFIG flipper: $f_bad unexpected results"; diag "$(cat /tmp/rel.fl.other)"; }
taint=$(cat /proc/sys/kernel/tainted)
figure taint "$taint"
if [ $((taint & ~12288)) -eq 0 ] && [ $((taint & 4096)) -ne 0 ]; then
	ok "taint $taint: only O and E (was $taint0 before the first insmod)"
else
	not_ok "taint $taint: more than O (4096) and E (8192) (was $taint0)"
fi
sleep 2
slab_snap /tmp/rel.slab1
# A leak of one object per cycle grows a cache by >= CYCLES objects; the
# module's per-CPU statistics are 72 kB a load on 2 CPUs.  vmap_area is
# left out: freed vmalloc areas (module text) are purged lazily, in
# batches; VmallocUsed counts the live ones, and must come back.
# skbuff_head_cache: the kernel parks freed skb heads in per-CPU caches
# (NAPI's skb cache, deferred frees) that no slab flush empties (7.3-rt,
# 2 CPUs, netcost never loaded: 34 -> 219 active objects after 12 s of
# this load, 219 five seconds later, 243 after a second load, about 120
# a CPU; a first load before the baseline did not keep them there): that
# cache may grow by 128 a CPU more.
lim=$CYCLES; [ "$lim" -lt 64 ] && lim=64
plim=$((CYCLES * 16)); [ "$plim" -lt 256 ] && plim=256
skblim=$((lim + 128 * $(grep -c ^processor /proc/cpuinfo)))
grown_now() {
	awk -v lim="$lim" -v plim="$plim" -v skblim="$skblim" 'FILENAME == ARGV[1] { a[$1] = $2; next }
	$1 == "@percpu" { if ($2 - a[$1] >= plim) print "Percpu:" a[$1] "kB->" $2 "kB"; next }
	$1 == "@vmalloc" { if ($2 - a[$1] >= 256) print "VmallocUsed:" a[$1] "kB->" $2 "kB"; next }
	$1 == "vmap_area" { next }
	$1 == "skbuff_head_cache" { if ($2 - a[$1] >= skblim) print $1 ":" a[$1] "->" $2; next }
	($1 in a) && $2 - a[$1] >= lim { print $1 ":" a[$1] "->" $2 }' /tmp/rel.slab0 /tmp/rel.slab1 | tr '\n' ' '
}
grown=$(grown_now)
# Frees deferred past the end of the load (RCU callbacks, delayed fput:
# 6.1-rt once had filp 82 -> 196 at the first look) finish within
# seconds; a leak stays.  Look again, up to 5 times, 2 s apart.
_n=0
while [ -n "$grown" ] && [ $_n -lt 5 ]; do
	diag "not back yet: $grown; looking again in 2 s"
	sleep 2
	slab_snap /tmp/rel.slab1
	grown=$(grown_now)
	_n=$((_n + 1))
done
diag "largest changes: $(awk 'FILENAME == ARGV[1] { a[$1] = $2; next } ($1 in a) { d = $2 - a[$1]; if (d != 0) print d, $1 }' /tmp/rel.slab0 /tmp/rel.slab1 | sort -rn | head -5 | tr '\n' ' ')"
echo quit >/tmp/rel.snapreq
wait $SNAPD
if [ -z "$grown" ]; then
	ok "slabinfo, Percpu and VmallocUsed back (no cache grew by $lim objects, skbuff_head_cache by $skblim, Percpu by $plim kB, VmallocUsed by 256 kB)"
else
	not_ok "allocations not back after $cycles cycles: $grown"
fi

# ---- the rest runs with the module loaded --------------------------------
insmod $KO || { not_ok "insmod"; exit 0; }

# ---- 2. permissions and namespaces ---------------------------------------
section permissions
as_nobody() { su -s /bin/sh nobody -c "$*" 2>&1; }
for c in "dump" "tasks" "reset" "config set recording off"; do
	e=$(as_nobody "netcost $c"); rc=$?
	if [ $rc = 4 ] && echo "$e" | grep -q "permission denied"; then
		ok "uid nobody: netcost $c: EPERM, exit 4: $(echo "$e" | head -1)"
	else
		not_ok "uid nobody: netcost $c: exit $rc: $e"
	fi
done
e=$(as_nobody "netcost info -j"); rc=$?
if [ $rc = 0 ] && ! echo "$e" | grep -q '"hits"'; then
	ok "uid nobody: INFO answers without the per-hook hit counts"
else
	not_ok "uid nobody: INFO: exit $rc, hit counts shown: $(echo "$e" | grep -c '"hits"')"
fi
# what counts activity on the box is gated like STATS (issue 21, item 13)
json_num() { sed -nE "s/^ *\"$1\": *([0-9]+|null),?\$/\1/p" | head -n 1; }
# probes run, so that root has cost samples to be refused (a fresh
# module in an --icount boot had none: the line failed on root's 0)
run_load 1 1000
mine=$(netcost info -j -i 0 2>/dev/null)
theirs=$(as_nobody "netcost info -j -i 0")
r_used=$(echo "$mine" | json_num task_slots_used); r_samp=$(echo "$mine" | json_num probe_cost_samples)
n_used=$(echo "$theirs" | json_num task_slots_used); n_samp=$(echo "$theirs" | json_num probe_cost_samples)
if [ "$n_used" = null ] && [ "${n_samp:-0}" = 0 ] && [ "$r_used" != null ] && [ -n "$r_used" ] && [ "${r_samp:-0}" -gt 0 ]; then
	ok "uid nobody: INFO without task_slots_used and probe_cost_samples (root: $r_used slots, $r_samp samples)"
elif [ "${r_samp:-0}" = 0 ] || [ -z "$r_used" ] || [ "$r_used" = null ]; then
	not_ok "uid nobody: INFO: root reads task_slots_used '$r_used', probe_cost_samples '$r_samp' after 1 s of load: nothing to gate"
else
	not_ok "uid nobody: INFO task_slots_used '$n_used', probe_cost_samples '$n_samp' (root: '$r_used', '$r_samp'): counts given to an unprivileged user"
fi
FAMID=$(nc-nlfuzz --print-id)
e=$(in-ns netcost info 2>&1); rc=$?
is "other netns: netcost info finds no family (exit 3: $(echo "$e" | head -1))" "$rc" 3
e=$(in-ns nc-nlfuzz --probe-id "$FAMID"); rc=$?
[ $rc = 0 ] && ok "other netns: every command sent to family id $FAMID is refused: $e" || not_ok "other netns reached family $FAMID: $e"
rmmod netcost
insmod $KO open_read=1 || { not_ok "insmod open_read=1"; exit 0; }
e=$(as_nobody "netcost dump"); rc=$?
is "open_read=1: uid nobody can dump STATS" "$rc" 0
e=$(as_nobody "netcost tasks"); rc=$?
is "open_read=1: uid nobody can list the task table (tasks)" "$rc" 0
for c in "reset" "config set recording off" "config set groups irq"; do
	e=$(as_nobody "netcost $c"); rc=$?
	if [ $rc = 4 ]; then ok "open_read=1: uid nobody: netcost $c still EPERM"; else not_ok "open_read=1: uid nobody: netcost $c: exit $rc: $e"; fi
done
rmmod netcost
insmod $KO || { not_ok "insmod"; exit 0; }

# ---- 3. hostile netlink --------------------------------------------------
section fuzz
echo "# hostile netlink: $FUZZ messages, seed $SEED"
nc-nlfuzz -s "$SEED" -n "$FUZZ" >"$OUT/fuzz.txt" 2>&1
rc=$?
diag "$(cat "$OUT/fuzz.txt")"
msgs=$(sed -n 's/.*: \([0-9]*\) messages, \([0-9]*\) failures.*/\1/p' "$OUT/fuzz.txt")
figure fuzz_messages "${msgs:-0}"
figure fuzz_seed "$SEED"
[ $rc = 0 ] && ok "nc-nlfuzz seed $SEED: ${msgs:-0} messages, every malformed one refused" || not_ok "nc-nlfuzz seed $SEED: status $rc (replay: nc-nlfuzz -s $SEED -n $FUZZ)"
[ "${msgs:-0}" -ge "$FUZZ" ] && ok "fuzzed at least $FUZZ messages" || not_ok "fuzzed ${msgs:-0} < $FUZZ messages"
netcost config set nic-irqs auto cpus 0-$((NCPU - 1)) groups all recording on >/dev/null ||
	not_ok "restore the configuration after fuzzing"
match_proc "after fuzzing, a valid STATS dump" run_load 3

# ---- 4. concurrency ------------------------------------------------------
section concurrency
load_start $((DUMPSECS + 10)) 1500
(
	n=0 bad=0
	while [ ! -e /tmp/rel.dstop ]; do
		netcost dump -j >/dev/null 2>/tmp/rel.td.err || { bad=$((bad + 1)); cp /tmp/rel.td.err /tmp/rel.td.bad; }
		n=$((n + 1))
	done
	echo "$n $bad" >/tmp/rel.tooldumps
) &
TD=$!
rm -f /tmp/rel.dstop
nc-dumpcheck -d 4 -r 1 -t "$DUMPSECS" >"$OUT/dumpcheck.txt" 2>&1
rc=$?
touch /tmp/rel.dstop; wait $TD
load_stop
diag "$(cat "$OUT/dumpcheck.txt")"
figure dumps "$(awk '/^dumper/ { s += $3 } END { print s + 0 }' "$OUT/dumpcheck.txt")"
figure dumps_intr "$(awk '/^dumper/ { s += $5 } END { print s + 0 }' "$OUT/dumpcheck.txt")"
[ $rc = 0 ] && ok "4 dumpers + RESETs for ${DUMPSECS}s: every dump consistent or NLM_F_DUMP_INTR (and retried)" || not_ok "concurrent dumps: inconsistent dump or error"
read -r tn tbad </tmp/rel.tooldumps
[ "$tbad" = 0 ] && ok "netcost dump beside them: $tn dumps, all exit 0 (the tool retries interrupted ones)" || { not_ok "netcost dump failed $tbad of $tn times"; diag "$(cat /tmp/rel.td.bad)"; }

# ---- 5. CPU hotplug ------------------------------------------------------
section hotplug
hotplug() {
	hp=0
	k=0
	while [ $k -lt "$HOTPLUG" ]; do
		k=$((k + 1))
		echo 0 >/sys/devices/system/cpu/cpu1/online || { diag "cpu1 offline failed"; break; }
		if [ $k = 1 ]; then
			# the offline CPU's statistics keep their data
			# every switch: the packet path's and the others'
			c1=$(dump_cpu_count 1 ctx_switch)
			c1o=$(dump_cpu_count 1 ctx_switch_other)
			echo "$((${c1:-0} + ${c1o:-0}))" >/tmp/rel.c1off
		fi
		sleep 0.3
		echo 1 >/sys/devices/system/cpu/cpu1/online || { diag "cpu1 online failed"; break; }
		hp=$((hp + 1))
		sleep 0.3
	done
	echo $hp >/tmp/rel.hp
}
hotplug_under_load() { load_start $((HOTPLUG + 20)) 1500; sleep 1; hotplug; sleep 1; load_stop; }
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	match_proc "after $HOTPLUG CPU1 offline/online cycles under load" hotplug_under_load
	hp=$(cat /tmp/rel.hp)
	figure hotplugs "$hp"
	is "CPU1 taken offline and back $HOTPLUG times" "$hp" "$HOTPLUG"
	c1=$(cat /tmp/rel.c1off)
	[ "${c1:-0}" -gt 0 ] && ok "offline CPU1 keeps its statistics (ctx_switch + ctx_switch_other count $c1)" || not_ok "offline CPU1's statistics empty (${c1:-none})"
else
	skip "CPU hotplug: no writable cpu1/online (smp $LAB_SMP)"
	figure hotplugs 0
fi

# ---- 6. CONFIG is atomic: fault injection --------------------------------
section rollback
# info_hooks - INFO's hooks, one JSON object a line (jq is not in the guest)
info_hooks() { netcost info -j | tr -d ' \n' | sed 's/},{/}\n{/g'; }
attached() { info_hooks | sed -n 's/.*"name":"\([^"]*\)".*"attached":\([a-z]*\).*/\1=\2/p' | sort | tr '\n' ' '; }
P=/sys/module/netcost/parameters/fault_attach
if [ -w $P ]; then
	netcost config set groups irq >/dev/null
	before=$(attached)
	for n in 1 3; do
		echo $n >$P
		e=$(netcost config set groups all 2>&1); rc=$?
		after=$(attached)
		g=$(netcost config show -j | tr -d ' \n' | sed -n 's/.*"groups":\[\([^]]*\)\].*/\1/p')
		[ $rc != 0 ] && ok "fault at attach $n: CONFIG refused (exit $rc: $(echo "$e" | head -1))" || not_ok "fault at attach $n: CONFIG accepted"
		is "fault at attach $n: the hooks are rolled back to the previous set" "$after" "$before"
		is "fault at attach $n: groups still irq" "$g" '"irq"'
	done
	echo 0 >$P
	check "without the fault: groups all" netcost config set groups all
	match_proc "after the rollbacks, counting" run_load 2
else
	not_ok "no $P (fault_attach parameter)"
fi

# ---- 7. nothing missed: every event reached its probe -------------------
# Each hook counts every hit, the ones its probe filters out too (INFO's
# per-hook "hits"), so a hook that misses events reads fewer than the
# kernel raised.  The kernel's own count of the same events: ftrace hist
# triggers (keys=common_cpu) on the hooked tracepoints, and on kprobe
# events at the fentry hooks' functions (another ftrace user of the same
# call sites).  Each read of INFO is sandwiched between two reads of the
# hists, so over a 2 s load netcost's hits lie in [lo, hi] as in
# check-stages.  A tracepoint probe or an ftrace_ops callback that drops
# events (a recursion guard, a detached hook) fails here.  Not compared:
# sys_enter/sys_exit and kthread_should_stop(), whose probes count a hit
# only for the calls they time (the filter comes first).
section missed
T=/sys/kernel/tracing
[ -e $T/events ] || mount -t tracefs nodev $T
MISSED_TPS="irq/irq_handler_entry irq/softirq_entry irq/softirq_exit napi/napi_poll net/napi_gro_receive_entry net/net_dev_start_xmit net/net_dev_xmit sched/sched_switch sched/sched_waking"
# hook_hits - "name hits" of every attached hook
hook_hits() { info_hooks | sed -n 's/.*"name":"\([^"]*\)".*"attached":true.*"hits":\([0-9]*\).*/\1 \2/p'; }
# the fentry hooks: a kprobe event on each one's function, named ncm_N
fe=$(info_hooks | sed -n 's/.*"name":"\([^"]*\)","kind":"fentry".*"attached":true.*/\1/p')
i=0 evs=""
for f in $fe; do
	case $f in
	kthread_should_stop*)
		# its probe counts a hit only where it ends an IRQ or NAPI
		# thread's run (the filter is inline, before the count)
		diag "missed: $f not compared (hits only for the calls that end a thread's run)"
		continue ;;
	esac
	echo "p:ncm_$i $f" >> $T/kprobe_events 2> /dev/null || { not_ok "missed: no kprobe event on $f"; continue; }
	evs="$evs kprobes/ncm_$i=$f"
	i=$((i + 1))
done
for e in $MISSED_TPS; do evs="$evs $e=${e#*/}"; done
for ev in $evs; do
	echo 'hist:keys=common_cpu' > $T/events/${ev%%=*}/trigger || not_ok "missed: hist trigger on ${ev%%=*}"
done
# ref FILE - "hook count missed" of every event: its hist's count, and
# for a kprobe event the hits its own kprobe missed (kprobe_profile's
# third column), which the upper bound allows: the reference's misses,
# counted, not netcost's
ref() {
	for ev in $evs; do
		e=${ev%%=*}
		m=0
		case $e in kprobes/*) m=$(awk -v n="${e#kprobes/}" '$1 == n { print $3 }' $T/kprobe_profile) ;; esac
		awk -v h="${ev#*=}" -v m="${m:-0}" '/hitcount:/ { sub(/.*hitcount: */, ""); s += $0 } END { print h, s + 0, m + 0 }' \
			$T/events/$e/hist
	done > "$1"
}
# compare_hits HOOKS_CMD SECONDS - the load with the reads around it;
# prints "good|bad hook hits in [lo,hi]" per compared hook
compare_hits() {
	ref /tmp/miss.r0; $1 > /tmp/miss.n0; ref /tmp/miss.r1
	run_load "$2"
	ref /tmp/miss.r2; $1 > /tmp/miss.n1; ref /tmp/miss.r3
	awk 'FILENAME ~ /r0$/ { r0[$1] = $2; m0[$1] = $3 } FILENAME ~ /r1$/ { r1[$1] = $2 }
	FILENAME ~ /r2$/ { r2[$1] = $2 } FILENAME ~ /r3$/ { r3[$1] = $2; m3[$1] = $3 }
	FILENAME ~ /n0$/ { n0[$1] = $2 } FILENAME ~ /n1$/ { n1[$1] = $2 }
	END {
		for (h in r0) {
			if (!(h in n1)) { printf "bad %s: no such attached hook\n", h; continue }
			v = n1[h] - n0[h]; lo = r2[h] - r1[h]; hi = r3[h] - r0[h] + m3[h] - m0[h]
			printf "%s %s %d in [%d,%d]\n", (v >= lo && v <= hi) ? "good" : "bad", h, v, lo, hi
		}
	}' /tmp/miss.r0 /tmp/miss.r1 /tmp/miss.r2 /tmp/miss.r3 /tmp/miss.n0 /tmp/miss.n1 | sort -k2
}
res=$(compare_hits hook_hits 2)
echo "$res" | sed 's/^/# /'
nbad=$(echo "$res" | grep -c '^bad')
ngood=$(echo "$res" | grep -c '^good')
nraised=$(echo "$res" | awk '$1 == "good" && $3 > 0' | wc -l)
if [ "$nbad" = 0 ] && [ "$ngood" -gt 0 ] && [ "$nraised" -gt 0 ]; then
	ok "no hook missed an event: $ngood hooks' hits = ftrace's count of their events ($nraised raised under the load)"
else
	not_ok "hooks missed events, or none compared: $(echo "$res" | grep '^bad' | cut -d' ' -f2- | tr '\n' ';')"
fi
# The same comparison must fail for hooks that miss events: with only
# the irq group attached, the net hooks stay in INFO (not attached, their
# hits frozen) while the kernel raises their events.
hook_hits_all() { info_hooks | sed -n 's/.*"name":"\([^"]*\)".*"hits":\([0-9]*\).*/\1 \2/p'; }
if netcost config set groups irq > /dev/null; then
	neg=$(compare_hits hook_hits_all 1)
	netcost config set groups all > /dev/null || not_ok "missed: config set groups all"
	nn=$(echo "$neg" | awk '$1 == "bad" && ($2 == "napi_poll" || $2 == "napi_gro_receive_entry" || $2 == "net_dev_start_xmit")' | wc -l)
	if [ "$nn" = 3 ]; then
		ok "the comparison fails for detached hooks: $(echo "$neg" | awk '$1 == "bad" { printf "%s %s %s %s; ", $2, $3, $4, $5 }')"
	else
		not_ok "the comparison did not fail for the detached net hooks: $(echo "$neg" | tr '\n' ';')"
	fi
else
	not_ok "missed: config set groups irq"
fi
figure missed "$nbad"
for ev in $evs; do echo '!hist:keys=common_cpu' > $T/events/${ev%%=*}/trigger; done
j=0
while [ $j -lt $i ]; do echo "-:ncm_$j" >> $T/kprobe_events; j=$((j + 1)); done

# ---- 8. IRQ threads that exit: link flaps ---------------------------------
# Every "ip link set eth0 down" frees e1000's IRQ, and with threaded IRQs
# its thread exits; "up" starts a new one.  sched_process_exit releases
# the old thread's slot; its last sched_switch must not claim one again
# (issue 21, item 1: one slot leaked per flap).
section linkflap
slots_used() { netcost info -j -i 0 2>/dev/null | sed -nE 's/^ *"task_slots_used": *([0-9]+),?$/\1/p' | head -n 1; }
if ! kernel_threads_irqs; then
	skip "link flaps: IRQs are not threaded in this boot (no IRQ thread starts or exits)"
	figure link_flaps 0
else
	sleep 1
	s0=$(slots_used)
	# A sleeper started between down and up takes the memory the exited
	# thread's task_struct leaves (the slab reuses it at once in an idle
	# guest), so that the next thread lands elsewhere, as on a busy box:
	# a leaked slot is then not taken over by the next thread at the
	# same address.  (6.1-rt, 300 flaps before the fix: 4 -> 8 slots
	# without the sleepers, 4 -> 137 with them.)
	f=0 sleepers=
	while [ $f -lt "$FLAPS" ]; do
		ip link set eth0 down || break
		sleep 1000 &
		sleepers="$sleepers $!"
		ip link set eth0 up || break
		f=$((f + 1))
	done
	# shellcheck disable=SC2086
	kill $sleepers 2>/dev/null
	wait $sleepers 2>/dev/null
	sleep 1
	s1=$(slots_used)
	figure link_flaps "$f"
	figure slots_before_flaps "$s0"
	figure slots_after_flaps "$s1"
	is "eth0 down/up $FLAPS times" "$f" "$FLAPS"
	# the tasks that hold a slot now held one before (ksoftirqd, the
	# IRQ threads, netcost itself): one either way for timing
	if [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -le $((s0 + 1)) ]; then
		ok "task_slots_used back after $f link flaps: $s0 -> $s1 (an exited IRQ thread keeps no slot)"
	else
		not_ok "task_slots_used after $f link flaps: '$s0' -> '$s1' (slots leaked by exiting IRQ threads)"
	fi
	_n=100
	while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ] && [ $_n -gt 0 ]; do sleep 0.1; _n=$((_n - 1)); done
	ping -c 1 -W 2 10.0.0.2 >/dev/null 2>&1 || ping -c 1 -W 2 10.0.0.2 >/dev/null 2>&1 ||
		diag "no ping 10.0.0.2 after the flaps"
fi

# ---- 9. veth churn: device events by the thousand -------------------------
# VETHS veth pairs created and deleted while UDP load runs, with netcost
# loaded, then without (issue 21, item 6).  netcost decides its NIC list
# in the netdevice notifier, never in hard IRQ context, and leaves out
# devices with no parent (veth): nic_devices stays as it was, and the
# load's nic_irqs and NET_RX still match /proc (match_proc).  The longest
# device interrupt of each phase is ftrace's (hardirq_max_start, lib.sh):
# figures, not a timed assertion (TCG times are noisy; the figures say
# whether netcost's hard IRQ work grows with the device count).
section vethchurn
veth=$(guest_ko veth)
# vchurn N - create N veth pairs (busybox ip names the peer), read
# nic_devices with all of them there (netcost loaded), delete them
vchurn() {
	_v=0
	while [ $_v -lt "$1" ] && ip link add "ncv$_v" type veth; do _v=$((_v + 1)); done
	grep -q "^netcost " /proc/modules && info_key nic_devices > /tmp/rel.vdevs
	_w=0
	while [ $_w -lt $_v ] && ip link del "ncv$_w"; do _w=$((_w + 1)); done
	echo "$_v $_w" > /tmp/rel.vchurn
}
# vphase WHAT - vchurn under load, the longest hard IRQ as figure hardirq_max_WHAT
vphase() {
	if ! hardirq_max_start 2>/tmp/rel.hm.err; then
		not_ok "veth churn $1: kprobe events at __common_interrupt"; diag "$(cat /tmp/rel.hm.err)"
		return
	fi
	load_start $((VETHS / 25 + 5)) 1500
	if [ "$1" = with_netcost ]; then
		match_proc "veth churn with netcost: $VETHS pairs under load" vchurn "$VETHS"
	else
		vchurn "$VETHS"
	fi
	load_stop
	_m=$(hardirq_max_read)
	figure "hardirq_max_ns_$1" "${_m:--}"
	is "veth churn $1: $VETHS pairs created, then deleted" "$(cat /tmp/rel.vchurn)" "$VETHS $VETHS"
	[ -n "$_m" ] && ok "veth churn $1: longest hard IRQ ${_m} ns (ftrace, __common_interrupt)" ||
		not_ok "veth churn $1: ftrace saw no device interrupt"
}
figure veth_pairs "$VETHS"
if [ -z "$veth" ] || ! insmod "$veth"; then
	not_ok "the lab image has veth.ko and it loads (tests/lab/setup GUEST_MODULES)"
else
	netcost config set groups all >/dev/null || not_ok "veth churn: config set groups all"
	d0=$(info_key nic_devices)
	vphase with_netcost
	is "veth churn: nic_devices with $VETHS veth pairs there = before them ($d0)" "$(cat /tmp/rel.vdevs)" "$d0"
	is "veth churn: nic_devices after them" "$(info_key nic_devices)" "$d0"
fi

section ""
rmmod netcost && ok "final rmmod" || not_ok "final rmmod"
[ -n "$veth" ] && grep -q "^veth " /proc/modules && vphase without_netcost
splats=$(dmesg_splats)
[ -z "$splats" ] && ok "dmesg clean" || { not_ok "dmesg: kernel complained"; diag "$splats"; }
