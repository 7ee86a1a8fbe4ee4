// SPDX-License-Identifier: GPL-2.0
/*
 * reset.c - "netcost reset": clear every statistic in the module, which
 * starts a new interval (and a new generation) for "dump" and "save".
 */
#include "report.h"
#include "stats.h"
#include "cmds.h"

/* cmd_reset - "netcost reset" */
int cmd_reset(int argc, char **argv)
{
	struct nc_nl nl;
	int ret;

	if (argc > 1)
		return nc_usage_err("reset: unexpected argument '%s'", argv[1]);
	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	ret = nc_nl_talk(&nl, nc_nl_request(&nl, NETCOST_CMD_RESET, 0), NULL, NULL);
	nc_nl_close(&nl);
	return ret;
}
