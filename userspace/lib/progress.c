// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the progress of "netcost run": see progress.h.
 */
#include <math.h>
#include <string.h>

#include "progress.h"

#define NC_PROGRESS_BAR	30		/* bar width */

/*
 * nc_progress_show - @t of @duration s done, the soak's @total load and
 * each of the @ncpus CPUs' @load (%), and @state (NULL: none)
 */
void nc_progress_show(struct nc_progress *p, double t, double duration, double total,
		      const int *cpus, const double *load, int ncpus, const char *state)
{
	char bar[NC_PROGRESS_BAR + 1];
	int fill;

	if (p->tty) {
		fill = (int)(fmin(fmax(t / duration, 0), 1) * NC_PROGRESS_BAR);
		memset(bar, '#', fill);
		memset(bar + fill, '-', NC_PROGRESS_BAR - fill);
		bar[NC_PROGRESS_BAR] = '\0';
		fprintf(p->f, "\r\033[K%s [%s] %5.1f/%g s  load %5.1f%%", p->who, bar, t,
			duration, total);
	} else {
		fprintf(p->f, "%s: %6.1f/%g s  load %5.1f%% ", p->who, t, duration, total);
	}
	for (int i = 0; i < ncpus; i++)
		fprintf(p->f, " cpu%d %5.1f%%", cpus[i], load[i]);
	if (state)
		fprintf(p->f, "  %s", state);
	if (!p->tty)
		fputc('\n', p->f);
	p->open = p->tty;
	fflush(p->f);
}

/* nc_progress_end - end the bar's line */
void nc_progress_end(struct nc_progress *p)
{
	if (p->open)
		fputc('\n', p->f);
	p->open = false;
}
