/* SPDX-License-Identifier: GPL-2.0 */
/*
 * result.h - keeping a measurement: "netcost run" saves its snapshot
 * here, and when the target cannot be written keeps the data in a rescue
 * file rather than losing a run that took minutes to record.
 */
#ifndef NETCOST_RESULT_H
#define NETCOST_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "child.h"
#include "closure.h"
#include "model.h"
#include "runargs.h"

int nc_result_save(const struct nc_model *m, const char *target, char *kept,
		   size_t len);
int nc_result_check_target(const char *who, const char *path);
json_t *nc_result_packets(const struct nc_model *m, json_t *snd, json_t *snk);
void nc_result_print_packets(FILE *f, json_t *p);
json_t *nc_result_load_json(const struct nc_run_opts *o, double recorded_s, bool interrupted,
			    const struct nc_argv *gen, const struct nc_argv *sink,
			    const struct nc_child *snd, const struct nc_child *snk,
			    const int *cpus, int ncpus);
struct nc_cl_line *nc_result_closure_child(struct nc_closure *cl, const char *name,
					   const struct nc_child *ch);
struct nc_cl_line *nc_result_closure_self(struct nc_closure *cl, const char *name,
					  const struct nc_child *self, const struct rusage *ru0,
					  const struct rusage *ru1);
void nc_result_warn(const struct nc_child *snd, const struct nc_child *snk, bool interrupted,
		    double recorded_s);

#endif
