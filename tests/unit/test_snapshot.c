// SPDX-License-Identifier: GPL-2.0
/*
 * test_snapshot.c - "netcost save" -> "netcost show" prints exactly what
 * "netcost dump" printed (text and JSON, with every dump option), unknown
 * stages and counters survive the trip, the loader rejects each kind of
 * bad file with NC_EXIT_SNAPSHOT and a message naming the place, and a
 * u64 past 2^63 - 1 is written as 2^63 - 1, never negative.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "report.h"
#include "snapshot.h"
#include "synth.h"

/* report - what nc_report_print() prints for @m with @o, as a string */
static char *report(struct nc_model *m, const struct nc_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(nc_report_print(f, m, o), 0);
	fclose(f);
	return buf;
}

/* write_file - @text into TEST_OUT/@name; returns the path (static) */
static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", TEST_OUT, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

/* the same model printed directly ("dump") and through a file ("show") */
static void check_round_trip(bool rt, const struct nc_report_opts *o)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char path[512];
	char *ta, *tb;

	snprintf(path, sizeof(path), "%s/round-trip.json", TEST_OUT);
	nc_model_init(a);
	synth_model(a, rt, true);
	assert_int_equal(nc_snapshot_save(a, path), 0);
	ta = report(a, o);

	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, path), 0);
	tb = report(b, o);
	assert_string_equal(ta, tb);
	assert_true(strlen(ta) > 500);
	free(ta);
	free(tb);
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
}

static void test_round_trip_text(void **state)
{
	struct nc_report_opts o = { 0 };

	(void)state;
	check_round_trip(false, &o);
	check_round_trip(true, &o);
	o.per_cpu = o.all = o.ns = true;
	check_round_trip(true, &o);
	o.cpus = "1";
	o.stages = "hardirq,rx_skb,napi_poll_work";
	check_round_trip(false, &o);
}

static void test_round_trip_json(void **state)
{
	struct nc_report_opts o = { .json = true };

	(void)state;
	check_round_trip(false, &o);
	check_round_trip(true, &o);
	o.cpus = "0";
	o.stages = "syscall_rx";
	check_round_trip(true, &o);
}

/* the whole document, meta included, comes back equal */
static void test_round_trip_document(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char path[512];
	json_t *ja, *jb;

	(void)state;
	snprintf(path, sizeof(path), "%s/doc.json", TEST_OUT);
	nc_model_init(a);
	synth_model(a, true, true);
	assert_int_equal(nc_snapshot_save(a, path), 0);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, path), 0);
	ja = nc_snapshot_to_json(a);
	jb = nc_snapshot_to_json(b);
	assert_true(json_equal(ja, jb));
	assert_string_equal(b->meta.note, "rt, 38k pps");
	assert_int_equal(json_integer_value(json_object_get(b->meta.load, "pps")), 38000);
	json_decref(ja);
	json_decref(jb);
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
}

/* stages and counters this tool does not know survive, printed by name */
static void test_unknown_names_survive(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	char path[512];
	char *text;
	int s;

	(void)state;
	snprintf(path, sizeof(path), "%s/small.json", TEST_DIR "/corpus");
	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, path), 0);
	s = nc_model_find_stage(m, "future_stage");
	assert_true(s >= NETCOST_STAGE_MAX + 1);
	assert_non_null(m->total.stage[s]);
	assert_int_equal(m->total.stage[s]->count, 5);
	assert_true(nc_model_find_counter(m, "future_counter") > NETCOST_CTR_MAX);
	text = report(m, &o);
	assert_non_null(strstr(text, "future_stage*"));
	assert_non_null(strstr(text, "future_counter"));
	free(text);
	nc_model_free(m);
	free(m);
}

struct bad_file {
	const char *what;
	const char *text;	/* NULL: no file at all */
	const char *msg;	/* expected in the error */
};

/* a valid snapshot's text with @from replaced by @to (once) */
static char *edit_valid(const char *from, const char *to)
{
	char path[512], *buf, *out, *at;
	FILE *f;
	long len;

	snprintf(path, sizeof(path), "%s/corpus/small.json", TEST_DIR);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	at = strstr(buf, from);
	assert_non_null(at);
	out = calloc(1, (size_t)len + strlen(to) + 1);
	memcpy(out, buf, (size_t)(at - buf));
	strcat(out, to);
	strcat(out, at + strlen(from));
	free(buf);
	return out;
}

/* every kind of bad file: exit 6, and the message says what and where */
static void test_loader_rejects(void **state)
{
	char *small = edit_valid("\"schema\": 1", "\"schema\": 1");
	char *newer = edit_valid("\"schema\": 1", "\"schema\": 4");
	char *tool = edit_valid("\"tool\": \"netcost\"", "\"tool\": \"perf\"");
	char *noschema = edit_valid("\"schema\": 1,", "");
	char *missing = edit_valid("\"tsc_khz\": 2096000,\n  \"nr_cpus\": 2,\n  \"nr_cpus_online\"",
				   "\"nr_cpus\": 2,\n  \"nr_cpus_online\"");
	char *wrongtype = edit_valid("\"count\": 20", "\"count\": \"20\"");
	char *negative = edit_valid("\"count\": 20", "\"count\": -20");
	char *badbucket = edit_valid("\"hi\": 1663", "\"hi\": 1700");
	char *badunit = edit_valid("\"unit\": \"packets\"", "\"unit\": \"bytes\"");
	char *dupkey = edit_valid("\"schema\": 1,", "\"schema\": 1, \"schema\": 1,");
	char *badmeta = edit_valid("\"cpu_model\": \"QEMU", "\"cpu_model\": 7, \"x\": \"");
	/* issue 11, bug 7: figures that cannot be */
	char *bucketsum = edit_valid("\"count\": 20", "\"count\": 21");
	char *minmax = edit_valid("\"min\": 1148", "\"min\": 4000");
	char *mean = edit_valid("\"cycles\": 41607", "\"cycles\": 41");
	char *overflow = edit_valid("\"cpus\": [", "\"cpus\": [{\"cpu\": 1, \"stages\": {}, "
				    "\"counters\": {\"rx_packets\": 9223372036854775807}},");
	char *manycpus = edit_valid("\"nr_cpus_online\": 2", "\"nr_cpus_online\": 1000000");
	/* issue 22, bug 9: control characters; bug 16: no TSC rate, cpu% > 100 */
	char *esc = edit_valid("\"note\": \"stock, 38k pps\"", "\"note\": \"\\u001b[31mred\"");
	char *esckey = edit_valid("\"probe_cost\": 60,", "\"probe\\u0007cost\": 1, \"probe_cost\": 60,");
	char *tsc0 = edit_valid("\"tsc_khz\": 2096000,\n  \"nr_cpus\": 2,\n  \"nr_cpus_online\"",
				"\"tsc_khz\": 0,\n  \"nr_cpus\": 2,\n  \"nr_cpus_online\"");
	char *overtime = edit_valid("\"now_cycles\": 25960000000", "\"now_cycles\": 5000001000");
	char truncated[2000];
	const struct bad_file cases[] = {
		{ "bucket sum", bucketsum, "cpus[0].stages.hardirq.buckets: sum to 20, not count 21" },
		{ "min > max", minmax, "cpus[0].stages.hardirq.min: greater than max" },
		{ "mean", mean, "cpus[0].stages.hardirq.cycles: mean 2.05 outside [min 1148, max 3166]" },
		{ "overflow", overflow, "counters.rx_packets: the sum over CPUs overflows" },
		{ "many CPUs", manycpus, "info.nr_cpus_online: more than 4096 CPUs" },
		{ "ESC in a note", esc, "meta.note: holds a control character (\"\\x1b[31mred\")" },
		{ "BEL in a name", esckey, "meta.probe\\x07cost: a name with a control character" },
		{ "TSC rate 0", tsc0, "info.tsc_khz: 0: a cycle counter with no rate" },
		{ "cycles over the interval", overtime, "cycles on one CPU, more than the interval's 1000 " },
		{ "missing", NULL, "No such file or directory" },
		{ "empty", "", "empty file, not a netcost snapshot" },
		{ "not JSON", "hello world\n", ":1:5: not valid JSON" },
		{ "truncated", truncated, "truncated JSON" },
		{ "array", "[1, 2]", "not a netcost snapshot (not a JSON object)" },
		{ "wrong tool", tool, "not a netcost snapshot (no \"tool\": \"netcost\")" },
		{ "no schema", noschema, "no valid \"schema\"" },
		{ "newer schema", newer, "schema 4 is newer than this netcost's (3)" },
		{ "missing field", missing, "info.tsc_khz: missing" },
		{ "wrong type", wrongtype, "cpus[0].stages.hardirq.count: expected an integer" },
		{ "negative", negative, "cpus[0].stages.hardirq.count: must not be negative" },
		{ "bad bucket", badbucket, "cpus[0].stages.hardirq.buckets[" },
		{ "bad unit", badunit, "napi_poll_work.unit: not \"cycles\" or \"packets\"" },
		{ "duplicate key", dupkey, "duplicate object key" },
		{ "bad meta", badmeta, "meta.cpu_model: expected a string" },
	};
	unsigned int i;

	(void)state;
	snprintf(truncated, sizeof(truncated), "%.*s", 1500, small);
	nc_err_quiet = true;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct nc_model *m = calloc(1, sizeof(*m));
		char name[64], path[512];

		snprintf(name, sizeof(name), "bad-%u.json", i);
		if (cases[i].text)
			snprintf(path, sizeof(path), "%s",
				 write_file(name, cases[i].text, strlen(cases[i].text)));
		else
			snprintf(path, sizeof(path), "%s/does-not-exist.json", TEST_OUT);
		nc_model_init(m);
		nc_last_err[0] = '\0';
		if (nc_snapshot_load(m, path) != NC_EXIT_SNAPSHOT || !strstr(nc_last_err, cases[i].msg))
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].what, nc_last_err, cases[i].msg);
		if (cases[i].text && !strstr(nc_last_err, path))
			fail_msg("%s: the message does not name the file: %s", cases[i].what, nc_last_err);
		for (char *p = nc_last_err; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				fail_msg("%s: a control character in the message: %s", cases[i].what,
					 nc_last_err);
		nc_model_free(m);
		free(m);
	}
	nc_err_quiet = false;
	/* and the unedited file loads */
	{
		struct nc_model *m = calloc(1, sizeof(*m));

		nc_model_init(m);
		assert_int_equal(nc_snapshot_load(m, write_file("good.json", small, strlen(small))), 0);
		nc_model_free(m);
		free(m);
	}
	free(small);
	free(newer);
	free(tool);
	free(noschema);
	free(missing);
	free(wrongtype);
	free(negative);
	free(badbucket);
	free(badunit);
	free(dupkey);
	free(badmeta);
	free(bucketsum);
	free(minmax);
	free(mean);
	free(overflow);
	free(manycpus);
	free(esc);
	free(esckey);
	free(tsc0);
	free(overtime);
}

/* @text with @from replaced by @to (once); frees @text */
static char *edit_text(char *text, const char *from, const char *to)
{
	char *at = strstr(text, from), *out;

	assert_non_null(at);
	out = calloc(1, strlen(text) + strlen(to) + 1);
	memcpy(out, text, (size_t)(at - text));
	strcat(out, to);
	strcat(out, at + strlen(from));
	free(text);
	return out;
}

/* the sum of napi_poll_work on CPU 0 and in the total, after loading @text */
static void load_napi_sum(const char *text, uint64_t *cpu0, uint64_t *total)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	int s;

	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, write_file("napi.json", text, strlen(text))), 0);
	s = nc_model_find_stage(m, "napi_poll_work");
	assert_true(s >= 0);
	assert_int_equal(m->stage[s].unit, NETCOST_UNIT_PACKETS);
	*cpu0 = m->cpus[0].stage[s]->sum;
	*total = m->total.stage[s]->sum;
	nc_model_free(m);
	free(m);
}

/*
 * issue 11 "Consistent output": napi_poll_work's sum is written under
 * "packets" (its unit), cycle stages' under "cycles"; files of schema 1
 * and 2, which name every sum "cycles", still load; a schema 3 file with a
 * packet stage's sum under "cycles" is refused.
 */
static void test_sum_key_unit(void **state)
{
	char *v1 = edit_valid("\"schema\": 1", "\"schema\": 1");
	char *v2 = edit_text(edit_valid("\"schema\": 1", "\"schema\": 2"),
			     "\"probe_cost\"", "\"probe_cost_cycles\"");
	char *v3 = edit_text(edit_valid("\"schema\": 1", "\"schema\": 3"),
			     "\"probe_cost\"", "\"probe_cost_cycles\"");
	struct nc_model *m = calloc(1, sizeof(*m));
	uint64_t c0, tot, c0b, totb;
	json_t *doc, *stages, *napi, *hard;
	char path[512], *saved;

	(void)state;
	load_napi_sum(v1, &c0, &tot);
	assert_int_equal(c0, 189);
	load_napi_sum(v2, &c0b, &totb);
	assert_int_equal(c0b, c0);
	assert_int_equal(totb, tot);

	/* written with the unit's key, and read back the same */
	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, write_file("napi-v1.json", v1, strlen(v1))), 0);
	snprintf(path, sizeof(path), "%s/napi-v3.json", TEST_OUT);
	assert_int_equal(nc_snapshot_save(m, path), 0);
	nc_model_free(m);
	doc = json_load_file(path, 0, NULL);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_object_get(doc, "schema")), 3);
	stages = json_object_get(json_array_get(json_object_get(doc, "cpus"), 0), "stages");
	napi = json_object_get(stages, "napi_poll_work");
	hard = json_object_get(stages, "hardirq");
	assert_non_null(napi);
	assert_null(json_object_get(napi, "cycles"));
	assert_int_equal(json_integer_value(json_object_get(napi, "packets")), 189);
	assert_non_null(json_object_get(hard, "cycles"));
	assert_null(json_object_get(hard, "packets"));
	saved = json_dumps(doc, 0);
	load_napi_sum(saved, &c0b, &totb);
	assert_int_equal(c0b, c0);
	assert_int_equal(totb, tot);
	free(saved);
	json_decref(doc);

	/* schema 3 names it "packets": "cycles" there is a mistake */
	nc_err_quiet = true;
	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, write_file("napi-bad.json", v3, strlen(v3))),
			 NC_EXIT_SNAPSHOT);
	assert_non_null(strstr(nc_last_err, "stages.napi_poll_work.packets: missing"));
	nc_model_free(m);
	nc_err_quiet = false;
	free(m);
	free(v1);
	free(v2);
	free(v3);
}

/* json_path_del - delete the member at @path ("a.b[2].c") of @root */
static void json_path_del(json_t *root, const char *path)
{
	char buf[256], *tok, *save = NULL;
	json_t *o = root, *parent = NULL;
	const char *last = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		char *br = strchr(tok, '[');

		if (br)
			*br = '\0';
		parent = o;
		last = tok;
		o = json_object_get(o, tok);
		assert_non_null(o);
		if (br) {
			o = json_array_get(o, strtoul(br + 1, NULL, 10));
			assert_non_null(o);
			parent = o;
			last = NULL;
		}
	}
	assert_non_null(last);
	assert_int_equal(json_object_del(parent, last), 0);
}

/*
 * issue 11: one field table drives the reader and the writer, nested
 * parts included.  Every field, with values that take the unusual paths
 * (a hook kind and a group bit this netcost does not name, INFO's stage
 * table with a role not sent, nullable task slots, meta's note, load and
 * soak), comes back equal; a required key anywhere is missed by name; an
 * optional one (for older files) may be absent.
 */
static void test_field_tables(void **state)
{
	static const char *const required[] = {
		"info.config.cpus", "info.config.nic_irqs", "info.hooks[1].hits",
		"info.hooks[0].kind", "info.stages[1].unit", "info.stages[0].role",
		"info.now_cycles", "meta.taken_at", "meta.probe_cost_cycles",
	};
	static const char *const optional[] = {
		"info.stages", "info.hooks[0].missed", "info.task_slots", "meta.note",
		"meta.load", "meta.soak",
	};
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char path[512];
	json_t *ja, *jb, *st;
	unsigned int i;

	(void)state;
	nc_model_init(a);
	synth_model(a, true, true);
	a->info.hook[0].kind = 7;
	a->info.hook[1].group |= 1u << 30;
	a->info.hook[2].missed = 12;
	a->info.has_task_slots = true;
	a->info.task_slots = 4096;
	a->info.task_slots_used = 17;
	a->info.has_task_slots_kthreads = true;
	a->info.task_slots_kthreads = 4;
	a->info.config.nr_nic_irqs = 2;
	a->info.config.nic_irq[1] = 12;
	strcpy(a->info.stage[0].name, "hardirq");
	a->info.stage[0].role = NC_ROLE_TOP;
	strcpy(a->info.stage[1].name, "napi_poll_work");
	a->info.stage[1].unit = NETCOST_UNIT_PACKETS;
	a->info.stage[1].role = NC_ROLE_COUNT;
	strcpy(a->info.stage[2].name, "runq_wait_load");
	a->info.stage[2].role = -1;
	a->info.nr_stages = 3;
	a->meta.soak = json_pack("{s:i}", "samples", 10);

	ja = nc_snapshot_to_json(a);
	st = json_object_get(json_object_get(ja, "info"), "stages");
	assert_int_equal(json_array_size(st), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(st, 1), "unit")),
			    "packets");
	assert_string_equal(json_string_value(json_object_get(json_array_get(st, 1), "role")),
			    "count");
	assert_true(json_is_null(json_object_get(json_array_get(st, 2), "role")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(
		json_object_get(ja, "info"), "hooks"), 0), "kind")), 7);

	snprintf(path, sizeof(path), "%s/tables.json", TEST_OUT);
	assert_int_equal(nc_snapshot_save(a, path), 0);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, path), 0);
	jb = nc_snapshot_to_json(b);
	assert_true(json_equal(ja, jb));
	assert_int_equal(b->info.nr_stages, 3);
	assert_int_equal(b->info.stage[2].role, -1);
	assert_int_equal(b->info.hook[2].missed, 12);
	assert_true(b->info.hook[1].group & (1u << 30));
	assert_int_equal(b->info.task_slots_used, 17);
	assert_true(b->info.has_task_slots_kthreads);
	assert_int_equal(b->info.task_slots_kthreads, 4);
	json_decref(jb);
	nc_model_free(b);

	nc_err_quiet = true;
	for (i = 0; i < ARRAY_SIZE(required) + ARRAY_SIZE(optional); i++) {
		bool req = i < ARRAY_SIZE(required);
		const char *key = req ? required[i] : optional[i - ARRAY_SIZE(required)];
		json_t *doc = json_deep_copy(ja);
		char *text;
		int ret;

		json_path_del(doc, key);
		text = json_dumps(doc, JSON_INDENT(1));
		nc_model_init(b);
		nc_last_err[0] = '\0';
		ret = nc_snapshot_load(b, write_file("table-cut.json", text, strlen(text)));
		if (req && (ret != NC_EXIT_SNAPSHOT || !strstr(nc_last_err, key) ||
			    !strstr(nc_last_err, "missing")))
			fail_msg("without %s: %d \"%s\"", key, ret, nc_last_err);
		if (!req && ret)
			fail_msg("without %s (optional): %d \"%s\"", key, ret, nc_last_err);
		nc_model_free(b);
		free(text);
		json_decref(doc);
	}
	nc_err_quiet = false;
	json_decref(ja);
	nc_model_free(a);
	free(a);
	free(b);
}

/*
 * corpus/v2-rt.json was written by netcost at dcec317 (schema 2, every sum
 * under "cycles") from synth_model(rt): loaded today it prints exactly what
 * the same model prints, text and JSON, and saves as schema 3.
 */
static void test_recorded_schema2(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct nc_report_opts o = { 0 }, oj = { .json = true, .all = true };
	char *ta, *tb;
	json_t *doc;
	char path[512];

	(void)state;
	nc_model_init(a);
	assert_int_equal(nc_snapshot_load(a, TEST_DIR "/corpus/v2-rt.json"), 0);
	nc_model_init(b);
	synth_model(b, true, true);
	b->info.has_task_slots = true;
	b->info.task_slots = 4096;
	b->info.task_slots_used = 9;
	/* recorded before the wait group existed: all groups were these five */
	b->info.config.groups = NETCOST_GROUP_ALL & ~NETCOST_GROUP_WAIT;
	strcpy(b->info.version, "0.2.0");	/* the module it came from */
	/* and before 0.4.0's self-cost percentiles */
	b->info.probe_cost_p50 = 0;
	b->info.probe_cost_p90 = 0;
	b->info.probe_cost_samples = 0;
	ta = report(a, &o);
	tb = report(b, &o);
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	ta = report(a, &oj);
	tb = report(b, &oj);
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	snprintf(path, sizeof(path), "%s/v2-resaved.json", TEST_OUT);
	assert_int_equal(nc_snapshot_save(a, path), 0);
	doc = json_load_file(path, 0, NULL);
	assert_int_equal(json_integer_value(json_object_get(doc, "schema")), 3);
	assert_non_null(json_object_get(json_object_get(json_object_get(json_object_get(doc,
		"total"), "stages"), "napi_poll_work"), "packets"));
	json_decref(doc);
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
}

/* bug 7: a file past the size limit, or one without end, is refused */
static void test_loader_size_limit(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	char path[512];
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/huge.json", TEST_OUT);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(ftruncate(fileno(f), 65 << 20), 0);	/* sparse */
	fclose(f);
	nc_err_quiet = true;
	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, path), NC_EXIT_SNAPSHOT);
	assert_non_null(strstr(nc_last_err, "larger than 64 MiB"));
	nc_model_free(m);
	nc_model_init(m);
	assert_int_equal(nc_snapshot_load(m, "/dev/zero"), NC_EXIT_SNAPSHOT);
	assert_non_null(strstr(nc_last_err, "/dev/zero"));
	nc_model_free(m);
	nc_err_quiet = false;
	unlink(path);
	free(m);
}

/* u64_out - the integer nc_json_u64() writes for @v */
static json_int_t u64_out(uint64_t v)
{
	json_t *j = nc_json_u64(v);
	json_int_t r = json_integer_value(j);

	json_decref(j);
	return r;
}

/*
 * A u64 past 2^63 - 1 (a CPU's counter, a stage's sum and bucket,
 * napi_dropped) is written as 2^63 - 1, the largest JSON integer, never
 * as the negative number a plain cast made, which the loader refuses
 */
static void test_u64_past_int64(void **state)
{
	const uint64_t big = (1ULL << 63) + 5;
	struct nc_model *m = calloc(1, sizeof(*m));
	json_t *doc, *cpu0, *rx, *bucket;
	unsigned int b = 0;
	int c, s;

	(void)state;
	assert_int_equal(u64_out(0), 0);
	assert_int_equal(u64_out(INT64_MAX), INT64_MAX);
	assert_int_equal(u64_out((uint64_t)INT64_MAX + 1), INT64_MAX);
	assert_int_equal(u64_out(UINT64_MAX), INT64_MAX);

	nc_model_init(m);
	synth_model(m, false, true);
	c = nc_model_find_counter(m, "rx_packets");
	s = nc_model_find_stage(m, "rx_skb");
	assert_true(c >= 0 && s >= 0);
	while (!m->cpus[0].stage[s]->buckets[b])
		b++;
	m->cpus[0].counter[c] = big;
	m->cpus[0].stage[s]->sum = big;
	m->cpus[0].stage[s]->buckets[b] = big;
	m->napi_dropped = big;
	doc = nc_snapshot_to_json(m);
	cpu0 = json_array_get(json_object_get(doc, "cpus"), 0);
	rx = json_object_get(json_object_get(cpu0, "stages"), "rx_skb");
	bucket = json_array_get(json_object_get(rx, "buckets"), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(cpu0, "counters"),
							    "rx_packets")), INT64_MAX);
	assert_int_equal(json_integer_value(json_object_get(rx, "cycles")), INT64_MAX);
	assert_int_equal(json_integer_value(json_object_get(bucket, "lo")), netcost_hist_lo(b));
	assert_int_equal(json_integer_value(json_object_get(bucket, "count")), INT64_MAX);
	assert_int_equal(json_integer_value(json_object_get(doc, "napi_dropped")), INT64_MAX);
	json_decref(doc);
	nc_model_free(m);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_text),
		cmocka_unit_test(test_round_trip_json),
		cmocka_unit_test(test_round_trip_document),
		cmocka_unit_test(test_unknown_names_survive),
		cmocka_unit_test(test_loader_rejects),
		cmocka_unit_test(test_loader_size_limit),
		cmocka_unit_test(test_sum_key_unit),
		cmocka_unit_test(test_field_tables),
		cmocka_unit_test(test_recorded_schema2),
		cmocka_unit_test(test_u64_past_int64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
