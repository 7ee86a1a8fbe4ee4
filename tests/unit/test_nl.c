// SPDX-License-Identifier: GPL-2.0
/*
 * test_nl.c - the netlink parser (lib/stats.c) on replies built from a
 * model as the module lays them out (nlmsg.h): INFO and STATS come back
 * into an equal model (NAPI instances too, UAPI 0.9.0); the stage roles
 * the module sends (UAPI 0.2.0) win over the built-in table, which stands
 * in for an older module; roles and the task-table fill survive a
 * snapshot.
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

#include <errno.h>
#include <linux/genetlink.h>

#include "hist.h"
#include "nl.h"
#include "nlmsg.h"
#include "snapshot.h"
#include "stats.h"
#include "synth.h"

#define BUF_LEN	(1 << 20)

/* reply - the INFO message and every CPU's STATS message of @m, in @buf */
static size_t reply(char *buf, const struct nc_model *m, enum nlmsg_uapi v)
{
	size_t off = 0;
	unsigned int i;
	struct nlmsghdr *nlh;

	memset(buf, 0, BUF_LEN);
	nlh = nlmsg_info(buf, m, v);
	off += MNL_ALIGN(nlh->nlmsg_len);
	for (i = 0; i < m->nr_cpus; i++) {
		nlh = nlmsg_stats(buf + off, BUF_LEN - off, m, &m->cpus[i], v);
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

/* same_stats - @a and @b hold the same figures, stage by stage by name, and NAPI instances */
static void same_stats(const struct nc_model *a, const struct nc_model *b)
{
	unsigned int i, s;

	assert_int_equal(a->nr_cpus, b->nr_cpus);
	for (i = 0; i < a->nr_cpus; i++) {
		assert_int_equal(a->cpus[i].nr_napi, b->cpus[i].nr_napi);
		for (s = 0; s < a->cpus[i].nr_napi; s++) {
			const struct nc_napi *na = &a->cpus[i].napi[s], *nb = &b->cpus[i].napi[s];

			assert_int_equal(nc_napi_cmp(na, nb), 0);
			assert_int_equal(na->has_irq, nb->has_irq);
			assert_int_equal(na->irq, nb->irq);
			assert_int_equal(na->has_thread_pid, nb->has_thread_pid);
			assert_int_equal(na->thread_pid, nb->thread_pid);
			assert_int_equal(na->polls, nb->polls);
			assert_int_equal(na->packets, nb->packets);
			assert_int_equal(na->timed_polls, nb->timed_polls);
			assert_int_equal(na->cycles, nb->cycles);
		}
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

/* round_trip - @a's replies as UAPI @v lays them out, kept as @name, parse into @b, equal */
static void round_trip(char *buf, const struct nc_model *a, struct nc_model *b,
		       enum nlmsg_uapi v, const char *name)
{
	size_t len = reply(buf, a, v);

	record(name, buf, len);
	nc_model_init(b);
	assert_int_equal(parse(buf, len, b), 0);
	same_stats(a, b);
}

static void test_round_trip(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *buf = malloc(BUF_LEN);
	int s;

	(void)state;
	model_with_roles(a);
	/* a 0.2.0 module: a nest per bucket */
	round_trip(buf, a, b, NLMSG_0_2, "rt-roles.bin");
	nc_model_free(b);
	/* a 0.3.0 module: one packed run of buckets, no self-cost percentiles */
	round_trip(buf, a, b, NLMSG_0_3, "rt-packed.bin");
	assert_int_equal(b->info.probe_cost_p50, 0);
	assert_int_equal(b->info.probe_cost_samples, 0);
	nc_model_free(b);
	/* this module */
	round_trip(buf, a, b, NLMSG_0_4, "rt-0.4.bin");
	assert_int_equal(b->info.probe_cost, 60);
	assert_int_equal(b->info.probe_cost_p50, 52);
	assert_int_equal(b->info.probe_cost_p90, 96);
	assert_int_equal(b->info.probe_cost_samples, 4242);
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
	assert_int_equal(b->total.nr_napi, 0);
	nc_model_free(b);
	/* 0.9.0: and each CPU's NAPI instances */
	synth_napis(a);
	round_trip(buf, a, b, NLMSG_0_9, "rt-0.9.bin");
	assert_int_equal(b->total.nr_napi, a->total.nr_napi);
	assert_int_equal(b->total.napi[1].polls, a->total.napi[1].polls);
	assert_false(b->info.has_task_slots_kthreads);
	nc_model_free(b);
	/* 0.11.0: and the kernel threads' share of the task table */
	round_trip(buf, a, b, NLMSG_0_11, "rt-0.11.bin");
	assert_true(b->info.has_task_slots_kthreads);
	assert_int_equal(b->info.task_slots_kthreads, 5);
	assert_int_equal(b->info.task_slots_used, 17);
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
	len = reply(buf, a, NLMSG_0_1);
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
	len = reply(buf, a, NLMSG_0_2);
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
	len = reply(buf, a, NLMSG_0_4);
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
	assert_int_equal(b->info.probe_cost_p50, 52);
	assert_int_equal(b->info.probe_cost_p90, 96);
	assert_int_equal(b->info.probe_cost_samples, 4242);
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

/*
 * INFO's NIC devices and vectors without tracepoints: parsed, kept by a
 * snapshot, absent (none, null) from a file written before them; an
 * invalid name is a broken reply
 */
static void test_untraced(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char *buf = malloc(BUF_LEN);
	size_t len;

	(void)state;
	model_with_roles(a);
	a->info.has_nic_devices = true;
	a->info.nic_devices = 3;
	a->info.nr_untraced = 2;
	strcpy(a->info.untraced[0].name, "hyperv_callback");
	a->info.untraced[0].has_count = true;
	a->info.untraced[0].count = 123456789012ULL;
	strcpy(a->info.untraced[1].name, "kvm_async_pf");
	len = reply(buf, a, NLMSG_0_9);
	nc_model_init(b);
	assert_int_equal(parse(buf, len, b), 0);
	assert_true(b->info.has_nic_devices);
	assert_int_equal(b->info.nic_devices, 3);
	assert_int_equal(b->info.nr_untraced, 2);
	assert_string_equal(b->info.untraced[0].name, "hyperv_callback");
	assert_true(b->info.untraced[0].has_count);
	assert_int_equal(b->info.untraced[0].count, 123456789012ULL);
	assert_string_equal(b->info.untraced[1].name, "kvm_async_pf");
	assert_false(b->info.untraced[1].has_count);
	b->has_meta = true;
	nc_meta_collect(&b->meta, &b->info, "untraced");
	assert_int_equal(nc_snapshot_save(b, TEST_OUT "/untraced.json"), 0);
	nc_model_free(b);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, TEST_OUT "/untraced.json"), 0);
	assert_int_equal(b->info.nic_devices, 3);
	assert_int_equal(b->info.nr_untraced, 2);
	assert_int_equal(b->info.untraced[0].count, 123456789012ULL);
	assert_false(b->info.untraced[1].has_count);
	nc_model_free(b);
	/* an older module sends neither */
	len = reply(buf, a, NLMSG_0_4);
	nc_model_init(b);
	assert_int_equal(parse(buf, len, b), 0);
	assert_false(b->info.has_nic_devices);
	assert_int_equal(b->info.nr_untraced, 0);
	nc_model_free(b);
	/* a file written before them */
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, TEST_DIR "/corpus/small.json"), 0);
	assert_false(b->info.has_nic_devices);
	assert_int_equal(b->info.nr_untraced, 0);
	nc_model_free(b);
	/* a name that is no name */
	strcpy(a->info.untraced[1].name, "Bad Name");
	len = reply(buf, a, NLMSG_0_9);
	nc_model_init(b);
	assert_int_not_equal(parse(buf, len, b), 0);
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
	len = reply(buf, a, NLMSG_0_3);
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

/* err_reply - an NLMSG_ERROR with -@err (and extack @msg) for request @seq */
static size_t err_reply(char *buf, unsigned int seq, int err, const char *msg)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, 4096);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED | (msg ? NLM_F_ACK_TLVS : 0);
	nlh->nlmsg_seq = seq;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -err;
	e->msg.nlmsg_seq = seq;
	if (msg)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	return nlh->nlmsg_len;
}

/* replay_cmd_err - the exit status of a recorded @err reply to @cmd */
static int replay_cmd_err(struct nc_nl *nl, uint8_t cmd, int err, const char *msg)
{
	char reply_buf[4096];
	size_t len = err_reply(reply_buf, 77, err, msg);

	nc_last_err[0] = '\0';
	return nc_nl_replay(nl, reply_buf, len, 77, cmd, NULL, NULL);
}

/* replay_err - the same for STATS */
static int replay_err(struct nc_nl *nl, int err, const char *msg)
{
	return replay_cmd_err(nl, NETCOST_CMD_STATS, err, msg);
}

/*
 * issue 10: the family vanishing during a request (rmmod under a reader)
 * is the clean exit 3, not a generic error.  Replayed replies on a real
 * generic netlink socket: this host has no netcost family (its module
 * cannot be loaded here), so that the tool's check finds it gone; the
 * controller's own family ("nlctrl", id GENL_ID_CTRL) stands in for a
 * family that is still there.
 */
static void test_family_vanished(void **state)
{
	struct nc_nl nl = { 0 };

	(void)state;
	nl.sock = mnl_socket_open(NETLINK_GENERIC);
	if (!nl.sock || mnl_socket_bind(nl.sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		print_message("# no generic netlink socket here: skipped\n");
		if (nl.sock)
			mnl_socket_close(nl.sock);
		skip();
	}
	nl.portid = mnl_socket_get_portid(nl.sock);
	nl.buf = malloc(NC_NL_BUFSIZE);
	nl.family = 0x7777;
	nc_err_quiet = true;

	/* gone: ENOENT or EPROTONOSUPPORT from genetlink, the family is not there */
	assert_int_equal(replay_err(&nl, ENOENT, NULL), NC_EXIT_NO_MODULE);
	assert_non_null(strstr(nc_last_err, "STATS: the kernel module was unloaded during the request"));
	assert_int_equal(replay_err(&nl, EPROTONOSUPPORT, NULL), NC_EXIT_NO_MODULE);
	assert_int_equal(replay_err(&nl, EOPNOTSUPP, NULL), NC_EXIT_NO_MODULE);

	/* still there under the same id: the module's own ENOENT, a plain error */
	nl.name = "nlctrl";
	nl.family = GENL_ID_CTRL;
	assert_int_equal(replay_err(&nl, ENOENT, "no such hook"), NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "STATS: no such hook"));
	assert_null(strstr(nc_last_err, "unloaded"));
	/* there, but under another id: unloaded and loaded again */
	nl.family = 0x7777;
	assert_int_equal(replay_err(&nl, ENOENT, NULL), NC_EXIT_NO_MODULE);

	/* other errors keep their meaning */
	assert_int_equal(replay_err(&nl, EPERM, NULL), NC_EXIT_PERM);
	/* a read may also be opened by open_read=1 (TASKS too); a change not */
	assert_non_null(strstr(nc_last_err, "open_read=1"));
	assert_int_equal(replay_cmd_err(&nl, NETCOST_CMD_TASKS, EPERM, NULL), NC_EXIT_PERM);
	assert_non_null(strstr(nc_last_err, "TASKS needs CAP_NET_ADMIN (run as root, or load the module with open_read=1)"));
	assert_int_equal(replay_cmd_err(&nl, NETCOST_CMD_RESET, EPERM, NULL), NC_EXIT_PERM);
	assert_null(strstr(nc_last_err, "open_read"));
	assert_int_equal(replay_err(&nl, EINVAL, "bad cpu list"), NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "bad cpu list"));
	nc_err_quiet = false;
	mnl_socket_close(nl.sock);
	free(nl.buf);
}

/*
 * run_msg - a STATS message of CPU 0 with one hardirq stage (count 6)
 * whose buckets are the run @n counts from @first; @buckets/@sub_bits: the
 * layout it names (0: none); @first_attr: with BUCKET_FIRST
 */
static struct nlmsghdr *run_msg(char *buf, uint32_t first, const uint64_t *counts,
				size_t len, uint32_t buckets, uint32_t sub_bits,
				bool first_attr)
{
	struct nlmsghdr *nlh = nlmsg_start(buf, NETCOST_CMD_STATS, NLM_F_MULTI);
	struct nlattr *nest;

	mnl_attr_put_u32(nlh, NETCOST_A_CPU, 0);
	if (buckets) {
		mnl_attr_put_u32(nlh, NETCOST_A_HIST_BUCKETS, buckets);
		mnl_attr_put_u32(nlh, NETCOST_A_HIST_SUB_BITS, sub_bits);
	}
	nest = mnl_attr_nest_start(nlh, NETCOST_A_STAGE);
	mnl_attr_put_u32(nlh, NETCOST_STAGE_A_ID, NETCOST_STAGE_HARDIRQ);
	mnl_attr_put_strz(nlh, NETCOST_STAGE_A_NAME, "hardirq");
	mnl_attr_put_u8(nlh, NETCOST_STAGE_A_UNIT, NETCOST_UNIT_CYCLES);
	mnl_attr_put_u8(nlh, NETCOST_STAGE_A_ROLE, NETCOST_ROLE_TOP);
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_COUNT, 6);
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_SUM, 6000);
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_MIN_VAL, netcost_hist_lo(100));
	mnl_attr_put_u64(nlh, NETCOST_STAGE_A_MAX_VAL, netcost_hist_lo(103));
	if (first_attr)
		mnl_attr_put_u32(nlh, NETCOST_STAGE_A_BUCKET_FIRST, first);
	mnl_attr_put(nlh, NETCOST_STAGE_A_BUCKET_COUNTS, len, counts);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

/* run_err - parse one run message into a fresh model: 0, or -1 and the message */
static int run_err(uint32_t first, const uint64_t *counts, size_t len,
		   uint32_t buckets, uint32_t sub_bits, bool first_attr)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	char *buf = calloc(1, 1 << 16);
	int ret;

	nc_model_init(m);
	nc_err_quiet = true;
	ret = nc_parse_stats_msg(run_msg(buf, first, counts, len, buckets, sub_bits,
					 first_attr), m);
	nc_err_quiet = false;
	nc_model_free(m);
	free(m);
	free(buf);
	return ret;
}

/*
 * UAPI 0.3.0: a stage's buckets come as one packed run.  A stage cut
 * across two messages adds up; a run in another layout, without one,
 * without its first index, of broken length or past the last bucket is
 * refused, each with its reason.
 */
static void test_bucket_runs(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	const uint64_t a[3] = { 1, 0, 2 }, b[1] = { 3 };
	char *buf = calloc(1, 1 << 16);
	const struct nc_hist *h;
	int s;

	(void)state;
	nc_model_init(m);
	assert_int_equal(nc_parse_stats_msg(run_msg(buf, 100, a, sizeof(a), NETCOST_HIST_BUCKETS,
						    NETCOST_HIST_SUB_BITS, true), m), 0);
	assert_int_equal(nc_parse_stats_msg(run_msg(buf, 103, b, sizeof(b), NETCOST_HIST_BUCKETS,
						    NETCOST_HIST_SUB_BITS, true), m), 0);
	s = nc_model_find_stage(m, "hardirq");
	assert_true(s >= 0);
	h = m->cpus[0].stage[s];
	assert_non_null(h);
	assert_int_equal(h->count, 6);
	assert_int_equal(h->buckets[100], 1);
	assert_int_equal(h->buckets[101], 0);
	assert_int_equal(h->buckets[102], 2);
	assert_int_equal(h->buckets[103], 3);
	assert_int_equal(nc_hist_bucket_total(h), 6);
	nc_model_free(m);
	free(m);
	free(buf);

	assert_int_equal(run_err(100, a, sizeof(a), NETCOST_HIST_BUCKETS + 8,
				 NETCOST_HIST_SUB_BITS, true), -1);
	assert_non_null(strstr(nc_last_err, "use the tool built with the module"));
	assert_int_equal(run_err(100, a, sizeof(a), NETCOST_HIST_BUCKETS,
				 NETCOST_HIST_SUB_BITS + 1, true), -1);
	assert_int_equal(run_err(100, a, sizeof(a), 0, 0, true), -1);
	assert_non_null(strstr(nc_last_err, "without their layout"));
	assert_int_equal(run_err(100, a, sizeof(a), NETCOST_HIST_BUCKETS,
				 NETCOST_HIST_SUB_BITS, false), -1);
	assert_non_null(strstr(nc_last_err, "BUCKET_FIRST"));
	assert_int_equal(run_err(100, a, 12, NETCOST_HIST_BUCKETS,
				 NETCOST_HIST_SUB_BITS, true), -1);
	assert_non_null(strstr(nc_last_err, "a run of 12 bytes"));
	assert_int_equal(run_err(NETCOST_HIST_BUCKETS - 2, a, sizeof(a), NETCOST_HIST_BUCKETS,
				 NETCOST_HIST_SUB_BITS, true), -1);
	assert_int_equal(run_err(NETCOST_HIST_BUCKETS - 3, a, sizeof(a), NETCOST_HIST_BUCKETS,
				 NETCOST_HIST_SUB_BITS, true), 0);
	assert_int_equal(run_err(0xffffffffu, a, sizeof(a), NETCOST_HIST_BUCKETS,
				 NETCOST_HIST_SUB_BITS, true), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_old_module),
		cmocka_unit_test(test_untraced),
		cmocka_unit_test(test_snapshot_keeps_roles),
		cmocka_unit_test(test_role_conflict),
		cmocka_unit_test(test_family_vanished),
		cmocka_unit_test(test_bucket_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
