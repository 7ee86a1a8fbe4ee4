/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - the progress of a long recording on stderr: a bar that
 * redraws itself on a terminal, else one plain line per sample.
 */
#ifndef NETCOST_PROGRESS_H
#define NETCOST_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

struct nc_progress {
	FILE *f;
	const char *who;		/* "run" */
	bool tty;			/* redraw a bar */
	bool open;			/* a bar waits for its newline */
};

void nc_progress_show(struct nc_progress *p, double t, double duration, double total,
		      const int *cpus, const double *load, int ncpus, const char *state);
void nc_progress_end(struct nc_progress *p);

#endif
