// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - spawn, drain, reap, signal and poll the processes "netcost
 * run" starts; see child.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "common.h"

/* nc_now_ns - CLOCK_MONOTONIC in ns */
uint64_t nc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* nc_child_init - an empty, unstarted child */
void nc_child_init(struct nc_child *ch, const char *role)
{
	memset(ch, 0, sizeof(*ch));
	ch->role = role;
	ch->pidfd = ch->fd[0] = ch->fd[1] = -1;
}

/* nc_child_running - started and not yet reaped */
bool nc_child_running(const struct nc_child *ch)
{
	return ch->pid > 0 && !ch->exited;
}

/*
 * nc_child_spawn - fork and exec @ch->argv with stdout and stderr into
 * pipes.  The child waits on a pipe until @hook (if any) has run, so
 * that task-clock counters it opens count the child from its exec.
 */
int nc_child_spawn(struct nc_child *ch, nc_child_hook hook, void *arg)
{
	int out[2], err[2], go[2];
	sigset_t stop, mask;
	char c = 0;

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		nc_err("run: pipe: %s", strerror(errno));
		return NC_EXIT_ERROR;
	}
	/*
	 * netcost stops its children with SIGINT and SIGTERM, which a
	 * netcost started in the background of a script inherits ignored,
	 * and so would its child: a signal that finds them ignored is lost.
	 * Blocked across the fork, they stay pending in the child until it
	 * has set them back to their default.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &mask);
	ch->pid = fork();
	if (ch->pid < 0) {
		sigprocmask(SIG_SETMASK, &mask, NULL);
		nc_err("run: fork: %s", strerror(errno));
		return NC_EXIT_ERROR;
	}
	if (!ch->pid) {
		int null = open("/dev/null", O_RDONLY);

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigprocmask(SIG_SETMASK, &mask, NULL);
		dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (close_range(3, ~0U, 0))
			for (int fd = 3; fd < 1024; fd++)
				close(fd);
		execvp(ch->argv.argv[0], ch->argv.argv);
		dprintf(STDERR_FILENO, "netcost run: cannot run %s: %s\n",
			ch->argv.argv[0], strerror(errno));
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	close(out[1]);
	close(err[1]);
	close(go[0]);
	ch->fd[0] = out[0];
	ch->fd[1] = err[0];
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
#ifdef SYS_pidfd_open
	ch->pidfd = syscall(SYS_pidfd_open, ch->pid, 0);
#endif
	if (hook)
		hook(ch, arg);
	if (write(go[1], &c, 1) != 1)
		nc_warn("run: cannot start the %s: %s", ch->role, strerror(errno));
	close(go[1]);
	return NC_EXIT_OK;
}

/* nc_child_drain - take what child pipe @i (0 stdout, 1 stderr) holds */
void nc_child_drain(struct nc_child *ch, int i)
{
	size_t keep = i ? NC_CHILD_ERR_KEEP : NC_CHILD_OUT_KEEP;
	char tmp[4096];
	ssize_t n;

	while (ch->fd[i] >= 0) {
		n = read(ch->fd[i], tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			close(ch->fd[i]);
			ch->fd[i] = -1;
			return;
		}
		if (ch->len[i] + n > keep)
			n = keep > ch->len[i] ? (ssize_t)(keep - ch->len[i]) : 0;
		ch->buf[i] = nc_xrealloc(ch->buf[i], ch->len[i] + n + 1);
		memcpy(ch->buf[i] + ch->len[i], tmp, n);
		ch->len[i] += n;
		ch->buf[i][ch->len[i]] = '\0';
	}
}

/* nc_child_reap - wait4() it without blocking; true once it has ended */
bool nc_child_reap(struct nc_child *ch)
{
	pid_t p;

	if (!nc_child_running(ch))
		return ch->exited;
	p = wait4(ch->pid, &ch->status, WNOHANG, &ch->ru);
	if (p != ch->pid)
		return false;
	ch->exited = true;
	ch->exit_ns = nc_now_ns();
	if (ch->pidfd >= 0) {
		close(ch->pidfd);
		ch->pidfd = -1;
	}
	return true;
}

/*
 * nc_child_signal - send @sig to our own child, if it still runs; SIGINT
 * (or any other) and SIGKILL once each
 */
void nc_child_signal(struct nc_child *ch, int sig)
{
	if (!nc_child_running(ch) || (sig == SIGKILL ? ch->killed : ch->int_ns != 0))
		return;
	if (sig == SIGKILL)
		ch->killed = true;
	else
		ch->int_ns = nc_now_ns();
	kill(ch->pid, sig);
}

/* nc_child_failed - it ended badly: not exit 0, unless run stopped it */
bool nc_child_failed(const struct nc_child *ch)
{
	if (!ch->exited)
		return false;
	if (WIFEXITED(ch->status))
		return WEXITSTATUS(ch->status) != 0;
	return !ch->int_ns && !ch->killed;
}

/* nc_child_report - why a child failed, with its stderr, on stderr */
void nc_child_report(const struct nc_child *ch)
{
	char *cmd = nc_argv_join(&ch->argv);

	if (WIFEXITED(ch->status))
		nc_err("run: the %s failed (exit %d): %s", ch->role,
		       WEXITSTATUS(ch->status), cmd);
	else
		nc_err("run: the %s was killed by signal %d: %s", ch->role,
		       WTERMSIG(ch->status), cmd);
	if (ch->len[1])
		fprintf(stderr, "%s%s", ch->buf[1],
			ch->buf[1][ch->len[1] - 1] == '\n' ? "" : "\n");
	free(cmd);
}

/*
 * nc_children_poll - wait up to @ms for output or the end of any of the
 * @n children (or @extra_fd to become readable), then drain and reap
 * them all.  Returns whether @extra_fd is readable.
 */
bool nc_children_poll(struct nc_child **chs, unsigned int n, int ms, int extra_fd)
{
	struct pollfd *pfd = nc_xcalloc(3 * n + 1, sizeof(*pfd));
	bool extra = false, no_pidfd = false;
	nfds_t k = 0;
	unsigned int c;

	for (c = 0; c < n; c++) {
		struct nc_child *ch = chs[c];

		for (int i = 0; i < 2; i++)
			if (ch->fd[i] >= 0)
				pfd[k++] = (struct pollfd){ .fd = ch->fd[i], .events = POLLIN };
		if (ch->pidfd >= 0)
			pfd[k++] = (struct pollfd){ .fd = ch->pidfd, .events = POLLIN };
		else if (nc_child_running(ch))
			no_pidfd = true;
	}
	if (extra_fd >= 0)
		pfd[k++] = (struct pollfd){ .fd = extra_fd, .events = POLLIN };
	if (no_pidfd && ms > 50)
		ms = 50;
	if (poll(pfd, k, ms < 0 ? 0 : ms) > 0 && extra_fd >= 0)
		extra = pfd[k - 1].revents != 0;
	for (c = 0; c < n; c++) {
		nc_child_drain(chs[c], 0);
		nc_child_drain(chs[c], 1);
		nc_child_reap(chs[c]);
	}
	free(pfd);
	return extra;
}

/* nc_child_free - close what is open and free what it holds (not result) */
void nc_child_free(struct nc_child *ch)
{
	for (int i = 0; i < 2; i++) {
		if (ch->fd[i] >= 0)
			close(ch->fd[i]);
		ch->fd[i] = -1;
		free(ch->buf[i]);
		ch->buf[i] = NULL;
	}
	if (ch->pidfd >= 0)
		close(ch->pidfd);
	ch->pidfd = -1;
	free(ch->perf);
	free(ch->task_ns);
	ch->perf = NULL;
	ch->task_ns = NULL;
	nc_argv_free(&ch->argv);
}

/* nc_ms_until - ms from now to @t (nc_now_ns()'s clock), at least 0 */
int nc_ms_until(uint64_t t)
{
	uint64_t now = nc_now_ns();

	return t > now ? (int)((t - now + 999999) / 1000000) : 0;
}

/* nc_exec_ok - @path names an executable regular file */
static bool nc_exec_ok(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/*
 * nc_find_exec - the program @name: $@env when set (it must then be
 * executable), else next to this program (/proc/self/exe), else the first
 * on PATH.  An absolute path in @buf, so that a wrapper command (run's
 * --sink-prefix) runs the same one.  Returns 0, or NC_EXIT_ERROR after
 * printing why, prefixed with @who.
 */
int nc_find_exec(const char *who, const char *name, const char *env, char *buf, size_t len)
{
	const char *val = getenv(env), *path = getenv("PATH");
	char exe[PATH_MAX], *dir, *copy, *save = NULL;
	ssize_t n;

	if (val && *val) {
		if (nc_exec_ok(val) && realpath(val, buf))
			return NC_EXIT_OK;
		nc_err("%s: %s=%s is not an executable file", who, env, val);
		return NC_EXIT_ERROR;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(buf, len, "%s/%s", dirname(exe), name);
		if (nc_exec_ok(buf))
			return NC_EXIT_OK;
	}
	copy = nc_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", *dir ? dir : ".", name);
		if (nc_exec_ok(buf) && realpath(buf, exe)) {
			snprintf(buf, len, "%s", exe);
			free(copy);
			return NC_EXIT_OK;
		}
	}
	free(copy);
	nc_err("%s: cannot find %s (not in $%s, next to %s, or on PATH)", who, name, env,
	       program_invocation_short_name);
	return NC_EXIT_ERROR;
}

/*
 * nc_child_spawn_ready - spawn @ch, then wait until the file @ready
 * appears in the folder @dir (inotify, no sleeps): the child's sign that
 * it is ready (netcost-gen sink --ready-file).  Fails, after saying why,
 * when the child ends first, after @timeout_s, or when *@stop is set.
 */
int nc_child_spawn_ready(struct nc_child *ch, nc_child_hook hook, void *arg,
			 const char *dir, const char *ready, int timeout_s,
			 const volatile sig_atomic_t *stop)
{
	struct nc_child *all[1] = { ch };
	uint64_t deadline;
	struct stat st;
	int ino, ret;

	ino = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ino < 0 || inotify_add_watch(ino, dir, IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
		nc_err("run: inotify on %s: %s", dir, strerror(errno));
		if (ino >= 0)
			close(ino);
		return NC_EXIT_ERROR;
	}
	ret = nc_child_spawn(ch, hook, arg);
	deadline = nc_now_ns() + (uint64_t)timeout_s * 1000000000ull;
	while (!ret && stat(ready, &st)) {
		char ev[4096];

		if (nc_child_reap(ch)) {
			nc_children_poll(all, 1, 0, -1);	/* what it said before it died */
			if (!nc_child_failed(ch))
				nc_err("run: the %s ended before it was ready", ch->role);
			nc_child_report(ch);
			ret = NC_EXIT_ERROR;
		} else if (nc_now_ns() >= deadline) {
			nc_err("run: the %s is not ready after %d s", ch->role, timeout_s);
			ret = NC_EXIT_ERROR;
		} else if (stop && *stop) {
			nc_err("run: interrupted");
			ret = NC_EXIT_ERROR;
		} else if (nc_children_poll(all, 1, nc_ms_until(deadline), ino)) {
			while (read(ino, ev, sizeof(ev)) > 0)
				;
		}
	}
	close(ino);
	return ret;
}

/*
 * nc_children_stop - SIGINT to each of the @n children still running,
 * SIGKILL to those still there @kill_s later; returns when all are reaped
 */
void nc_children_stop(struct nc_child **chs, unsigned int n, int kill_s)
{
	uint64_t kill_at = nc_now_ns() + (uint64_t)kill_s * 1000000000ull;
	bool running = true;
	unsigned int c;

	for (c = 0; c < n; c++)
		nc_child_signal(chs[c], SIGINT);
	while (running) {
		running = false;
		for (c = 0; c < n; c++)
			running |= nc_child_running(chs[c]);
		if (!running)
			break;
		if (nc_now_ns() > kill_at)
			for (c = 0; c < n; c++)
				nc_child_signal(chs[c], SIGKILL);
		nc_children_poll(chs, n, 100, -1);
	}
}

/*
 * nc_child_parse_result - the child's stdout as its JSON result (an
 * object) in ch->result; false, with a warning, when it printed none
 */
bool nc_child_parse_result(struct nc_child *ch)
{
	json_error_t e;

	ch->result = ch->len[0] ? json_loadb(ch->buf[0], ch->len[0], 0, &e) : NULL;
	if (!json_is_object(ch->result)) {
		json_decref(ch->result);
		ch->result = NULL;
		nc_warn("run: the %s printed no JSON result", ch->role);
		return false;
	}
	return true;
}

/* nc_tv_s - a timeval in seconds */
double nc_tv_s(struct timeval tv)
{
	return tv.tv_sec + tv.tv_usec / 1e6;
}

/* nc_rusage_cpu_s - a rusage's utime + stime in seconds */
double nc_rusage_cpu_s(const struct rusage *ru)
{
	return nc_tv_s(ru->ru_utime) + nc_tv_s(ru->ru_stime);
}

/*
 * nc_child_to_json - what a snapshot keeps of a child besides its result:
 * the command, pid, exit status, CPU times, context switches, whether run
 * stopped it, and its task clock on each of the @ncpus CPUs @cpus (null
 * without perf counters)
 */
json_t *nc_child_to_json(const struct nc_child *ch, const int *cpus, int ncpus)
{
	json_t *tc = json_null();
	char *cmd = nc_argv_join(&ch->argv);
	json_t *o;

	if (ch->perf_ok) {
		tc = json_array();
		for (int i = 0; i < ncpus; i++)
			json_array_append_new(tc, json_pack("{s:i, s:f}", "cpu", cpus[i],
				"task_clock_s", ch->task_ns[i] / 1e9));
	}
	o = json_pack("{s:s, s:i, s:i, s:f, s:f, s:I, s:I, s:b, s:o}",
		      "command", cmd, "pid", (int)ch->pid,
		      "exit", WIFEXITED(ch->status) ? WEXITSTATUS(ch->status) : -1,
		      "utime_s", nc_tv_s(ch->ru.ru_utime),
		      "stime_s", nc_tv_s(ch->ru.ru_stime),
		      "nvcsw", (json_int_t)ch->ru.ru_nvcsw,
		      "nivcsw", (json_int_t)ch->ru.ru_nivcsw,
		      "stopped_by_run", ch->int_ns != 0, "per_cpu", tc);
	free(cmd);
	return o;
}

/*
 * nc_child_pair_watchdog - the stop rules while a sender @snd and its
 * sink @snk run, at time @now: a sender past @end gets SIGINT (its FIN
 * then stops the sink); a sink that outlives the sender by @sink_ns gets
 * SIGINT; a child that fails stops the other one; anything @kill_ns after
 * its SIGINT gets SIGKILL.
 */
void nc_child_pair_watchdog(struct nc_child *snd, struct nc_child *snk, uint64_t now,
			    uint64_t end, uint64_t sink_ns, uint64_t kill_ns)
{
	struct nc_child *both[2] = { snd, snk };

	if (now > end)
		nc_child_signal(snd, SIGINT);
	if (snd->exited && now > snd->exit_ns + sink_ns)
		nc_child_signal(snk, SIGINT);
	if (nc_child_failed(snd) || nc_child_failed(snk)) {
		nc_child_signal(snd, SIGINT);
		nc_child_signal(snk, SIGINT);
	}
	for (int c = 0; c < 2; c++)
		if (both[c]->int_ns && !both[c]->killed && now > both[c]->int_ns + kill_ns)
			nc_child_signal(both[c], SIGKILL);
}
