/* SPDX-License-Identifier: GPL-2.0 */
/*
 * result.h - keeping a measurement: "netcost run" saves its snapshot
 * here, and when the target cannot be written keeps the data in a rescue
 * file rather than losing a run that took minutes to record.
 */
#ifndef NETCOST_RESULT_H
#define NETCOST_RESULT_H

#include <stddef.h>

#include "model.h"

int nc_result_save(const struct nc_model *m, const char *target, char *kept,
		   size_t len);

#endif
