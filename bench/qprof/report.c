// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - qprof-report: the guest instructions of qprof windows by
 * kernel function, per unit of work, and what one window adds to
 * another.
 *
 *   qprof-report [-n N] [-j] [-m] KALLSYMS A.prof[:UNITS] [B.prof[:UNITS]]
 *
 * KALLSYMS is the guest's /proc/kallsyms (read as root after the module
 * was loaded, so that its functions are named).  Each .prof is one
 * window of bench/qprof/plugin.c; UNITS (e.g. the packets the window
 * carried) divides its counts: instructions per unit.  With B, the
 * functions are sorted by what B adds over A per unit (B - A), and
 * modules' functions carry their module's name.  -n N: the top N (30).
 * -j: JSON instead of a table.  -m: by module instead of by function
 * (the kernel proper is "kernel"; ftrace's trampolines are
 * "__builtin__ftrace").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sym {
	uint64_t addr;
	char *name;			/* "func" or "func [module]" */
};

struct row {
	const char *name;
	double a, b;			/* instructions per unit */
};

static struct sym *syms;
static size_t nsyms;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "qprof-report: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static int sym_cmp(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void load_kallsyms(const char *path)
{
	char line[512], type, name[256], mod[128];
	size_t cap = 0;
	uint64_t addr;
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		die("%s: cannot open", path);
	while (fgets(line, sizeof(line), f)) {
		mod[0] = 0;
		n = sscanf(line, "%" SCNx64 " %c %255s [%127[^]]]", &addr, &type, name, mod);
		if (n < 3 || !addr)
			continue;
		if (nsyms == cap) {
			cap = cap ? 2 * cap : 65536;
			syms = realloc(syms, cap * sizeof(*syms));
			if (!syms)
				die("%s", "out of memory");
		}
		syms[nsyms].addr = addr;
		if (mod[0]) {
			size_t l = strlen(name) + strlen(mod) + 4;

			syms[nsyms].name = malloc(l);
			if (!syms[nsyms].name)
				die("%s", "out of memory");
			snprintf(syms[nsyms].name, l, "%s [%s]", name, mod);
		} else {
			syms[nsyms].name = strdup(name);
		}
		nsyms++;
	}
	fclose(f);
	if (!nsyms)
		die("%s: no symbol with an address (read it as root)", path);
	qsort(syms, nsyms, sizeof(*syms), sym_cmp);
}

/* the symbol at or before @addr, or -1 */
static long sym_at(uint64_t addr)
{
	size_t lo = 0, hi = nsyms;

	if (addr < syms[0].addr)
		return -1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return (long)lo;
}

/* add window @spec ("FILE[:UNITS]") into @acc (per symbol), return its total per unit */
static double load_prof(const char *spec, double *acc, double *unknown)
{
	char path[4096], line[256];
	const char *colon = strrchr(spec, ':');
	double units = 1, total = -1;
	uint64_t addr, insns;
	FILE *f;

	snprintf(path, sizeof(path), "%s", spec);
	if (colon) {
		char *end;

		units = strtod(colon + 1, &end);
		if (*end || units <= 0)
			die("%s: UNITS must be a positive number", spec);
		path[colon - spec] = 0;
	}
	f = fopen(path, "r");
	if (!f)
		die("%s: cannot open", path);
	while (fgets(line, sizeof(line), f)) {
		long s;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "total %" SCNu64, &insns) == 1) {
			total = insns / units;
			continue;
		}
		if (sscanf(line, "%" SCNx64 " %" SCNu64, &addr, &insns) != 2)
			die("%s: not a qprof window", path);
		s = sym_at(addr);
		if (s < 0)
			*unknown += insns / units;
		else
			acc[s] += insns / units;
	}
	fclose(f);
	if (total < 0)
		die("%s: no total line (not a qprof window?)", path);
	return total;
}

static int by_delta(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	double da = a->b - a->a, db = b->b - b->a;

	if (da < 0)
		da = -da;
	if (db < 0)
		db = -db;
	return da < db ? 1 : da > db ? -1 : 0;
}

/* the module part of a row name: "func [mod]" -> "mod", else "kernel" */
static const char *module_of(const char *name)
{
	const char *b = strchr(name, '[');

	return b ? b + 1 : "kernel";
}

static size_t modlen(const char *m)
{
	const char *e = strchr(m, ']');

	return e ? (size_t)(e - m) : strlen(m);
}

/* by_module - fold @rows into one per module (in place), their count */
static size_t by_module(struct row *rows, size_t n)
{
	size_t i, j, m = 0;

	for (i = 0; i < n; i++) {
		const char *mod = module_of(rows[i].name);

		for (j = 0; j < m; j++) {
			if (modlen(rows[j].name) == modlen(mod) &&
			    !strncmp(rows[j].name, mod, modlen(mod)))
				break;
		}
		if (j == m) {
			char *name = strndup(mod, modlen(mod));

			if (!name)
				die("%s", "out of memory");
			rows[m].name = name;
			rows[m].a = 0;
			rows[m].b = 0;
			m++;
		}
		rows[j].a += rows[i].a;
		rows[j].b += rows[i].b;
	}
	return m;
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

int main(int argc, char **argv)
{
	double *a, *b, ta, tb = 0, ua = 0, ub = 0, kern_a = 0, kern_b = 0;
	int top = 30, json = 0, bymod = 0, opt, two;
	struct row *rows;
	size_t i, nrows = 0;

	while ((opt = getopt(argc, argv, "n:jmh")) != -1) {
		switch (opt) {
		case 'n':
			top = atoi(optarg);
			break;
		case 'j':
			json = 1;
			break;
		case 'm':
			bymod = 1;
			break;
		default:
			fprintf(stderr, "usage: qprof-report [-n N] [-j] [-m] KALLSYMS A.prof[:UNITS] [B.prof[:UNITS]]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (argc - optind < 2 || argc - optind > 3) {
		fprintf(stderr, "usage: qprof-report [-n N] [-j] [-m] KALLSYMS A.prof[:UNITS] [B.prof[:UNITS]]\n");
		return 2;
	}
	two = argc - optind == 3;
	load_kallsyms(argv[optind]);
	a = calloc(nsyms, sizeof(*a));
	b = calloc(nsyms, sizeof(*b));
	rows = calloc(nsyms, sizeof(*rows));
	if (!a || !b || !rows)
		die("%s", "out of memory");
	ta = load_prof(argv[optind + 1], a, &ua);
	if (two)
		tb = load_prof(argv[optind + 2], b, &ub);
	for (i = 0; i < nsyms; i++) {
		kern_a += a[i];
		kern_b += b[i];
		if (a[i] || b[i]) {
			rows[nrows].name = syms[i].name;
			rows[nrows].a = a[i];
			rows[nrows].b = two ? b[i] : 0;
			nrows++;
		}
	}
	if (bymod)
		nrows = by_module(rows, nrows);
	if (two) {
		qsort(rows, nrows, sizeof(*rows), by_delta);
	} else {
		for (i = 0; i < nrows; i++) {	/* by count: b holds a, a 0 */
			rows[i].b = rows[i].a;
			rows[i].a = 0;
		}
		qsort(rows, nrows, sizeof(*rows), by_delta);
	}
	if ((size_t)top > nrows)
		top = (int)nrows;
	if (json) {
		printf("{\"total_a\":%.1f,\"kernel_a\":%.1f", ta, kern_a + ua);
		if (two)
			printf(",\"total_b\":%.1f,\"kernel_b\":%.1f", tb, kern_b + ub);
		printf(",\"%s\":[", bymod ? "modules" : "functions");
		for (i = 0; i < (size_t)top; i++) {
			printf("%s{\"name\":", i ? "," : "");
			json_str(rows[i].name);
			if (two)
				printf(",\"a\":%.2f,\"b\":%.2f}", rows[i].a, rows[i].b);
			else
				printf(",\"insns\":%.2f}", rows[i].b);
		}
		printf("]}\n");
		return 0;
	}
	if (two) {
		printf("instructions per unit: A %.1f (kernel %.1f), B %.1f (kernel %.1f), B - A %+.1f\n",
		       ta, kern_a + ua, tb, kern_b + ub, tb - ta);
		printf("%-48s %12s %12s %10s\n", bymod ? "module" : "function", "A", "B", "B - A");
		for (i = 0; i < (size_t)top; i++)
			printf("%-48s %12.1f %12.1f %+10.1f\n", rows[i].name,
			       rows[i].a, rows[i].b, rows[i].b - rows[i].a);
	} else {
		printf("instructions per unit: %.1f (kernel %.1f)\n", ta, kern_a + ua);
		printf("%-48s %12s\n", bymod ? "module" : "function", "insns");
		for (i = 0; i < (size_t)top; i++)
			printf("%-48s %12.1f\n", rows[i].name, rows[i].b);
	}
	return 0;
}
