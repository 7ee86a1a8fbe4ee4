// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - spawn, drain, reap, signal and poll the processes "netcost
 * run" starts; see child.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	char c = 0;

	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		nc_err("run: pipe: %s", strerror(errno));
		return NC_EXIT_ERROR;
	}
	ch->pid = fork();
	if (ch->pid < 0) {
		nc_err("run: fork: %s", strerror(errno));
		return NC_EXIT_ERROR;
	}
	if (!ch->pid) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		if (close_range(3, ~0U, 0))
			for (int fd = 3; fd < 1024; fd++)
				close(fd);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(ch->argv.argv[0], ch->argv.argv);
		dprintf(STDERR_FILENO, "netcost run: cannot run %s: %s\n",
			ch->argv.argv[0], strerror(errno));
		_exit(127);
	}
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
