// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - error reporting and the cpulist parser behind every netcost
 * subcommand ("netcost dump --cpu 0-3,8", "netcost config set cpus ...").
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"

char nc_last_err[512];
bool nc_err_quiet;
const char *nc_cmd_name;

/*
 * nc_verr - print "netcost: <message>" on stderr and keep the message, so
 * that the unit tests can check the exact text a user would see.
 */
static void nc_verr(const char *prefix, const char *fmt, va_list ap)
{
	char *full = NULL;
	va_list aq;

	/* the whole message on stderr, however long; the tests keep 512 bytes */
	va_copy(aq, ap);
	vsnprintf(nc_last_err, sizeof(nc_last_err), fmt, ap);
	if (vasprintf(&full, fmt, aq) < 0)
		full = NULL;
	va_end(aq);
	if (!nc_err_quiet)
		fprintf(stderr, "netcost: %s%s\n", prefix, full ? full : nc_last_err);
	free(full);
}

/* nc_read_first_line - the first line of @path (no newline) into @buf; false when unreadable */
bool nc_read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* nc_has_control - whether @s holds a C0 control character or DEL */
bool nc_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/*
 * nc_escape_bytes - @s with control characters (and with @ascii, every
 * byte past 0x7e) as \xNN, cut to fit @len with "..."
 */
static void nc_escape_bytes(const char *s, char *buf, size_t len, bool ascii)
{
	size_t off = 0;

	for (; *s && off + 8 < len; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '\\')
			off += snprintf(buf + off, len - off, "\\\\");
		else if (ch < 0x20 || ch == 0x7f || (ascii && ch > 0x7f))
			off += snprintf(buf + off, len - off, "\\x%02x", ch);
		else
			buf[off++] = (char)ch;
	}
	if (*s)
		off += snprintf(buf + off, len - off, "...");
	buf[off < len ? off : len - 1] = '\0';
}

/* nc_escape - @s for a message, control characters as \xNN, cut to fit @len with "..." */
void nc_escape(const char *s, char *buf, size_t len)
{
	nc_escape_bytes(s, buf, len, false);
}

/*
 * nc_escape_ascii - nc_escape() that leaves printable ASCII only: for
 * names the kernel takes any byte in (a device's), which terminals and
 * JSON (UTF-8) do not
 */
void nc_escape_ascii(const char *s, char *buf, size_t len)
{
	nc_escape_bytes(s, buf, len, true);
}

/* nc_err - one line on stderr for an error that ends the command */
void nc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nc_verr("", fmt, ap);
	va_end(ap);
}

/* nc_warn - one line on stderr for something the user should know */
void nc_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nc_verr("warning: ", fmt, ap);
	va_end(ap);
}

/*
 * nc_usage_err - report a command-line mistake.  Returns NC_EXIT_USAGE so
 * that option parsers can write "return nc_usage_err(...)".
 */
int nc_usage_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nc_verr("", fmt, ap);
	va_end(ap);
	if (!nc_err_quiet)
		fprintf(stderr, "Try 'netcost help%s%s' for more information.\n",
			nc_cmd_name ? " " : "", nc_cmd_name ? nc_cmd_name : "");
	return NC_EXIT_USAGE;
}

/*
 * nc_xcalloc - calloc() that ends the process on failure.  netcost is a
 * short-lived command: an allocation failure can only be reported.
 */
void *nc_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		nc_err("out of memory");
		exit(NC_EXIT_ERROR);
	}
	return p;
}

/* nc_xrealloc - realloc() that ends the process on failure */
void *nc_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		nc_err("out of memory");
		exit(NC_EXIT_ERROR);
	}
	return p;
}

/* nc_xstrdup - strdup() that ends the process on failure; NULL stays NULL */
char *nc_xstrdup(const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d) {
		nc_err("out of memory");
		exit(NC_EXIT_ERROR);
	}
	return d;
}

/*
 * nc_parse_u32 - parse a whole decimal string.  Returns 0 and sets @val, or
 * -1 when @s is not a number that fits.
 */
int nc_parse_u32(const char *s, uint32_t *val)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*val = (uint32_t)v;
	return 0;
}

/*
 * nc_parse_cpulist - parse a kernel-style cpulist ("0-3,8,10-11") into
 * @set.  Returns 0, or -1 on a syntax error or a CPU >= @nbits.  @set is
 * cleared first; an empty list is an error, as it would record nothing.
 */
int nc_parse_cpulist(const char *s, bool *set, unsigned int nbits)
{
	const char *p = s;

	memset(set, 0, nbits * sizeof(*set));
	if (!s || !*s)
		return -1;
	for (;;) {
		unsigned long a, b;
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		a = strtoul(p, &end, 10);
		b = a;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			b = strtoul(p, &end, 10);
		}
		if (a > b || b >= nbits)
			return -1;
		for (; a <= b; a++)
			set[a] = true;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

/* nc_format_cpulist - the inverse of nc_parse_cpulist(), for headers */
void nc_format_cpulist(const bool *set, unsigned int nbits, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < nbits; i = j) {
		if (!set[i]) {
			j = i + 1;
			continue;
		}
		for (j = i + 1; j < nbits && set[j]; j++)
			;
		if (off >= len)
			break;
		if (j - 1 == i)
			off += snprintf(buf + off, len - off, "%s%u", off ? "," : "", i);
		else
			off += snprintf(buf + off, len - off, "%s%u-%u", off ? "," : "", i, j - 1);
	}
}

/*
 * nc_output - nc_write_atomic() for netcost's commands: @target ("-" for
 * stdout) written by @fn.  Returns 0, or NC_EXIT_ERROR after printing a
 * message that names @target.
 */
int nc_output(const char *target, nc_write_fn fn, void *arg)
{
	char err[512];

	if (nc_write_atomic(target, fn, arg, err, sizeof(err))) {
		nc_err("%s", err);
		return NC_EXIT_ERROR;
	}
	return NC_EXIT_OK;
}

/* nc_same_file - whether @a and @b name one existing file */
bool nc_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * nc_parse_seconds - option @opt's value @arg of subcommand @who as a
 * positive (or, with @zero_ok, zero) number of seconds; shared with "run".
 */
int nc_parse_seconds(const char *who, const char *opt, const char *arg,
		     bool zero_ok, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*v) || *v < 0 ||
	    (*v == 0 && !zero_ok) || *v > 1e7)
		return nc_usage_err("%s: %s: '%s' is not a%s number of seconds",
				    who, opt, arg, zero_ok ? " non-negative" : " positive");
	return NC_EXIT_OK;
}

/*
 * nc_report_value - a cycle, ns or packet figure in a few characters:
 * whole above 100, one decimal above 10, two below.
 */
void nc_report_value(char *buf, size_t len, double v)
{
	if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}
