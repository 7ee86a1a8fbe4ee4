// SPDX-License-Identifier: GPL-2.0
/*
 * test_render.c - what "netcost plot" and "netcost export" write: the SVG
 * renders to a non-empty PNG with rsvg-convert (librsvg2-bin) and carries
 * its titles, axis labels and legend; the Prometheus text has HELP/TYPE
 * lines and cumulative buckets ending in +Inf equal to _count.
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

static void render(const char *args, const char *svg, const char *png)
{
	char cmd[1024];
	unsigned char magic[8];
	struct stat st;
	char *text;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s plot %s -o %s", NETCOST_BIN, args, svg);
	assert_int_equal(system(cmd), 0);
	text = slurp(svg);
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

/* every histogram series: le cumulative, +Inf == _count */
static void test_prometheus(void **state)
{
	char cmd[1024], line[512], series[256] = "";
	unsigned long long last = 0, inf = 0;
	int nr_series = 0, nr_counters = 0;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd), "%s export --prometheus -o " O "t.prom --snapshot " C "rt.json",
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
		assert_int_equal(sscanf(strrchr(line, ' ') + 1, "%llu", &v), 1);
		if (strstr(line, "_total{"))
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
	assert_true(nr_series >= 2 * 10 * 2);	/* cycles and seconds, >= 10 stages, 2 CPUs */
	assert_true(nr_counters >= 17 * 2);
	/* spot check: hardirq on CPU 0, +Inf == _count */
	snprintf(cmd, sizeof(cmd),
		 "grep -q '^netcost_stage_cycles_count{cpu=\"0\",stage=\"hardirq\"} 38000$' " O "t.prom");
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd),
		 "grep -q '^netcost_stage_cycles_bucket{cpu=\"0\",stage=\"hardirq\",le=\"+Inf\"} 38000$' " O "t.prom");
	assert_int_equal(system(cmd), 0);
	assert_true(inf > 0);
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
	/* a kernel string with every character the format escapes */
	edit_snapshot(C "rt.json", O "evil-kernel.json", "info", "kernel",
		      json_string("6.1 \"evil\" back\\slash\nnewline"));
	assert_int_equal(export(O "evil-kernel.json", O "evil-kernel.prom"), 0);
	{
		char *text = slurp(O "evil-kernel.prom");

		assert_non_null(strstr(text, "kernel=\"6.1 \\\"evil\\\" back\\\\slash\\nnewline\""));
		free(text);
	}

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
	promtool(O "evil-kernel.prom");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plot_one),
		cmocka_unit_test(test_plot_two),
		cmocka_unit_test(test_prometheus),
		cmocka_unit_test(test_prometheus_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
