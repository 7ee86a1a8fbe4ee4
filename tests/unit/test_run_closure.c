// SPDX-License-Identifier: GPL-2.0
/*
 * test_run_closure.c - the accounting closure of "netcost run"
 * (lib/closure.c) on models with exact figures: soak load to cycles, which
 * stages count (and which do not: nested ones, the system calls inside a
 * process's stime, waiting time), irq_thread net of the NET_RX it runs,
 * the probe line, processes split over CPUs by their task clocks, what is
 * counted twice (switches into a process, interrupts charged to it), the
 * remainder per CPU and in total, and the JSON.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "closure.h"
#include "synth.h"

#define KHZ	1000000u	/* 1 GHz: 1 s = 1e9 cycles */

/* fill - @n events of @v cycles each into stage @stage of CPU @cpu */
static void fill(struct nc_model *m, uint32_t cpu, const char *stage,
		 uint64_t n, uint64_t v)
{
	struct nc_hist *h = nc_cpu_hist(nc_model_cpu(m, cpu),
					(unsigned int)nc_model_find_stage(m, stage));

	for (uint64_t i = 0; i < n; i++)
		synth_record(h, v);
}

/*
 * exact - CPU 0: hardirq 1000 x 2000, softirq_net_rx 1000 x 30000,
 * irq_thread 100 x 50000 of which 1e6 cycles NET_RX, ctx_switch 500 x
 * 4000, and stages that must not count: napi_poll, rx_skb (nested),
 * syscall_rx (in stime), wakeup_latency (waiting).  CPU 1: softirq_other
 * 10 x 10000, hardirq_other 10 x 1000.  CPU 2: hardirq, but no soak there.
 * probe_hits 1000 on CPU 0 and 100 on CPU 1, 50 cycles each.
 */
static void exact(struct nc_model *m)
{
	nc_model_init(m);
	synth_info(m, false, 1);
	/* a module before 0.6.0: its irq_thread holds the NET_RX it ran */
	strcpy(m->info.version, "0.5.0");
	m->info.tsc_khz = KHZ;
	m->info.probe_cost = 50;
	fill(m, 0, "hardirq", 1000, 2000);			/*  2e6 */
	fill(m, 0, "softirq_net_rx", 1000, 30000);		/* 30e6 */
	fill(m, 0, "irq_thread", 100, 50000);			/*  5e6 - 1e6 */
	fill(m, 0, "ctx_switch", 500, 4000);			/*  2e6 */
	fill(m, 0, "napi_poll", 1000, 25000);
	fill(m, 0, "rx_skb", 1000, 1000);
	fill(m, 0, "syscall_rx", 1000, 7000);
	fill(m, 0, "wakeup_latency", 100, 90000);
	synth_counter(m, 0, "net_rx_in_irq_thread_cycles", 1000000);
	synth_counter(m, 0, "probe_hits", 1000);		/* 50e3 */
	synth_counter(m, 0, "rx_packets", 1000);
	fill(m, 1, "softirq_other", 10, 10000);			/* 0.1e6 */
	fill(m, 1, "hardirq_other", 10, 1000);			/* 0.01e6 */
	synth_counter(m, 1, "probe_hits", 100);			/* 5e3 */
	fill(m, 2, "hardirq", 1000, 1000000);
	nc_model_sum_total(m, NULL);
}

/* line - the closure line called @name; fails the test when absent */
static const struct nc_cl_line *line(const struct nc_closure *c, const char *name)
{
	for (unsigned int k = 0; k < c->nr_lines; k++)
		if (!strcmp(c->line[k].name, name))
			return &c->line[k];
	fail_msg("no line %s", name);
	return NULL;
}

static void test_load_cycles(void **state)
{
	(void)state;
	/* load % x interval x TSC rate */
	assert_float_equal(nc_closure_load_cycles(50, 2, KHZ), 1e9, 1e-3);
	assert_float_equal(nc_closure_load_cycles(100, 1, 2500000), 2.5e9, 1e-3);
	assert_float_equal(nc_closure_load_cycles(0, 10, KHZ), 0, 0);
	/* a noisy calibration may say below 0: kept, not clamped */
	assert_float_equal(nc_closure_load_cycles(-1, 1, KHZ), -1e7, 1e-3);
	assert_float_equal(nc_closure_cycles(0.25, KHZ), 2.5e8, 1e-3);
}

static void test_kernel_lines(void **state)
{
	const int cpus[] = { 0, 1 };
	const double busy[] = { 0.05, 0.001 };	/* 50e6 and 1e6 cycles */
	struct nc_closure c;
	struct nc_model m;

	(void)state;
	exact(&m);
	nc_closure_init(&c, KHZ, 1.0, 2, cpus, busy, NULL);
	assert_int_equal(nc_closure_add_model(&c, &m), 0);
	nc_closure_finish(&c);

	assert_float_equal(c.consumed[0], 50e6, 1e-3);
	assert_float_equal(c.consumed[1], 1e6, 1e-3);
	assert_float_equal(c.load_pct[0], 5.0, 1e-9);	/* busy / seconds */
	assert_float_equal(line(&c, "hardirq")->total, 2e6, 1e-6);
	assert_float_equal(line(&c, "softirq_net_rx")->total, 30e6, 1e-6);
	/* irq_thread without the NET_RX that softirq_net_rx counted */
	assert_float_equal(line(&c, "irq_thread")->total, 4e6, 1e-6);
	assert_float_equal(line(&c, "ctx_switch")->total, 2e6, 1e-6);
	assert_float_equal(line(&c, "softirq_other")->cpu[1], 0.1e6, 1e-6);
	assert_float_equal(line(&c, "hardirq_other")->cpu[1], 0.01e6, 1e-6);
	assert_float_equal(line(&c, "probes")->cpu[0], 50e3, 1e-6);
	assert_float_equal(line(&c, "probes")->total, 55e3, 1e-6);
	assert_non_null(strstr(line(&c, "probes")->what, "1100 hits x 50 cycles"));
	/* nested, system call and waiting stages are not lines */
	for (unsigned int k = 0; k < c.nr_lines; k++) {
		assert_string_not_equal(c.line[k].name, "napi_poll");
		assert_string_not_equal(c.line[k].name, "rx_skb");
		assert_string_not_equal(c.line[k].name, "syscall_rx");
		assert_string_not_equal(c.line[k].name, "syscall_tx");
		assert_string_not_equal(c.line[k].name, "wakeup_latency");
	}
	/* CPU 2 has no soak: its hardirq is not held against anything */
	assert_float_equal(line(&c, "hardirq")->cpu[0], 2e6, 1e-6);
	assert_true(c.per_cpu_complete);
	assert_float_equal(c.attributed[0], 2e6 + 30e6 + 4e6 + 2e6 + 50e3, 1e-3);
	assert_float_equal(c.remainder[0], 50e6 - 38.05e6, 1e-3);
	assert_float_equal(c.remainder[1], 1e6 - 0.115e6, 1e-3);
	assert_float_equal(c.remainder_total, 51e6 - 38.165e6, 1e-3);
	assert_float_equal(c.remainder_pct, 100 * (51e6 - 38.165e6) / 51e6, 1e-9);
	nc_closure_free(&c);
	nc_model_free(&m);
}

/*
 * The closure's kernel lines follow the stage roles (metrics.c), not a
 * list of its own: hardirq_vectors (role other) and a stage a newer
 * module calls top are held against the soak; syscalls are not.
 */
static void test_lines_follow_roles(void **state)
{
	const int cpus[] = { 0, 1 };
	const double busy[] = { 0.05, 0.001 };
	struct nc_closure c;
	struct nc_model m;
	int s;

	(void)state;
	exact(&m);
	s = nc_model_stage(&m, "hardirq_vectors", NETCOST_UNIT_CYCLES);
	synth_record(nc_cpu_hist(nc_model_cpu(&m, 0), (unsigned int)s), 3000);
	s = nc_model_stage(&m, "future_top", NETCOST_UNIT_CYCLES);
	nc_model_set_role(&m, (unsigned int)s, NC_ROLE_TOP);
	synth_record(nc_cpu_hist(nc_model_cpu(&m, 0), (unsigned int)s), 700);
	nc_model_sum_total(&m, NULL);
	nc_closure_init(&c, KHZ, 1.0, 2, cpus, busy, NULL);
	assert_int_equal(nc_closure_add_model(&c, &m), 0);
	nc_closure_finish(&c);
	assert_float_equal(line(&c, "hardirq_vectors")->cpu[0], 3000, 1e-9);
	assert_float_equal(line(&c, "future_top")->cpu[0], 700, 1e-9);
	for (unsigned int k = 0; k < c.nr_lines; k++)
		assert_string_not_equal(c.line[k].name, "syscall_rx");
	nc_closure_free(&c);
	nc_model_free(&m);
}

static void test_processes(void **state)
{
	const int cpus[] = { 0, 1 };
	const double busy[] = { 0.5, 0.3 };
	const double tc[] = { 3e8, 1e8 };	/* task-clock ns: 3/4 on CPU 0 */
	const double none[] = { 0, 0 };
	struct nc_closure c;
	struct nc_cl_line *l;

	(void)state;
	nc_closure_init(&c, KHZ, 1.0, 2, cpus, busy, NULL);
	l = nc_closure_add_process(&c, "sink", 0.4, tc);
	assert_non_null(l);
	assert_float_equal(l->total, 4e8, 1e-3);
	assert_float_equal(l->cpu[0], 3e8, 1e-3);
	assert_float_equal(l->cpu[1], 1e8, 1e-3);
	/* all-zero weights: not known per CPU */
	l = nc_closure_add_process(&c, "sender", 0.2, none);
	assert_null(l->cpu);
	nc_closure_finish(&c);
	assert_false(c.per_cpu_complete);
	assert_float_equal(c.attributed_total, 6e8, 1e-3);
	assert_float_equal(c.remainder_total, 2e8, 1e-3);
	assert_float_equal(c.remainder_pct, 25, 1e-9);
	/* per CPU, only the lines known per CPU */
	assert_float_equal(c.remainder[0], 2e8, 1e-3);
	assert_float_equal(c.remainder[1], 2e8, 1e-3);
	nc_closure_free(&c);
}

static void test_over_and_empty(void **state)
{
	const int cpus[] = { 3 };
	const double busy[] = { 0.1 }, zero[] = { 0 };
	struct nc_closure c;
	char *text = NULL;
	size_t len = 0;
	json_t *j;
	FILE *f;

	(void)state;
	/* more attributed than consumed: a negative remainder, shown as is */
	nc_closure_init(&c, KHZ, 1.0, 1, cpus, busy, NULL);
	nc_closure_add_process(&c, "p", 0.15, NULL);
	nc_closure_finish(&c);
	assert_float_equal(c.remainder_total, -5e7, 1e-3);
	assert_float_equal(c.remainder_pct, -50, 1e-9);
	assert_int_equal(nc_closure_cpu_index(&c, 3), 0);
	assert_int_equal(nc_closure_cpu_index(&c, 0), -1);
	nc_closure_free(&c);

	/* nothing consumed: no share at all, "-" and null, not 0 */
	nc_closure_init(&c, KHZ, 1.0, 1, cpus, zero, NULL);
	nc_closure_add_process(&c, "p", 0.1, NULL);
	nc_closure_finish(&c);
	assert_true(isnan(c.remainder_pct));
	j = nc_closure_to_json(&c);
	assert_non_null(j);
	assert_true(json_is_null(json_object_get(j, "remainder_pct")));
	json_decref(j);
	f = open_memstream(&text, &len);
	nc_closure_print(f, &c);
	fclose(f);
	assert_null(strstr(text, "nan"));
	assert_non_null(strstr(text, "unexplained: -"));
	free(text);
	nc_closure_free(&c);

	/* full */
	nc_closure_init(&c, KHZ, 1.0, 1, cpus, busy, NULL);
	for (int i = 0; i < NC_CL_MAX_LINES; i++)
		assert_non_null(nc_closure_add(&c, NC_CL_KERNEL, "x", true));
	assert_null(nc_closure_add(&c, NC_CL_KERNEL, "y", true));
	assert_null(nc_closure_add_process(&c, "z", 1, NULL));
	nc_closure_free(&c);
}

static void test_json_and_text(void **state)
{
	const int cpus[] = { 0, 1 };
	const double busy[] = { 0.05, 0.001 };
	const double tc[] = { 1, 1 };
	struct nc_closure c;
	struct nc_model m;
	json_t *j, *l;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	exact(&m);
	nc_closure_init(&c, KHZ, 1.0, 2, cpus, busy, NULL);
	nc_closure_add_model(&c, &m);
	nc_closure_add_process(&c, "sink", 0.002, tc);
	nc_closure_finish(&c);

	j = nc_closure_to_json(&c);
	assert_float_equal(json_real_value(json_object_get(j, "consumed_cycles")), 51e6, 1e-3);
	assert_float_equal(json_real_value(json_object_get(j, "remainder_pct")),
			   c.remainder_pct, 1e-9);
	assert_true(json_is_true(json_object_get(j, "per_cpu_complete")));
	assert_int_equal(json_array_size(json_object_get(j, "cpus")), 2);
	l = json_array_get(json_object_get(j, "lines"), c.nr_lines - 1);
	assert_string_equal(json_string_value(json_object_get(l, "name")), "sink");
	assert_string_equal(json_string_value(json_object_get(l, "kind")), "process");
	assert_float_equal(json_real_value(json_array_get(json_object_get(l, "per_cpu"), 1)),
			   1e6, 1e-3);
	json_decref(j);

	f = open_memstream(&text, &len);
	nc_closure_print(f, &c);
	fclose(f);
	assert_non_null(strstr(text, "consumed (soak)"));
	assert_non_null(strstr(text, "cpu1"));
	assert_non_null(strstr(text, "unexplained"));
	free(text);
	nc_closure_free(&c);
	nc_model_free(&m);
}

/* one_cpu - CPU 0 of a stock (or @rt) kernel with interrupts to take off */
static void one_cpu(struct nc_model *m, bool rt)
{
	nc_model_init(m);
	synth_info(m, rt, 1);
	m->info.tsc_khz = KHZ;
	fill(m, 0, "hardirq", 100, 10000);			/* 1e6 */
	fill(m, 0, "hardirq_other", 50, 10000);			/* 0.5e6 */
	fill(m, 0, "softirq_net_rx", 100, 60000);		/* 6e6 */
	fill(m, 0, "softirq_other", 100, 10000);		/* 1e6 */
	fill(m, 0, "ctx_switch", 100, 5000);			/* mean 5000 */
	synth_counter(m, 0, "net_rx_in_irq_exit_cycles", 4000000);
	synth_counter(m, 0, "net_rx_in_task_bh_enable_cycles", 2000000);
	nc_model_sum_total(m, NULL);
}

/* overlap - the "counted twice" line of a 1 s, 1-CPU closure of @m */
static double overlap(const struct nc_model *m, double proc_s, double switches,
		      bool irq_in_tasks)
{
	const int cpus[] = { 0 };
	const double busy[] = { 0.5 };
	struct nc_closure c;
	struct nc_cl_line *l;
	double v;

	nc_closure_init(&c, KHZ, 1.0, 1, cpus, busy, NULL);
	assert_null(nc_closure_add_overlap(&c, m, true));	/* no process yet */
	l = nc_closure_add_process(&c, "p", proc_s, NULL);
	l->switches = switches;
	l = nc_closure_add_overlap(&c, m, irq_in_tasks);
	assert_non_null(l);
	assert_int_equal(l->kind, NC_CL_OVERLAP);
	v = l->cpu[0];
	assert_float_equal(l->total, v, 1e-6);
	nc_closure_finish(&c);
	assert_float_equal(c.attributed_total, proc_s * 1e9 + v, 1e-2);
	nc_closure_free(&c);
	return v;
}

static void test_overlap(void **state)
{
	struct nc_model m;

	(void)state;
	one_cpu(&m, false);
	/* IRQ time accounted apart: only the switches into the process */
	assert_float_equal(overlap(&m, 0.25, 20, false), -20 * 5000.0, 1e-3);
	/*
	 * interrupts charged to tasks: + the NET_RX in its bh_enable (2e6) +
	 * its share (0.25 s of 1 s) of the interrupt-context work: hardirq,
	 * hardirq_other, NET_RX in irq_exit, softirq_other = 6.5e6
	 */
	assert_float_equal(overlap(&m, 0.25, 20, true),
			   -(1e5 + 2e6 + 0.25 * 6.5e6), 1e-3);
	/* never more than the process's own time */
	assert_float_equal(overlap(&m, 1e-4, 20, true), -1e5, 1e-3);
	nc_model_free(&m);

	/* PREEMPT_RT: the other softirqs run in threads, not on the process */
	one_cpu(&m, true);
	assert_float_equal(overlap(&m, 0.25, 0, true), -(2e6 + 0.25 * 5.5e6), 1e-3);
	nc_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_cycles),
		cmocka_unit_test(test_kernel_lines),
		cmocka_unit_test(test_lines_follow_roles),
		cmocka_unit_test(test_processes),
		cmocka_unit_test(test_over_and_empty),
		cmocka_unit_test(test_json_and_text),
		cmocka_unit_test(test_overlap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
