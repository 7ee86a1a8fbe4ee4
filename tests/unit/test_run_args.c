// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_args.c - the argument strings of "netcost run" (lib/runargs.c):
 * --gen/--sink/--sink-prefix split into words like a shell's simple
 * command, joined back for messages, options looked up, and the sink's
 * arguments that follow from the sender's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common.h"
#include "runargs.h"

/* words - @s split; fails the test when it does not split */
static struct nc_argv words(const char *s)
{
	struct nc_argv a = { 0 };

	assert_int_equal(nc_argv_split(&a, s), 0);
	return a;
}

static void test_split(void **state)
{
	struct nc_argv a;

	(void)state;
	a = words("  -H 10.0.0.2\t-m 1025  -r 0 ");
	assert_int_equal(a.argc, 6);
	assert_string_equal(a.argv[0], "-H");
	assert_string_equal(a.argv[5], "0");
	assert_null(a.argv[6]);
	nc_argv_free(&a);

	a = words("a 'b c' \"d \\\"e\\\" \\\\ \\n\" f\\ g ''");
	assert_int_equal(a.argc, 5);
	assert_string_equal(a.argv[1], "b c");
	assert_string_equal(a.argv[2], "d \"e\" \\ \\n");
	assert_string_equal(a.argv[3], "f g");
	assert_string_equal(a.argv[4], "");
	nc_argv_free(&a);

	a = words("");
	assert_int_equal(a.argc, 0);
	nc_argv_free(&a);

	/* errors leave the vector as it was */
	a = words("x");
	assert_int_equal(nc_argv_split(&a, "y 'z"), -1);
	assert_int_equal(nc_argv_split(&a, "y \"z"), -1);
	assert_int_equal(nc_argv_split(&a, "y z\\"), -1);
	assert_int_equal(a.argc, 1);
	assert_int_equal(nc_argv_split(&a, "y z"), 0);
	assert_int_equal(a.argc, 3);
	nc_argv_free(&a);
}

static void test_join(void **state)
{
	static const char *const in = "in-ns /usr/bin/netcost-gen 'a b' \"it's\" '' x";
	struct nc_argv a = words(in), b = { 0 };
	char *s = nc_argv_join(&a);

	(void)state;
	assert_int_equal(nc_argv_split(&b, s), 0);
	assert_int_equal(b.argc, a.argc);
	for (int i = 0; i < a.argc; i++)
		assert_string_equal(a.argv[i], b.argv[i]);
	assert_non_null(strstr(s, "in-ns /usr/bin/netcost-gen 'a b'"));
	free(s);
	nc_argv_free(&a);
	nc_argv_free(&b);
}

static void test_value_has(void **state)
{
	struct nc_argv a = words("-H 10.0.0.2 -p9001 --flows 19 -p 9002 --flows=7 -j -- -l 3");

	(void)state;
	assert_string_equal(nc_argv_value(&a, 'H', NULL), "10.0.0.2");
	assert_string_equal(nc_argv_value(&a, 'p', NULL), "9002");	/* last wins */
	assert_string_equal(nc_argv_value(&a, 0, "flows"), "7");
	assert_null(nc_argv_value(&a, 'r', NULL));
	assert_null(nc_argv_value(&a, 'l', NULL));	/* after -- */
	assert_true(nc_argv_has(&a, 'j', NULL));
	assert_false(nc_argv_has(&a, 'l', NULL));
	assert_false(nc_argv_has(&a, 0, "flow"));	/* a prefix is not the option */
	nc_argv_free(&a);
}

/* sink_args - the sink arguments derived from @gen, joined */
static char *sink_args(const char *gen)
{
	struct nc_argv g = words(gen), s = { 0 };
	char *j;

	nc_sink_args_from_gen(&g, &s);
	j = nc_argv_join(&s);
	nc_argv_free(&g);
	nc_argv_free(&s);
	return j;
}

static void test_sink_from_gen(void **state)
{
	static const struct { const char *gen, *sink; } cases[] = {
		{ "-H 10.0.0.2 -m 1025 -r 0", "" },
		{ "-H 10.0.0.2 -m 10 --flows 19 -r 38000 -p 7000", "-p 7000 --flows 19" },
		{ "-H 10.0.0.2 --flows=4 --dport-per-flow", "--flows 4 --dport-per-flow" },
		{ "-H fd00::2", "-6" },
		{ "-6 -H host6.example", "-6" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = sink_args(cases[i].gen);

		assert_string_equal(s, cases[i].sink);
		free(s);
	}
}

/* the children's command lines: the sink behind its prefix, ready file, the sender for --duration */
static void test_children_argv(void **state)
{
	struct nc_run_opts o = { .gen = "-H 10.0.0.2 -r 1000 -p 7000", .sink = "--cpu 1",
				 .sink_prefix = "in-ns peer", .duration = 2.5 };
	struct nc_argv gen = { 0 }, sink = { 0 }, snk = { 0 }, snd = { 0 };
	char *a, *b;

	(void)state;
	assert_int_equal(nc_run_children_argv(&o, "/x/netcost-gen", "/tmp/r/ready", &gen, &sink,
					      &snk, &snd), 0);
	a = nc_argv_join(&snk);
	b = nc_argv_join(&snd);
	assert_string_equal(a, "in-ns peer /x/netcost-gen sink -p 7000 --cpu 1 -j -q "
			    "--ready-file /tmp/r/ready");
	assert_string_equal(b, "/x/netcost-gen send -H 10.0.0.2 -r 1000 -p 7000 -l 2.5 -j -q");
	free(a);
	free(b);
	nc_argv_free(&gen);
	nc_argv_free(&sink);
	nc_argv_free(&snk);
	nc_argv_free(&snd);

	/* -l is run's: a usage error */
	o.gen = "-H 10.0.0.2 -l 5";
	nc_err_quiet = true;
	assert_int_equal(nc_run_children_argv(&o, "/x/netcost-gen", "/r", &gen, &sink, &snk, &snd),
			 NC_EXIT_USAGE);
	assert_non_null(strstr(nc_last_err, "no -l"));
	nc_argv_free(&gen);
	nc_argv_free(&sink);
	nc_argv_free(&snk);
	nc_argv_free(&snd);
	o.gen = "-H 'unbalanced";
	assert_int_equal(nc_run_children_argv(&o, "/x/netcost-gen", "/r", &gen, &sink, &snk, &snd),
			 NC_EXIT_USAGE);
	nc_err_quiet = false;
	nc_argv_free(&gen);
	nc_argv_free(&sink);
	nc_argv_free(&snk);
	nc_argv_free(&snd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_join),
		cmocka_unit_test(test_value_has),
		cmocka_unit_test(test_sink_from_gen),
		cmocka_unit_test(test_children_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
