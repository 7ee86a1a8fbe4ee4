// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - percentiles, mean and distances computed from the module's
 * log-linear histograms, for "netcost dump/show/watch" and "netcost diff".
 * The bucket bounds come from include/netcost_hist.h, the module's math.
 */
#include <math.h>

#include "hist.h"

/* nc_hist_bucket_total - events in the buckets (may trail count by a race) */
uint64_t nc_hist_bucket_total(const struct nc_hist *h)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < NETCOST_HIST_BUCKETS; i++)
		n += h->buckets[i];
	return n;
}

/* nc_hist_mean - the exact mean, from the sum; 0 for an empty histogram */
double nc_hist_mean(const struct nc_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

/*
 * nc_hist_percentile - the @p-th percentile (0 < @p <= 100): the value of
 * the sample of rank ceil(p/100 * n), nearest-rank definition.  Within its
 * bucket the samples are taken as evenly spread, the j-th of c at
 * lo + (j - 1/2)/c * (hi - lo), with the bucket clamped to the observed
 * min and max (which also bounds the overflow bucket); the first and last
 * ranks are the min and max themselves.  The result stays in the sample's
 * bucket: see NC_HIST_REL_ERROR.  0 when empty.
 */
double nc_hist_percentile(const struct nc_hist *h, double p)
{
	uint64_t n = nc_hist_bucket_total(h), seen = 0, rank;
	unsigned int i;

	if (!n)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	/* the extremes are known exactly */
	if (h->count && h->max >= h->min) {
		if (rank == n)
			return (double)h->max;
		if (rank == 1)
			return (double)h->min;
	}
	for (i = 0; i < NETCOST_HIST_BUCKETS; i++) {
		double lo, hi, j;

		if (seen + h->buckets[i] < rank) {
			seen += h->buckets[i];
			continue;
		}
		lo = (double)netcost_hist_lo(i);
		hi = (double)netcost_hist_hi(i);
		if (h->max >= h->min && h->count) {
			if (lo < (double)h->min)
				lo = (double)h->min;
			if (hi > (double)h->max)
				hi = (double)h->max;
			if (hi < lo)	/* min/max from another copy: trust the bucket */
				hi = lo;
		}
		j = (double)(rank - seen);
		return lo + (j - 0.5) / (double)h->buckets[i] * (hi - lo);
	}
	return 0;	/* not reached: rank <= n */
}

/*
 * nc_hist_cdf_step - the fraction of @h's events in buckets 0..@i, given
 * the running count @acc of the buckets before @i.
 */
static double nc_hist_cdf_step(const struct nc_hist *h, uint64_t n,
			       unsigned int i, uint64_t *acc)
{
	*acc += h->buckets[i];
	return n ? (double)*acc / (double)n : 0;
}

/*
 * nc_hist_ks - Kolmogorov-Smirnov distance between two histograms of the
 * same stage: the largest gap between their CDFs at a bucket edge, from 0
 * (same shape) to 1 (no overlap).  Both share the bucket layout, so the
 * edges are exact.  0 when either histogram is empty.
 */
double nc_hist_ks(const struct nc_hist *a, const struct nc_hist *b)
{
	uint64_t na = nc_hist_bucket_total(a), nb = nc_hist_bucket_total(b);
	uint64_t acc_a = 0, acc_b = 0;
	double d = 0;
	unsigned int i;

	if (!na || !nb)
		return 0;
	for (i = 0; i < NETCOST_HIST_BUCKETS; i++) {
		double fa = nc_hist_cdf_step(a, na, i, &acc_a);
		double fb = nc_hist_cdf_step(b, nb, i, &acc_b);

		if (fabs(fa - fb) > d)
			d = fabs(fa - fb);
	}
	return d;
}

/*
 * nc_hist_emd - earth mover's distance between two histograms, in the
 * stage's unit: the integral of |CDF_a - CDF_b| over the value axis, with
 * the CDFs stepping at the bucket edges.  It is how far, on average, A's
 * events must move to become B's.  The overflow bucket has no width and
 * adds nothing.  0 when either histogram is empty.
 */
double nc_hist_emd(const struct nc_hist *a, const struct nc_hist *b)
{
	uint64_t na = nc_hist_bucket_total(a), nb = nc_hist_bucket_total(b);
	uint64_t acc_a = 0, acc_b = 0;
	double d = 0;
	unsigned int i;

	if (!na || !nb)
		return 0;
	for (i = 0; i + 2 < NETCOST_HIST_BUCKETS; i++) {
		double fa = nc_hist_cdf_step(a, na, i, &acc_a);
		double fb = nc_hist_cdf_step(b, nb, i, &acc_b);

		/* between the upper edge of bucket i and that of bucket i+1 */
		d += fabs(fa - fb) * (double)(netcost_hist_hi(i + 1) - netcost_hist_hi(i));
	}
	return d;
}
