// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_netlink.c - libFuzzer target for the netlink parser (lib/stats.c):
 * the input is a stream of netlink messages, as the kernel would answer
 * INFO, the STATS dump and the TASKS dump; each generic netlink message goes to the
 * parser of its command, then the model is totalled and printed (text and
 * JSON).  Nothing may crash, leak or read out of bounds, whatever the
 * module (or something posing as it) sends.  The seeds in corpus-netlink/
 * are replies recorded from the structures by test_nl.c, and a
 * two-message TASKS dump (tasks-0.13.bin).
 * Built and run by ./fuzz-run (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "report.h"
#include "stats.h"
#include "uapi/netcost.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nc_model m;
	static FILE *null;
	struct nc_task_list tasks = { 0 };
	struct nc_report_opts o = { .per_cpu = true, .all = true };
	const struct nlmsghdr *nlh;
	void *buf;
	int len = (int)size;

	if (size > (1 << 20))
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	nc_err_quiet = true;
	/* the kernel's buffer is aligned; libFuzzer's copy is too, keep it so */
	buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	nc_model_init(&m);
	for (nlh = buf; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
		const struct genlmsghdr *g;

		/*
		 * mnl_nlmsg_ok() compares (int)nlmsg_len, which a length past
		 * 2^31 turns negative: the kernel never sends one, a fuzzer does
		 */
		if (nlh->nlmsg_len > (uint32_t)len)
			break;
		if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*g))
			continue;
		g = mnl_nlmsg_get_payload(nlh);
		if (g->cmd == NETCOST_CMD_INFO && nc_parse_info_msg(nlh, &m.info))
			break;
		if (g->cmd == NETCOST_CMD_STATS && nc_parse_stats_msg(nlh, &m))
			break;
		if (g->cmd == NETCOST_CMD_TASKS && nc_parse_tasks_msg(nlh, &tasks))
			break;
	}
	nc_task_list_free(&tasks);
	nc_model_info_stages(&m);
	nc_model_sum_total(&m, NULL);
	nc_report_print(null, &m, &o);
	/*
	 * The JSON printer is fuzzed through the snapshot target, whose models
	 * are as free; here it would cost 3/4 of every run of a big input.
	 */
	if (size < 4096) {
		o.json = true;
		nc_report_print(null, &m, &o);
	}
	nc_model_free(&m);
	free(buf);
	return 0;
}
