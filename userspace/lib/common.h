/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - exit statuses, error reporting and small parsers shared by
 * every netcost subcommand (documented in netcost(8), EXIT STATUS).
 */
#ifndef NETCOST_COMMON_H
#define NETCOST_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "atomic.h"

/* The process exit statuses; every lib function that can fail returns one. */
enum nc_exit {
	NC_EXIT_OK		= 0,
	NC_EXIT_ERROR		= 1,	/* anything else */
	NC_EXIT_USAGE		= 2,	/* bad command line */
	NC_EXIT_NO_MODULE	= 3,	/* family "netcost" not registered */
	NC_EXIT_PERM		= 4,	/* EPERM: no CAP_NET_ADMIN */
	NC_EXIT_VERSION		= 5,	/* module and tool releases differ */
	NC_EXIT_SNAPSHOT	= 6,	/* snapshot file missing or bad */
	NC_EXIT_NO_PACKETS	= 7,	/* a snapshot counted no packets */
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NC_MAX_CPUS	4096
#define NC_MAX_CPUS_STR	"4096"

/* The text of the last nc_err(), for tests; nc_err_quiet mutes stderr. */
extern char nc_last_err[512];
extern bool nc_err_quiet;
/* the subcommand running, for "Try 'netcost help CMD'"; NULL: none */
extern const char *nc_cmd_name;

void nc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void nc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int nc_usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int nc_output(const char *target, nc_write_fn fn, void *arg);
bool nc_same_file(const char *a, const char *b);
bool nc_read_first_line(const char *path, char *buf, size_t len);

bool nc_has_control(const char *s);
void nc_escape(const char *s, char *buf, size_t len);
void nc_escape_ascii(const char *s, char *buf, size_t len);

void *nc_xcalloc(size_t n, size_t size);
void *nc_xrealloc(void *p, size_t size);
char *nc_xstrdup(const char *s);

int nc_parse_cpulist(const char *s, bool *set, unsigned int nbits);
int nc_parse_u32(const char *s, uint32_t *val);
int nc_parse_seconds(const char *who, const char *opt, const char *arg,
		     bool zero_ok, double *v);
void nc_report_value(char *buf, size_t len, double v);
void nc_format_cpulist(const bool *set, unsigned int nbits, char *buf, size_t len);

/* cycles -> ns at @tsc_khz; 0 when the rate is unknown */
static inline double nc_cycles_to_ns(double cycles, uint32_t tsc_khz)
{
	return tsc_khz ? cycles * 1e6 / tsc_khz : 0;
}

#endif
