// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - parse the module's INFO, STATS and CONFIG_GET replies into the
 * model, for "netcost info/dump/watch/save/export/config".  Every
 * attribute is parsed one way (an attr_cb fills a tb[] table, ethtool
 * style), type-checked against a policy, and every required one must be
 * there, or the reply is an "invalid kernel response".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "uapi/netcost.h"
#include "stats.h"

/* The expected type of one attribute, and whether a reply must carry it */
struct nc_pol {
	enum mnl_attr_data_type type;	/* MNL_TYPE_UNSPEC: not parsed here */
	bool required;
	const char *name;
};

#define POL(_attr, _type, _req) [_attr] = { MNL_TYPE_##_type, _req, #_attr }

static const struct nc_pol nc_info_pol[NETCOST_A_MAX + 1] = {
	POL(NETCOST_A_VERSION, NUL_STRING, true),
	POL(NETCOST_A_KERNEL, NUL_STRING, true),
	POL(NETCOST_A_PREEMPT_RT, U8, true),
	POL(NETCOST_A_THREADIRQS, U8, true),
	POL(NETCOST_A_TSC_KHZ, U32, true),
	POL(NETCOST_A_NR_CPUS_POSSIBLE, U32, true),
	POL(NETCOST_A_NR_CPUS_ONLINE, U32, true),
	POL(NETCOST_A_PROBE_COST, U32, true),
	POL(NETCOST_A_HIST_BUCKETS, U32, true),
	POL(NETCOST_A_HIST_SUB_BITS, U32, true),
	POL(NETCOST_A_MEM_PER_CPU, U32, true),
	POL(NETCOST_A_RESET_NS, U64, true),
	POL(NETCOST_A_NOW_NS, U64, true),
	POL(NETCOST_A_RESET_CYCLES, U64, true),
	POL(NETCOST_A_NOW_CYCLES, U64, true),
	POL(NETCOST_A_GENERATION, U32, true),
	POL(NETCOST_A_CONFIG, NESTED, true),
	POL(NETCOST_A_HOOK, NESTED, false),
	POL(NETCOST_A_STAGE, NESTED, false),
	POL(NETCOST_A_TASK_SLOTS, U32, false),
	POL(NETCOST_A_TASK_SLOTS_USED, U32, false),
	POL(NETCOST_A_PROBE_COST_P50, U32, false),
	POL(NETCOST_A_PROBE_COST_P90, U32, false),
	POL(NETCOST_A_PROBE_COST_SAMPLES, U64, false),
	POL(NETCOST_A_NIC_DEVICES, U32, false),
	POL(NETCOST_A_UNTRACED, NESTED, false),
	POL(NETCOST_A_TASK_SLOTS_KTHREADS, U32, false),
};

static const struct nc_pol nc_config_get_pol[NETCOST_A_MAX + 1] = {
	POL(NETCOST_A_CONFIG, NESTED, true),
};

static const struct nc_pol nc_cfg_pol[NETCOST_CFG_A_MAX + 1] = {
	POL(NETCOST_CFG_A_NIC_IRQS_AUTO, U8, true),
	POL(NETCOST_CFG_A_NIC_IRQ, U32, false),
	POL(NETCOST_CFG_A_CPUMASK, NUL_STRING, true),
	POL(NETCOST_CFG_A_GROUPS, U32, true),
	POL(NETCOST_CFG_A_RECORDING, U8, true),
	POL(NETCOST_CFG_A_SAMPLE, U32, false),		/* 0.15.0 */
};

static const struct nc_pol nc_hook_pol[NETCOST_HOOK_A_MAX + 1] = {
	POL(NETCOST_HOOK_A_NAME, NUL_STRING, true),
	POL(NETCOST_HOOK_A_KIND, U8, true),
	POL(NETCOST_HOOK_A_GROUP, U32, true),
	POL(NETCOST_HOOK_A_ATTACHED, U8, true),
	POL(NETCOST_HOOK_A_HITS, U64, true),
	POL(NETCOST_HOOK_A_MISSED, U64, false),
};

static const struct nc_pol nc_stats_pol[NETCOST_A_MAX + 1] = {
	POL(NETCOST_A_CPU, U32, true),
	POL(NETCOST_A_HIST_BUCKETS, U32, false),	/* 0.3.0: the layout of */
	POL(NETCOST_A_HIST_SUB_BITS, U32, false),	/* the bucket indexes */
	POL(NETCOST_A_STAGE, NESTED, false),
	POL(NETCOST_A_COUNTER, NESTED, false),
	POL(NETCOST_A_NAPI, NESTED, false),		/* 0.9.0 */
};

static const struct nc_pol nc_stage_pol[NETCOST_STAGE_A_MAX + 1] = {
	POL(NETCOST_STAGE_A_ID, U32, true),
	POL(NETCOST_STAGE_A_NAME, NUL_STRING, true),
	POL(NETCOST_STAGE_A_UNIT, U8, true),
	POL(NETCOST_STAGE_A_COUNT, U64, true),
	POL(NETCOST_STAGE_A_SUM, U64, true),
	POL(NETCOST_STAGE_A_MIN_VAL, U64, true),
	POL(NETCOST_STAGE_A_MAX_VAL, U64, true),
	POL(NETCOST_STAGE_A_BUCKET, NESTED, false),
	POL(NETCOST_STAGE_A_ROLE, U8, false),
	POL(NETCOST_STAGE_A_BUCKET_FIRST, U32, false),
	POL(NETCOST_STAGE_A_BUCKET_COUNTS, BINARY, false),
};

/* INFO's interrupt vectors without tracepoints */
static const struct nc_pol nc_untraced_pol[NETCOST_UNTRACED_A_MAX + 1] = {
	POL(NETCOST_UNTRACED_A_NAME, NUL_STRING, true),
	POL(NETCOST_UNTRACED_A_COUNT, U64, false),
};

/* INFO describes each stage without its figures (0.2.0) */
static const struct nc_pol nc_info_stage_pol[NETCOST_STAGE_A_MAX + 1] = {
	POL(NETCOST_STAGE_A_ID, U32, false),
	POL(NETCOST_STAGE_A_NAME, NUL_STRING, true),
	POL(NETCOST_STAGE_A_UNIT, U8, true),
	POL(NETCOST_STAGE_A_ROLE, U8, false),
};

static const struct nc_pol nc_bucket_pol[NETCOST_BUCKET_A_MAX + 1] = {
	POL(NETCOST_BUCKET_A_LO, U64, true),
	POL(NETCOST_BUCKET_A_HI, U64, true),
	POL(NETCOST_BUCKET_A_COUNT, U64, true),
};

static const struct nc_pol nc_counter_pol[NETCOST_COUNTER_A_MAX + 1] = {
	POL(NETCOST_COUNTER_A_ID, U32, true),
	POL(NETCOST_COUNTER_A_NAME, NUL_STRING, true),
	POL(NETCOST_COUNTER_A_VALUE, U64, true),
};

/* One NAPI instance on the message's CPU (0.9.0): absent IFNAME, IRQ, THREAD_PID: none */
static const struct nc_pol nc_napi_pol[NETCOST_NAPI_A_MAX + 1] = {
	POL(NETCOST_NAPI_A_ID, U32, true),
	POL(NETCOST_NAPI_A_IFNAME, NUL_STRING, false),
	POL(NETCOST_NAPI_A_IFINDEX, U32, true),
	POL(NETCOST_NAPI_A_IRQ, U32, false),
	POL(NETCOST_NAPI_A_THREAD_PID, U32, false),
	POL(NETCOST_NAPI_A_POLLS, U64, true),
	POL(NETCOST_NAPI_A_PACKETS, U64, true),
	POL(NETCOST_NAPI_A_TIMED_POLLS, U64, true),
	POL(NETCOST_NAPI_A_CYCLES, U64, true),
};

/* TASKS (0.13.0): a message names the table's size, then held slots */
static const struct nc_pol nc_tasks_pol[NETCOST_A_MAX + 1] = {
	POL(NETCOST_A_TASK_SLOTS, U32, true),
	POL(NETCOST_A_TASK, NESTED, false),
};

static const struct nc_pol nc_task_pol[NETCOST_TASK_A_MAX + 1] = {
	POL(NETCOST_TASK_A_SLOT, U32, true),
	POL(NETCOST_TASK_A_PID, U32, true),
	POL(NETCOST_TASK_A_KIND, U8, true),
	POL(NETCOST_TASK_A_FRAMES, U32, true),
	POL(NETCOST_TASK_A_LOAD, U8, true),
	POL(NETCOST_TASK_A_WAKING, U8, true),
};

struct nc_tb {
	const struct nlattr **tb;
	const struct nc_pol *pol;
	unsigned int max;
	const char *what;		/* for the messages: "INFO", "stage" */
	bool bad;
};

/*
 * nc_attr_cb - file one attribute into the tb[] table after checking its
 * type.  Attributes newer than this tool are skipped, so a newer module
 * still works; a repeated one keeps its last copy here and is walked
 * separately by its reader.
 */
static int nc_attr_cb(const struct nlattr *attr, void *data)
{
	struct nc_tb *t = data;
	unsigned int type = mnl_attr_get_type(attr);

	if (type > t->max || t->pol[type].type == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, t->pol[type].type) < 0) {
		nc_err("invalid kernel response: %s attribute %s is malformed",
		       t->what, t->pol[type].name);
		t->bad = true;
		return MNL_CB_ERROR;
	}
	t->tb[type] = attr;
	return MNL_CB_OK;
}

/* nc_tb_check - every required attribute is there, else say which is not */
static int nc_tb_check(struct nc_tb *t)
{
	unsigned int i;

	for (i = 0; i <= t->max; i++) {
		if (t->pol[i].required && !t->tb[i]) {
			nc_err("invalid kernel response: %s lacks %s", t->what, t->pol[i].name);
			return -1;
		}
	}
	return 0;
}

/*
 * nc_parse_nested - fill @tb from the nest @nest by @pol and check it.
 * Returns 0, or -1 after printing why.
 */
static int nc_parse_nested(const struct nlattr *nest, const struct nc_pol *pol,
			   unsigned int max, const struct nlattr **tb, const char *what)
{
	struct nc_tb t = { tb, pol, max, what, false };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	if (mnl_attr_parse_nested(nest, nc_attr_cb, &t) != MNL_CB_OK) {
		if (!t.bad)
			nc_err("invalid kernel response: %s is malformed", what);
		return -1;
	}
	return nc_tb_check(&t);
}

/* nc_parse_msg - the same for the attributes of a generic netlink message */
static int nc_parse_msg(const struct nlmsghdr *nlh, const struct nc_pol *pol,
			const struct nlattr **tb, const char *what, bool check)
{
	struct nc_tb t = { tb, pol, NETCOST_A_MAX, what, false };

	memset(tb, 0, (NETCOST_A_MAX + 1) * sizeof(*tb));
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), nc_attr_cb, &t) != MNL_CB_OK) {
		if (!t.bad)
			nc_err("invalid kernel response: %s is malformed", what);
		return -1;
	}
	return check ? nc_tb_check(&t) : 0;
}

/* nc_copy_str - copy a string attribute, truncated to the field */
static void nc_copy_str(char *dst, size_t len, const struct nlattr *attr)
{
	snprintf(dst, len, "%s", mnl_attr_get_str(attr));
}

/* nc_parse_config - NETCOST_A_CONFIG into @cfg */
static int nc_parse_config(const struct nlattr *nest, struct nc_config *cfg)
{
	const struct nlattr *tb[NETCOST_CFG_A_MAX + 1];
	const struct nlattr *attr;

	if (nc_parse_nested(nest, nc_cfg_pol, NETCOST_CFG_A_MAX, tb, "CONFIG"))
		return -1;
	memset(cfg, 0, sizeof(*cfg));
	cfg->nic_irqs_auto = mnl_attr_get_u8(tb[NETCOST_CFG_A_NIC_IRQS_AUTO]);
	nc_copy_str(cfg->cpus, sizeof(cfg->cpus), tb[NETCOST_CFG_A_CPUMASK]);
	cfg->groups = mnl_attr_get_u32(tb[NETCOST_CFG_A_GROUPS]);
	cfg->recording = mnl_attr_get_u8(tb[NETCOST_CFG_A_RECORDING]);
	cfg->sample = tb[NETCOST_CFG_A_SAMPLE] ? mnl_attr_get_u32(tb[NETCOST_CFG_A_SAMPLE]) : 1;
	mnl_attr_for_each_nested(attr, nest) {
		if (mnl_attr_get_type(attr) != NETCOST_CFG_A_NIC_IRQ)
			continue;
		if (cfg->nr_nic_irqs >= NC_MAX_NIC_IRQS) {
			nc_warn("more than %d NIC IRQs configured; showing the first ones",
				NC_MAX_NIC_IRQS);
			break;
		}
		cfg->nic_irq[cfg->nr_nic_irqs++] = mnl_attr_get_u32(attr);
	}
	return 0;
}

/* nc_parse_hook - one NETCOST_A_HOOK nest into info->hook[] */
static int nc_parse_hook(const struct nlattr *nest, struct nc_info *info)
{
	const struct nlattr *tb[NETCOST_HOOK_A_MAX + 1];
	struct nc_hook *h;

	if (nc_parse_nested(nest, nc_hook_pol, NETCOST_HOOK_A_MAX, tb, "HOOK"))
		return -1;
	if (info->nr_hooks >= NC_MAX_HOOKS)
		return 0;	/* more than any module has: keep the first */
	h = &info->hook[info->nr_hooks++];
	nc_copy_str(h->name, sizeof(h->name), tb[NETCOST_HOOK_A_NAME]);
	h->kind = mnl_attr_get_u8(tb[NETCOST_HOOK_A_KIND]);
	h->group = mnl_attr_get_u32(tb[NETCOST_HOOK_A_GROUP]);
	h->attached = mnl_attr_get_u8(tb[NETCOST_HOOK_A_ATTACHED]);
	h->hits = mnl_attr_get_u64(tb[NETCOST_HOOK_A_HITS]);
	if (tb[NETCOST_HOOK_A_MISSED])
		h->missed = mnl_attr_get_u64(tb[NETCOST_HOOK_A_MISSED]);
	return 0;
}

/* nc_parse_untraced - one NETCOST_A_UNTRACED nest into info->untraced[] */
static int nc_parse_untraced(const struct nlattr *nest, struct nc_info *info)
{
	const struct nlattr *tb[NETCOST_UNTRACED_A_MAX + 1];
	struct nc_untraced *u;

	if (nc_parse_nested(nest, nc_untraced_pol, NETCOST_UNTRACED_A_MAX, tb, "UNTRACED"))
		return -1;
	if (!nc_name_ok(mnl_attr_get_str(tb[NETCOST_UNTRACED_A_NAME]))) {
		nc_err("invalid kernel response: UNTRACED name is not [a-z][a-z0-9_]*");
		return -1;
	}
	if (info->nr_untraced >= NC_MAX_UNTRACED)
		return 0;	/* more than any module sends: keep the first */
	u = &info->untraced[info->nr_untraced++];
	nc_copy_str(u->name, sizeof(u->name), tb[NETCOST_UNTRACED_A_NAME]);
	u->has_count = tb[NETCOST_UNTRACED_A_COUNT];
	if (u->has_count)
		u->count = mnl_attr_get_u64(tb[NETCOST_UNTRACED_A_COUNT]);
	return 0;
}

/* nc_parse_info_stage - one NETCOST_A_STAGE nest of INFO into info->stage[] */
static int nc_parse_info_stage(const struct nlattr *nest, struct nc_info *info)
{
	const struct nlattr *tb[NETCOST_STAGE_A_MAX + 1];
	struct nc_info_stage *is;

	if (nc_parse_nested(nest, nc_info_stage_pol, NETCOST_STAGE_A_MAX, tb, "INFO stage"))
		return -1;
	if (!nc_name_ok(mnl_attr_get_str(tb[NETCOST_STAGE_A_NAME]))) {
		nc_err("invalid kernel response: INFO stage name is not [a-z][a-z0-9_]*");
		return -1;
	}
	if (info->nr_stages >= NC_MAX_STAGES)
		return 0;	/* more than the model holds: the rest by default */
	is = &info->stage[info->nr_stages++];
	nc_copy_str(is->name, sizeof(is->name), tb[NETCOST_STAGE_A_NAME]);
	is->unit = mnl_attr_get_u8(tb[NETCOST_STAGE_A_UNIT]);
	is->role = tb[NETCOST_STAGE_A_ROLE] ? mnl_attr_get_u8(tb[NETCOST_STAGE_A_ROLE]) : -1;
	return 0;
}

/*
 * nc_parse_info_msg - an INFO reply into @info.  The module's version is
 * checked before anything else, since a module of another release may
 * well lack attributes: that is a version mismatch, not a broken reply.
 * Returns 0 or the exit status.
 */
int nc_parse_info_msg(const struct nlmsghdr *nlh, struct nc_info *info)
{
	const struct nlattr *tb[NETCOST_A_MAX + 1];
	const struct nlattr *attr;

	if (nc_parse_msg(nlh, nc_info_pol, tb, "INFO", false))
		return NC_EXIT_ERROR;
	if (tb[NETCOST_A_VERSION] &&
	    strcmp(mnl_attr_get_str(tb[NETCOST_A_VERSION]), NETCOST_VERSION)) {
		nc_err("module version %s does not match tool version %s (build and load both from one tree)",
		       mnl_attr_get_str(tb[NETCOST_A_VERSION]), NETCOST_VERSION);
		return NC_EXIT_VERSION;
	}
	if (nc_parse_msg(nlh, nc_info_pol, tb, "INFO", true))
		return NC_EXIT_ERROR;

	memset(info, 0, sizeof(*info));
	nc_copy_str(info->version, sizeof(info->version), tb[NETCOST_A_VERSION]);
	nc_copy_str(info->kernel, sizeof(info->kernel), tb[NETCOST_A_KERNEL]);
	info->preempt_rt = mnl_attr_get_u8(tb[NETCOST_A_PREEMPT_RT]);
	info->threadirqs = mnl_attr_get_u8(tb[NETCOST_A_THREADIRQS]);
	info->tsc_khz = mnl_attr_get_u32(tb[NETCOST_A_TSC_KHZ]);
	info->nr_cpus = mnl_attr_get_u32(tb[NETCOST_A_NR_CPUS_POSSIBLE]);
	info->nr_cpus_online = mnl_attr_get_u32(tb[NETCOST_A_NR_CPUS_ONLINE]);
	info->probe_cost = mnl_attr_get_u32(tb[NETCOST_A_PROBE_COST]);
	info->hist_buckets = mnl_attr_get_u32(tb[NETCOST_A_HIST_BUCKETS]);
	info->hist_sub_bits = mnl_attr_get_u32(tb[NETCOST_A_HIST_SUB_BITS]);
	info->mem_per_cpu = mnl_attr_get_u32(tb[NETCOST_A_MEM_PER_CPU]);
	info->reset_ns = mnl_attr_get_u64(tb[NETCOST_A_RESET_NS]);
	info->now_ns = mnl_attr_get_u64(tb[NETCOST_A_NOW_NS]);
	info->reset_cycles = mnl_attr_get_u64(tb[NETCOST_A_RESET_CYCLES]);
	info->now_cycles = mnl_attr_get_u64(tb[NETCOST_A_NOW_CYCLES]);
	info->generation = mnl_attr_get_u32(tb[NETCOST_A_GENERATION]);
	if (info->hist_buckets != NETCOST_HIST_BUCKETS ||
	    info->hist_sub_bits != NETCOST_HIST_SUB_BITS) {
		nc_err("module histograms (%u buckets, %u sub-bits) differ from the tool's (%u, %u): build both from one tree",
		       info->hist_buckets, info->hist_sub_bits,
		       NETCOST_HIST_BUCKETS, NETCOST_HIST_SUB_BITS);
		return NC_EXIT_VERSION;
	}
	if (nc_parse_config(tb[NETCOST_A_CONFIG], &info->config))
		return NC_EXIT_ERROR;
	if (tb[NETCOST_A_TASK_SLOTS] && tb[NETCOST_A_TASK_SLOTS_USED]) {
		info->has_task_slots = true;
		info->task_slots = mnl_attr_get_u32(tb[NETCOST_A_TASK_SLOTS]);
		info->task_slots_used = mnl_attr_get_u32(tb[NETCOST_A_TASK_SLOTS_USED]);
	}
	if (tb[NETCOST_A_TASK_SLOTS_KTHREADS]) {
		info->has_task_slots_kthreads = true;
		info->task_slots_kthreads = mnl_attr_get_u32(tb[NETCOST_A_TASK_SLOTS_KTHREADS]);
	}
	if (tb[NETCOST_A_NIC_DEVICES]) {
		info->has_nic_devices = true;
		info->nic_devices = mnl_attr_get_u32(tb[NETCOST_A_NIC_DEVICES]);
	}
	if (tb[NETCOST_A_PROBE_COST_P50])
		info->probe_cost_p50 = mnl_attr_get_u32(tb[NETCOST_A_PROBE_COST_P50]);
	if (tb[NETCOST_A_PROBE_COST_P90])
		info->probe_cost_p90 = mnl_attr_get_u32(tb[NETCOST_A_PROBE_COST_P90]);
	if (tb[NETCOST_A_PROBE_COST_SAMPLES])
		info->probe_cost_samples = mnl_attr_get_u64(tb[NETCOST_A_PROBE_COST_SAMPLES]);
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == NETCOST_A_HOOK &&
		    nc_parse_hook(attr, info))
			return NC_EXIT_ERROR;
		if (mnl_attr_get_type(attr) == NETCOST_A_STAGE &&
		    nc_parse_info_stage(attr, info))
			return NC_EXIT_ERROR;
		if (mnl_attr_get_type(attr) == NETCOST_A_UNTRACED &&
		    nc_parse_untraced(attr, info))
			return NC_EXIT_ERROR;
	}
	return NC_EXIT_OK;
}

/*
 * nc_parse_bucket - one NETCOST_STAGE_A_BUCKET into @h.  Its bounds must
 * be exactly the tool's bucket of that index: the two sides share
 * netcost_hist.h, so anything else is a broken (or foreign) module.
 */
static int nc_parse_bucket(const struct nlattr *nest, struct nc_hist *h)
{
	const struct nlattr *tb[NETCOST_BUCKET_A_MAX + 1];
	uint64_t lo, hi;
	uint32_t i;

	if (nc_parse_nested(nest, nc_bucket_pol, NETCOST_BUCKET_A_MAX, tb, "bucket"))
		return -1;
	lo = mnl_attr_get_u64(tb[NETCOST_BUCKET_A_LO]);
	hi = mnl_attr_get_u64(tb[NETCOST_BUCKET_A_HI]);
	i = netcost_hist_index(lo);
	if (netcost_hist_lo(i) != lo || netcost_hist_hi(i) != hi) {
		nc_err("invalid kernel response: bucket [%llu, %llu] is not one of the tool's",
		       (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	h->buckets[i] += mnl_attr_get_u64(tb[NETCOST_BUCKET_A_COUNT]);
	return 0;
}

/*
 * nc_parse_bucket_run - NETCOST_STAGE_A_BUCKET_FIRST/_COUNTS (0.3.0): the
 * counts of buckets FIRST, FIRST+1, ... into @h.  The message named its
 * layout (@layout), and it is the tool's, or the indexes mean nothing.
 */
static int nc_parse_bucket_run(const struct nlattr *const *tb, bool layout,
			       struct nc_hist *h)
{
	const struct nlattr *run = tb[NETCOST_STAGE_A_BUCKET_COUNTS];
	const uint8_t *p = mnl_attr_get_payload(run);
	size_t len = mnl_attr_get_payload_len(run), n, k;
	uint32_t first;

	if (!layout) {
		nc_err("invalid kernel response: STATS sends packed buckets without their layout");
		return -1;
	}
	if (!tb[NETCOST_STAGE_A_BUCKET_FIRST]) {
		nc_err("invalid kernel response: stage lacks NETCOST_STAGE_A_BUCKET_FIRST");
		return -1;
	}
	first = mnl_attr_get_u32(tb[NETCOST_STAGE_A_BUCKET_FIRST]);
	n = len / sizeof(uint64_t);
	if (len % sizeof(uint64_t) || first > NETCOST_HIST_BUCKETS ||
	    n > NETCOST_HIST_BUCKETS - first) {
		nc_err("invalid kernel response: a run of %zu bytes of buckets from bucket %u",
		       len, first);
		return -1;
	}
	for (k = 0; k < n; k++) {
		uint64_t v;

		memcpy(&v, p + k * sizeof(v), sizeof(v));
		h->buckets[first + k] += v;
	}
	return 0;
}

/*
 * nc_parse_stage - one NETCOST_A_STAGE nest (or a fragment of one) into
 * CPU @c.  A fragment repeats COUNT..MAX from the same consistent copy and
 * carries further buckets, so the scalars are set and the buckets add up.
 * @layout: the message named a bucket layout, the tool's.
 */
static int nc_parse_stage(const struct nlattr *nest, struct nc_model *m,
			  struct nc_cpu *c, bool layout)
{
	const struct nlattr *tb[NETCOST_STAGE_A_MAX + 1];
	const struct nlattr *attr;
	struct nc_hist *h;
	int s;

	if (nc_parse_nested(nest, nc_stage_pol, NETCOST_STAGE_A_MAX, tb, "stage"))
		return -1;
	s = nc_model_stage(m, mnl_attr_get_str(tb[NETCOST_STAGE_A_NAME]),
			   mnl_attr_get_u8(tb[NETCOST_STAGE_A_UNIT]));
	if (s < 0) {
		nc_err("invalid kernel response: stage \"%s\" is one too many",
		       mnl_attr_get_str(tb[NETCOST_STAGE_A_NAME]));
		return -1;
	}
	if (tb[NETCOST_STAGE_A_ROLE] &&
	    nc_model_set_role(m, (unsigned int)s, mnl_attr_get_u8(tb[NETCOST_STAGE_A_ROLE])) &&
	    mnl_attr_get_u8(tb[NETCOST_STAGE_A_ROLE]) < NC_NR_ROLES) {
		nc_err("invalid kernel response: stage \"%s\" changes its role",
		       mnl_attr_get_str(tb[NETCOST_STAGE_A_NAME]));
		return -1;
	}
	h = nc_cpu_hist(c, s);
	h->count = mnl_attr_get_u64(tb[NETCOST_STAGE_A_COUNT]);
	h->sum = mnl_attr_get_u64(tb[NETCOST_STAGE_A_SUM]);
	h->min = mnl_attr_get_u64(tb[NETCOST_STAGE_A_MIN_VAL]);
	h->max = mnl_attr_get_u64(tb[NETCOST_STAGE_A_MAX_VAL]);
	mnl_attr_for_each_nested(attr, nest) {
		if (mnl_attr_get_type(attr) == NETCOST_STAGE_A_BUCKET &&
		    nc_parse_bucket(attr, h))
			return -1;
	}
	if (tb[NETCOST_STAGE_A_BUCKET_COUNTS])
		return nc_parse_bucket_run(tb, layout, h);
	return 0;
}

/* nc_parse_counter - one NETCOST_A_COUNTER nest into CPU @c */
static int nc_parse_counter(const struct nlattr *nest, struct nc_model *m,
			    struct nc_cpu *c)
{
	const struct nlattr *tb[NETCOST_COUNTER_A_MAX + 1];
	int i;

	if (nc_parse_nested(nest, nc_counter_pol, NETCOST_COUNTER_A_MAX, tb, "counter"))
		return -1;
	i = nc_model_counter(m, mnl_attr_get_str(tb[NETCOST_COUNTER_A_NAME]));
	if (i < 0) {
		nc_err("invalid kernel response: counter \"%s\" is one too many",
		       mnl_attr_get_str(tb[NETCOST_COUNTER_A_NAME]));
		return -1;
	}
	c->counter[i] = mnl_attr_get_u64(tb[NETCOST_COUNTER_A_VALUE]);
	c->has_counter[i] = true;
	return 0;
}

/*
 * nc_parse_napi - one NETCOST_A_NAPI nest into CPU @c.  A CPU's instance
 * sent twice adds up.  The device name is kept with any control character
 * escaped (it reaches terminals and files); an empty one is none.  Past
 * NC_MAX_NAPI entries the instance only counts in m->napi_dropped.
 */
static int nc_parse_napi(const struct nlattr *nest, struct nc_model *m, struct nc_cpu *c)
{
	const struct nlattr *tb[NETCOST_NAPI_A_MAX + 1];
	struct nc_napi n = { 0 }, *e;

	if (nc_parse_nested(nest, nc_napi_pol, NETCOST_NAPI_A_MAX, tb, "NAPI"))
		return -1;
	n.id = mnl_attr_get_u32(tb[NETCOST_NAPI_A_ID]);
	n.ifindex = mnl_attr_get_u32(tb[NETCOST_NAPI_A_IFINDEX]);
	if (tb[NETCOST_NAPI_A_IFNAME] && *mnl_attr_get_str(tb[NETCOST_NAPI_A_IFNAME])) {
		n.has_ifname = true;
		nc_escape_ascii(mnl_attr_get_str(tb[NETCOST_NAPI_A_IFNAME]), n.ifname,
				sizeof(n.ifname));
	}
	if (tb[NETCOST_NAPI_A_IRQ]) {
		n.has_irq = true;
		n.irq = mnl_attr_get_u32(tb[NETCOST_NAPI_A_IRQ]);
	}
	if (tb[NETCOST_NAPI_A_THREAD_PID]) {
		n.has_thread_pid = true;
		n.thread_pid = mnl_attr_get_u32(tb[NETCOST_NAPI_A_THREAD_PID]);
	}
	n.polls = mnl_attr_get_u64(tb[NETCOST_NAPI_A_POLLS]);
	n.packets = mnl_attr_get_u64(tb[NETCOST_NAPI_A_PACKETS]);
	n.timed_polls = mnl_attr_get_u64(tb[NETCOST_NAPI_A_TIMED_POLLS]);
	n.cycles = mnl_attr_get_u64(tb[NETCOST_NAPI_A_CYCLES]);
	e = nc_model_napi(m, c, &n);
	if (e)
		nc_napi_add(e, &n);
	return 0;
}

/*
 * nc_parse_stats_msg - one STATS dump message into @m, merged with what
 * earlier messages said about the same CPU.  Returns 0, or -1 after
 * printing why.
 */
int nc_parse_stats_msg(const struct nlmsghdr *nlh, struct nc_model *m)
{
	const struct nlattr *tb[NETCOST_A_MAX + 1];
	const struct nlattr *attr;
	struct nc_cpu *c;
	bool layout;

	if (nc_parse_msg(nlh, nc_stats_pol, tb, "STATS", true))
		return -1;
	layout = tb[NETCOST_A_HIST_BUCKETS] && tb[NETCOST_A_HIST_SUB_BITS];
	if (layout && (mnl_attr_get_u32(tb[NETCOST_A_HIST_BUCKETS]) != NETCOST_HIST_BUCKETS ||
		       mnl_attr_get_u32(tb[NETCOST_A_HIST_SUB_BITS]) != NETCOST_HIST_SUB_BITS)) {
		nc_err("the module's histograms have %u buckets, %u sub-bits; this tool's %u, %u: "
		       "use the tool built with the module",
		       mnl_attr_get_u32(tb[NETCOST_A_HIST_BUCKETS]),
		       mnl_attr_get_u32(tb[NETCOST_A_HIST_SUB_BITS]),
		       (unsigned int)NETCOST_HIST_BUCKETS, (unsigned int)NETCOST_HIST_SUB_BITS);
		return -1;
	}
	c = nc_model_cpu(m, mnl_attr_get_u32(tb[NETCOST_A_CPU]));
	if (!c) {
		nc_err("invalid kernel response: CPU %u is out of range",
		       mnl_attr_get_u32(tb[NETCOST_A_CPU]));
		return -1;
	}
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(attr)) {
		case NETCOST_A_STAGE:
			if (nc_parse_stage(attr, m, c, layout))
				return -1;
			break;
		case NETCOST_A_COUNTER:
			if (nc_parse_counter(attr, m, c))
				return -1;
			break;
		case NETCOST_A_NAPI:
			if (nc_parse_napi(attr, m, c))
				return -1;
			break;
		}
	}
	return 0;
}

struct nc_info_req {
	struct nc_info *info;
	int status;
};

/* nc_info_cb - the INFO reply */
static int nc_info_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nc_info_req *req = data;

	req->status = nc_parse_info_msg(nlh, req->info);
	return req->status ? MNL_CB_ERROR : MNL_CB_OK;
}

/* nc_fetch_info - NETCOST_CMD_INFO into @info; 0 or the exit status */
int nc_fetch_info(struct nc_nl *nl, struct nc_info *info)
{
	struct nc_info_req req = { info, -1 };	/* -1: no reply yet */
	int ret;

	ret = nc_nl_talk(nl, nc_nl_request(nl, NETCOST_CMD_INFO, 0), nc_info_cb, &req);
	if (ret)
		return req.status > 0 ? req.status : ret;
	if (req.status) {
		nc_err("invalid kernel response: INFO sent no reply");
		return NC_EXIT_ERROR;
	}
	return NC_EXIT_OK;
}

struct nc_config_req {
	struct nc_config *cfg;
	bool seen;
};

/* nc_config_cb - the CONFIG_GET reply */
static int nc_config_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NETCOST_A_MAX + 1];
	struct nc_config_req *req = data;

	if (nc_parse_msg(nlh, nc_config_get_pol, tb, "CONFIG_GET", true) ||
	    nc_parse_config(tb[NETCOST_A_CONFIG], req->cfg))
		return MNL_CB_ERROR;
	req->seen = true;
	return MNL_CB_OK;
}

/* nc_fetch_config - NETCOST_CMD_CONFIG_GET into @cfg; 0 or the exit status */
int nc_fetch_config(struct nc_nl *nl, struct nc_config *cfg)
{
	struct nc_config_req req = { cfg, false };
	int ret;

	ret = nc_nl_talk(nl, nc_nl_request(nl, NETCOST_CMD_CONFIG_GET, 0),
			 nc_config_cb, &req);
	if (ret)
		return ret;
	if (!req.seen) {
		nc_err("invalid kernel response: CONFIG_GET sent no reply");
		return NC_EXIT_ERROR;
	}
	return NC_EXIT_OK;
}

/* nc_stats_cb - one STATS dump message */
static int nc_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	return nc_parse_stats_msg(nlh, data) ? MNL_CB_ERROR : MNL_CB_OK;
}

#define NC_FETCH_TRIES	3

/*
 * nc_fetch - INFO, the STATS dump and INFO again into @m, through an open
 * socket.  A dump the kernel marks NLM_F_DUMP_INTR, or one that a reset
 * (a new generation) overtook, is taken again, a few times, and then used
 * with a warning.  The second INFO's NOW ends the interval.
 */
int nc_fetch(struct nc_nl *nl, struct nc_model *m)
{
	struct nc_info before;
	bool torn = false;
	int ret, try;

	for (try = 0; try < NC_FETCH_TRIES; try++) {
		ret = nc_fetch_info(nl, &before);
		if (ret)
			return ret;
		nc_model_clear_stats(m);
		ret = nc_nl_talk(nl, nc_nl_request(nl, NETCOST_CMD_STATS, NLM_F_DUMP),
				 nc_stats_cb, m);
		if (ret)
			return ret;
		torn = nl->dump_intr;
		ret = nc_fetch_info(nl, &m->info);
		if (ret)
			return ret;
		nc_model_info_stages(m);
		torn = torn || before.generation != m->info.generation;
		if (!torn)
			break;
	}
	if (torn)
		nc_warn("statistics changed during the dump (interrupted %d times); numbers may not add up",
			NC_FETCH_TRIES);
	nc_model_sum_total(m, NULL);
	return NC_EXIT_OK;
}

/* nc_fetch_once - open, nc_fetch(), close: for the one-shot subcommands */
int nc_fetch_once(struct nc_model *m)
{
	struct nc_nl nl;
	int ret;

	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	ret = nc_fetch(&nl, m);
	nc_nl_close(&nl);
	return ret;
}

/*
 * nc_parse_tasks_msg - one TASKS dump message, its held slots appended to
 * @l.  Returns 0, or -1 after printing why.
 */
int nc_parse_tasks_msg(const struct nlmsghdr *nlh, struct nc_task_list *l)
{
	const struct nlattr *tb[NETCOST_A_MAX + 1];
	const struct nlattr *ttb[NETCOST_TASK_A_MAX + 1];
	const struct nlattr *attr;

	if (nc_parse_msg(nlh, nc_tasks_pol, tb, "TASKS", true))
		return -1;
	l->slots = mnl_attr_get_u32(tb[NETCOST_A_TASK_SLOTS]);
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		struct nc_task_slot *t;

		if (mnl_attr_get_type(attr) != NETCOST_A_TASK)
			continue;
		if (nc_parse_nested(attr, nc_task_pol, NETCOST_TASK_A_MAX, ttb, "TASK"))
			return -1;
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 64;
			l->v = nc_xrealloc(l->v, l->cap * sizeof(*l->v));
		}
		t = &l->v[l->n++];
		t->slot = mnl_attr_get_u32(ttb[NETCOST_TASK_A_SLOT]);
		t->pid = mnl_attr_get_u32(ttb[NETCOST_TASK_A_PID]);
		t->kind = mnl_attr_get_u8(ttb[NETCOST_TASK_A_KIND]);
		t->frames = mnl_attr_get_u32(ttb[NETCOST_TASK_A_FRAMES]);
		t->load = mnl_attr_get_u8(ttb[NETCOST_TASK_A_LOAD]);
		t->waking = mnl_attr_get_u8(ttb[NETCOST_TASK_A_WAKING]);
	}
	return 0;
}

/* nc_tasks_cb - one TASKS dump message */
static int nc_tasks_cb(const struct nlmsghdr *nlh, void *data)
{
	return nc_parse_tasks_msg(nlh, data) ? MNL_CB_ERROR : MNL_CB_OK;
}

/* nc_fetch_tasks - NETCOST_CMD_TASKS into @l (empty); 0 or the exit status */
int nc_fetch_tasks(struct nc_nl *nl, struct nc_task_list *l)
{
	int ret;

	memset(l, 0, sizeof(*l));
	ret = nc_nl_talk(nl, nc_nl_request(nl, NETCOST_CMD_TASKS, NLM_F_DUMP),
			 nc_tasks_cb, l);
	if (!ret && !l->slots) {
		nc_err("invalid kernel response: TASKS sent no reply");
		ret = NC_EXIT_ERROR;
	}
	return ret;
}

void nc_task_list_free(struct nc_task_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
