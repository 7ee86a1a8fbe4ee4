// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - "netcost info [-j]": what the module is and does: its version,
 * the kernel and its preemption model, the TSC rate, CPUs, the cost of a
 * probe hit, the histogram layout, memory, configuration and hooks.
 * The text and the JSON are printed from the same JSON object.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* nc_print_info - the text form of "info", read off the JSON object */
static void nc_print_info(const struct nc_info *info, json_t *o)
{
	json_t *hooks = json_object_get(o, "hooks"), *h;
	double since = info->now_ns > info->reset_ns ?
		       (double)(info->now_ns - info->reset_ns) / 1e9 : 0;
	size_t i;

	printf("netcost module %s (tool %s)\n", info->version, NETCOST_VERSION);
	printf("kernel:       %s (%s)\n", info->kernel,
	       nc_preempt_model(info->preempt_rt, info->threadirqs));
	printf("preempt_rt:   %s\n", info->preempt_rt ? "yes" : "no");
	printf("threadirqs:   %s\n", info->threadirqs ? "yes" : "no");
	printf("tsc:          %u kHz\n", info->tsc_khz);
	printf("cpus:         %u possible, %u online\n", info->nr_cpus, info->nr_cpus_online);
	printf("probe cost:   %u cycles per hit", info->probe_cost);
	if (info->tsc_khz)
		printf(" (%.1f ns)", nc_cycles_to_ns(info->probe_cost, info->tsc_khz));
	printf("\nhistograms:   %u buckets, %u sub-bits: percentiles within %.1f%%\n",
	       info->hist_buckets, info->hist_sub_bits, 100.0 * NC_HIST_REL_ERROR);
	printf("memory:       %u bytes per CPU\n", info->mem_per_cpu);
	printf("generation:   %u, last reset %.3f s ago\n", info->generation, since);
	printf("config:\n");
	nc_print_config(json_object_get(o, "config"), "  ");
	printf("hooks:\n  %-28s %-10s %-24s %-8s %12s %8s\n", "name", "kind", "groups",
	       "attached", "hits", "missed");
	json_array_foreach(hooks, i, h) {
		json_t *kind = json_object_get(h, "kind");
		char groups[128];

		nc_groups_str(json_object_get(h, "groups"), groups, sizeof(groups));
		printf("  %-28s %-10s %-24s %-8s %12lld %8lld\n",
		       json_string_value(json_object_get(h, "name")),
		       json_is_string(kind) ? json_string_value(kind) : "?", groups,
		       json_is_true(json_object_get(h, "attached")) ? "yes" : "NO",
		       (long long)json_integer_value(json_object_get(h, "hits")),
		       (long long)json_integer_value(json_object_get(h, "missed")));
	}
	if (!json_array_size(hooks))
		printf("  (none)\n");
}

/* cmd_info - "netcost info [-j]" */
int cmd_info(int argc, char **argv)
{
	struct nc_info *info;
	struct nc_nl nl;
	bool json;
	json_t *o;
	int ret;

	ret = nc_opt_json(argc, argv, &json, 0, 0);
	if (ret)
		return ret;
	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	info = nc_xcalloc(1, sizeof(*info));
	ret = nc_fetch_info(&nl, info);
	nc_nl_close(&nl);
	if (ret)
		goto out_free_info;
	o = nc_info_to_json(info);
	if (json)
		ret = nc_json_print(stdout, o, 2);
	else
		nc_print_info(info, o);
	json_decref(o);
out_free_info:
	free(info);
	return ret;
}
