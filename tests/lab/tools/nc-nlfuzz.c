// SPDX-License-Identifier: GPL-2.0
/*
 * nc-nlfuzz - (guest test tool) a seeded, hostile generic netlink client
 * for the "netcost" family, built on libmnl.
 *
 *   nc-nlfuzz [-s SEED] [-n COUNT]       fuzz, print a report by kind
 *   nc-nlfuzz --probe-id ID              send every command to family id
 *                                        ID (from another namespace):
 *                                        exit 0 when all are refused
 *   nc-nlfuzz --print-id                 print the family's id
 *
 * Every message is one of the kinds below, built from a valid request
 * and mutated.  After each, a NLMSG_NOOP with NLM_F_ACK is sent as a
 * fence: whatever arrives before the fence's ACK is the message's answer
 * (an error with or without extack text, a success, or nothing: the
 * netlink core drops a message shorter than its header silently).  Kinds
 * marked "must fail" are malformed by construction: one that succeeds is
 * a failure of the module.  The others may leave a valid request (unusual
 * flags on a valid command, say) and are only counted.  Abandoned dumps
 * start a STATS dump on a second socket, read one part and close it.
 *
 * Output: the seed first (replay with -s), then one line per kind, then
 * "nc-nlfuzz: N messages, F failures".  Exit status 1 on any failure, 2
 * on bad usage or when the family cannot be found.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "nc-mnl.h"

#ifndef NLM_F_DUMP_FILTERED
#define NLM_F_DUMP_FILTERED 0x20
#endif

enum kind {
	K_UNKNOWN_CMD,		/* command 0 or past NETCOST_CMD_MAX */
	K_ODD_FLAGS,		/* valid read command, unusual nlmsg flags */
	K_RESERVED,		/* genl version / reserved field not zero */
	K_TRUNC_NL,		/* shorter than struct nlmsghdr */
	K_TRUNC_GENL,		/* netlink header, partial genetlink header */
	K_LEN_MISMATCH,		/* nlmsg_len past the bytes sent */
	K_ATTR_LEN,		/* CONFIG attribute of the wrong length */
	K_ATTR_OVERMAX,		/* attribute type past the policy */
	K_ATTR_VALUE,		/* CONFIG value out of range (mask, max, IRQ) */
	K_NESTED_GARBAGE,	/* CONFIG nest full of random bytes */
	K_ATTR_TRUNC,		/* attribute header past the message end */
	K_OVERSIZED,		/* 64 KiB - 1 MiB of attributes */
	K_DUMP_JUNK,		/* STATS dump with junk attributes */
	K_DUMP_ON_DO,		/* NLM_F_DUMP on a do-only command */
	K_DUMP_ABANDONED,	/* STATS dump closed after one part */
	K_MAX
};

static const struct {
	const char *name;
	bool must_fail;
} kinds[K_MAX] = {
	[K_UNKNOWN_CMD]		= { "unknown-command", true },
	[K_ODD_FLAGS]		= { "odd-flags", false },
	[K_RESERVED]		= { "reserved-fields", false },
	[K_TRUNC_NL]		= { "truncated-nlmsghdr", true },
	[K_TRUNC_GENL]		= { "truncated-genlmsghdr", true },
	[K_LEN_MISMATCH]	= { "length-past-end", true },
	[K_ATTR_LEN]		= { "attr-wrong-length", true },
	[K_ATTR_OVERMAX]	= { "attr-over-max", true },
	[K_ATTR_VALUE]		= { "attr-bad-value", true },
	[K_NESTED_GARBAGE]	= { "nested-garbage", false },
	[K_ATTR_TRUNC]		= { "attr-truncated", true },
	[K_OVERSIZED]		= { "oversized", false },
	[K_DUMP_JUNK]		= { "dump-junk", true },
	[K_DUMP_ON_DO]		= { "dump-on-do", true },
	[K_DUMP_ABANDONED]	= { "dump-abandoned", false },
};

struct tally {
	unsigned long sent, errors, extack, ok, silent, send_err, bad;
	int last_errno;
	char example[128];	/* one extack text */
};

static struct tally tally[K_MAX];
static uint16_t family;
static uint64_t rng;
static char *buf;
#define BUFSZ (1 << 20)

/* xorshift64* */
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

/* extack_msg - NLMSGERR_ATTR_MSG of an error message, or NULL */
static const char *extack_msg(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*e);
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NULL;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
			return mnl_attr_get_str(a);
	}
	return NULL;
}

/*
 * answer - read until the fence @fence_seq is acknowledged; account what
 * came for @seq to @t.  Returns false when the socket failed.
 */
static bool answer(struct mnl_socket *nl, uint32_t seq, uint32_t fence_seq,
		   struct tally *t)
{
	bool got = false, fenced = false, err_seen = false;
	const struct nlmsghdr *nlh;
	int n;

	while (!fenced) {
		struct pollfd p = { .fd = mnl_socket_get_fd(nl), .events = POLLIN };

		if (poll(&p, 1, 5000) <= 0) {
			fprintf(stderr, "nc-nlfuzz: no answer to the fence in 5 s\n");
			return false;
		}
		n = mnl_socket_recvfrom(nl, buf, BUFSZ);
		if (n < 0) {
			if (errno == ENOBUFS)	/* replies overran: count, go on */
				continue;
			perror("nc-nlfuzz: recv");
			return false;
		}
		for (nlh = (void *)buf; mnl_nlmsg_ok(nlh, n); nlh = mnl_nlmsg_next(nlh, &n)) {
			if (nlh->nlmsg_seq == fence_seq) {
				fenced = true;
				continue;
			}
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
				const char *msg;

				if (err_seen || got)
					continue;
				if (e->error) {
					t->errors++;
					t->last_errno = -e->error;
					msg = extack_msg(nlh);
					if (msg) {
						t->extack++;
						if (!t->example[0])
							snprintf(t->example, sizeof(t->example), "%s", msg);
					}
					err_seen = true;
				} else {
					t->ok++;
					got = true;
				}
			} else if (!got && !err_seen) {
				t->ok++;	/* a reply or dump part */
				got = true;
			}
		}
	}
	if (!got && !err_seen)
		t->silent++;
	return true;
}

static void put_junk(struct nlmsghdr *nlh, size_t len)
{
	char *p = mnl_nlmsg_get_payload_tail(nlh);
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (char)rnd();
	nlh->nlmsg_len += MNL_ALIGN(len);
}

/* build - one message of kind @k in buf; its length to send */
static size_t build(enum kind k, uint32_t seq)
{
	static const uint8_t read_cmds[] = { NETCOST_CMD_INFO, NETCOST_CMD_CONFIG_GET };
	static const uint8_t attr_cmds[] = {
		NETCOST_CMD_INFO, NETCOST_CMD_CONFIG_GET, NETCOST_CMD_CONFIG_SET,
		NETCOST_CMD_RESET,
	};
	uint8_t cmd = attr_cmds[rnd_below(sizeof(attr_cmds))];
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct nlattr *nest;
	size_t len, i;

	switch (k) {
	case K_UNKNOWN_CMD:
		cmd = rnd_below(2) ? 0 : NETCOST_CMD_MAX + 1 + rnd_below(255 - NETCOST_CMD_MAX);
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, cmd, seq);
		if (rnd_below(2))
			nlh->nlmsg_flags |= NLM_F_DUMP;
		return nlh->nlmsg_len;
	case K_ODD_FLAGS:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, read_cmds[rnd_below(2)], seq);
		/* any of the get/new/delete modifier bits, echo, not DUMP */
		nlh->nlmsg_flags |= (rnd() & 0x0f38) & ~NLM_F_DUMP;
		return nlh->nlmsg_len;
	case K_RESERVED:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, read_cmds[rnd_below(2)], seq);
		g = mnl_nlmsg_get_payload(nlh);
		if (rnd_below(2))
			g->reserved = 1 + rnd_below(65535);
		else
			g->version = rnd_below(256);
		return nlh->nlmsg_len;
	case K_TRUNC_NL:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, NETCOST_CMD_INFO, seq);
		return 1 + rnd_below(sizeof(*nlh) - 1);
	case K_TRUNC_GENL:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, cmd, seq);
		nlh->nlmsg_len = sizeof(*nlh) + rnd_below(GENL_HDRLEN);
		return nlh->nlmsg_len;
	case K_LEN_MISMATCH:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, cmd, seq);
		len = nlh->nlmsg_len;
		nlh->nlmsg_len += 4 + rnd_below(4096);
		return len;
	case K_ATTR_LEN:
		/* a CONFIG attribute with the wrong payload size */
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, NETCOST_CMD_CONFIG_SET, seq);
		nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
		{
			static const uint16_t t[] = {
				NETCOST_CFG_A_NIC_IRQS_AUTO, NETCOST_CFG_A_NIC_IRQ,
				NETCOST_CFG_A_GROUPS, NETCOST_CFG_A_RECORDING,
			};
			uint16_t type = t[rnd_below(4)];
			size_t want = (type == NETCOST_CFG_A_NIC_IRQ ||
				       type == NETCOST_CFG_A_GROUPS) ? 4 : 1;
			char v[16] = { 0 };

			do
				len = rnd_below(sizeof(v));
			while (len == want);
			mnl_attr_put(nlh, type, len, v);
		}
		mnl_attr_nest_end(nlh, nest);
		return nlh->nlmsg_len;
	case K_ATTR_OVERMAX:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, cmd, seq);
		if (rnd_below(2)) {
			mnl_attr_put_u32(nlh, NETCOST_A_MAX + 1 + rnd_below(1000), (uint32_t)rnd());
		} else {
			nlh = nc_mnl_put(buf, family, NLM_F_ACK, NETCOST_CMD_CONFIG_SET, seq);
			nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
			mnl_attr_put_u32(nlh, NETCOST_CFG_A_MAX + 1 + rnd_below(1000), (uint32_t)rnd());
			mnl_attr_nest_end(nlh, nest);
		}
		return nlh->nlmsg_len;
	case K_ATTR_VALUE:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, NETCOST_CMD_CONFIG_SET, seq);
		nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
		switch (rnd_below(5)) {
		case 0:
			mnl_attr_put_u32(nlh, NETCOST_CFG_A_GROUPS,
					 NETCOST_GROUP_ALL + 1 + rnd_below(0x7fffffff));
			break;
		case 1:
			mnl_attr_put_u8(nlh, NETCOST_CFG_A_RECORDING, 2 + rnd_below(254));
			break;
		case 2:
			mnl_attr_put_u8(nlh, NETCOST_CFG_A_NIC_IRQS_AUTO, 2 + rnd_below(254));
			break;
		case 3:
			mnl_attr_put_u32(nlh, NETCOST_CFG_A_NIC_IRQ, 0x100000 + rnd_below(0x7fffffff));
			break;
		default:
			/* a CPU list with garbage, or with no terminating NUL */
			if (rnd_below(2)) {
				mnl_attr_put_strz(nlh, NETCOST_CFG_A_CPUMASK, "0-x,,--9999999999");
			} else {
				char s[8];

				memset(s, '1', sizeof(s));
				mnl_attr_put(nlh, NETCOST_CFG_A_CPUMASK, sizeof(s), s);
			}
		}
		mnl_attr_nest_end(nlh, nest);
		return nlh->nlmsg_len;
	case K_NESTED_GARBAGE:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, NETCOST_CMD_CONFIG_SET, seq);
		nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
		put_junk(nlh, 1 + rnd_below(512));
		mnl_attr_nest_end(nlh, nest);
		return nlh->nlmsg_len;
	case K_ATTR_TRUNC:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, cmd, seq);
		mnl_attr_put_u32(nlh, NETCOST_A_CPU, 0);
		/* the last attribute claims more than the message holds */
		((struct nlattr *)((char *)nlh + nlh->nlmsg_len - MNL_ALIGN(sizeof(struct nlattr) + 4)))->nla_len =
			8 + 4 + rnd_below(1000);
		return nlh->nlmsg_len;
	case K_OVERSIZED:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK, read_cmds[rnd_below(2)], seq);
		len = 65536 + rnd_below(BUFSZ - 65536 - 4096);
		for (i = 0; nlh->nlmsg_len + 64 < len; i++)
			mnl_attr_put_u32(nlh, NETCOST_A_PAD + 1 + rnd_below(2 * NETCOST_A_MAX),
					 (uint32_t)rnd());
		return nlh->nlmsg_len;
	case K_DUMP_JUNK:
		nlh = nc_mnl_put(buf, family, NLM_F_ACK | NLM_F_DUMP, NETCOST_CMD_STATS, seq);
		if (rnd_below(2)) {
			mnl_attr_put_u32(nlh, NETCOST_A_MAX + 1 + rnd_below(100), (uint32_t)rnd());
		} else {
			nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
			mnl_attr_put_u32(nlh, NETCOST_CFG_A_MAX + 1 + rnd_below(100), 1);
			mnl_attr_nest_end(nlh, nest);
		}
		return nlh->nlmsg_len;
	case K_DUMP_ON_DO: {
		static const uint8_t do_cmds[] = {
			NETCOST_CMD_INFO, NETCOST_CMD_RESET, NETCOST_CMD_CONFIG_GET,
			NETCOST_CMD_CONFIG_SET,
		};

		nlh = nc_mnl_put(buf, family, NLM_F_ACK | NLM_F_DUMP,
			       do_cmds[rnd_below(sizeof(do_cmds))], seq);
		return nlh->nlmsg_len;
	}
	default:
		return 0;
	}
}

/* abandon - start a STATS dump on a fresh socket, read one part, close */
static void abandon(struct tally *t)
{
	struct mnl_socket *s = nc_mnl_open();
	char part[4096];
	struct nlmsghdr *nlh;

	t->sent++;
	if (!s) {
		t->send_err++;
		return;
	}
	nlh = nc_mnl_put(buf, family, NLM_F_DUMP, NETCOST_CMD_STATS, 1);
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0) {
		t->send_err++;
	} else if (rnd_below(4)) {	/* sometimes close before reading at all */
		if (mnl_socket_recvfrom(s, part, sizeof(part)) > 0)
			t->ok++;
		else
			t->errors++;
	} else {
		t->silent++;
	}
	mnl_socket_close(s);
}

static int probe_id(const char *arg)
{
	struct mnl_socket *nl;
	struct tally t = { 0 };
	struct nlmsghdr *nlh;
	char *end;
	long id = strtol(arg, &end, 0);

	if (*end || id <= 0 || id > 0xffff) {
		fprintf(stderr, "nc-nlfuzz: --probe-id wants a family id, not '%s'\n", arg);
		return 2;
	}
	nl = nc_mnl_open();
	if (!nl) {
		perror("nc-nlfuzz: netlink socket");
		return 2;
	}
	family = (uint16_t)id;
	for (uint8_t cmd = NETCOST_CMD_INFO; cmd <= NETCOST_CMD_MAX; cmd++) {
		nlh = nc_mnl_put(buf, family, NLM_F_ACK |
			       (cmd == NETCOST_CMD_STATS ? NLM_F_DUMP : 0), cmd, 10 + cmd);
		if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
			perror("nc-nlfuzz: send");
			return 2;
		}
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = NLMSG_NOOP;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		nlh->nlmsg_seq = 100 + cmd;
		mnl_socket_sendto(nl, nlh, nlh->nlmsg_len);
		if (!answer(nl, 10 + cmd, 100 + cmd, &t))
			return 2;
	}
	printf("nc-nlfuzz: family id %ld from this namespace: %lu answered, %lu refused (last: %s)\n",
	       id, t.ok, t.errors, strerror(t.last_errno));
	mnl_socket_close(nl);
	return t.ok ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "probe-id", required_argument, NULL, 'p' },
		{ "print-id", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long count = 10000, i, failures = 0, total = 0;
	uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	const char *probe = NULL;
	bool print_id = false;
	struct mnl_socket *nl;
	int one = 1, c, k;

	while ((c = getopt_long(argc, argv, "s:n:p:", opts, NULL)) != -1) {
		switch (c) {
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'n': count = strtoul(optarg, NULL, 0); break;
		case 'p': probe = optarg; break;
		case 'P': print_id = true; break;
		default:
			fprintf(stderr, "usage: nc-nlfuzz [-s SEED] [-n COUNT] | --probe-id ID\n");
			return 2;
		}
	}
	buf = malloc(BUFSZ);
	if (!buf)
		return 2;
	if (probe)
		return probe_id(probe);

	rng = seed ? seed : 1;
	if (print_id)
		goto open;
	printf("nc-nlfuzz: seed %llu (replay: nc-nlfuzz -s %llu -n %lu)\n",
	       (unsigned long long)seed, (unsigned long long)seed, count);
	fflush(stdout);

open:
	nl = nc_mnl_open();
	if (!nl) {
		perror("nc-nlfuzz: netlink socket");
		return 2;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	family = nc_mnl_family(nl);
	if (!family) {
		fprintf(stderr, "nc-nlfuzz: family %s not found: %s\n",
			NETCOST_GENL_NAME, strerror(errno));
		return 2;
	}
	if (print_id) {
		printf("%u\n", family);
		return 0;
	}

	for (i = 0; i < count; i++) {
		uint32_t seq = 1000 + 2 * (uint32_t)i;
		struct nlmsghdr *fence;
		struct tally *t;
		size_t len;

		k = (int)rnd_below(K_MAX);
		t = &tally[k];
		if (k == K_DUMP_ABANDONED) {
			abandon(t);
			continue;
		}
		len = build(k, seq);
		t->sent++;
		if (send(mnl_socket_get_fd(nl), buf, len, 0) < 0) {
			/* EMSGSIZE past the socket's send buffer: refused too */
			t->send_err++;
			continue;
		}
		fence = mnl_nlmsg_put_header(buf);
		fence->nlmsg_type = NLMSG_NOOP;
		fence->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
		fence->nlmsg_seq = seq + 1;
		if (mnl_socket_sendto(nl, fence, fence->nlmsg_len) < 0 ||
		    !answer(nl, seq, seq + 1, t)) {
			fprintf(stderr, "nc-nlfuzz: lost the socket at message %lu (kind %s)\n",
				i, kinds[k].name);
			return 1;
		}
	}

	printf("%-22s %7s %7s %7s %7s %7s %7s  %s\n", "kind", "sent", "error",
	       "extack", "ok", "silent", "sendErr", "verdict / an extack text");
	for (k = 0; k < K_MAX; k++) {
		struct tally *t = &tally[k];
		const char *verdict = "ok";

		if (kinds[k].must_fail && t->ok) {
			verdict = "FAIL: malformed message accepted";
			failures += t->ok;
		} else if (!kinds[k].must_fail) {
			verdict = "may succeed";
		}
		total += t->sent;
		printf("%-22s %7lu %7lu %7lu %7lu %7lu %7lu  %s%s%s\n", kinds[k].name,
		       t->sent, t->errors, t->extack, t->ok, t->silent, t->send_err,
		       verdict, t->last_errno ? " / last errno: " : "",
		       t->last_errno ? strerror(t->last_errno) : "");
		if (t->example[0])
			printf("%-22s   extack: \"%s\"\n", "", t->example);
	}
	printf("nc-nlfuzz: seed %llu: %lu messages, %lu failures\n",
	       (unsigned long long)seed, total, failures);
	mnl_socket_close(nl);
	free(buf);
	return failures ? 1 : 0;
}
