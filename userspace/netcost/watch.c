// SPDX-License-Identifier: GPL-2.0
/*
 * watch.c - "netcost watch [-i SECONDS] [-n COUNT] [-j] [dump options]":
 * the dump report of each interval's delta, redrawn in place on a
 * terminal (q or Ctrl-C quits, the terminal is restored), appended as
 * plain reports (or one JSON line per interval with -j) when piped.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

static volatile sig_atomic_t nc_watch_stop;

/* nc_watch_sigint - Ctrl-C: finish the current wait and leave cleanly */
static void nc_watch_sigint(int sig)
{
	(void)sig;
	nc_watch_stop = 1;
}

/*
 * nc_watch_wait - wait @secs, or less when q is typed (tty) or Ctrl-C
 * comes.  Returns true when the user asked to quit.
 */
static bool nc_watch_wait(double secs, bool keys)
{
	struct timespec end, now;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)secs;
	end.tv_nsec += (long)((secs - floor(secs)) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	while (!nc_watch_stop) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		long ms;
		char c;

		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (end.tv_sec - now.tv_sec) * 1000 + (end.tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0)
			return false;
		if (!keys) {
			struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

			nanosleep(&ts, NULL);	/* EINTR on Ctrl-C */
			continue;
		}
		if (poll(&pfd, 1, (int)ms) > 0 && read(STDIN_FILENO, &c, 1) == 1 &&
		    (c == 'q' || c == 'Q'))
			return true;
	}
	return true;
}

/*
 * nc_watch_loop - read, wait, read again, print the delta; repeat.  The
 * socket stays open across intervals.
 */
static int nc_watch_loop(const struct nc_report_opts *o, bool tty, bool keys)
{
	struct nc_model *m = nc_xcalloc(3, sizeof(*m));
	struct nc_model *prev = &m[0], *cur = &m[1], *delta = &m[2];
	struct nc_nl nl;
	long n;
	int ret;

	ret = nc_nl_open(&nl);
	if (ret)
		goto out_free;
	nc_model_init(prev);
	nc_model_init(cur);
	ret = nc_fetch(&nl, prev);
	for (n = 0; !ret && (!o->count || n < o->count); n++) {
		struct nc_model *tmp;

		if (nc_watch_wait(o->interval, keys))
			break;
		ret = nc_fetch(&nl, cur);
		if (ret)
			break;
		nc_model_init(delta);
		ret = nc_model_delta(delta, cur, prev);
		if (!ret) {
			if (tty && !o->json)
				fputs("\033[H\033[2J", stdout);
			ret = nc_report_print(stdout, delta, o);
			if (!o->json)
				printf(tty ? "\n(every %.1f s; q or Ctrl-C quits)\n" : "\n",
				       o->interval);
			fflush(stdout);
		}
		nc_model_free(delta);
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	nc_model_free(prev);
	nc_model_free(cur);
	nc_nl_close(&nl);
out_free:
	free(m);
	return ret;
}

/* cmd_watch - "netcost watch" */
int cmd_watch(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = nc_watch_sigint };
	struct nc_report_opts o;
	struct termios saved, raw;
	bool tty = isatty(STDOUT_FILENO);
	bool keys = tty && isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved);
	int ret;

	ret = nc_report_getopt(argc, argv, &o, 0, 0, true);
	if (ret)
		return ret;
	o.json_lines = true;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (keys) {
		/* no line buffering or echo, so that q alone quits */
		raw = saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	ret = nc_watch_loop(&o, tty, keys);
	if (keys)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	return ret;
}
