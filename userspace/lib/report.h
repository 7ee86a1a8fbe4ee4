/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the "netcost dump" report, text or JSON, printed from the
 * model.  "dump" fills the model from the module, "show" from a snapshot
 * file and "watch" from the difference of two reads: all print here.
 */
#ifndef NETCOST_REPORT_H
#define NETCOST_REPORT_H

#include <stdio.h>

#include "metrics.h"
#include "model.h"

struct nc_report_opts {
	bool json;		/* -j */
	bool per_cpu;		/* --per-cpu: a table per CPU too */
	bool ns;		/* --ns: times in ns instead of cycles */
	bool all;		/* --all: empty stages too */
	bool wide;		/* --wide: every column, full names (past 100 columns) */
	const char *cpus;	/* --cpu LIST, or NULL */
	const char *stages;	/* --stage LIST, or NULL */
	bool json_lines;	/* JSON on one line ("watch -j") */
	double interval;	/* watch -i: seconds */
	long count;		/* watch -n: intervals, 0 for no end */
};

int nc_report_getopt(int argc, char **argv, struct nc_report_opts *o,
		     int min_args, int max_args, bool watch);
int nc_opt_json(int argc, char **argv, bool *json, int min_args, int max_args);
int nc_report_select(struct nc_model *out, const struct nc_model *m,
		     const struct nc_report_opts *o);
int nc_report_print(FILE *f, const struct nc_model *m, const struct nc_report_opts *o);
json_t *nc_report_json(const struct nc_model *m, const struct nc_report_opts *o);
void nc_print_sampled(FILE *f, const struct nc_model *m);

#define NC_REPORT_OPTS_HELP_TEXT \
	"  -j, --json         print JSON\n" \
	"      --per-cpu      a table for each CPU as well\n" \
	"      --cpu LIST     only these CPUs (e.g. 0-3,8)\n" \
	"      --stage LIST   only these stages (comma separated)\n" \
	"      --ns           times in ns (from tsc_khz) instead of cycles\n" \
	"      --all          show empty stages too\n" \
	"      --wide         p90 and p99.9 too, full counter names (wider than 100 columns)\n"

#endif
