// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - "netcost diff A B [-j]": load two snapshots and print where
 * B's cycles per packet differ from A's (lib/diff.c does the arithmetic).
 */
#include <getopt.h>
#include <stdlib.h>

#include "diff.h"
#include "report.h"
#include "snapshot.h"
#include "cmds.h"

/* cmd_diff - "netcost diff A B [-j]" */
int cmd_diff(int argc, char **argv)
{
	struct nc_model *m;
	struct nc_diff *d;
	bool json;
	int ret;

	ret = nc_opt_json(argc, argv, &json, 2, 2);
	if (ret)
		return ret;
	m = nc_xcalloc(2, sizeof(*m));
	d = nc_xcalloc(1, sizeof(*d));
	nc_model_init(&m[0]);
	nc_model_init(&m[1]);
	ret = nc_snapshot_load(&m[0], argv[optind]);
	if (!ret)
		ret = nc_snapshot_load(&m[1], argv[optind + 1]);
	if (!ret)
		ret = nc_diff_compute(d, &m[0], argv[optind], &m[1], argv[optind + 1]);
	if (!ret)
		ret = nc_diff_print(stdout, d, json);
	nc_model_free(&m[0]);
	nc_model_free(&m[1]);
	free(d);
	free(m);
	return ret;
}
