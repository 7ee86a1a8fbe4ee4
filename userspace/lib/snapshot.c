// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - the snapshot file format (Documentation/netcost-json.md),
 * both ways, with jansson: the model as JSON ("save", "run -o", and the
 * base of "info -j" and "dump -j", whose derived figures report.c adds),
 * and the loader behind "show", "diff", "plot" and "export --snapshot".  The loader trusts
 * nothing: each mistake in a file is named by its place (line:column from
 * jansson, or the path of the key) and ends in NC_EXIT_SNAPSHOT.
 */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hist.h"
#include "netcost_names.h"
#include "snapshot.h"

static const char *const nc_hook_kinds[] = {
	[NETCOST_HOOK_TRACEPOINT]	= "tracepoint",
	[NETCOST_HOOK_KPROBE]		= "kprobe",
	[NETCOST_HOOK_KRETPROBE]	= "kretprobe",
	[NETCOST_HOOK_FENTRY]		= "fentry",
};

/* nc_hook_kind_name - the name of hook kind @kind, "?" for one this tool does not know */
const char *nc_hook_kind_name(uint8_t kind)
{
	return kind < ARRAY_SIZE(nc_hook_kinds) && nc_hook_kinds[kind] ? nc_hook_kinds[kind] : "?";
}

static const char *const nc_unit_names[] = {
	[NETCOST_UNIT_CYCLES]	= "cycles",
	[NETCOST_UNIT_PACKETS]	= "packets",
};

/*
 * nc_sum_key - the key of a stage's sum: its unit's name ("cycles", or
 * "packets" for napi_poll_work), so that the key says what it counts.
 * Files before schema 3 name every sum "cycles".
 */
const char *nc_sum_key(uint8_t unit)
{
	return unit == NETCOST_UNIT_PACKETS ? "packets" : "cycles";
}

/* nc_group_name - the name of group bit @bit, or NULL when unknown */
const char *nc_group_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(netcost_group_names) ? netcost_group_names[bit] : NULL;
}

/*
 * The snapshot's objects as field tables: one table per struct drives both
 * the writer (nc_fields_to_json) and the reader (nc_jfields), so that a
 * key cannot be written one way and read another.  Nested objects (info's
 * config, hooks and stage table, a stage's histogram figures, meta's note,
 * load and soak) are fields of their own types.  Counters and the stages
 * of a CPU are objects keyed by name, and buckets are sparse: they stay
 * code (nc_cpu_to_json, nc_jcpu).
 */
enum nc_ftype {
	NC_F_BUF,		/* char[len], NUL-terminated */
	NC_F_DUP,		/* char *, allocated ("" when NULL on write) */
	NC_F_STR_NULL,		/* char *, allocated; null when NULL */
	NC_F_JSON,		/* json_t *, an object; left out when NULL */
	NC_F_BOOL,
	NC_F_U32,
	NC_F_U64,
	NC_F_SUM,		/* uint64_t: a histogram's sum, keyed by its unit */
	NC_F_GROUPS,		/* uint32_t group bits as names (unknown bits as numbers) */
	NC_F_NAMED,		/* uint8_t as one of names[] (unknown values as numbers) */
	NC_F_ROLE,		/* int: a role's name, null for -1 (not sent) */
	NC_F_U32_LIST,		/* uint32_t[len]; the count is the unsigned int at aux */
	NC_F_OBJECT,		/* a struct, by the table sub */
	NC_F_ARRAY,		/* struct[len] of esize bytes, by sub; count at aux */
};

#define NC_FF_OPTIONAL	0x1	/* may be absent: files older than the key */
#define NC_FF_NULLABLE	0x2	/* null when the bool at aux is false; null or absent on read */

struct nc_field {
	const char *key;
	enum nc_ftype type;
	size_t off;
	size_t len;		/* BUF: the buffer's size; U32_LIST, ARRAY: most entries */
	const char *key_v1;	/* the key in schema 1 files, when it differs */
	unsigned int flags;
	size_t aux;		/* U32_LIST, ARRAY: the count; NULLABLE: the bool */
	const struct nc_field *sub;	/* OBJECT, ARRAY: the element's table */
	size_t nsub;
	size_t esize;		/* ARRAY: the element's size */
	const char *const *names;	/* NAMED */
	size_t nnames;
	const char *what;	/* what a bad value is not, for the loader's message */
};

#define MEMBER_SIZE(_s, _m) sizeof(((struct _s *)0)->_m)
#define F(_s, _key, _type, _member, _v1) \
	{ .key = _key, .type = _type, .off = offsetof(struct _s, _member), \
	  .len = MEMBER_SIZE(_s, _member), .key_v1 = _v1 }
#define F_OPT(_s, _key, _type, _member) \
	{ .key = _key, .type = _type, .off = offsetof(struct _s, _member), \
	  .flags = NC_FF_OPTIONAL }
#define F_NULLABLE(_s, _key, _type, _member, _has) \
	{ .key = _key, .type = _type, .off = offsetof(struct _s, _member), \
	  .len = MEMBER_SIZE(_s, _member), .flags = NC_FF_NULLABLE, \
	  .aux = offsetof(struct _s, _has) }
#define F_NAMED(_s, _key, _member, _names, _what) \
	{ .key = _key, .type = NC_F_NAMED, .off = offsetof(struct _s, _member), \
	  .names = _names, .nnames = ARRAY_SIZE(_names), .what = _what }
#define F_LIST(_s, _key, _member, _count, _what) \
	{ .key = _key, .type = NC_F_U32_LIST, .off = offsetof(struct _s, _member), \
	  .len = ARRAY_SIZE(((struct _s *)0)->_member), .aux = offsetof(struct _s, _count), \
	  .what = _what }
#define F_OBJECT(_s, _key, _member, _sub) \
	{ .key = _key, .type = NC_F_OBJECT, .off = offsetof(struct _s, _member), \
	  .sub = _sub, .nsub = ARRAY_SIZE(_sub) }
#define F_ARRAY(_s, _key, _member, _count, _sub, _flags) \
	{ .key = _key, .type = NC_F_ARRAY, .off = offsetof(struct _s, _member), \
	  .len = ARRAY_SIZE(((struct _s *)0)->_member), .aux = offsetof(struct _s, _count), \
	  .sub = _sub, .nsub = ARRAY_SIZE(_sub), \
	  .esize = sizeof(((struct _s *)0)->_member[0]), .flags = _flags }

static const struct nc_field nc_config_fields[] = {
	F(nc_config, "nic_irqs_auto", NC_F_BOOL, nic_irqs_auto, NULL),
	F_LIST(nc_config, "nic_irqs", nic_irq, nr_nic_irqs, "expected IRQ numbers"),
	F(nc_config, "cpus", NC_F_BUF, cpus, NULL),
	F(nc_config, "groups", NC_F_GROUPS, groups, NULL),
	F(nc_config, "recording", NC_F_BOOL, recording, NULL),
	F_OPT(nc_config, "sample", NC_F_U32, sample),	/* 0.15.0; missing: 1 */
};

static const struct nc_field nc_hook_fields[] = {
	F(nc_hook, "name", NC_F_BUF, name, NULL),
	F_NAMED(nc_hook, "kind", kind, nc_hook_kinds, "not a hook kind"),
	F(nc_hook, "groups", NC_F_GROUPS, group, NULL),
	F(nc_hook, "attached", NC_F_BOOL, attached, NULL),
	F(nc_hook, "hits", NC_F_U64, hits, NULL),
	F_OPT(nc_hook, "missed", NC_F_U64, missed),	/* newer than schema 1's first files */
};

/* INFO's interrupt vectors without tracepoints; count null when not counted */
static const struct nc_field nc_untraced_fields[] = {
	F(nc_untraced, "name", NC_F_BUF, name, NULL),
	F_NULLABLE(nc_untraced, "count", NC_F_U64, count, has_count),
};

/* INFO's stage table (modules from 0.2.0): what the module measures, and how */
static const struct nc_field nc_info_stage_fields[] = {
	F(nc_info_stage, "name", NC_F_BUF, name, NULL),
	F_NAMED(nc_info_stage, "unit", unit, nc_unit_names, "not \"cycles\" or \"packets\""),
	F(nc_info_stage, "role", NC_F_ROLE, role, NULL),
};

static const struct nc_field nc_info_fields[] = {
	F(nc_info, "version", NC_F_BUF, version, NULL),
	F(nc_info, "kernel", NC_F_BUF, kernel, NULL),
	F(nc_info, "preempt_rt", NC_F_BOOL, preempt_rt, NULL),
	F(nc_info, "threadirqs", NC_F_BOOL, threadirqs, NULL),
	F(nc_info, "tsc_khz", NC_F_U32, tsc_khz, NULL),
	F(nc_info, "nr_cpus", NC_F_U32, nr_cpus, NULL),
	F(nc_info, "nr_cpus_online", NC_F_U32, nr_cpus_online, NULL),
	F(nc_info, "probe_cost_cycles", NC_F_U32, probe_cost, NULL),
	/* absent from files before 0.4.0's modules: 0 */
	F_OPT(nc_info, "probe_cost_p50_cycles", NC_F_U32, probe_cost_p50),
	F_OPT(nc_info, "probe_cost_p90_cycles", NC_F_U32, probe_cost_p90),
	F_OPT(nc_info, "probe_cost_samples", NC_F_U64, probe_cost_samples),
	F(nc_info, "hist_buckets", NC_F_U32, hist_buckets, NULL),
	F(nc_info, "hist_sub_bits", NC_F_U32, hist_sub_bits, NULL),
	F(nc_info, "mem_per_cpu", NC_F_U32, mem_per_cpu, NULL),
	F(nc_info, "generation", NC_F_U32, generation, NULL),
	F(nc_info, "reset_ns", NC_F_U64, reset_ns, NULL),
	F(nc_info, "now_ns", NC_F_U64, now_ns, NULL),
	F(nc_info, "reset_cycles", NC_F_U64, reset_cycles, NULL),
	F(nc_info, "now_cycles", NC_F_U64, now_cycles, NULL),
	/* null from modules before 0.2.0 */
	F_NULLABLE(nc_info, "task_slots", NC_F_U32, task_slots, has_task_slots),
	F_NULLABLE(nc_info, "task_slots_used", NC_F_U32, task_slots_used, has_task_slots),
	/* null from modules before 0.11.0, absent in older files */
	F_NULLABLE(nc_info, "task_slots_kthreads", NC_F_U32, task_slots_kthreads,
		   has_task_slots_kthreads),
	/* null from modules that did not send it */
	F_NULLABLE(nc_info, "nic_devices", NC_F_U32, nic_devices, has_nic_devices),
	F_OBJECT(nc_info, "config", config, nc_config_fields),
	F_ARRAY(nc_info, "hooks", hook, nr_hooks, nc_hook_fields, 0),
	F_ARRAY(nc_info, "stages", stage, nr_stages, nc_info_stage_fields, NC_FF_OPTIONAL),
	/* absent from files written before it: none */
	F_ARRAY(nc_info, "untraced_vectors", untraced, nr_untraced, nc_untraced_fields,
		NC_FF_OPTIONAL),
};

static const struct nc_field nc_meta_fields[] = {
	F(nc_meta, "kernel", NC_F_DUP, kernel, NULL),
	F(nc_meta, "preempt_rt", NC_F_BOOL, preempt_rt, NULL),
	F(nc_meta, "threadirqs", NC_F_BOOL, threadirqs, NULL),
	F(nc_meta, "cmdline", NC_F_DUP, cmdline, NULL),
	F(nc_meta, "cpu_model", NC_F_DUP, cpu_model, NULL),
	F(nc_meta, "tsc_khz", NC_F_U32, tsc_khz, NULL),
	F(nc_meta, "nr_cpus", NC_F_U32, nr_cpus, NULL),
	F(nc_meta, "taken_at", NC_F_DUP, taken_at, NULL),
	F(nc_meta, "interval_ns", NC_F_U64, interval_ns, NULL),
	F(nc_meta, "probe_cost_cycles", NC_F_U32, probe_cost, "probe_cost"),
	F_OPT(nc_meta, "note", NC_F_STR_NULL, note),
	F_OPT(nc_meta, "load", NC_F_JSON, load),
	F_OPT(nc_meta, "soak", NC_F_JSON, soak),
	F_OPT(nc_meta, "path_config", NC_F_JSON, path_config),
};

/* a stage's figures besides its unit, role and buckets */
static const struct nc_field nc_hist_fields[] = {
	F(nc_hist, "count", NC_F_U64, count, NULL),
	F(nc_hist, "cycles", NC_F_SUM, sum, NULL),	/* "packets" for a packet stage */
	F(nc_hist, "min", NC_F_U64, min, NULL),
	F(nc_hist, "max", NC_F_U64, max, NULL),
};

/*
 * One NAPI instance of a CPU or of the total (0.9.0); its "cpus" (those it
 * polled on) stay code: the total's list is as long as it needs to be
 */
static const struct nc_field nc_napi_fields[] = {
	F(nc_napi, "id", NC_F_U32, id, NULL),
	F_NULLABLE(nc_napi, "device", NC_F_BUF, ifname, has_ifname),
	F(nc_napi, "ifindex", NC_F_U32, ifindex, NULL),
	F_NULLABLE(nc_napi, "irq", NC_F_U32, irq, has_irq),
	F_NULLABLE(nc_napi, "thread_pid", NC_F_U32, thread_pid, has_thread_pid),
	F(nc_napi, "polls", NC_F_U64, polls, NULL),
	F(nc_napi, "packets", NC_F_U64, packets, NULL),
	F(nc_napi, "timed_polls", NC_F_U64, timed_polls, NULL),
	F(nc_napi, "cycles", NC_F_U64, cycles, NULL),
};

#undef F
#undef F_OPT
#undef F_NULLABLE
#undef F_NAMED
#undef F_LIST
#undef F_OBJECT
#undef F_ARRAY

/* nc_groups_to_json - group bits as names; bits this tool lacks as numbers */
static json_t *nc_groups_to_json(uint32_t groups)
{
	json_t *a = json_array();
	unsigned int bit;

	for (bit = 0; bit < 32; bit++) {
		if (!(groups & (1u << bit)))
			continue;
		if (nc_group_name(bit))
			json_array_append_new(a, json_string(nc_group_name(bit)));
		else
			json_array_append_new(a, json_integer(1u << bit));
	}
	return a;
}

/*
 * nc_fields_to_json - the members of @table from the struct at @base into
 * @o; @sum_key is the key of an NC_F_SUM member (the stage's unit)
 */
static void nc_fields_to_json(json_t *o, const struct nc_field *table, size_t n,
			      const void *base, const char *sum_key)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct nc_field *f = &table[i];
		const char *p = (const char *)base + f->off;
		const char *key = f->type == NC_F_SUM ? sum_key : f->key;
		json_t *v = NULL;

		if ((f->flags & NC_FF_NULLABLE) && !*(const bool *)((const char *)base + f->aux)) {
			json_object_set_new(o, key, json_null());
			continue;
		}
		switch (f->type) {
		case NC_F_BUF:
			v = json_string(p);
			break;
		case NC_F_DUP:
			v = json_string(*(char *const *)p ? *(char *const *)p : "");
			break;
		case NC_F_STR_NULL:
			v = *(char *const *)p ? json_string(*(char *const *)p) : json_null();
			break;
		case NC_F_JSON:
			if (!*(json_t *const *)p)
				continue;
			v = json_incref(*(json_t *const *)p);
			break;
		case NC_F_BOOL:
			v = json_boolean(*(const bool *)p);
			break;
		case NC_F_U32:
			v = json_integer(*(const uint32_t *)p);
			break;
		case NC_F_U64:
		case NC_F_SUM:
			v = nc_json_u64(*(const uint64_t *)p);
			break;
		case NC_F_GROUPS:
			v = nc_groups_to_json(*(const uint32_t *)p);
			break;
		case NC_F_NAMED:
			k = *(const uint8_t *)p;
			v = k < f->nnames && f->names[k] ? json_string(f->names[k]) : json_integer(k);
			break;
		case NC_F_ROLE:
			v = *(const int *)p < 0 ? json_null() :
			    json_string(nc_role_name((enum nc_role)*(const int *)p));
			break;
		case NC_F_U32_LIST:
			v = json_array();
			for (k = 0; k < *(const unsigned int *)((const char *)base + f->aux); k++)
				json_array_append_new(v, json_integer(((const uint32_t *)p)[k]));
			break;
		case NC_F_OBJECT:
			v = json_object();
			nc_fields_to_json(v, f->sub, f->nsub, p, NULL);
			break;
		case NC_F_ARRAY:
			v = json_array();
			for (k = 0; k < *(const unsigned int *)((const char *)base + f->aux); k++) {
				json_t *e = json_object();

				nc_fields_to_json(e, f->sub, f->nsub, p + k * f->esize, NULL);
				json_array_append_new(v, e);
			}
			break;
		}
		json_object_set_new(o, key, v);
	}
}

/* nc_config_to_json - the configuration, as "config show -j" prints it */
json_t *nc_config_to_json(const struct nc_config *cfg)
{
	json_t *o = json_object();

	nc_fields_to_json(o, nc_config_fields, ARRAY_SIZE(nc_config_fields), cfg, NULL);
	return o;
}

/* nc_info_to_json - every INFO attribute, as "info -j" prints it */
json_t *nc_info_to_json(const struct nc_info *info)
{
	json_t *o = json_object();

	nc_fields_to_json(o, nc_info_fields, ARRAY_SIZE(nc_info_fields), info, NULL);
	return o;
}

/*
 * nc_stage_to_json - one stage of one CPU (or the total): the raw data and
 * the non-empty buckets (none for a stage without a histogram).  The
 * overflow bucket has no upper bound: its "hi" is null.
 */
static json_t *nc_stage_to_json(const struct nc_model *m, const struct nc_cpu *c,
				unsigned int s)
{
	static const struct nc_hist empty;
	const struct nc_hist *h = c->stage[s] ? c->stage[s] : &empty;
	json_t *o = json_object(), *b = json_array();
	unsigned int i;

	nc_fields_to_json(o, nc_hist_fields, ARRAY_SIZE(nc_hist_fields), h,
			  nc_sum_key(m->stage[s].unit));
	json_object_set_new(o, "unit", json_string(m->stage[s].unit < ARRAY_SIZE(nc_unit_names) ?
						   nc_unit_names[m->stage[s].unit] : "cycles"));
	json_object_set_new(o, "role", json_string(nc_role_name(m->stage[s].role)));
	for (i = 0; i < NETCOST_HIST_BUCKETS; i++) {
		json_t *jb;

		if (!h->buckets[i])
			continue;
		jb = json_object();
		json_object_set_new(jb, "lo", nc_json_u64(netcost_hist_lo(i)));
		json_object_set_new(jb, "hi", i == NETCOST_HIST_OVERFLOW ? json_null() :
					      nc_json_u64(netcost_hist_hi(i)));
		json_object_set_new(jb, "count", nc_json_u64(h->buckets[i]));
		json_array_append_new(b, jb);
	}
	json_object_set_new(o, "buckets", b);
	return o;
}

/*
 * nc_napi_to_json - NAPI instance @n of @c (a CPU, or the total), with the
 * CPUs it polled on: the total's list, or a CPU's own number
 */
static json_t *nc_napi_to_json(const struct nc_napi *n, const struct nc_cpu *c)
{
	json_t *o = json_object(), *cpus = json_array();
	unsigned int i;

	nc_fields_to_json(o, nc_napi_fields, ARRAY_SIZE(nc_napi_fields), n, NULL);
	if (!n->nr_cpus)
		json_array_append_new(cpus, json_integer(c->cpu));
	for (i = 0; i < n->nr_cpus; i++)
		json_array_append_new(cpus, json_integer(n->cpus[i]));
	json_object_set_new(o, "cpus", cpus);
	return o;
}

/*
 * nc_cpu_to_json - {"stages": {...}, "counters": {...}, "napi": [...]} of
 * a CPU or the total: the stages it has, or with @all every stage of the
 * model; its NAPI instances
 */
static json_t *nc_cpu_to_json(const struct nc_model *m, const struct nc_cpu *c, bool all)
{
	json_t *o = json_object(), *st = json_object(), *ct = json_object(), *na = json_array();
	unsigned int i;

	for (i = 0; i < m->nr_stages; i++)
		if (c->stage[i] || all)
			json_object_set_new(st, m->stage[i].name, nc_stage_to_json(m, c, i));
	for (i = 0; i < m->nr_counters; i++)
		if (c->has_counter[i])
			json_object_set_new(ct, m->counter[i], nc_json_u64(c->counter[i]));
	for (i = 0; i < c->nr_napi; i++)
		json_array_append_new(na, nc_napi_to_json(&c->napi[i], c));
	json_object_set_new(o, "stages", st);
	json_object_set_new(o, "counters", ct);
	json_object_set_new(o, "napi", na);
	return o;
}

/*
 * nc_model_to_json - {"info", "cpus", "total", "napi_dropped"}; @all:
 * every stage everywhere
 */
json_t *nc_model_to_json(const struct nc_model *m, bool all)
{
	json_t *o = json_object(), *cpus = json_array();
	unsigned int i;

	json_object_set_new(o, "info", nc_info_to_json(&m->info));
	for (i = 0; i < m->nr_cpus; i++) {
		json_t *c = json_object(), *body = nc_cpu_to_json(m, &m->cpus[i], all);

		json_object_set_new(c, "cpu", json_integer(m->cpus[i].cpu));
		json_object_update(c, body);
		json_decref(body);
		json_array_append_new(cpus, c);
	}
	json_object_set_new(o, "cpus", cpus);
	json_object_set_new(o, "total", nc_cpu_to_json(m, &m->total, all));
	json_object_set_new(o, "napi_dropped", nc_json_u64(m->napi_dropped));
	return o;
}

/* nc_meta_to_json - the meta object of a snapshot */
static json_t *nc_meta_to_json(const struct nc_meta *meta)
{
	json_t *o = json_object();

	nc_fields_to_json(o, nc_meta_fields, ARRAY_SIZE(nc_meta_fields), meta, NULL);
	return o;
}

/* nc_snapshot_to_json - the whole snapshot document of a model with meta */
json_t *nc_snapshot_to_json(const struct nc_model *m)
{
	json_t *o = json_object(), *body = nc_model_to_json(m, false);

	json_object_set_new(o, "schema", json_integer(NC_SNAPSHOT_SCHEMA));
	json_object_set_new(o, "tool", json_string("netcost"));
	json_object_set_new(o, "meta", nc_meta_to_json(&m->meta));
	json_object_update(o, body);
	json_decref(body);
	return o;
}

/*
 * nc_json_print - print @root on @f: indented with @indent, one line
 * when 0.  Returns 0, or NC_EXIT_ERROR when stdout fails.
 */
int nc_json_print(FILE *f, json_t *root, unsigned int indent)
{
	size_t flags = JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10) |
		       (indent ? JSON_INDENT(indent) : JSON_COMPACT);

	if (json_dumpf(root, f, flags) || fputc('\n', f) == EOF) {
		/* stdout's error flag is set: main's nc_close_stdout() says it, once */
		if (f != stdout)
			nc_err("cannot write JSON: %s", strerror(errno));
		return NC_EXIT_ERROR;
	}
	return NC_EXIT_OK;
}

/*
 * nc_json_u64 - a JSON integer for a u64: one past 2^63 - 1 (json_int_t's
 * largest) stays there, where a plain cast wrote a negative number that
 * the loader refuses
 */
json_t *nc_json_u64(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

/* nc_snapshot_cb - the nc_write_fn of nc_snapshot_save() */
static int nc_snapshot_cb(FILE *f, void *arg)
{
	if (json_dumpf(arg, f, JSON_PRESERVE_ORDER | JSON_INDENT(1)) || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

/*
 * nc_snapshot_save - write @m (with its meta) to @path ("-": stdout) with
 * nc_write_atomic(), so that a reader never sees half a file.  Returns 0,
 * or NC_EXIT_ERROR after printing why.
 */
int nc_snapshot_save(const struct nc_model *m, const char *path)
{
	json_t *root = nc_snapshot_to_json(m);
	int ret;

	ret = nc_output(path, nc_snapshot_cb, root);
	json_decref(root);
	return ret;
}

/*
 * nc_snapshot_file_is - whether @path is a netcost snapshot: parsed, a
 * JSON object whose "tool" is "netcost", however it is laid out (jq -S
 * sorts the keys).  For the writers of other formats, which must not
 * replace one by mistake.
 */
bool nc_snapshot_file_is(const char *path)
{
	struct stat st;
	json_t *root, *tool;
	bool is;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return false;
	root = json_load_file(path, 0, NULL);
	tool = json_object_get(root, "tool");
	is = json_is_string(tool) && !strcmp(json_string_value(tool), "netcost");
	json_decref(root);
	return is;
}

/*
 * nc_output_check - whether @out may take the output (@what: "SVG",
 * "export") of a command reading @inputs: it must be none of them (the
 * same device and inode, whatever the names) nor any other snapshot.
 * Returns 0, or NC_EXIT_ERROR after saying why.
 */
int nc_output_check(const char *cmd, const char *out, const char *const *inputs,
		    unsigned int n, const char *what)
{
	unsigned int i;

	if (!out || !strcmp(out, "-"))
		return 0;
	for (i = 0; i < n; i++)
		if (inputs[i] && nc_same_file(out, inputs[i])) {
			nc_err("%s: -o %s is the snapshot being read (%s); name the %s file",
			       cmd, out, inputs[i], what);
			return NC_EXIT_ERROR;
		}
	if (nc_snapshot_file_is(out)) {
		nc_err("%s: -o %s is a netcost snapshot; refusing to overwrite it with the %s (name the %s file)",
		       cmd, out, what, what);
		return NC_EXIT_ERROR;
	}
	return 0;
}

/* ---- the loader ---- */

/* Where in a file the loader is, for its messages: "cpus[1].stages.hardirq" */
struct nc_jctx {
	const char *name;		/* the file */
	int schema;			/* its "schema" */
	char path[512];
};

/* nc_jfail - "FILE: PATH.KEY: WHAT"; returns NC_EXIT_SNAPSHOT */
static int nc_jfail(struct nc_jctx *j, const char *key, const char *what)
{
	nc_err("%s: %s%s%s: %s", j->name, j->path, *j->path && key ? "." : "",
	       key ? key : "", what);
	return NC_EXIT_SNAPSHOT;
}

/*
 * nc_jpush - descend: append @fmt's text to the path ("stages", "[3]"),
 * with a dot before a key.  Returns the old length, for nc_jpop().
 */
static size_t __attribute__((format(printf, 2, 3)))
nc_jpush(struct nc_jctx *j, const char *fmt, ...)
{
	size_t len = strlen(j->path);
	va_list ap;

	if (len && fmt[0] != '[' && len < sizeof(j->path) - 1)
		strcat(j->path, ".");
	va_start(ap, fmt);
	vsnprintf(j->path + strlen(j->path), sizeof(j->path) - strlen(j->path), fmt, ap);
	va_end(ap);
	return len;
}

/* nc_jpop - back to the level nc_jpush() left */
static void nc_jpop(struct nc_jctx *j, size_t len)
{
	j->path[len] = '\0';
}

/*
 * nc_jget - the member @key of @obj, which must be of @type.  Returns 0
 * and sets @val, or NC_EXIT_SNAPSHOT after naming the key.
 */
static int nc_jget(struct nc_jctx *j, json_t *obj, const char *key, json_type type,
		   json_t **val)
{
	static const char *const what[] = {
		[JSON_OBJECT] = "expected an object", [JSON_ARRAY] = "expected an array",
		[JSON_STRING] = "expected a string", [JSON_INTEGER] = "expected an integer",
		[JSON_TRUE] = "expected true or false",
	};
	json_t *v = json_object_get(obj, key);

	if (!v)
		return nc_jfail(j, key, "missing");
	if (json_typeof(v) != type &&
	    !(type == JSON_TRUE && json_typeof(v) == JSON_FALSE))
		return nc_jfail(j, key, what[type]);
	*val = v;
	return 0;
}

/* nc_jget_u64 - an integer member >= 0 */
static int nc_jget_u64(struct nc_jctx *j, json_t *obj, const char *key, uint64_t *val)
{
	json_t *v;

	if (nc_jget(j, obj, key, JSON_INTEGER, &v))
		return NC_EXIT_SNAPSHOT;
	if (json_integer_value(v) < 0)
		return nc_jfail(j, key, "must not be negative");
	*val = (uint64_t)json_integer_value(v);
	return 0;
}

/* nc_jget_u32 - an integer member in 0 .. 2^32-1 */
static int nc_jget_u32(struct nc_jctx *j, json_t *obj, const char *key, uint32_t *val)
{
	uint64_t v;

	if (nc_jget_u64(j, obj, key, &v))
		return NC_EXIT_SNAPSHOT;
	if (v > UINT32_MAX)
		return nc_jfail(j, key, "out of range");
	*val = (uint32_t)v;
	return 0;
}

/* nc_jget_bool - a true/false member */
static int nc_jget_bool(struct nc_jctx *j, json_t *obj, const char *key, bool *val)
{
	json_t *v;

	if (nc_jget(j, obj, key, JSON_TRUE, &v))
		return NC_EXIT_SNAPSHOT;
	*val = json_is_true(v);
	return 0;
}

/* nc_jget_str - a string member copied into @buf, which it must fit */
static int nc_jget_str(struct nc_jctx *j, json_t *obj, const char *key,
		       char *buf, size_t len)
{
	json_t *v;

	if (nc_jget(j, obj, key, JSON_STRING, &v))
		return NC_EXIT_SNAPSHOT;
	if (json_string_length(v) >= len)
		return nc_jfail(j, key, "too long");
	memcpy(buf, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

/* nc_jget_strdup - a string member, allocated */
static int nc_jget_strdup(struct nc_jctx *j, json_t *obj, const char *key, char **val)
{
	json_t *v;

	if (nc_jget(j, obj, key, JSON_STRING, &v))
		return NC_EXIT_SNAPSHOT;
	*val = nc_xstrdup(json_string_value(v));
	return 0;
}

/* nc_jgroups - a "groups" array of names (or bit values) at @key into bits */
static int nc_jgroups(struct nc_jctx *j, json_t *obj, const char *key, uint32_t *groups)
{
	json_t *arr, *v;
	size_t i;

	if (nc_jget(j, obj, key, JSON_ARRAY, &arr))
		return NC_EXIT_SNAPSHOT;
	*groups = 0;
	json_array_foreach(arr, i, v) {
		json_int_t bits = json_integer_value(v);
		unsigned int bit;

		if (json_is_integer(v) && bits > 0 && bits <= UINT32_MAX &&
		    !(bits & (bits - 1))) {
			*groups |= (uint32_t)bits;
			continue;
		}
		for (bit = 0; json_is_string(v) && nc_group_name(bit); bit++)
			if (!strcmp(json_string_value(v), nc_group_name(bit)))
				break;
		if (!json_is_string(v) || !nc_group_name(bit))
			return nc_jfail(j, key, "not a list of group names");
		*groups |= 1u << bit;
	}
	return 0;
}

/* nc_jnamed - one of @f->names (or a number 0..255) at @key into a uint8_t */
static int nc_jnamed(struct nc_jctx *j, json_t *obj, const struct nc_field *f,
		     const char *key, uint8_t *val)
{
	json_t *v = json_object_get(obj, key);
	size_t k;

	if (!v)
		return nc_jfail(j, key, "missing");
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 255) {
		*val = (uint8_t)json_integer_value(v);
		return 0;
	}
	for (k = 0; json_is_string(v) && k < f->nnames; k++)
		if (f->names[k] && !strcmp(json_string_value(v), f->names[k])) {
			*val = (uint8_t)k;
			return 0;
		}
	return nc_jfail(j, key, f->what);
}

static int nc_jfields(struct nc_jctx *j, json_t *obj, const struct nc_field *table, size_t n,
		      void *base, const char *sum_key);

/*
 * nc_jlist - the array @key of a list field @f: at most f->len entries,
 * into @arr, and its count (the unsigned int at f->aux of @base) into @count
 */
static int nc_jlist(struct nc_jctx *j, json_t *obj, const struct nc_field *f, const char *key,
		    void *base, json_t **arr, unsigned int **count)
{
	*count = (unsigned int *)((char *)base + f->aux);
	if (nc_jget(j, obj, key, JSON_ARRAY, arr))
		return NC_EXIT_SNAPSHOT;
	if (json_array_size(*arr) > f->len)
		return nc_jfail(j, key, "too many");
	return 0;
}

/* nc_jfield - one member @f of @obj into the struct at @base */
static int nc_jfield(struct nc_jctx *j, json_t *obj, const struct nc_field *f, void *base,
		     const char *sum_key)
{
	const char *key = f->type == NC_F_SUM ? sum_key :
			  j->schema < 2 && f->key_v1 ? f->key_v1 : f->key;
	char *p = (char *)base + f->off;
	unsigned int *count;
	json_t *v = json_object_get(obj, key), *e;
	size_t i, len;
	int r, ret = 0;

	if ((f->flags & NC_FF_OPTIONAL) && (!v || (json_is_null(v) && f->type != NC_F_STR_NULL)))
		return 0;
	if ((f->flags & NC_FF_NULLABLE) && (!v || json_is_null(v)))
		return 0;
	switch (f->type) {
	case NC_F_BUF:
		ret = nc_jget_str(j, obj, key, p, f->len);
		break;
	case NC_F_DUP:
		return nc_jget_strdup(j, obj, key, (char **)p);
	case NC_F_STR_NULL:
		if (json_is_null(v))
			return 0;
		if (!json_is_string(v))
			return nc_jfail(j, key, "expected a string or null");
		*(char **)p = nc_xstrdup(json_string_value(v));
		return 0;
	case NC_F_JSON:
		if (!json_is_object(v))
			return nc_jfail(j, key, "expected an object");
		*(json_t **)p = json_incref(v);
		return 0;
	case NC_F_BOOL:
		return nc_jget_bool(j, obj, key, (bool *)p);
	case NC_F_U32:
		ret = nc_jget_u32(j, obj, key, (uint32_t *)p);
		break;
	case NC_F_U64:
	case NC_F_SUM:
		return nc_jget_u64(j, obj, key, (uint64_t *)p);
	case NC_F_GROUPS:
		return nc_jgroups(j, obj, key, (uint32_t *)p);
	case NC_F_NAMED:
		return nc_jnamed(j, obj, f, key, (uint8_t *)p);
	case NC_F_ROLE:
		if (!v)
			return nc_jfail(j, key, "missing");
		r = json_is_string(v) ? nc_role_parse(json_string_value(v)) : -1;
		if (!json_is_null(v) && r < 0)
			return nc_jfail(j, key, "not top, nested, other, waiting or count");
		*(int *)p = r;
		return 0;
	case NC_F_U32_LIST:
		if (nc_jlist(j, obj, f, key, base, &v, &count))
			return NC_EXIT_SNAPSHOT;
		json_array_foreach(v, i, e) {
			if (!json_is_integer(e) || json_integer_value(e) < 0 ||
			    json_integer_value(e) > UINT32_MAX)
				return nc_jfail(j, key, f->what);
			((uint32_t *)p)[(*count)++] = (uint32_t)json_integer_value(e);
		}
		return 0;
	case NC_F_OBJECT:
		if (nc_jget(j, obj, key, JSON_OBJECT, &v))
			return NC_EXIT_SNAPSHOT;
		len = nc_jpush(j, "%s", key);
		ret = nc_jfields(j, v, f->sub, f->nsub, p, NULL);
		nc_jpop(j, len);
		return ret;
	case NC_F_ARRAY:
		if (nc_jlist(j, obj, f, key, base, &v, &count))
			return NC_EXIT_SNAPSHOT;
		json_array_foreach(v, i, e) {
			len = nc_jpush(j, "%s[%zu]", key, i);
			ret = json_is_object(e) ?
			      nc_jfields(j, e, f->sub, f->nsub, p + *count * f->esize, NULL) :
			      nc_jfail(j, NULL, "expected an object");
			nc_jpop(j, len);
			if (ret)
				return ret;
			(*count)++;
		}
		return 0;
	}
	if (!ret && (f->flags & NC_FF_NULLABLE))
		*(bool *)((char *)base + f->aux) = true;
	return ret;
}

/*
 * nc_jfields - the members of @table from @obj into the struct at @base:
 * every one must be there, of its type (schema 1 files by key_v1), unless
 * optional or nullable
 */
static int nc_jfields(struct nc_jctx *j, json_t *obj, const struct nc_field *table, size_t n,
		      void *base, const char *sum_key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (nc_jfield(j, obj, &table[i], base, sum_key))
			return NC_EXIT_SNAPSHOT;
	return 0;
}

/* nc_jinfo - "info" into @info: every key "info -j" prints */
static int nc_jinfo(struct nc_jctx *j, json_t *obj, struct nc_info *info)
{
	size_t len;
	int ret;

	len = nc_jpush(j, "info");
	ret = nc_jfields(j, obj, nc_info_fields, ARRAY_SIZE(nc_info_fields), info, NULL);
	if (!ret && (info->hist_buckets != NETCOST_HIST_BUCKETS ||
		     info->hist_sub_bits != NETCOST_HIST_SUB_BITS))
		ret = nc_jfail(j, "hist_sub_bits", "a bucket layout this netcost does not know");
	nc_jpop(j, len);
	return ret ? NC_EXIT_SNAPSHOT : 0;
}

/*
 * nc_jbucket - one element of a "buckets" array into @h.  Its bounds must
 * be one of netcost_hist.h's buckets ("hi" null for the overflow one).
 */
static int nc_jbucket(struct nc_jctx *j, json_t *obj, struct nc_hist *h)
{
	uint64_t lo, hi = 0, count;
	json_t *jhi;
	uint32_t i;

	if (!json_is_object(obj))
		return nc_jfail(j, NULL, "expected an object");
	if (nc_jget_u64(j, obj, "lo", &lo) || nc_jget_u64(j, obj, "count", &count))
		return NC_EXIT_SNAPSHOT;
	i = netcost_hist_index(lo);
	jhi = json_object_get(obj, "hi");
	if (!jhi)
		return nc_jfail(j, "hi", "missing");
	if (!(json_is_null(jhi) && i == NETCOST_HIST_OVERFLOW) &&
	    nc_jget_u64(j, obj, "hi", &hi))
		return NC_EXIT_SNAPSHOT;
	if (netcost_hist_lo(i) != lo ||
	    (i != NETCOST_HIST_OVERFLOW && netcost_hist_hi(i) != hi))
		return nc_jfail(j, NULL, "not a bucket of netcost's histograms");
	if (h->buckets[i])
		return nc_jfail(j, NULL, "bucket listed twice");
	h->buckets[i] = count;
	return 0;
}

/*
 * nc_jhist_check - the figures of one histogram agree with each other:
 * the buckets sum to the count, the mean lies in [min, max], and an empty
 * histogram has no cycles.  What a probe records always does.
 */
static int nc_jhist_check(struct nc_jctx *j, const struct nc_hist *h, const char *sum_key)
{
	uint64_t total = 0;
	char what[160];
	unsigned int i;

	for (i = 0; i < NETCOST_HIST_BUCKETS; i++)
		if (__builtin_add_overflow(total, h->buckets[i], &total))
			return nc_jfail(j, "buckets", "the counts overflow");
	if (total != h->count) {
		snprintf(what, sizeof(what), "sum to %llu, not count %llu",
			 (unsigned long long)total, (unsigned long long)h->count);
		return nc_jfail(j, "buckets", what);
	}
	if (!h->count) {
		if (h->sum || h->min || h->max)
			return nc_jfail(j, "count", "0, but the sum, min or max are not");
		return 0;
	}
	if ((unsigned __int128)h->min * h->count > h->sum ||
	    (unsigned __int128)h->max * h->count < h->sum) {
		snprintf(what, sizeof(what), "mean %.3g outside [min %llu, max %llu]",
			 (double)h->sum / (double)h->count, (unsigned long long)h->min,
			 (unsigned long long)h->max);
		return nc_jfail(j, sum_key, what);
	}
	return 0;
}

/* nc_jstage - one member of a "stages" object into @c */
static int nc_jstage(struct nc_jctx *j, struct nc_model *m, struct nc_cpu *c,
		     const char *name, json_t *obj)
{
	json_t *buckets, *unit, *role, *v;
	uint8_t u = NETCOST_UNIT_CYCLES;
	const char *sum_key;
	struct nc_hist *h;
	size_t i, len;
	int s, ret;

	if (!json_is_object(obj))
		return nc_jfail(j, NULL, "expected an object");
	if (!nc_name_ok(name))
		return nc_jfail(j, NULL, "not a valid stage name ([a-z][a-z0-9_]*, < 64 characters)");
	unit = json_object_get(obj, "unit");
	if (unit) {
		for (u = 0; json_is_string(unit) && u < ARRAY_SIZE(nc_unit_names); u++)
			if (!strcmp(json_string_value(unit), nc_unit_names[u]))
				break;
		if (u == ARRAY_SIZE(nc_unit_names) || !json_is_string(unit))
			return nc_jfail(j, "unit", "not \"cycles\" or \"packets\"");
	}
	s = nc_model_find_stage(m, name);
	if (s < 0)
		s = nc_model_stage(m, name, u);
	else if (unit && m->stage[s].unit != u)
		return nc_jfail(j, "unit", "not the unit of this stage");
	if (s < 0)
		return nc_jfail(j, NULL, "too many stages, or a bad stage name");
	if (c->stage[s])
		return nc_jfail(j, NULL, "stage listed twice");
	role = json_object_get(obj, "role");
	if (role) {		/* files before 0.2.0 have none: the built-in table */
		int r = json_is_string(role) ? nc_role_parse(json_string_value(role)) : -1;

		if (r < 0)
			return nc_jfail(j, "role", "not top, nested, other, waiting or count");
		if (nc_model_set_role(m, (unsigned int)s, (unsigned int)r))
			return nc_jfail(j, "role", "not the role this stage has on another CPU");
	}
	h = nc_cpu_hist(c, s);
	sum_key = j->schema < 3 ? "cycles" : nc_sum_key(m->stage[s].unit);
	if (nc_jfields(j, obj, nc_hist_fields, ARRAY_SIZE(nc_hist_fields), h, sum_key) ||
	    nc_jget(j, obj, "buckets", JSON_ARRAY, &buckets))
		return NC_EXIT_SNAPSHOT;
	if (h->count && h->min > h->max)
		return nc_jfail(j, "min", "greater than max");
	ret = 0;
	json_array_foreach(buckets, i, v) {
		len = nc_jpush(j, "buckets[%zu]", i);
		ret = nc_jbucket(j, v, h);
		nc_jpop(j, len);
		if (ret)
			return ret;
	}
	return nc_jhist_check(j, h, sum_key);
}

/*
 * nc_jnapi - one element of a CPU's "napi" array into @c: figures a poll
 * can give, and each instance once.  Past NC_MAX_NAPI entries it counts
 * in m->napi_dropped.
 */
static int nc_jnapi(struct nc_jctx *j, struct nc_model *m, struct nc_cpu *c, json_t *obj)
{
	struct nc_napi n = { 0 }, *e;

	if (!json_is_object(obj))
		return nc_jfail(j, NULL, "expected an object");
	if (nc_jfields(j, obj, nc_napi_fields, ARRAY_SIZE(nc_napi_fields), &n, NULL))
		return NC_EXIT_SNAPSHOT;
	if (n.has_ifname && !*n.ifname)
		return nc_jfail(j, "device", "empty (null for none)");
	if (n.timed_polls > n.polls)
		return nc_jfail(j, "timed_polls", "more than polls");
	if (!n.timed_polls && n.cycles)
		return nc_jfail(j, "cycles", "not 0, but timed_polls is");
	if (nc_cpu_find_napi(c, &n))
		return nc_jfail(j, NULL, "NAPI instance listed twice (the same id, ifindex and device)");
	e = nc_model_napi(m, c, &n);
	if (e)
		nc_napi_add(e, &n);
	return 0;
}

/* nc_jcpu - "stages", "counters" and "napi" (optional) of one CPU object into @c */
static int nc_jcpu(struct nc_jctx *j, struct nc_model *m, struct nc_cpu *c, json_t *obj)
{
	json_t *stages, *counters, *napi, *v;
	const char *key;
	size_t len, i;
	int ret;

	if (nc_jget(j, obj, "stages", JSON_OBJECT, &stages) ||
	    nc_jget(j, obj, "counters", JSON_OBJECT, &counters))
		return NC_EXIT_SNAPSHOT;
	napi = json_object_get(obj, "napi");	/* files before 0.9.0 have none */
	if (napi && nc_jget(j, obj, "napi", JSON_ARRAY, &napi))
		return NC_EXIT_SNAPSHOT;
	if (!c)		/* "total": the shape is checked, the sums are redone */
		return 0;
	json_array_foreach(napi, i, v) {
		len = nc_jpush(j, "napi[%zu]", i);
		ret = nc_jnapi(j, m, c, v);
		nc_jpop(j, len);
		if (ret)
			return ret;
	}
	json_object_foreach(stages, key, v) {
		len = nc_jpush(j, "stages.%s", key);
		ret = nc_jstage(j, m, c, key, v);
		nc_jpop(j, len);
		if (ret)
			return ret;
	}
	json_object_foreach(counters, key, v) {
		int i;

		len = nc_jpush(j, "counters");
		if (!nc_name_ok(key)) {
			ret = nc_jfail(j, key, "not a valid counter name ([a-z][a-z0-9_]*, < 64 characters)");
			nc_jpop(j, len);
			return ret;
		}
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			ret = nc_jfail(j, key, "expected an integer >= 0");
			nc_jpop(j, len);
			return ret;
		}
		i = nc_model_counter(m, key);
		if (i < 0) {
			ret = nc_jfail(j, key, "too many counters, or a bad name");
			nc_jpop(j, len);
			return ret;
		}
		nc_jpop(j, len);
		c->counter[i] = (uint64_t)json_integer_value(v);
		c->has_counter[i] = true;
	}
	return 0;
}

/* nc_jmeta - "meta" into m->meta */
static int nc_jmeta(struct nc_jctx *j, json_t *obj, struct nc_meta *meta)
{
	size_t len = nc_jpush(j, "meta");
	int ret;

	ret = nc_jfields(j, obj, nc_meta_fields, ARRAY_SIZE(nc_meta_fields), meta, NULL);
	nc_jpop(j, len);
	return ret ? NC_EXIT_SNAPSHOT : 0;
}

/*
 * nc_jsums_check - the totals over CPUs fit a JSON integer (2^63 - 1):
 * a file that adds up to more cannot be printed, nor be true.
 */
static int nc_jsums_check(struct nc_jctx *j, const struct nc_model *m)
{
	unsigned int i, s;

	for (s = 0; s < m->nr_stages; s++) {
		uint64_t count = 0, sum = 0;

		for (i = 0; i < m->nr_cpus; i++) {
			const struct nc_hist *h = m->cpus[i].stage[s];

			if (!h)
				continue;
			if (__builtin_add_overflow(count, h->count, &count) ||
			    __builtin_add_overflow(sum, h->sum, &sum) ||
			    count > INT64_MAX || sum > INT64_MAX) {
				snprintf(j->path, sizeof(j->path), "cpus[%u].stages.%s", i,
					 m->stage[s].name);
				return nc_jfail(j, count > INT64_MAX ? "count" :
						nc_sum_key(m->stage[s].unit),
						"the sum over CPUs overflows");
			}
		}
	}
	for (s = 0; s < m->nr_counters; s++) {
		uint64_t sum = 0;

		for (i = 0; i < m->nr_cpus; i++) {
			if (!m->cpus[i].has_counter[s])
				continue;
			if (__builtin_add_overflow(sum, m->cpus[i].counter[s], &sum) ||
			    sum > INT64_MAX) {
				snprintf(j->path, sizeof(j->path), "cpus[%u].counters", i);
				return nc_jfail(j, m->counter[s], "the sum over CPUs overflows");
			}
		}
	}
	return 0;
}

/*
 * nc_jnapi_sums_check - each NAPI instance's figures added up over its
 * CPUs (m->total, saturated) fit a JSON integer, as nc_jsums_check()
 */
static int nc_jnapi_sums_check(struct nc_jctx *j, const struct nc_model *m)
{
	unsigned int i;

	for (i = 0; i < m->total.nr_napi; i++) {
		const struct nc_napi *n = &m->total.napi[i];
		char what[160];

		if (n->polls <= INT64_MAX && n->packets <= INT64_MAX &&
		    n->timed_polls <= INT64_MAX && n->cycles <= INT64_MAX)
			continue;
		strcpy(j->path, "cpus");
		snprintf(what, sizeof(what), "the figures of NAPI instance %u of %s overflow over CPUs",
			 n->id, n->has_ifname ? n->ifname : "no device");
		return nc_jfail(j, "napi", what);
	}
	return 0;
}

/*
 * nc_jtext - no string or key anywhere in @v holds a control character:
 * a note with ESC would reach the terminal, and an SVG that no XML
 * parser reads.  Refused at load, the message shows it escaped.
 */
static int nc_jtext(struct nc_jctx *j, json_t *v)
{
	const char *key;
	char esc[96];
	size_t i, len;
	json_t *e;
	int ret;

	if (json_is_string(v)) {
		if (!nc_has_control(json_string_value(v)))
			return 0;
		{
		char what[160];

		nc_escape(json_string_value(v), esc, sizeof(esc));
		snprintf(what, sizeof(what), "holds a control character (\"%s\"); edit it out", esc);
		return nc_jfail(j, NULL, what);
		}
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, e) {
			len = nc_jpush(j, "[%zu]", i);
			ret = nc_jtext(j, e);
			nc_jpop(j, len);
			if (ret)
				return ret;
		}
	}
	if (json_is_object(v)) {
		json_object_foreach(v, key, e) {
			nc_escape(key, esc, sizeof(esc));
			if (nc_has_control(key))
				return nc_jfail(j, esc, "a name with a control character; edit it out");
			len = nc_jpush(j, "%s", key);
			ret = nc_jtext(j, e);
			nc_jpop(j, len);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * nc_jtime_check - figures a clock cannot give: no cycle rate, or more
 * cycles of CPU time on one CPU than the interval has (a tenth over is
 * allowed: an event running at the reset is counted whole)
 */
static int nc_jtime_check(struct nc_jctx *j, const struct nc_model *m)
{
	uint64_t span = m->info.now_cycles > m->info.reset_cycles ?
			m->info.now_cycles - m->info.reset_cycles : 0;
	unsigned int i, s;
	char what[160];

	if (!m->info.tsc_khz) {
		strcpy(j->path, "info");
		return nc_jfail(j, "tsc_khz", "0: a cycle counter with no rate");
	}
	if (!span)
		return 0;
	for (i = 0; i < m->nr_cpus; i++)
		for (s = 0; s < m->nr_stages; s++) {
			const struct nc_hist *h = m->cpus[i].stage[s];

			if (!h || m->stage[s].unit != NETCOST_UNIT_CYCLES ||
			    m->stage[s].role == NC_ROLE_LATENCY ||
			    m->stage[s].role == NC_ROLE_COUNT || h->sum <= span + span / 10)
				continue;
			snprintf(j->path, sizeof(j->path), "cpus[%zu].stages.%s", (size_t)i,
				 m->stage[s].name);
			snprintf(what, sizeof(what),
				 "%llu cycles on one CPU, more than the interval's %llu (info.now_cycles - info.reset_cycles)",
				 (unsigned long long)h->sum, (unsigned long long)span);
			return nc_jfail(j, "cycles", what);
		}
	return 0;
}

/*
 * nc_snapshot_from_json - a parsed snapshot document into @m (inited).
 * @name names the file in messages.  Returns 0, or NC_EXIT_SNAPSHOT after
 * printing what is wrong and where.
 */
int nc_snapshot_from_json(struct nc_model *m, json_t *root, const char *name)
{
	struct nc_jctx j = { .name = name };
	json_t *tool, *schema, *meta, *info, *cpus, *total, *v;
	uint64_t dropped = 0;
	size_t i;

	if (!json_is_object(root)) {
		nc_err("%s: not a netcost snapshot (not a JSON object)", name);
		return NC_EXIT_SNAPSHOT;
	}
	tool = json_object_get(root, "tool");
	if (!json_is_string(tool) || strcmp(json_string_value(tool), "netcost")) {
		nc_err("%s: not a netcost snapshot (no \"tool\": \"netcost\")", name);
		return NC_EXIT_SNAPSHOT;
	}
	schema = json_object_get(root, "schema");
	if (!json_is_integer(schema) || json_integer_value(schema) < 1) {
		nc_err("%s: not a netcost snapshot (no valid \"schema\")", name);
		return NC_EXIT_SNAPSHOT;
	}
	if (json_integer_value(schema) > NC_SNAPSHOT_SCHEMA) {
		nc_err("%s: snapshot schema %lld is newer than this netcost's (%d): use a newer netcost",
		       name, (long long)json_integer_value(schema), NC_SNAPSHOT_SCHEMA);
		return NC_EXIT_SNAPSHOT;
	}
	j.schema = (int)json_integer_value(schema);
	if (nc_jtext(&j, root))
		return NC_EXIT_SNAPSHOT;
	if (nc_jget(&j, root, "meta", JSON_OBJECT, &meta) ||
	    nc_jget(&j, root, "info", JSON_OBJECT, &info) ||
	    nc_jget(&j, root, "cpus", JSON_ARRAY, &cpus) ||
	    nc_jget(&j, root, "total", JSON_OBJECT, &total) ||
	    nc_jmeta(&j, meta, &m->meta) ||
	    nc_jinfo(&j, info, &m->info))
		return NC_EXIT_SNAPSHOT;
	m->has_meta = true;
	if (m->meta.nr_cpus > NC_MAX_CPUS)
		return nc_jfail(&j, "meta.nr_cpus", "more than " NC_MAX_CPUS_STR " CPUs");
	if (m->info.nr_cpus > NC_MAX_CPUS)
		return nc_jfail(&j, "info.nr_cpus", "more than " NC_MAX_CPUS_STR " CPUs");
	if (m->info.nr_cpus_online > NC_MAX_CPUS)
		return nc_jfail(&j, "info.nr_cpus_online", "more than " NC_MAX_CPUS_STR " CPUs");
	if (json_array_size(cpus) > NC_MAX_CPUS)
		return nc_jfail(&j, "cpus", "more than " NC_MAX_CPUS_STR " CPUs");

	json_array_foreach(cpus, i, v) {
		unsigned int nr = m->nr_cpus;
		struct nc_cpu *c;
		uint32_t cpu = 0;

		snprintf(j.path, sizeof(j.path), "cpus[%zu]", i);
		if (!json_is_object(v))
			return nc_jfail(&j, NULL, "expected an object");
		if (nc_jget_u32(&j, v, "cpu", &cpu))
			return NC_EXIT_SNAPSHOT;
		c = nc_model_cpu(m, cpu);
		if (!c)
			return nc_jfail(&j, "cpu", "out of range");
		if (m->nr_cpus == nr)
			return nc_jfail(&j, "cpu", "CPU listed twice");
		if (nc_jcpu(&j, m, c, v))
			return NC_EXIT_SNAPSHOT;
	}
	strcpy(j.path, "total");
	if (nc_jcpu(&j, m, NULL, total))
		return NC_EXIT_SNAPSHOT;
	*j.path = '\0';
	v = json_object_get(root, "napi_dropped");	/* 0.9.0 */
	if (v && nc_jget_u64(&j, root, "napi_dropped", &dropped))
		return NC_EXIT_SNAPSHOT;
	m->napi_dropped += dropped;
	if (nc_jsums_check(&j, m) || nc_jtime_check(&j, m))
		return NC_EXIT_SNAPSHOT;
	nc_model_sum_total(m, NULL);
	return nc_jnapi_sums_check(&j, m);
}

/*
 * nc_snapshot_load_buffer - parse @len bytes of a snapshot file named
 * @name into @m (inited).  Returns 0 or NC_EXIT_SNAPSHOT.
 */
int nc_snapshot_load_buffer(struct nc_model *m, const char *buf, size_t len,
			    const char *name)
{
	json_error_t jerr;
	json_t *root;
	int ret;

	if (!len) {
		nc_err("%s: empty file, not a netcost snapshot", name);
		return NC_EXIT_SNAPSHOT;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		nc_err("%s:%d:%d: %s: %s", name, jerr.line, jerr.column,
		       strstr(jerr.text, "end of file") ? "truncated JSON" :
		       "not valid JSON", jerr.text);
		return NC_EXIT_SNAPSHOT;
	}
	ret = nc_snapshot_from_json(m, root, name);
	json_decref(root);
	return ret;
}

/*
 * nc_snapshot_load - read the snapshot file @path into @m (inited).
 * Returns 0, or NC_EXIT_SNAPSHOT after printing what is wrong with it.
 */
int nc_snapshot_load(struct nc_model *m, const char *path)
{
	bool in = !strcmp(path, "-");	/* "-": standard input, as -o - */
	FILE *f = in ? stdin : fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	struct stat st;
	int ret;

	if (!f) {
		nc_err("%s: %s", path, strerror(errno));
		return NC_EXIT_SNAPSHOT;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		nc_err("%s: is a directory, not a netcost snapshot", path);
		if (!in)
			fclose(f);
		return NC_EXIT_SNAPSHOT;
	}
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > NC_SNAPSHOT_MAX_BYTES) {
		nc_err("%s: larger than %d MiB: not a netcost snapshot", path,
		       NC_SNAPSHOT_MAX_BYTES >> 20);
		if (!in)
			fclose(f);
		return NC_EXIT_SNAPSHOT;
	}
	/* a pipe or device has no size: read one byte past the limit at most */
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 65536;
			if (cap > NC_SNAPSHOT_MAX_BYTES + 1)
				cap = NC_SNAPSHOT_MAX_BYTES + 1;
			buf = nc_xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n && len <= NC_SNAPSHOT_MAX_BYTES);
	if (ferror(f)) {
		nc_err("%s: %s", path, strerror(errno));
		ret = NC_EXIT_SNAPSHOT;
	} else if (len > NC_SNAPSHOT_MAX_BYTES) {
		nc_err("%s: larger than %d MiB: not a netcost snapshot", path,
		       NC_SNAPSHOT_MAX_BYTES >> 20);
		ret = NC_EXIT_SNAPSHOT;
	} else {
		ret = nc_snapshot_load_buffer(m, buf, len, in ? "(standard input)" : path);
	}
	free(buf);
	if (!in)
		fclose(f);
	return ret;
}
