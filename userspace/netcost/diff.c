// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - "netcost diff A B [-j]": load two snapshots and print where
 * B's cycles per packet differ from A's (lib/diff.c does the arithmetic).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "metrics.h"
#include "report.h"
#include "snapshot.h"
#include "cmds.h"

/*
 * cmd_diff - "netcost diff A B [-j] [--basis rx|tx]": A and B must be per
 * the same packets (rx or tx); --basis divides both by one kind.
 */
int cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",	no_argument,		NULL, 'j' },
		{ "basis",	required_argument,	NULL, 'b' },
		{ NULL, 0, NULL, 0 }
	};
	enum nc_basis basis = NC_BASIS_MIXED;	/* each side's own */
	struct nc_model *m;
	struct nc_diff *d;
	bool json = false;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "j", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'b':
			if (!strcmp(optarg, "rx"))
				basis = NC_BASIS_RX;
			else if (!strcmp(optarg, "tx"))
				basis = NC_BASIS_TX;
			else
				return nc_usage_err("diff: --basis takes rx or tx, not '%s'", optarg);
			break;
		default:
			return nc_usage_err("diff: unknown option or missing argument '%s'",
					    argv[optind - 1]);
		}
	}
	if (argc - optind < 2)
		return nc_usage_err("diff: wants two snapshots, A and B");
	if (argc - optind > 2)
		return nc_usage_err("diff: unexpected argument '%s'", argv[optind + 2]);
	m = nc_xcalloc(2, sizeof(*m));
	d = nc_xcalloc(1, sizeof(*d));
	nc_model_init(&m[0]);
	nc_model_init(&m[1]);
	nc_model_force_basis(&m[0], basis);
	nc_model_force_basis(&m[1], basis);
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
