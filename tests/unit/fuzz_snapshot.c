// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_snapshot.c - libFuzzer target for the snapshot loader behind
 * "netcost show/diff/plot": any bytes must load or be refused with
 * NC_EXIT_SNAPSHOT, never crash, leak or read out of bounds; what loads
 * must also print (text and JSON) and total without trouble.
 * Built and run by ./fuzz-run (clang -fsanitize=fuzzer,address).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nc_model m;
	struct nc_report_opts o = { .per_cpu = true, .all = true };
	FILE *null;
	int ret;

	nc_err_quiet = true;
	nc_model_init(&m);
	ret = nc_snapshot_load_buffer(&m, (const char *)data, size, "fuzz");
	if (ret != 0 && ret != NC_EXIT_SNAPSHOT)
		abort();
	if (!ret) {
		null = fopen("/dev/null", "w");
		if (nc_report_print(null, &m, &o) && m.info.tsc_khz)
			abort();
		/* the JSON printer on small inputs: it costs most of a big one */
		if (size < 8192) {
			o.json = true;
			nc_report_print(null, &m, &o);
		}
		fclose(null);
	}
	nc_model_free(&m);
	return 0;
}
