// SPDX-License-Identifier: GPL-2.0
/*
 * nc-task-slots - (guest test tool) the module's task table gives a slot
 * back when its task exits, even one that died inside a watched system
 * call (issue 8, defect 5).
 *
 *   nc-task-slots [N]	(default 64)
 *
 * Reads INFO's task-slots/task-slots-used, forks N children that each
 * block in recvfrom() (a watched call: each holds a slot), reads again
 * (N more held), kills them with SIGKILL, reaps them, reads again: the
 * slots must be back.  Prints TAP lines ("ok - ..." / "not ok - ...");
 * exit status 0 unless the tool itself failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nc-mnl.h"

struct info {
	uint16_t family;
	unsigned int slots, used;
	int have;
};

static int info_cb(const struct nlmsghdr *nlh, void *data)
{
	struct info *in = data;
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == NETCOST_A_TASK_SLOTS) {
			in->slots = mnl_attr_get_u32(attr);
			in->have |= 1;
		} else if (mnl_attr_get_type(attr) == NETCOST_A_TASK_SLOTS_USED) {
			in->used = mnl_attr_get_u32(attr);
			in->have |= 2;
		}
	}
	return MNL_CB_OK;
}

/* query - one do-request of @cmd to family @type; false on error */
static int query(struct mnl_socket *nl, uint16_t type, uint8_t cmd, mnl_cb_t cb, void *data)
{
	static uint32_t seq = 1;
	static char buf[65536];		/* INFO, with every hook, passes 8 KiB */
	struct nlmsghdr *nlh = nc_mnl_put(buf, type, NLM_F_ACK, cmd, ++seq);

	return !nc_mnl_talk(nl, nlh, cb, data, buf, sizeof(buf));
}

static int read_info(struct mnl_socket *nl, struct info *in)
{
	in->have = 0;
	return query(nl, in->family, NETCOST_CMD_INFO, info_cb, in) &&
	       in->have == 3;
}

/* blocker - a child that sits in recvfrom() until it is killed */
static void blocker(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	char buf[64];
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		_exit(1);
	for (;;)
		recvfrom(fd, buf, sizeof(buf), 0, NULL, NULL);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 64, i, tries;
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	unsigned int base, held;
	struct mnl_socket *nl;
	struct info in = { 0 };
	pid_t *kids;

	nl = nc_mnl_open();
	if (!nl) {
		perror("nc-task-slots: netlink");
		return 1;
	}
	in.family = nc_mnl_family(nl);
	if (!in.family) {
		printf("not ok - netcost family not found (module not loaded?)\n");
		return 0;
	}
	if (!read_info(nl, &in)) {
		printf("not ok - INFO carries no task-slots/task-slots-used\n");
		return 0;
	}
	base = in.used;
	printf("ok - INFO: task table of %u slots, %u used\n", in.slots, base);

	kids = calloc(n, sizeof(*kids));
	if (!kids)
		return 1;
	for (i = 0; i < n; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("nc-task-slots: fork");
			return 1;
		}
		if (!kids[i])
			blocker();
	}
	/* wait until every child sits in its call (bounded: 5 s) */
	for (tries = 0; tries < 500; tries++) {
		if (!read_info(nl, &in))
			break;
		if (in.used >= base + n)
			break;
		nanosleep(&ms, NULL);
	}
	held = in.used;
	if (held >= base + n)
		printf("ok - %d tasks blocked in recvfrom() hold %u slots\n", n, held - base);
	else
		printf("not ok - %d tasks blocked in recvfrom() hold only %u slots\n",
		       n, held > base ? held - base : 0);

	for (i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	read_info(nl, &in);
	/* a few slots may belong to other tasks that just entered a call */
	if (in.used <= base + 2)
		printf("ok - slots given back when the tasks died inside their call: %u used (was %u)\n",
		       in.used, base);
	else
		printf("not ok - %u slots still held after the tasks died (was %u): the table leaks\n",
		       in.used, base);
	free(kids);
	mnl_socket_close(nl);
	return 0;
}
