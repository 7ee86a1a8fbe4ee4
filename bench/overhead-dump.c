// SPDX-License-Identifier: GPL-2.0
/*
 * overhead-dump - (guest tool of bench/overhead, built as nc-bench-dump)
 * the read cost of netcost: time and weigh full STATS dumps.
 *
 *   nc-bench-dump [-n RUNS]
 *
 * Sends RUNS (default 21) STATS dump requests one after the other and, for
 * each, measures CLOCK_MONOTONIC from the request to NLMSG_DONE, the
 * bytes of netlink messages received and the distinct CPUs (NETCOST_A_CPU)
 * they carry.  Prints one line of JSON: runs, cpus, messages, bytes (of
 * the last dump) and ns_min / ns_median / ns_max.  The messages are
 * walked (every attribute of every message), not decoded into a model:
 * this is the kernel's side of the cost plus one copy to user space.
 * Exit 1 when a dump fails or two dumps disagree on their CPUs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "uapi/netcost.h"

#define MAX_CPUS	16384

static uint16_t family;

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
			*(uint16_t *)data = mnl_attr_get_u16(attr);
	}
	return MNL_CB_OK;
}

struct dump {
	unsigned long messages, bytes, cpus;
	unsigned char seen[MAX_CPUS / 8];
};

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump *d = data;
	struct nlattr *attr;

	d->messages++;
	d->bytes += nlh->nlmsg_len;
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		uint32_t cpu;

		if (mnl_attr_get_type(attr) != NETCOST_A_CPU)
			continue;
		cpu = mnl_attr_get_u32(attr);
		if (cpu < MAX_CPUS && !(d->seen[cpu / 8] & (1 << (cpu % 8)))) {
			d->seen[cpu / 8] |= 1 << (cpu % 8);
			d->cpus++;
		}
	}
	return MNL_CB_OK;
}

static struct nlmsghdr *put_request(char *buf, uint16_t type, uint16_t flags,
				    uint8_t cmd, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	return nlh;
}

/* run - send one request and feed the replies to cb until done */
static int run(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	static char buf[1 << 16];
	unsigned int portid = mnl_socket_get_portid(nl);
	int n, ret = MNL_CB_OK;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	while (ret > MNL_CB_STOP) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n <= 0)
			return -1;
		ret = mnl_cb_run(buf, n, nlh->nlmsg_seq, portid, cb, data);
	}
	return ret < 0 ? -1 : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct dump *d;
	uint64_t *ns;
	unsigned long cpus = 0;
	int runs = 21, i, opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n' || (runs = atoi(optarg)) < 1) {
			fprintf(stderr, "usage: nc-bench-dump [-n RUNS]\n");
			return 2;
		}
	}
	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("nc-bench-dump: netlink");
		return 1;
	}
	nlh = put_request(buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, NETCOST_GENL_NAME);
	if (run(nl, nlh, family_cb, &family) || !family) {
		fprintf(stderr, "nc-bench-dump: no %s family (is the module loaded?)\n",
			NETCOST_GENL_NAME);
		return 1;
	}
	ns = calloc(runs, sizeof(*ns));
	d = calloc(1, sizeof(*d));
	if (!ns || !d)
		return 1;
	for (i = 0; i < runs; i++) {
		struct timespec t0, t1;

		memset(d, 0, sizeof(*d));
		nlh = put_request(buf, family, NLM_F_DUMP, NETCOST_CMD_STATS, 100 + i);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (run(nl, nlh, stats_cb, d)) {
			fprintf(stderr, "nc-bench-dump: STATS dump failed: %s\n", strerror(errno));
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns[i] = (t1.tv_sec - t0.tv_sec) * 1000000000ULL + t1.tv_nsec - t0.tv_nsec;
		if (i && d->cpus != cpus) {
			fprintf(stderr, "nc-bench-dump: dump %d has %lu CPUs, the first had %lu\n",
				i, d->cpus, cpus);
			return 1;
		}
		cpus = d->cpus;
	}
	qsort(ns, runs, sizeof(*ns), cmp_u64);
	printf("{\"runs\":%d,\"cpus\":%lu,\"messages\":%lu,\"bytes\":%lu,"
	       "\"ns_min\":%llu,\"ns_median\":%llu,\"ns_max\":%llu}\n",
	       runs, d->cpus, d->messages, d->bytes, (unsigned long long)ns[0],
	       (unsigned long long)ns[runs / 2], (unsigned long long)ns[runs - 1]);
	mnl_socket_close(nl);
	return 0;
}
