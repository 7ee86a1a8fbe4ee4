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
#include <sys/stat.h>
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

/*
 * started with SIGINT ignored (a script's background job): the child
 * still dies of the SIGINT sent right after it was spawned, before it
 * ran at all
 */
static void test_signals_inherited_ignored(void **state)
{
	struct nc_child a;
	int i;

	(void)state;
	signal(SIGINT, SIG_IGN);
	for (i = 0; i < 5; i++) {
		sh(&a, "sink", "exec sleep 30");
		assert_int_equal(nc_child_spawn(&a, NULL, NULL), 0);
		nc_child_signal(&a, SIGINT);
		wait_end(&a);
		assert_true(WIFSIGNALED(a.status));
		assert_int_equal(WTERMSIG(a.status), SIGINT);
		nc_child_free(&a);
	}
	signal(SIGINT, SIG_DFL);
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

/* nc_find_exec(): $ENV first (and it must be executable), else PATH */
static void test_find_exec(void **state)
{
	char buf[4096], path[600];

	(void)state;
	nc_err_quiet = true;
	setenv("NC_TEST_EXEC", "/etc/passwd", 1);
	assert_int_equal(nc_find_exec("run", "sh", "NC_TEST_EXEC", buf, sizeof(buf)),
			 NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "run: NC_TEST_EXEC=/etc/passwd is not an executable file"));
	setenv("NC_TEST_EXEC", "/bin/sh", 1);
	assert_int_equal(nc_find_exec("run", "sh", "NC_TEST_EXEC", buf, sizeof(buf)), 0);
	assert_true(buf[0] == '/');
	assert_int_equal(access(buf, X_OK), 0);
	unsetenv("NC_TEST_EXEC");
	/* on PATH: a fake program in TEST_OUT */
	snprintf(path, sizeof(path), "%s/nc-fake-prog", TEST_OUT);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	chmod(path, 0755);
	{
		char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

		setenv("PATH", "/nonexistent:" TEST_OUT, 1);
		assert_int_equal(nc_find_exec("run", "nc-fake-prog", "NC_TEST_EXEC", buf,
					      sizeof(buf)), 0);
		assert_non_null(strstr(buf, "/nc-fake-prog"));
		assert_int_equal(nc_find_exec("run", "nc-no-such-prog", "NC_TEST_EXEC", buf,
					      sizeof(buf)), NC_EXIT_ERROR);
		assert_non_null(strstr(nc_last_err, "cannot find nc-no-such-prog (not in $NC_TEST_EXEC"));
		if (old)
			setenv("PATH", old, 1);
		free(old);
	}
	unlink(path);
	nc_err_quiet = false;
}

/* nc_child_spawn_ready(): ready when the file appears; else why not */
static void test_spawn_ready(void **state)
{
	char dir[600], ready[700], script[2400];
	struct nc_child ch;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/ready-dir", TEST_OUT);
	mkdir(dir, 0755);
	snprintf(ready, sizeof(ready), "%s/ready", dir);
	unlink(ready);
	snprintf(script, sizeof(script), "sleep 0.2; echo > %s.tmp; mv %s.tmp %s; exec sleep 30",
		 ready, ready, ready);
	sh(&ch, "sink", script);
	assert_int_equal(nc_child_spawn_ready(&ch, NULL, NULL, dir, ready, 10, NULL), 0);
	assert_true(nc_child_running(&ch));
	{
		struct nc_child *all[1] = { &ch };

		nc_children_stop(all, 1, 5);
	}
	assert_false(nc_child_failed(&ch));
	nc_child_free(&ch);
	unlink(ready);

	nc_err_quiet = true;
	sh(&ch, "sink", "echo cannot bind >&2; exit 2");
	assert_int_equal(nc_child_spawn_ready(&ch, NULL, NULL, dir, ready, 10, NULL),
			 NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "the sink failed (exit 2)"));
	nc_child_free(&ch);

	sh(&ch, "sink", "exec sleep 30");
	assert_int_equal(nc_child_spawn_ready(&ch, NULL, NULL, dir, ready, 1, NULL),
			 NC_EXIT_ERROR);
	assert_non_null(strstr(nc_last_err, "the sink is not ready after 1 s"));
	{
		struct nc_child *all[1] = { &ch };

		nc_children_stop(all, 1, 5);
	}
	nc_child_free(&ch);
	nc_err_quiet = false;
	rmdir(dir);
}

/* nc_children_stop(): SIGINT, and SIGKILL for one that ignores it */
static void test_children_stop(void **state)
{
	struct nc_child a, b;
	struct nc_child *all[2] = { &a, &b };

	(void)state;
	sh(&a, "sink", "exec sleep 30");
	sh(&b, "sender", "trap '' INT; echo up; while :; do sleep 0.1; done");
	assert_int_equal(nc_child_spawn(&a, NULL, NULL), 0);
	assert_int_equal(nc_child_spawn(&b, NULL, NULL), 0);
	while (!b.len[0])	/* the trap is set */
		nc_children_poll(all, 2, 100, -1);
	nc_children_stop(all, 2, 1);
	assert_true(a.exited && b.exited);
	assert_false(a.killed);
	assert_true(b.killed);
	assert_false(nc_child_failed(&a));
	assert_false(nc_child_failed(&b));
	nc_child_free(&a);
	nc_child_free(&b);
}

/* the JSON result, and what a snapshot keeps of a child */
static void test_result_json(void **state)
{
	struct nc_child ch;
	int cpus[2] = { 0, 1 };
	json_t *j;

	(void)state;
	sh(&ch, "sender", "printf '{\"messages\": 5}'; exit 0");
	assert_int_equal(nc_child_spawn(&ch, NULL, NULL), 0);
	wait_end(&ch);
	assert_true(nc_child_parse_result(&ch));
	assert_int_equal(json_integer_value(json_object_get(ch.result, "messages")), 5);
	j = nc_child_to_json(&ch, cpus, 2);
	assert_int_equal(json_integer_value(json_object_get(j, "exit")), 0);
	assert_int_equal(json_integer_value(json_object_get(j, "pid")), ch.pid);
	assert_true(json_is_null(json_object_get(j, "per_cpu")));	/* no counters */
	assert_non_null(strstr(json_string_value(json_object_get(j, "command")), "sh -c"));
	assert_true(json_is_false(json_object_get(j, "stopped_by_run")));
	assert_true(nc_rusage_cpu_s(&ch.ru) >= 0);
	json_decref(j);
	json_decref(ch.result);
	nc_child_free(&ch);

	nc_err_quiet = true;
	sh(&ch, "sink", "echo not json");
	assert_int_equal(nc_child_spawn(&ch, NULL, NULL), 0);
	wait_end(&ch);
	assert_false(nc_child_parse_result(&ch));
	assert_null(ch.result);
	nc_child_free(&ch);
	nc_err_quiet = false;
}

/* the watchdog: a sink that outlives its sender, a sender past its end */
static void test_pair_watchdog(void **state)
{
	struct nc_child snd, snk;
	struct nc_child *all[2] = { &snd, &snk };
	uint64_t now;

	(void)state;
	sh(&snd, "sender", "exit 0");
	sh(&snk, "sink", "exec sleep 30");
	assert_int_equal(nc_child_spawn(&snd, NULL, NULL), 0);
	assert_int_equal(nc_child_spawn(&snk, NULL, NULL), 0);
	wait_end(&snd);
	now = nc_now_ns();
	nc_child_pair_watchdog(&snd, &snk, now, now + 1000000000ull, 1000000000ull,
			       1000000000ull);
	assert_int_equal(snk.int_ns, 0);	/* within its grace */
	nc_child_pair_watchdog(&snd, &snk, now + 2000000000ull, now + 1000000000ull,
			       1000000000ull, 10000000000ull);
	assert_true(snk.int_ns > 0);		/* outlived the sender */
	assert_false(snk.killed);
	nc_child_pair_watchdog(&snd, &snk, snk.int_ns + 2000000000ull, now,
			       1000000000ull, 1000000000ull);
	assert_true(snk.killed);
	nc_children_stop(all, 2, 5);
	nc_child_free(&snd);
	nc_child_free(&snk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_and_status),
		cmocka_unit_test(test_success),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_signals_inherited_ignored),
		cmocka_unit_test(test_stderr_capped),
		cmocka_unit_test(test_poll_extra_fd),
		cmocka_unit_test(test_no_such_program),
		cmocka_unit_test(test_find_exec),
		cmocka_unit_test(test_spawn_ready),
		cmocka_unit_test(test_children_stop),
		cmocka_unit_test(test_result_json),
		cmocka_unit_test(test_pair_watchdog),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
