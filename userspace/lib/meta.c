// SPDX-License-Identifier: GPL-2.0
/*
 * meta.c - what a snapshot records about where and when it was taken:
 * the kernel as the module saw it, /proc/cmdline, the CPU model from
 * /proc/cpuinfo, the time and the interval.  "save" and "run" collect
 * it; snapshot.c only writes and reads it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pathcfg.h"
#include "snapshot.h"

/* nc_read_line - the first line of a small file, without its newline */
static char *nc_read_line(const char *path, const char *prefix)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	char *val = NULL;

	if (!f)
		return NULL;
	while (!val && fgets(line, sizeof(line), f)) {
		char *p = line;

		line[strcspn(line, "\n")] = '\0';
		if (prefix) {
			if (strncmp(line, prefix, strlen(prefix)))
				continue;
			p = strchr(line, ':');
			if (!p)
				continue;
			for (p++; *p == ' ' || *p == '\t'; p++)
				;
		}
		val = nc_xstrdup(p);
	}
	fclose(f);
	return val;
}

/*
 * nc_meta_collect - fill @meta for a snapshot taken now of a module that
 * answered @info: the kernel as the module saw it, the boot command line
 * and CPU model of this machine, and the interval since the last reset.
 */
void nc_meta_collect(struct nc_meta *meta, const struct nc_info *info,
		     const char *note)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	nc_meta_free(meta);
	meta->kernel = nc_xstrdup(info->kernel);
	meta->preempt_rt = info->preempt_rt;
	meta->threadirqs = info->threadirqs;
	meta->cmdline = nc_read_line("/proc/cmdline", NULL);
	if (!meta->cmdline)
		meta->cmdline = nc_xstrdup("");
	meta->cpu_model = nc_read_line("/proc/cpuinfo", "model name");
	if (!meta->cpu_model)
		meta->cpu_model = nc_xstrdup("unknown");
	meta->tsc_khz = info->tsc_khz;
	meta->nr_cpus = info->nr_cpus;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	meta->taken_at = nc_xstrdup(when);
	meta->interval_ns = info->now_ns > info->reset_ns ? info->now_ns - info->reset_ns : 0;
	meta->probe_cost = info->probe_cost;
	meta->note = nc_xstrdup(note);
	meta->path_config = nc_pathcfg_collect("/sys", "/proc",
					       nc_preempt_model(info->preempt_rt, info->threadirqs));
}
