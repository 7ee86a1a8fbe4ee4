/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic.h - nc_write_atomic(): the one way netcost and netcost-gen write
 * an output file (save, export, plot, run -o, soak's calibration, the
 * generator's ready file).  libc only, so that netcost-gen can link it.
 */
#ifndef NETCOST_ATOMIC_H
#define NETCOST_ATOMIC_H

#include <stddef.h>
#include <stdio.h>

/* what nc_write_atomic() calls to fill the file: 0, or non-zero to give up */
typedef int (*nc_write_fn)(FILE *f, void *arg);

/*
 * nc_write_atomic - write @target through @fn, all or nothing:
 *  - "-" is standard output (flushed and checked);
 *  - an existing @target that is not a regular file (a symlink, a
 *    directory, a device, a FIFO) is refused and left alone;
 *  - otherwise @fn writes an O_EXCL temporary file in @target's folder,
 *    which is flushed, fsync()ed and renamed over @target; on any failure
 *    it is removed and @target keeps its old contents.
 * Returns 0, or -1 with a message that names @target (never the
 * temporary file) in @err.
 */
int nc_write_atomic(const char *target, nc_write_fn fn, void *arg,
		    char *err, size_t errlen);

/*
 * nc_write_check - what nc_write_atomic() would refuse @target for (a
 * symlink, a directory, a device other than /dev/null), checked before a
 * command does its work.  Returns 0, or -1 with the message in @err.
 */
int nc_write_check(const char *target, char *err, size_t errlen);

/* nc_write_atomic_text - the same for a string */
int nc_write_atomic_text(const char *target, const char *text,
			 char *err, size_t errlen);

#endif
