/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmds.h - the netcost subcommands.  main.c holds the table; each
 * subcommand lives in the file of its name.  Each returns the process
 * exit status (see the EXIT STATUS section of netcost(8)).
 */
#ifndef NETCOST_CMDS_H
#define NETCOST_CMDS_H

int cmd_info(int argc, char **argv);	/* info.c */
int cmd_dump(int argc, char **argv);	/* dump.c */
int cmd_reset(int argc, char **argv);	/* reset.c */
int cmd_config(int argc, char **argv);	/* config.c */
int cmd_watch(int argc, char **argv);	/* watch.c */
int cmd_save(int argc, char **argv);	/* snapshot.c */
int cmd_show(int argc, char **argv);	/* snapshot.c */
int cmd_diff(int argc, char **argv);	/* diff.c */
int cmd_plot(int argc, char **argv);	/* plot.c */
int cmd_export(int argc, char **argv);	/* export.c */
int cmd_soak(int argc, char **argv);	/* soak.c */
int cmd_run(int argc, char **argv);	/* run.c */
int cmd_tasks(int argc, char **argv);	/* tasks.c */

/* shared between subcommands */
#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>
void nc_print_config(json_t *cfg, const char *indent);		/* config.c */
void nc_groups_str(json_t *groups, char *buf, size_t len);	/* config.c */
const char *nc_sample_str(json_t *sample, char *buf, size_t len);	/* config.c */

struct soak_calib;
struct soak_result;
int nc_soak_calib_path(const char *who, const char *file, char *buf,
		       size_t len);					/* soak.c */
int nc_soak_calib(const char *who, bool force, double seconds, const char *path,
		  FILE *msgs, struct soak_calib *cal, const char **why);	/* soak.c */
json_t *nc_soak_json(const struct soak_result *res, const struct soak_calib *cal,
		     const char *path, const char *why, double interval,
		     json_t *series);					/* soak.c */

#endif
