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
 *
 * A soak must not slow down what it measures.  A SCHED_IDLE spinner gives
 * way at once to a task that wakes up; it does not give way to a task
 * that is already runnable and that the scheduler put behind it.  On
 * 6.1-rt that happens after every priority-inheritance boost ends (the
 * per-CPU softirq lock): CFS queues the deboosted task behind the spinner,
 * which then runs to the next tick.  A 1025-byte stream fell from 10,130
 * to 624 packets/s that way.  So the engine watches, at every sample, how
 * long each other task waited on the runqueue (/proc/PID/task/TID/
 * schedstat): in an interval, a task can have waited behind something
 * other than the spinners at most for the CPU time the spinners did not
 * get (the load), so what it waited beyond that, it waited behind the
 * spinners (a lower bound; soak_waits_account()).  soak_starved_msg() says
 * it in words.  And a spinner can yield the CPU every @yield_us
 * microseconds (soak_calibrate()), which bounds such a wait.
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
	unsigned int yield_us;	/* a spinner yields every this many us (0: never) */
	uint64_t yield_chunks;	/* ... that is, every this many loops */
};

/*
 * One task's runqueue wait while the soak ran: what it waited in all
 * (run_delay), and the lower bound of what it waited behind the spinners.
 */
struct soak_waiter {
	int pid, tid;
	int policy;		/* SCHED_*; -1 unknown */
	char comm[16];
	double wait_s;		/* runqueue wait seen while the soak ran */
	double behind_s;	/* of which, at least, behind the spinners */
};

/* The bookkeeping of soak_waits_account(): one entry per task seen. */
struct soak_waits {
	struct soak_wtask *t;	/* sorted by tid */
	size_t n, cap;
	unsigned int scans;
	double seconds;		/* interval lengths accounted */
};

/* One task as a scan of /proc found it. */
struct soak_task_wait {
	int pid, tid;
	uint64_t wait_ns;	/* /proc/PID/task/TID/schedstat, second field */
};

/* Tells policy and name of a task, for soak_waits_account(). */
typedef int (*soak_ident_fn)(int pid, int tid, char *comm, size_t len, void *arg);

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
	int waits_valid;		/* the runqueue waits were watched */
	int nwaiters;
	struct soak_waiter *waiters;	/* [nwaiters] behind_s > 0, not SCHED_IDLE,
					 * the largest first */
	double scan_s;			/* CPU time the watching took */
	int scans;			/* scans of every task (the first, and
					 * each after a sample whose cheap test
					 * said a task may have waited behind) */
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
 * soak_calibrate_yield - soak_calibrate() for spinners that yield the CPU
 * every @yield_us microseconds (0: never): a first quarter second without
 * yielding sets how many loops that is (c->yield_chunks), then the
 * calibration runs with it.
 */
int soak_calibrate_yield(struct soak_calib *c, const int *cpus, int ncpus,
			 double seconds, unsigned int yield_us);

/*
 * soak_waits_init / soak_waits_free - empty bookkeeping; free it.
 * soak_waits_account - one scan @cur[@n] at the end of an interval of
 * @dt seconds in which the spinners did not get @busy_s CPU-seconds (the
 * load of all soaked CPUs).  The first scan only sets each task's start.
 * A task's wait in the interval beyond @busy_s is added to its behind_s;
 * @ident (may be NULL) names a task the first time it has some.  Returns
 * 0 or -ENOMEM.
 */
void soak_waits_init(struct soak_waits *w);
void soak_waits_free(struct soak_waits *w);
int soak_waits_account(struct soak_waits *w, const struct soak_task_wait *cur,
		       size_t n, double busy_s, double dt, soak_ident_fn ident,
		       void *arg);

/*
 * soak_waits_worst - up to @max tasks with behind_s > 0 that are not
 * SCHED_IDLE, the largest first, into a malloc()ed array at *@out.
 * Returns their number or -ENOMEM.
 */
int soak_waits_worst(const struct soak_waits *w, struct soak_waiter **out,
		     int max);

/*
 * soak_starved_msg - when a task waited behind the spinners for at least
 * SOAK_STARVED_PCT % of the soak's time (and 0.1 s), say so in @buf (for
 * nc_warn(): the task, the figures, what it means, what to do) and return
 * 1; else 0.
 */
#define SOAK_STARVED_PCT	5
int soak_starved_msg(const struct soak_result *r, char *buf, size_t len);

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

/* a CPU whose spin rate varied more than this (%) while calibrating: a busy system */
#define SOAK_CALIB_MAX_SPREAD	10

/*
 * soak_calib_bad - why @c is no calibration to measure with (a CPU spun
 * unevenly, > SOAK_CALIB_MAX_SPREAD %, or not at all), NULL when it is
 * good: such a one is never cached, and never used from the cache.
 */
const char *soak_calib_bad(const struct soak_calib *c);

/*
 * soak_calib_stale - why @c should not be used on this system at @now
 * (soak_calib_bad(), kernel, CPU model or CPU set changed, older than
 * SOAK_CALIB_MAX_AGE);
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
