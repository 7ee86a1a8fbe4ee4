// SPDX-License-Identifier: GPL-2.0
/*
 * nc-dumpcheck - (guest test tool) concurrent STATS dumpers and RESETs:
 * every dump must be consistent or flagged NLM_F_DUMP_INTR.
 *
 *   nc-dumpcheck [-d DUMPERS] [-r RESETTERS] [-t SECONDS]
 *
 * DUMPERS processes (default 4) dump STATS in a loop for SECONDS
 * (default 10) while RESETTERS processes (default 1) send RESET in a
 * loop.  A dump is read whole, its fragments merged by (cpu, stage);
 * when any part or the NLMSG_DONE carries NLM_F_DUMP_INTR it is counted
 * as interrupted and taken again (as the tool does).  Otherwise every
 * stage of every CPU must be consistent:
 *   - its buckets add up to its count, and every fragment repeats the
 *     same count;
 *   - with events: min <= max, min in the first non-empty bucket, max in
 *     the last, count * min <= sum <= count * max;
 *   - without: sum and max are 0.
 * Prints one summary line per process and a total; exit status 1 when a
 * dump that was not flagged is inconsistent or a request failed.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nc-mnl.h"
#define NETCOST_HIST_USERSPACE
#include "netcost_hist.h"

#define MAX_CPUS	64

struct st {
	bool seen, frag_mismatch, bad_run;
	uint64_t count, sum, min, max, bsum;
	uint64_t first_lo, first_hi, last_lo, last_hi;
	bool any_bucket;
};

static struct st stats[MAX_CPUS][__NETCOST_STAGE_MAX];
static uint16_t family;
static char buf[1 << 17];


static void add_bucket(struct st *s, uint64_t lo, uint64_t hi, uint64_t c)
{
	s->bsum += c;
	if (!c)
		return;
	if (!s->any_bucket) {
		s->first_lo = lo;
		s->first_hi = hi;
		s->any_bucket = true;
	}
	s->last_lo = lo;
	s->last_hi = hi;
}

/* put_bucket - one NETCOST_STAGE_A_BUCKET nest (modules before 0.3.0) */
static void put_bucket(struct st *s, const struct nlattr *nest)
{
	uint64_t lo = 0, hi = 0, c = 0;
	struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case NETCOST_BUCKET_A_LO: lo = mnl_attr_get_u64(a); break;
		case NETCOST_BUCKET_A_HI: hi = mnl_attr_get_u64(a); break;
		case NETCOST_BUCKET_A_COUNT: c = mnl_attr_get_u64(a); break;
		}
	}
	add_bucket(s, lo, hi, c);
}

/*
 * put_run - BUCKET_FIRST and BUCKET_COUNTS (0.3.0): a run of u64 counts;
 * a run past the last bucket, or not whole u64s, is itself inconsistent
 */
static void put_run(struct st *s, uint32_t first, const struct nlattr *run)
{
	const uint8_t *p = mnl_attr_get_payload(run);
	size_t len = mnl_attr_get_payload_len(run), k;

	if (len % 8 || first > NETCOST_HIST_BUCKETS || len / 8 > NETCOST_HIST_BUCKETS - first) {
		s->bad_run = true;
		return;
	}
	for (k = 0; k < len / 8; k++) {
		uint64_t c;

		memcpy(&c, p + 8 * k, 8);
		add_bucket(s, netcost_hist_lo(first + k), netcost_hist_hi(first + k), c);
	}
}

static void put_stage(unsigned int cpu, const struct nlattr *nest)
{
	const struct nlattr *run = NULL;
	uint64_t count = 0, sum = 0, min = 0, max = 0;
	uint32_t first = 0;
	struct nlattr *a;
	int id = -1;
	struct st *s;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case NETCOST_STAGE_A_ID: id = (int)mnl_attr_get_u32(a); break;
		case NETCOST_STAGE_A_COUNT: count = mnl_attr_get_u64(a); break;
		case NETCOST_STAGE_A_SUM: sum = mnl_attr_get_u64(a); break;
		case NETCOST_STAGE_A_MIN_VAL: min = mnl_attr_get_u64(a); break;
		case NETCOST_STAGE_A_MAX_VAL: max = mnl_attr_get_u64(a); break;
		case NETCOST_STAGE_A_BUCKET_FIRST: first = mnl_attr_get_u32(a); break;
		case NETCOST_STAGE_A_BUCKET_COUNTS: run = a; break;
		}
	}
	if (id < 0 || id >= __NETCOST_STAGE_MAX || cpu >= MAX_CPUS)
		return;
	s = &stats[cpu][id];
	if (s->seen && (s->count != count || s->sum != sum || s->min != min || s->max != max))
		s->frag_mismatch = true;
	s->seen = true;
	s->count = count;
	s->sum = sum;
	s->min = min;
	s->max = max;
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == NETCOST_STAGE_A_BUCKET)
			put_bucket(s, a);
	}
	if (run)
		put_run(s, first, run);
}

struct dump_state {
	bool intr;
};

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_state *d = data;
	unsigned int cpu = MAX_CPUS;
	struct nlattr *a;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		d->intr = true;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == NETCOST_A_CPU)
			cpu = mnl_attr_get_u32(a);
		else if (mnl_attr_get_type(a) == NETCOST_A_STAGE)
			put_stage(cpu, a);
	}
	return MNL_CB_OK;
}

/* check - the merged dump; prints and counts each inconsistency */
static unsigned int check(unsigned long dump_no)
{
	unsigned int cpu, id, bad = 0;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		for (id = 0; id < __NETCOST_STAGE_MAX; id++) {
			const struct st *s = &stats[cpu][id];
			const char *why = NULL;

			if (!s->seen)
				continue;
			if (s->frag_mismatch)
				why = "fragments disagree";
			else if (s->bad_run)
				why = "a bucket run past the last bucket, or not whole u64s";
			else if (s->bsum != s->count)
				why = "buckets do not add up to the count";
			else if (s->count && (s->min > s->max ||
					      s->min < s->first_lo || s->min > s->first_hi ||
					      s->max < s->last_lo || s->max > s->last_hi))
				why = "min/max outside the first/last bucket";
			else if (s->count &&
				 ((unsigned __int128)s->min * s->count > s->sum ||
				  (unsigned __int128)s->max * s->count < s->sum))
				why = "sum outside count*[min, max]";
			else if (!s->count && (s->sum || s->max))
				why = "sum or max without events";
			if (!why)
				continue;
			bad++;
			if (bad <= 3)
				fprintf(stderr,
					"nc-dumpcheck[%d]: dump %lu cpu %u stage %u: %s (count %llu, buckets %llu, sum %llu, min %llu, max %llu, first [%llu,%llu], last [%llu,%llu])\n",
					getpid(), dump_no, cpu, id, why,
					(unsigned long long)s->count, (unsigned long long)s->bsum,
					(unsigned long long)s->sum, (unsigned long long)s->min,
					(unsigned long long)s->max,
					(unsigned long long)s->first_lo, (unsigned long long)s->first_hi,
					(unsigned long long)s->last_lo, (unsigned long long)s->last_hi);
		}
	}
	return bad;
}

static struct mnl_socket *open_nl(void)
{
	struct mnl_socket *nl = nc_mnl_open();

	if (!nl) {
		perror("nc-dumpcheck: netlink socket");
		exit(2);
	}
	if (!family) {
		family = nc_mnl_family(nl);
		if (!family) {
			fprintf(stderr, "nc-dumpcheck: family %s not found\n", NETCOST_GENL_NAME);
			exit(2);
		}
	}
	return nl;
}

#define MAX_TRIES 10

/* dumper - dump until @end; print "dumps intr retried gaveup bad errors" */
static int dumper(time_t end)
{
	unsigned long dumps = 0, intr = 0, gaveup = 0, bad = 0, errs = 0, seq = 1;
	struct mnl_socket *nl = open_nl();

	while (time(NULL) < end) {
		int try;

		for (try = 0; try < MAX_TRIES; try++) {
			struct dump_state d = { false };
			struct nlmsghdr *nlh;
			int n, ret = MNL_CB_OK;

			memset(stats, 0, sizeof(stats));
			nlh = nc_mnl_put(buf, family, NLM_F_DUMP, NETCOST_CMD_STATS, ++seq);
			if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
				errs++;
				break;
			}
			/*
			 * Not mnl_cb_run(): libmnl stops at the first part
			 * flagged NLM_F_DUMP_INTR (EINTR) and would leave the
			 * rest of the dump in the socket.  Read it all.
			 */
			while (ret > 0) {
				const struct nlmsghdr *m;

				n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
				if (n < 0) {
					ret = -1;
					break;
				}
				for (m = (void *)buf; mnl_nlmsg_ok(m, n); m = mnl_nlmsg_next(m, &n)) {
					if (m->nlmsg_seq != seq)
						continue;
					if (m->nlmsg_flags & NLM_F_DUMP_INTR)
						d.intr = true;
					if (m->nlmsg_type == NLMSG_DONE) {
						ret = 0;
					} else if (m->nlmsg_type == NLMSG_ERROR) {
						const struct nlmsgerr *e = mnl_nlmsg_get_payload(m);

						errno = -e->error;
						ret = -1;
					} else {
						stats_cb(m, &d);
					}
				}
			}
			if (ret < 0) {
				fprintf(stderr, "nc-dumpcheck[%d]: dump failed: %s\n",
					getpid(), strerror(errno));
				errs++;
				break;
			}
			dumps++;
			if (d.intr) {
				intr++;
				continue;
			}
			bad += check(dumps) ? 1 : 0;
			break;
		}
		if (try == MAX_TRIES)
			gaveup++;
	}
	printf("dumper %d: %lu dumps, %lu interrupted (retried), %lu given up after %d tries, %lu inconsistent, %lu errors\n",
	       getpid(), dumps, intr, gaveup, MAX_TRIES, bad, errs);
	fflush(stdout);
	return (bad || errs) ? 1 : 0;
}

static int resetter(time_t end)
{
	struct mnl_socket *nl = open_nl();
	unsigned long resets = 0, errs = 0, seq = 1;

	while (time(NULL) < end) {
		struct nlmsghdr *nlh = nc_mnl_put(buf, family, NLM_F_ACK,
						NETCOST_CMD_RESET, ++seq);

		if (nc_mnl_talk(nl, nlh, NULL, NULL, buf, sizeof(buf)) < 0)
			errs++;
		else
			resets++;
		usleep(2000);
	}
	printf("resetter %d: %lu resets, %lu errors\n", getpid(), resets, errs);
	fflush(stdout);
	return errs ? 1 : 0;
}

int main(int argc, char **argv)
{
	int dumpers = 4, resetters = 1, secs = 10, c, i, status, failed = 0;
	time_t end;

	while ((c = getopt(argc, argv, "d:r:t:")) != -1) {
		switch (c) {
		case 'd': dumpers = atoi(optarg); break;
		case 'r': resetters = atoi(optarg); break;
		case 't': secs = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: nc-dumpcheck [-d DUMPERS] [-r RESETTERS] [-t SECONDS]\n");
			return 2;
		}
	}
	end = time(NULL) + secs;
	mnl_socket_close(open_nl());	/* fail early without the family */
	for (i = 0; i < dumpers + resetters; i++) {
		pid_t p = fork();

		if (p < 0) {
			perror("nc-dumpcheck: fork");
			return 2;
		}
		if (!p)
			exit(i < dumpers ? dumper(end) : resetter(end));
	}
	while (wait(&status) > 0) {
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	printf("nc-dumpcheck: %d dumpers, %d resetters, %d s: %s\n", dumpers, resetters,
	       secs, failed ? "FAILED" : "every dump consistent or flagged");
	return failed ? 1 : 0;
}
