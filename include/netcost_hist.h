/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * netcost_hist.h - the log-linear bucket math, shared by the module and
 * the tools so that both sides agree on where every bucket starts.
 *
 * Values 0 .. 2^SUB-1 get one bucket each.  From there on, every power of
 * two [2^m, 2^(m+1)) is split into 2^SUB equal buckets, so a bucket is at
 * most 1/2^SUB (12.5% for SUB = 3) of its lower bound wide.  Values of
 * 2^MAX_BITS and above land in the overflow bucket, NETCOST_HIST_BUCKETS-1.
 *
 * Needs u64/u32 (kernel) or uint64_t typedefs (userspace: define
 * NETCOST_HIST_USERSPACE before including).
 */
#ifndef _NETCOST_HIST_H
#define _NETCOST_HIST_H

#include "uapi/netcost.h"

#ifdef NETCOST_HIST_USERSPACE
#include <stdint.h>
typedef uint64_t nc_u64;
typedef uint32_t nc_u32;
static inline int nc_fls64(nc_u64 v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}
#else
typedef u64 nc_u64;
typedef u32 nc_u32;
#define nc_fls64 fls64
#endif

#define NETCOST_HIST_SUB	(1u << NETCOST_HIST_SUB_BITS)
#define NETCOST_HIST_OVERFLOW	(NETCOST_HIST_BUCKETS - 1)

/*
 * netcost_hist_index - the bucket a value falls into, with no branch and
 * no division (it runs in every probe that records): v | SUB makes the
 * top bit at least SUB_BITS, which puts 0 .. SUB-1 in group 0 once the
 * (v < SUB) term takes one group off; the overflow bucket is a min().
 */
static inline nc_u32 netcost_hist_index(nc_u64 v)
{
	int msb = nc_fls64(v | NETCOST_HIST_SUB) - 1;
	nc_u32 g = (nc_u32)(msb - NETCOST_HIST_SUB_BITS + 1) - (v < NETCOST_HIST_SUB);
	nc_u32 i = (g << NETCOST_HIST_SUB_BITS) +
		   (nc_u32)((v >> (msb - NETCOST_HIST_SUB_BITS)) & (NETCOST_HIST_SUB - 1));

	return i < NETCOST_HIST_OVERFLOW ? i : NETCOST_HIST_OVERFLOW;
}

/* netcost_hist_lo - the lowest value of bucket @i, inclusive */
static inline nc_u64 netcost_hist_lo(nc_u32 i)
{
	nc_u32 g = i >> NETCOST_HIST_SUB_BITS;
	nc_u32 sub = i & (NETCOST_HIST_SUB - 1);

	if (i >= NETCOST_HIST_OVERFLOW)
		return (nc_u64)1 << NETCOST_HIST_MAX_BITS;
	if (g == 0)
		return i;
	return (nc_u64)(NETCOST_HIST_SUB + sub) << (g - 1);
}

/* netcost_hist_hi - the highest value of bucket @i, inclusive */
static inline nc_u64 netcost_hist_hi(nc_u32 i)
{
	if (i >= NETCOST_HIST_OVERFLOW)
		return ~(nc_u64)0;
	if (i < NETCOST_HIST_SUB)
		return i;
	return netcost_hist_lo(i) + ((nc_u64)1 << ((i >> NETCOST_HIST_SUB_BITS) - 1)) - 1;
}

#endif /* _NETCOST_HIST_H */
