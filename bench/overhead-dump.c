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

#include "nc-mnl.h"

#define MAX_CPUS	16384

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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	struct mnl_socket *nl;
	uint16_t family;
	struct nlmsghdr *nlh;
	struct dump *d;
	uint64_t *ns;
	unsigned long cpus = 0;
	int runs = 21, i, opt, err;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n' || (runs = atoi(optarg)) < 1) {
			fprintf(stderr, "usage: nc-bench-dump [-n RUNS]\n");
			return 2;
		}
	}
	nl = nc_mnl_open();
	if (!nl) {
		perror("nc-bench-dump: netlink");
		return 1;
	}
	family = nc_mnl_family(nl);
	if (!family) {
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
		nlh = nc_mnl_put(buf, family, NLM_F_DUMP, NETCOST_CMD_STATS, 100 + i);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if ((err = nc_mnl_talk(nl, nlh, stats_cb, d, buf, sizeof(buf)))) {
			fprintf(stderr, "nc-bench-dump: STATS dump failed: %s\n", strerror(-err));
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
