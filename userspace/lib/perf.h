/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.h - task-clock counters per CPU of a child or of the caller
 * (perf.c), kept in struct nc_child's perf[] and task_ns[], and the
 * hard IRQ time of /proc/stat.
 */
#ifndef NETCOST_PERF_H
#define NETCOST_PERF_H

#include "child.h"

bool nc_perf_open(struct nc_child *ch, const int *cpus, int ncpus, pid_t pid, bool child);
void nc_perf_read(struct nc_child *ch, int ncpus, const double *base, bool close_them);
void nc_perf_close(struct nc_child *ch, int ncpus);
long long nc_proc_irq_ticks(const char *path);

#endif
