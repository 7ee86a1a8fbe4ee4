/* SPDX-License-Identifier: GPL-2.0 */
/*
 * soak.h - measure system CPU load by what is left over (cyclesoak).
 *
 * One SCHED_IDLE thread per CPU, pinned, spins and counts loops.  On an
 * idle system it gets the whole CPU: that rate, measured once and cached
 * (the calibration), is 0% load.  While a test runs, everything else on
 * the CPU -- hard and soft interrupts, IRQ and softirq threads, the
 * application, the scheduler -- takes time from the spinner, so
 *
 *	load % = 100 * (1 - loops / (calibrated loops/s * seconds))
 *
 * counts all of it, which per-task accounting (top, getrusage) does not:
 * the point made by Andrew Morton's cyclesoak in the original reports.
 * A load may come out slightly below 0 when the calibration was noisy;
 * it is not clamped, so that means stay unbiased.
 *
 * Use:  soak_calib_load() or soak_calibrate() + soak_calib_save(), then
 *       soak_start(), soak_sample() once per interval, soak_stop().
 * Functions that can fail return 0 or a negative errno.
 */
#ifndef NETCOST_SOAK_H
#define NETCOST_SOAK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define SOAK_CALIB_MAX_AGE	(24 * 3600)	/* s: recalibrate after */

/* The idle-system loop rate of each CPU, and what it was measured on. */
struct soak_calib {
	char kernel[65];	/* uname -r */
	char cpu_model[128];	/* /proc/cpuinfo model name */
	int64_t timestamp;	/* time() when calibrated */
	double seconds;		/* how long it ran */
	int ncpus;
	int *cpu;		/* [ncpus] CPU numbers */
	double *rate;		/* [ncpus] loops/s: 75th percentile window */
	double *spread;		/* [ncpus] (max - min) / rate of the windows, % */
};

/* Running mean and variance (Welford), min and max. */
struct soak_stat {
	uint64_t n;
	double mean;
	double m2;		/* sum of squared deviations from the mean */
	double min, max;
};

/* What soak_stop() hands back: per CPU and over all CPUs. */
struct soak_result {
	int ncpus;
	int *cpu;			/* [ncpus] */
	struct soak_stat *per_cpu;	/* [ncpus] load %, one per sample */
	struct soak_stat total;		/* mean of the CPUs, per sample */
	double interval_mean;		/* s between samples */
	double seconds;			/* start to the last sample */
	double *busy_s;			/* [ncpus] CPU-seconds taken from the
					 * spinner: sum of load / 100 x sample length */
};

struct soak;

/*
 * soak_load_pct - load % of a CPU that ran @loops loops in @seconds while
 * its idle rate is @rate loops/s.  Returns 0 when @rate or @seconds is 0.
 */
double soak_load_pct(uint64_t loops, double seconds, double rate);

/* soak_stat_init - empty statistics. */
void soak_stat_init(struct soak_stat *s);

/* soak_stat_add - add one sample @x. */
void soak_stat_add(struct soak_stat *s, double x);

/* soak_stat_var - sample variance (n - 1); 0 with fewer than 2 samples. */
double soak_stat_var(const struct soak_stat *s);

/* soak_stat_stddev - square root of soak_stat_var(). */
double soak_stat_stddev(const struct soak_stat *s);

/*
 * soak_quantile - the @q quantile (0..1, linear between neighbours) of
 * @n values; sorts @v in place.  0 if @n is 0.  soak_median is q = 0.5.
 */
double soak_quantile(double *v, size_t n, double q);
double soak_median(double *v, size_t n);

/*
 * soak_online_cpus - the CPUs this process may run on, ascending, in a
 * malloc()ed array at *@cpus.  Returns their number or a negative errno.
 */
int soak_online_cpus(int **cpus);

/*
 * soak_calib_default_path - the cache file: /var/cache/netcost/soak-calib
 * for root, else ${XDG_CACHE_HOME:-$HOME/.cache}/netcost/soak-calib.
 * Returns 0, or -ENAMETOOLONG / -ENOENT (no HOME).
 */
int soak_calib_default_path(char *buf, size_t len);

/*
 * soak_calibrate - run the spinners on @ncpus CPUs @cpus of an otherwise
 * idle system for @seconds and keep, per CPU, the 75th percentile of the
 * rates of its 250 ms windows.  Anything else running only ever slows a
 * spinner down, so the upper windows are the idle rate; taking the
 * median of the upper half rather than the maximum resists a window that
 * timer noise made look short (emulated CPUs, TCG, are noisy both ways).
 * Fills @c, which the caller frees with soak_calib_free().  Returns 0 or
 * a negative errno.
 */
int soak_calibrate(struct soak_calib *c, const int *cpus, int ncpus,
		   double seconds);

/*
 * soak_calib_load - read a calibration written by soak_calib_save().
 * Returns 0, a negative errno of the file, or -EINVAL when malformed.
 */
int soak_calib_load(const char *path, struct soak_calib *c);

/*
 * soak_calib_save - write @c to @path with nc_write_atomic(), creating its
 * directory.  On failure the message (naming @path) is in @err.
 * Returns 0 or a negative errno.
 */
int soak_calib_save(const char *path, const struct soak_calib *c, char *err,
		    size_t errlen);

/*
 * soak_calib_stale - why @c should not be used on this system at @now
 * (kernel, CPU model or CPU set changed, older than SOAK_CALIB_MAX_AGE);
 * NULL when it is fine.  The string is static.
 */
const char *soak_calib_stale(const struct soak_calib *c, time_t now);

/* soak_calib_free - free what a calibration holds (not @c itself). */
void soak_calib_free(struct soak_calib *c);

/*
 * soak_start - start spinning on the first @ncpus CPUs of @c (0: all).
 * Returns the engine, or NULL with errno set.
 */
struct soak *soak_start(const struct soak_calib *c, int ncpus);

/* soak_ncpus - CPUs the engine spins on; soak_cpu - the i-th one's number. */
int soak_ncpus(const struct soak *s);
int soak_cpu(const struct soak *s, int i);

/*
 * soak_sample - the load % of each CPU since the previous sample (or the
 * start) into @load[soak_ncpus()], added to the statistics.  Returns the
 * mean over the CPUs.  Call it once per interval, e.g. every second.
 */
double soak_sample(struct soak *s, double *load);

/*
 * soak_stop - stop and join the spinners, free the engine, and hand the
 * statistics of all samples to @r (free with soak_result_free()).
 * @r may be NULL.
 */
void soak_stop(struct soak *s, struct soak_result *r);

/* soak_result_free - free what a result holds. */
void soak_result_free(struct soak_result *r);

#endif
