// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - "netcost save FILE [--note TEXT] [--load JSON]" writes the
 * module's statistics with a meta object (kernel, command line, CPU model,
 * interval, ...) to a JSON snapshot; "netcost show FILE [dump options]"
 * loads one into the model and prints it exactly as "dump" would.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* cmd_save - "netcost save FILE [--note TEXT] [--load JSON]" */
int cmd_save(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "note",	required_argument,	NULL, 'n' },
		{ "load",	required_argument,	NULL, 'l' },
		{ NULL, 0, NULL, 0 }
	};
	const char *note = NULL, *load = NULL;
	struct nc_model *m;
	json_t *jload = NULL;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			note = optarg;
			if (nc_has_control(note))
				return nc_usage_err("save: --note holds a control character; write it on one line, without escapes");
			break;
		case 'l':
			load = optarg;
			break;
		default:
			return nc_usage_err("save: unknown option or missing argument '%s'",
					    argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		return nc_usage_err(argc - optind ? "save: one FILE only" : "save: missing FILE");
	if (load) {
		jload = json_loads(load, 0, NULL);
		if (!json_is_object(jload)) {
			json_decref(jload);
			return nc_usage_err("save: --load wants a JSON object, e.g. '{\"pps\": 38000}'");
		}
	}

	m = nc_xcalloc(1, sizeof(*m));
	nc_model_init(m);
	ret = nc_fetch_once(m);
	if (ret)
		goto out_free_model;
	nc_meta_collect(&m->meta, &m->info, note);
	m->meta.load = jload;
	jload = NULL;
	m->has_meta = true;
	ret = nc_snapshot_save(m, argv[optind]);
out_free_model:
	json_decref(jload);
	nc_model_free(m);
	free(m);
	return ret;
}

/* cmd_show - "netcost show FILE [-j] [dump options]" */
int cmd_show(int argc, char **argv)
{
	struct nc_report_opts o;
	struct nc_model *m;
	int ret;

	ret = nc_report_getopt(argc, argv, &o, 1, 1, false);
	if (ret)
		return ret;
	m = nc_xcalloc(1, sizeof(*m));
	nc_model_init(m);
	ret = nc_snapshot_load(m, argv[optind]);
	if (!ret)
		ret = nc_report_print(stdout, m, &o);
	nc_model_free(m);
	free(m);
	return ret;
}
