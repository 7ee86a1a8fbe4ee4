/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathcfg.h - the packet path's configuration in a snapshot
 * (meta.path_config, pathcfg.c) and what differs between two of them.
 */
#ifndef NETCOST_PATHCFG_H
#define NETCOST_PATHCFG_H

#include <jansson.h>

/*
 * nc_pathcfg_collect - the configuration read from @sys and @proc ("/sys",
 * "/proc"), @preempt the preemption model's name (NULL: left out); a new
 * JSON object
 */
json_t *nc_pathcfg_collect(const char *sys, const char *proc, const char *preempt);

/*
 * nc_pathcfg_diff - every setting that differs between @a and @b (either
 * may be NULL: an older snapshot, no differences), as an array of
 * {"key": "nics.eth0.threaded", "a": 0, "b": 1} (null: absent on a side),
 * in @a's order, then what only @b has; a new reference
 */
json_t *nc_pathcfg_diff(json_t *a, json_t *b);

#endif
