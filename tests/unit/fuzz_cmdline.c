// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_cmdline.c - libFuzzer target for netcost's command-line parsers:
 * the input is NUL-separated arguments; its first byte picks the parser
 * (dump/show, watch, -j-only commands, run, run's --gen/--sink words, the
 * number and CPU-list parsers).  A dump/show line that parses is applied
 * to a small model (--cpu, --stage), as the commands do.  Any input must
 * parse or be refused as a usage error, never crash, leak or overrun.
 * Built and run by ./fuzz-run (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "runargs.h"

#define MAX_ARGS	32

/* small_model - two CPUs, three stages, the packet counters */
static void small_model(struct nc_model *m)
{
	unsigned int cpu, i;

	nc_model_init(m);
	m->info.tsc_khz = 2000000;
	m->info.now_ns = 1000000000;
	m->info.now_cycles = 2000000000;
	for (cpu = 0; cpu < 2; cpu++) {
		struct nc_cpu *c = nc_model_cpu(m, cpu);

		for (i = 0; i < 3; i++) {
			struct nc_hist *h = nc_cpu_hist(c, i);

			h->count = 2;
			h->sum = 3000;
			h->min = 1000;
			h->max = 2000;
			h->buckets[netcost_hist_index(1000)]++;
			h->buckets[netcost_hist_index(2000)]++;
		}
		c->counter[NETCOST_CTR_RX_PACKETS] = 2;
		c->has_counter[NETCOST_CTR_RX_PACKETS] = true;
	}
	nc_model_sum_total(m, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nc_model m, out;
	char *copy, *argv[MAX_ARGS + 1], *p, *end;
	struct nc_report_opts ro;
	struct nc_run_opts rn;
	struct nc_argv a = { 0 }, sink = { 0 };
	int argc = 0, i;
	uint32_t u;
	double d;
	bool json, set[64];
	unsigned int mode;

	if (!size || size > 4096)
		return 0;
	nc_err_quiet = true;
	mode = data[0] % 6;
	copy = malloc(size + 1);
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	argv[argc++] = "cmd";
	for (p = copy, end = copy + size - 1; p < end && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	switch (mode) {
	case 0:
	case 1:
		if (!nc_report_getopt(argc, argv, &ro, 0, 2, mode == 1)) {
			small_model(&m);
			if (!nc_report_select(&out, &m, &ro))
				nc_model_free(&out);
			nc_model_free(&m);
		}
		break;
	case 2:
		nc_opt_json(argc, argv, &json, 0, 2);
		break;
	case 3:
		memset(&rn, 0, sizeof(rn));
		rn.duration = 10;
		nc_run_parse(argc, argv, &rn);
		break;
	case 4:
		for (i = 1; i < argc; i++) {
			nc_argv_free(&a);
			if (nc_argv_split(&a, argv[i]))
				continue;
			nc_sink_args_from_gen(&a, &sink);
			free(nc_argv_join(&sink));
			free(nc_argv_join(&a));
			nc_argv_value(&a, 'p', "port");
			nc_argv_has(&a, 'j', "json");
			nc_argv_free(&sink);
		}
		nc_argv_free(&a);
		break;
	default:
		for (i = 1; i < argc; i++) {
			char buf[64];

			nc_parse_u32(argv[i], &u);
			nc_parse_seconds("fuzz", "-d", argv[i], i & 1, &d);
			if (!nc_parse_cpulist(argv[i], set, 64))
				nc_format_cpulist(set, 64, buf, sizeof(buf));
		}
		break;
	}
	free(copy);
	return 0;
}
