/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - the one option parser of "netcost-gen send" and "sink": one
 * table of options (each marked for the modes that take it, with its help
 * line) over one config struct.  Each mode checks what only it needs
 * afterwards (send: -H is required, sizes fit; sink: ports fit).
 */
#ifndef NETCOST_GEN_OPTS_H
#define NETCOST_GEN_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

#define GEN_MAX_BATCH		1024	/* UIO_MAXIOV */
#define GEN_GSO_MAX_SEGS	64	/* UDP_MAX_SEGMENTS of older kernels */
#define GEN_GSO_MAX_BYTES	65000	/* payload bytes of one super-packet */

enum gen_mode {
	GEN_SEND = 1 << 0,
	GEN_SINK = 1 << 1,
};

struct gen_cfg {
	enum gen_mode mode;
	const char *host;		/* send: destination; sink: bind address, NULL any */
	uint16_t port;			/* sink: 0 is any free port */
	int family;			/* AF_UNSPEC: from the address */
	double seconds;			/* send: run time; sink: 0 until FIN */
	bool seconds_set;
	unsigned int batch;
	unsigned int flows;
	bool dport_per_flow;
	int cpu;			/* -1: no pinning */
	int sockbuf;			/* 0: system default */
	struct gen_sched sched;
	const char *sched_arg;
	bool json;
	bool quiet;
	bool check;			/* --check: parse, resolve, exit */
	/* send */
	size_t size;			/* payload bytes */
	uint64_t count;			/* 0: no limit */
	uint64_t rate;			/* pps over all flows; 0: max */
	unsigned int flow_base;		/* id of the first flow */
	unsigned int threads;
	double report_wait;		/* s */
	uint64_t spin_ns;		/* busy-wait the last ns */
	bool gso;
	unsigned int segs;		/* datagrams per message (--gso) */
	/* sink */
	unsigned int expect_flows;	/* FINs to wait for; 0: the sender's */
	double idle_timeout;		/* 0: never */
	uint64_t work_ns, work_cycles;
	const char *ready_file;
};

/* gen_cfg_usage - the options of @mode, from the table */
void gen_cfg_usage(FILE *f, enum gen_mode mode);

/*
 * gen_cfg_parse - @cfg gets @mode's defaults, then the command line; a
 * usage error exits with status 2, -h prints the usage and exits 0
 */
void gen_cfg_parse(struct gen_cfg *cfg, enum gen_mode mode, int argc, char **argv);

#endif
