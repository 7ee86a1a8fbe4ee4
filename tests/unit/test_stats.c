// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - the netlink side of the model without a kernel: INFO and
 * STATS messages built here with libmnl, as the module builds them, are
 * parsed into the model.  Checks that STATS fragments merge by (cpu,
 * stage), that unknown stages survive, that a missing attribute or a
 * foreign bucket is an "invalid kernel response", that a module of
 * another release is exit 5, and that TASKS messages add up to one list,
 * which "netcost tasks" (userspace/netcost/tasks.c, compiled in here)
 * prints with every task's name escaped, whatever bytes the name holds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <cmocka.h>

#include "stats.h"
#include "synth.h"
#include "../../userspace/netcost/tasks.c"

#define T	TEST_OUT "/stats-proc"

static char buf[65536];

/* msg - a generic netlink message of @cmd in buf */
static struct nlmsghdr *msg(uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	nlh->nlmsg_type = 0x20;
	g->cmd = cmd;
	g->version = NETCOST_GENL_VERSION;
	return nlh;
}

/* put_stage - a stage nest with @nb buckets of @lo[i] x @cnt[i]; @skip omits one attr */
static void put_stage(struct nlmsghdr *nlh, uint32_t id, const char *name, uint8_t unit,
		      uint64_t count, uint64_t sum, uint64_t min, uint64_t max,
		      const uint64_t *lo, const uint64_t *cnt, int nb, int skip)
{
	struct nlattr *st = mnl_attr_nest_start(nlh, NETCOST_A_STAGE);
	int i;

	if (skip != NETCOST_STAGE_A_ID)
		mnl_attr_put_u32(nlh, NETCOST_STAGE_A_ID, id);
	if (skip != NETCOST_STAGE_A_NAME)
		mnl_attr_put_strz(nlh, NETCOST_STAGE_A_NAME, name);
	mnl_attr_put_u8(nlh, NETCOST_STAGE_A_UNIT, unit);
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_COUNT, count);
	if (skip != NETCOST_STAGE_A_SUM)
		mnl_attr_put_u64(nlh, NETCOST_STAGE_A_SUM, sum);
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_MIN_VAL, min);
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_MAX_VAL, max);
	for (i = 0; i < nb; i++) {
		struct nlattr *b = mnl_attr_nest_start(nlh, NETCOST_STAGE_A_BUCKET);
		uint32_t idx = netcost_hist_index(lo[i]);

		mnl_attr_put_u64(nlh, NETCOST_BUCKET_A_LO, netcost_hist_lo(idx));
		mnl_attr_put_u64(nlh, NETCOST_BUCKET_A_HI, skip == 100 ?
				 netcost_hist_hi(idx) + 1 : netcost_hist_hi(idx));
		mnl_attr_put_u64(nlh, NETCOST_BUCKET_A_COUNT, cnt[i]);
		mnl_attr_nest_end(nlh, b);
	}
	mnl_attr_nest_end(nlh, st);
}

static void put_counter(struct nlmsghdr *nlh, uint32_t id, const char *name, uint64_t v)
{
	struct nlattr *c = mnl_attr_nest_start(nlh, NETCOST_A_COUNTER);

	mnl_attr_put_u32(nlh, NETCOST_COUNTER_A_ID, id);
	mnl_attr_put_strz(nlh, NETCOST_COUNTER_A_NAME, name);
	mnl_attr_put_u64(nlh, NETCOST_COUNTER_A_VALUE, v);
	mnl_attr_nest_end(nlh, c);
}

/* a stage split over two messages merges; counters and CPUs land right */
static void test_fragments_merge(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	const uint64_t lo1[] = { 100, 1000 }, c1[] = { 1, 2 };
	const uint64_t lo2[] = { 5000 }, c2[] = { 4 };
	struct nlmsghdr *nlh;
	struct nc_hist *h;

	(void)state;
	nc_model_init(m);
	nlh = msg(NETCOST_CMD_STATS);
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, 1);
	put_stage(nlh, NETCOST_STAGE_HARDIRQ, "hardirq", 0, 7, 22100, 100, 5000, lo1, c1, 2, -1);
	assert_int_equal(nc_parse_stats_msg(nlh, m), 0);
	nlh = msg(NETCOST_CMD_STATS);
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, 1);
	put_stage(nlh, NETCOST_STAGE_HARDIRQ, "hardirq", 0, 7, 22100, 100, 5000, lo2, c2, 1, -1);
	put_counter(nlh, NETCOST_CTR_RX_PACKETS, "rx_packets", 70);
	assert_int_equal(nc_parse_stats_msg(nlh, m), 0);
	nlh = msg(NETCOST_CMD_STATS);
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, 0);
	put_counter(nlh, NETCOST_CTR_RX_PACKETS, "rx_packets", 30);
	assert_int_equal(nc_parse_stats_msg(nlh, m), 0);

	assert_int_equal(m->nr_cpus, 2);
	assert_int_equal(m->cpus[0].cpu, 0);	/* kept in CPU order */
	h = m->cpus[1].stage[NETCOST_STAGE_HARDIRQ];
	assert_non_null(h);
	assert_int_equal(h->count, 7);
	assert_int_equal(h->sum, 22100);
	assert_int_equal(h->buckets[netcost_hist_index(100)], 1);
	assert_int_equal(h->buckets[netcost_hist_index(1000)], 2);
	assert_int_equal(h->buckets[netcost_hist_index(5000)], 4);
	nc_model_sum_total(m, NULL);
	assert_int_equal(m->total.counter[NETCOST_CTR_RX_PACKETS], 100);
	assert_int_equal(m->total.stage[NETCOST_STAGE_HARDIRQ]->count, 7);
	nc_model_free(m);
	free(m);
}

/* a stage a newer module sends is kept under its name and unit */
static void test_unknown_stage(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	const uint64_t lo[] = { 3 }, c[] = { 9 };
	struct nlmsghdr *nlh;
	int s;

	(void)state;
	nc_model_init(m);
	nlh = msg(NETCOST_CMD_STATS);
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, 0);
	put_stage(nlh, 99, "gro_flush", NETCOST_UNIT_PACKETS, 9, 27, 3, 3, lo, c, 1, -1);
	put_counter(nlh, 77, "xdp_drops", 5);
	assert_int_equal(nc_parse_stats_msg(nlh, m), 0);
	s = nc_model_find_stage(m, "gro_flush");
	assert_true(s > NETCOST_STAGE_MAX);
	assert_int_equal(m->stage[s].unit, NETCOST_UNIT_PACKETS);
	assert_int_equal(m->cpus[0].stage[s]->buckets[3], 9);
	assert_true(nc_model_find_counter(m, "xdp_drops") > NETCOST_CTR_MAX);
	nc_model_free(m);
	free(m);
}

/* what the parser refuses, and what it says */
static void test_invalid_responses(void **state)
{
	static const struct {
		int skip;
		const char *msg;
	} cases[] = {
		{ NETCOST_STAGE_A_SUM, "invalid kernel response: stage lacks NETCOST_STAGE_A_SUM" },
		{ NETCOST_STAGE_A_NAME, "invalid kernel response: stage lacks NETCOST_STAGE_A_NAME" },
		{ 100 /* a bad bucket HI */, "is not one of the tool's" },
	};
	struct nc_model *m = calloc(1, sizeof(*m));
	const uint64_t lo[] = { 100 }, c[] = { 1 };
	struct nlmsghdr *nlh;
	unsigned int i;

	(void)state;
	nc_err_quiet = true;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		nc_model_init(m);
		nlh = msg(NETCOST_CMD_STATS);
		mnl_attr_put_u32(nlh, NETCOST_A_CPU, 0);
		put_stage(nlh, 0, "hardirq", 0, 1, 100, 100, 100, lo, c, 1, cases[i].skip);
		assert_int_equal(nc_parse_stats_msg(nlh, m), -1);
		if (!strstr(nc_last_err, cases[i].msg))
			fail_msg("got \"%s\", want \"%s\"", nc_last_err, cases[i].msg);
		nc_model_free(m);
	}
	/* no CPU */
	nc_model_init(m);
	nlh = msg(NETCOST_CMD_STATS);
	put_counter(nlh, 0, "rx_packets", 1);
	assert_int_equal(nc_parse_stats_msg(nlh, m), -1);
	assert_non_null(strstr(nc_last_err, "STATS lacks NETCOST_A_CPU"));
	/* a u32 where a u64 belongs */
	nlh = msg(NETCOST_CMD_STATS);
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, 0);
	{
		struct nlattr *n = mnl_attr_nest_start(nlh, NETCOST_A_COUNTER);

		mnl_attr_put_u32(nlh, NETCOST_COUNTER_A_ID, 0);
		mnl_attr_put_strz(nlh, NETCOST_COUNTER_A_NAME, "rx_packets");
		mnl_attr_put_u32(nlh, NETCOST_COUNTER_A_VALUE, 5);
		mnl_attr_nest_end(nlh, n);
	}
	assert_int_equal(nc_parse_stats_msg(nlh, m), -1);
	assert_non_null(strstr(nc_last_err, "NETCOST_COUNTER_A_VALUE is malformed"));
	nc_err_quiet = false;
	nc_model_free(m);
	free(m);
}

/* info_msg - an INFO reply as the module sends it, less attribute @skip */
static struct nlmsghdr *info_msg(const char *version, int skip)
{
	struct nlmsghdr *nlh = msg(NETCOST_CMD_INFO);
	struct nlattr *n;

	mnl_attr_put_strz(nlh, NETCOST_A_VERSION, version);
	mnl_attr_put_strz(nlh, NETCOST_A_KERNEL, "6.1.0-57-rt-amd64");
	mnl_attr_put_u8(nlh, NETCOST_A_PREEMPT_RT, 1);
	mnl_attr_put_u8(nlh, NETCOST_A_THREADIRQS, 0);
	if (skip != NETCOST_A_TSC_KHZ)
		mnl_attr_put_u32(nlh, NETCOST_A_TSC_KHZ, 2096000);
	mnl_attr_put_u32(nlh, NETCOST_A_NR_CPUS_POSSIBLE, 2);
	mnl_attr_put_u32(nlh, NETCOST_A_NR_CPUS_ONLINE, 2);
	mnl_attr_put_u32(nlh, NETCOST_A_PROBE_COST, 61);
	mnl_attr_put_u32(nlh, NETCOST_A_HIST_BUCKETS, NETCOST_HIST_BUCKETS);
	mnl_attr_put_u32(nlh, NETCOST_A_HIST_SUB_BITS, NETCOST_HIST_SUB_BITS);
	mnl_attr_put_u32(nlh, NETCOST_A_MEM_PER_CPU, 40000);
	mnl_attr_put_u64(nlh, NETCOST_A_RESET_NS, 1000);
	mnl_attr_put_u64(nlh, NETCOST_A_NOW_NS, 2000000001000ULL);
	mnl_attr_put_u64(nlh, NETCOST_A_RESET_CYCLES, 5);
	mnl_attr_put_u64(nlh, NETCOST_A_NOW_CYCLES, 4192000005ULL);
	mnl_attr_put_u32(nlh, NETCOST_A_GENERATION, 4);
	n = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
	mnl_attr_put_u8(nlh, NETCOST_CFG_A_NIC_IRQS_AUTO, 0);
	mnl_attr_put_u32(nlh, NETCOST_CFG_A_NIC_IRQ, 24);
	mnl_attr_put_u32(nlh, NETCOST_CFG_A_NIC_IRQ, 25);
	mnl_attr_put_strz(nlh, NETCOST_CFG_A_CPUMASK, "0-1");
	mnl_attr_put_u32(nlh, NETCOST_CFG_A_GROUPS, NETCOST_GROUP_IRQ | NETCOST_GROUP_NET);
	mnl_attr_put_u8(nlh, NETCOST_CFG_A_RECORDING, 1);
	mnl_attr_nest_end(nlh, n);
	n = mnl_attr_nest_start(nlh, NETCOST_A_HOOK);
	mnl_attr_put_strz(nlh, NETCOST_HOOK_A_NAME, "irq_forced_thread_fn");
	mnl_attr_put_u8(nlh, NETCOST_HOOK_A_KIND, NETCOST_HOOK_KRETPROBE);
	mnl_attr_put_u32(nlh, NETCOST_HOOK_A_GROUP, NETCOST_GROUP_IRQ);
	mnl_attr_put_u8(nlh, NETCOST_HOOK_A_ATTACHED, 1);
	mnl_attr_put_u64(nlh, NETCOST_HOOK_A_HITS, 12345);
	mnl_attr_nest_end(nlh, n);
	return nlh;
}

/* INFO: every field, config and hooks; a missing one; another release */
static void test_info(void **state)
{
	struct nc_info *info = calloc(1, sizeof(*info));

	(void)state;
	assert_int_equal(nc_parse_info_msg(info_msg(NETCOST_VERSION, -1), info), 0);
	assert_string_equal(info->kernel, "6.1.0-57-rt-amd64");
	assert_true(info->preempt_rt && !info->threadirqs);
	assert_int_equal(info->tsc_khz, 2096000);
	assert_int_equal(info->now_ns - info->reset_ns, 2000000000000ULL);
	assert_int_equal(info->config.nr_nic_irqs, 2);
	assert_int_equal(info->config.nic_irq[1], 25);
	assert_string_equal(info->config.cpus, "0-1");
	assert_int_equal(info->config.groups, NETCOST_GROUP_IRQ | NETCOST_GROUP_NET);
	assert_int_equal(info->nr_hooks, 1);
	assert_string_equal(info->hook[0].name, "irq_forced_thread_fn");
	assert_int_equal(info->hook[0].hits, 12345);

	nc_err_quiet = true;
	assert_int_equal(nc_parse_info_msg(info_msg(NETCOST_VERSION, NETCOST_A_TSC_KHZ), info),
			 NC_EXIT_ERROR);
	assert_string_equal(nc_last_err, "invalid kernel response: INFO lacks NETCOST_A_TSC_KHZ");
	/* another release may lack attributes: it is a version mismatch first */
	assert_int_equal(nc_parse_info_msg(info_msg("9.9.9", NETCOST_A_TSC_KHZ), info),
			 NC_EXIT_VERSION);
	assert_non_null(strstr(nc_last_err, "module version 9.9.9 does not match tool version"));
	nc_err_quiet = false;
	free(info);
}

/* put_task - one NETCOST_A_TASK nest; @skip omits one attribute */
static void put_task(struct nlmsghdr *nlh, uint32_t slot, uint32_t pid, uint8_t kind,
		     uint32_t frames, uint8_t load, int skip)
{
	struct nlattr *t = mnl_attr_nest_start(nlh, NETCOST_A_TASK);

	mnl_attr_put_u32(nlh, NETCOST_TASK_A_SLOT, slot);
	if (skip != NETCOST_TASK_A_PID)
		mnl_attr_put_u32(nlh, NETCOST_TASK_A_PID, pid);
	mnl_attr_put_u8(nlh, NETCOST_TASK_A_KIND, kind);
	mnl_attr_put_u32(nlh, NETCOST_TASK_A_FRAMES, frames);
	mnl_attr_put_u8(nlh, NETCOST_TASK_A_LOAD, load);
	mnl_attr_put_u8(nlh, NETCOST_TASK_A_WAKING, !load);
	mnl_attr_nest_end(nlh, t);
}

/*
 * TASKS (0.13.0): messages append their slots in order, each names the
 * table's size; a nest without a pid or a message without the size is an
 * invalid kernel response
 */
static void test_tasks(void **state)
{
	struct nc_task_list l = { 0 };
	struct nlmsghdr *nlh;
	unsigned int i;

	(void)state;
	nlh = msg(NETCOST_CMD_TASKS);
	mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS, 16384);
	for (i = 0; i < 100; i++)
		put_task(nlh, 10 + i, 1000 + i, NETCOST_TASK_KIND_OTHER,
			 NETCOST_TASK_FRAME_SYSCALL, 1, -1);
	assert_int_equal(nc_parse_tasks_msg(nlh, &l), 0);
	nlh = msg(NETCOST_CMD_TASKS);
	mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS, 16384);
	put_task(nlh, 9000, 14, NETCOST_TASK_KIND_KSOFTIRQD, 0, 0, -1);
	assert_int_equal(nc_parse_tasks_msg(nlh, &l), 0);
	assert_int_equal(l.slots, 16384);
	assert_int_equal(l.n, 101);
	assert_int_equal(l.v[0].slot, 10);
	assert_int_equal(l.v[99].pid, 1099);
	assert_true(l.v[99].load);
	assert_int_equal(l.v[99].frames, NETCOST_TASK_FRAME_SYSCALL);
	assert_int_equal(l.v[100].slot, 9000);
	assert_int_equal(l.v[100].kind, NETCOST_TASK_KIND_KSOFTIRQD);
	assert_true(l.v[100].waking);
	assert_false(l.v[100].load);
	nc_task_list_free(&l);

	nc_err_quiet = true;
	nlh = msg(NETCOST_CMD_TASKS);
	mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS, 16384);
	put_task(nlh, 1, 2, 0, 0, 1, NETCOST_TASK_A_PID);
	assert_int_equal(nc_parse_tasks_msg(nlh, &l), -1);
	assert_non_null(strstr(nc_last_err, "TASK lacks NETCOST_TASK_A_PID"));
	nc_task_list_free(&l);
	nlh = msg(NETCOST_CMD_TASKS);
	put_task(nlh, 1, 2, 0, 0, 1, -1);
	assert_int_equal(nc_parse_tasks_msg(nlh, &l), -1);
	assert_non_null(strstr(nc_last_err, "TASKS lacks NETCOST_A_TASK_SLOTS"));
	nc_task_list_free(&l);
	nc_err_quiet = false;
}

/* put_comm - @text as T/@pid/comm, as the kernel writes a comm (with its newline) */
static void put_comm(uint32_t pid, const char *text)
{
	char path[256], cmd[300];
	FILE *f;

	snprintf(path, sizeof(path), T "/%u", pid);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	assert_int_equal(system(cmd), 0);
	strcat(path, "/comm");
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

/* task_comm - the "comm" of the task of @pid in the "tasks" list of @o, or NULL */
static json_t *task_comm(json_t *o, uint32_t pid)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(o, "tasks"), i, t)
		if (json_integer_value(json_object_get(t, "pid")) == pid)
			return json_object_get(t, "comm");
	return NULL;
}

/*
 * "netcost tasks": a task's name (/proc/PID/comm) is any bytes the task
 * chose; text and JSON carry it escaped to printable ASCII, and no task
 * leaves the list for its name (jansson refuses a string that is not
 * UTF-8); a task that is gone stays, as "(gone)", one named "" as ""
 */
static void test_tasks_comm(void **state)
{
	struct nc_task_list l = { 0 };
	struct nlmsghdr *nlh;
	char *text, *p, *dump;
	size_t len;
	json_t *o;
	FILE *f;

	(void)state;
	assert_int_equal(system("rm -rf " T), 0);
	put_comm(1001, "\x1b[2Jclear");
	put_comm(1002, "bad\xff\xfeutf8");
	put_comm(1003, "two\nlines");
	put_comm(1004, "udp-sink");
	put_comm(1006, "");
	nlh = msg(NETCOST_CMD_TASKS);
	mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS, 16384);
	put_task(nlh, 1, 1001, NETCOST_TASK_KIND_OTHER, NETCOST_TASK_FRAME_SYSCALL, 1, -1);
	put_task(nlh, 2, 1002, NETCOST_TASK_KIND_OTHER, NETCOST_TASK_FRAME_SYSCALL, 1, -1);
	put_task(nlh, 3, 1003, NETCOST_TASK_KIND_OTHER, 0, 1, -1);
	put_task(nlh, 4, 1004, NETCOST_TASK_KIND_OTHER, 0, 1, -1);
	put_task(nlh, 5, 1005, NETCOST_TASK_KIND_KSOFTIRQD, 0, 0, -1);
	put_task(nlh, 6, 1006, NETCOST_TASK_KIND_OTHER, 0, 1, -1);
	assert_int_equal(nc_parse_tasks_msg(nlh, &l), 0);
	o = nc_tasks_to_json(&l, T);
	nc_task_list_free(&l);
	assert_non_null(o);

	/* the JSON: every task, each name a string of printable ASCII */
	assert_int_equal(json_array_size(json_object_get(o, "tasks")), 6);
	assert_non_null(task_comm(o, 1001));
	assert_string_equal(json_string_value(task_comm(o, 1001)), "\\x1b[2Jclear");
	assert_non_null(task_comm(o, 1002));
	assert_string_equal(json_string_value(task_comm(o, 1002)), "bad\\xff\\xfeutf8");
	assert_non_null(task_comm(o, 1003));
	assert_string_equal(json_string_value(task_comm(o, 1003)), "two\\x0alines");
	assert_non_null(task_comm(o, 1004));
	assert_string_equal(json_string_value(task_comm(o, 1004)), "udp-sink");
	assert_true(json_is_null(task_comm(o, 1005)));
	assert_string_equal(json_string_value(task_comm(o, 1006)), "");
	dump = json_dumps(o, 0);
	assert_non_null(dump);
	free(dump);

	/* the text: the escaped names, no control byte but the line ends */
	f = open_memstream(&text, &len);
	assert_non_null(f);
	nc_print_tasks(f, o);
	fclose(f);
	json_decref(o);
	assert_non_null(strstr(text, " \\x1b[2Jclear\n"));
	assert_non_null(strstr(text, " bad\\xff\\xfeutf8\n"));
	assert_non_null(strstr(text, " two\\x0alines\n"));
	assert_non_null(strstr(text, " udp-sink\n"));
	assert_non_null(strstr(text, " (gone)\n"));
	for (p = text; *p; p++)
		assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));
	free(text);
	assert_int_equal(system("rm -rf " T), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fragments_merge),
		cmocka_unit_test(test_unknown_stage),
		cmocka_unit_test(test_invalid_responses),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_tasks_comm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
