// SPDX-License-Identifier: GPL-2.0
/*
 * test_napi.c - NAPI instances (UAPI 0.9.0) from the module's nests to
 * what "dump", "show" and "watch" print.  The nests of one instance on
 * two CPUs add up by (id, ifindex, ifname), its IRQ and thread from the
 * CPU with more polls; absent device, IRQ and thread are told apart from
 * zero; a malformed nest is an "invalid kernel response" that names the
 * attribute; a module before 0.9.0 gives a model with no instances; past
 * NC_MAX_NAPI entries the rest are counted, not kept.  The text table and
 * the "napi" arrays of -j, a snapshot's round trip and the loader's
 * refusals, and watch's interval delta.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "nlmsg.h"
#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "synth.h"

static char buf[1 << 16];

/* stats_msg - a STATS message of @cpu in buf, without stages or counters */
static struct nlmsghdr *stats_msg(uint32_t cpu)
{
	struct nlmsghdr *nlh;

	memset(buf, 0, sizeof(buf));
	nlh = nlmsg_start(buf, NETCOST_CMD_STATS, NLM_F_MULTI);
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, cpu);
	mnl_attr_put_u32(nlh, NETCOST_A_HIST_BUCKETS, NETCOST_HIST_BUCKETS);
	mnl_attr_put_u32(nlh, NETCOST_A_HIST_SUB_BITS, NETCOST_HIST_SUB_BITS);
	return nlh;
}

/*
 * put_napi - an instance's nest as the module sends it: @ifname NULL,
 * @irq < 0 and @pid 0 leave those attributes out
 */
static void put_napi(struct nlmsghdr *nlh, uint32_t id, uint32_t ifindex, const char *ifname,
		     int irq, uint32_t pid, uint64_t polls, uint64_t packets, uint64_t timed,
		     uint64_t cycles)
{
	struct nc_napi n = {
		.id = id, .ifindex = ifindex, .has_ifname = ifname != NULL,
		.has_irq = irq >= 0, .irq = irq >= 0 ? (uint32_t)irq : 0,
		.has_thread_pid = pid != 0, .thread_pid = pid, .polls = polls,
		.packets = packets, .timed_polls = timed, .cycles = cycles,
	};

	if (ifname)
		snprintf(n.ifname, sizeof(n.ifname), "%s", ifname);
	nlmsg_napi(nlh, &n);
}

/* parse_ok - @nlh into @m; it must parse */
static void parse_ok(struct nlmsghdr *nlh, struct nc_model *m)
{
	if (nc_parse_stats_msg(nlh, m))
		fail_msg("refused: %s", nc_last_err);
}

/* parse_err - @nlh into a fresh model: it must be refused with @what in the message */
static void parse_err(struct nlmsghdr *nlh, const char *what)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	int ret;

	nc_model_init(m);
	nc_err_quiet = true;
	nc_last_err[0] = '\0';
	ret = nc_parse_stats_msg(nlh, m);
	nc_err_quiet = false;
	if (ret != -1 || !strstr(nc_last_err, what))
		fail_msg("want \"%s\", got %d \"%s\"", what, ret, nc_last_err);
	nc_model_free(m);
	free(m);
}

/* text_report - nc_report_print() of @m with @o, as a string */
static char *text_report(const struct nc_model *m, const struct nc_report_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(nc_report_print(f, m, o), 0);
	fclose(f);
	return text;
}

/* json_report - nc_report_print() of @m with @o and -j, parsed */
static json_t *json_report(const struct nc_model *m, struct nc_report_opts o)
{
	char *text;
	json_t *j;

	o.json = true;
	text = text_report(m, &o);
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	free(text);
	return j;
}

/* napi_row - the NAPI table's row that starts with @device and @id (after its indent) */
static const char *napi_row(const char *text, const char *device, unsigned int id)
{
	const char *p = strstr(text, "\nNAPI instances ");
	char start[64];
	int n;

	if (!p)
		return NULL;
	n = snprintf(start, sizeof(start), "\n  %s ", device);
	for (p = strstr(p + 1, start); p; p = strstr(p + 1, start)) {
		unsigned int v;

		if (sscanf(p + n, "%u", &v) == 1 && v == id)
			return p + 1;
	}
	return NULL;
}

/* row_has - the row @row (up to its end) holds the columns @cols, in order */
static void row_has(const char *row, const char *cols)
{
	char line[256], want[256], *save = NULL, *w, *save2 = NULL, *g;

	assert_non_null(row);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(row, "\n"), row);
	snprintf(want, sizeof(want), "%s", cols);
	g = strtok_r(line, " ", &save2);
	for (w = strtok_r(want, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!g || strcmp(g, w))
			fail_msg("row \"%.*s\": want \"%s\"", (int)strcspn(row, "\n"), row, cols);
		g = strtok_r(NULL, " ", &save2);
	}
	if (g)
		fail_msg("row \"%.*s\": more than \"%s\"", (int)strcspn(row, "\n"), row, cols);
}

/* find_napi - @c's instance @id of @ifname (NULL: none), or fail */
static const struct nc_napi *find_napi(const struct nc_cpu *c, uint32_t id, uint32_t ifindex,
				       const char *ifname)
{
	struct nc_napi key = { .id = id, .ifindex = ifindex, .has_ifname = ifname != NULL };
	const struct nc_napi *n;

	if (ifname)
		snprintf(key.ifname, sizeof(key.ifname), "%s", ifname);
	n = nc_cpu_find_napi(c, &key);
	if (!n)
		fail_msg("no NAPI instance %u of %s", id, ifname ? ifname : "none");
	return n;
}

/*
 * One instance on two CPUs adds up: its polls, packets and cycles sum,
 * its CPUs are both, its IRQ is that of the CPU with more polls and its
 * thread the one reported; the lists are by device name, then id, the
 * backlogs last.  A backlog (no device) is its CPU's own: two CPUs'
 * backlogs stay two instances in the total.
 */
static void test_two_cpus_merge(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	const struct nc_napi *n;
	struct nlmsghdr *nlh;

	(void)state;
	nc_model_init(m);
	nlh = stats_msg(0);
	put_napi(nlh, 0, 0, NULL, -1, 0, 7, 9, 7, 7000);
	put_napi(nlh, 8193, 2, "eth0", 24, 0, 100, 1000, 100, 1300000);
	parse_ok(nlh, m);
	nlh = stats_msg(1);
	put_napi(nlh, 8200, 3, "eth1", -1, 0, 5, 5, 0, 0);
	put_napi(nlh, 8193, 2, "eth0", 25, 700, 300, 2400, 300, 3600000);
	put_napi(nlh, 0, 0, NULL, -1, 0, 3, 3, 3, 3000);
	parse_ok(nlh, m);
	nc_model_sum_total(m, NULL);

	assert_int_equal(m->nr_cpus, 2);
	assert_int_equal(m->cpus[0].nr_napi, 2);
	assert_int_equal(m->cpus[1].nr_napi, 3);
	assert_int_equal(m->napi_kept, 5);
	assert_int_equal(m->napi_dropped, 0);
	n = find_napi(&m->cpus[1], 8193, 2, "eth0");
	assert_int_equal(n->irq, 25);
	assert_int_equal(n->thread_pid, 700);
	assert_int_equal(n->nr_cpus, 0);	/* a CPU's own: no list */

	assert_int_equal(m->total.nr_napi, 4);
	n = &m->total.napi[0];
	assert_string_equal(n->ifname, "eth0");
	assert_int_equal(n->id, 8193);
	assert_int_equal(n->polls, 400);
	assert_int_equal(n->packets, 3400);
	assert_int_equal(n->timed_polls, 400);
	assert_int_equal(n->cycles, 4900000);
	assert_true(n->has_irq);
	assert_int_equal(n->irq, 25);		/* CPU 1 polled it 300 times, CPU 0 100 */
	assert_true(n->has_thread_pid);
	assert_int_equal(n->thread_pid, 700);	/* only CPU 1 reported one */
	assert_int_equal(n->nr_cpus, 2);
	assert_int_equal(n->cpus[0], 0);
	assert_int_equal(n->cpus[1], 1);
	assert_string_equal(m->total.napi[1].ifname, "eth1");
	assert_false(m->total.napi[1].has_irq);
	n = &m->total.napi[2];			/* CPU 0's backlog, then CPU 1's */
	assert_false(n->has_ifname);
	assert_int_equal(n->polls, 7);
	assert_int_equal(n->nr_cpus, 1);
	assert_int_equal(n->cpus[0], 0);
	assert_true(fabs(nc_napi_packets_per_poll(n) - 9.0 / 7) < 1e-9);
	assert_true(fabs(nc_napi_cycles_per_poll(n) - 1000) < 1e-9);
	n = &m->total.napi[3];
	assert_false(n->has_ifname);
	assert_int_equal(n->polls, 3);
	assert_int_equal(n->nr_cpus, 1);
	assert_int_equal(n->cpus[0], 1);
	assert_true(nc_napi_cycles_per_poll(&m->total.napi[1]) < 0);	/* none timed */

	/* the same IRQ count on both: the first CPU's stays */
	nc_model_free(m);
	nc_model_init(m);
	nlh = stats_msg(0);
	put_napi(nlh, 9, 4, "eth2", 40, 0, 10, 10, 10, 100);
	parse_ok(nlh, m);
	nlh = stats_msg(3);
	put_napi(nlh, 9, 4, "eth2", 41, 0, 10, 10, 10, 100);
	parse_ok(nlh, m);
	nc_model_sum_total(m, NULL);
	assert_int_equal(m->total.napi[0].irq, 40);
	nc_model_free(m);
	free(m);
}

/*
 * A CPU's instance sent in two messages of a dump, or twice in one, adds
 * up; the same napi_id on another device, or under another name, is
 * another instance
 */
static void test_repeated_nests_add(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nlmsghdr *nlh;
	const struct nc_napi *n;

	(void)state;
	nc_model_init(m);
	nlh = stats_msg(2);
	put_napi(nlh, 8193, 2, "eth0", 24, 0, 10, 100, 10, 1000);
	put_napi(nlh, 8193, 2, "eth0", 24, 0, 1, 10, 1, 100);
	parse_ok(nlh, m);
	nlh = stats_msg(2);
	put_napi(nlh, 8193, 2, "eth0", 24, 0, 5, 50, 5, 500);
	put_napi(nlh, 8193, 5, "eth0", 24, 0, 1, 1, 1, 1);
	put_napi(nlh, 8193, 2, "veth0", 24, 0, 1, 1, 1, 1);
	parse_ok(nlh, m);
	assert_int_equal(m->nr_cpus, 1);
	assert_int_equal(m->cpus[0].nr_napi, 3);
	n = find_napi(&m->cpus[0], 8193, 2, "eth0");
	assert_int_equal(n->polls, 16);
	assert_int_equal(n->packets, 160);
	assert_int_equal(n->timed_polls, 16);
	assert_int_equal(n->cycles, 1600);
	find_napi(&m->cpus[0], 8193, 5, "eth0");
	find_napi(&m->cpus[0], 8193, 2, "veth0");
	nc_model_free(m);
	free(m);
}

/*
 * No device, IRQ or thread: absent, not zero, and printed as "backlog"
 * (id 0) or "-"; an empty name is none; attributes this tool does not
 * know are skipped; a name's control characters and non-ASCII bytes are
 * escaped before they reach a terminal or a JSON string
 */
static void test_absent_attributes(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	const struct nc_napi *n;
	json_t *j, *jn;
	char *text;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	nlh = stats_msg(0);
	put_napi(nlh, 0, 0, NULL, -1, 0, 4, 8, 4, 4000);
	put_napi(nlh, 77, 9, NULL, -1, 0, 2, 2, 2, 200);
	put_napi(nlh, 78, 9, "", 0, 0, 2, 2, 2, 200);		/* "": no name; IRQ 0 is one */
	put_napi(nlh, 79, 9, "e\033[2Jx\xc3", -1, 0, 2, 2, 2, 200);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);	/* and a newer module's attribute */
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_ID, 80);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_IFINDEX, 9);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_MAX + 3, 12345);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_POLLS, 1);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_PACKETS, 1);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_TIMED_POLLS, 0);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_CYCLES, 0);
	mnl_attr_nest_end(nlh, nest);
	parse_ok(nlh, m);
	nc_model_sum_total(m, NULL);

	n = find_napi(&m->cpus[0], 0, 0, NULL);
	assert_false(n->has_ifname);
	assert_false(n->has_irq);
	assert_false(n->has_thread_pid);
	n = find_napi(&m->cpus[0], 78, 9, NULL);
	assert_true(n->has_irq);
	assert_int_equal(n->irq, 0);
	n = find_napi(&m->cpus[0], 79, 9, "e\\x1b[2Jx\\xc3");
	assert_true(n->has_ifname);
	find_napi(&m->cpus[0], 80, 9, NULL);

	text = text_report(m, &o);
	row_has(napi_row(text, "backlog", 0), "backlog 0 - - 4 8 2.00 4 1000 0");
	row_has(napi_row(text, "-", 77), "- 77 - - 2 2 1.00 2 100 0");
	row_has(napi_row(text, "-", 78), "- 78 0 - 2 2 1.00 2 100 0");
	row_has(napi_row(text, "-", 80), "- 80 - - 1 1 1.00 0 - 0");
	assert_non_null(napi_row(text, "e\\x1b[2Jx\\xc3", 79));
	assert_null(strchr(text, '\033'));
	free(text);

	j = json_report(m, o);
	jn = json_object_get(json_object_get(j, "total"), "napi");
	assert_int_equal(json_array_size(jn), 5);
	jn = json_array_get(jn, 1);		/* named first, then by id: the backlog (0) */
	assert_int_equal(json_integer_value(json_object_get(jn, "id")), 0);
	assert_true(json_is_null(json_object_get(jn, "device")));
	assert_true(json_is_null(json_object_get(jn, "irq")));
	assert_true(json_is_null(json_object_get(jn, "thread_pid")));
	jn = json_array_get(json_object_get(json_object_get(j, "total"), "napi"), 0);
	assert_string_equal(json_string_value(json_object_get(jn, "device")), "e\\x1b[2Jx\\xc3");
	json_decref(j);
	nc_model_free(m);
	free(m);
}

/* A nest of the wrong shape is an invalid kernel response that names what is wrong */
static void test_malformed_nests(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	uint16_t u16 = 24;
	uint32_t u32 = 5;

	(void)state;
	/* an IRQ of two bytes */
	nlh = stats_msg(0);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_ID, 8193);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_IFINDEX, 2);
	mnl_attr_put(nlh, NETCOST_NAPI_A_IRQ, sizeof(u16), &u16);
	mnl_attr_nest_end(nlh, nest);
	parse_err(nlh, "invalid kernel response: NAPI attribute NETCOST_NAPI_A_IRQ is malformed");

	/* polls of four bytes */
	nlh = stats_msg(0);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_ID, 8193);
	mnl_attr_put(nlh, NETCOST_NAPI_A_POLLS, sizeof(u32), &u32);
	mnl_attr_nest_end(nlh, nest);
	parse_err(nlh, "NAPI attribute NETCOST_NAPI_A_POLLS is malformed");

	/* a name without its NUL */
	nlh = stats_msg(0);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);
	mnl_attr_put(nlh, NETCOST_NAPI_A_IFNAME, 4, "eth0");
	mnl_attr_nest_end(nlh, nest);
	parse_err(nlh, "NAPI attribute NETCOST_NAPI_A_IFNAME is malformed");

	/* a figure missing */
	nlh = stats_msg(0);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_ID, 8193);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_IFINDEX, 2);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_POLLS, 1);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_PACKETS, 1);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_TIMED_POLLS, 1);
	mnl_attr_nest_end(nlh, nest);
	parse_err(nlh, "invalid kernel response: NAPI lacks NETCOST_NAPI_A_CYCLES");

	/* three bytes where a nest belongs */
	nlh = stats_msg(0);
	mnl_attr_put(nlh, NETCOST_A_NAPI, 3, "abc");
	parse_err(nlh, "STATS attribute NETCOST_A_NAPI is malformed");

	/* a nest whose inner attribute runs past it */
	nlh = stats_msg(0);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_ID, 8193);
	mnl_attr_nest_end(nlh, nest);
	((struct nlattr *)((char *)nest + MNL_ATTR_HDRLEN))->nla_len = 40;
	parse_err(nlh, "invalid kernel response: NAPI lacks NETCOST_NAPI_A_ID");
}

/*
 * A module before 0.9.0 sends no NAPI nests: the model has no instances,
 * the text no table, the JSON empty "napi" arrays
 */
static void test_older_module(void **state)
{
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct nc_report_opts o = { .per_cpu = true };
	unsigned int i;
	json_t *j;
	char *text;

	(void)state;
	nc_model_init(a);
	synth_model(a, true, false);
	synth_napis(a);		/* what a 0.4.0 module cannot say */
	nc_model_init(b);
	for (i = 0; i < a->nr_cpus; i++)
		parse_ok(nlmsg_stats(buf, sizeof(buf), a, &a->cpus[i], NLMSG_0_4), b);
	b->info = a->info;
	nc_model_sum_total(b, NULL);
	assert_int_equal(b->napi_kept, 0);
	assert_int_equal(b->total.nr_napi, 0);
	for (i = 0; i < b->nr_cpus; i++)
		assert_int_equal(b->cpus[i].nr_napi, 0);
	text = text_report(b, &o);
	assert_null(strstr(text, "NAPI"));
	assert_non_null(strstr(text, "softirq_net_rx"));
	free(text);
	j = json_report(b, o);
	assert_int_equal(json_array_size(json_object_get(json_object_get(j, "total"), "napi")), 0);
	assert_true(json_is_array(json_object_get(json_array_get(json_object_get(j, "cpus"), 1),
						  "napi")));
	assert_int_equal(json_integer_value(json_object_get(j, "napi_dropped")), 0);
	json_decref(j);

	/* the same CPUs as 0.9.0 sends them: every instance comes back */
	nc_model_free(b);
	nc_model_init(b);
	for (i = 0; i < a->nr_cpus; i++)
		parse_ok(nlmsg_stats(buf, sizeof(buf), a, &a->cpus[i], NLMSG_0_9), b);
	nc_model_sum_total(b, NULL);
	assert_int_equal(b->total.nr_napi, a->total.nr_napi);
	for (i = 0; i < a->total.nr_napi; i++) {
		assert_int_equal(nc_napi_cmp(&a->total.napi[i], &b->total.napi[i]), 0);
		assert_int_equal(a->total.napi[i].polls, b->total.napi[i].polls);
		assert_int_equal(a->total.napi[i].cycles, b->total.napi[i].cycles);
		assert_int_equal(a->total.napi[i].irq, b->total.napi[i].irq);
	}
	nc_model_free(a);
	nc_model_free(b);
	free(a);
	free(b);
}

/*
 * More than NC_MAX_NAPI entries: the first are kept, the rest counted,
 * and the report says so (the text, -j, and a snapshot's round trip)
 */
static void test_bound(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m)), *b = calloc(1, sizeof(*b));
	struct nc_report_opts o = { 0 };
	unsigned int cpu, k, total = 0;
	char path[512], *text;
	json_t *j;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	for (cpu = 0; cpu < 9; cpu++) {
		struct nlmsghdr *nlh = stats_msg(cpu);

		for (k = 0; k < 500; k++, total++)
			put_napi(nlh, 10000 + total, 2, "eth0", (int)k, 0, 2, 4, 2, 200);
		parse_ok(nlh, m);
	}
	nc_model_sum_total(m, NULL);
	assert_int_equal(m->napi_kept, NC_MAX_NAPI);
	assert_int_equal(m->napi_dropped, total - NC_MAX_NAPI);
	assert_int_equal(m->total.nr_napi, NC_MAX_NAPI);
	text = text_report(m, &o);
	assert_non_null(strstr(text, "404 NAPI instances of CPUs not shown: netcost keeps 4096\n"));
	free(text);
	j = json_report(m, o);
	assert_int_equal(json_integer_value(json_object_get(j, "napi_dropped")), 404);
	assert_int_equal(json_array_size(json_object_get(json_object_get(j, "total"), "napi")),
			 NC_MAX_NAPI);
	json_decref(j);

	snprintf(path, sizeof(path), "%s/napi-bound.json", TEST_OUT);
	assert_int_equal(nc_snapshot_save(m, path), 0);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, path), 0);
	assert_int_equal(b->napi_kept, NC_MAX_NAPI);
	assert_int_equal(b->napi_dropped, 404);
	nc_model_free(b);
	nc_model_free(m);
	free(m);
	free(b);
}

/*
 * The table: one row per instance of the total, by device, then id, with
 * its CPUs; a block per CPU with --per-cpu; --cpu narrows it, --ns turns
 * its cycles to ns; it fits 100 columns; printing changes no model
 */
static void test_text_table(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	json_t *before, *after;
	char *text, *p;
	const char *row;

	(void)state;
	nc_model_init(m);
	synth_model(m, true, true);
	synth_napis(m);
	before = nc_snapshot_to_json(m);
	text = text_report(m, &o);
	p = strstr(text, "\nNAPI instances ");
	assert_non_null(p);
	row_has(p + 1, "NAPI instances id irq thread polls packets pkt/poll timed polls cyc/poll CPUs");
	row_has(napi_row(text, "eth0", 0), "eth0 0 - - 20 20 1.00 20 900 0");
	row_has(napi_row(text, "eth0", 8193), "eth0 8193 24 - 37600 376000 10.0 37600 13016 0-1");
	row_has(napi_row(text, "eth0", 8194), "eth0 8194 26 812 400 4000 10.0 400 15000 1");
	row_has(napi_row(text, "eth1", 8195), "eth1 8195 27 - 50 5 0.10 0 - 0");
	/* a backlog is its CPU's own: one row each */
	row_has(napi_row(text, "backlog", 0), "backlog 0 - - 10 30 3.00 10 2000 0");
	row = strstr(napi_row(text, "backlog", 0), "\n  backlog ");
	assert_non_null(row);
	row_has(row + 1, "backlog 0 - - 1 1 1.00 1 1500 1");
	/* in that order, and no wider than the report */
	assert_true(napi_row(text, "eth0", 0) < napi_row(text, "eth0", 8193));
	assert_true(napi_row(text, "eth0", 8194) < napi_row(text, "eth1", 8195));
	assert_true(napi_row(text, "eth1", 8195) < napi_row(text, "backlog", 0));
	for (row = p + 1; *row && *row != '\n'; row += strcspn(row, "\n") + 1)
		if (strcspn(row, "\n") > 100)
			fail_msg("wider than 100 columns: %.*s", (int)strcspn(row, "\n"), row);
	assert_non_null(strstr(text, "NAPI instances: cyc/poll of the polls timed"));
	free(text);

	o.per_cpu = true;
	text = text_report(m, &o);
	p = strstr(text, "=== CPU 1 ===");
	assert_non_null(p);
	row_has(napi_row(p, "eth0", 8193), "eth0 8193 25 - 600 6000 10.0 600 14000 1");
	row_has(napi_row(p, "backlog", 0), "backlog 0 - - 1 1 1.00 1 1500 1");
	assert_null(napi_row(p, "eth1", 8195));
	free(text);

	o = (struct nc_report_opts){ .cpus = "0", .ns = true };
	text = text_report(m, &o);
	assert_non_null(strstr(text, " ns/poll CPUs\n"));
	row_has(napi_row(text, "eth0", 8193), "eth0 8193 24 - 37000 370000 10.0 37000 6202 0");
	assert_null(napi_row(text, "eth0", 8194));
	free(text);

	after = nc_snapshot_to_json(m);
	assert_true(json_equal(before, after));
	json_decref(before);
	json_decref(after);
	nc_model_free(m);
	free(m);
}

/*
 * -j: the total's "napi" array (numbers as numbers, absent values null,
 * the CPUs as an array, packets_per_poll and per_poll null where there is
 * no poll to divide by), and each CPU's own; --ns and --cpu as the text
 */
static void test_json(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	struct nc_report_opts o = { 0 };
	json_t *j, *na, *n, *cpus;

	(void)state;
	nc_model_init(m);
	synth_model(m, true, true);
	synth_napis(m);
	j = json_report(m, o);
	na = json_object_get(json_object_get(j, "total"), "napi");
	assert_int_equal(json_array_size(na), 6);	/* the two CPUs' backlogs apart */
	n = json_array_get(na, 1);
	assert_int_equal(json_integer_value(json_object_get(n, "id")), 8193);
	assert_string_equal(json_string_value(json_object_get(n, "device")), "eth0");
	assert_int_equal(json_integer_value(json_object_get(n, "ifindex")), 2);
	assert_int_equal(json_integer_value(json_object_get(n, "irq")), 24);
	assert_true(json_is_null(json_object_get(n, "thread_pid")));
	assert_int_equal(json_integer_value(json_object_get(n, "polls")), 37600);
	assert_int_equal(json_integer_value(json_object_get(n, "packets")), 376000);
	assert_int_equal(json_integer_value(json_object_get(n, "timed_polls")), 37600);
	assert_int_equal(json_integer_value(json_object_get(n, "cycles")), 37000ULL * 13000 + 600 * 14000);
	cpus = json_object_get(n, "cpus");
	assert_int_equal(json_array_size(cpus), 2);
	assert_int_equal(json_integer_value(json_array_get(cpus, 1)), 1);
	assert_true(fabs(json_real_value(json_object_get(n, "packets_per_poll")) - 10) < 1e-9);
	assert_true(fabs(json_real_value(json_object_get(n, "per_poll")) -
			 (37000.0 * 13000 + 600 * 14000) / 37600) < 1e-3);
	n = json_array_get(na, 2);
	assert_int_equal(json_integer_value(json_object_get(n, "thread_pid")), 812);
	n = json_array_get(na, 3);		/* eth1: busy-polled, never timed */
	assert_true(json_is_null(json_object_get(n, "per_poll")));
	assert_false(json_is_null(json_object_get(n, "packets_per_poll")));
	n = json_array_get(na, 4);
	assert_true(json_is_null(json_object_get(n, "device")));
	assert_int_equal(json_array_size(json_object_get(n, "cpus")), 1);
	n = json_array_get(na, 5);
	assert_true(json_is_null(json_object_get(n, "device")));
	assert_int_equal(json_integer_value(json_array_get(json_object_get(n, "cpus"), 0)), 1);
	/* CPU 1's own instances */
	na = json_object_get(json_array_get(json_object_get(j, "cpus"), 1), "napi");
	assert_int_equal(json_array_size(na), 3);
	n = json_array_get(na, 0);
	assert_int_equal(json_integer_value(json_object_get(n, "irq")), 25);
	assert_int_equal(json_integer_value(json_object_get(n, "polls")), 600);
	assert_int_equal(json_array_size(json_object_get(n, "cpus")), 1);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(n, "cpus"), 0)), 1);
	assert_true(fabs(json_real_value(json_object_get(n, "per_poll")) - 14000) < 1e-9);
	json_decref(j);

	o = (struct nc_report_opts){ .ns = true, .cpus = "1" };
	j = json_report(m, o);
	na = json_object_get(json_object_get(j, "total"), "napi");
	assert_int_equal(json_array_size(na), 3);
	n = json_array_get(na, 0);
	assert_int_equal(json_integer_value(json_object_get(n, "polls")), 600);
	assert_true(fabs(json_real_value(json_object_get(n, "per_poll")) -
			 14000 * 1e6 / m->info.tsc_khz) < 1e-6);
	json_decref(j);
	nc_model_free(m);
	free(m);
}

/* load - @doc as a snapshot file into @m (inited): the loader's status */
static int load(struct nc_model *m, json_t *doc)
{
	char path[512], *text = json_dumps(doc, JSON_INDENT(1));
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/napi-load.json", TEST_OUT);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(text);
	nc_last_err[0] = '\0';
	nc_err_quiet = true;
	ret = nc_snapshot_load(m, path);
	nc_err_quiet = false;
	return ret;
}

/*
 * "save" then "show" prints what "dump" printed, text and JSON, per CPU
 * too; a snapshot from before 0.9.0 loads without instances; the loader
 * refuses NAPI entries no module sends, naming the place
 */
static void test_snapshot(void **state)
{
	static const struct {
		unsigned int idx;	/* in cpus[0].napi: eth0 0, eth0 8193, eth1 8195, backlog */
		const char *key;
		const char *json;	/* its value */
		const char *what;
	} bad[] = {
		{ 1, "timed_polls", "100000", "cpus[0].napi[1].timed_polls: more than polls" },
		{ 2, "cycles", "5", "cpus[0].napi[2].cycles: not 0, but timed_polls is" },
		{ 1, "device", "\"\"", "cpus[0].napi[1].device: empty" },
		{ 1, "irq", "\"24\"", "cpus[0].napi[1].irq: expected an integer" },
		{ 1, "polls", "-1", "cpus[0].napi[1].polls: must not be negative" },
		{ 1, "id", "null", "cpus[0].napi[1].id: expected an integer" },
		{ 1, "id", "0", "cpus[0].napi[1]: NAPI instance listed twice" },
		{ 3, "ifindex", "4294967296", "cpus[0].napi[3].ifindex: out of range" },
	};
	struct nc_report_opts opts[] = {
		{ 0 }, { .per_cpu = true, .all = true }, { .json = true }, { .json = true, .cpus = "1" },
	};
	struct nc_model *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	json_t *doc, *d, *e;
	char path[512], *ta, *tb;
	unsigned int i;

	(void)state;
	nc_model_init(a);
	synth_model(a, true, true);
	synth_napis(a);
	snprintf(path, sizeof(path), "%s/napi.json", TEST_OUT);
	assert_int_equal(nc_snapshot_save(a, path), 0);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, path), 0);
	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		ta = text_report(a, &opts[i]);
		tb = text_report(b, &opts[i]);
		assert_string_equal(ta, tb);
		assert_non_null(strstr(ta, opts[i].json ? "\"napi\"" : "NAPI instances"));
		free(ta);
		free(tb);
	}
	doc = nc_snapshot_to_json(a);
	d = nc_snapshot_to_json(b);
	assert_true(json_equal(doc, d));
	json_decref(d);
	nc_model_free(b);

	/* a file without "napi" (before 0.9.0) or "napi_dropped" */
	d = json_deep_copy(doc);
	json_object_del(d, "napi_dropped");
	json_array_foreach(json_object_get(d, "cpus"), i, e)
		json_object_del(e, "napi");
	json_object_del(json_object_get(d, "total"), "napi");
	nc_model_init(b);
	assert_int_equal(load(b, d), 0);
	assert_int_equal(b->total.nr_napi, 0);
	nc_model_free(b);
	json_decref(d);
	nc_model_init(b);
	assert_int_equal(nc_snapshot_load(b, TEST_DIR "/corpus/stock.json"), 0);
	assert_int_equal(b->total.nr_napi, 0);
	nc_model_free(b);

	/* an instance's IRQ and thread may be absent as well as null */
	d = json_deep_copy(doc);
	e = json_array_get(json_object_get(json_array_get(json_object_get(d, "cpus"), 0), "napi"), 1);
	json_object_del(e, "irq");
	json_object_del(e, "thread_pid");
	nc_model_init(b);
	assert_int_equal(load(b, d), 0);
	assert_false(b->cpus[0].napi[1].has_irq);
	nc_model_free(b);
	json_decref(d);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		d = json_deep_copy(doc);
		e = json_array_get(json_object_get(json_array_get(json_object_get(d, "cpus"), 0),
						   "napi"), bad[i].idx);
		json_object_set_new(e, bad[i].key, json_loads(bad[i].json, JSON_DECODE_ANY, NULL));
		nc_model_init(b);
		if (load(b, d) != NC_EXIT_SNAPSHOT || !strstr(nc_last_err, bad[i].what))
			fail_msg("%s = %s: \"%s\"", bad[i].key, bad[i].json, nc_last_err);
		nc_model_free(b);
		json_decref(d);
	}
	d = json_deep_copy(doc);
	json_object_set_new(json_array_get(json_object_get(d, "cpus"), 0), "napi", json_object());
	nc_model_init(b);
	assert_int_equal(load(b, d), NC_EXIT_SNAPSHOT);
	assert_non_null(strstr(nc_last_err, "cpus[0].napi: expected an array"));
	nc_model_free(b);
	json_decref(d);

	json_decref(doc);
	nc_model_free(a);
	free(a);
	free(b);
}

/*
 * watch: an interval's polls are the difference of two reads, and its
 * instances those that polled in it; after a reset (another generation)
 * the new read is the interval
 */
static void test_watch_delta(void **state)
{
	struct nc_model *m = calloc(3, sizeof(*m));
	struct nc_model *prev = &m[0], *cur = &m[1], *d = &m[2];
	struct nc_report_opts o = { .all = true };
	const struct nc_napi *n;
	char *text;

	(void)state;
	nc_model_init(prev);
	synth_model(prev, false, false);
	synth_napis(prev);
	nc_model_init(cur);
	synth_model(cur, false, false);
	synth_napis(cur);
	synth_napi(cur, 0, &(struct nc_napi){ .id = 8193, .ifindex = 2, .has_ifname = true,
		   .ifname = "eth0", .has_irq = true, .irq = 24, .polls = 1000,
		   .packets = 9000, .timed_polls = 1000, .cycles = 1000 * 12000 });
	nc_model_sum_total(cur, NULL);
	nc_model_init(d);
	assert_int_equal(nc_model_delta(d, cur, prev), 0);
	assert_int_equal(d->total.nr_napi, 1);
	n = find_napi(&d->total, 8193, 2, "eth0");
	assert_int_equal(n->polls, 1000);
	assert_int_equal(n->packets, 9000);
	assert_int_equal(n->cycles, 1000 * 12000);
	assert_int_equal(n->irq, 24);
	text = text_report(d, &o);
	row_has(napi_row(text, "eth0", 8193), "eth0 8193 24 - 1000 9000 9.00 1000 12000 0");
	assert_null(napi_row(text, "eth1", 8195));
	free(text);
	nc_model_free(d);

	cur->info.generation++;
	nc_model_init(d);
	assert_int_equal(nc_model_delta(d, cur, prev), 0);
	assert_int_equal(d->total.nr_napi, 6);	/* two backlogs */
	assert_int_equal(find_napi(&d->total, 8193, 2, "eth0")->polls, 38600);
	nc_model_free(d);
	nc_model_free(prev);
	nc_model_free(cur);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_cpus_merge),
		cmocka_unit_test(test_repeated_nests_add),
		cmocka_unit_test(test_absent_attributes),
		cmocka_unit_test(test_malformed_nests),
		cmocka_unit_test(test_older_module),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_text_table),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_watch_delta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
