// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - "netcost export --prometheus [--per-cpu] [--snapshot FILE]
 * [-o FILE]": the statistics in the Prometheus text format, for
 * node_exporter's textfile collector.  By default the aggregate over all
 * CPUs, in one unit: per stage a histogram in cycles (napi_poll_work in
 * packets) with the same power-of-two "le" bounds in every series, each
 * counter as netcost_<counter>_total; --per-cpu adds the same per CPU as
 * netcost_cpu_*{cpu}.  Seconds are cycles / netcost_tsc_hertz.  The output
 * (-o, default stdout) is written with nc_write_atomic().
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

/*
 * nc_prom_series - 'METRIC_SUFFIX{[cpu="N",]stage="S"' (escaped), left
 * open for more labels; @cpu < 0: the aggregate over CPUs, no cpu label
 */
static void nc_prom_series(FILE *f, const char *metric, const char *suffix,
			   long cpu, const char *stage)
{
	fprintf(f, "%s%s{", metric, suffix);
	if (cpu >= 0)
		fprintf(f, "cpu=\"%ld\",", cpu);
	fputs("stage=\"", f);
	nc_prom_label(f, stage);
	fputc('"', f);
}

/*
 * nc_prom_hist - one histogram series: cumulative buckets at 2^k - 1 for
 * k = SUB_BITS .. MAX_BITS (the group edges, so the counts are exact),
 * then +Inf, _sum and _count, in the stage's unit (cycles or packets).
 */
static void nc_prom_hist(FILE *f, const char *metric, long cpu, const char *stage,
			 const struct nc_hist *h)
{
	uint64_t acc = 0;
	unsigned int i = 0, k;

	for (k = NETCOST_HIST_SUB_BITS; k <= NETCOST_HIST_MAX_BITS; k++) {
		uint64_t le = ((uint64_t)1 << k) - 1;

		for (; i < NETCOST_HIST_OVERFLOW && netcost_hist_hi(i) <= le; i++)
			acc += h->buckets[i];
		nc_prom_series(f, metric, "_bucket", cpu, stage);
		fprintf(f, ",le=\"%llu\"} %llu\n", (unsigned long long)le,
			(unsigned long long)acc);
	}
	acc = nc_hist_bucket_total(h);
	nc_prom_series(f, metric, "_bucket", cpu, stage);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)acc);
	nc_prom_series(f, metric, "_sum", cpu, stage);
	fprintf(f, "} %llu\n", (unsigned long long)h->sum);
	nc_prom_series(f, metric, "_count", cpu, stage);
	fprintf(f, "} %llu\n", (unsigned long long)acc);
}

/*
 * nc_prom_family - the histograms of the stages in @unit as @metric: of
 * the total over CPUs, or (@per_cpu) of every CPU with a cpu label
 */
static void nc_prom_family(FILE *f, const struct nc_model *m, const char *metric,
			   uint8_t unit, bool per_cpu, const char *help)
{
	unsigned int i, s;
	bool head = false;

	for (i = 0; i < (per_cpu ? m->nr_cpus : 1); i++) {
		const struct nc_cpu *c = per_cpu ? &m->cpus[i] : &m->total;

		for (s = 0; s < m->nr_stages; s++) {
			if (!c->stage[s] || m->stage[s].unit != unit)
				continue;
			if (!head) {
				fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", metric, help, metric);
				head = true;
			}
			nc_prom_hist(f, metric, per_cpu ? (long)c->cpu : -1, m->stage[s].name,
				     c->stage[s]);
		}
	}
}

/* nc_prom_counters - each counter as PREFIX<name>_total, summed or per CPU */
static void nc_prom_counters(FILE *f, const struct nc_model *m, bool per_cpu)
{
	const char *prefix = per_cpu ? "netcost_cpu_" : "netcost_";
	unsigned int i, c;

	for (c = 0; c < m->nr_counters; c++) {
		bool head = false;

		for (i = 0; i < (per_cpu ? m->nr_cpus : 1); i++) {
			const struct nc_cpu *cpu = per_cpu ? &m->cpus[i] : &m->total;

			if (!cpu->has_counter[c])
				continue;
			if (!head) {
				fprintf(f, "# HELP %s%s_total netcost counter %s%s.\n"
					"# TYPE %s%s_total counter\n", prefix, m->counter[c],
					m->counter[c], per_cpu ? ", per CPU" : ", all CPUs",
					prefix, m->counter[c]);
				head = true;
			}
			if (per_cpu)
				fprintf(f, "%s%s_total{cpu=\"%u\"} %llu\n", prefix, m->counter[c],
					cpu->cpu, (unsigned long long)cpu->counter[c]);
			else
				fprintf(f, "%s%s_total %llu\n", prefix, m->counter[c],
					(unsigned long long)cpu->counter[c]);
		}
	}
}

/*
 * nc_prom_collision - with --per-cpu, counter "cpu_X" (netcost_cpu_X_total)
 * and counter X per CPU (netcost_cpu_X_total{cpu}) would be one metric
 * twice, which Prometheus rejects: refuse, naming both.  Returns 0 or 1.
 */
static int nc_prom_collision(const struct nc_model *m, bool per_cpu)
{
	unsigned int a, b;

	if (!per_cpu)
		return 0;
	for (a = 0; a < m->nr_counters; a++) {
		if (strncmp(m->counter[a], "cpu_", 4))
			continue;
		for (b = 0; b < m->nr_counters; b++)
			if (!strcmp(m->counter[a] + 4, m->counter[b])) {
				nc_err("export: counter %s and counter %s per CPU would both be netcost_%s_total; export without --per-cpu",
				       m->counter[a], m->counter[b], m->counter[a]);
				return NC_EXIT_ERROR;
			}
	}
	return 0;
}

struct nc_prom_args {
	const struct nc_model *m;
	bool per_cpu;
};

/*
 * nc_prom_write - the whole exposition: info, interval and TSC rate, then
 * the all-CPU histograms (cycles; napi_poll_work in packets) and counters,
 * and with --per-cpu the same per CPU as netcost_cpu_*.
 */
static void nc_prom_write(FILE *f, const struct nc_model *m, bool per_cpu)
{
	const struct nc_info *info = &m->info;

	fprintf(f, "# HELP netcost_info The netcost module and the kernel it measures.\n"
		"# TYPE netcost_info gauge\nnetcost_info{version=\"");
	nc_prom_label(f, info->version);
	fprintf(f, "\",kernel=\"");
	nc_prom_label(f, info->kernel);
	fprintf(f, "\",preempt=\"%s\"} 1\n", nc_preempt_model(info->preempt_rt, info->threadirqs));
	fprintf(f, "# HELP netcost_interval_seconds Time the statistics cover (since the last reset).\n"
		"# TYPE netcost_interval_seconds gauge\nnetcost_interval_seconds %.9g\n",
		nc_interval_s(m));
	fprintf(f, "# HELP netcost_tsc_hertz Rate of the cycle counter (cycles / this = seconds).\n"
		"# TYPE netcost_tsc_hertz gauge\nnetcost_tsc_hertz %llu\n",
		(unsigned long long)info->tsc_khz * 1000);

	nc_prom_family(f, m, "netcost_stage_cycles", NETCOST_UNIT_CYCLES, false,
		       "CPU cycles of one event of a packet-path stage, all CPUs.");
	nc_prom_family(f, m, "netcost_stage_packets", NETCOST_UNIT_PACKETS, false,
		       "Packets handled by one event of a stage (NAPI poll work), all CPUs.");
	nc_prom_counters(f, m, false);
	if (!per_cpu)
		return;
	nc_prom_family(f, m, "netcost_cpu_stage_cycles", NETCOST_UNIT_CYCLES, true,
		       "CPU cycles of one event of a packet-path stage, per CPU.");
	nc_prom_family(f, m, "netcost_cpu_stage_packets", NETCOST_UNIT_PACKETS, true,
		       "Packets handled by one event of a stage (NAPI poll work), per CPU.");
	nc_prom_counters(f, m, true);
}

/* nc_prom_cb - the nc_write_fn of the export */
static int nc_prom_cb(FILE *f, void *arg)
{
	const struct nc_prom_args *pa = arg;

	nc_prom_write(f, pa->m, pa->per_cpu);
	return ferror(f) ? -1 : 0;
}

/* cmd_export - "netcost export --prometheus [--snapshot FILE] [-o FILE]" */
int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "prometheus",	no_argument,		NULL, 'p' },
		{ "snapshot",	required_argument,	NULL, 's' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "per-cpu",	no_argument,		NULL, 'c' },
		{ NULL, 0, NULL, 0 }
	};
	const char *snap = NULL, *out = NULL;
	struct nc_prom_args pa = { 0 };
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
		case 'c':
			pa.per_cpu = true;
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

	ret = nc_output_check("export", out, &snap, 1, "export");
	if (ret)
		return ret;
	m = nc_xcalloc(1, sizeof(*m));
	nc_model_init(m);
	ret = snap ? nc_snapshot_load(m, snap) : nc_fetch_once(m);
	pa.m = m;
	if (!ret)
		ret = nc_prom_collision(m, pa.per_cpu);
	if (!ret)
		ret = nc_output(out ? out : "-", nc_prom_cb, &pa);
	nc_model_free(m);
	free(m);
	return ret;
}
