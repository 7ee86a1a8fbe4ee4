#!/bin/sh
# t-tasks.sh - (guest) a box full of tasks (issue 21, item 3): tasks
# that made one socket call and then sleep keep a task-table slot until
# they exit, as every inet socket's user does on a real box (until
# 0.14.0, journald, dbus and every netlink user too).
# With 600 of them held:
#  - each got a slot (task_slots_used grew by 600) and no claim found
#    its window full (task_table_full 0), in the default table;
#  - a UDP load then counts as check-stages' window says it must (the
#    host's check-tasks runs check-stages on OUTDIR): on RT a softirq run
#    whose IRQ thread or ksoftirqd found no slot would be missing from
#    softirq_net_rx against /proc/softirqs;
#  - the slots come back when the holders exit;
#  - above the design's fill (10,000 tasks in the default 16,384 slots,
#    61%), 700 tasks in task_slots=1024 (68%), at least 99% get a slot
#    (a window of 8 slots left 1-4% out; a simulation of random homes
#    puts a 32-slot window's worst case in 200 at 0.7%).
# The holders are a random 600 of 3,000 threads (nc-hold-tasks' SPREAD):
# a burst of new threads alone has evenly spaced task_structs, which the
# table's hash spreads far more evenly than a real box's tasks.
# Meant for a two-CPU boot (the mq2 configurations of tests/lab/check).
out=${1:-/mnt/out/tasks}
mkdir -p "$out"
. /lab/lib.sh
N=600
SPREAD=5

# hold N - N holders (nc-hold-tasks); $hold_pid is theirs; fails when
# they did not all send within ~60 s
hold() {
	rm -f /tmp/held
	nc-hold-tasks "$1" /tmp/held $SPREAD 2> "$out/hold.err" &
	hold_pid=$!
	_h=0
	while [ ! -s /tmp/held ] && [ $_h -lt 600 ] && kill -0 $hold_pid 2> /dev/null; do
		sleep 0.1; _h=$((_h + 1))
	done
	[ -s /tmp/held ]
}
unhold() { kill $hold_pid 2> /dev/null; wait $hold_pid 2> /dev/null; sleep 0.3; }
# the holders' thread ids (not the main thread's: it sends nothing)
holder_tids() { ls /proc/$hold_pid/task | grep -vx "$hold_pid"; }
# tasks_list FILE - "netcost tasks" into FILE: "SLOT PID KIND STATE COMM"
tasks_list() { netcost tasks | awk 'NR > 2 && $1 ~ /^[0-9]+$/' > "$1"; }
# holders_held TIDS FILE - how many of the threads TIDS lists hold a load slot in FILE
holders_held() {
	awk 'NR == FNR { h[$1] = 1; next } ($2 in h) && $4 ~ /load/' "$1" "$2" | wc -l
}

command -v nc-hold-tasks > /dev/null || { not_ok "tasks: nc-hold-tasks is not in the image"; exit 1; }
stages_ref_on || not_ok "tasks: ftrace kprobe event on irq_forced_thread_fn"
if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "tasks: insmod netcost.ko"; else
	not_ok "tasks: insmod netcost.ko"; exit 1
fi
slots=$(info_key task_slots)
base=$(info_key task_slots_used)
diag "task table: $slots slots, $base held before ($(nproc) CPUs)"
netcost reset
if hold $N; then ok "tasks: $N threads (a random $N of $((N * SPREAD))) each sent one datagram and sleep"; else
	not_ok "tasks: $N holders did not start: $(head -1 "$out/hold.err")"
	unhold; exit 1
fi
used=$(info_key task_slots_used)
full=$(dump_total task_table_full)
holder_tids > "$out/holders.tids"
nh=$(wc -l < "$out/holders.tids")
tasks_list "$out/tasks.held"
is "tasks: each of the $N holder threads holds a slot of its own ($base -> $used of $slots held; netcost tasks)" \
	"$nh $(holders_held "$out/holders.tids" "$out/tasks.held")" "$N $N"
is "tasks: no claim found its window full with $N holders (task_table_full)" "${full:-none}" 0
if netcost info -i 0 | grep -q "^task table: *[0-9]* of $slots slots held"; then
	ok "tasks: netcost info shows the table's fill"
else
	not_ok "tasks: netcost info has no 'task table: N of $slots slots held' line"
fi

# check-stages' window with the holders still there
stages_window "$out" 2 2000
is "tasks: task_table_full over the load" "$(dump_total task_table_full "$out/after.json")" 0
# The holders' slots come back at their exit, counted by owner ("netcost
# tasks" lists each held slot's pid): with the holders there, each of
# their threads holds a slot; after they exited, none does, and every
# slot still held is a live task's (a dead task's slot would be a leak).
# Until 0.13.0 this was INFO's task_slots_used, net of the kernel
# threads, falling by N: the count includes other tasks' slots that come
# and go (the reader's own, a task in an open frame), and 7.3-rt with two
# queues failed it by one in 2 of about 30 boots (CI at 0.12.0:
# 607 -> 8, 7 and 7 kernel threads).
tasks_list "$out/tasks.mid"
held=$(holders_held "$out/holders.tids" "$out/tasks.mid")
diag "with the holders: $(wc -l < "$out/tasks.mid") slots held; not the holders':"
diag "$(awk 'NR == FNR { h[$1] = 1; next } !($2 in h)' "$out/holders.tids" "$out/tasks.mid" | head -20)"
is "tasks: each of the $N holder threads still holds its slot after the load (netcost tasks)" "$nh $held" "$N $N"
unhold
tasks_list "$out/tasks.after"
left=$(awk 'NR == FNR { h[$1] = 1; next } $2 in h' "$out/holders.tids" "$out/tasks.after")
gone=$(awk '$5 == "(gone)"' "$out/tasks.after")
if [ -n "$gone" ]; then
	# a task that exits between the module's answer and the tool's read
	# of /proc is gone too, but its slot with it: read once more
	sleep 0.2
	tasks_list "$out/tasks.after2"
	gone=$(awk 'NR == FNR { g[$1 " " $2] = 1; next } (($1 " " $2) in g) && $5 == "(gone)"' \
		"$out/tasks.after" "$out/tasks.after2")
fi
diag "after the holders exited: $(wc -l < "$out/tasks.after") slots held:"
diag "$(head -20 "$out/tasks.after")"
if [ -z "$left" ]; then ok "tasks: no holder thread holds a slot after they exited"; else
	not_ok "tasks: holder threads still hold slots after they exited"; diag "$left"
fi
if [ -z "$gone" ]; then ok "tasks: every slot still held is a live task's"; else
	not_ok "tasks: slots of tasks that exited are still held"; diag "$gone"
fi

# above the design point (10,000 tasks in the default 16,384 slots), scaled
N2=700
rmmod netcost
if insmod /lib/netcost/netcost.ko task_slots=1024; then
	if hold $N2; then
		# counted by owner: the holder threads' slots, no other task's
		holder_tids > "$out/holders-1024.tids"
		tasks_list "$out/tasks.1024"
		got=$(holders_held "$out/holders-1024.tids" "$out/tasks.1024")
		diag "task_slots=1024: $got of $N2 holders hold a slot, task_table_full $(dump_total task_table_full)"
		if [ $((got * 100)) -ge $((N2 * 99)) ]; then
			ok "tasks: at 68% fill (task_slots=1024) $got of $N2 tasks hold a slot (>= 99%)"
		else
			not_ok "tasks: at 68% fill (task_slots=1024) only $got of $N2 tasks hold a slot (< 99%)"
		fi
	else
		not_ok "tasks: $N2 holders did not start: $(head -1 "$out/hold.err")"
	fi
	unhold
	rmmod netcost
else
	not_ok "tasks: insmod netcost.ko task_slots=1024"
fi
# ---- two claims for one task (issue 21, item 2) ----
# After a flush (a CONFIG change), a task's own sched_switch and a remote
# sched_waking can claim a slot for it at once: an IRQ or NAPI thread
# woken from another CPU as it goes to sleep.  In a boot that race is
# rare (a flush under load, 40 times: one such pair in one of three
# boots).  The lab's test build meets those claims every time:
# test_claim_race=PID has every online CPU claim a slot for PID at once,
# from an IPI, each after a barrier, test_claim_delay_us between a claim
# and its re-check.  netcost tasks lists each held slot's pid: a task
# holds at most one (two claimers may both back off: none, one event
# unmeasured).  With test_claim_recheck=0 (0.5.0's claim) every round
# must leave the task in two slots, or this test could not fail.
R=${T_CLAIM_ROUNDS:-20}
PARAMS=/sys/module/netcost/parameters
# claims RECHECK - "ROUNDS_WITH_TWO MOST" over R rounds, a new task each
claims() {
	echo "$1" > $PARAMS/test_claim_recheck
	_d=0 _m=0 _r=0
	while [ $_r -lt "$R" ]; do
		sleep 600 &
		_t=$!
		echo "$_t" > $PARAMS/test_claim_race || not_ok "tasks: test_claim_race=$_t refused"
		_n=$(netcost tasks | awk -v p="$_t" 'NR > 2 && $1 ~ /^[0-9]+$/ && $2 == p' | wc -l)
		[ "$_n" -gt 1 ] && _d=$((_d + 1))
		[ "$_n" -gt "$_m" ] && _m=$_n
		kill "$_t"
		wait "$_t" 2> /dev/null
		_r=$((_r + 1))
	done
	echo "$_d $_m"
}
if [ "$(nproc)" -lt 2 ]; then
	not_ok "tasks: two claims for one task need two CPUs ($(nproc))"
elif ! insmod /lib/netcost/netcost.ko; then
	not_ok "tasks: insmod netcost.ko (two claims for one task)"
elif [ ! -w $PARAMS/test_claim_race ]; then
	not_ok "tasks: two claims for one task need the lab's test build (test_claim_race)"
	rmmod netcost
else
	delay=${T_CLAIM_DELAY_US:-200}
	echo "$delay" > $PARAMS/test_claim_delay_us
	read -r d0 m0 <<EOF
$(claims 0)
EOF
	read -r d1 m1 <<EOF
$(claims 1)
EOF
	echo 0 > $PARAMS/test_claim_delay_us
	echo 1 > $PARAMS/test_claim_recheck
	diag "two claims, $(nproc) CPUs at once, $delay us from a claim to its re-check: without the re-check $d0 of $R tasks in two slots (at most $m0), with it $d1 (at most $m1)"
	if [ "$d0" = "$R" ]; then
		ok "tasks: without the re-check (test_claim_recheck=0, 0.5.0's claim) every one of $R tasks claimed at once on $(nproc) CPUs held two slots: the test can fail"
	else
		not_ok "tasks: without the re-check only $d0 of $R tasks claimed at once held two slots: the claims did not meet, the test proves nothing"
	fi
	is "tasks: with the re-check, no task claimed at once on $(nproc) CPUs holds two slots ($R tasks)" "$d1" 0
	rmmod netcost
fi
stages_ref_off
splats=$(dmesg_splats)
if [ -z "$splats" ]; then ok "tasks: dmesg clean"; else not_ok "tasks: dmesg"; diag "$splats"; fi
