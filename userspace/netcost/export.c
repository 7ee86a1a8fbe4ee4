// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - "netcost export --prometheus [--snapshot FILE] [-o FILE]": the
 * statistics in the Prometheus text format, for node_exporter's textfile
 * collector.  Per CPU and stage a histogram in cycles and one in seconds
 * (packets for napi_poll_work), with the same power-of-two "le" bounds in
 * every series so that they aggregate; each counter as
 * netcost_<counter>_total{cpu}.  The output (-o, default stdout) is
 * written with nc_write_atomic().
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "metrics.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* nc_prom_label - @s with \, " and newline escaped, as a label value */
static void nc_prom_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* nc_prom_series - 'METRIC_SUFFIX{cpu="N",stage="S"' (escaped), open */
static void nc_prom_series(FILE *f, const char *metric, const char *suffix,
			   uint32_t cpu, const char *stage)
{
	fprintf(f, "%s%s{cpu=\"%u\",stage=\"", metric, suffix, cpu);
	nc_prom_label(f, stage);
	fputc('"', f);
}

/*
 * nc_prom_hist - one histogram series: cumulative buckets at 2^k - 1 for
 * k = SUB_BITS .. MAX_BITS (the group edges, so the counts are exact),
 * then +Inf, _sum and _count.  @scale turns cycles into the metric's unit
 * (1 for cycles and packets, 1/Hz for seconds).
 */
static void nc_prom_hist(FILE *f, const char *metric, uint32_t cpu, const char *stage,
			 const struct nc_hist *h, double scale)
{
	uint64_t acc = 0;
	unsigned int i = 0, k;

	for (k = NETCOST_HIST_SUB_BITS; k <= NETCOST_HIST_MAX_BITS; k++) {
		uint64_t le = ((uint64_t)1 << k) - 1;

		for (; i < NETCOST_HIST_OVERFLOW && netcost_hist_hi(i) <= le; i++)
			acc += h->buckets[i];
		nc_prom_series(f, metric, "_bucket", cpu, stage);
		fputs(",le=\"", f);
		if (scale == 1)
			fprintf(f, "%llu", (unsigned long long)le);
		else
			fprintf(f, "%.9g", (double)(le + 1) * scale);
		fprintf(f, "\"} %llu\n", (unsigned long long)acc);
	}
	acc = nc_hist_bucket_total(h);
	nc_prom_series(f, metric, "_bucket", cpu, stage);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)acc);
	nc_prom_series(f, metric, "_sum", cpu, stage);
	if (scale == 1)
		fprintf(f, "} %llu\n", (unsigned long long)h->sum);
	else
		fprintf(f, "} %.9g\n", (double)h->sum * scale);
	nc_prom_series(f, metric, "_count", cpu, stage);
	fprintf(f, "} %llu\n", (unsigned long long)acc);
}

/* nc_prom_family - every CPU's series of the stages in @unit, as @metric */
static void nc_prom_family(FILE *f, const struct nc_model *m, const char *metric,
			   uint8_t unit, double scale, const char *help)
{
	unsigned int i, s;
	bool head = false;

	for (i = 0; i < m->nr_cpus; i++) {
		for (s = 0; s < m->nr_stages; s++) {
			if (!m->cpus[i].stage[s] || m->stage[s].unit != unit)
				continue;
			if (!head) {
				fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", metric, help, metric);
				head = true;
			}
			nc_prom_hist(f, metric, m->cpus[i].cpu, m->stage[s].name,
				     m->cpus[i].stage[s], scale);
		}
	}
}

/* nc_prom_write - the whole exposition of @m on @f */
static void nc_prom_write(FILE *f, const struct nc_model *m)
{
	const struct nc_info *info = &m->info;
	unsigned int i, c;

	fprintf(f, "# HELP netcost_info The netcost module and the kernel it measures.\n"
		"# TYPE netcost_info gauge\nnetcost_info{version=\"");
	nc_prom_label(f, info->version);
	fprintf(f, "\",kernel=\"");
	nc_prom_label(f, info->kernel);
	fprintf(f, "\",preempt=\"%s\"} 1\n", nc_preempt_model(info->preempt_rt, info->threadirqs));
	fprintf(f, "# HELP netcost_interval_seconds Time the statistics cover (since the last reset).\n"
		"# TYPE netcost_interval_seconds gauge\nnetcost_interval_seconds %.9g\n",
		nc_interval_s(m));
	fprintf(f, "# HELP netcost_tsc_hertz Rate of the cycle counter.\n"
		"# TYPE netcost_tsc_hertz gauge\nnetcost_tsc_hertz %llu\n",
		(unsigned long long)info->tsc_khz * 1000);

	nc_prom_family(f, m, "netcost_stage_cycles", NETCOST_UNIT_CYCLES, 1,
		       "CPU cycles of one event of a packet-path stage.");
	if (info->tsc_khz)
		nc_prom_family(f, m, "netcost_stage_seconds", NETCOST_UNIT_CYCLES,
			       1.0 / ((double)info->tsc_khz * 1000),
			       "Time of one event of a packet-path stage (cycles / TSC rate).");
	nc_prom_family(f, m, "netcost_stage_packets", NETCOST_UNIT_PACKETS, 1,
		       "Packets handled by one event of a stage (NAPI poll work).");

	for (c = 0; c < m->nr_counters; c++) {
		bool head = false;

		for (i = 0; i < m->nr_cpus; i++) {
			if (!m->cpus[i].has_counter[c])
				continue;
			if (!head) {
				fprintf(f, "# HELP netcost_%s_total netcost counter %s.\n"
					"# TYPE netcost_%s_total counter\n",
					m->counter[c], m->counter[c], m->counter[c]);
				head = true;
			}
			fprintf(f, "netcost_%s_total{cpu=\"%u\"} %llu\n", m->counter[c],
				m->cpus[i].cpu, (unsigned long long)m->cpus[i].counter[c]);
		}
	}
}

/* nc_prom_cb - the nc_write_fn of the export */
static int nc_prom_cb(FILE *f, void *arg)
{
	nc_prom_write(f, arg);
	return ferror(f) ? -1 : 0;
}

/* cmd_export - "netcost export --prometheus [--snapshot FILE] [-o FILE]" */
int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prometheus",	no_argument,		NULL, 'p' },
		{ "snapshot",	required_argument,	NULL, 's' },
		{ "output",	required_argument,	NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	const char *snap = NULL, *out = NULL;
	bool prom = false;
	struct nc_model *m;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'p':
			prom = true;
			break;
		case 's':
			snap = optarg;
			break;
		default:
			return nc_usage_err("export: unknown option or missing argument '%s'",
					    argv[optind - 1]);
		}
	}
	if (!prom)
		return nc_usage_err("export: say which format (--prometheus)");
	if (argc > optind)
		return nc_usage_err("export: unexpected argument '%s' (the output is -o FILE, a snapshot to read --snapshot FILE)",
				    argv[optind]);

	m = nc_xcalloc(1, sizeof(*m));
	nc_model_init(m);
	ret = snap ? nc_snapshot_load(m, snap) : nc_fetch_once(m);
	if (!ret && out && nc_snapshot_file_is(out)) {
		nc_err("%s: is a netcost snapshot; refusing to overwrite it with the export", out);
		ret = NC_EXIT_ERROR;
	}
	if (!ret)
		ret = nc_output(out ? out : "-", nc_prom_cb, m);
	nc_model_free(m);
	free(m);
	return ret;
}
