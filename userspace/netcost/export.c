// SPDX-License-Identifier: GPL-2.0
/*
 * export.c - "netcost export --prometheus [--per-cpu] [--snapshot FILE]
 * [-o FILE]": the statistics in the Prometheus text format, for
 * node_exporter's textfile collector.  By default the aggregate over all
 * CPUs, in one unit: per stage a histogram in cycles (napi_poll_work in
 * packets) with the same power-of-two "le" bounds in every series, each
 * counter as netcost_<counter>_total, each NAPI instance's polls, packets,
 * timed polls and their cycles as netcost_napi_*_total and its IRQ and
 * thread as netcost_napi_info; --per-cpu adds the same per CPU as
 * netcost_cpu_*{cpu}.  Seconds are cycles / netcost_tsc_hertz.  The output
 * (-o, default stdout) is written with nc_write_atomic().
 */
#include <getopt.h>
#include <stddef.h>
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

/* The figures of a NAPI instance, each a counter family netcost_[cpu_]NAME_total */
static const struct nc_prom_napi_figure {
	const char *name;
	size_t off;			/* of its uint64_t in struct nc_napi */
	const char *help;
} nc_prom_napi_figures[] = {
	{ "napi_polls", offsetof(struct nc_napi, polls), "Polls of a NAPI instance" },
	{ "napi_packets", offsetof(struct nc_napi, packets),
	  "Packets a NAPI instance's polls handled" },
	{ "napi_timed_polls", offsetof(struct nc_napi, timed_polls),
	  "Polls of a NAPI instance timed in napi_poll (NET_RX, NAPI threads; not busy polls)" },
	{ "napi_poll_cycles", offsetof(struct nc_napi, cycles),
	  "napi_poll CPU cycles of a NAPI instance's timed polls" },
};

/*
 * nc_prom_napi_labels - 'device="D",napi_id="N",ifindex="I"' of @n: its
 * device by nc_napi_device(), after 'cpu="C",' with @cpu >= 0; in the
 * total (@cpu < 0) an instance without a device is one CPU's own, and
 * that CPU is its backlog_cpu, so that no two series are the same.
 */
static void nc_prom_napi_labels(FILE *f, long cpu, const struct nc_napi *n)
{
	if (cpu >= 0)
		fprintf(f, "cpu=\"%ld\",", cpu);
	fputs("device=\"", f);
	nc_prom_label(f, nc_napi_device(n));
	fprintf(f, "\",napi_id=\"%u\",ifindex=\"%u\"", n->id, n->ifindex);
	if (cpu < 0 && !n->has_ifname)
		fprintf(f, ",backlog_cpu=\"%u\"", n->backlog_cpu);
}

/*
 * nc_prom_napi - each figure of every NAPI instance as a counter: of the
 * total's instances, or (@per_cpu) of every CPU's with a cpu label; the
 * total's also as netcost_napi_info{...,irq,thread_pid} 1 ("": unknown)
 */
static void nc_prom_napi(FILE *f, const struct nc_model *m, bool per_cpu)
{
	const char *prefix = per_cpu ? "netcost_cpu_" : "netcost_";
	unsigned int i, j, k;

	for (k = 0; k < ARRAY_SIZE(nc_prom_napi_figures); k++) {
		const struct nc_prom_napi_figure *fig = &nc_prom_napi_figures[k];
		bool head = false;

		for (i = 0; i < (per_cpu ? m->nr_cpus : 1); i++) {
			const struct nc_cpu *c = per_cpu ? &m->cpus[i] : &m->total;

			for (j = 0; j < c->nr_napi; j++) {
				if (!head) {
					fprintf(f, "# HELP %s%s_total %s%s.\n# TYPE %s%s_total counter\n",
						prefix, fig->name, fig->help,
						per_cpu ? ", per CPU" : ", all CPUs",
						prefix, fig->name);
					head = true;
				}
				fprintf(f, "%s%s_total{", prefix, fig->name);
				nc_prom_napi_labels(f, per_cpu ? (long)c->cpu : -1, &c->napi[j]);
				fprintf(f, "} %llu\n", (unsigned long long)
					*(const uint64_t *)((const char *)&c->napi[j] + fig->off));
			}
		}
	}
	if (per_cpu || !m->total.nr_napi)
		return;
	fputs("# HELP netcost_napi_info A NAPI instance's IRQ and NAPI thread (\"\": unknown or none).\n"
	      "# TYPE netcost_napi_info gauge\n", f);
	for (j = 0; j < m->total.nr_napi; j++) {
		const struct nc_napi *n = &m->total.napi[j];

		fputs("netcost_napi_info{", f);
		nc_prom_napi_labels(f, -1, n);
		fputs(",irq=\"", f);
		if (n->has_irq)
			fprintf(f, "%u", n->irq);
		fputs("\",thread_pid=\"", f);
		if (n->has_thread_pid)
			fprintf(f, "%u", n->thread_pid);
		fputs("\"} 1\n", f);
	}
}

/*
 * nc_prom_napi_collision - where NAPI instances are exported, a counter
 * named as one of their families (napi_polls: netcost_napi_polls_total;
 * with --per-cpu, cpu_napi_polls too), or, per CPU, a device named as an
 * instance without one ("backlog", "-") with its napi_id and ifindex: one
 * series twice, which Prometheus rejects.  Refuse, naming it.  Returns 0
 * or NC_EXIT_ERROR.
 */
static int nc_prom_napi_collision(const struct nc_model *m, bool per_cpu)
{
	unsigned int i, j, k;

	if (!m->total.nr_napi)
		return 0;
	for (k = 0; k < ARRAY_SIZE(nc_prom_napi_figures); k++)
		for (i = 0; i < m->nr_counters; i++) {
			const char *name = m->counter[i];

			if (per_cpu && !strncmp(name, "cpu_", 4))
				name += 4;
			if (!strcmp(name, nc_prom_napi_figures[k].name)) {
				nc_err("export: counter %s would be netcost_%s_total, a family of the NAPI instances",
				       m->counter[i], m->counter[i]);
				return NC_EXIT_ERROR;
			}
		}
	for (i = 0; per_cpu && i < m->nr_cpus; i++) {
		const struct nc_cpu *c = &m->cpus[i];

		for (j = 0; j < c->nr_napi; j++) {
			struct nc_napi key = c->napi[j];

			if (key.has_ifname)
				continue;
			snprintf(key.ifname, sizeof(key.ifname), "%s", nc_napi_device(&c->napi[j]));
			key.has_ifname = true;
			if (nc_cpu_find_napi(c, &key)) {
				nc_err("export: CPU %u has a device named %s with the napi_id %u and ifindex %u of an instance without a device: their series would be one; export without --per-cpu",
				       c->cpu, key.ifname, key.id, key.ifindex);
				return NC_EXIT_ERROR;
			}
		}
	}
	return 0;
}

/*
 * nc_prom_collision - with --per-cpu, counter "cpu_X" (netcost_cpu_X_total)
 * and counter X per CPU (netcost_cpu_X_total{cpu}) would be one metric
 * twice, which Prometheus rejects: refuse, naming both; likewise what
 * nc_prom_napi_collision() finds.  Returns 0 or 1.
 */
static int nc_prom_collision(const struct nc_model *m, bool per_cpu)
{
	unsigned int a, b;

	if (nc_prom_napi_collision(m, per_cpu))
		return NC_EXIT_ERROR;
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
 * the all-CPU histograms (cycles; napi_poll_work in packets), counters and
 * NAPI instances, and with --per-cpu the same per CPU as netcost_cpu_*.
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
	fprintf(f, "# HELP netcost_config_sample rx_skb and tx_xmit timed on 1 packet in this many (config sample); a sampled stage's events are its _count plus its counter <stage>_untimed.\n"
		"# TYPE netcost_config_sample gauge\nnetcost_config_sample %u\n",
		nc_model_sample(m));

	nc_prom_family(f, m, "netcost_stage_cycles", NETCOST_UNIT_CYCLES, false,
		       "CPU cycles of one event of a packet-path stage, all CPUs.");
	nc_prom_family(f, m, "netcost_stage_packets", NETCOST_UNIT_PACKETS, false,
		       "Packets handled by one event of a stage (NAPI poll work), all CPUs.");
	nc_prom_counters(f, m, false);
	nc_prom_napi(f, m, false);
	if (!per_cpu)
		return;
	nc_prom_family(f, m, "netcost_cpu_stage_cycles", NETCOST_UNIT_CYCLES, true,
		       "CPU cycles of one event of a packet-path stage, per CPU.");
	nc_prom_family(f, m, "netcost_cpu_stage_packets", NETCOST_UNIT_PACKETS, true,
		       "Packets handled by one event of a stage (NAPI poll work), per CPU.");
	nc_prom_counters(f, m, true);
	nc_prom_napi(f, m, true);
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
