/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runargs.h - the argument strings of "netcost run": --gen 'ARGS',
 * --sink 'ARGS' and --sink-prefix 'CMD' split into words, and the sink's
 * default arguments read off the generator's.
 */
#ifndef NETCOST_RUNARGS_H
#define NETCOST_RUNARGS_H

#include <stdbool.h>

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

#endif
