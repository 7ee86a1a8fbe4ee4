// SPDX-License-Identifier: GPL-2.0
/*
 * test_child.c - lib/child.c, the process handling of "netcost run",
 * on shell commands (no module): output and errors are collected through
 * the pipes, the exit status and the hook order are right, a child run
 * stops is not a failure but one that fails on its own is, stderr is
 * capped, and the poll wakes for an extra descriptor.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "child.h"
#include "common.h"

/* sh - a child that runs "sh -c @script" */
static void sh(struct nc_child *ch, const char *role, const char *script)
{
	nc_child_init(ch, role);
	nc_argv_push(&ch->argv, "sh");
	nc_argv_push(&ch->argv, "-c");
	nc_argv_push(&ch->argv, script);
}

/* wait_end - poll until @ch has ended and its pipes are at EOF (10 s at most) */
static void wait_end(struct nc_child *ch)
{
	struct nc_child *all[1] = { ch };
	uint64_t end = nc_now_ns() + 10000000000ull;

	while ((!ch->exited || ch->fd[0] >= 0 || ch->fd[1] >= 0) && nc_now_ns() < end)
		nc_children_poll(all, 1, 100, -1);
	assert_true(ch->exited);
}

static int hook_calls;
static pid_t hook_pid;

static void hook(struct nc_child *ch, void *arg)
{
	hook_calls++;
	hook_pid = ch->pid;
	assert_ptr_equal(arg, &hook_calls);
}

static void test_output_and_status(void **state)
{
	struct nc_child ch;

	(void)state;
	hook_calls = 0;
	sh(&ch, "sink", "echo out; echo err >&2; exit 3");
	assert_int_equal(nc_child_spawn(&ch, hook, &hook_calls), 0);
	assert_int_equal(hook_calls, 1);
	assert_int_equal(hook_pid, ch.pid);
	assert_true(nc_child_running(&ch));
	wait_end(&ch);
	assert_false(nc_child_running(&ch));
	assert_string_equal(ch.buf[0], "out\n");
	assert_string_equal(ch.buf[1], "err\n");
	assert_true(WIFEXITED(ch.status));
	assert_int_equal(WEXITSTATUS(ch.status), 3);
	assert_true(nc_child_failed(&ch));
	nc_err_quiet = true;
	nc_child_report(&ch);
	nc_err_quiet = false;
	assert_non_null(strstr(nc_last_err, "the sink failed (exit 3): sh -c"));
	nc_child_free(&ch);
}

static void test_success(void **state)
{
	struct nc_child ch;

	(void)state;
	sh(&ch, "sender", "printf '{\"ok\": true}'");
	assert_int_equal(nc_child_spawn(&ch, NULL, NULL), 0);
	wait_end(&ch);
	assert_false(nc_child_failed(&ch));
	assert_int_equal(ch.len[0], 12);
	nc_child_free(&ch);
}

/* SIGINT from run is a stop, not a failure; a signal of its own is one */
static void test_signals(void **state)
{
	struct nc_child a, b;

	(void)state;
	sh(&a, "sink", "exec sleep 30");
	assert_int_equal(nc_child_spawn(&a, NULL, NULL), 0);
	nc_child_signal(&a, SIGINT);
	assert_true(a.int_ns > 0);
	wait_end(&a);
	assert_true(WIFSIGNALED(a.status));
	assert_false(nc_child_failed(&a));
	nc_child_free(&a);

	sh(&b, "sender", "kill -SEGV $$");
	assert_int_equal(nc_child_spawn(&b, NULL, NULL), 0);
	wait_end(&b);
	assert_true(WIFSIGNALED(b.status));
	assert_true(nc_child_failed(&b));
	nc_child_free(&b);
}

/* a chatty child: stderr is kept up to NC_CHILD_ERR_KEEP, and it never blocks */
static void test_stderr_capped(void **state)
{
	struct nc_child ch;

	(void)state;
	sh(&ch, "sink", "head -c 300000 /dev/zero | tr '\\0' x >&2; echo done");
	assert_int_equal(nc_child_spawn(&ch, NULL, NULL), 0);
	wait_end(&ch);
	assert_int_equal(ch.len[1], NC_CHILD_ERR_KEEP);
	assert_string_equal(ch.buf[0], "done\n");
	assert_false(nc_child_failed(&ch));
	nc_child_free(&ch);
}

/* the poll returns for an extra descriptor (run's inotify) */
static void test_poll_extra_fd(void **state)
{
	struct nc_child ch;
	struct nc_child *all[1] = { &ch };
	int p[2];

	(void)state;
	sh(&ch, "sink", "exec sleep 30");
	assert_int_equal(nc_child_spawn(&ch, NULL, NULL), 0);
	assert_int_equal(pipe(p), 0);
	assert_false(nc_children_poll(all, 1, 10, p[0]));
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_true(nc_children_poll(all, 1, 1000, p[0]));
	close(p[0]);
	close(p[1]);
	nc_child_signal(&ch, SIGKILL);
	assert_true(ch.killed);
	wait_end(&ch);
	assert_false(nc_child_failed(&ch));	/* run killed it */
	nc_child_free(&ch);
}

/* a program that does not exist: exit 127 and the reason on its stderr */
static void test_no_such_program(void **state)
{
	struct nc_child ch;

	(void)state;
	nc_child_init(&ch, "sender");
	nc_argv_push(&ch.argv, "/nonexistent/netcost-gen");
	assert_int_equal(nc_child_spawn(&ch, NULL, NULL), 0);
	wait_end(&ch);
	assert_int_equal(WEXITSTATUS(ch.status), 127);
	assert_non_null(strstr(ch.buf[1], "cannot run /nonexistent/netcost-gen"));
	nc_child_free(&ch);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_and_status),
		cmocka_unit_test(test_success),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_stderr_capped),
		cmocka_unit_test(test_poll_extra_fd),
		cmocka_unit_test(test_no_such_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
