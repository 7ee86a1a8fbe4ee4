/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runargs.h - the argument strings of "netcost run": --gen 'ARGS',
 * --sink 'ARGS' and --sink-prefix 'CMD' split into words, and the sink's
 * default arguments read off the generator's.
 */
#ifndef NETCOST_RUNARGS_H
#define NETCOST_RUNARGS_H

#include <stdbool.h>
#include <stdio.h>

/* A growable NULL-terminated argument vector */
struct nc_argv {
	int argc;
	char **argv;		/* [argc + 1], argv[argc] == NULL */
};

void nc_argv_push(struct nc_argv *a, const char *arg);
void nc_argv_append(struct nc_argv *a, const struct nc_argv *b);
void nc_argv_free(struct nc_argv *a);
int nc_argv_split(struct nc_argv *a, const char *s);
char *nc_argv_join(const struct nc_argv *a);
const char *nc_argv_value(const struct nc_argv *a, char sopt, const char *lopt);
bool nc_argv_has(const struct nc_argv *a, char sopt, const char *lopt);
void nc_sink_args_from_gen(const struct nc_argv *gen, struct nc_argv *sink);

/* "netcost run"'s options */
struct nc_run_opts {
	const char *gen;		/* --gen ARGS */
	const char *sink;		/* --sink ARGS: extra */
	const char *sink_prefix;	/* --sink-prefix CMD */
	const char *out;		/* -o FILE */
	const char *note;
	const char *calib_file;
	bool external;
	bool json;
	bool calibrate;
	double duration;
	double calib_seconds;
};

#define NC_RUN_HELP	(-1)	/* nc_run_parse(): -h was given */

int nc_run_parse(int argc, char **argv, struct nc_run_opts *o);
void nc_run_usage(FILE *f);
int nc_run_children_argv(const struct nc_run_opts *o, const char *gen_path, const char *ready,
			 struct nc_argv *gen, struct nc_argv *sink,
			 struct nc_argv *snk, struct nc_argv *snd);

#endif
