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
 * The accounting closure (lib/closure.c does the arithmetic).  The soak's
 * spinner runs whenever nothing else wants a CPU, so what it lost is the
 * CPU time everything else consumed -- interrupts, softirqs, IRQ threads,
 * the scheduler, processes, kernel threads, netcost's own probes:
 *
 *   consumed(cpu)  = sum over samples of load % / 100 x sample length
 *                    x tsc_khz x 1000                     (cycles)
 *
 * What netcost accounts for, CPU by CPU:
 *
 *   kernel    hardirq + hardirq_other + softirq_net_rx + softirq_net_tx
 *             + softirq_other + (irq_thread - net_rx_in_irq_thread_cycles)
 *             + ctx_switch: the stages that are CPU work of their own.
 *             irq_thread includes the NET_RX it runs at local_bh_enable(),
 *             which softirq_net_rx counts too, so that part is taken off.
 *             napi_poll, rx_skb and tx_xmit are nested in these and
 *             wakeup_latency is waiting, so none of them is added.
 *   probes    probe_hits x the probe cost INFO reports: the module's own
 *             consumption, partly outside every stage's clock.
 *   processes the sink's and the sender's utime + stime (wait4() rusage:
 *             the whole process, exec to exit, wrappers such as in-ns
 *             included) and the main thread of netcost run itself
 *             (RUSAGE_THREAD; the spinners are not counted, they are the
 *             measure).  syscall_rx and syscall_tx are inside stime and
 *             are not added.  Per CPU, a process's time is split by its
 *             task-clock on each CPU (perf_event_open(), inherited by its
 *             threads); without perf the per-CPU view is incomplete.
 *
 *   counted twice (negative) what a process's time holds that a kernel
 *             line holds too (lib/closure.c, nc_closure_add_overlap()):
 *             a context switch into a process runs on that process's
 *             clock (the CPU's mean ctx_switch x the processes' nvcsw +
 *             nivcsw); and when the kernel charges interrupts to the task
 *             they interrupt (no CONFIG_IRQ_TIME_ACCOUNTING, as Debian
 *             builds it: /proc/stat's irq column then stands still), the
 *             NET_RX the processes ran in their local_bh_enable()
 *             (measured) and, CPU by CPU, their share P/T of its
 *             interrupt-context work (hard IRQs, NET_RX in irq_exit, on a
 *             stock kernel the other softirqs too), interrupts arriving
 *             whichever task runs.  Without this line the closure of a
 *             stock kernel under a network load goes 20-30% negative.
 *
 *   unexplained = consumed - (kernel + probes + processes - counted twice),
 *                 in % of consumed, per CPU and in total.
 *
 * It is not forced to close: what is left is shown as it is.  Known
 * reasons for a remainder: timer and IPI interrupts (system vectors, not
 * irq_handler_entry), kernel threads (kworkers, RCU), parts of IRQ threads
 * and ksoftirqd outside the measured handler runs, and the soak's own
 * noise: on an emulated SMP guest (TCG) a vCPU's loop rate follows the
 * host's scheduling, so the calibration's spread is the error bar.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "closure.h"
#include "perf.h"
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
#define NC_RUN_BAR	30		/* progress bar width */

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
	bool tty;			/* stderr is a terminal */
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
	bool progress_open;		/* a tty bar waits for its newline */
};

/*
 * nc_run_proc_irq - the "irq" column of /proc/stat's "cpu" line: hard IRQ
 * time, which only a kernel that keeps interrupt time out of the tasks'
 * time (CONFIG_IRQ_TIME_ACCOUNTING) counts.  -1 when unreadable.
 */
static long long nc_run_proc_irq(void)
{
	unsigned long long v[6];
	FILE *f = fopen("/proc/stat", "r");
	int n = 0;

	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5]);
	fclose(f);
	return n == 6 ? (long long)v[5] : -1;
}

/*
 * nc_run_check_out - fail early when the snapshot cannot be written: its
 * folder must exist and be writable (the file itself is replaced).
 */
static int nc_run_check_out(const char *path)
{
	char *copy = nc_xstrdup(path);
	const char *dir = dirname(copy);
	struct stat st;
	int ret = NC_EXIT_OK;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		nc_err("run: -o %s is a directory; name the snapshot file", path);
		ret = NC_EXIT_ERROR;
	} else if (access(dir, W_OK | X_OK)) {
		nc_err("run: cannot write the snapshot into %s: %s", dir, strerror(errno));
		ret = NC_EXIT_ERROR;
	}
	free(copy);
	return ret;
}

/* nc_run_exec_ok - @path names an executable regular file */
static bool nc_run_exec_ok(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/*
 * nc_run_find_gen - netcost-gen: $NETCOST_GEN, else next to this netcost
 * (/proc/self/exe), else the first on PATH.  An absolute path, so that a
 * --sink-prefix command runs the same one.
 */
static int nc_run_find_gen(char *buf, size_t len)
{
	const char *env = getenv("NETCOST_GEN"), *path = getenv("PATH");
	char exe[PATH_MAX], *dir, *copy, *save = NULL;
	ssize_t n;

	if (env && *env) {
		if (nc_run_exec_ok(env) && realpath(env, buf))
			return NC_EXIT_OK;
		nc_err("run: NETCOST_GEN=%s is not an executable file", env);
		return NC_EXIT_ERROR;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(buf, len, "%s/netcost-gen", dirname(exe));
		if (nc_run_exec_ok(buf))
			return NC_EXIT_OK;
	}
	copy = nc_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/netcost-gen", *dir ? dir : ".");
		if (nc_run_exec_ok(buf) && realpath(buf, exe)) {
			snprintf(buf, len, "%s", exe);
			free(copy);
			return NC_EXIT_OK;
		}
	}
	free(copy);
	nc_err("run: cannot find netcost-gen (not in $NETCOST_GEN, next to netcost, or on PATH)");
	return NC_EXIT_ERROR;
}

/* ---- per-CPU task clocks ---- */

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

/* nc_run_ms_until - ms from now to @t, at least 0 */
static int nc_run_ms_until(uint64_t t)
{
	uint64_t now = nc_now_ns();

	return t > now ? (int)((t - now + 999999) / 1000000) : 0;
}

/*
 * nc_run_start_sink - the sink with --ready-file in a fresh folder, then
 * wait (inotify on the folder) until the file appears or the sink ends.
 */
static int nc_run_start_sink(struct nc_run *r)
{
	struct nc_child *ch = &r->child[NC_SINK];
	uint64_t deadline;
	struct stat st;
	int ino, ret;

	ino = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ino < 0 || inotify_add_watch(ino, r->tmpdir, IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
		nc_err("run: inotify on %s: %s", r->tmpdir, strerror(errno));
		if (ino >= 0)
			close(ino);
		return NC_EXIT_ERROR;
	}
	ret = nc_child_spawn(ch, nc_run_perf_hook, r);
	deadline = nc_now_ns() + NC_RUN_READY_S * NSEC_PER_SEC;
	while (!ret && stat(r->ready, &st)) {
		char ev[4096];

		if (nc_child_reap(ch)) {
			nc_run_poll(r, 0, -1);	/* what it said before it died */
			if (!nc_child_failed(ch))
				nc_err("run: the sink ended before it was ready");
			nc_child_report(ch);
			ret = NC_EXIT_ERROR;
		} else if (nc_now_ns() >= deadline) {
			nc_err("run: the sink is not ready after %d s", NC_RUN_READY_S);
			ret = NC_EXIT_ERROR;
		} else if (nc_run_stop) {
			nc_err("run: interrupted");
			ret = NC_EXIT_ERROR;
		} else if (nc_run_poll(r, nc_run_ms_until(deadline), ino)) {
			while (read(ino, ev, sizeof(ev)) > 0)
				;
		}
	}
	close(ino);
	return ret;
}

/* ---- recording ---- */

/* nc_run_progress - the bar (tty) or a line per sample, on stderr */
static void nc_run_progress(struct nc_run *r, double total, const char *state)
{
	double t = (nc_now_ns() - r->t0) / 1e9;
	double done = t / r->o.duration;
	char bar[NC_RUN_BAR + 1];
	int fill;

	if (r->tty) {
		fill = (int)(fmin(done, 1) * NC_RUN_BAR);
		memset(bar, '#', fill);
		memset(bar + fill, '-', NC_RUN_BAR - fill);
		bar[NC_RUN_BAR] = '\0';
		fprintf(stderr, "\r\033[Krun [%s] %5.1f/%g s  load %5.1f%%", bar, t,
			r->o.duration, total);
	} else {
		fprintf(stderr, "run: %6.1f/%g s  load %5.1f%% ", t, r->o.duration, total);
	}
	for (int i = 0; i < r->ncpus; i++)
		fprintf(stderr, " cpu%d %5.1f%%", r->cpus[i], r->load[i]);
	if (state)
		fprintf(stderr, "  %s", state);
	if (!r->tty)
		fputc('\n', stderr);
	r->progress_open = r->tty;
	fflush(stderr);
}

/* nc_run_progress_end - end the tty bar's line */
static void nc_run_progress_end(struct nc_run *r)
{
	if (r->progress_open)
		fputc('\n', stderr);
	r->progress_open = false;
}

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
	nc_run_progress(r, total, state);
}

/*
 * nc_run_watchdog - the stop rules while the children run: Ctrl-C stops
 * the sender (its FIN then stops the sink); a sender past --duration +
 * NC_RUN_GRACE_S, or a sink that outlives the sender by NC_RUN_SINK_S,
 * gets SIGINT; anything NC_RUN_KILL_S after SIGINT gets SIGKILL; a child
 * that fails stops the other one.
 */
static void nc_run_watchdog(struct nc_run *r, uint64_t now)
{
	struct nc_child *snd = &r->child[NC_SENDER], *snk = &r->child[NC_SINK];
	uint64_t end = r->t0 + (uint64_t)((r->o.duration + NC_RUN_GRACE_S) * NSEC_PER_SEC);

	if (nc_run_stop && !r->interrupted) {
		r->interrupted = true;
		nc_child_signal(snd, SIGINT);
	}
	if (now > end)
		nc_child_signal(snd, SIGINT);
	if (snd->exited && now > snd->exit_ns + NC_RUN_SINK_S * NSEC_PER_SEC)
		nc_child_signal(snk, SIGINT);
	if (nc_child_failed(snd) || nc_child_failed(snk)) {
		nc_child_signal(snd, SIGINT);
		nc_child_signal(snk, SIGINT);
	}
	for (int c = 0; c < NC_NR_CHILDREN; c++) {
		struct nc_child *ch = &r->child[c];

		if (ch->int_ns && !ch->killed &&
		    now > ch->int_ns + NC_RUN_KILL_S * NSEC_PER_SEC)
			nc_child_signal(ch, SIGKILL);
	}
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
			nc_run_poll(r, nc_run_ms_until(next), -1);
		else
			nc_run_poll(r, nc_run_ms_until(next < end ? next : end), -1);
	}
	nc_run_sample(r, "done");
	nc_run_progress_end(r);
	getrusage(RUSAGE_THREAD, &r->self1);
	nc_perf_read(&r->self, r->ncpus, r->self_base, true);
	r->irq1 = nc_run_proc_irq();
}

/* ---- results ---- */

/* nc_run_tv - a timeval in seconds */
static double nc_run_tv(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* nc_child_json - what the snapshot keeps of a child besides its result */
static json_t *nc_child_json(const struct nc_run *r, const struct nc_child *ch)
{
	json_t *tc = json_null();
	char *cmd = nc_argv_join(&ch->argv);
	json_t *o;

	if (ch->perf_ok) {
		tc = json_array();
		for (int i = 0; i < r->ncpus; i++)
			json_array_append_new(tc, json_pack("{s:i, s:f}", "cpu", r->cpus[i],
				"task_clock_s", ch->task_ns[i] / 1e9));
	}
	o = json_pack("{s:s, s:i, s:i, s:f, s:f, s:I, s:I, s:b, s:o}",
		      "command", cmd, "pid", (int)ch->pid,
		      "exit", WIFEXITED(ch->status) ? WEXITSTATUS(ch->status) : -1,
		      "utime_s", nc_run_tv(ch->ru.ru_utime),
		      "stime_s", nc_run_tv(ch->ru.ru_stime),
		      "nvcsw", (json_int_t)ch->ru.ru_nvcsw,
		      "nivcsw", (json_int_t)ch->ru.ru_nivcsw,
		      "stopped_by_run", ch->int_ns != 0, "per_cpu", tc);
	free(cmd);
	return o;
}

/* nc_run_load_json - meta.load: what ran, for how long, what it said */
static json_t *nc_run_load_json(const struct nc_run *r, const struct nc_argv *gen,
				const struct nc_argv *sink)
{
	json_t *o = json_object();
	char *s;

	json_object_set_new(o, "tool", json_string("netcost run"));
	json_object_set_new(o, "duration_s", json_real(r->o.duration));
	json_object_set_new(o, "recorded_s", json_real((r->t_end - r->t0) / 1e9));
	json_object_set_new(o, "interrupted", json_boolean(r->interrupted));
	if (r->o.external) {
		json_object_set_new(o, "external", json_true());
		return o;
	}
	s = nc_argv_join(gen);
	json_object_set_new(o, "gen_args", json_string(s));
	free(s);
	s = nc_argv_join(sink);
	json_object_set_new(o, "sink_args", json_string(s));
	free(s);
	json_object_set_new(o, "sink_prefix", r->o.sink_prefix ?
			    json_string(r->o.sink_prefix) : json_null());
	json_object_set_new(o, "sender", r->child[NC_SENDER].result ?
			    json_incref(r->child[NC_SENDER].result) : json_null());
	json_object_set_new(o, "sink", r->child[NC_SINK].result ?
			    json_incref(r->child[NC_SINK].result) : json_null());
	json_object_set_new(o, "processes", json_pack("{s:o, s:o}",
		"sender", nc_child_json(r, &r->child[NC_SENDER]),
		"sink", nc_child_json(r, &r->child[NC_SINK])));
	return o;
}

/* nc_run_cpu_s - a rusage's utime + stime in seconds */
static double nc_run_cpu_s(const struct rusage *ru)
{
	return nc_run_tv(ru->ru_utime) + nc_run_tv(ru->ru_stime);
}

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
	struct nc_cl_line *l;
	double self_s;

	nc_closure_init(cl, m->info.tsc_khz, res->seconds, res->ncpus, res->cpu,
			res->busy_s, NULL);
	nc_closure_add_model(cl, m);
	for (int c = 0; !r->o.external && c < NC_NR_CHILDREN; c++) {
		const struct nc_child *ch = &r->child[c];
		json_t *cpu = json_object_get(ch->result, "cpu_s");

		l = nc_closure_add_process(cl, names[c], nc_run_cpu_s(&ch->ru),
					   ch->perf_ok ? ch->task_ns : NULL);
		if (!l)
			break;
		l->switches = ch->ru.ru_nvcsw + ch->ru.ru_nivcsw;
		snprintf(l->what, sizeof(l->what), "utime %.3f + stime %.3f s%s",
			 nc_run_tv(ch->ru.ru_utime), nc_run_tv(ch->ru.ru_stime),
			 json_is_number(cpu) ? "" : " (no JSON result)");
		if (json_is_number(cpu))
			snprintf(l->what + strlen(l->what), sizeof(l->what) - strlen(l->what),
				 "; its JSON: %.3f s", json_number_value(cpu));
	}
	self_s = nc_run_cpu_s(&r->self1) - nc_run_cpu_s(&r->self0);
	l = nc_closure_add_process(cl, "netcost run (main thread)", self_s,
				   r->self.perf_ok ? r->self.task_ns : NULL);
	if (l) {
		snprintf(l->what, sizeof(l->what), "RUSAGE_THREAD");
		l->switches = r->self1.ru_nvcsw + r->self1.ru_nivcsw -
			      r->self0.ru_nvcsw - r->self0.ru_nivcsw;
	}
	/* interrupts in the tasks' time: /proc/stat's irq column stood still */
	if (!r->o.external)
		nc_closure_add_overlap(cl, m, r->irq0 < 0 || r->irq1 <= r->irq0);
	nc_closure_finish(cl);
}

/* nc_run_u64 - an integer member of a JSON object, 0 if absent */
static uint64_t nc_run_u64(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

/*
 * nc_run_packets - rx_packets against what reached the sink's UDP layer:
 * the datagrams it received plus those its receive buffer dropped (both
 * went into the stack; ARP, FINs and the REPORT add a few), as JSON
 */
static json_t *nc_run_packets(const struct nc_run *r, const struct nc_model *m)
{
	uint64_t rx = nc_cpu_counter(m, &m->total, "rx_packets");
	json_t *snk = r->child[NC_SINK].result, *snd = r->child[NC_SENDER].result;
	json_t *drops = json_object_get(snk, "socket_drops");
	json_t *o;

	o = json_pack("{s:I, s:I}", "rx_packets", (json_int_t)rx, "tx_packets",
		      (json_int_t)nc_cpu_counter(m, &m->total, "tx_packets"));
	if (snd)
		json_object_set_new(o, "sender_messages",
				    json_integer((json_int_t)nc_run_u64(snd, "messages")));
	if (snk) {
		double got = nc_run_u64(snk, "messages") + nc_run_u64(snk, "socket_drops");

		json_object_set_new(o, "sink_messages",
				    json_integer((json_int_t)nc_run_u64(snk, "messages")));
		json_object_set_new(o, "sink_loss",
				    json_integer((json_int_t)nc_run_u64(snk, "loss")));
		json_object_set_new(o, "sink_socket_drops", json_incref(drops));
		json_object_set_new(o, "rx_minus_sink", json_integer((json_int_t)(rx - got)));
		if (got > 0)
			json_object_set_new(o, "rx_vs_sink_pct", json_real(100 * (rx - got) / got));
	}
	return o;
}

/* nc_run_print_packets - the packet line under the dump report */
static void nc_run_print_packets(json_t *p)
{
	json_t *sent = json_object_get(p, "sender_messages");
	json_t *got = json_object_get(p, "sink_messages");
	json_t *drops = json_object_get(p, "sink_socket_drops");
	json_t *pct = json_object_get(p, "rx_vs_sink_pct");

	printf("\npackets: rx_packets %llu (module, both NICs)",
	       (unsigned long long)nc_run_u64(p, "rx_packets"));
	if (json_is_integer(sent))
		printf("; sender sent %lld", (long long)json_integer_value(sent));
	if (json_is_integer(got))
		printf("; sink received %lld (loss %llu)", (long long)json_integer_value(got),
		       (unsigned long long)nc_run_u64(p, "sink_loss"));
	if (json_is_integer(drops))
		printf(" + %lld dropped at its socket", (long long)json_integer_value(drops));
	if (json_is_number(pct))
		printf(":\n         rx_packets - that = %+lld (%+.2f%%; the FIN/REPORT exchange adds 2 a flow, ARP a few)",
		       (long long)json_integer_value(json_object_get(p, "rx_minus_sink")),
		       json_number_value(pct));
	printf("\n\n");
}

/* nc_run_parse_results - each child's stdout as its JSON result */
static void nc_run_parse_results(struct nc_run *r)
{
	for (int c = 0; !r->o.external && c < NC_NR_CHILDREN; c++) {
		struct nc_child *ch = &r->child[c];
		json_error_t e;

		ch->result = ch->len[0] ? json_loadb(ch->buf[0], ch->len[0], 0, &e) : NULL;
		if (!json_is_object(ch->result)) {
			json_decref(ch->result);
			ch->result = NULL;
			nc_warn("run: the %s printed no JSON result", ch->role);
		}
	}
}

/* nc_run_warn_load - what the results say that a reader should know */
static void nc_run_warn_load(const struct nc_run *r)
{
	json_t *snd = r->child[NC_SENDER].result;

	for (int c = 0; c < NC_NR_CHILDREN; c++)
		if (r->child[c].int_ns && !r->interrupted)
			nc_warn("run: the %s overstayed and was stopped%s", r->child[c].role,
				r->child[c].killed ? " with SIGKILL" : "");
	if (snd && json_is_null(json_object_get(snd, "receiver")))
		nc_warn("run: the sender got no report from the sink (%s)",
			json_string_value(json_object_get(snd, "receiver_missing")) ?: "?");
	if (r->interrupted)
		nc_warn("run: interrupted after %.1f s; the snapshot covers that much",
			(r->t_end - r->t0) / 1e9);
}

/* ---- the command ---- */

/* nc_run_children_argv - the sink's and the sender's command lines */
static int nc_run_children_argv(struct nc_run *r, struct nc_argv *gen,
				struct nc_argv *sink)
{
	struct nc_argv *snk = &r->child[NC_SINK].argv, *snd = &r->child[NC_SENDER].argv;
	char dur[32];

	if (nc_argv_split(gen, r->o.gen))
		return nc_usage_err("run: --gen: unbalanced quote in '%s'", r->o.gen);
	if (nc_argv_has(gen, 'l', NULL))
		return nc_usage_err("run: --gen: no -l, the sender runs for --duration");
	nc_sink_args_from_gen(gen, sink);
	if (r->o.sink && nc_argv_split(sink, r->o.sink))
		return nc_usage_err("run: --sink: unbalanced quote in '%s'", r->o.sink);
	if (r->o.sink_prefix && nc_argv_split(snk, r->o.sink_prefix))
		return nc_usage_err("run: --sink-prefix: unbalanced quote in '%s'",
				    r->o.sink_prefix);
	nc_argv_push(snk, r->gen_path);
	nc_argv_push(snk, "sink");
	nc_argv_append(snk, sink);
	nc_argv_push(snk, "-j");
	nc_argv_push(snk, "-q");
	nc_argv_push(snk, "--ready-file");
	nc_argv_push(snk, r->ready);

	snprintf(dur, sizeof(dur), "%g", r->o.duration);
	nc_argv_push(snd, r->gen_path);
	nc_argv_push(snd, "send");
	nc_argv_append(snd, gen);
	nc_argv_push(snd, "-l");
	nc_argv_push(snd, dur);
	nc_argv_push(snd, "-j");
	nc_argv_push(snd, "-q");
	return NC_EXIT_OK;
}

/* nc_run_announce - "run: sink: CMD" on stderr */
static void nc_run_announce(const struct nc_child *ch, const char *extra)
{
	char *cmd = nc_argv_join(&ch->argv);

	fprintf(stderr, "run: %s: %s%s\n", ch->role, cmd, extra);
	free(cmd);
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
	r->irq0 = nc_run_proc_irq();

	if (r->o.external) {
		fprintf(stderr, "run: recording %g s of external load\n", r->o.duration);
		return NC_EXIT_OK;
	}
	nc_run_announce(&r->child[NC_SINK], "");
	ret = nc_run_start_sink(r);
	if (ret)
		return ret;
	nc_run_announce(&r->child[NC_SENDER], "");
	return nc_child_spawn(&r->child[NC_SENDER], nc_run_perf_hook, r);
}

/* nc_run_stop_all - on failure: stop what still runs and reap it */
static void nc_run_stop_all(struct nc_run *r)
{
	uint64_t kill_at = nc_now_ns() + NC_RUN_KILL_S * NSEC_PER_SEC;

	for (int c = 0; c < NC_NR_CHILDREN; c++)
		nc_child_signal(&r->child[c], SIGINT);
	while (nc_child_running(&r->child[NC_SINK]) ||
	       nc_child_running(&r->child[NC_SENDER])) {
		if (nc_now_ns() > kill_at)
			for (int c = 0; c < NC_NR_CHILDREN; c++)
				nc_child_signal(&r->child[c], SIGKILL);
		nc_run_poll(r, 100, -1);
	}
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

	nc_run_parse_results(r);
	nc_run_warn_load(r);
	nc_run_closure(r, m, &res, &cl);
	packets = nc_run_packets(r, m);
	soak = nc_soak_json(&res, &r->cal, r->calib_path, r->why, 1.0, json_incref(r->series));
	json_object_set_new(soak, "closure", nc_closure_to_json(&cl));
	nc_meta_collect(&m->meta, &m->info, r->o.note);
	m->meta.load = nc_run_load_json(r, gen, sink);
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
		nc_run_print_packets(packets);
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
	r->tty = isatty(STDERR_FILENO);
	ret = nc_run_check_out(r->o.out);
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
		ret = nc_run_find_gen(r->gen_path, sizeof(r->gen_path));
		if (!ret)
			ret = nc_run_children_argv(r, &gen, &sink);
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
	nc_run_stop_all(r);
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
