// SPDX-License-Identifier: GPL-2.0
/*
 * test_nl.c - the netlink parser (lib/stats.c) on replies built from a
 * model as the module lays them out (nlmsg.h): INFO and STATS come back
 * into an equal model; the stage roles the module sends (UAPI 0.2.0) win
 * over the built-in table, which stands in for an older module; roles and
 * the task-table fill survive a snapshot.
 *
 * With NC_RECORD_DIR set, it also writes the replies there, one stream of
 * messages per file: the seeds of the netlink fuzzer (corpus-netlink/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nlmsg.h"
#include "snapshot.h"
#include "stats.h"
#include "synth.h"

#define BUF_LEN	(1 << 20)

/* reply - the INFO message and every CPU's STATS message of @m, in @buf */
static size_t reply(char *buf, const struct nc_model *m, bool roles)
{
	size_t off = 0;
	unsigned int i;
	struct nlmsghdr *nlh;

	memset(buf, 0, BUF_LEN);
	nlh = nlmsg_info(buf, m, roles);
	off += MNL_ALIGN(nlh->nlmsg_len);
	for (i = 0; i < m->nr_cpus; i++) {
		nlh = nlmsg_stats(buf + off, BUF_LEN - off, m, &m->cpus[i], roles);
		off += MNL_ALIGN(nlh->nlmsg_len);
	}
	nlh = mnl_nlmsg_put_header(buf + off);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	off += MNL_ALIGN(nlh->nlmsg_len);
	return off;
}

/* parse - the replies in @buf into @m (inited), as nc_fetch() would */
static int parse(char *buf, size_t len, struct nc_model *m)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	int n = (int)len, ret = 0;

	for (; mnl_nlmsg_ok(nlh, n) && !ret; nlh = mnl_nlmsg_next(nlh, &n)) {
		const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_type == NLMSG_DONE)
			break;
		if (g->cmd == NETCOST_CMD_INFO)
			ret = nc_parse_info_msg(nlh, &m->info);
		else if (g->cmd == NETCOST_CMD_STATS)
			ret = nc_parse_stats_msg(nlh, m);
	}
	nc_model_info_stages(m);
	nc_model_sum_total(m, NULL);
	return ret;
}

static void record(const char *name, const char *buf, size_t len)
{
	const char *dir = getenv("NC_RECORD_DIR");
	char path[1024];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

/* same_stats - @a and @b hold the same figures, stage by stage by name */
static void same_stats(const struct nc_model *a, const struct nc_model *b)
{
	unsigned int i, s;

	assert_int_equal(a->nr_cpus, b->nr_cpus);
	for (i = 0; i < a->nr_cpus; i++) {
		for (s = 0; s < a->nr_stages; s++) {
			int t = nc_model_find_stage(b, a->stage[s].name);
			const struct nc_hist *ha = a->cpus[i].stage[s];

			if (!ha)
				continue;
			assert_true(t >= 0);
			assert_non_null(b->cpus[i].stage[t]);
			assert_memory_equal(ha, b->cpus[i].stage[t], sizeof(*ha));
		}
		for (s = 0; s < a->nr_counters; s++) {
			int t = nc_model_find_counter(b, a->counter[s]);

			if (!a->cpus[i].has_counter[s])
				continue;
			assert_true(t >= 0);
			assert_int_equal(a->cpus[i].counter[s], b->cpus[i].counter[t]);
		}
	}
}

/* a model whose roles differ from the table where a module could say so */
static void model_with_roles(struct nc_model *m)
{
	nc_model_init(m);
	synth_model(m, true, true);
	synth_stage(m, 0, "hardirq_vectors", 100, 500, 0.2, 7);
	nc_model_stage(m, "future_stage", NETCOST_UNIT_CYCLES);
	synth_stage(m, 0, "future_stage", 50, 700, 0.2, 8);
	/* what a newer module might decide */
	m->stage[nc_model_find_stage(m, "future_stage")].role = NC_ROLE_TOP;
	m->stage[nc_model_find_stage(m, "hardirq_vectors")].role = NC_ROLE_OTHER;
	m->stage[nc_model_find_stage(m, "napi_poll")].role = NC_ROLE_NESTED;
	nc_model_sum_total(m, NULL);
}

static void test_round_trip(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *buf = malloc(BUF_LEN);
	size_t len;
	int s;

	(void)state;
	model_with_roles(a);
	len = reply(buf, a, true);
	record("rt-roles.bin", buf, len);
	nc_model_init(b);
	assert_int_equal(parse(buf, len, b), 0);
	same_stats(a, b);
	assert_string_equal(b->info.kernel, a->info.kernel);
	assert_int_equal(b->info.now_cycles, a->info.now_cycles);
	assert_int_equal(b->info.nr_hooks, a->info.nr_hooks);
	assert_true(b->info.has_task_slots);
	assert_int_equal(b->info.task_slots, 1024);
	assert_int_equal(b->info.task_slots_used, 17);
	/* the module's word on roles, even for a stage the tool never heard of */
	s = nc_model_find_stage(b, "future_stage");
	assert_true(s >= 0);
	assert_int_equal(b->stage[s].role, NC_ROLE_TOP);
	assert_true(b->stage[s].role_sent);
	assert_int_equal(b->stage[nc_model_find_stage(b, "hardirq")].role, NC_ROLE_TOP);
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
	free(buf);
}

/* a module before 0.2.0: no roles, no task slots; the table decides */
static void test_old_module(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *buf = malloc(BUF_LEN);
	size_t len;
	int s;

	(void)state;
	model_with_roles(a);
	len = reply(buf, a, false);
	record("rt-old.bin", buf, len);
	nc_model_init(b);
	assert_int_equal(parse(buf, len, b), 0);
	same_stats(a, b);
	assert_false(b->info.has_task_slots);
	s = nc_model_find_stage(b, "future_stage");
	assert_int_equal(b->stage[s].role, NC_ROLE_NESTED);	/* unknown: kept out of the total */
	assert_false(b->stage[s].role_sent);
	assert_int_equal(b->stage[nc_model_find_stage(b, "wakeup_latency")].role, NC_ROLE_LATENCY);
	nc_model_free(a);
	nc_model_free(b);

	nc_model_init(a);
	synth_model(a, false, false);
	len = reply(buf, a, true);
	record("stock-roles.bin", buf, len);
	nc_model_free(a);
	free(a);
	free(b);
	free(buf);
}

/* roles and the task table survive save and load; old files get the table */
static void test_snapshot_keeps_roles(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *buf = malloc(BUF_LEN);
	size_t len;
	int s;

	(void)state;
	model_with_roles(a);
	len = reply(buf, a, true);
	nc_model_free(a);
	nc_model_init(a);
	assert_int_equal(parse(buf, len, a), 0);
	a->has_meta = true;
	nc_meta_collect(&a->meta, &a->info, "roles");
	assert_int_equal(nc_snapshot_save(a, TEST_OUT "/roles.json"), 0);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, TEST_OUT "/roles.json"), 0);
	s = nc_model_find_stage(b, "future_stage");
	assert_true(s >= 0);
	assert_int_equal(b->stage[s].role, NC_ROLE_TOP);
	assert_true(b->info.has_task_slots);
	assert_int_equal(b->info.task_slots_used, 17);
	nc_model_free(b);

	/* a file of 0.1.0: no roles in it */
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, TEST_DIR "/corpus/small.json"), 0);
	s = nc_model_find_stage(b, "future_stage");
	assert_int_equal(b->stage[s].role, NC_ROLE_NESTED);
	assert_false(b->stage[s].role_sent);
	assert_int_equal(b->stage[nc_model_find_stage(b, "hardirq")].role, NC_ROLE_TOP);
	assert_false(b->info.has_task_slots);
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
	free(buf);
}

/* a STATS message that contradicts an earlier role is a broken reply */
static void test_role_conflict(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *buf = malloc(BUF_LEN);
	size_t len;

	(void)state;
	model_with_roles(a);
	len = reply(buf, a, true);
	nc_model_init(b);
	b->stage[nc_model_find_stage(b, "hardirq")].role = NC_ROLE_OTHER;
	b->stage[nc_model_find_stage(b, "hardirq")].role_sent = true;
	nc_err_quiet = true;
	assert_int_not_equal(parse(buf, len, b), 0);
	nc_err_quiet = false;
	assert_non_null(strstr(nc_last_err, "stage \"hardirq\" changes its role"));
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_old_module),
		cmocka_unit_test(test_snapshot_keeps_roles),
		cmocka_unit_test(test_role_conflict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
