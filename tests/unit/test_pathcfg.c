// SPDX-License-Identifier: GPL-2.0
/*
 * test_pathcfg.c - issue 22, "A diff that explains itself": a snapshot
 * records the packet path's configuration (meta.path_config), read here
 * from a made-up /sys and /proc; it survives save and load; "diff" of a
 * threaded-NAPI snapshot against a softirq-NAPI one names the difference
 * (text and -j) before the stage table; snapshots without it (older
 * ones) load and diff as before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "diff.h"
#include "pathcfg.h"
#include "snapshot.h"
#include "synth.h"

#define T TEST_OUT "/pathcfg"

/* put - @text into T/@rel, making its folders */
static void put(const char *rel, const char *text)
{
	char path[1024], cmd[1200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", T, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* tree - a box with eth0 (one IRQ, 24, with a thread at @prio), NAPI @threaded */
static void tree(const char *threaded, const char *prio)
{
	char stat[512];

	assert_int_equal(system("rm -rf " T), 0);
	put("sys/class/net/lo/threaded", "0\n");
	put("sys/class/net/eth0/threaded", threaded);
	put("sys/class/net/eth0/napi_defer_hard_irqs", "0\n");
	put("sys/class/net/eth0/gro_flush_timeout", "0\n");
	put("sys/class/net/eth0/queues/rx-0/rps_cpus", "00000003\n");
	put("sys/class/net/eth0/queues/rx-1/rps_cpus", "0\n");
	put("sys/class/net/eth0/queues/tx-0/xps_cpus", "1\n");
	put("sys/class/net/eth0/device/msi_irqs/24", "msix\n");
	put("proc/sys/net/core/busy_read", "0\n");
	put("proc/sys/net/core/busy_poll", "50\n");
	put("proc/irq/24/smp_affinity_list", "0-1\n");
	put("proc/100/comm", "irq/24-eth0\n");
	/* pid (comm) state, then fields 4..39, rt_priority (40), policy (41) */
	snprintf(stat, sizeof(stat), "100 (irq/24-eth0) S 2 0 0 0 -1 0 0 0 0 0 0 0 0 0 "
		 "-51 0 1 0 10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 %s 1 0 0 0\n", prio);
	put("proc/100/stat", stat);
	put("proc/12/comm", "ksoftirqd/0\n");
	put("proc/12/stat", "12 (ksoftirqd/0) S 2 0 0 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 "
	    "10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
}

static json_t *at(json_t *o, const char *path)
{
	char copy[256], *save = NULL, *k;

	snprintf(copy, sizeof(copy), "%s", path);
	for (k = strtok_r(copy, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = json_object_get(o, k);
	if (!o)
		fail_msg("no %s", path);
	return o;
}

static void test_collect(void **state)
{
	json_t *o;

	(void)state;
	tree("1\n", "50");
	o = nc_pathcfg_collect(T "/sys", T "/proc", "stock, threadirqs");
	assert_string_equal(json_string_value(at(o, "preempt")), "stock, threadirqs");
	assert_int_equal(json_integer_value(at(o, "nics.eth0.threaded")), 1);
	assert_null(json_object_get(at(o, "nics"), "lo"));
	assert_int_equal(json_integer_value(at(o, "nics.eth0.rx_queues")), 2);
	assert_int_equal(json_integer_value(at(o, "nics.eth0.tx_queues")), 1);
	assert_string_equal(json_string_value(at(o, "nics.eth0.rps_cpus.rx-0")), "00000003");
	assert_string_equal(json_string_value(at(o, "nics.eth0.xps_cpus.tx-0")), "1");
	assert_int_equal(json_integer_value(at(o, "sysctl.busy_poll")), 50);
	assert_string_equal(json_string_value(at(o, "nics.eth0.irqs.24.affinity")), "0-1");
	assert_string_equal(json_string_value(at(o, "nics.eth0.irqs.24.thread.policy")), "fifo");
	assert_int_equal(json_integer_value(at(o, "nics.eth0.irqs.24.thread.priority")), 50);
	assert_string_equal(json_string_value(at(o, "ksoftirqd.policy")), "other");
	json_decref(o);
}

/* model - a tiny snapshot model (2 CPUs' figures) with @cfg as its path_config */
static void model(struct nc_model *m, json_t *cfg)
{
	nc_model_init(m);
	synth_model(m, false, true);
	m->meta.path_config = cfg;
}

static void test_diff_names_it(void **state)
{
	struct nc_model *a = calloc(2, sizeof(*a)), *b = a + 1, *c = calloc(1, sizeof(*c));
	struct nc_diff *d = calloc(1, sizeof(*d));
	char *buf = NULL, *text, path[512];
	size_t len = 0;
	unsigned int i;
	FILE *f;
	json_t *o, *pd;

	(void)state;
	tree("1\n", "50");
	model(a, nc_pathcfg_collect(T "/sys", T "/proc", "stock"));
	tree("0\n", "49");
	model(b, nc_pathcfg_collect(T "/sys", T "/proc", "stock"));
	/* it survives a save and a load */
	snprintf(path, sizeof(path), "%s/pathcfg-a.json", TEST_OUT);
	assert_int_equal(nc_snapshot_save(a, path), 0);
	nc_model_init(c);
	assert_int_equal(nc_snapshot_load(c, path), 0);
	assert_true(json_equal(c->meta.path_config, a->meta.path_config));

	assert_int_equal(nc_diff_compute(d, c, "a", b, "b"), 0);
	assert_int_equal(d->nr_path, 2);
	for (i = 0; i < d->nr_path; i++)
		if (!strcmp(d->path[i].key, "nics.eth0.threaded"))
			break;
	assert_true(i < d->nr_path);
	assert_string_equal(d->path[i].a, "1");
	assert_string_equal(d->path[i].b, "0");
	f = open_memstream(&buf, &len);
	assert_int_equal(nc_diff_print(f, d, false), 0);
	fclose(f);
	text = strstr(buf, "packet path settings that differ");
	if (!text || !strstr(text, "nics.eth0.threaded") ||
	    !strstr(text, "nics.eth0.irqs.24.thread.priority") ||
	    strstr(buf, "A cyc/pkt") < text)
		fail_msg("the differences, before the stage table:\n%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(nc_diff_print(f, d, true), 0);
	fclose(f);
	o = json_loads(buf, 0, NULL);
	assert_non_null(o);
	pd = json_object_get(o, "path_differences");
	assert_int_equal(json_array_size(pd), 2);
	json_decref(o);
	free(buf);

	/* an older snapshot, without path_config: no differences, no error */
	json_decref(b->meta.path_config);
	b->meta.path_config = NULL;
	assert_int_equal(nc_diff_compute(d, c, "a", b, "b"), 0);
	assert_int_equal(d->nr_path, 0);
	nc_model_free(a);
	nc_model_free(b);
	nc_model_free(c);
	free(a);
	free(c);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_diff_names_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
