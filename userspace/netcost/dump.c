// SPDX-License-Identifier: GPL-2.0
/*
 * dump.c - "netcost dump [-j] [--per-cpu] [--cpu LIST] [--stage LIST]
 * [--ns] [--all]": the cost of each stage per packet since the last reset,
 * and each NAPI instance's polls, read from the module into the model and
 * printed by report.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "stats.h"
#include "cmds.h"

/* cmd_dump - "netcost dump" */
int cmd_dump(int argc, char **argv)
{
	struct nc_report_opts o;
	struct nc_model *m;
	int ret;

	ret = nc_report_getopt(argc, argv, &o, 0, 0, false);
	if (ret)
		return ret;
	m = nc_xcalloc(1, sizeof(*m));
	nc_model_init(m);
	ret = nc_fetch_once(m);
	if (!ret)
		ret = nc_report_print(stdout, m, &o);
	nc_model_free(m);
	free(m);
	return ret;
}
