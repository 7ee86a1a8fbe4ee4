// SPDX-License-Identifier: GPL-2.0
/*
 * soak.c - "netcost soak [-d SECONDS] [-i INTERVAL] [--calibrate] [-j]":
 * system CPU load the cyclesoak way, every interval and as mean and
 * standard deviation at the end (the reports quote 240 one-second
 * samples).  The engine and its calibration cache are lib/soak.c; the
 * text and the JSON are printed from the same JSON object.  When a task
 * waited behind the spinners (lib/soak.h: it happens on 6.1-rt), the
 * soak says so: "waits" in the JSON, a warning on stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "soak.h"
#include "cmds.h"

#define NSEC_PER_SEC	1000000000ull

static volatile sig_atomic_t nc_soak_stop;

static void nc_soak_on_signal(int sig)
{
	(void)sig;
	nc_soak_stop = 1;
}

struct nc_soak_opts {
	double duration;	/* s; 0: until SIGINT */
	double interval;	/* s */
	double calib_seconds;
	unsigned int yield_us;	/* spinners yield every this many us; 0: never */
	const char *calib_file;
	bool calibrate;
	bool json;
	bool quiet;
};

/* nc_soak_usage - "netcost soak -h" */
static void nc_soak_usage(FILE *f)
{
	fprintf(f,
		"usage: netcost soak [-d SECONDS] [-i INTERVAL] [--yield-us US] [--calibrate] [-j]\n"
		"  -d, --duration S      run this long (default 10; 0: until Ctrl-C)\n"
		"  -i, --interval S      seconds per sample (default 1)\n"
		"  --yield-us US         spinners yield the CPU every US microseconds (default 0:\n"
		"                        never); bounds the wait of a task queued behind them\n"
		"  --calibrate           measure the idle rate again (keep the system idle)\n"
		"  --calib-seconds S     calibration time (default 3)\n"
		"  --calib-file PATH     calibration cache (default: see netcost(8))\n"
		"  -j, --json            JSON on stdout, samples on stderr\n"
		"  -q, --quiet           no per-sample lines\n");
}

static int nc_soak_parse(int argc, char **argv, struct nc_soak_opts *o)
{
	enum { OPT_CALIBRATE = 256, OPT_CALIB_SECONDS, OPT_CALIB_FILE, OPT_YIELD_US };
	static const struct option lopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "calibrate", no_argument, NULL, OPT_CALIBRATE },
		{ "calib-seconds", required_argument, NULL, OPT_CALIB_SECONDS },
		{ "calib-file", required_argument, NULL, OPT_CALIB_FILE },
		{ "yield-us", required_argument, NULL, OPT_YIELD_US },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c, rc = NC_EXIT_OK;

	optind = 0;
	opterr = 0;	/* the messages below say it the netcost way */
	while (rc == NC_EXIT_OK &&
	       (c = getopt_long(argc, argv, ":d:hi:jq", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			rc = nc_parse_seconds("soak", "-d", optarg, true, &o->duration);
			break;
		case 'i':
			rc = nc_parse_seconds("soak", "-i", optarg, false, &o->interval);
			if (!rc && o->interval < 0.01)
				rc = nc_usage_err("soak: -i %s: at least 0.01 s", optarg);
			break;
		case 'j':
			o->json = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			nc_soak_usage(stdout);
			exit(NC_EXIT_OK);
		case OPT_CALIBRATE:
			o->calibrate = true;
			break;
		case OPT_CALIB_SECONDS:
			rc = nc_parse_seconds("soak", "--calib-seconds", optarg,
					      false, &o->calib_seconds);
			if (!rc && o->calib_seconds < 1)
				rc = nc_usage_err("soak: --calib-seconds: at least 1 s");
			break;
		case OPT_CALIB_FILE:
			o->calib_file = optarg;
			break;
		case OPT_YIELD_US: {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' || v > 1000000)
				rc = nc_usage_err("soak: --yield-us wants microseconds, 0 to 1000000, not '%s'",
						  optarg);
			o->yield_us = v;
			break;
		}
		case ':':
			return nc_usage_err("soak: %s needs a value", argv[optind - 1]);
		default:
			return nc_usage_err("soak: unknown option '%s'", argv[optind - 1]);
		}
	}
	if (rc == NC_EXIT_OK && optind < argc)
		rc = nc_usage_err("soak: unexpected argument '%s'", argv[optind]);
	if (rc == NC_EXIT_OK && o->duration && o->duration < o->interval)
		rc = nc_usage_err("soak: -d %.3g is shorter than one interval (-i %.3g)",
				  o->duration, o->interval);
	return rc;
}

/*
 * nc_soak_calib_path - the calibration cache: @file when given, else the
 * default (soak_calib_default_path()).  @who prefixes the message.
 */
int nc_soak_calib_path(const char *who, const char *file, char *buf, size_t len)
{
	int rc;

	if (file) {
		snprintf(buf, len, "%s", file);
		return NC_EXIT_OK;
	}
	rc = soak_calib_default_path(buf, len);
	if (rc) {
		nc_err("%s: no place for the calibration (%s): use --calib-file",
		       who, strerror(-rc));
		return NC_EXIT_ERROR;
	}
	return NC_EXIT_OK;
}

/*
 * nc_soak_calib - the cached calibration at @path if it is fresh (and
 * @force is false), else a new one of @seconds, saved for the next time;
 * the calibration is announced on @msgs, prefixed with @who.  *@why says
 * why a new one was made (NULL: it came from the cache).  Shared by
 * "soak" and "run".
 */
static int nc_soak_calib_yield(const char *who, bool force, double seconds,
			       unsigned int yield_us, const char *path, FILE *msgs,
			       struct soak_calib *cal, const char **why);

int nc_soak_calib(const char *who, bool force, double seconds, const char *path,
		  FILE *msgs, struct soak_calib *cal, const char **why)
{
	return nc_soak_calib_yield(who, force, seconds, 0, path, msgs, cal, why);
}

/* nc_soak_calib_yield - nc_soak_calib() for spinners yielding every @yield_us */
static int nc_soak_calib_yield(const char *who, bool force, double seconds,
			       unsigned int yield_us, const char *path, FILE *msgs,
			       struct soak_calib *cal, const char **why)
{
	int *cpus, n, rc;
	char err[512];

	*why = NULL;
	if (force) {
		*why = "--calibrate";
	} else {
		rc = soak_calib_load(path, cal);
		if (rc == -ENOENT)
			*why = "no calibration yet";
		else if (rc)
			*why = "calibration file unreadable";
		else
			*why = soak_calib_stale(cal, time(NULL));
		if (!*why && cal->yield_us != yield_us)
			*why = "made with another --yield-us";
		if (!*why)
			return NC_EXIT_OK;
		soak_calib_free(cal);
	}

	n = soak_online_cpus(&cpus);
	if (n < 0) {
		nc_err("%s: which CPUs: %s", who, strerror(-n));
		return NC_EXIT_ERROR;
	}
	fprintf(msgs, "%s: calibrating %d CPU%s for %.0f s (%s); keep the system idle\n",
		who, n, n > 1 ? "s" : "", seconds, *why);
	fflush(msgs);
	rc = soak_calibrate_yield(cal, cpus, n, seconds, yield_us);
	free(cpus);
	if (rc) {
		nc_err("%s: calibration: %s", who, strerror(-rc));
		return NC_EXIT_ERROR;
	}
	for (int i = 0; i < cal->ncpus; i++)
		if (cal->spread[i] > SOAK_CALIB_MAX_SPREAD)
			nc_warn("%s: CPU %d ran %.0f%% unevenly while calibrating: was the system idle?",
				who, cal->cpu[i], cal->spread[i]);
	/* a calibration flagged as bad serves this run at most, never a later one */
	if (soak_calib_bad(cal))
		nc_warn("%s: calibration %s: not saved, the next run calibrates again",
			who, soak_calib_bad(cal));
	else if (soak_calib_save(path, cal, err, sizeof(err)))
		nc_warn("%s: cannot save the calibration: %s", who, err);
	return NC_EXIT_OK;
}

/* nc_soak_stat_json - one soak_stat as {samples, mean, stddev, ...} */
static json_t *nc_soak_stat_json(const struct soak_stat *s)
{
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}",
			 "samples", (json_int_t)s->n, "mean", s->mean,
			 "stddev", soak_stat_stddev(s), "variance", soak_stat_var(s),
			 "min", s->n ? s->min : 0.0, "max", s->n ? s->max : 0.0);
}

/* nc_soak_calib_json - a calibration: file, kernel, when, per-CPU rates */
static json_t *nc_soak_calib_json(const struct soak_calib *cal,
				  const char *path, const char *why)
{
	json_t *cpus = json_array();

	for (int i = 0; i < cal->ncpus; i++)
		json_array_append_new(cpus, json_pack("{s:i, s:I, s:f}",
			"cpu", cal->cpu[i], "loops_per_s", (json_int_t)(cal->rate[i] + 0.5),
			"spread_pct", cal->spread[i]));
	return json_pack("{s:s, s:s, s:s, s:I, s:f, s:b, s:s?, s:i, s:I, s:o}",
			 "file", path, "kernel", cal->kernel,
			 "cpu_model", cal->cpu_model,
			 "timestamp", (json_int_t)cal->timestamp,
			 "seconds", cal->seconds, "new", why != NULL,
			 "reason", why, "yield_us", (int)cal->yield_us,
			 "yield_loops", (json_int_t)cal->yield_chunks, "cpus", cpus);
}

/*
 * nc_soak_waits_json - the runqueue waits the soak watched: {watched,
 * scans, scan_cpu_s, starved, tasks: [{pid, tid, comm, policy, wait_s,
 * behind_spinners_s}]} (tasks that waited behind the spinners, at least
 * that long, the largest first)
 */
static json_t *nc_soak_waits_json(const struct soak_result *res)
{
	json_t *tasks = json_array();
	char msg[1024];

	for (int i = 0; i < res->nwaiters; i++) {
		const struct soak_waiter *w = &res->waiters[i];

		json_array_append_new(tasks, json_pack("{s:i, s:i, s:s, s:i, s:f, s:f}",
			"pid", w->pid, "tid", w->tid, "comm", w->comm,
			"policy", w->policy, "wait_s", w->wait_s,
			"behind_spinners_s", w->behind_s));
	}
	return json_pack("{s:b, s:i, s:f, s:b, s:o}", "watched", res->waits_valid,
			 "scans", res->scans, "scan_cpu_s", res->scan_s,
			 "starved", soak_starved_msg(res, msg, sizeof(msg)),
			 "tasks", tasks);
}

/*
 * nc_soak_json - what a soak measured: {interval_s, seconds, calibration,
 * per_cpu: [{cpu, load: {samples, mean, stddev, ...}, busy_s}], total,
 * waits, series}; takes the reference to @series.  "soak -j" prints it,
 * "run" keeps it in the snapshot (meta.soak).
 */
json_t *nc_soak_json(const struct soak_result *res, const struct soak_calib *cal,
		     const char *path, const char *why, double interval,
		     json_t *series)
{
	json_t *per_cpu = json_array();

	for (int i = 0; i < res->ncpus; i++)
		json_array_append_new(per_cpu, json_pack("{s:i, s:o, s:f}",
			"cpu", res->cpu[i], "load", nc_soak_stat_json(&res->per_cpu[i]),
			"busy_s", res->busy_s ? res->busy_s[i] : 0.0));
	return json_pack("{s:f, s:f, s:o, s:o, s:o, s:o, s:o}",
			 "interval_s", res->total.n ? res->interval_mean : interval,
			 "seconds", res->seconds,
			 "calibration", nc_soak_calib_json(cal, path, why),
			 "per_cpu", per_cpu, "total", nc_soak_stat_json(&res->total),
			 "waits", nc_soak_waits_json(res),
			 "series", series);
}

/* nc_soak_print_line - one sample, cyclesoak style */
static void nc_soak_print_line(FILE *f, double t, double total,
			       const struct soak *s, const double *load)
{
	fprintf(f, "%7.1f s  System load: %6.1f%%  ", t, total);
	for (int i = 0; i < soak_ncpus(s); i++)
		fprintf(f, " cpu%d %6.1f%%", soak_cpu(s, i), load[i]);
	fputc('\n', f);
	fflush(f);
}

/* nc_soak_print_text - the summary, read off the JSON object */
static void nc_soak_print_text(json_t *o)
{
	json_t *cal = json_object_get(o, "calibration");
	json_t *total = json_object_get(o, "total"), *c;
	size_t i;

	printf("\nsoak: %lld samples of %.2f s on %zu CPUs; calibration %s (%s, %s)\n",
	       (long long)json_integer_value(json_object_get(total, "samples")),
	       json_real_value(json_object_get(o, "interval_s")),
	       json_array_size(json_object_get(o, "per_cpu")),
	       json_string_value(json_object_get(cal, "file")),
	       json_string_value(json_object_get(cal, "kernel")),
	       json_is_true(json_object_get(cal, "new")) ? "new" : "cached");
	printf("%-6s %8s %8s %8s %10s %8s %8s\n", "CPU", "samples", "mean %",
	       "stddev", "variance", "min %", "max %");
	json_array_foreach(json_object_get(o, "per_cpu"), i, c) {
		json_t *st = json_object_get(c, "load");

		printf("%-6lld %8lld %8.1f %8.2f %10.3f %8.1f %8.1f\n",
		       (long long)json_integer_value(json_object_get(c, "cpu")),
		       (long long)json_integer_value(json_object_get(st, "samples")),
		       json_real_value(json_object_get(st, "mean")),
		       json_real_value(json_object_get(st, "stddev")),
		       json_real_value(json_object_get(st, "variance")),
		       json_real_value(json_object_get(st, "min")),
		       json_real_value(json_object_get(st, "max")));
	}
	printf("%-6s %8lld %8.1f %8.2f %10.3f %8.1f %8.1f\n", "all",
	       (long long)json_integer_value(json_object_get(total, "samples")),
	       json_real_value(json_object_get(total, "mean")),
	       json_real_value(json_object_get(total, "stddev")),
	       json_real_value(json_object_get(total, "variance")),
	       json_real_value(json_object_get(total, "min")),
	       json_real_value(json_object_get(total, "max")));
}

int cmd_soak(int argc, char **argv)
{
	struct nc_soak_opts o = { .duration = 10, .interval = 1, .calib_seconds = 3 };
	struct sigaction sa = { .sa_handler = nc_soak_on_signal }, old_int, old_term;
	struct soak_calib cal = { 0 };
	struct soak_result res;
	json_t *out, *series;
	const char *why;
	char path[4096];
	uint64_t t0, next, step;
	struct timespec ts;
	struct soak *s;
	double *load;
	int rc;

	rc = nc_soak_parse(argc, argv, &o);
	if (rc)
		return rc;
	rc = nc_soak_calib_path("soak", o.calib_file, path, sizeof(path));
	if (rc)
		return rc;
	rc = nc_soak_calib_yield("soak", o.calibrate, o.calib_seconds, o.yield_us,
				 path, o.json ? stderr : stdout, &cal, &why);
	if (rc)
		return rc;

	s = soak_start(&cal, 0);
	if (!s) {
		nc_err("soak: starting the spinners: %s", strerror(errno));
		soak_calib_free(&cal);
		return NC_EXIT_ERROR;
	}
	load = nc_xcalloc(soak_ncpus(s), sizeof(*load));
	series = json_array();

	nc_soak_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	step = o.interval * NSEC_PER_SEC;
	for (next = t0 + step; !nc_soak_stop; next += step) {
		struct timespec due = {
			.tv_sec = next / NSEC_PER_SEC,
			.tv_nsec = next % NSEC_PER_SEC,
		};
		json_t *cpus;
		double total;

		if (o.duration && next - t0 > o.duration * NSEC_PER_SEC + step / 2)
			break;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL))
			break;	/* EINTR: Ctrl-C ends the run without a partial sample */
		total = soak_sample(s, load);
		cpus = json_array();
		for (int i = 0; i < soak_ncpus(s); i++)
			json_array_append_new(cpus, json_real(load[i]));
		json_array_append_new(series, json_pack("{s:f, s:f, s:o}",
			"t", (next - t0) / 1e9, "total", total, "cpus", cpus));
		if (!o.quiet)
			nc_soak_print_line(o.json ? stderr : stdout,
					   (next - t0) / 1e9, total, s, load);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	soak_stop(s, &res);
	free(load);

	out = nc_soak_json(&res, &cal, path, why, o.interval, series);
	if (o.json) {
		json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
		putchar('\n');
	} else {
		nc_soak_print_text(out);
	}
	if (res.total.n && res.total.mean < -2)
		nc_warn("soak: mean load %.1f%% is below 0: the calibration was made under load; run with --calibrate on an idle system",
			res.total.mean);
	if (!res.total.n)
		nc_warn("soak: no complete sample");
	{
		char msg[1024];

		if (soak_starved_msg(&res, msg, sizeof(msg)))
			nc_warn("soak: %s", msg);
	}
	json_decref(out);
	soak_result_free(&res);
	soak_calib_free(&cal);
	return NC_EXIT_OK;
}
