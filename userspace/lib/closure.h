/* SPDX-License-Identifier: GPL-2.0 */
/*
 * closure.h - the accounting closure of "netcost run": does what netcost
 * attributes add up to the CPU time the machine really spent?
 *
 *   consumed   = per CPU, what the soak's spinner lost:
 *                load % / 100 x seconds x TSC rate (cycles)
 *   attributed = the top-level kernel stages (own cycles: irq_thread net
 *                of the NET_RX it runs, which softirq_net_rx counts)
 *              + probe hits x probe cost
 *              + each process's utime + stime (syscall_rx/tx are inside
 *                stime, so they are not added again)
 *              - what is in a process's time and in a stage as well
 *                (nc_closure_add_overlap(): a negative line)
 *   unexplained = consumed - attributed, in % of consumed
 *
 * Pure arithmetic on numbers handed in, so that tests/unit can check it;
 * "netcost run" (netcost/run.c) gathers the numbers.
 */
#ifndef NETCOST_CLOSURE_H
#define NETCOST_CLOSURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "model.h"

#define NC_CL_MAX_LINES	24

/* What a line of the closure stands for */
enum nc_cl_kind {
	NC_CL_KERNEL,		/* a top-level kernel stage, from the module */
	NC_CL_PROBES,		/* netcost's own probes: hits x probe cost */
	NC_CL_PROCESS,		/* a process: utime + stime */
	NC_CL_OVERLAP,		/* counted twice above: taken off again */
};

struct nc_cl_line {
	char name[NC_NAME_LEN];
	char what[96];		/* for the text: "4711 hits x 130 cycles" */
	enum nc_cl_kind kind;
	double total;		/* cycles, over the closure's CPUs */
	double *cpu;		/* [ncpus] cycles; NULL: not known per CPU */
	double switches;	/* a process's context switches (nvcsw + nivcsw) */
};

struct nc_closure {
	uint32_t tsc_khz;
	double seconds;			/* the soak's window */
	unsigned int ncpus;
	int *cpu;			/* [ncpus] CPU numbers */
	double *load_pct;		/* [ncpus] mean load of the samples */
	double *consumed;		/* [ncpus] cycles */
	unsigned int nr_lines;
	struct nc_cl_line line[NC_CL_MAX_LINES];
	/* filled by nc_closure_finish() */
	double consumed_total;
	double attributed_total;
	double remainder_total;		/* consumed - attributed */
	double remainder_pct;		/* of consumed_total; 0 if none */
	double *attributed;		/* [ncpus] the lines known per CPU */
	double *remainder;		/* [ncpus] */
	bool per_cpu_complete;		/* every line is known per CPU */
};

double nc_closure_cycles(double cpu_seconds, uint32_t tsc_khz);
double nc_closure_load_cycles(double load_pct, double seconds, uint32_t tsc_khz);
int nc_closure_cpu_index(const struct nc_closure *c, int cpu);
void nc_closure_init(struct nc_closure *c, uint32_t tsc_khz, double seconds,
		     unsigned int ncpus, const int *cpus, const double *busy_s,
		     const double *load_pct);
struct nc_cl_line *nc_closure_add(struct nc_closure *c, enum nc_cl_kind kind,
				  const char *name, bool per_cpu);
int nc_closure_add_model(struct nc_closure *c, const struct nc_model *m);
struct nc_cl_line *nc_closure_add_process(struct nc_closure *c, const char *name,
					  double cpu_s, const double *weight);
struct nc_cl_line *nc_closure_add_overlap(struct nc_closure *c,
					  const struct nc_model *m, bool irq_in_tasks);
void nc_closure_finish(struct nc_closure *c);
json_t *nc_closure_to_json(const struct nc_closure *c);
void nc_closure_print(FILE *f, const struct nc_closure *c);
void nc_closure_free(struct nc_closure *c);

#endif
