// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - "netcost tasks [-j]": who holds the task table's slots now
 * (TASKS): each slot's pid, the task's name (/proc/PID/comm, read here:
 * the module never touches a task_struct to answer; escaped to printable
 * ASCII, since the task chose its bytes), its kind, the frames open in
 * it, and whether it is a load task (held until it exits) or has a
 * wake-up pending.  The text and the JSON are printed from the same JSON
 * object.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "netcost_names.h"
#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* /proc/PID/comm: up to 63 bytes (a kernel thread's full name) and a newline */
#define NC_COMM_LEN	64

/*
 * nc_task_comm - @proc/PID/comm of @pid into @buf (4 * NC_COMM_LEN + 8
 * bytes), escaped by nc_escape_ascii(): a task names itself with any
 * bytes, which would reach the terminal raw, and a name that is not
 * UTF-8 would be no JSON string.  False when the task is gone.
 */
static bool nc_task_comm(const char *proc, uint32_t pid, char *buf, size_t len)
{
	char path[PATH_MAX], raw[NC_COMM_LEN];
	size_t n;
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%u/comm", proc, pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	/* the whole file: a newline in the name is the name's, the last the kernel's */
	n = fread(raw, 1, sizeof(raw) - 1, f);
	ok = !ferror(f);
	fclose(f);
	if (n && raw[n - 1] == '\n')
		n--;
	raw[n] = '\0';
	nc_escape_ascii(raw, buf, len);
	return ok;
}

/* nc_task_to_json - one held slot, its name from @proc ("/proc") */
static json_t *nc_task_to_json(const struct nc_task_slot *t, const char *proc)
{
	json_t *frames = json_array();
	char comm[4 * NC_COMM_LEN + 8];
	unsigned int b;
	bool ok;

	for (b = 0; b < ARRAY_SIZE(netcost_task_frame_names); b++)
		if (t->frames & (1u << b))
			json_array_append_new(frames, json_string(netcost_task_frame_names[b]));
	ok = nc_task_comm(proc, t->pid, comm, sizeof(comm));
	return json_pack("{s:i, s:i, s:o, s:s, s:o, s:b, s:b}",
			 "slot", (json_int_t)t->slot, "pid", (json_int_t)t->pid,
			 "comm", ok ? json_string(comm) : json_null(),
			 "kind", t->kind < ARRAY_SIZE(netcost_task_kind_names) ?
				 netcost_task_kind_names[t->kind] : "unknown",
			 "frames", frames, "load", t->load, "waking", t->waking);
}

/* nc_tasks_to_json - {"task_slots", "held", "kthreads", "tasks": [...]}, names from @proc */
static json_t *nc_tasks_to_json(const struct nc_task_list *l, const char *proc)
{
	json_t *a = json_array();
	size_t i, k = 0;

	for (i = 0; i < l->n; i++) {
		json_array_append_new(a, nc_task_to_json(&l->v[i], proc));
		k += l->v[i].kind != NETCOST_TASK_KIND_OTHER;
	}
	return json_pack("{s:i, s:i, s:i, s:o}", "task_slots", (json_int_t)l->slots,
			 "held", (json_int_t)l->n, "kthreads", (json_int_t)k, "tasks", a);
}

/* nc_state_add - @what appended to the comma list @buf */
static void nc_state_add(char *buf, size_t len, size_t *off, const char *what)
{
	if (*off < len)
		*off += snprintf(buf + *off, len - *off, "%s%s", *off ? "," : "", what);
}

/* nc_print_tasks - the text form on @out, read off the JSON object */
static void nc_print_tasks(FILE *out, json_t *o)
{
	json_t *tasks = json_object_get(o, "tasks"), *t, *f;
	size_t i, j;

	fprintf(out, "task table: %lld of %lld slots held (%lld by the packet path's kernel threads)\n",
		(long long)json_integer_value(json_object_get(o, "held")),
		(long long)json_integer_value(json_object_get(o, "task_slots")),
		(long long)json_integer_value(json_object_get(o, "kthreads")));
	if (!json_array_size(tasks))
		return;
	fprintf(out, "\n%7s %8s  %-12s %-24s %s\n", "SLOT", "PID", "KIND", "STATE", "COMM");
	json_array_foreach(tasks, i, t) {
		json_t *comm = json_object_get(t, "comm");
		json_t *frames = json_object_get(t, "frames");
		char state[128];
		size_t off = 0;

		state[0] = '\0';
		json_array_foreach(frames, j, f)
			nc_state_add(state, sizeof(state), &off, json_string_value(f));
		if (json_is_true(json_object_get(t, "load")))
			nc_state_add(state, sizeof(state), &off, "load");
		if (json_is_true(json_object_get(t, "waking")))
			nc_state_add(state, sizeof(state), &off, "waking");
		fprintf(out, "%7lld %8lld  %-12s %-24s %s\n",
			(long long)json_integer_value(json_object_get(t, "slot")),
			(long long)json_integer_value(json_object_get(t, "pid")),
			json_string_value(json_object_get(t, "kind")), off ? state : "-",
			json_is_string(comm) ? json_string_value(comm) : "(gone)");
	}
}

/* cmd_tasks - "netcost tasks [-j]" */
int cmd_tasks(int argc, char **argv)
{
	struct nc_task_list l;
	struct nc_nl nl;
	bool json;
	json_t *o;
	int ret;

	ret = nc_opt_json(argc, argv, &json, 0, 0);
	if (ret)
		return ret;
	ret = nc_nl_open(&nl);
	if (ret)
		return ret;
	ret = nc_fetch_tasks(&nl, &l);
	nc_nl_close(&nl);
	if (ret) {
		nc_task_list_free(&l);
		return ret;
	}
	o = nc_tasks_to_json(&l, "/proc");
	nc_task_list_free(&l);
	if (json)
		ret = nc_json_print(stdout, o, 2);
	else
		nc_print_tasks(stdout, o);
	json_decref(o);
	return ret;
}
