// SPDX-License-Identifier: GPL-2.0
/*
 * soak.c - the cyclesoak engine: idle-priority spinners, their
 * calibration and the load statistics (see soak.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "atomic.h"
#include "soak.h"

#define NSEC_PER_SEC	1000000000ull
#define SPIN_CHUNK	1000		/* empty iterations per counted loop */
#define CALIB_WINDOW_NS	(250 * 1000 * 1000ull)
#define CALIB_VERSION	2		/* 2: yield_us, yield_chunks */
#define WAITERS_MAX	8		/* tasks a result names */
#define STARVED_MIN_S	0.1		/* s behind the spinners worth a warning */

/* One task of struct soak_waits. */
struct soak_wtask {
	int pid, tid;
	int policy;		/* -1: not asked yet */
	unsigned int scan;	/* the last scan that saw it */
	uint64_t wait_ns;	/* run_delay at that scan */
	double wait_s, behind_s;
	char comm[16];
};

/* One spinner, alone on its cache lines. */
struct spinner {
	uint64_t loops;		/* written by the spinner only */
	uint64_t yield_chunks;	/* sched_yield() every this many loops; 0: never */
	int os_tid;		/* its thread id, set before started */
	int stop;		/* written by the owner once */
	int started;
	int cpu;
	pthread_t tid;
} __attribute__((aligned(128)));

struct soak {
	int n;
	struct spinner *sp;	/* [n] */
	double *rate;		/* [n] calibrated loops/s */
	uint64_t *last;		/* [n] loops at the previous sample */
	double *busy;		/* [n] CPU-seconds others took, so far */
	uint64_t last_ns, start_ns;
	struct soak_stat *stat;	/* [n] */
	struct soak_stat total;
	struct soak_waits waits;
	clockid_t *clk;		/* [n] each spinner's CPU-time clock */
	double *cpu_last;	/* [n] its CPU time at the previous sample */
	int waits_valid;	/* every scan worked */
	double scan_s;
	int scans;		/* scans of every task */
	/* the cheap test of each sample, before a scan of every task */
	int cheap;		/* /proc/schedstat and the spinners' tids known */
	uint64_t others_last;	/* run_delay of the CPUs less ours, last sample */
	double busy_acc, dt_acc;	/* since the last scan */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / NSEC_PER_SEC,
		.tv_nsec = t % NSEC_PER_SEC,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

double soak_load_pct(uint64_t loops, double seconds, double rate)
{
	if (rate <= 0 || seconds <= 0)
		return 0;
	return 100.0 * (1.0 - (double)loops / (rate * seconds));
}

void soak_stat_init(struct soak_stat *s)
{
	memset(s, 0, sizeof(*s));
}

void soak_stat_add(struct soak_stat *s, double x)
{
	double d = x - s->mean;

	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	s->mean += d / s->n;
	s->m2 += d * (x - s->mean);
}

double soak_stat_var(const struct soak_stat *s)
{
	return s->n > 1 ? s->m2 / (s->n - 1) : 0;
}

double soak_stat_stddev(const struct soak_stat *s)
{
	return sqrt(soak_stat_var(s));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double soak_quantile(double *v, size_t n, double q)
{
	double pos;
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	q = q < 0 ? 0 : q > 1 ? 1 : q;
	pos = q * (n - 1);
	i = (size_t)pos;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

double soak_median(double *v, size_t n)
{
	return soak_quantile(v, n, 0.5);
}

int soak_online_cpus(int **cpus)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	*cpus = calloc(CPU_COUNT(&set), sizeof(**cpus));
	if (!*cpus)
		return -ENOMEM;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			(*cpus)[n++] = i;
	return n;
}

/* spin - the busy loop: count chunks of empty iterations until told. */
static void *spin(void *arg)
{
	struct spinner *sp = arg;
	struct sched_param param = { 0 };
	uint64_t loops = 0, yield = sp->yield_chunks, left = yield;

	/* only what nothing else wants: the measure is what is left */
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &param);
	sp->os_tid = syscall(SYS_gettid);
	__atomic_store_n(&sp->started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&sp->stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < SPIN_CHUNK; i++)
			__asm__ __volatile__("" ::: "memory");
		__atomic_store_n(&sp->loops, ++loops, __ATOMIC_RELAXED);
		/* let a runnable task that the scheduler queued behind us run */
		if (yield && !--left) {
			sched_yield();
			left = yield;
		}
	}
	return NULL;
}

static void spinners_stop(struct spinner *sp, int n)
{
	for (int i = 0; i < n; i++)
		__atomic_store_n(&sp[i].stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < n; i++)
		pthread_join(sp[i].tid, NULL);
	free(sp);
}

/*
 * spinners_start - one pinned spinner per CPU of @cpus, then wait (up to
 * 200 ms, a busy CPU may keep an idle thread off for that long) until
 * each has run, so that the first interval does not count start-up.
 */
static struct spinner *spinners_start(const int *cpus, int n,
				      uint64_t yield_chunks, int *err)
{
	struct spinner *sp;
	pthread_attr_t attr;
	uint64_t deadline;
	int i;

	sp = aligned_alloc(128, sizeof(*sp) * n);
	if (!sp) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(sp, 0, sizeof(*sp) * n);
	pthread_attr_init(&attr);
	for (i = 0; i < n; i++) {
		cpu_set_t set;
		int rc;

		CPU_ZERO(&set);
		CPU_SET(cpus[i], &set);
		sp[i].cpu = cpus[i];
		sp[i].yield_chunks = yield_chunks;
		rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (!rc)
			rc = pthread_create(&sp[i].tid, &attr, spin, &sp[i]);
		if (rc) {
			pthread_attr_destroy(&attr);
			spinners_stop(sp, i);
			*err = -rc;
			return NULL;
		}
	}
	pthread_attr_destroy(&attr);

	deadline = now_ns() + 200 * 1000 * 1000;
	for (i = 0; i < n && now_ns() < deadline; ) {
		if (__atomic_load_n(&sp[i].started, __ATOMIC_ACQUIRE))
			i++;
		else
			sleep_until(now_ns() + 1000 * 1000);
	}
	return sp;
}

static void read_loops(const struct spinner *sp, int n, uint64_t *loops)
{
	for (int i = 0; i < n; i++)
		loops[i] = __atomic_load_n(&sp[i].loops, __ATOMIC_RELAXED);
}

static void system_ids(char *kernel, size_t klen, char *model, size_t mlen)
{
	static const char *const keys[] = {
		"model name", "Processor", "cpu model", "CPU part", "cpu",
	};
	struct utsname u;
	char line[256];
	FILE *f;

	snprintf(kernel, klen, "%s", uname(&u) ? "unknown" : u.release);
	snprintf(model, mlen, "unknown");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			size_t kl = strlen(keys[k]);
			char *v;

			if (strncmp(line, keys[k], kl))
				continue;
			/* the whole key: only blanks between it and the colon */
			v = line + kl + strspn(line + kl, " \t");
			if (*v != ':')
				continue;
			v += strspn(v + 1, " \t") + 1;
			v[strcspn(v, "\n")] = '\0';
			snprintf(model, mlen, "%s", v);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

static int calib_alloc(struct soak_calib *c, int n)
{
	c->ncpus = n;
	c->cpu = calloc(n, sizeof(*c->cpu));
	c->rate = calloc(n, sizeof(*c->rate));
	c->spread = calloc(n, sizeof(*c->spread));
	if (!c->cpu || !c->rate || !c->spread) {
		soak_calib_free(c);
		return -ENOMEM;
	}
	return 0;
}

void soak_calib_free(struct soak_calib *c)
{
	free(c->cpu);
	free(c->rate);
	free(c->spread);
	c->cpu = NULL;
	c->rate = NULL;
	c->spread = NULL;
	c->ncpus = 0;
}

/*
 * calibrate - the windows of @seconds of spinning (yielding every
 * @yield_chunks loops) into @c's rates and spreads.
 */
static int calibrate(struct soak_calib *c, const int *cpus, int ncpus,
		     double seconds, uint64_t yield_chunks)
{
	int nwin = seconds * NSEC_PER_SEC / CALIB_WINDOW_NS;
	uint64_t *prev, *cur, t, t_prev;
	struct spinner *sp;
	double *win;
	int rc;

	if (ncpus < 1)
		return -EINVAL;
	if (nwin < 4)
		nwin = 4;
	soak_calib_free(c);
	memset(c, 0, sizeof(*c));
	rc = calib_alloc(c, ncpus);
	if (rc)
		return rc;
	prev = calloc(ncpus, sizeof(*prev));
	cur = calloc(ncpus, sizeof(*cur));
	win = calloc((size_t)ncpus * nwin, sizeof(*win));
	if (!prev || !cur || !win) {
		rc = -ENOMEM;
		goto err_free;
	}
	sp = spinners_start(cpus, ncpus, yield_chunks, &rc);
	if (!sp)
		goto err_free;

	t_prev = now_ns();
	read_loops(sp, ncpus, prev);
	for (int w = 0; w < nwin; w++) {
		sleep_until(t_prev + CALIB_WINDOW_NS);
		t = now_ns();
		read_loops(sp, ncpus, cur);
		for (int i = 0; i < ncpus; i++) {
			win[(size_t)i * nwin + w] = (cur[i] - prev[i]) * 1e9 / (t - t_prev);
			prev[i] = cur[i];
		}
		t_prev = t;
	}
	spinners_stop(sp, ncpus);

	for (int i = 0; i < ncpus; i++) {
		double *v = win + (size_t)i * nwin;

		c->cpu[i] = cpus[i];
		c->rate[i] = soak_quantile(v, nwin, 0.75);	/* sorts v */
		c->spread[i] = c->rate[i] > 0 ?
			100 * (v[nwin - 1] - v[0]) / c->rate[i] : 0;
	}
	system_ids(c->kernel, sizeof(c->kernel), c->cpu_model, sizeof(c->cpu_model));
	c->timestamp = time(NULL);
	c->seconds = nwin * (double)CALIB_WINDOW_NS / NSEC_PER_SEC;
	c->yield_chunks = yield_chunks;
	free(prev);
	free(cur);
	free(win);
	return 0;

err_free:
	free(prev);
	free(cur);
	free(win);
	soak_calib_free(c);
	return rc;
}

int soak_calibrate(struct soak_calib *c, const int *cpus, int ncpus,
		   double seconds)
{
	return soak_calibrate_yield(c, cpus, ncpus, seconds, 0);
}

int soak_calibrate_yield(struct soak_calib *c, const int *cpus, int ncpus,
			 double seconds, unsigned int yield_us)
{
	uint64_t chunks = 0;
	double slowest = 0;
	int rc;

	memset(c, 0, sizeof(*c));
	if (yield_us) {
		/* how many loops the slowest CPU runs in yield_us */
		rc = calibrate(c, cpus, ncpus, 1.0, 0);
		if (rc)
			return rc;
		for (int i = 0; i < c->ncpus; i++)
			if (!slowest || c->rate[i] < slowest)
				slowest = c->rate[i];
		chunks = slowest * yield_us / 1e6;
		if (chunks < 1)
			chunks = 1;
	}
	rc = calibrate(c, cpus, ncpus, seconds, chunks);
	c->yield_us = yield_us;
	return rc;
}

int soak_calib_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, len, "/var/cache/netcost/soak-calib");
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/netcost/soak-calib", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/netcost/soak-calib", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir_parents - create the directories leading to @path. */
static int mkdir_parents(const char *path)
{
	char dir[PATH_MAX];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	for (p = dir + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/* soak_calib_write - the nc_write_fn of soak_calib_save() */
static int soak_calib_write(FILE *f, void *arg)
{
	const struct soak_calib *c = arg;

	fprintf(f, "# netcost soak calibration: idle loops/s of each CPU\n"
		   "version %d\nkernel %s\ncpu_model %s\ntimestamp %lld\n"
		   "seconds %.3f\nyield_us %u\nyield_chunks %llu\nncpus %d\n",
		CALIB_VERSION, c->kernel, c->cpu_model,
		(long long)c->timestamp, c->seconds, c->yield_us,
		(unsigned long long)c->yield_chunks, c->ncpus);
	for (int i = 0; i < c->ncpus; i++)
		fprintf(f, "cpu %d %.1f %.2f\n", c->cpu[i], c->rate[i], c->spread[i]);
	return ferror(f) ? -1 : 0;
}

int soak_calib_save(const char *path, const struct soak_calib *c, char *err,
		    size_t errlen)
{
	int rc;

	rc = mkdir_parents(path);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (nc_write_atomic(path, soak_calib_write, (void *)c, err, errlen))
		return -EIO;
	return 0;
}

int soak_calib_load(const char *path, struct soak_calib *c)
{
	char line[512];
	int version = 0, ncpus = -1, got = 0;
	long long ts = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *val = strchr(line, ' ');
		int cpu;
		double rate, spread;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !val)
			continue;
		*val++ = '\0';
		if (!strcmp(line, "version")) {
			version = atoi(val);
		} else if (!strcmp(line, "kernel")) {
			snprintf(c->kernel, sizeof(c->kernel), "%s", val);
		} else if (!strcmp(line, "cpu_model")) {
			snprintf(c->cpu_model, sizeof(c->cpu_model), "%s", val);
		} else if (!strcmp(line, "timestamp")) {
			ts = atoll(val);
		} else if (!strcmp(line, "seconds")) {
			c->seconds = atof(val);
		} else if (!strcmp(line, "yield_us")) {
			c->yield_us = strtoul(val, NULL, 10);
		} else if (!strcmp(line, "yield_chunks")) {
			c->yield_chunks = strtoull(val, NULL, 10);
		} else if (!strcmp(line, "ncpus")) {
			ncpus = atoi(val);
			if (ncpus < 1 || ncpus > CPU_SETSIZE || c->cpu ||
			    calib_alloc(c, ncpus))
				goto bad;
		} else if (!strcmp(line, "cpu")) {
			if (!c->cpu || got >= ncpus ||
			    sscanf(val, "%d %lf %lf", &cpu, &rate, &spread) != 3 ||
			    !(rate > 0))
				goto bad;
			c->cpu[got] = cpu;
			c->rate[got] = rate;
			c->spread[got] = spread;
			got++;
		}
	}
	fclose(f);
	/* version 1 spinners never yielded: the same as yield_us 0 */
	if ((version != 1 && version != CALIB_VERSION) || ncpus < 1 ||
	    got != ncpus || !ts || (c->yield_us && !c->yield_chunks)) {
		soak_calib_free(c);
		return -EINVAL;
	}
	c->timestamp = ts;
	return 0;
bad:
	fclose(f);
	soak_calib_free(c);
	return -EINVAL;
}

const char *soak_calib_bad(const struct soak_calib *c)
{
	for (int i = 0; i < c->ncpus; i++) {
		if (!(c->rate[i] > 0) || !isfinite(c->rate[i]))
			return "no spin rate for a CPU";
		if (c->spread[i] > SOAK_CALIB_MAX_SPREAD)
			return "uneven when made (was the system idle?)";
	}
	return NULL;
}

const char *soak_calib_stale(const struct soak_calib *c, time_t now)
{
	char kernel[sizeof(c->kernel)], model[sizeof(c->cpu_model)];
	const char *why = soak_calib_bad(c);
	int *cpus, n;

	if (why)	/* never used, however fresh */
		return why;

	system_ids(kernel, sizeof(kernel), model, sizeof(model));
	if (strcmp(kernel, c->kernel))
		return "made on another kernel";
	if (strcmp(model, c->cpu_model))
		return "made on another CPU model";
	if (c->timestamp > now)
		return "made in the future";
	if (now - c->timestamp > SOAK_CALIB_MAX_AGE)
		return "older than a day";
	n = soak_online_cpus(&cpus);
	if (n < 0)
		return "CPUs unknown";
	if (n != c->ncpus)
		why = "made with another number of CPUs";
	for (int i = 0; !why && i < n; i++)
		if (cpus[i] != c->cpu[i])
			why = "made on other CPUs";
	free(cpus);
	return why;
}

void soak_waits_init(struct soak_waits *w)
{
	memset(w, 0, sizeof(*w));
}

void soak_waits_free(struct soak_waits *w)
{
	free(w->t);
	soak_waits_init(w);
}

static int cmp_wtask(const void *a, const void *b)
{
	const struct soak_wtask *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

int soak_waits_account(struct soak_waits *w, const struct soak_task_wait *cur,
		       size_t n, double busy_s, double dt, soak_ident_fn ident,
		       void *arg)
{
	size_t old = w->n;
	int first = !w->scans;

	w->scans++;
	if (!first)
		w->seconds += dt;
	for (size_t i = 0; i < n; i++) {
		struct soak_wtask key = { .tid = cur[i].tid }, *t;
		double d;

		t = old ? bsearch(&key, w->t, old, sizeof(*w->t), cmp_wtask) : NULL;
		if (t) {
			/* a reused tid may have an entry of its own: the pid's */
			while (t > w->t && t[-1].tid == key.tid)
				t--;
			while (t < w->t + old && t->tid == key.tid &&
			       t->pid != cur[i].pid)
				t++;
			if (t == w->t + old || t->tid != key.tid)
				t = NULL;
		}
		if (!t) {
			if (w->n == w->cap) {
				size_t cap = w->cap ? 2 * w->cap : 256;
				struct soak_wtask *nt = realloc(w->t, cap * sizeof(*nt));

				if (!nt)
					return -ENOMEM;
				w->t = nt;
				w->cap = cap;
			}
			t = &w->t[w->n++];
			memset(t, 0, sizeof(*t));
			t->pid = cur[i].pid;
			t->tid = cur[i].tid;
			t->policy = -1;
			/* at the start, a baseline; later, a task born in the
			 * interval: all its wait is in it */
			t->wait_ns = first ? cur[i].wait_ns : 0;
		}
		t->scan = w->scans;
		if (cur[i].wait_ns < t->wait_ns)
			t->wait_ns = cur[i].wait_ns;	/* cannot go back: reused */
		d = (cur[i].wait_ns - t->wait_ns) / 1e9;
		t->wait_ns = cur[i].wait_ns;
		t->wait_s += d;
		/* beyond what anything but the spinners could explain */
		if (d > busy_s) {
			t->behind_s += d - busy_s;
			if (t->policy < 0 && ident)
				t->policy = ident(t->pid, t->tid, t->comm,
						  sizeof(t->comm), arg);
		}
	}
	/* forget the tasks that are gone, keep the rest sorted */
	for (size_t i = 0, j = 0; i < w->n; i++) {
		if (w->t[i].scan == w->scans || w->t[i].behind_s > 0)
			w->t[j++] = w->t[i];
		if (i + 1 == w->n)
			w->n = j;
	}
	qsort(w->t, w->n, sizeof(*w->t), cmp_wtask);
	return 0;
}

static int cmp_behind(const void *a, const void *b)
{
	const struct soak_waiter *x = a, *y = b;

	return (x->behind_s < y->behind_s) - (x->behind_s > y->behind_s);
}

int soak_waits_worst(const struct soak_waits *w, struct soak_waiter **out,
		     int max)
{
	struct soak_waiter *v;
	int n = 0;

	*out = NULL;
	v = calloc(w->n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < w->n; i++) {
		const struct soak_wtask *t = &w->t[i];

		if (!(t->behind_s > 0) || t->policy == SCHED_IDLE)
			continue;
		v[n].pid = t->pid;
		v[n].tid = t->tid;
		v[n].policy = t->policy;
		snprintf(v[n].comm, sizeof(v[n].comm), "%s", t->comm);
		v[n].wait_s = t->wait_s;
		v[n].behind_s = t->behind_s;
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_behind);
	if (n > max)
		n = max;
	*out = v;
	return n;
}

/*
 * task_ident - comm and policy of a task from /proc/PID/task/TID/stat
 * (the comm may hold blanks and parentheses: the fields follow the last
 * ')'; policy is field 41).  -1 when it is gone.
 */
static int task_ident(int pid, int tid, char *comm, size_t len, void *arg)
{
	char path[64], buf[1024], *open_p, *close_p, *p;
	int fd, field = 3, policy = -1;
	ssize_t got;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p)
		return -1;
	snprintf(comm, len, "%.*s", (int)(close_p - open_p - 1), open_p + 1);
	for (p = close_p + 2; *p; p++) {
		if (*p != ' ')
			continue;
		if (++field == 41) {
			policy = atoi(p + 1);
			break;
		}
	}
	return policy;
}

/* read_num - the first @n unsigned numbers of a small file */
static int read_nums(const char *path, uint64_t *v, int n)
{
	char buf[256], *p, *end;
	ssize_t got;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (got <= 0)
		return -EIO;
	buf[got] = '\0';
	for (i = 0, p = buf; i < n; i++, p = end) {
		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return -EINVAL;
	}
	return 0;
}

/*
 * scan_tasks - every task's run_delay (but this process's own) into a
 * growing array *@v (capacity *@cap).  Returns the number or a negative
 * errno (no schedstat: a kernel without CONFIG_SCHED_INFO).
 */
static long scan_tasks(struct soak_task_wait **v, size_t *cap)
{
	int self = getpid();
	struct dirent *pe, *te;
	char path[64];
	size_t n = 0;
	DIR *pd, *td;

	pd = opendir("/proc");
	if (!pd)
		return -errno;
	while ((pe = readdir(pd))) {
		int pid = atoi(pe->d_name);

		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		if (!td)
			continue;	/* gone */
		while ((te = readdir(td))) {
			int tid = atoi(te->d_name);
			uint64_t st[2] = { 0 };

			if (tid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, tid);
			if (read_nums(path, st, 2))
				continue;
			if (n == *cap) {
				size_t c = *cap ? 2 * *cap : 512;
				struct soak_task_wait *nv = realloc(*v, c * sizeof(*nv));

				if (!nv) {
					closedir(td);
					closedir(pd);
					return -ENOMEM;
				}
				*v = nv;
				*cap = c;
			}
			(*v)[n].pid = pid;
			(*v)[n].tid = tid;
			(*v)[n].wait_ns = st[1];
			n++;
		}
		closedir(td);
	}
	closedir(pd);
	return n ? (long)n : -ENOENT;
}

static double clock_s(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double thread_cpu_s(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

/*
 * others_wait - the runqueue wait of every task on the soaked CPUs
 * (/proc/schedstat: a cpuN line's 8th number is its runqueues' run_delay)
 * less the spinners' and this thread's own, in ns.  -1 when unknown.
 */
static int64_t others_wait(const struct soak *s)
{
	char line[512], path[64];
	uint64_t sum = 0, v[2];
	int found = 0;
	FILE *f;

	f = fopen("/proc/schedstat", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long x[8];
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7]) != 9)
			continue;
		for (int i = 0; i < s->n; i++)
			if (s->sp[i].cpu == cpu) {
				sum += x[7];
				found++;
			}
	}
	fclose(f);
	if (found != s->n)
		return -1;
	for (int i = 0; i <= s->n; i++) {
		int tid = i < s->n ? s->sp[i].os_tid : (int)syscall(SYS_gettid);

		snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", tid);
		if (!tid || read_nums(path, v, 2))
			return -1;
		sum -= v[1];
	}
	return (int64_t)sum;
}

/*
 * watch_waits - at a sample, with @busy_s the CPU time the spinners did
 * not get in the interval (of @dt s), all CPUs: when all other tasks
 * together waited longer than that (the cheap test), or when that test
 * is not available, a scan of every task into the bookkeeping.  Without
 * a scan, no task can have waited behind the spinners, so none is missed.
 * A scan that fails ends the watching (the result says so).
 */
static void watch_waits(struct soak *s, double busy_s, double dt)
{
	struct soak_task_wait *v = NULL;
	double t0 = thread_cpu_s();
	size_t cap = 0;
	int64_t others;
	long n;

	if (!s->waits_valid)
		return;
	s->busy_acc += busy_s;
	s->dt_acc += dt;
	if (s->cheap) {
		others = others_wait(s);
		if (others < 0) {
			s->cheap = 0;
		} else {
			int64_t d = others - (int64_t)s->others_last;

			s->others_last = others;
			if (s->waits.scans && d / 1e9 <= busy_s) {
				s->scan_s += thread_cpu_s() - t0;
				return;
			}
		}
	}
	n = scan_tasks(&v, &cap);
	if (n < 0 || soak_waits_account(&s->waits, v, n, s->busy_acc, s->dt_acc,
					task_ident, NULL))
		s->waits_valid = 0;
	s->busy_acc = s->dt_acc = 0;
	s->scans++;
	free(v);
	s->scan_s += thread_cpu_s() - t0;
}

static void soak_free(struct soak *s)
{
	soak_waits_free(&s->waits);
	free(s->clk);
	free(s->cpu_last);
	free(s->rate);
	free(s->last);
	free(s->busy);
	free(s->stat);
	free(s);
}

struct soak *soak_start(const struct soak_calib *c, int ncpus)
{
	struct soak *s;
	int rc;

	if (ncpus <= 0 || ncpus > c->ncpus)
		ncpus = c->ncpus;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->n = ncpus;
	s->rate = calloc(ncpus, sizeof(*s->rate));
	s->last = calloc(ncpus, sizeof(*s->last));
	s->busy = calloc(ncpus, sizeof(*s->busy));
	s->stat = calloc(ncpus, sizeof(*s->stat));
	if (!s->rate || !s->last || !s->busy || !s->stat) {
		soak_free(s);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(s->rate, c->rate, ncpus * sizeof(*s->rate));
	soak_stat_init(&s->total);
	for (int i = 0; i < ncpus; i++)
		soak_stat_init(&s->stat[i]);
	soak_waits_init(&s->waits);
	s->sp = spinners_start(c->cpu, ncpus, c->yield_chunks, &rc);
	if (!s->sp) {
		soak_free(s);
		errno = -rc;
		return NULL;
	}
	s->clk = calloc(ncpus, sizeof(*s->clk));
	s->cpu_last = calloc(ncpus, sizeof(*s->cpu_last));
	s->waits_valid = s->clk && s->cpu_last;
	for (int i = 0; s->waits_valid && i < ncpus; i++) {
		s->waits_valid = !pthread_getcpuclockid(s->sp[i].tid, &s->clk[i]);
		if (s->waits_valid)
			s->cpu_last[i] = clock_s(s->clk[i]);
	}
	s->cheap = 1;
	watch_waits(s, 0, 0);		/* where every task's wait starts */
	s->start_ns = s->last_ns = now_ns();
	read_loops(s->sp, ncpus, s->last);
	return s;
}

int soak_ncpus(const struct soak *s)
{
	return s->n;
}

int soak_cpu(const struct soak *s, int i)
{
	return s->sp[i].cpu;
}

double soak_sample(struct soak *s, double *load)
{
	uint64_t t = now_ns();
	double dt = (t - s->last_ns) / 1e9, sum = 0, busy = 0;

	/*
	 * What the spinners did not get, from their own CPU time (not from
	 * the calibration, which may be off), plus a margin for the reads
	 */
	for (int i = 0; s->waits_valid && i < s->n; i++) {
		double c = clock_s(s->clk[i]);

		busy += dt - (c - s->cpu_last[i]) + 0.01 * dt + 0.001;
		s->cpu_last[i] = c;
	}

	for (int i = 0; i < s->n; i++) {
		uint64_t cur = __atomic_load_n(&s->sp[i].loops, __ATOMIC_RELAXED);

		load[i] = soak_load_pct(cur - s->last[i], dt, s->rate[i]);
		soak_stat_add(&s->stat[i], load[i]);
		s->busy[i] += load[i] / 100 * dt;
		s->last[i] = cur;
		sum += load[i];
	}
	s->last_ns = t;
	soak_stat_add(&s->total, sum / s->n);
	watch_waits(s, busy, dt);
	return sum / s->n;
}

void soak_stop(struct soak *s, struct soak_result *r)
{
	uint64_t end = s->last_ns;

	if (r) {
		memset(r, 0, sizeof(*r));
		r->ncpus = s->n;
		r->cpu = calloc(s->n, sizeof(*r->cpu));
		r->per_cpu = calloc(s->n, sizeof(*r->per_cpu));
		r->busy_s = calloc(s->n, sizeof(*r->busy_s));
		if (r->cpu && r->per_cpu && r->busy_s) {
			for (int i = 0; i < s->n; i++) {
				r->cpu[i] = s->sp[i].cpu;
				r->per_cpu[i] = s->stat[i];
				r->busy_s[i] = s->busy[i];
			}
		} else {
			soak_result_free(r);
		}
		r->total = s->total;
		r->seconds = (end - s->start_ns) / 1e9;
		r->interval_mean = s->total.n ? r->seconds / s->total.n : 0;
		r->scan_s = s->scan_s;
		r->scans = s->scans;
		r->waits_valid = s->waits_valid && s->total.n;
		if (r->waits_valid) {
			int n = soak_waits_worst(&s->waits, &r->waiters, WAITERS_MAX);

			r->nwaiters = n > 0 ? n : 0;
			r->waits_valid = n >= 0;
		}
	}
	spinners_stop(s->sp, s->n);
	soak_free(s);
}

void soak_result_free(struct soak_result *r)
{
	free(r->cpu);
	free(r->per_cpu);
	free(r->busy_s);
	free(r->waiters);
	r->cpu = NULL;
	r->per_cpu = NULL;
	r->busy_s = NULL;
	r->waiters = NULL;
	r->nwaiters = 0;
	r->ncpus = 0;
}

static const char *policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER: return "SCHED_OTHER";
	case SCHED_FIFO: return "SCHED_FIFO";
	case SCHED_RR: return "SCHED_RR";
	case SCHED_BATCH: return "SCHED_BATCH";
	case SCHED_IDLE: return "SCHED_IDLE";
	default: return "policy unknown";
	}
}

int soak_starved_msg(const struct soak_result *r, char *buf, size_t len)
{
	const struct soak_waiter *w;

	if (!r->waits_valid || !r->nwaiters || !(r->seconds > 0))
		return 0;
	w = &r->waiters[0];
	if (w->behind_s < STARVED_MIN_S ||
	    w->behind_s < r->seconds * SOAK_STARVED_PCT / 100)
		return 0;
	snprintf(buf, len,
		 "the soak slowed down what it measures: %s (pid %d, tid %d, %s) was ready to run "
		 "but waited %.2f s of %.2f s behind the soak's idle-priority spinners. "
		 "Its rate and costs under the soak are not what they are without it: "
		 "compare with a run without the soak. (On 6.1-rt, a task whose priority-inheritance "
		 "boost ends is queued behind a SCHED_IDLE spinner until the next tick; "
		 "spinners that yield, --yield-us, bound that wait.)",
		 *w->comm ? w->comm : "?", w->pid, w->tid, policy_name(w->policy),
		 w->behind_s, r->seconds);
	return 1;
}
