#!/bin/sh
# t-tasks.sh - (guest) a box full of tasks (issue 21, item 3): tasks
# that made one socket call and then sleep keep a task-table slot until
# they exit, as journald, dbus and every netlink user do on a real box.
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

command -v nc-hold-tasks > /dev/null || { not_ok "tasks: nc-hold-tasks is not in the image"; exit 1; }
stages_ref_on || not_ok "tasks: ftrace kprobe event on irq_forced_thread_fn"
if lsmod | grep -q '^netcost '; then rmmod netcost; fi
if insmod /lib/netcost/netcost.ko; then ok "tasks: insmod netcost.ko"; else
	not_ok "tasks: insmod netcost.ko"; exit 1
fi
slots=$(info_key task_slots)
base=$(info_key task_slots_used)
base_k=$(info_key task_slots_kthreads)
diag "task table: $slots slots, $base held before ($(nproc) CPUs)"
netcost reset
if hold $N; then ok "tasks: $N threads (a random $N of $((N * SPREAD))) each sent one datagram and sleep"; else
	not_ok "tasks: $N holders did not start: $(head -1 "$out/hold.err")"
	unhold; exit 1
fi
used=$(info_key task_slots_used)
full=$(dump_total task_table_full)
if [ "$used" -ge $((base + N)) ]; then ok "tasks: $N holders hold a slot each ($base -> $used of $slots)"; else
	not_ok "tasks: $N holders but slots held went $base -> $used of $slots"
fi
is "tasks: no claim found its window full with $N holders (task_table_full)" "${full:-none}" 0
if netcost info -i 0 | grep -q "^task table: *[0-9]* of $slots slots held"; then
	ok "tasks: netcost info shows the table's fill"
else
	not_ok "tasks: netcost info has no 'task table: N of $slots slots held' line"
fi

# check-stages' window with the holders still there
stages_window "$out" 2 2000
is "tasks: task_table_full over the load" "$(dump_total task_table_full "$out/after.json")" 0
# The holders' slots come back at their exit: the table's slots of tasks
# other than the packet path's kernel threads fall by N (or more, when
# another task left meanwhile).  The module counts the kernel threads'
# slots (IRQ and NAPI threads, ksoftirqd: they keep a slot from their
# first run, which may come while the holders exit, on a two-queue NIC
# one IRQ thread a vector).  Until 2026-12-06 this was "at most 4 over the count before",
# and then "N fewer in all", which 7.3-rt with two queues passed or not
# by how many IRQ threads first ran while the holders exited.
mid=$(info_key task_slots_used)
mid_k=$(info_key task_slots_kthreads)
unhold
used=$(info_key task_slots_used)
used_k=$(info_key task_slots_kthreads)
if [ -z "$mid_k" ] || [ -z "$used_k" ] || [ -z "$base_k" ]; then
	not_ok "tasks: INFO has no task_slots_kthreads (the packet path's kernel threads' slots)"
else
	msg="$mid slots held with the holders ($mid_k of kernel threads), $used after they exited ($used_k), $base before the test ($base_k)"
	# what the table holds beyond the count before: the packet path's
	# kernel threads (they keep their slot) and no more.  Not "no other
	# task's slot more than before": CI at 5909a2b held one more slot
	# of a task that is no kernel thread, before and after the holders
	# exited (so no holder's; which task is not known yet), in both of
	# its two-queue boots.
	kt=0
	for p in /proc/[0-9]*; do
		read -r comm < "$p/comm" 2> /dev/null || continue
		case $comm in irq/*|napi/*|backlog_napi/*|ksoftirqd/*) kt=$((kt + 1)) ;; esac
	done
	msg="$msg; $kt IRQ/NAPI threads and ksoftirqd"
	if [ $(((mid - mid_k) - (used - used_k))) -lt $N ]; then
		not_ok "tasks: the holders' slots did not all come back: $msg"
	elif [ "$used" -gt $((base + kt)) ]; then
		not_ok "tasks: more slots held than the packet path's kernel threads can hold: $msg"
	else
		ok "tasks: the holders' slots came back at exit: $msg"
	fi
fi

# above the design point (10,000 tasks in the default 16,384 slots), scaled
N2=700
rmmod netcost
if insmod /lib/netcost/netcost.ko task_slots=1024; then
	base=$(info_key task_slots_used)
	base_k=$(info_key task_slots_kthreads)
	if hold $N2; then
		used=$(info_key task_slots_used)
		used_k=$(info_key task_slots_kthreads)
		# the kernel threads' slots claimed meanwhile are no holder's
		got=$(((used - ${used_k:-0}) - (base - ${base_k:-0})))
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
stages_ref_off
splats=$(dmesg_splats)
if [ -z "$splats" ]; then ok "tasks: dmesg clean"; else not_ok "tasks: dmesg"; diag "$splats"; fi
