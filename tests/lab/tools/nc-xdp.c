// SPDX-License-Identifier: GPL-2.0
/*
 * nc-xdp - (guest test tool) attach an XDP program of one action to a
 * device in driver (native) mode, or take it away: the lab's way to make
 * a NIC's polls consume frames without handing them to the stack
 * (rx_frames_consumed), with no compiler or libbpf in the guest.
 *
 *   nc-xdp DEV aborted|drop|pass	attach "return XDP_<ACTION>"
 *   nc-xdp DEV off			detach
 *
 * The program is two instructions (r0 = action; exit), loaded with
 * bpf(BPF_PROG_LOAD) and attached with RTM_SETLINK's IFLA_XDP
 * (XDP_FLAGS_DRV_MODE: a NIC without native XDP refuses it, no generic
 * fallback).  It stays attached after the tool exits.  XDP_ABORTED drops
 * the frame and fires the xdp:xdp_exception tracepoint, so the kernel
 * counts those frames itself.  Exit status 0, 1 on a failure (a missing
 * device, the kernel's refusal), 2 on bad arguments.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "nc-mnl.h"

static const struct {
	const char *name;
	int action;
} actions[] = {
	{ "aborted", XDP_ABORTED },
	{ "drop", XDP_DROP },
	{ "pass", XDP_PASS },
	{ "off", -1 },
};

static int usage(void)
{
	fprintf(stderr, "usage: nc-xdp DEV aborted|drop|pass|off\n");
	return 2;
}

/* prog_load - the program "return @action", or -1 (the verifier's log on stderr) */
static int prog_load(int action)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = action },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.insns = (uintptr_t)insns;
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	fd = (int)syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0)
		fprintf(stderr, "nc-xdp: bpf(BPF_PROG_LOAD): %s%s%s\n", strerror(errno),
			log[0] ? "\n" : "", log);
	return fd;
}

/* xdp_set - attach program @fd to @ifindex in driver mode (-1: detach); 0 or -errno */
static int xdp_set(int ifindex, int fd)
{
	static char buf[8192];
	struct mnl_socket *nl = nc_mnl_open_bus(NETLINK_ROUTE);
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	struct nlattr *nest;
	int ret;

	if (!nl)
		return -errno;
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_SETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	nest = mnl_attr_nest_start(nlh, IFLA_XDP);
	mnl_attr_put_u32(nlh, IFLA_XDP_FD, (uint32_t)fd);
	mnl_attr_put_u32(nlh, IFLA_XDP_FLAGS, XDP_FLAGS_DRV_MODE);
	mnl_attr_nest_end(nlh, nest);
	ret = nc_mnl_talk(nl, nlh, NULL, NULL, buf, sizeof(buf));
	mnl_socket_close(nl);
	return ret;
}

int main(int argc, char **argv)
{
	int action = -2, ifindex, fd = -1, ret;
	size_t i;

	if (argc != 3)
		return usage();
	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(argv[2], actions[i].name))
			action = actions[i].action;
	if (action == -2)
		return usage();
	ifindex = (int)if_nametoindex(argv[1]);
	if (!ifindex) {
		fprintf(stderr, "nc-xdp: %s: no such device\n", argv[1]);
		return 1;
	}
	if (action >= 0) {
		fd = prog_load(action);
		if (fd < 0)
			return 1;
	}
	ret = xdp_set(ifindex, fd);
	if (ret) {
		fprintf(stderr, "nc-xdp: %s: %s the XDP program (driver mode): %s\n", argv[1],
			fd < 0 ? "cannot detach" : "cannot attach", strerror(-ret));
		return 1;
	}
	printf("nc-xdp: %s: %s\n", argv[1], fd < 0 ? "no XDP program" : argv[2]);
	return 0;
}
