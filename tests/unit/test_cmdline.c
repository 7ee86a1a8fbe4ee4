// SPDX-License-Identifier: GPL-2.0
/*
 * test_cmdline.c - the netcost command line, ethtool test-cmdline style: a
 * table of { expected exit status, "arguments" } run against the built
 * binary in a subprocess.  Usage mistakes are 2, bad snapshots 6, a
 * snapshot without packets 7; on a host without the module every live
 * command is 3 (those cases are skipped where the module is loaded).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "snapshot.h"
#include "synth.h"

#define C	TEST_DIR "/corpus/"
#define O	TEST_OUT "/"

struct cmdline_case {
	int rc;
	const char *args;
};

static const struct cmdline_case cases[] = {
	{ 0, "--help" },
	{ 0, "-h" },
	{ 0, "--version" },
	{ 0, "help" },
	{ 0, "help dump" },
	{ 0, "dump --help" },
	{ 0, "diff -h" },
	{ 2, "" },
	{ 2, "nosuch" },
	{ 2, "help nosuch" },
	{ 2, "help dump show" },
	{ 2, "--nosuch" },
	/* info, reset, config */
	{ 2, "info extra" },
	{ 2, "info --bogus" },
	{ 2, "info -i" },
	{ 2, "info -i x" },
	{ 2, "info -i -1" },
	{ 2, "info --interval 3601" },
	{ 2, "reset now" },
	{ 2, "config frob" },
	{ 2, "config show extra" },
	{ 2, "config set" },
	{ 2, "config set bogus 1" },
	{ 2, "config set recording" },
	{ 2, "config set recording maybe" },
	{ 2, "config set groups irq,bogus" },
	{ 2, "config set groups ," },
	{ 2, "config set groups none,irq" },
	{ 2, "config set nic-irqs 1,x" },
	{ 2, "config set nic-irqs 24," },
	{ 2, "config set cpus 0-x" },
	{ 2, "config set cpus 3-1" },
	{ 2, "config set cpus 1 cpus 2" },
	/* dump, watch, show */
	{ 2, "dump extra" },
	{ 2, "dump --nosuch" },
	{ 2, "dump --cpu" },
	{ 2, "dump --cpu x" },
	{ 2, "dump --cpu 99999" },
	{ 2, "dump -i 1" },
	{ 2, "watch -i 0" },
	{ 2, "watch -i abc" },
	{ 2, "watch -n 0" },
	{ 2, "watch -n 1.5" },
	{ 2, "watch extra" },
	{ 2, "show" },
	{ 2, "show a b" },
	{ 2, "show " C "stock.json --stage nosuch" },
	{ 0, "show " C "stock.json" },
	{ 0, "show " C "rt.json -j --per-cpu --ns --all" },
	{ 0, "show " C "rt.json --cpu 1 --stage hardirq,irq_thread" },
	{ 2, "show " C "rt.json --cpu 5" },
	{ 2, "show " C "rt.json --cpu 1-3" },
	{ 0, "show " C "small.json --all" },
	{ 0, "show " C "small.json --wide --per-cpu" },
	{ 6, "show /nonexistent.json" },
	{ 6, "show /dev/zero" },
	{ 6, "show " TEST_DIR "/Makefile" },
	{ 6, "show " O "bad-schema.json" },
	/* save */
	{ 2, "save" },
	{ 2, "save a b" },
	{ 2, "save x.json --note" },
	{ 2, "save x.json --load notjson" },
	{ 2, "save x.json --load [1]" },
	/* diff */
	{ 2, "diff" },
	{ 2, "diff a" },
	{ 2, "diff a b c" },
	{ 2, "diff a b --per-cpu" },
	{ 6, "diff /nonexistent.json " C "rt.json" },
	{ 6, "diff " C "rt.json /nonexistent.json" },
	{ 0, "diff " C "stock.json " C "rt.json" },
	{ 0, "diff " C "stock.json " C "rt.json -j" },
	{ 7, "diff " C "stock.json " O "no-packets.json" },
	{ 7, "diff " O "no-packets.json " C "rt.json" },
	/* tasks */
	{ 2, "tasks x" },
	{ 2, "tasks --per-cpu" },
	{ 0, "help tasks" },
	/* plot */
	{ 2, "plot" },
	{ 2, "plot " C "stock.json" },
	{ 2, "plot a b c -o x.svg" },
	{ 2, "plot -o" },
	{ 6, "plot /nonexistent.json -o " O "x.svg" },
	{ 7, "plot " O "no-packets.json -o " O "x.svg" },
	{ 0, "plot " C "stock.json -o " O "cmdline.svg" },
	/* export */
	{ 2, "export" },
	{ 2, "export --json" },
	{ 2, "export --prometheus a b" },
	{ 6, "export --prometheus --snapshot /nonexistent.json" },
	{ 0, "export --prometheus --snapshot " C "stock.json" },
	{ 0, "export --prometheus -o " O "x.prom --snapshot " C "rt.json" },
	{ 0, "export --prometheus --snapshot " C "rt.json -o -" },
	{ 2, "export --prometheus " O "x.prom --snapshot " C "rt.json" },
	{ 2, "export --prometheus -o" },
	/* soak and run answer -h themselves */
	{ 0, "soak -h" },
	{ 0, "help soak" },
	{ 0, "run --help" },
	{ 0, "help run" },
	{ 2, "soak -d x" },
	{ 2, "run" },
	{ 2, "run -o " O "r.json" },
	{ 2, "run --external" },
	{ 2, "run --external --gen -r0 -o " O "r.json" },
	{ 2, "run --external -d 0 -o " O "r.json" },
	{ 2, "run --external -d abc -o " O "r.json" },
	{ 2, "run --external --sink-prefix in-ns -o " O "r.json" },
	{ 2, "run --external -o " O "r.json extra" },
	{ 2, "run --gen -l5 -o " O "r.json" },
	{ 2, "run --gen 'x -o " O "r.json" },
	{ 1, "run --external -o /nonexistent/r.json" },
	{ 1, "run --external -o " O },
};

/* the live commands: exit 3 on a host where the module is not loaded */
static const struct cmdline_case live_cases[] = {
	{ 3, "info" },
	{ 3, "info -j" },
	{ 3, "info -i 0.5 -j" },
	{ 3, "info --interval 0" },
	{ 3, "dump" },
	{ 3, "dump -j --per-cpu" },
	{ 3, "reset" },
	{ 3, "tasks" },
	{ 3, "tasks -j" },
	{ 3, "config" },
	{ 3, "config show -j" },
	{ 3, "config set recording on" },
	{ 3, "config set groups none" },
	{ 3, "config set nic-irqs auto cpus 0-1 groups all recording off" },
	{ 3, "watch -n 1 -i 0.1" },
	{ 3, "save " O "live.json --note x" },
	{ 3, "export --prometheus" },
	{ 3, "run --external -d 1 -o " O "live-run.json" },
};

/* run - netcost with @args split at blanks; returns its exit status */
static int run(const char *args)
{
	char *copy = strdup(args), *argv[32], *save = NULL, *tok;
	int argc = 0, status;
	pid_t pid;

	argv[argc++] = (char *)NETCOST_BIN;
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (!getenv("CMDLINE_VERBOSE"))
			dup2(null, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	free(copy);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * run_out - netcost with @args, stdout to @out; returns its exit status
 * and its stderr in @err
 */
static int run_out(const char *args, const char *out, char *err, size_t errlen)
{
	char *copy = strdup(args), *argv[32], *save = NULL, *tok;
	int argc = 0, status, pfd[2];
	ssize_t n;
	size_t len = 0;
	pid_t pid;

	argv[argc++] = (char *)NETCOST_BIN;
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	argv[argc] = NULL;
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open(out, O_WRONLY);

		dup2(fd, STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	while (len + 1 < errlen && (n = read(pfd[0], err + len, errlen - len - 1)) > 0)
		len += (size_t)n;
	err[len] = '\0';
	close(pfd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	free(copy);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * issue 11, bug 4: output into a full device ended with exit 0 (show,
 * diff) or exit 1 without a word (plot, export).  Each must fail with
 * exit 1 and say why.
 */
static void test_write_errors(void **state)
{
	static const char *const args[] = {
		"show " C "stock.json",
		"show " C "rt.json -j",
		"diff " C "stock.json " C "rt.json",
		"diff " C "stock.json " C "rt.json -j",
		"export --prometheus --snapshot " C "rt.json",
		"plot " C "rt.json -o -",
		"help",
		"--version",
	};
	char err[4096];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		int rc = run_out(args[i], "/dev/full", err, sizeof(err));

		if (rc != 1 || !strstr(err, "No space left on device"))
			fail_msg("netcost %s > /dev/full: exit %d, stderr \"%s\"", args[i], rc, err);
	}
	assert_int_equal(run_out("plot " C "rt.json -o /dev/full", "/dev/null", err, sizeof(err)), 1);
	assert_non_null(strstr(err, "/dev/full"));
}

static int check(const struct cmdline_case *c, size_t n)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int rc = run(c[i].args);

		if (rc != c[i].rc) {
			print_error("netcost %s: exit %d, want %d\n", c[i].args, rc, c[i].rc);
			bad++;
		}
	}
	return bad;
}

/* the files some cases need: one without packets, one of a newer schema */
static int setup(void **state)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	FILE *f;

	(void)state;
	nc_model_init(m);
	synth_model(m, false, true);
	m->cpus[0].counter[NETCOST_CTR_RX_PACKETS] = m->cpus[1].counter[NETCOST_CTR_RX_PACKETS] = 0;
	m->cpus[0].counter[NETCOST_CTR_TX_PACKETS] = m->cpus[1].counter[NETCOST_CTR_TX_PACKETS] = 0;
	assert_int_equal(nc_snapshot_save(m, O "no-packets.json"), 0);
	nc_model_free(m);
	free(m);
	f = fopen(O "bad-schema.json", "w");
	assert_non_null(f);
	fputs("{\"schema\": 99, \"tool\": \"netcost\"}\n", f);
	fclose(f);
	return 0;
}

/* copy - @from into @to, byte for byte */
static void copy(const char *from, const char *to)
{
	char buf[65536];
	FILE *a = fopen(from, "r"), *b = fopen(to, "w");
	size_t n;

	assert_non_null(a);
	assert_non_null(b);
	while ((n = fread(buf, 1, sizeof(buf), a)) > 0)
		assert_int_equal(fwrite(buf, 1, n, b), n);
	fclose(a);
	fclose(b);
}

/* same_file - whether two files hold the same bytes */
static bool same_file(const char *x, const char *y)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", x, y);
	return system(cmd) == 0;
}

/*
 * issue 11, bugs 2 and 3: "plot" wrote with fopen(out, "w"): over a
 * snapshot, through a symlink, and "-o -" made a file named "-".
 */
static void test_plot_keeps_files(void **state)
{
	struct stat st;

	(void)state;
	copy(C "stock.json", O "snap-copy.json");
	assert_int_equal(run("plot " C "rt.json -o " O "snap-copy.json"), 1);
	assert_true(same_file(C "stock.json", O "snap-copy.json"));

	unlink(O "link.svg");
	copy(TEST_DIR "/Makefile", O "target.svg");
	assert_int_equal(symlink("target.svg", O "link.svg"), 0);
	assert_int_equal(run("plot " C "rt.json -o " O "link.svg"), 1);
	assert_true(same_file(TEST_DIR "/Makefile", O "target.svg"));
	assert_int_equal(lstat(O "link.svg", &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	unlink(O "-");
	assert_int_equal(run("plot " C "rt.json -o -"), 0);
	assert_int_equal(access(O "-", F_OK), -1);
}

/*
 * issue 11, bug 5: "export --prometheus FILE" took FILE as its output, so
 * "export --prometheus rt.json" replaced the snapshot.  The output is
 * -o FILE; an operand is a usage error and touches nothing.
 */
static void test_export_keeps_snapshot(void **state)
{
	(void)state;
	copy(C "rt.json", O "export-snap.json");
	assert_int_equal(run("export --prometheus " O "export-snap.json"), 2);
	assert_true(same_file(C "rt.json", O "export-snap.json"));
	assert_int_equal(run("export --prometheus --snapshot " C "rt.json -o " O "export-snap.json"), 1);
	assert_true(same_file(C "rt.json", O "export-snap.json"));
}

/* issue 11: a usage error points to the help of its command */
static void test_usage_points_to_help(void **state)
{
	static const char *const args[][2] = {
		{ "show a b", "Try 'netcost help show'" },
		{ "diff a", "Try 'netcost help diff'" },
		{ "export --prometheus x", "Try 'netcost help export'" },
		{ "run --external", "Try 'netcost help run'" },
		{ "help nosuch", "Try 'netcost help'" },
	};
	char err[4096];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		assert_int_equal(run_out(args[i][0], "/dev/null", err, sizeof(err)), 2);
		if (!strstr(err, args[i][1]))
			fail_msg("netcost %s: stderr \"%s\" lacks \"%s\"", args[i][0], err, args[i][1]);
	}
}

/* issue 11: text fits 100 columns by default; --wide has every column */
static void test_width(void **state)
{
	static const char *const args[] = {
		"show " C "rt.json --all --per-cpu",
		"show " C "stock.json --ns --all",
		"diff " C "stock.json " C "rt.json",
		"help show",
		"--help",
	};
	char err[4096], line[1024];
	unsigned int i;
	size_t max;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		fclose(fopen(O "width.txt", "w"));
		assert_int_equal(run_out(args[i], O "width.txt", err, sizeof(err)), 0);
		f = fopen(O "width.txt", "r");
		assert_non_null(f);
		for (max = 0; fgets(line, sizeof(line), f); )
			if (strlen(line) - 1 > max)
				max = strlen(line) - 1;
		fclose(f);
		if (max > 100)
			fail_msg("netcost %s: a line of %zu columns", args[i], max);
	}
	fclose(fopen(O "width.txt", "w"));
	assert_int_equal(run_out("show " C "rt.json --wide", O "width.txt", err, sizeof(err)), 0);
	f = fopen(O "width.txt", "r");
	assert_non_null(f);
	for (max = 0; fgets(line, sizeof(line), f); )
		if (strstr(line, "p99.9") && strstr(line, "p90"))
			max = 1;
	fclose(f);
	assert_true(max == 1);
}

static void test_table(void **state)
{
	(void)state;
	assert_int_equal(check(cases, sizeof(cases) / sizeof(cases[0])), 0);
}

static void test_live_without_module(void **state)
{
	(void)state;
	if (run("info") != 3)
		skip();		/* the module is loaded here */
	assert_int_equal(check(live_cases, sizeof(live_cases) / sizeof(live_cases[0])), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_plot_keeps_files),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_export_keeps_snapshot),
		cmocka_unit_test(test_usage_points_to_help),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_live_without_module),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
