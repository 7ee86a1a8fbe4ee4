// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - clocks, TSC rate, option parsing and sockets for netcost-gen.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include "atomic.h"
#include "util.h"

volatile sig_atomic_t gen_stop;

static void on_signal(int sig)
{
	(void)sig;
	gen_stop = 1;
}

void gen_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocked recvmmsg()/sendmmsg() returns EINTR */
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		error(1, errno, "sigaction");
}

uint64_t gen_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

void gen_sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / NSEC_PER_SEC,
		.tv_nsec = t % NSEC_PER_SEC,
	};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

uint64_t gen_cycles(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	return gen_now_ns();
#endif
}

static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

uint64_t gen_tsc_khz(const char **source)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned long long khz = 0;
	uint64_t t0, c0, t1, c1;
	FILE *f;

	f = fopen("/sys/devices/system/cpu/cpu0/tsc_freq_khz", "r");
	if (f) {
		if (fscanf(f, "%llu", &khz) != 1)
			khz = 0;
		fclose(f);
		if (khz) {
			*source = "sysfs";
			return khz;
		}
	}
	t0 = raw_ns();
	c0 = gen_cycles();
	gen_sleep_until(gen_now_ns() + 50 * 1000 * 1000);
	t1 = raw_ns();
	c1 = gen_cycles();
	*source = "measured";
	return (uint64_t)((double)(c1 - c0) * 1e6 / (double)(t1 - t0) + 0.5);
#else
	*source = "ns";
	return 1000000;	/* gen_cycles() counts ns */
#endif
}

void gen_cpu_ns(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (uint64_t)ru.ru_utime.tv_sec * NSEC_PER_SEC +
		ru.ru_utime.tv_usec * 1000ull;
	*sys = (uint64_t)ru.ru_stime.tv_sec * NSEC_PER_SEC +
	       ru.ru_stime.tv_usec * 1000ull;
}

void gen_usage_error(const char *mode, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "netcost-gen %s: ", mode);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'netcost-gen %s -h' for more information.\n",
		mode);
	exit(EXIT_USAGE);
}

uint64_t gen_parse_u64(const char *mode, const char *opt, const char *arg,
		       uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (errno == ERANGE && end != arg && !*end && arg[0] != '-')
		gen_usage_error(mode, "%s: %s is too large (at most %llu)", opt, arg,
				(unsigned long long)max);
	if (errno || end == arg || *end || arg[0] == '-')
		gen_usage_error(mode, "%s: '%s' is not a number", opt, arg);
	if (v > max)
		gen_usage_error(mode, "%s: %llu is too large (at most %llu)", opt, v,
				(unsigned long long)max);
	if (v < min)
		gen_usage_error(mode, "%s: %llu is out of range [%llu, %llu]",
				opt, v, (unsigned long long)min,
				(unsigned long long)max);
	return v;
}

double gen_parse_seconds(const char *mode, const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v <= 0 ||
	    v > 1e7)
		gen_usage_error(mode, "%s: '%s' is not a positive number of seconds",
				opt, arg);
	return v;
}

void gen_parse_work(const char *mode, const char *arg, uint64_t *ns,
		    uint64_t *cycles)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || arg[0] == '-' || (errno && errno != ERANGE))
		goto bad;
	*ns = 0;
	*cycles = 0;
	if (!*end || !strcmp(end, "ns"))
		*ns = v;
	else if (!strcmp(end, "us"))
		*ns = v > GEN_MAX_WORK_NS / 1000 ? GEN_MAX_WORK_NS + 1 : v * 1000;
	else if (!strcmp(end, "ms"))
		*ns = v > GEN_MAX_WORK_NS / 1000000 ? GEN_MAX_WORK_NS + 1 : v * 1000000;
	else if (!strcmp(end, "c") || !strcmp(end, "cyc") ||
		 !strcmp(end, "cycles"))
		*cycles = v;
	else
		goto bad;
	/* a bound: each packet's work must end well within any run */
	if (errno == ERANGE || *ns > GEN_MAX_WORK_NS || *cycles > GEN_MAX_WORK_CYCLES)
		gen_usage_error(mode, "--work: %s is too large (at most 1000ms or %llucyc per packet)",
				arg, (unsigned long long)GEN_MAX_WORK_CYCLES);
	return;
bad:
	gen_usage_error(mode, "--work: '%s' is not N[ns|us|ms] or Ncyc", arg);
}

void gen_parse_sched(const char *mode, const char *arg, struct gen_sched *s)
{
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	int max;

	if (n == 4 && !strncmp(arg, "fifo", 4))
		s->policy = SCHED_FIFO;
	else if (n == 2 && !strncmp(arg, "rr", 2))
		s->policy = SCHED_RR;
	else if (n == 5 && !strncmp(arg, "other", 5))
		s->policy = SCHED_OTHER;
	else if (n == 5 && !strncmp(arg, "batch", 5))
		s->policy = SCHED_BATCH;
	else if (n == 4 && !strncmp(arg, "idle", 4))
		s->policy = SCHED_IDLE;
	else
		gen_usage_error(mode, "--sched: '%s' is not fifo:PRIO, rr:PRIO, other, batch or idle",
				arg);

	s->prio = 0;
	if (s->policy == SCHED_FIFO || s->policy == SCHED_RR) {
		if (!colon)
			gen_usage_error(mode, "--sched %s needs a priority, e.g. %.*s:65",
					arg, (int)n, arg);
		max = sched_get_priority_max(s->policy);
		s->prio = gen_parse_u64(mode, "--sched", colon + 1, 1, max);
	} else if (colon) {
		gen_usage_error(mode, "--sched: %.*s takes no priority",
				(int)n, arg);
	}
}

void gen_apply_sched(const struct gen_sched *s, const char *arg)
{
	struct sched_param sp = { .sched_priority = s->prio };
	int err;

	if (s->policy < 0)
		return;
	err = pthread_setschedparam(pthread_self(), s->policy, &sp);
	if (err)
		error(1, err, "--sched %s", arg);
}

void gen_pin_cpu(int cpu)
{
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		error(1, err, "pin to CPU %d", cpu);
}

socklen_t gen_resolve(const char *host, uint16_t port, int family,
		      struct sockaddr_storage *ss)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_DGRAM,
		.ai_flags = AI_NUMERICSERV | (host ? 0 : AI_PASSIVE),
	};
	struct addrinfo *res;
	char service[8];
	socklen_t len;
	int rc;

	if (family == AF_UNSPEC && host && strchr(host, ':'))
		family = AF_INET6;
	if (family == AF_UNSPEC)
		family = AF_INET;
	hints.ai_family = family;
	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc)
		error(1, 0, "%s: %s", host ? host : "(any)", gai_strerror(rc));
	len = res->ai_addrlen;
	memcpy(ss, res->ai_addr, len);
	freeaddrinfo(res);
	return len;
}

uint16_t gen_sockaddr_port(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return ntohs(((const struct sockaddr_in *)sa)->sin_port);
}

const char *gen_sockaddr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *a;

	if (sa->sa_family == AF_INET6)
		a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	else
		a = &((const struct sockaddr_in *)sa)->sin_addr;
	if (!inet_ntop(sa->sa_family, a, buf, len))
		snprintf(buf, len, "?");
	return buf;
}

void gen_json_num(FILE *f, double v, int prec)
{
	if (isfinite(v))
		fprintf(f, "%.*f", prec, v);
	else
		fputs("null", f);
}

/*
 * gen_ready_file_check - an existing @path must be empty or hold a port
 * number (an earlier ready file): --ready-file never replaces a snapshot
 * or any other file by mistake.
 */
void gen_ready_file_check(const char *mode, const char *path)
{
	char buf[32];
	ssize_t n;
	size_t i;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;		/* missing, or refused when written */
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (i = 0; n > 0 && i < (size_t)n && buf[i] >= '0' && buf[i] <= '9'; i++)
		;
	if (n <= 0 || (i && i < (size_t)n && buf[i] == '\n' && i + 1 == (size_t)n))
		return;
	gen_usage_error(mode, "--ready-file %s: exists and is not a ready file (a port number); refusing to replace it",
			path);
}

void gen_close_stdout(void)
{
	/* as gnulib's close_stdout: EBADF with nothing pending is no error */
	bool pending = __fpending(stdout) != 0, failed = ferror(stdout) != 0;
	int err = fclose(stdout) ? errno : 0;

	if (failed || (err && (pending || err != EBADF))) {
		fprintf(stderr, "%s: cannot write to standard output: %s\n",
			program_invocation_name, err ? strerror(err) : "write error");
		_exit(1);
	}
}

void gen_write_file(const char *path, const char *text)
{
	char err[512];

	if (nc_write_atomic_text(path, text, err, sizeof(err)))
		error(1, 0, "%s", err);
}

/* snmp_value - column @key of the @prefix lines (names, then values) of @path */
static long long snmp_value(const char *path, const char *prefix, const char *key)
{
	char names[2048], values[2048];
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (v < 0 && fgets(names, sizeof(names), f)) {
		char *n, *x, *sn = NULL, *sx = NULL;

		if (strncmp(names, prefix, strlen(prefix)) ||
		    !fgets(values, sizeof(values), f))
			continue;
		for (n = strtok_r(names, " \n", &sn), x = strtok_r(values, " \n", &sx);
		     n && x; n = strtok_r(NULL, " \n", &sn), x = strtok_r(NULL, " \n", &sx))
			if (!strcmp(n, key))
				v = strtoll(x, NULL, 10);
	}
	fclose(f);
	return v;
}

long long gen_udp_rcvbuf_errors(void)
{
	long long v4 = snmp_value("/proc/net/snmp", "Udp:", "RcvbufErrors");
	long long v6 = -1;
	char line[256];
	FILE *f = fopen("/proc/net/snmp6", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Udp6RcvbufErrors", 16))
			v6 = strtoll(line + 16, NULL, 10);
	if (f)
		fclose(f);
	if (v4 < 0 && v6 < 0)
		return -1;
	return (v4 > 0 ? v4 : 0) + (v6 > 0 ? v6 : 0);
}
