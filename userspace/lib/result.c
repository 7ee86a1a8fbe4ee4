// SPDX-License-Identifier: GPL-2.0
/*
 * result.c - save the snapshot of a measurement, or keep it somewhere.
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result.h"
#include "snapshot.h"

/*
 * nc_result_save - write @m to @target.  When that fails, write it to a
 * rescue file next to @target ("TARGET.rescued-PID.json"), or else in
 * $TMPDIR (or /tmp), and put that path in @kept.  Returns 0 (@kept is
 * @target), or NC_EXIT_ERROR after printing why; @kept is "" when the data
 * could be kept nowhere.
 */
int nc_result_save(const struct nc_model *m, const char *target, char *kept,
		   size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char *copy;
	int ret;

	snprintf(kept, len, "%s", target);
	ret = nc_snapshot_save(m, target);
	if (!ret)
		return NC_EXIT_OK;
	if (strcmp(target, "-")) {
		snprintf(kept, len, "%s.rescued-%d.json", target, (int)getpid());
		if (!nc_snapshot_save(m, kept)) {
			nc_warn("the measurement is kept in %s", kept);
			return ret;
		}
	}
	copy = nc_xstrdup(target);
	snprintf(kept, len, "%s/%s.rescued-%d.json", tmp && *tmp ? tmp : "/tmp",
		 strcmp(target, "-") ? basename(copy) : "netcost", (int)getpid());
	free(copy);
	if (!nc_snapshot_save(m, kept)) {
		nc_warn("the measurement is kept in %s", kept);
		return ret;
	}
	nc_err("the measurement could not be saved anywhere");
	*kept = '\0';
	return ret;
}
