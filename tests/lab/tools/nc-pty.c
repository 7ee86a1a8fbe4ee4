// SPDX-License-Identifier: GPL-2.0
/*
 * nc-pty - (guest test tool) run a command on a pseudo-terminal, as a
 * person at a terminal would, then press a key or send a signal.
 *
 *   nc-pty [-k KEY | -s SIGNAL] -t SECONDS -- COMMAND [ARGS...]
 *
 * Copies everything the command writes to stdout.  After SECONDS, types
 * KEY (default "q") or sends SIGNAL to the command; exits with the
 * command's status (128 + signal if it died of one), or 124 if it was
 * still running 10 s later (then it is killed).
 */
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *key = "q";
	double after = 3, t0, deadline;
	int sig = 0, c, fd, status;
	struct winsize ws = { .ws_row = 40, .ws_col = 120 };
	bool acted = false;
	pid_t pid;

	while ((c = getopt(argc, argv, "k:s:t:")) != -1) {
		switch (c) {
		case 'k': key = optarg; break;
		case 's': sig = atoi(optarg); break;
		case 't': after = atof(optarg); break;
		default: goto usage;
		}
	}
	if (optind >= argc)
		goto usage;

	pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid < 0) {
		perror("nc-pty: forkpty");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[optind], argv + optind);
		perror("nc-pty: exec");
		_exit(127);
	}
	t0 = now();
	deadline = t0 + after + 10;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[4096];
		ssize_t n;

		if (!acted && now() >= t0 + after) {
			if (sig)
				kill(pid, sig);
			else if (write(fd, key, strlen(key)) < 0)
				perror("nc-pty: write");
			acted = true;
		}
		if (now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fprintf(stderr, "nc-pty: still running 10 s after the %s\n",
				sig ? "signal" : "key");
			return 124;
		}
		if (poll(&p, 1, 100) > 0) {
			n = read(fd, buf, sizeof(buf));
			if (n <= 0)	/* EIO: the command closed the terminal */
				break;
			fwrite(buf, 1, n, stdout);
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			goto done;
	}
	waitpid(pid, &status, 0);
done:
	fflush(stdout);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
usage:
	fprintf(stderr, "usage: nc-pty [-k KEY | -s SIGNAL] -t SECONDS -- COMMAND [ARGS...]\n");
	return 2;
}
