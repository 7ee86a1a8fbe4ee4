// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - "netcost run [--gen 'ARGS' | --external] [--duration S] -o FILE
 * [--note TEXT] [-j]": one whole measurement in one command.
 *
 *  1. calibrate the soak if its cached calibration is missing or stale
 *     (announced on stderr: a freshly booted lab guest always does);
 *  2. reset the module's statistics, then start the soak (one SCHED_IDLE
 *     spinner per CPU, lib/soak.c), so that both windows start together
 *     and the reset's own work is in neither;
 *  3. with --gen, start "netcost-gen sink" (behind --sink-prefix, e.g.
 *     in-ns), wait for its --ready-file (inotify, no sleeps), start
 *     "netcost-gen send ARGS -l DURATION"; with --external, just wait;
 *  4. sample the soak every second for --duration, with a progress bar on
 *     a terminal (plain lines otherwise, on stderr);
 *  5. wait for the sender to end and the sink to get its FIN (SIGINT, then
 *     SIGKILL, to our own children only when they overstay), take the
 *     last soak sample, read the module, stop the soak, and save the
 *     snapshot with the snapshot code of "netcost save" (meta.load: the
 *     arguments and both JSON results; meta.soak: the soak's statistics,
 *     its calibration and the closure);
 *  6. print the dump report (report.c, as "dump") and the closure.
 *
 * The accounting closure (what the soak lost against what netcost, the
 * probes and the processes account for) is described and computed in
 * lib/closure.c; nc_run_closure() hands it the numbers.  Process handling
 * is lib/child.c, the task clocks lib/perf.c, what is kept of the run
 * lib/result.c, the children's command lines lib/runargs.c.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "closure.h"
#include "perf.h"
#include "progress.h"
#include "report.h"
#include "result.h"
#include "runargs.h"
#include "snapshot.h"
#include "soak.h"
#include "stats.h"
#include "cmds.h"

#define NSEC_PER_SEC	1000000000ull
#define NC_RUN_READY_S	30		/* s the sink may take to bind */
#define NC_RUN_GRACE_S	15		/* s past --duration: the sender's end */
#define NC_RUN_SINK_S	5		/* s the sink may outlive the sender */
#define NC_RUN_KILL_S	5		/* s from SIGINT to SIGKILL */

enum { NC_SINK, NC_SENDER, NC_NR_CHILDREN };

static volatile sig_atomic_t nc_run_stop;

/* nc_run_on_signal - Ctrl-C or SIGTERM: end the recording early */
static void nc_run_on_signal(int sig)
{
	(void)sig;
	nc_run_stop = 1;
}

struct nc_run {
	struct nc_run_opts o;
	char gen_path[PATH_MAX];
	char tmpdir[PATH_MAX];
	char ready[PATH_MAX + 16];
	struct nc_nl nl;
	bool nl_open;
	char calib_path[4096];
	struct soak_calib cal;
	const char *why;		/* why calibrated; NULL: cached */
	struct soak *soak;
	int ncpus;
	int *cpus;
	double *load;			/* [ncpus] the last sample */
	json_t *series;
	uint64_t t0;			/* the soak's start */
	uint64_t t_end;			/* the last sample */
	struct nc_child child[NC_NR_CHILDREN];
	struct nc_child self;		/* the main thread's counters only */
	struct rusage self0, self1;
	double *self_base;		/* [ncpus] its task clocks at the start */
	long long irq0, irq1;		/* /proc/stat hard IRQ time, -1: unknown */
	bool interrupted;
	struct nc_progress progress;	/* on stderr */
};

/* ---- the children ---- */

/*
 * nc_run_poll - wait up to @ms for output or the end of the sink or the
 * sender (or @extra_fd to become readable), then drain and reap them.
 * Returns whether @extra_fd is readable.
 */
static bool nc_run_poll(struct nc_run *r, int ms, int extra_fd)
{
	struct nc_child *all[NC_NR_CHILDREN] = { &r->child[NC_SINK], &r->child[NC_SENDER] };

	return nc_children_poll(all, NC_NR_CHILDREN, ms, extra_fd);
}

/* nc_run_perf_hook - a child's task-clock counters, before it may exec */
static void nc_run_perf_hook(struct nc_child *ch, void *arg)
{
	struct nc_run *r = arg;

	nc_perf_open(ch, r->cpus, r->ncpus, ch->pid, true);
}

/* ---- recording ---- */

/* nc_run_sample - one soak sample: the series, the progress */
static void nc_run_sample(struct nc_run *r, const char *state)
{
	double total = soak_sample(r->soak, r->load);
	json_t *cpus = json_array();

	r->t_end = nc_now_ns();
	for (int i = 0; i < r->ncpus; i++)
		json_array_append_new(cpus, json_real(r->load[i]));
	json_array_append_new(r->series, json_pack("{s:f, s:f, s:o}",
		"t", (r->t_end - r->t0) / 1e9, "total", total, "cpus", cpus));
	nc_progress_show(&r->progress, (r->t_end - r->t0) / 1e9, r->o.duration, total,
			 r->cpus, r->load, r->ncpus, state);
}

/*
 * nc_run_watchdog - the stop rules while the children run: Ctrl-C stops
 * the sender (its FIN then stops the sink); the rest is
 * nc_child_pair_watchdog() with run's limits.
 */
static void nc_run_watchdog(struct nc_run *r, uint64_t now)
{
	uint64_t end = r->t0 + (uint64_t)((r->o.duration + NC_RUN_GRACE_S) * NSEC_PER_SEC);

	if (nc_run_stop && !r->interrupted) {
		r->interrupted = true;
		nc_child_signal(&r->child[NC_SENDER], SIGINT);
	}
	nc_child_pair_watchdog(&r->child[NC_SENDER], &r->child[NC_SINK], now, end,
			       NC_RUN_SINK_S * NSEC_PER_SEC, NC_RUN_KILL_S * NSEC_PER_SEC);
}

/*
 * nc_run_record - sample every second until the children are done (with
 * --gen) or --duration is over (--external), then the last, partial
 * sample: the soak's window ends here.
 */
static void nc_run_record(struct nc_run *r)
{
	uint64_t next = r->t0 + NSEC_PER_SEC;
	uint64_t end = r->t0 + (uint64_t)(r->o.duration * NSEC_PER_SEC);
	bool gen = !r->o.external;

	for (;;) {
		uint64_t now = nc_now_ns();
		const char *state = NULL;

		if (gen && !nc_child_running(&r->child[NC_SENDER]) &&
		    !nc_child_running(&r->child[NC_SINK]))
			break;
		if (!gen && (now >= end || nc_run_stop)) {
			r->interrupted = nc_run_stop;
			break;
		}
		if (gen)
			nc_run_watchdog(r, now);
		if (now >= next) {
			if (now >= end)
				state = r->child[NC_SENDER].exited ? "waiting for the sink" :
					"waiting for the sender's end";
			nc_run_sample(r, state);
			next += NSEC_PER_SEC;
			if (next <= now)	/* a stall: no burst of short samples */
				next = now + NSEC_PER_SEC;
			continue;
		}
		if (gen)
			nc_run_poll(r, nc_ms_until(next), -1);
		else
			nc_run_poll(r, nc_ms_until(next < end ? next : end), -1);
	}
	nc_run_sample(r, "done");
	nc_progress_end(&r->progress);
	getrusage(RUSAGE_THREAD, &r->self1);
	nc_perf_read(&r->self, r->ncpus, r->self_base, true);
	r->irq1 = nc_proc_irq_ticks(NULL);
}

/* ---- results ---- */

/*
 * nc_run_closure - the closure over the soak's CPUs: the module's stages
 * and probes, each child and run's main thread (see the top of the file)
 */
static void nc_run_closure(struct nc_run *r, const struct nc_model *m,
			   const struct soak_result *res, struct nc_closure *cl)
{
	static const char *const names[] = {
		[NC_SINK] = "sink (netcost-gen sink)",
		[NC_SENDER] = "sender (netcost-gen send)",
	};
	nc_closure_init(cl, m->info.tsc_khz, res->seconds, res->ncpus, res->cpu,
			res->busy_s, NULL);
	nc_closure_add_model(cl, m);
	for (int c = 0; !r->o.external && c < NC_NR_CHILDREN; c++)
		if (!nc_result_closure_child(cl, names[c], &r->child[c]))
			break;
	nc_result_closure_self(cl, "netcost run (main thread)", &r->self, &r->self0, &r->self1);
	/* interrupts in the tasks' time: /proc/stat's irq column stood still */
	if (!r->o.external)
		nc_closure_add_overlap(cl, m, r->irq0 < 0 || r->irq1 <= r->irq0);
	nc_closure_finish(cl);
}

/* ---- the command ---- */

/* nc_run_announce - "run: sink: CMD" on stderr */
static void nc_run_announce(const struct nc_child *ch, const char *extra)
{
	char *cmd = nc_argv_join(&ch->argv);

	fprintf(stderr, "run: %s: %s%s\n", ch->role, cmd, extra);
	free(cmd);
}

/*
 * nc_run_check_gen - the sender's and the sink's command lines with
 * --check: netcost-gen parses them (and resolves the addresses) and
 * exits, so that a typo in --gen is reported before the module is
 * touched (RESET would wipe its statistics).  Its message goes to our
 * stderr.  Returns 0, or NC_EXIT_USAGE.
 */
static int nc_run_check_gen(const struct nc_run *r)
{
	static const char *const who[NC_NR_CHILDREN] = { "--sink", "--gen" };
	unsigned int c;

	for (c = 0; c < NC_NR_CHILDREN; c++) {
		const struct nc_argv *a = &r->child[c].argv;
		struct nc_argv chk = { 0 };
		int i, status = -1;
		pid_t pid;

		/* from netcost-gen on: the --sink-prefix (in-ns) is not ours to run */
		for (i = 0; i < a->argc && strcmp(a->argv[i], r->gen_path); i++)
			;
		for (; i < a->argc; i++)
			nc_argv_push(&chk, a->argv[i]);
		nc_argv_push(&chk, "--check");
		fflush(NULL);
		pid = fork();
		if (!pid) {
			execv(chk.argv[0], chk.argv);
			_exit(127);
		}
		if (pid > 0)
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
		nc_argv_free(&chk);
		if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			nc_err("run: netcost-gen refused the %s arguments (above); nothing was reset",
			       who[c]);
			return NC_EXIT_USAGE;
		}
	}
	return NC_EXIT_OK;
}

/*
 * nc_run_setup - everything before the recording: the module (INFO:
 * loaded, same release, recording) and the soak's calibration
 */
static int nc_run_setup(struct nc_run *r)
{
	struct nc_info info;
	int ret;

	ret = nc_nl_open(&r->nl);
	if (ret)
		return ret;
	r->nl_open = true;
	ret = nc_fetch_info(&r->nl, &info);
	if (ret)
		return ret;
	if (!info.config.recording)
		nc_warn("run: the module's recording is off ('netcost config set recording on')");
	/*
	 * jansson seeds its hash tables from /dev/urandom with the first
	 * object; early after boot that runs the kernel's jitter entropy
	 * collector, a second of CPU: let it happen outside the window.
	 */
	json_decref(json_object());
	ret = nc_soak_calib_path("run", r->o.calib_file, r->calib_path, sizeof(r->calib_path));
	if (ret)
		return ret;
	ret = nc_soak_calib("run", r->o.calibrate, r->o.calib_seconds, r->calib_path,
			    stderr, &r->cal, &r->why);
	if (ret)
		return ret;
	if (!r->why)
		fprintf(stderr, "run: soak calibration from %s (%.0f min old)\n",
			r->calib_path, difftime(time(NULL), r->cal.timestamp) / 60);
	return NC_EXIT_OK;
}

/*
 * nc_run_start - the reset, the soak, then the sink and the sender.  The
 * reset comes first: it may take a while (it clears every CPU's
 * statistics), and that is not the load's CPU time.
 */
static int nc_run_start(struct nc_run *r)
{
	int ret;

	/*
	 * The soak spins on every CPU of the calibration.  The main thread's
	 * counters open first: the first perf event of a boot patches the
	 * scheduler's static keys, slow enough on an emulated CPU to show.
	 */
	r->ncpus = r->cal.ncpus;
	r->cpus = nc_xcalloc(r->ncpus, sizeof(*r->cpus));
	r->load = nc_xcalloc(r->ncpus, sizeof(*r->load));
	r->self_base = nc_xcalloc(r->ncpus, sizeof(*r->self_base));
	memcpy(r->cpus, r->cal.cpu, r->ncpus * sizeof(*r->cpus));
	r->series = json_array();
	nc_perf_open(&r->self, r->cpus, r->ncpus, (pid_t)syscall(SYS_gettid), false);

	ret = nc_nl_talk(&r->nl, nc_nl_request(&r->nl, NETCOST_CMD_RESET, 0), NULL, NULL);
	if (ret)
		return ret;
	r->soak = soak_start(&r->cal, 0);
	if (!r->soak) {
		nc_err("run: starting the soak: %s", strerror(errno));
		return NC_EXIT_ERROR;
	}
	r->t0 = nc_now_ns();
	nc_perf_read(&r->self, r->ncpus, NULL, false);
	memcpy(r->self_base, r->self.task_ns, r->ncpus * sizeof(*r->self_base));
	getrusage(RUSAGE_THREAD, &r->self0);
	r->irq0 = nc_proc_irq_ticks(NULL);

	if (r->o.external) {
		fprintf(stderr, "run: recording %g s of external load\n", r->o.duration);
		return NC_EXIT_OK;
	}
	nc_run_announce(&r->child[NC_SINK], "");
	ret = nc_child_spawn_ready(&r->child[NC_SINK], nc_run_perf_hook, r, r->tmpdir,
				   r->ready, NC_RUN_READY_S, &nc_run_stop);
	if (ret)
		return ret;
	nc_run_announce(&r->child[NC_SENDER], "");
	return nc_child_spawn(&r->child[NC_SENDER], nc_run_perf_hook, r);
}

/* nc_run_finish - read the module, save the snapshot, print the results */
static int nc_run_finish(struct nc_run *r, const struct nc_argv *gen,
			 const struct nc_argv *sink)
{
	struct nc_report_opts ro = { 0 };
	struct soak_result res;
	struct nc_closure cl;
	struct nc_model *m;
	json_t *soak, *packets;
	char kept[PATH_MAX + 64];
	int ret, saved;

	m = nc_xcalloc(1, sizeof(*m));
	nc_model_init(m);
	ret = nc_fetch(&r->nl, m);
	soak_stop(r->soak, &res);
	r->soak = NULL;
	{
		char msg[1024];	/* the soak slowed the load down (lib/soak.h) */

		if (soak_starved_msg(&res, msg, sizeof(msg)))
			nc_warn("run: %s", msg);
	}
	if (ret)
		goto out_free_model;

	for (int c = 0; !r->o.external && c < NC_NR_CHILDREN; c++)
		nc_child_parse_result(&r->child[c]);
	nc_result_warn(&r->child[NC_SENDER], &r->child[NC_SINK], r->interrupted,
		       (r->t_end - r->t0) / 1e9);
	nc_run_closure(r, m, &res, &cl);
	packets = nc_result_packets(m, r->child[NC_SENDER].result, r->child[NC_SINK].result);
	soak = nc_soak_json(&res, &r->cal, r->calib_path, r->why, 1.0, json_incref(r->series));
	json_object_set_new(soak, "closure", nc_closure_to_json(&cl));
	nc_meta_collect(&m->meta, &m->info, r->o.note);
	m->meta.load = nc_result_load_json(&r->o, (r->t_end - r->t0) / 1e9, r->interrupted,
					   gen, sink, &r->child[NC_SENDER],
					   &r->child[NC_SINK], r->cpus, r->ncpus);
	m->meta.soak = soak;
	m->has_meta = true;
	/* a failed save must not lose the run: report it all the same */
	saved = nc_result_save(m, r->o.out, kept, sizeof(kept));
	if (r->o.json) {
		json_t *o = json_pack("{s:s?, s:b, s:f, s:O, s:o, s:O}",
				      "snapshot", *kept ? kept : NULL, "saved", !saved,
				      "recorded_s", (r->t_end - r->t0) / 1e9,
				      "calibration", json_object_get(soak, "calibration"),
				      "packets", packets,
				      "closure", json_object_get(soak, "closure"));

		packets = NULL;
		ret = nc_json_print(stdout, o, 2);
		json_decref(o);
	} else {
		ret = nc_report_print(stdout, m, &ro);
		nc_result_print_packets(stdout, packets);
		nc_closure_print(stdout, &cl);
		if (!saved)
			printf("snapshot: %s\n", r->o.out);
		else if (*kept)
			printf("snapshot: NOT saved to %s; kept in %s\n", r->o.out, kept);
		else
			printf("snapshot: NOT saved to %s, nor kept anywhere\n", r->o.out);
	}
	if (saved)
		ret = saved;
	json_decref(packets);
	nc_closure_free(&cl);
out_free_model:
	soak_result_free(&res);
	nc_model_free(m);
	free(m);
	return ret;
}

/* nc_run_free - undo everything that nc_run_setup() and the run made */
static void nc_run_free(struct nc_run *r)
{
	struct nc_child *all[] = { &r->child[NC_SINK], &r->child[NC_SENDER], &r->self };

	if (r->soak)
		soak_stop(r->soak, NULL);
	for (unsigned int c = 0; c < ARRAY_SIZE(all); c++) {
		struct nc_child *ch = all[c];

		nc_perf_close(ch, r->ncpus);
		json_decref(ch->result);
		ch->result = NULL;
		nc_child_free(ch);
	}
	if (*r->ready)
		unlink(r->ready);
	if (*r->tmpdir)
		rmdir(r->tmpdir);
	if (r->nl_open)
		nc_nl_close(&r->nl);
	soak_calib_free(&r->cal);
	json_decref(r->series);
	free(r->cpus);
	free(r->load);
	free(r->self_base);
}

/* cmd_run - "netcost run" */
int cmd_run(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = nc_run_on_signal }, old_int, old_term;
	struct nc_argv gen = { 0 }, sink = { 0 };
	struct nc_run *r = nc_xcalloc(1, sizeof(*r));
	struct nc_child *all[NC_NR_CHILDREN] = { &r->child[NC_SINK], &r->child[NC_SENDER] };
	const char *tmp = getenv("TMPDIR");
	int ret;

	r->o.duration = 10;
	r->o.calib_seconds = 3;
	nc_child_init(&r->child[NC_SINK], "sink");
	nc_child_init(&r->child[NC_SENDER], "sender");
	nc_child_init(&r->self, "netcost run");
	ret = nc_run_parse(argc, argv, &r->o);
	if (ret == NC_RUN_HELP) {
		nc_run_usage(stdout);
		ret = NC_EXIT_OK;
		goto out;
	}
	if (ret)
		goto out;
	r->progress = (struct nc_progress){ .f = stderr, .who = "run",
					    .tty = isatty(STDERR_FILENO) };
	ret = nc_result_check_target("run", r->o.out);
	if (ret)
		goto out;
	if (!r->o.external) {
		snprintf(r->tmpdir, sizeof(r->tmpdir), "%s/netcost-run.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(r->tmpdir)) {
			nc_err("run: cannot make a folder in %s: %s",
			       tmp && *tmp ? tmp : "/tmp", strerror(errno));
			*r->tmpdir = '\0';
			ret = NC_EXIT_ERROR;
			goto out;
		}
		snprintf(r->ready, sizeof(r->ready), "%s/ready", r->tmpdir);
	}
	if (!r->o.external) {
		ret = nc_find_exec("run", "netcost-gen", "NETCOST_GEN", r->gen_path,
				   sizeof(r->gen_path));
		if (!ret)
			ret = nc_run_children_argv(&r->o, r->gen_path, r->ready, &gen, &sink,
						   &r->child[NC_SINK].argv,
						   &r->child[NC_SENDER].argv);
		if (!ret)
			ret = nc_run_check_gen(r);
	}
	if (!ret)
		ret = nc_run_setup(r);
	if (ret)
		goto out;

	nc_run_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	ret = nc_run_start(r);
	if (!ret) {
		nc_run_record(r);
		for (int c = 0; c < NC_NR_CHILDREN; c++) {
			nc_perf_close(&r->child[c], r->ncpus);
			if (nc_child_failed(&r->child[c])) {
				nc_child_report(&r->child[c]);
				ret = NC_EXIT_ERROR;
			}
		}
	}
	nc_children_stop(all, NC_NR_CHILDREN, NC_RUN_KILL_S);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (!ret)
		ret = nc_run_finish(r, &gen, &sink);
out:
	nc_run_free(r);
	nc_argv_free(&gen);
	nc_argv_free(&sink);
	free(r);
	return ret;
}
