// SPDX-License-Identifier: GPL-2.0
/*
 * pathcfg.c - the packet path's configuration, as a snapshot records it
 * (meta.path_config) so that "netcost diff" can name what differs between
 * two boxes besides their stage figures:
 *
 *   "preempt"      the preemption model (INFO's preempt_rt, threadirqs)
 *   "sysctl"       net.core.busy_read and busy_poll
 *   "nics"         per NIC (every /sys/class/net entry but lo): "threaded"
 *                  (NAPI threads), "napi_defer_hard_irqs",
 *                  "gro_flush_timeout", "rx_queues", "tx_queues", "rps_cpus"
 *                  and "xps_cpus" per queue, and "irqs": per IRQ of the
 *                  device its "affinity" (smp_affinity_list) and the
 *                  scheduling of its thread ("policy", "priority"), when
 *                  it has one (threadirqs, PREEMPT_RT)
 *   "ksoftirqd"    the scheduling of the ksoftirqd threads (one value
 *                  when all agree, else per thread)
 *
 * Read from @sys and @proc (normally "/sys" and "/proc"; the unit tests
 * give a made-up tree).  What cannot be read is left out: a snapshot of
 * an older netcost has no path_config at all, and diff then says nothing.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pathcfg.h"
#include "common.h"

/* nc_pc_value - @path's first line as a JSON integer when it is one, else a string */
static json_t *nc_pc_value(const char *path)
{
	char buf[256], *end;
	long long v;

	if (!nc_read_first_line(path, buf, sizeof(buf)) || nc_has_control(buf))
		return NULL;
	v = strtoll(buf, &end, 10);
	if (*buf && !*end)
		return json_integer(v);
	return json_string(buf);
}

/* nc_pc_set - @o[@key] = @path's value, when readable */
static void nc_pc_set(json_t *o, const char *key, const char *path)
{
	json_t *v = nc_pc_value(path);

	if (v)
		json_object_set_new(o, key, v);
}

/* nc_pc_set_str - the same, always a string (a CPU mask: "00000003") */
static void nc_pc_set_str(json_t *o, const char *key, const char *path)
{
	char buf[256];

	if (nc_read_first_line(path, buf, sizeof(buf)) && !nc_has_control(buf))
		json_object_set_new(o, key, json_string(buf));
}

/* nc_pc_policy - SCHED_* number (/proc/PID/stat field 41) as a name */
static const char *nc_pc_policy(int p)
{
	static const char *const names[] = { "other", "fifo", "rr", "batch", "iso", "idle",
					     "deadline" };

	return p >= 0 && p < (int)ARRAY_SIZE(names) ? names[p] : "unknown";
}

/*
 * nc_pc_sched - {"policy", "priority"} of task @pid from @proc/PID/stat
 * (rt_priority and policy are fields 40 and 41, after the comm in parens)
 */
static json_t *nc_pc_sched(const char *proc, const char *pid)
{
	char path[PATH_MAX], buf[1024], *p, *save = NULL, *tok;
	unsigned int field = 3;		/* the first after the comm */
	long rt = -1, pol = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/stat", proc, pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!p || !(p = strrchr(buf, ')')))
		return NULL;
	for (tok = strtok_r(p + 1, " \n", &save); tok && field <= 41;
	     tok = strtok_r(NULL, " \n", &save), field++) {
		if (field == 40)
			rt = strtol(tok, NULL, 10);
		else if (field == 41)
			pol = strtol(tok, NULL, 10);
	}
	if (rt < 0 || pol < 0)
		return NULL;
	return json_pack("{s:s, s:I}", "policy", nc_pc_policy((int)pol), "priority",
			 (json_int_t)rt);
}

/*
 * nc_pc_tasks - the kernel threads that matter, from @proc/PID/comm:
 * "irq/N-name" into @irq_threads[N] (by IRQ number, as a string key),
 * "ksoftirqd/N" into @ksoftirqd[N]
 */
static void nc_pc_tasks(const char *proc, json_t *irq_threads, json_t *ksoftirqd)
{
	DIR *d = opendir(proc);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[PATH_MAX], comm[64];
		json_t *s;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%s/%s/comm", proc, e->d_name);
		if (!nc_read_first_line(path, comm, sizeof(comm)))
			continue;
		if (!strncmp(comm, "irq/", 4) && comm[4] >= '0' && comm[4] <= '9') {
			char irq[16];

			snprintf(irq, sizeof(irq), "%ld", strtol(comm + 4, NULL, 10));
			s = nc_pc_sched(proc, e->d_name);
			if (s)
				json_object_set_new(irq_threads, irq, s);
		} else if (!strncmp(comm, "ksoftirqd/", 10)) {
			s = nc_pc_sched(proc, e->d_name);
			if (s)
				json_object_set_new(ksoftirqd, comm + 10, s);
		}
	}
	closedir(d);
}

/* nc_pc_queues - "rx_queues" and "rps_cpus" (or tx, xps) of one NIC */
static void nc_pc_queues(json_t *nic, const char *dir, const char *kind, const char *file)
{
	char path[2 * PATH_MAX], key[32];
	json_t *masks = json_object();
	unsigned int n = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, kind, 3))
			continue;
		n++;
		snprintf(path, sizeof(path), "%s/%s/%s", dir, e->d_name, file);
		nc_pc_set_str(masks, e->d_name, path);
	}
	if (d)
		closedir(d);
	snprintf(key, sizeof(key), "%.2s_queues", kind);
	if (n)
		json_object_set_new(nic, key, json_integer(n));
	if (json_object_size(masks))
		json_object_set_new(nic, file, masks);
	else
		json_decref(masks);
}

/* nc_pc_irqs - the NIC's IRQs (device/msi_irqs, else device/irq): affinity and thread */
static void nc_pc_irqs(json_t *nic, const char *ndir, const char *proc, json_t *threads)
{
	char path[2 * PATH_MAX], irq[32];
	json_t *irqs = json_object();
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/device/msi_irqs", ndir);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		json_t *o;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		o = json_object();
		snprintf(path, sizeof(path), "%s/irq/%s/smp_affinity_list", proc, e->d_name);
		nc_pc_set(o, "affinity", path);
		if (json_object_get(threads, e->d_name))
			json_object_set(o, "thread", json_object_get(threads, e->d_name));
		json_object_set_new(irqs, e->d_name, o);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/device/irq", ndir);
	if (!json_object_size(irqs) && nc_read_first_line(path, irq, sizeof(irq)) && strcmp(irq, "0") &&
	    irq[0] >= '0' && irq[0] <= '9') {
		json_t *o = json_object();

		snprintf(path, sizeof(path), "%s/irq/%s/smp_affinity_list", proc, irq);
		nc_pc_set(o, "affinity", path);
		if (json_object_get(threads, irq))
			json_object_set(o, "thread", json_object_get(threads, irq));
		json_object_set_new(irqs, irq, o);
	}
	if (json_object_size(irqs))
		json_object_set_new(nic, "irqs", irqs);
	else
		json_decref(irqs);
}

/* nc_pc_same - @o's values all equal: that one value (a new reference), else NULL */
static json_t *nc_pc_same(json_t *o)
{
	json_t *first = NULL, *v;
	const char *k;

	json_object_foreach(o, k, v) {
		if (!first)
			first = v;
		else if (!json_equal(first, v))
			return NULL;
	}
	return first ? json_incref(first) : NULL;
}

json_t *nc_pathcfg_collect(const char *sys, const char *proc, const char *preempt)
{
	json_t *root = json_object(), *nics = json_object(), *sysctl = json_object();
	json_t *threads = json_object(), *ksoft = json_object(), *one;
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (preempt)
		json_object_set_new(root, "preempt", json_string(preempt));
	snprintf(path, sizeof(path), "%s/sys/net/core/busy_read", proc);
	nc_pc_set(sysctl, "busy_read", path);
	snprintf(path, sizeof(path), "%s/sys/net/core/busy_poll", proc);
	nc_pc_set(sysctl, "busy_poll", path);
	json_object_set_new(root, "sysctl", sysctl);
	nc_pc_tasks(proc, threads, ksoft);

	snprintf(path, sizeof(path), "%s/class/net", sys);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char ndir[PATH_MAX + 300], qdir[PATH_MAX + 320], file[PATH_MAX + 360];
		json_t *nic;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo") || nc_has_control(e->d_name))
			continue;
		nic = json_object();
		snprintf(ndir, sizeof(ndir), "%s/%s", path, e->d_name);
		snprintf(file, sizeof(file), "%s/threaded", ndir);
		nc_pc_set(nic, "threaded", file);
		snprintf(file, sizeof(file), "%s/napi_defer_hard_irqs", ndir);
		nc_pc_set(nic, "napi_defer_hard_irqs", file);
		snprintf(file, sizeof(file), "%s/gro_flush_timeout", ndir);
		nc_pc_set(nic, "gro_flush_timeout", file);
		snprintf(qdir, sizeof(qdir), "%s/queues", ndir);
		nc_pc_queues(nic, qdir, "rx-", "rps_cpus");
		nc_pc_queues(nic, qdir, "tx-", "xps_cpus");
		nc_pc_irqs(nic, ndir, proc, threads);
		json_object_set_new(nics, e->d_name, nic);
	}
	if (d)
		closedir(d);
	json_object_set_new(root, "nics", nics);
	one = nc_pc_same(ksoft);
	if (one) {
		json_object_set_new(root, "ksoftirqd", one);
		json_decref(ksoft);
	} else if (json_object_size(ksoft)) {
		json_object_set_new(root, "ksoftirqd", ksoft);
	} else {
		json_decref(ksoft);
	}
	json_decref(threads);
	return root;
}

/* nc_pc_flatten - every leaf of @v as "path" -> value into @out */
static void nc_pc_flatten(json_t *v, const char *path, json_t *out)
{
	char sub[512];
	const char *k;
	json_t *e;

	if (!json_is_object(v)) {
		json_object_set(out, path, v);
		return;
	}
	json_object_foreach(v, k, e) {
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", k);
		nc_pc_flatten(e, sub, out);
	}
}

json_t *nc_pathcfg_diff(json_t *a, json_t *b)
{
	json_t *fa = json_object(), *fb = json_object(), *out = json_array(), *v;
	const char *k;

	if (!json_is_object(a) || !json_is_object(b)) {
		json_decref(fa);
		json_decref(fb);
		return out;	/* an older snapshot: nothing to compare */
	}
	nc_pc_flatten(a, "", fa);
	nc_pc_flatten(b, "", fb);
	json_object_foreach(fa, k, v) {
		json_t *w = json_object_get(fb, k);

		if (!w || !json_equal(v, w))
			json_array_append_new(out, json_pack("{s:s, s:O, s:O}", "key", k, "a", v,
							     "b", w ? w : json_null()));
	}
	json_object_foreach(fb, k, v)
		if (!json_object_get(fa, k))
			json_array_append_new(out, json_pack("{s:s, s:n, s:O}", "key", k,
							     "a", "b", v));
	json_decref(fa);
	json_decref(fb);
	return out;
}
