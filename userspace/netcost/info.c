// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - "netcost info [-j] [-i S]": what the module is and does: its
 * version, the kernel and its preemption model, the TSC rate, CPUs, the
 * cost of a probe hit, the histogram layout, memory, configuration and
 * hooks; and what the probes cost: INFO is read twice, S seconds apart
 * (default 1; 0: once), for the hooks' hits per second, times the sampled
 * self-cost per hit (lib/metrics.c, nc_overhead()).  The text and the JSON
 * are printed from the same JSON object.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"
#include "metrics.h"
#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* nc_jfig - a derived figure, or null when it does not exist (< 0) */
static json_t *nc_jfig(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

/*
 * nc_overhead_to_json - "overhead" of info -j: the interval, hits per
 * second, self-cost per hit, cycles per second and % of one CPU, in total
 * and per hook (keyed by name, "name/kind" when two hooks share a name);
 * null figures when there is no second read (-i 0) or no self-cost
 * sampled yet
 */
static json_t *nc_overhead_to_json(const struct nc_overhead *ov, bool have)
{
	json_t *o = json_object(), *hooks = json_object();
	unsigned int i;

	json_object_set_new(o, "interval_s", have ? json_real(ov->interval_s) : json_null());
	json_object_set_new(o, "probe_hits_per_s", have ? json_real(ov->hits_per_s) : json_null());
	json_object_set_new(o, "probe_cost_cycles", nc_jfig(ov->cost_per_hit));
	json_object_set_new(o, "probe_cost_p50_cycles", nc_jfig(ov->cost_p50));
	json_object_set_new(o, "probe_cost_p90_cycles", nc_jfig(ov->cost_p90));
	json_object_set_new(o, "cycles_per_s", have ? nc_jfig(ov->cycles_per_s) : json_null());
	json_object_set_new(o, "cpu_pct", have ? nc_jfig(ov->cpu_pct) : json_null());
	for (i = 0; have && i < ov->nr_hooks; i++) {
		const struct nc_hook_rate *r = &ov->hook[i];
		char key[NC_NAME_LEN + 16];

		if (r->dup_name)
			snprintf(key, sizeof(key), "%s/%s", r->name, nc_hook_kind_name(r->kind));
		else
			snprintf(key, sizeof(key), "%s", r->name);
		json_object_set_new(hooks, key, json_pack("{s:o, s:o, s:o}",
			"probe_hits_per_s", json_real(r->hits_per_s),
			"cycles_per_s", nc_jfig(r->cycles_per_s),
			"cpu_pct", nc_jfig(r->cpu_pct)));
	}
	json_object_set_new(o, "hooks", hooks);
	return o;
}

/* nc_fmt_rate - @v with k/M/G, or "-" when it does not exist */
static const char *nc_fmt_rate(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

/* nc_print_overhead - the overhead lines of "info" */
static void nc_print_overhead(const struct nc_overhead *ov, bool have)
{
	char a[32], b[32];

	if (!have) {
		printf("overhead:     (not measured: -i 0)\n");
		return;
	}
	printf("overhead:     %s probe hits/s over %.2f s", nc_fmt_rate(a, sizeof(a), ov->hits_per_s),
	       ov->interval_s);
	if (ov->cost_per_hit < 0) {
		printf("; no self-cost sampled yet\n");
		return;
	}
	printf(" x %.0f cycles per hit (sampled) = %s cycles/s", ov->cost_per_hit,
	       nc_fmt_rate(b, sizeof(b), ov->cycles_per_s));
	if (ov->cpu_pct >= 0)
		printf(", %.3f%% of one CPU", ov->cpu_pct);
	printf("\n              (the self-cost misses the tracepoint dispatch and cache effects: bench/README.md)\n");
}

/*
 * nc_hooks_can_miss - whether any hook of @hooks can miss an event: a
 * kprobe's or kretprobe's (modules up to 0.10.0 could have them), or one that
 * did.  Tracepoint probes and ftrace_ops miss nothing: without such a
 * hook the "missed" column would be all zeros, and is left out.
 */
static bool nc_hooks_can_miss(json_t *hooks)
{
	json_t *h;
	size_t i;

	json_array_foreach(hooks, i, h) {
		const char *kind = json_string_value(json_object_get(h, "kind"));

		if (json_integer_value(json_object_get(h, "missed")) ||
		    (kind && strstr(kind, "kprobe")))
			return true;
	}
	return false;
}

/* nc_print_info - the text form of "info", read off the JSON object */
static void nc_print_info(const struct nc_info *info, json_t *o, const struct nc_overhead *ov,
			  bool have)
{
	json_t *hooks = json_object_get(o, "hooks"), *h;
	double since = nc_info_since_reset_s(info);
	bool miss = nc_hooks_can_miss(hooks);
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
	if (info->probe_cost_samples)
		printf(", median %u, p90 %u (%llu bodies timed, 1 hit in 256)", info->probe_cost_p50,
		       info->probe_cost_p90, (unsigned long long)info->probe_cost_samples);
	printf("\nhistograms:   %u buckets, %u sub-bits: percentiles within %.1f%%\n",
	       info->hist_buckets, info->hist_sub_bits, 100.0 * NC_HIST_REL_ERROR);
	printf("memory:       %u bytes per CPU\n", info->mem_per_cpu);
	if (info->has_task_slots) {
		printf("task table:   %u of %u slots held", info->task_slots_used, info->task_slots);
		if (info->has_task_slots_kthreads)
			printf(", %u by IRQ and NAPI threads and ksoftirqd (kept until they exit)",
			       info->task_slots_kthreads);
		printf("\n              (a task whose 32-slot window is full is not measured:\n"
		       "              its events count in task_table_full)\n");
	}
	for (size_t u = 0; u < info->nr_untraced; u++) {
		const struct nc_untraced *v = &info->untraced[u];

		printf("%s %s", u ? "             " : "untraced:    ", v->name);
		if (v->has_count)
			printf(" (%llu interrupts since boot)", (unsigned long long)v->count);
		printf(": a vector without tracepoints; hardirq does not see it\n");
	}
	if (info->has_nic_devices)
		printf("nic devices:  %u (network devices with a parent device: their names find NIC IRQs)\n",
		       info->nic_devices);
	printf("generation:   %u, last reset %.3f s ago\n", info->generation, since);
	printf("config:\n");
	nc_print_config(json_object_get(o, "config"), "  ");
	nc_print_overhead(ov, have);
	printf("hooks:\n  %-28s %-10s %-15s %-3s %12s", "name", "kind", "groups", "on", "hits");
	if (miss)
		printf(" %6s", "missed");
	printf(" %8s %6s\n", "hits/s", "cpu%");
	json_array_foreach(hooks, i, h) {
		json_t *kind = json_object_get(h, "kind");
		const struct nc_hook_rate *r = have && i < ov->nr_hooks ? &ov->hook[i] : NULL;
		char groups[128], rate[32];

		nc_groups_str(json_object_get(h, "groups"), groups, sizeof(groups));
		printf("  %-28s %-10s %-15s %-3s %12lld",
		       json_string_value(json_object_get(h, "name")),
		       json_is_string(kind) ? json_string_value(kind) : "?", groups,
		       json_is_true(json_object_get(h, "attached")) ? "yes" : "NO",
		       (long long)json_integer_value(json_object_get(h, "hits")));
		if (miss)
			printf(" %6lld", (long long)json_integer_value(json_object_get(h, "missed")));
		printf(" %8s", nc_fmt_rate(rate, sizeof(rate), r ? r->hits_per_s : -1));
		if (r && r->cpu_pct >= 0)
			printf(" %6.3f\n", r->cpu_pct);
		else
			printf(" %6s\n", "-");
	}
	if (!json_array_size(hooks))
		printf("  (none)\n");
}

/* nc_info_args - [-j] [-i|--interval S]; S in [0, 3600] */
static int nc_info_args(int argc, char **argv, bool *json, double *interval)
{
	static const struct option opts[] = {
		{ "json",	no_argument,		NULL, 'j' },
		{ "interval",	required_argument,	NULL, 'i' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	*json = false;
	*interval = 1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "ji:", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			*json = true;
			break;
		case 'i':
			errno = 0;
			*interval = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(*interval) ||
			    *interval < 0 || *interval > 3600)
				return nc_usage_err("info: -i wants seconds from 0 to 3600, not '%s'",
						    optarg);
			break;
		default:
			return nc_usage_err("info: unknown option or missing argument '%s'",
					    argv[optind - 1]);
		}
	}
	if (argc > optind)
		return nc_usage_err("info: unexpected argument '%s'", argv[optind]);
	return NC_EXIT_OK;
}

/* cmd_info - "netcost info [-j] [-i S]" */
int cmd_info(int argc, char **argv)
{
	struct nc_info *first, *info;
	struct nc_overhead *ov;
	bool json, have = false;
	double interval;
	struct nc_nl nl;
	json_t *o;
	int ret;

	ret = nc_info_args(argc, argv, &json, &interval);
	if (ret)
		return ret;
	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	first = nc_xcalloc(1, sizeof(*first));
	info = nc_xcalloc(1, sizeof(*info));
	ov = nc_xcalloc(1, sizeof(*ov));
	ret = nc_fetch_info(&nl, first);
	if (!ret && interval > 0) {
		struct timespec ts = { (time_t)interval,
				       (long)((interval - floor(interval)) * 1e9) };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		ret = nc_fetch_info(&nl, info);
		if (!ret) {
			have = !nc_overhead(first, info, ov);
			if (!have)
				nc_warn("info: the hooks' hit counts went back (the module was loaded again): no overhead figures");
		}
	} else if (!ret) {
		memcpy(info, first, sizeof(*info));
		ov->cost_per_hit = info->probe_cost ? (double)info->probe_cost : -1;
	}
	nc_nl_close(&nl);
	if (ret)
		goto out_free;
	o = nc_info_to_json(info);
	json_object_set_new(o, "overhead", nc_overhead_to_json(ov, have));
	if (json)
		ret = nc_json_print(stdout, o, 2);
	else
		nc_print_info(info, o, ov, have);
	json_decref(o);
out_free:
	free(ov);
	free(first);
	free(info);
	return ret;
}
