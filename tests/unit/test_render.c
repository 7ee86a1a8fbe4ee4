// SPDX-License-Identifier: GPL-2.0
/*
 * test_render.c - what "netcost plot" and "netcost export" write: the SVG
 * renders to a non-empty PNG with rsvg-convert (librsvg2-bin) and carries
 * its titles, axis labels and legend, and the NAPI panel when a snapshot
 * has instances; the Prometheus text has HELP/TYPE lines, cumulative
 * buckets ending in +Inf equal to _count, the NAPI instances' counters,
 * and every series once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <jansson.h>

#include "snapshot.h"
#include "synth.h"
#include <cmocka.h>

#define C	TEST_DIR "/corpus/"
#define O	TEST_OUT "/"

/* slurp - a whole file as a string */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

/* load - snapshot @path as a model (nc_model_free() and free() it) */
static struct nc_model *load(const char *path)
{
	struct nc_model *m = calloc(1, sizeof(*m));

	assert_non_null(m);
	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, path), 0);
	return m;
}

/* plot - "netcost plot @args -o @svg": the SVG's text */
static char *plot(const char *args, const char *svg)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s plot %s -o %s", NETCOST_BIN, args, svg);
	assert_int_equal(system(cmd), 0);
	return slurp(svg);
}

static void render(const char *args, const char *svg, const char *png)
{
	char cmd[1024];
	unsigned char magic[8];
	struct stat st;
	char *text;
	FILE *f;

	text = plot(args, svg);
	assert_non_null(strstr(text, "<svg"));
	assert_non_null(strstr(text, "netcost: where a packet"));
	assert_non_null(strstr(text, "cycles per packet"));		/* axis label */
	assert_non_null(strstr(text, "share of events"));
	assert_non_null(strstr(text, "syscall_rx"));			/* legend */
	free(text);
	if (system("command -v rsvg-convert >/dev/null 2>&1")) {
		print_message("rsvg-convert missing (apt-get install librsvg2-bin): not rendered\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "rsvg-convert %s -o %s", svg, png);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(stat(png, &st), 0);
	assert_true(st.st_size > 20000);	/* a picture, not an empty page */
	f = fopen(png, "rb");
	assert_non_null(f);
	assert_int_equal(fread(magic, 1, 8, f), 8);
	fclose(f);
	assert_memory_equal(magic, "\x89PNG\r\n\x1a\n", 8);
}

/* texts - the content of every <text> element of @svg, one per line */
static char *texts(const char *svg)
{
	char *out = calloc(1, strlen(svg) + 2), *o = out;
	const char *p = svg;

	while ((p = strstr(p, "<text"))) {
		const char *a = strchr(p, '>'), *b = strstr(p, "</text>");

		if (!a || !b)
			break;
		memcpy(o, a + 1, (size_t)(b - a - 1));
		o += b - a - 1;
		*o++ = '\n';
		p = b;
	}
	return out;
}

/* png_size - width and height from a PNG's IHDR */
static void png_size(const char *path, unsigned int *w, unsigned int *h)
{
	unsigned char hdr[24];
	FILE *f = fopen(path, "rb");

	assert_non_null(f);
	assert_int_equal(fread(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	fclose(f);
	*w = (unsigned int)hdr[16] << 24 | hdr[17] << 16 | hdr[18] << 8 | hdr[19];
	*h = (unsigned int)hdr[20] << 24 | hdr[21] << 16 | hdr[22] << 8 | hdr[23];
}

/*
 * issue 11, the plot: the text layer names every stage with events (a
 * panel title each), every panel has at least 3 labelled x ticks and a y
 * scale in %, subtitles give base names, each top-level stage has its own
 * colour and its figures in the legend, and the SVG renders to a PNG of
 * the size it declares.
 */
static void test_plot_text_layer(void **state)
{
	static const char *const stages[] = {
		"hardirq", "hardirq_other", "softirq_net_rx", "softirq_other", "napi_poll",
		"napi_poll_work", "rx_skb", "ctx_switch", "wakeup_latency", "syscall_rx",
		"irq_thread",
	};
	char cmd[1024], *svg, *txt, *p, line[160];
	unsigned int i, w, h, svg_h = 0;
	int panels = 0;

	(void)state;
	render(C "stock.json " C "rt.json", O "layer.svg", O "layer.png");
	svg = slurp(O "layer.svg");
	txt = texts(svg);
	for (i = 0; i < sizeof(stages) / sizeof(stages[0]); i++) {
		snprintf(line, sizeof(line), "\n%s\n", stages[i]);
		if (!strstr(txt, line))
			fail_msg("no panel title '%s' in the text layer", stages[i]);
	}
	/* base names, not the corpus path */
	assert_non_null(strstr(txt, "A = stock.json: "));
	assert_non_null(strstr(txt, "B = rt.json: "));
	assert_null(strstr(txt, "/corpus/"));
	/* figures of every top-level stage in the legend, narrow ones too */
	assert_non_null(strstr(txt, "hardirq: A "));
	assert_non_null(strstr(txt, "irq_thread: A -, B "));
	/* each panel: >= 3 x tick labels, >= 2 y tick labels in % */
	for (p = svg; (p = strstr(p, "<g class=\"panel\">")); panels++) {
		char *end = strstr(p, "</g>"), *q;
		int xt = 0, yt = 0;

		assert_non_null(end);
		for (q = p; (q = strstr(q, "class=\"tick xt\"")) && q < end; q++)
			xt++;
		for (q = p; (q = strstr(q, "class=\"tick yt\"")) && q < end; q++)
			yt++;
		if (xt < 3 || yt < 2)
			fail_msg("panel %d: %d x ticks, %d y ticks", panels, xt, yt);
		p = end;
	}
	assert_int_equal(panels, sizeof(stages) / sizeof(stages[0]));
	assert_non_null(strstr(txt, "share of events, % per bucket"));
	/* hardirq and ctx_switch are no longer two near-identical blues */
	assert_null(strstr(svg, "#4e79a7"));
	assert_null(strstr(svg, "#1f77b4"));
	p = strstr(svg, "height=\"");
	assert_non_null(p);
	svg_h = (unsigned int)atoi(p + 8);
	free(txt);
	free(svg);
	if (system("command -v rsvg-convert >/dev/null 2>&1"))
		skip();
	png_size(O "layer.png", &w, &h);
	assert_int_equal(w, 1000);
	assert_int_equal(h, svg_h);
	assert_true(h > 800);
	(void)cmd;
}

static void test_plot_one(void **state)
{
	(void)state;
	render(C "stock.json", O "one.svg", O "one.png");
}

static void test_plot_two(void **state)
{
	(void)state;
	render(C "stock.json " C "rt.json", O "two.svg", O "two.png");
}

/* rsvg - whether rsvg-convert reads @svg (true without rsvg-convert: not checked) */
static bool rsvg(const char *svg)
{
	char cmd[1024];

	if (system("command -v rsvg-convert >/dev/null 2>&1")) {
		print_message("rsvg-convert missing (apt-get install librsvg2-bin): %s not rendered\n",
			      svg);
		return true;
	}
	snprintf(cmd, sizeof(cmd), "rsvg-convert '%s' >/dev/null", svg);
	return !system(cmd);
}

/*
 * The NAPI panel: a plot of a snapshot with NAPI instances ends with
 * "napi_poll cycles per poll by device", a bar label per device and the
 * figures at the bars (eth0: 48,100,000 cycles over 3,700 timed polls);
 * with one side without instances still, with none not at all; device
 * names are XML-escaped.
 */
static void test_plot_napi(void **state)
{
	static const struct {
		const char *args, *svg;
		bool panel;
	} plots[] = {
		{ C "napi.json", O "napi.svg", true },
		{ C "stock.json " C "napi.json", O "napi-ab.svg", true },	/* B's alone */
		{ C "stock.json " C "rt.json", O "no-napi.svg", false },
	};
	static const char *const title = "\nnapi_poll cycles per poll by device\n";
	struct nc_model *m = load(C "stock.json");
	char *svg, *txt;
	unsigned int i;
	json_t *root, *cpu0;

	(void)state;
	assert_int_equal(m->total.nr_napi, 0);		/* the plot without instances */
	nc_model_free(m);
	free(m);
	for (i = 0; i < sizeof(plots) / sizeof(plots[0]); i++) {
		svg = plot(plots[i].args, plots[i].svg);
		txt = texts(svg);
		if (plots[i].panel) {
			assert_non_null(strstr(txt, title));
			assert_non_null(strstr(txt, "\neth0\n"));
			assert_non_null(strstr(txt, "\nbacklog\n"));
			assert_non_null(strstr(txt, "\n13000\n"));
			assert_non_null(strstr(svg, "<g class=\"napi\">"));
		} else {
			assert_null(strstr(txt, title));
			assert_null(strstr(svg, "napi_poll cycles per poll"));
		}
		assert_true(rsvg(plots[i].svg));
		free(txt);
		free(svg);
	}

	/* a device name with XML's specials */
	root = json_load_file(C "napi.json", 0, NULL);
	assert_non_null(root);
	cpu0 = json_array_get(json_object_get(root, "cpus"), 0);
	json_object_set_new(json_array_get(json_object_get(cpu0, "napi"), 0), "device",
			    json_string("e<&>\"0"));
	assert_int_equal(json_dump_file(root, O "napi-xml.json", JSON_INDENT(1)), 0);
	json_decref(root);
	svg = plot(O "napi-xml.json", O "napi-xml.svg");
	assert_non_null(strstr(svg, ">e&lt;&amp;&gt;&quot;0</text>"));
	assert_null(strstr(svg, "e<&>"));
	assert_true(rsvg(O "napi-xml.svg"));
	free(svg);
}

/* every histogram series: le cumulative, +Inf == _count */
/* count_series - lines of @path that are samples (not # comments) */
static int count_series(const char *path, const char *needle)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && (!needle || strstr(line, needle)))
			n++;
	fclose(f);
	return n;
}

/*
 * sample_where - the sum of the sample lines starting with @series in
 * @path that also hold @labels (NULL: any)
 */
static unsigned long long sample_where(const char *path, const char *series,
				       const char *labels)
{
	char line[512];
	FILE *f = fopen(path, "r");
	unsigned long long v = 0, sum = 0;
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, series, strlen(series)) && (!labels || strstr(line, labels)) &&
		    sscanf(strrchr(line, ' ') + 1, "%llu", &v) == 1) {
			sum += v;
			n++;
		}
	fclose(f);
	if (!n)
		fail_msg("%s: no sample %s%s", path, series, labels ? labels : "");
	return sum;
}

/* sample - the value of the sample line starting with @series in @path */
static unsigned long long sample(const char *path, const char *series)
{
	return sample_where(path, series, NULL);
}

/*
 * unique_series - the number of samples in @path, failing on a series
 * (name and labels) or a HELP or TYPE line that stands twice: Prometheus
 * rejects such an exposition whole
 */
static int unique_series(const char *path)
{
	json_t *seen = json_object();
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *end = line[0] == '#' ? strchr(line, '\n') : strrchr(line, ' ');

		assert_non_null(end);
		*end = '\0';
		if (json_object_get(seen, line))
			fail_msg("%s: twice: %s", path, line);
		json_object_set_new(seen, line, json_true());
		n += line[0] != '#';
	}
	fclose(f);
	json_decref(seen);
	return n;
}

/*
 * series_of - the samples the export of @m holds, counted in the model:
 * info, interval, TSC rate and config sample; 42 a stage's histogram and one a counter,
 * of the total and (@per_cpu) of each CPU; 4 counters and an info a NAPI
 * instance of the total, 4 counters one of a CPU
 */
static int series_of(const struct nc_model *m, bool per_cpu)
{
	int n = 4 + 5 * (int)m->total.nr_napi;
	unsigned int i, s;

	for (i = 0; i <= (per_cpu ? m->nr_cpus : 0); i++) {
		const struct nc_cpu *c = i ? &m->cpus[i - 1] : &m->total;

		for (s = 0; s < m->nr_stages; s++)
			if (c->stage[s] && m->stage[s].unit <= NETCOST_UNIT_PACKETS)
				n += 42;
		for (s = 0; s < m->nr_counters; s++)
			n += c->has_counter[s];
		if (i)
			n += 4 * (int)c->nr_napi;
	}
	return n;
}

/*
 * The exposition: HELP/TYPE before each family, cumulative buckets ending
 * in +Inf == _count; by default the all-CPU aggregate only (42 series a
 * stage, one a counter, whatever the number of CPUs), with --per-cpu the
 * per-CPU families too, whose sums are the aggregates.
 */
static void test_prometheus(void **state)
{
	char cmd[1024], line[512], series[256] = "";
	unsigned long long last = 0, inf = 0;
	int nr_series = 0, nr_stages = 0, nr_counters = 0;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd), "%s export --prometheus -o " O "t.prom --snapshot " C "rt.json",
		 NETCOST_BIN);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s export --prometheus --per-cpu -o " O "t-cpu.prom --snapshot " C "rt.json",
		 NETCOST_BIN);
	assert_int_equal(system(cmd), 0);
	f = fopen(O "t.prom", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *le = strstr(line, ",le=\"");
		unsigned long long v;

		if (line[0] == '#') {
			assert_true(!strncmp(line, "# HELP netcost_", 15) ||
				    !strncmp(line, "# TYPE netcost_", 15));
			continue;
		}
		assert_true(!strncmp(line, "netcost_", 8));
		assert_null(strstr(line, "cpu=\""));
		assert_int_equal(sscanf(strrchr(line, ' ') + 1, "%llu", &v), 1);
		if (strstr(line, "_total "))
			nr_counters++;
		if (!le)
			continue;
		if (strncmp(line, series, strlen(series)) || !*series) {
			snprintf(series, sizeof(series), "%.*s", (int)(le - line), line);
			last = 0;
			nr_series++;
		}
		assert_true(v >= last);		/* cumulative */
		last = v;
		if (strstr(le, "\"+Inf\""))
			inf = v;
	}
	fclose(f);
	nr_stages = count_series(O "t.prom", "_count{stage=");
	assert_int_equal(nr_series, nr_stages);
	assert_true(nr_stages >= 10);
	assert_true(nr_counters >= 17);
	/* 40 buckets + _sum + _count a stage, a counter each, info/interval/TSC/sample */
	assert_int_equal(count_series(O "t.prom", NULL), 42 * nr_stages + nr_counters + 4);
	assert_int_equal(sample(O "t.prom", "netcost_config_sample"), 1);
	assert_true(inf > 0);

	/* the per-CPU series add up to the aggregates */
	assert_int_equal(sample(O "t-cpu.prom", "netcost_stage_cycles_count{stage=\"hardirq\"}"),
			 sample(O "t.prom", "netcost_stage_cycles_count{stage=\"hardirq\"}"));
	assert_int_equal(sample(O "t-cpu.prom", "netcost_cpu_stage_cycles_count{cpu=\"0\",stage=\"hardirq\"}") +
			 sample(O "t-cpu.prom", "netcost_cpu_stage_cycles_count{cpu=\"1\",stage=\"hardirq\"}"),
			 sample(O "t.prom", "netcost_stage_cycles_count{stage=\"hardirq\"}"));
	assert_int_equal(sample(O "t-cpu.prom", "netcost_cpu_rx_packets_total{cpu="),
			 sample(O "t.prom", "netcost_rx_packets_total "));
	assert_int_equal(sample(O "t.prom", "netcost_stage_cycles_bucket{stage=\"hardirq\",le=\"+Inf\"}"),
			 sample(O "t.prom", "netcost_stage_cycles_count{stage=\"hardirq\"}"));
	/* 2 CPUs: the per-CPU families double the stage series */
	assert_int_equal(count_series(O "t-cpu.prom", "netcost_cpu_stage_cycles_count{"),
			 2 * count_series(O "t.prom", "netcost_stage_cycles_count{"));
	/* as many series as the model has, each once */
	{
		struct nc_model *m = load(C "rt.json");

		assert_int_equal(unique_series(O "t.prom"), series_of(m, false));
		assert_int_equal(unique_series(O "t-cpu.prom"), series_of(m, true));
		nc_model_free(m);
		free(m);
	}
}

/* promtool - whether "promtool check metrics" accepts @path (skip without it) */
static void promtool(const char *path)
{
	char cmd[1024];

	if (system("command -v promtool >/dev/null 2>&1")) {
		print_message("promtool is missing (apt-get install prometheus): cannot check %s\n",
			      path);
		skip();
	}
	snprintf(cmd, sizeof(cmd), "promtool check metrics < '%s'", path);
	if (system(cmd))
		fail_msg("promtool check metrics rejects %s", path);
}

/* export - "netcost export --prometheus --snapshot @snap -o @out"; its status */
static int export(const char *snap, const char *out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s export --prometheus --snapshot '%s' -o '%s' 2>/dev/null",
		 NETCOST_BIN, snap, out);
	return WEXITSTATUS(system(cmd));
}

/* edit_snapshot - @from with member @key of object @where set to @val */
static void edit_snapshot(const char *from, const char *to, const char *where,
			  const char *key, json_t *val)
{
	json_t *root = json_load_file(from, 0, NULL);

	assert_non_null(root);
	if (where)
		json_object_set_new(json_object_get(root, where), key, val);
	else
		json_object_set_new(root, key, val);
	assert_int_equal(json_dump_file(root, to, JSON_INDENT(1)), 0);
	json_decref(root);
}

/*
 * issue 11, bug 6: names went into the exposition unchecked and label
 * values unescaped.  The loader refuses a stage or counter name that is
 * not [a-z][a-z0-9_]*, label values are escaped, and promtool accepts
 * every export.
 */
static void test_prometheus_names(void **state)
{
	/* (not small.json: promtool's lint objects to its "future_counter") */
	static const char *const snaps[] = { "stock.json", "rt.json" };
	json_t *cpus, *evil;
	char in[512], out[512];
	unsigned int i;

	(void)state;
	/* a kernel string with the characters the format escapes */
	edit_snapshot(C "rt.json", O "evil-kernel.json", "info", "kernel",
		      json_string("6.1 \"evil\" back\\slash"));
	assert_int_equal(export(O "evil-kernel.json", O "evil-kernel.prom"), 0);
	{
		char *text = slurp(O "evil-kernel.prom");

		assert_non_null(strstr(text, "kernel=\"6.1 \\\"evil\\\" back\\\\slash\""));
		free(text);
	}
	/* issue 22, bug 9: a newline (any control character) is refused at load */
	edit_snapshot(C "rt.json", O "evil-kernel2.json", "info", "kernel",
		      json_string("6.1\nnewline"));
	assert_int_equal(export(O "evil-kernel2.json", O "evil-kernel2.prom"), 6);

	/* a stage and a counter name that would break out of the format */
	{
		json_t *root = json_load_file(C "rt.json", 0, NULL);
		json_t *cpu0, *stages, *st;

		assert_non_null(root);
		cpus = json_object_get(root, "cpus");
		cpu0 = json_array_get(cpus, 0);
		stages = json_object_get(cpu0, "stages");
		st = json_deep_copy(json_object_get(stages, "hardirq"));
		json_object_set_new(stages, "x\"} 1\nnetcost_evil", st);
		assert_int_equal(json_dump_file(root, O "evil-stage.json", JSON_INDENT(1)), 0);
		json_object_del(stages, "x\"} 1\nnetcost_evil");
		evil = json_object_get(cpu0, "counters");
		json_object_set_new(evil, "Rx-Packets", json_integer(1));
		assert_int_equal(json_dump_file(root, O "evil-counter.json", JSON_INDENT(1)), 0);
		json_decref(root);
	}
	assert_int_equal(export(O "evil-stage.json", O "evil-stage.prom"), 6);
	assert_int_equal(export(O "evil-counter.json", O "evil-counter.prom"), 6);

	for (i = 0; i < sizeof(snaps) / sizeof(snaps[0]); i++) {
		snprintf(in, sizeof(in), C "%s", snaps[i]);
		snprintf(out, sizeof(out), O "%s.prom", snaps[i]);
		assert_int_equal(export(in, out), 0);
		promtool(out);
	}
	promtool(O "t.prom");
	promtool(O "t-cpu.prom");
	promtool(O "evil-kernel.prom");
}

/* export_cpu - "netcost export --prometheus --per-cpu --snapshot @snap -o @out"; its status */
static int export_cpu(const char *snap, const char *out)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s export --prometheus --per-cpu --snapshot '%s' -o '%s' 2>/dev/null",
		 NETCOST_BIN, snap, out);
	return WEXITSTATUS(system(cmd));
}

/*
 * napi_labels - the labels of NAPI instance @n of a total, closed: in the
 * total's series (@total) one without a device has its CPU as backlog_cpu
 */
static void napi_labels(char *buf, size_t len, const struct nc_napi *n, bool total)
{
	int k = snprintf(buf, len, "device=\"%s\",napi_id=\"%u\",ifindex=\"%u\"",
			 n->has_ifname ? n->ifname : n->id ? "-" : "backlog", n->id, n->ifindex);

	if (total && !n->has_ifname)
		k += snprintf(buf + k, len - (size_t)k, ",backlog_cpu=\"%u\"", n->backlog_cpu);
	snprintf(buf + k, len - (size_t)k, "}");
}

/*
 * napi_check - the export of @snap (@prom, and @cpu_prom with --per-cpu)
 * against the snapshot's model: each NAPI instance's polls, packets, timed
 * polls and cycles in the total, the same added up over its CPUs, its
 * info line with the IRQ and thread ("" unknown), every series once and
 * as many as the model has.  Returns how many instances.
 */
static unsigned int napi_check(const char *snap, const char *prom, const char *cpu_prom)
{
	static const char *const fig[] = { "polls", "packets", "timed_polls", "poll_cycles" };
	struct nc_model *m = load(snap);
	unsigned int i, k, nr = m->total.nr_napi;
	char *text, *cpu_text, head[128];

	assert_int_equal(export(snap, prom), 0);
	assert_int_equal(export_cpu(snap, cpu_prom), 0);
	text = slurp(prom);
	cpu_text = slurp(cpu_prom);
	/* a HELP and TYPE a family (unique_series() below: once) */
	for (k = 0; k < 4 && nr; k++) {
		snprintf(head, sizeof(head), "# TYPE netcost_napi_%s_total counter\n", fig[k]);
		assert_non_null(strstr(text, head));
		snprintf(head, sizeof(head), "# TYPE netcost_cpu_napi_%s_total counter\n", fig[k]);
		assert_non_null(strstr(cpu_text, head));
	}
	if (nr)
		assert_non_null(strstr(text, "# TYPE netcost_napi_info gauge\n"));
	for (i = 0; i < nr; i++) {
		const struct nc_napi *n = &m->total.napi[i];
		const uint64_t want[] = { n->polls, n->packets, n->timed_polls, n->cycles };
		char labels[256], cpu_labels[256], series[128], info[512];

		napi_labels(labels, sizeof(labels), n, true);
		napi_labels(cpu_labels, sizeof(cpu_labels), n, false);
		for (k = 0; k < 4; k++) {
			snprintf(series, sizeof(series), "netcost_napi_%s_total{", fig[k]);
			assert_int_equal(sample_where(prom, series, labels), want[k]);
			assert_int_equal(sample_where(cpu_prom, series, labels), want[k]);
			/* the CPUs' add up to the total's; one without a device is its CPU's */
			if (n->has_ifname)
				snprintf(series, sizeof(series), "netcost_cpu_napi_%s_total{cpu=", fig[k]);
			else
				snprintf(series, sizeof(series), "netcost_cpu_napi_%s_total{cpu=\"%u\",",
					 fig[k], n->backlog_cpu);
			assert_int_equal(sample_where(cpu_prom, series, cpu_labels), want[k]);
		}
		snprintf(info, sizeof(info), "netcost_napi_info{%.*s,irq=\"", (int)strlen(labels) - 1,
			 labels);
		if (n->has_irq)
			snprintf(info + strlen(info), sizeof(info) - strlen(info), "%u", n->irq);
		strcat(info, "\",thread_pid=\"");
		if (n->has_thread_pid)
			snprintf(info + strlen(info), sizeof(info) - strlen(info), "%u", n->thread_pid);
		strcat(info, "\"} 1\n");
		if (!strstr(text, info))
			fail_msg("%s: no line %s", prom, info);
	}
	assert_int_equal(unique_series(prom), series_of(m, false));
	assert_int_equal(unique_series(cpu_prom), series_of(m, true));
	free(text);
	free(cpu_text);
	nc_model_free(m);
	free(m);
	return nr;
}

/*
 * The NAPI instances in the export: per instance of the total
 * netcost_napi_{polls,packets,timed_polls,poll_cycles}_total and
 * netcost_napi_info, with --per-cpu the counters per CPU, adding up to the
 * total's; every series unique (two CPUs' backlogs by backlog_cpu); a
 * counter or a device that would make a series twice is refused.
 */
static void test_prometheus_napi(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	json_t *root, *cpu0;

	(void)state;
	/* the corpus: eth0's instance as the snapshot has it */
	assert_int_equal(napi_check(C "napi.json", O "napi.prom", O "napi-cpu.prom"), 3);
	assert_int_equal(sample(O "napi.prom",
				"netcost_napi_polls_total{device=\"eth0\",napi_id=\"8193\",ifindex=\"2\"}"),
			 3700);
	assert_int_equal(sample(O "napi.prom",
				"netcost_napi_poll_cycles_total{device=\"eth0\",napi_id=\"8193\",ifindex=\"2\"}"),
			 48100000);
	assert_int_equal(sample(O "napi-cpu.prom",
				"netcost_cpu_napi_packets_total{cpu=\"0\",device=\"eth0\",napi_id=\"8193\",ifindex=\"2\"}"),
			 37000);

	/* two CPUs: eth0's first queue polled on both, a backlog each */
	nc_model_init(m);
	synth_model(m, false, true);
	synth_napis(m);
	assert_int_equal(nc_snapshot_save(m, O "napi2.json"), 0);
	nc_model_free(m);
	assert_int_equal(napi_check(O "napi2.json", O "napi2.prom", O "napi2-cpu.prom"), 6);
	assert_int_equal(sample_where(O "napi2-cpu.prom", "netcost_cpu_napi_polls_total{",
				      "device=\"eth0\",napi_id=\"8193\",ifindex=\"2\"}"), 37600);
	assert_int_equal(sample(O "napi2.prom",
				"netcost_napi_polls_total{device=\"backlog\",napi_id=\"0\",ifindex=\"0\",backlog_cpu=\"1\"}"),
			 1);
	promtool(O "napi2.prom");
	promtool(O "napi2-cpu.prom");

	/* a counter named as a NAPI family: one metric twice */
	root = json_load_file(C "napi.json", 0, NULL);
	assert_non_null(root);
	cpu0 = json_array_get(json_object_get(root, "cpus"), 0);
	json_object_set_new(json_object_get(cpu0, "counters"), "napi_polls", json_integer(1));
	assert_int_equal(json_dump_file(root, O "napi-ctr.json", JSON_INDENT(1)), 0);
	assert_int_equal(export(O "napi-ctr.json", O "napi-ctr.prom"), 1);
	json_object_del(json_object_get(cpu0, "counters"), "napi_polls");
	/* a device named "backlog" with a backlog's id and ifindex: per CPU, one series twice */
	json_array_append_new(json_object_get(cpu0, "napi"),
			      json_pack("{s:i, s:s, s:i, s:n, s:n, s:i, s:i, s:i, s:i}", "id", 0,
					"device", "backlog", "ifindex", 0, "irq", "thread_pid",
					"polls", 1, "packets", 1, "timed_polls", 0, "cycles", 0));
	assert_int_equal(json_dump_file(root, O "napi-dev.json", JSON_INDENT(1)), 0);
	json_decref(root);
	assert_int_equal(export(O "napi-dev.json", O "napi-dev.prom"), 0);
	assert_int_equal(unique_series(O "napi-dev.prom"), count_series(O "napi-dev.prom", NULL));
	assert_int_equal(export_cpu(O "napi-dev.json", O "napi-dev-cpu.prom"), 1);
	free(m);
}

/* exprs - every "expr" string under @j, appended to @out */
static void exprs(json_t *j, json_t *out)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v) {
			if (!strcmp(key, "expr") && json_is_string(v))
				json_array_append(out, v);
			else
				exprs(v, out);
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			exprs(v, out);
	}
}

/* subst - @s with Grafana's variables replaced by what Prometheus parses */
static char *subst(const char *s)
{
	static const char *const from[] = { "$__rate_interval", "$instance", "$stage" };
	static const char *const to[] = { "5m", ".*", ".*" };
	char *out = calloc(1, strlen(s) * 2 + 1), *o = out;
	unsigned int k;

	while (*s) {
		for (k = 0; k < 3; k++)
			if (!strncmp(s, from[k], strlen(from[k])))
				break;
		if (k < 3) {
			o += sprintf(o, "%s", to[k]);
			s += strlen(from[k]);
		} else {
			*o++ = *s++;
		}
	}
	return out;
}

/*
 * The Grafana dashboard (issue 11): every PromQL expression in it parses
 * (promtool check rules) and names only series "netcost export" writes,
 * from a model that has every stage and counter the module knows; it
 * shows cycles per packet, p50 and p99 by histogram_quantile, NET_RX
 * placement, and stock against RT by the kernel/preempt labels.
 */
static void test_grafana(void **state)
{
	json_t *dash, *all = json_array(), *v;
	struct nc_model *m = calloc(1, sizeof(*m));
	char *prom, rule[64], cmd[1024];
	unsigned int c, cpu;
	bool p50 = false, p99 = false, placement = false, preempt = false;
	size_t i;
	FILE *rules;

	(void)state;
	dash = json_load_file(TEST_DIR "/../../Documentation/grafana/netcost.json", 0, NULL);
	assert_non_null(dash);
	exprs(dash, all);
	assert_true(json_array_size(all) >= 8);

	/* the export of a model with every counter the module sends */
	nc_model_init(m);
	synth_model(m, true, true);
	for (cpu = 0; cpu < 2; cpu++)
		for (c = 0; c < sizeof(netcost_counter_names) / sizeof(netcost_counter_names[0]); c++)
			if (!m->cpus[cpu].has_counter[nc_model_counter(m, netcost_counter_names[c])])
				synth_counter(m, cpu, netcost_counter_names[c], 0);
	nc_model_sum_total(m, NULL);
	assert_int_equal(nc_snapshot_save(m, O "grafana.json"), 0);
	nc_model_free(m);
	free(m);
	assert_int_equal(export(O "grafana.json", O "grafana.prom"), 0);
	prom = slurp(O "grafana.prom");

	rules = fopen(O "grafana-rules.yml", "w");
	assert_non_null(rules);
	fputs("groups:\n  - name: netcost-dashboard\n    rules:\n", rules);
	json_array_foreach(all, i, v) {
		const char *e = json_string_value(v), *p;
		char *x = subst(e);

		p50 = p50 || strstr(e, "histogram_quantile(0.5,");
		p99 = p99 || strstr(e, "histogram_quantile(0.99,");
		placement = placement || strstr(e, "netcost_net_rx_in_");
		preempt = preempt || (strstr(e, "netcost_info") && strstr(e, "preempt"));
		for (p = e; (p = strstr(p, "netcost_")); ) {
			char name[128], want[140];
			size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");

			snprintf(name, sizeof(name), "%.*s", (int)n, p);
			p += n;
			snprintf(want, sizeof(want), "\n%s{", name);
			if (strstr(prom, want))
				continue;
			snprintf(want, sizeof(want), "\n%s ", name);
			if (!strstr(prom, want))
				fail_msg("the dashboard queries %s, which the export does not write: %s",
					 name, e);
		}
		snprintf(rule, sizeof(rule), "netcost:dashboard_%zu", i);
		fprintf(rules, "      - record: %s\n        expr: |\n          %s\n", rule, x);
		free(x);
	}
	fclose(rules);
	assert_true(p50 && p99 && placement && preempt);
	free(prom);
	json_decref(all);
	json_decref(dash);
	if (system("command -v promtool >/dev/null 2>&1")) {
		print_message("promtool is missing: the PromQL syntax is not checked\n");
		skip();
	}
	snprintf(cmd, sizeof(cmd), "promtool check rules " O "grafana-rules.yml >/dev/null");
	if (system(cmd))
		fail_msg("promtool check rules rejects the dashboard's expressions (" O "grafana-rules.yml)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot_one),
		cmocka_unit_test(test_plot_two),
		cmocka_unit_test(test_plot_text_layer),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_prometheus_names),
		cmocka_unit_test(test_prometheus_napi),
		cmocka_unit_test(test_plot_napi),
		cmocka_unit_test(test_grafana),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
