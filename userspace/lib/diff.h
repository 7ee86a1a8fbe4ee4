/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.h - "netcost diff A B": two snapshots compared stage by stage, as
 * cycles and as ns per packet, with percentile shifts and shape distances,
 * and their NAPI instances by device and one by one.
 */
#ifndef NETCOST_DIFF_H
#define NETCOST_DIFF_H

#include <stdio.h>

#include "metrics.h"
#include "model.h"

/* One stage in A and B (per packet: -1 when the side had no packets) */
struct nc_diff_stage {
	char name[NC_NAME_LEN];
	enum nc_role role;
	uint8_t unit;
	double a, b;			/* per packet, in the unit */
	double a_ns, b_ns;		/* per packet, ns (cycle stages) */
	double ratio;			/* b / a; -1 when undefined (a is 0) */
	double delta;			/* b - a */
	double share;			/* delta / total delta (top-level); NAN: total delta 0 */
	double p50_a, p50_b, p99_a, p99_b;	/* -1: no events on that side */
	double ks;			/* 0..1; -1 when a side has no events */
	double emd;			/* in the unit; -1 likewise */
};

/* One counter, per rx packet, in A and B */
struct nc_diff_counter {
	char name[NC_NAME_LEN];
	double a, b;			/* -1: absent on that side */
};

/* One packet-path setting that differs (meta.path_config), values as JSON text */
struct nc_diff_path {
	char key[160];
	char a[96], b[96];		/* "null": absent on that side */
};

struct nc_diff {
	const struct nc_model *ma, *mb;
	const char *name_a, *name_b;	/* for the headings */
	double total_a, total_b;	/* top-level cycles per packet */
	double total_a_ns, total_b_ns;
	double ratio, ratio_ns;		/* B/A of the totals; -1: undefined */
	double pps_a, pps_b;		/* rx packets per second */
	unsigned int nr_stages;
	struct nc_diff_stage stage[2 * NC_MAX_STAGES];
	unsigned int nr_counters;
	struct nc_diff_counter counter[2 * NC_MAX_COUNTERS];
	unsigned int nr_warnings;
	char warning[8][256];
	unsigned int nr_path;		/* settings that differ, at most 64 shown */
	unsigned int nr_path_all;
	struct nc_diff_path path[64];
	/* the NAPI instances that polled, by device (the backlogs in one row) */
	struct nc_napi_devs napi;
	double napi_ratio[NC_MAX_NAPI_DEVICES];	/* B/A of cycles per poll; -1: undefined */
	/* the same instances one by one, each of A with its counterpart in B */
	struct nc_napi_pairs napi_pairs;
};

int nc_diff_compute(struct nc_diff *d, const struct nc_model *a, const char *name_a,
		    const struct nc_model *b, const char *name_b);
int nc_diff_print(FILE *f, const struct nc_diff *d, bool json);

#endif
