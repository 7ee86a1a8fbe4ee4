// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the option table and parser "netcost-gen send" and "sink"
 * share (opts.h).
 */
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "flow.h"
#include "opts.h"
#include "proto.h"

enum {
	OPT_FLOWS = 256, OPT_DPORT, OPT_SCHED, OPT_REPORT_WAIT, OPT_SPIN, OPT_GSO,
	OPT_FLOW_BASE, OPT_IDLE, OPT_WORK, OPT_READY, OPT_EXPECT, OPT_CHECK,
};

struct gen_opt {
	const char *lname;		/* long name, or NULL */
	int val;			/* the short letter, or OPT_* */
	int has_arg;
	unsigned int modes;		/* GEN_SEND | GEN_SINK */
	const char *usage;		/* "-p PORT" */
	const char *help_send;		/* the help line in send -h */
	const char *help_sink;		/* in sink -h; NULL: help_send */
	const char *usage_sink;		/* in sink -h; NULL: usage */
};

#define B	(GEN_SEND | GEN_SINK)

static const struct gen_opt gen_opts[] = {
	{ NULL, 'H', required_argument, B, "-H HOST",
	  "destination address (IPv4 or IPv6)", "bind address (default: any)", "-H ADDR" },
	{ NULL, 'p', required_argument, B, "-p PORT",
	  "destination port (default 9000)", "listen port (default 9000; 0: a free one)", NULL },
	{ NULL, 'm', required_argument, GEN_SEND, "-m SIZE",
	  "UDP payload bytes, >= 7 (default 18)", NULL, NULL },
	{ NULL, '4', no_argument, B, "-4 | -6",
	  "address family (default: from HOST)", "address family (default: from ADDR, else IPv4)", NULL },
	{ NULL, '6', no_argument, B, NULL, NULL, NULL, NULL },
	{ NULL, 'l', required_argument, B, "-l SECONDS",
	  "run time (default 10; none with only -n)",
	  "stop after this long (default: when the sender is done)", NULL },
	{ NULL, 'n', required_argument, GEN_SEND, "-n COUNT",
	  "stop after COUNT messages over all flows", NULL, NULL },
	{ NULL, 'r', required_argument, GEN_SEND, "-r PPS",
	  "total rate, divided over flows (0: max, default)", NULL, NULL },
	{ "idle-timeout", OPT_IDLE, required_argument, GEN_SINK, "--idle-timeout S",
	  NULL, "stop S seconds after the last packet", NULL },
	{ NULL, 'b', required_argument, B, "-b BATCH",
	  "sendmmsg batch size (default 32)", "recvmmsg batch size (default 32)", NULL },
	{ "gso", OPT_GSO, no_argument, GEN_SEND, "--gso",
	  "each message a UDP GSO super-packet of up to 64 datagrams", NULL, NULL },
	{ NULL, 'T', required_argument, GEN_SEND, "-T THREADS",
	  "sending threads, flows spread over them (default 1)", NULL, NULL },
	{ "flows", OPT_FLOWS, required_argument, B, "--flows N",
	  "N sockets / source ports (default 1)",
	  "with --dport-per-flow: listen on PORT..PORT+N-1", NULL },
	{ "flow-base", OPT_FLOW_BASE, required_argument, GEN_SEND, "--flow-base ID",
	  "first flow id (default 0), for several senders to one sink", NULL, NULL },
	{ "dport-per-flow", OPT_DPORT, no_argument, B, "--dport-per-flow",
	  "flow i goes to PORT + i", "one socket per flow port", NULL },
	{ "expect-flows", OPT_EXPECT, required_argument, GEN_SINK, "--expect-flows N",
	  NULL, "stop after FINs of N flows (several senders; default: the sender's count)", NULL },
	{ "work", OPT_WORK, required_argument, GEN_SINK, "--work AMOUNT",
	  NULL, "busy work per packet: N[ns|us|ms] or Ncyc", NULL },
	{ "ready-file", OPT_READY, required_argument, GEN_SINK, "--ready-file PATH",
	  NULL, "write the port to PATH once bound", NULL },
	{ NULL, 'C', required_argument, B, "-C CPU",
	  "pin thread i to CPU + i", "pin to CPU", NULL },
	{ NULL, 'S', required_argument, B, "-S BYTES", "SO_SNDBUF", "SO_RCVBUF", NULL },
	{ "sched", OPT_SCHED, required_argument, B, "--sched POLICY",
	  "fifo:PRIO, rr:PRIO, other, batch or idle",
	  "fifo:PRIO, rr:PRIO, other, batch or idle\n"
	  "                    (top's PR -66, the report's monitor, is fifo:65)", NULL },
	{ "spin", OPT_SPIN, required_argument, GEN_SEND, "--spin USEC",
	  "paced: sleep to USEC before each deadline, then spin", NULL, NULL },
	{ "report-wait", OPT_REPORT_WAIT, required_argument, GEN_SEND, "--report-wait S",
	  "wait this long for the sink's report (default 2, 0: none)", NULL, NULL },
	{ NULL, 'j', no_argument, B, "-j", "JSON result on stdout, progress on stderr", NULL, NULL },
	{ NULL, 'q', no_argument, B, "-q", "no progress lines", NULL, NULL },
	{ "check", OPT_CHECK, no_argument, B, "--check",
	  "check the options and the address, then exit (netcost run does first)", NULL, NULL },
	{ "help", 'h', no_argument, B, NULL, NULL, NULL, NULL },
};

#undef B

static const char *gen_mode_name(enum gen_mode mode)
{
	return mode == GEN_SEND ? "send" : "sink";
}

void gen_cfg_usage(FILE *f, enum gen_mode mode)
{
	unsigned int i;

	fprintf(f, "usage: netcost-gen %s%s [options]\n", gen_mode_name(mode),
		mode == GEN_SEND ? " -H HOST" : "");
	for (i = 0; i < sizeof(gen_opts) / sizeof(gen_opts[0]); i++) {
		const struct gen_opt *o = &gen_opts[i];
		const char *help = mode == GEN_SINK && o->help_sink ? o->help_sink : o->help_send;

		if (!(o->modes & mode) || !o->usage || !help)
			continue;
		fprintf(f, "  %-17s %s\n", mode == GEN_SINK && o->usage_sink ? o->usage_sink :
			o->usage, help);
	}
}

/* gen_cfg_defaults - what a mode does with no options */
static void gen_cfg_defaults(struct gen_cfg *cfg, enum gen_mode mode)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = mode;
	cfg->port = 9000;
	cfg->family = AF_UNSPEC;
	cfg->batch = 32;
	cfg->flows = 1;
	cfg->cpu = -1;
	cfg->sched.policy = -1;
	cfg->size = 18;
	cfg->threads = 1;
	cfg->report_wait = 2;
	cfg->segs = 1;
	cfg->seconds = mode == GEN_SEND ? 10 : 0;
}

void gen_cfg_parse(struct gen_cfg *cfg, enum gen_mode mode, int argc, char **argv)
{
	const char *m = gen_mode_name(mode);
	struct option lopts[sizeof(gen_opts) / sizeof(gen_opts[0]) + 1];
	char sopts[64] = "";
	unsigned int i, nl = 0;
	size_t ns = 0;
	int c;

	gen_cfg_defaults(cfg, mode);
	/* getopt's tables from ours: only this mode's options */
	for (i = 0; i < sizeof(gen_opts) / sizeof(gen_opts[0]); i++) {
		const struct gen_opt *o = &gen_opts[i];

		if (!(o->modes & mode))
			continue;
		if (o->lname)
			lopts[nl++] = (struct option){ o->lname, o->has_arg, NULL, o->val };
		if (o->val < 256) {
			sopts[ns++] = (char)o->val;
			if (o->has_arg == required_argument)
				sopts[ns++] = ':';
		}
	}
	lopts[nl] = (struct option){ NULL, 0, NULL, 0 };
	sopts[ns] = '\0';
	opterr = 0;		/* our message, not getopt's */

	while ((c = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		switch (c) {
		case '4':
		case '6':
			if (cfg->family != AF_UNSPEC)
				gen_usage_error(m, "pass one of -4 or -6");
			cfg->family = c == '4' ? AF_INET : AF_INET6;
			break;
		case 'b':
			cfg->batch = gen_parse_u64(m, "-b", optarg, 1, GEN_MAX_BATCH);
			break;
		case 'C':
			cfg->cpu = gen_parse_u64(m, "-C", optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'H':
			cfg->host = optarg;
			/* "[::1]", as in a URL: the address inside */
			if (optarg[0] == '[' && strlen(optarg) > 2 &&
			    optarg[strlen(optarg) - 1] == ']') {
				optarg[strlen(optarg) - 1] = '\0';
				cfg->host = optarg + 1;
			}
			break;
		case 'h':
			gen_cfg_usage(stdout, mode);
			exit(0);
		case 'j':
			cfg->json = true;
			break;
		case 'l':
			cfg->seconds = gen_parse_seconds(m, "-l", optarg);
			cfg->seconds_set = true;
			break;
		case 'm':
			cfg->size = gen_parse_u64(m, "-m", optarg, GEN_HDR_COMPACT, 65527);
			break;
		case 'n':
			cfg->count = gen_parse_u64(m, "-n", optarg, 1, UINT64_MAX >> 1);
			break;
		case 'p':
			cfg->port = gen_parse_u64(m, "-p", optarg, mode == GEN_SEND ? 1 : 0, 65535);
			break;
		case 'q':
			cfg->quiet = true;
			break;
		case 'r':
			cfg->rate = gen_parse_u64(m, "-r", optarg, 0, 1000000000);
			break;
		case 'S':
			cfg->sockbuf = gen_parse_u64(m, "-S", optarg, 1024, INT32_MAX / 2);
			break;
		case 'T':
			cfg->threads = gen_parse_u64(m, "-T", optarg, 1, 1024);
			break;
		case OPT_FLOWS:
			cfg->flows = gen_parse_u64(m, "--flows", optarg, 1, GEN_MAX_FLOWS);
			break;
		case OPT_DPORT:
			cfg->dport_per_flow = true;
			break;
		case OPT_SCHED:
			gen_parse_sched(m, optarg, &cfg->sched);
			cfg->sched_arg = optarg;
			break;
		case OPT_FLOW_BASE:
			cfg->flow_base = gen_parse_u64(m, "--flow-base", optarg, 0, GEN_MAX_FLOWS - 1);
			break;
		case OPT_GSO:
			cfg->gso = true;
			break;
		case OPT_SPIN:
			cfg->spin_ns = gen_parse_u64(m, "--spin", optarg, 0, 1000000) * 1000;
			break;
		case OPT_REPORT_WAIT:
			cfg->report_wait = strcmp(optarg, "0") ?
					   gen_parse_seconds(m, "--report-wait", optarg) : 0;
			break;
		case OPT_IDLE:
			cfg->idle_timeout = gen_parse_seconds(m, "--idle-timeout", optarg);
			break;
		case OPT_WORK:
			gen_parse_work(m, optarg, &cfg->work_ns, &cfg->work_cycles);
			break;
		case OPT_EXPECT:
			cfg->expect_flows = gen_parse_u64(m, "--expect-flows", optarg, 1,
							  GEN_MAX_FLOWS);
			break;
		case OPT_READY:
			cfg->ready_file = optarg;
			break;
		case OPT_CHECK:
			cfg->check = true;
			break;
		default:
			gen_usage_error(m, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		gen_usage_error(m, "unexpected argument '%s'", argv[optind]);
}
