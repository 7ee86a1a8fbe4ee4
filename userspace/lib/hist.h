/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - statistics from log-linear bucket histograms: mean, percentiles
 * and the distance between two histograms ("netcost dump", "diff").
 *
 * Error bound: a percentile is placed inside the bucket that holds the
 * sample of that rank, and a bucket is at most 1/2^NETCOST_HIST_SUB_BITS
 * of its lower bound wide.  So a percentile is within 12.5% (relative) of
 * the true value, and exact below 2^(SUB_BITS + 1) = 16, where each bucket
 * holds one value.
 */
#ifndef NETCOST_HIST_STATS_H
#define NETCOST_HIST_STATS_H

#include "model.h"

/* Relative error bound of nc_hist_percentile(), as a fraction */
#define NC_HIST_REL_ERROR	(1.0 / NETCOST_HIST_SUB)

double nc_hist_mean(const struct nc_hist *h);
double nc_hist_percentile(const struct nc_hist *h, double p);
double nc_hist_ks(const struct nc_hist *a, const struct nc_hist *b);
double nc_hist_emd(const struct nc_hist *a, const struct nc_hist *b);
uint64_t nc_hist_bucket_total(const struct nc_hist *h);

#endif
