/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - the model as JSON: "netcost info -j", "dump -j", and the
 * snapshot files of "netcost save", "show", "diff" and "plot".
 *
 * A snapshot is {"schema": 3, "tool": "netcost", "meta": {...},
 * "info": {...}, "cpus": [...], "total": {...}, "napi_dropped": N}, where
 * info, cpus and total have exactly the shape "netcost dump -j" prints.
 */
#ifndef NETCOST_SNAPSHOT_H
#define NETCOST_SNAPSHOT_H

#include <stdio.h>
#include <jansson.h>

#include "model.h"

/*
 * The version of the JSON documents (Documentation/netcost-json.md); the
 * loader reads every version up to it.  2: meta.probe_cost_cycles (was
 * probe_cost), stage "role", info task_slots/task_slots_used.  3: a
 * stage's sum is keyed by its unit ("packets" for napi_poll_work).
 */
#define NC_SNAPSHOT_SCHEMA	3
#define NC_SNAPSHOT_MAX_BYTES	(64 << 20)	/* ~40 kB a busy CPU: ~1600 CPUs */


json_t *nc_info_to_json(const struct nc_info *info);
const char *nc_hook_kind_name(uint8_t kind);
json_t *nc_config_to_json(const struct nc_config *cfg);
json_t *nc_model_to_json(const struct nc_model *m, bool all);
json_t *nc_snapshot_to_json(const struct nc_model *m);
int nc_snapshot_save(const struct nc_model *m, const char *path);
bool nc_snapshot_file_is(const char *path);
int nc_output_check(const char *cmd, const char *out, const char *const *inputs,
		    unsigned int n, const char *what);
int nc_snapshot_load(struct nc_model *m, const char *path);
int nc_snapshot_load_buffer(struct nc_model *m, const char *buf, size_t len,
			    const char *name);
int nc_snapshot_from_json(struct nc_model *m, json_t *root, const char *name);
void nc_meta_collect(struct nc_meta *meta, const struct nc_info *info,
		     const char *note);
int nc_json_print(FILE *f, json_t *root, unsigned int indent);
json_t *nc_json_u64(uint64_t v);
const char *nc_group_name(unsigned int bit);
const char *nc_sum_key(uint8_t unit);

#endif
