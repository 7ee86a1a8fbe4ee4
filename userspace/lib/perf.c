// SPDX-License-Identifier: GPL-2.0
/*
 * perf.c - per-CPU task-clock counters (perf_event_open) of the processes
 * "netcost run" starts and of its own main thread: the CPU time each spent
 * on each CPU, for the accounting closure.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"
#include "perf.h"

/*
 * nc_perf_open - a task-clock counter of task @pid on each of the @ncpus
 * CPUs in @cpus.  For a child (@child), counting starts at its exec and follows
 * its threads and children; for the main thread it starts now.  All or
 * nothing: false (and no counter) when one cannot be opened.
 */
bool nc_perf_open(struct nc_child *ch, const int *cpus, int ncpus, pid_t pid, bool child)
{
	struct perf_event_attr pa = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(pa),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.disabled = child,
		.inherit = child,
		.enable_on_exec = child,
	};

	ch->perf = nc_xcalloc(ncpus, sizeof(*ch->perf));
	ch->task_ns = nc_xcalloc(ncpus, sizeof(*ch->task_ns));
	for (int i = 0; i < ncpus; i++)
		ch->perf[i] = -1;
	for (int i = 0; i < ncpus; i++) {
		ch->perf[i] = syscall(SYS_perf_event_open, &pa, pid, cpus[i], -1,
				      PERF_FLAG_FD_CLOEXEC);
		if (ch->perf[i] < 0) {
			for (int j = 0; j < i; j++)
				close(ch->perf[j]);
			for (int j = 0; j < ncpus; j++)
				ch->perf[j] = -1;
			return ch->perf_ok = false;
		}
	}
	return ch->perf_ok = true;
}

/*
 * nc_perf_read - the counters into task_ns, less what they read at
 * @base (NULL: from 0); @close closes them
 */
void nc_perf_read(struct nc_child *ch, int ncpus, const double *base, bool close_them)
{
	for (int i = 0; ch->perf && i < ncpus; i++) {
		uint64_t v = 0;

		if (ch->perf[i] < 0)
			continue;
		if (read(ch->perf[i], &v, sizeof(v)) == sizeof(v))
			ch->task_ns[i] = (double)v - (base ? base[i] : 0);
		else
			ch->perf_ok = false;
		if (close_them) {
			close(ch->perf[i]);
			ch->perf[i] = -1;
		}
	}
}

/* nc_perf_close - read the counters into task_ns and close them */
void nc_perf_close(struct nc_child *ch, int ncpus)
{
	nc_perf_read(ch, ncpus, NULL, true);
}


/*
 * nc_proc_irq_ticks - the "irq" column of /proc/stat's "cpu" line: hard IRQ
 * time, which only a kernel that keeps interrupt time out of the tasks'
 * time (CONFIG_IRQ_TIME_ACCOUNTING) counts.  -1 when unreadable.  @path:
 * the file (NULL: /proc/stat), for the tests.
 */
long long nc_proc_irq_ticks(const char *path)
{
	unsigned long long v[6];
	FILE *f = fopen(path ? path : "/proc/stat", "r");
	int n = 0;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5]);
	fclose(f);
	return n == 6 ? (long long)v[5] : -1;
}
