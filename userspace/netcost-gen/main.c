// SPDX-License-Identifier: GPL-2.0
/*
 * netcost-gen - a UDP load generator and sink for netcost.
 *
 * "netcost-gen send" stands in for the many small senders of the
 * original report (19 nodes x 2000 pps of ~10-byte payloads) or for
 * netperf UDP_STREAM; "netcost-gen sink" stands in for the "monitor"
 * process and reports what each received packet cost it in CPU time.
 * It links with libc only, so that it can be copied to a sender box.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uapi/netcost.h"
#include "gen.h"
#include "opts.h"
#include "proto.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: netcost-gen send -H HOST [options]   send UDP to HOST\n"
		"       netcost-gen sink [options]           receive and count\n"
		"       netcost-gen MODE -h                  options of MODE\n"
		"       netcost-gen help [MODE]              this, or MODE's options\n"
		"       netcost-gen --version\n"
		"netcost-gen(1) has the rest.\n");
}

int main(int argc, char **argv)
{
	program_invocation_name = "netcost-gen";	/* error()'s prefix */
	atexit(gen_close_stdout);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "send"))
		return gen_send(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sink"))
		return gen_sink(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		/* "netcost-gen help MODE" is "netcost-gen MODE -h" */
		if (argc > 2 && (!strcmp(argv[2], "send") || !strcmp(argv[2], "sink"))) {
			gen_cfg_usage(stdout, !strcmp(argv[2], "send") ? GEN_SEND : GEN_SINK);
			return 0;
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("netcost-gen %s (wire format \"NCG1\")\n", NETCOST_VERSION);
		return 0;	/* gen_close_stdout() checks the write */
	}
	fprintf(stderr, "netcost-gen: unknown mode '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
