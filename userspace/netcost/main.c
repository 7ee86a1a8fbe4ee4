// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - "netcost CMD ...": the subcommand table, "netcost help [CMD]"
 * and "netcost --version".  Each subcommand lives in the file of its name
 * and returns the process exit status (netcost(8), EXIT STATUS).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "uapi/netcost.h"
#include "common.h"
#include "report.h"
#include "snapshot.h"
#include "cmds.h"

struct nc_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;		/* after "netcost " */
	const char *summary;
	bool own_help;			/* it answers -h/--help itself */
};

static const struct nc_cmd nc_cmds[] = {
	{ "info", cmd_info, "info [-j] [-i SECONDS]",
	  "the module and kernel, the preemption model, what is recorded, the probes and their cost", false },
	{ "dump", cmd_dump, "dump [-j] [--per-cpu] [--cpu LIST] [--stage LIST] [--ns] [--all] [--wide]",
	  "cost of each stage per packet since the last reset", false },
	{ "tasks", cmd_tasks, "tasks [-j]",
	  "who holds the task table's slots now: pid, name, kind, open frames", false },
	{ "reset", cmd_reset, "reset",
	  "clear all statistics (starts a new interval)", false },
	{ "config", cmd_config,
	  "config [show] [-j]\n"
	  "       netcost config set [nic-irqs auto|LIST] [cpus LIST]\n"
	  "                          [groups irq,softirq,net,sched,syscall,wait|all|none] [recording on|off]\n"
	  "                          [sample N]",
	  "show or change what the module records", false },
	{ "watch", cmd_watch, "watch [-i SECONDS] [-n COUNT] [-j] [dump options]",
	  "live per-interval costs (q or Ctrl-C quits)", false },
	{ "save", cmd_save, "save FILE [--note TEXT] [--load JSON]",
	  "write the statistics, with where and when they were taken, to a file", false },
	{ "show", cmd_show, "show FILE [-j] [dump options]",
	  "print a snapshot exactly as dump would", false },
	{ "diff", cmd_diff, "diff A B [-j] [--basis rx|tx]",
	  "compare two snapshots stage by stage", false },
	{ "plot", cmd_plot, "plot A [B] -o FILE.svg",
	  "SVG chart: cost per packet by stage, and each stage's histograms", false },
	{ "export", cmd_export, "export --prometheus [--per-cpu] [--snapshot FILE] [-o FILE]",
	  "Prometheus text format (node_exporter textfile collector)", false },
	{ "soak", cmd_soak, "soak [-d SECONDS] [-i INTERVAL] [--calibrate] [--calib-seconds S] [--calib-file PATH] [-j] [-q]",
	  "measure the CPU load of each CPU by what a low-priority spinner is left", true },
	{ "run", cmd_run,
	  "run (--gen 'ARGS' [--sink 'ARGS'] [--sink-prefix 'CMD'] | --external)\n"
	  "                   [-d SECONDS] -o FILE [--note TEXT] [--calibrate] [-j]",
	  "one measurement: reset, load the network, record, save, account for the CPU time", true },
};

/* nc_usage - the command list, on @f */
static void nc_usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: netcost [--version] [--help] CMD [ARGS]\n\n"
		"netcost measures the CPU cycles each stage of the Linux packet path costs.\n\n"
		"commands:\n");
	for (i = 0; i < ARRAY_SIZE(nc_cmds); i++)
		fprintf(f, "  %-8s %s\n", nc_cmds[i].name, nc_cmds[i].summary);
	fprintf(f, "\n'netcost help CMD' shows a command's usage; netcost(8) has the rest.\n");
}

/* nc_find_cmd - the table entry of @name, or NULL */
static const struct nc_cmd *nc_find_cmd(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nc_cmds); i++)
		if (!strcmp(nc_cmds[i].name, name))
			return &nc_cmds[i];
	return NULL;
}

/* nc_cmd_help - "netcost help CMD": usage and summary of one command */
static int nc_cmd_help(const char *name)
{
	const struct nc_cmd *cmd = nc_find_cmd(name);

	if (!cmd)
		return nc_usage_err("no command '%s'", name);
	if (cmd->own_help) {
		char *argv[] = { (char *)cmd->name, "--help", NULL };

		return cmd->fn(2, argv);
	}
	printf("usage: netcost %s\n\n%s.\n", cmd->usage, cmd->summary);
	if (!strcmp(name, "dump") || !strcmp(name, "show") || !strcmp(name, "watch"))
		printf("\noptions:\n" NC_REPORT_OPTS_HELP_TEXT);
	if (!strcmp(name, "export"))
		printf("\noptions:\n"
		       "      --prometheus     the Prometheus text format: all-CPU histograms and counters\n"
		       "      --per-cpu        also the per-CPU series (netcost_cpu_*)\n"
		       "      --snapshot FILE  export a snapshot file instead of the live module\n"
		       "  -o, --output FILE    write FILE (replaced whole; '-' or none: stdout)\n");
	return NC_EXIT_OK;
}

/*
 * nc_close_stdout - flush and close standard output and say when that, or
 * any write before it, failed (a full disk, a closed pipe): a report that
 * did not reach its reader must not end in exit 0.  Returns the status.
 */
static int nc_close_stdout(int ret)
{
	bool bad = ferror(stdout);
	int err = errno;

	errno = 0;
	if (fclose(stdout) == EOF || bad) {
		if (errno)
			err = errno;
		nc_err("cannot write to standard output: %s", err ? strerror(err) : "write error");
		return ret ? ret : NC_EXIT_ERROR;
	}
	return ret;
}

static int nc_main(int argc, char **argv)
{
	const struct nc_cmd *cmd;

	if (argc < 2) {
		nc_usage(stderr);
		return NC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		nc_usage(stdout);
		return NC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("netcost %s (netlink family %s v%d, snapshot schema %d)\n",
		       NETCOST_VERSION, NETCOST_GENL_NAME, NETCOST_GENL_VERSION,
		       NC_SNAPSHOT_SCHEMA);
		return NC_EXIT_OK;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc > 3)
			return nc_usage_err("help: one command at a time");
		if (argc == 3)
			return nc_cmd_help(argv[2]);
		nc_usage(stdout);
		return NC_EXIT_OK;
	}
	cmd = nc_find_cmd(argv[1]);
	if (!cmd) {
		nc_err("no command '%s'", argv[1]);
		nc_usage(stderr);
		return NC_EXIT_USAGE;
	}
	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) &&
	    !cmd->own_help)
		return nc_cmd_help(cmd->name);
	nc_cmd_name = cmd->name;
	return cmd->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	return nc_close_stdout(nc_main(argc, argv));
}
