/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what send.c and sink.c share: clocks, the TSC rate, option
 * parsing that exits with status 2 on bad input, scheduling, addresses
 * and the SIGINT flag.
 */
#ifndef NETCOST_GEN_UTIL_H
#define NETCOST_GEN_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#define NSEC_PER_SEC	1000000000ull
#define EXIT_USAGE	2

/* Set by SIGINT/SIGTERM; every loop polls it. */
extern volatile sig_atomic_t gen_stop;

/* gen_install_signals - SIGINT/SIGTERM set gen_stop (no SA_RESTART). */
void gen_install_signals(void);

/* gen_now_ns - CLOCK_MONOTONIC in ns. */
uint64_t gen_now_ns(void);

/* gen_sleep_until - clock_nanosleep(TIMER_ABSTIME) to @t (ns), EINTR ok. */
void gen_sleep_until(uint64_t t);

/* gen_cpu_relax - a pause in a busy-wait loop. */
static inline void gen_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* gen_cycles - the TSC (x86) or CLOCK_MONOTONIC ns elsewhere. */
uint64_t gen_cycles(void);

/*
 * gen_tsc_khz - the rate of gen_cycles() in kHz: tsc_freq_khz from sysfs
 * when the kernel exports it, else measured against CLOCK_MONOTONIC_RAW
 * over ~50 ms.  *@source is set to "sysfs", "measured" or "ns".
 */
uint64_t gen_tsc_khz(const char **source);

/* gen_cpu_ns - CPU time of the whole process (getrusage), user and sys. */
void gen_cpu_ns(uint64_t *user, uint64_t *sys);

/*
 * gen_usage_error - print "netcost-gen MODE: message" and a hint to use
 * -h, then exit with status 2.
 */
void gen_usage_error(const char *mode, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* --work's bound: each packet's work ends within a second */
#define GEN_MAX_WORK_NS		1000000000ull
#define GEN_MAX_WORK_CYCLES	10000000000ull

/* gen_parse_u64 - @arg as an integer in [@min, @max] or a usage error. */
uint64_t gen_parse_u64(const char *mode, const char *opt, const char *arg,
		       uint64_t min, uint64_t max);

/* gen_parse_seconds - @arg as seconds (fractions allowed), > 0. */
double gen_parse_seconds(const char *mode, const char *opt, const char *arg);

/*
 * gen_parse_work - per-packet busy work: "N" or "Nns" in ns, "Nus",
 * "Nms", or "Nc"/"Ncyc" in TSC cycles.  Sets *@ns or *@cycles.
 */
void gen_parse_work(const char *mode, const char *arg, uint64_t *ns,
		    uint64_t *cycles);

/* A scheduling request from --sched. */
struct gen_sched {
	int policy;	/* -1: leave as is */
	int prio;
};

/* gen_parse_sched - "fifo:P", "rr:P", "other", "batch" or "idle". */
void gen_parse_sched(const char *mode, const char *arg, struct gen_sched *s);

/* gen_apply_sched - apply @s to the calling thread; exits on failure. */
void gen_apply_sched(const struct gen_sched *s, const char *arg);

/* gen_pin_cpu - pin the calling thread to @cpu; exits on failure. */
void gen_pin_cpu(int cpu);

/*
 * gen_resolve - @host (may be NULL: the wildcard address) and @port into
 * @ss.  @family is AF_INET, AF_INET6 or AF_UNSPEC (guess from @host).
 * Returns the address length; exits on failure.
 */
socklen_t gen_resolve(const char *host, uint16_t port, int family,
		      struct sockaddr_storage *ss);

/* gen_sockaddr_port - the port of @sa in host order. */
uint16_t gen_sockaddr_port(const struct sockaddr *sa);

/* gen_sockaddr_str - "addr" text of @sa into @buf. */
const char *gen_sockaddr_str(const struct sockaddr *sa, char *buf, size_t len);

/* gen_json_num - a JSON number with @prec decimals, or null if not finite. */
void gen_json_num(FILE *f, double v, int prec);

/* gen_ready_file_check - refuse (exit 2) an existing @path that holds more than a port */
void gen_ready_file_check(const char *mode, const char *path);

/* gen_close_stdout - at exit: a write error on stdout is exit 1, with a message */
void gen_close_stdout(void);

/* gen_write_file - write @text to @path atomically (temp file + rename). */
void gen_write_file(const char *path, const char *text);

/*
 * gen_udp_rcvbuf_errors - UDP datagrams this network namespace dropped
 * for a full receive buffer so far (RcvbufErrors of /proc/net/snmp plus
 * Udp6RcvbufErrors of /proc/net/snmp6); -1 when neither can be read.
 */
long long gen_udp_rcvbuf_errors(void);

#endif
