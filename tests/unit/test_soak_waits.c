// SPDX-License-Identifier: GPL-2.0
/*
 * test_soak_waits.c - how the soak tells that it slowed down what it
 * measures (lib/soak.c): the runqueue-wait bookkeeping of
 * soak_waits_account() (a task's wait beyond what the spinners did not
 * get is wait behind them), the worst tasks, and the warning's words.
 * The figures are those of the 6.1-rt stream collapse (Documentation/collapse-6.1-rt.md).
 */
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soak.h"

#define MS	1000000ull	/* ns */

static int idents;

/* a fake /proc/PID/task/TID/stat: tid 230 the sender, 300 an idle task */
static int ident(int pid, int tid, char *comm, size_t len, void *arg)
{
	(void)pid;
	(void)arg;
	idents++;
	snprintf(comm, len, "%s", tid == 230 ? "netcost-gen" :
				  tid == 300 ? "other-soak" : "kworker");
	return tid == 300 ? SCHED_IDLE : SCHED_OTHER;
}

/* The first scan is the start: nothing is wait yet, however large. */
static void test_first_scan_is_baseline(void **state)
{
	struct soak_task_wait t[] = { { 228, 230, 5000 * MS }, { 10, 10, 7 * MS } };
	struct soak_waiter *v;
	struct soak_waits w;

	(void)state;
	soak_waits_init(&w);
	assert_int_equal(soak_waits_account(&w, t, 2, 0, 0, ident, NULL), 0);
	assert_int_equal(soak_waits_worst(&w, &v, 8), 0);
	free(v);
	soak_waits_free(&w);
}

/*
 * 6.1-rt: the sender waited 860 ms of a 1 s interval in which the
 * spinner did not get 60 ms: at least 800 ms behind the spinner.  A
 * kworker that waited 50 ms (less than the 60 ms others ran) is not.
 */
static void test_behind_is_wait_beyond_busy(void **state)
{
	struct soak_task_wait t0[] = { { 228, 230, 100 * MS }, { 10, 10, 0 } };
	struct soak_task_wait t1[] = { { 228, 230, 960 * MS }, { 10, 10, 50 * MS } };
	struct soak_waiter *v;
	struct soak_waits w;
	int n;

	(void)state;
	idents = 0;
	soak_waits_init(&w);
	assert_int_equal(soak_waits_account(&w, t0, 2, 0, 0, ident, NULL), 0);
	assert_int_equal(soak_waits_account(&w, t1, 2, 0.060, 1.0, ident, NULL), 0);
	n = soak_waits_worst(&w, &v, 8);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].tid, 230);
	assert_int_equal(v[0].pid, 228);
	assert_string_equal(v[0].comm, "netcost-gen");
	assert_int_equal(v[0].policy, SCHED_OTHER);
	assert_float_equal(v[0].wait_s, 0.860, 1e-9);
	assert_float_equal(v[0].behind_s, 0.800, 1e-9);
	assert_int_equal(idents, 1);	/* only a task with wait behind is named */
	free(v);
	soak_waits_free(&w);
}

/* Intervals add up; a task is named once; the largest comes first. */
static void test_intervals_add_and_sort(void **state)
{
	struct soak_task_wait a[] = { { 1, 11, 0 }, { 2, 22, 0 } };
	struct soak_task_wait b[] = { { 1, 11, 300 * MS }, { 2, 22, 500 * MS } };
	struct soak_task_wait c[] = { { 1, 11, 900 * MS }, { 2, 22, 700 * MS } };
	struct soak_waiter *v;
	struct soak_waits w;

	(void)state;
	idents = 0;
	soak_waits_init(&w);
	assert_int_equal(soak_waits_account(&w, a, 2, 0, 0, ident, NULL), 0);
	assert_int_equal(soak_waits_account(&w, b, 2, 0.100, 1.0, ident, NULL), 0);
	assert_int_equal(soak_waits_account(&w, c, 2, 0.100, 1.0, ident, NULL), 0);
	assert_int_equal(soak_waits_worst(&w, &v, 8), 2);
	assert_int_equal(v[0].tid, 11);		/* 0.2 + 0.5 */
	assert_float_equal(v[0].behind_s, 0.700, 1e-9);
	assert_int_equal(v[1].tid, 22);		/* 0.4 + 0.1 */
	assert_float_equal(v[1].behind_s, 0.500, 1e-9);
	assert_int_equal(idents, 2);
	assert_float_equal(w.seconds, 2.0, 1e-12);
	free(v);
	/* at most max */
	assert_int_equal(soak_waits_worst(&w, &v, 1), 1);
	assert_int_equal(v[0].tid, 11);
	free(v);
	soak_waits_free(&w);
}

/*
 * A task born during the soak: all its wait is inside it.  One whose tid
 * came back under another pid, or whose wait went backwards, starts over.
 * SCHED_IDLE tasks (another soak) are expected to wait: not listed.
 */
static void test_new_reused_and_idle(void **state)
{
	struct soak_task_wait a[] = { { 5, 50, 900 * MS } };
	struct soak_task_wait b[] = { { 6, 50, 400 * MS }, { 7, 70, 300 * MS },
				      { 300, 300, 900 * MS } };
	struct soak_waiter *v;
	struct soak_waits w;

	(void)state;
	soak_waits_init(&w);
	assert_int_equal(soak_waits_account(&w, a, 1, 0, 0, ident, NULL), 0);
	assert_int_equal(soak_waits_account(&w, b, 3, 0.100, 1.0, ident, NULL), 0);
	assert_int_equal(soak_waits_worst(&w, &v, 8), 2);
	assert_int_equal(v[0].tid, 50);		/* a new task under pid 6 */
	assert_int_equal(v[0].pid, 6);
	assert_float_equal(v[0].behind_s, 0.300, 1e-9);
	assert_int_equal(v[1].tid, 70);
	assert_float_equal(v[1].behind_s, 0.200, 1e-9);
	free(v);
	soak_waits_free(&w);
}

/* a result as soak_stop() makes it, with one waiter */
static void result(struct soak_result *r, double seconds, double behind)
{
	static struct soak_waiter one;

	memset(r, 0, sizeof(*r));
	memset(&one, 0, sizeof(one));
	one.pid = 228;
	one.tid = 230;
	one.policy = SCHED_OTHER;
	snprintf(one.comm, sizeof(one.comm), "netcost-gen");
	one.wait_s = behind + 0.1;
	one.behind_s = behind;
	r->seconds = seconds;
	r->waits_valid = 1;
	r->nwaiters = 1;
	r->waiters = &one;
}

/* The warning: when, and that it names the task and its figures. */
static void test_starved_msg(void **state)
{
	struct soak_result r;
	char buf[1024];

	(void)state;
	result(&r, 5.0, 3.15);
	assert_int_equal(soak_starved_msg(&r, buf, sizeof(buf)), 1);
	assert_non_null(strstr(buf, "netcost-gen (pid 228, tid 230, SCHED_OTHER)"));
	assert_non_null(strstr(buf, "waited 3.15 s of 5.00 s behind"));
	assert_non_null(strstr(buf, "compare with a run without the soak"));
	/* below SOAK_STARVED_PCT of the time */
	result(&r, 100.0, 4.9);
	assert_int_equal(soak_starved_msg(&r, buf, sizeof(buf)), 0);
	result(&r, 100.0, 5.1);
	assert_int_equal(soak_starved_msg(&r, buf, sizeof(buf)), 1);
	/* below 0.1 s */
	result(&r, 1.0, 0.09);
	assert_int_equal(soak_starved_msg(&r, buf, sizeof(buf)), 0);
	/* not watched, or nobody waited */
	result(&r, 5.0, 3.15);
	r.waits_valid = 0;
	assert_int_equal(soak_starved_msg(&r, buf, sizeof(buf)), 0);
	result(&r, 5.0, 3.15);
	r.nwaiters = 0;
	assert_int_equal(soak_starved_msg(&r, buf, sizeof(buf)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_scan_is_baseline),
		cmocka_unit_test(test_behind_is_wait_beyond_busy),
		cmocka_unit_test(test_intervals_add_and_sort),
		cmocka_unit_test(test_new_reused_and_idle),
		cmocka_unit_test(test_starved_msg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
