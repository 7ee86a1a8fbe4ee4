// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - "netcost tasks [-j]": who holds the task table's slots now
 * (TASKS): each slot's pid, the task's name (/proc/PID/comm, read here:
 * the module never touches a task_struct to answer), its kind, the frames
 * open in it, and whether it is a load task (held until it exits) or has
 * a wake-up pending.  The text and the JSON are printed from the same
 * JSON object.
 */
#include <stdio.h>
#include <string.h>

#include "netcost_names.h"
#include "report.h"
#include "snapshot.h"
#include "stats.h"
#include "cmds.h"

/* nc_task_comm - /proc/PID/comm of @pid into @buf, or "" when it is gone */
static void nc_task_comm(uint32_t pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	if (!nc_read_first_line(path, buf, len))
		buf[0] = '\0';
}

/* nc_task_to_json - one held slot */
static json_t *nc_task_to_json(const struct nc_task_slot *t)
{
	json_t *frames = json_array();
	char comm[64];
	unsigned int b;

	for (b = 0; b < ARRAY_SIZE(netcost_task_frame_names); b++)
		if (t->frames & (1u << b))
			json_array_append_new(frames, json_string(netcost_task_frame_names[b]));
	nc_task_comm(t->pid, comm, sizeof(comm));
	return json_pack("{s:i, s:i, s:o, s:s, s:o, s:b, s:b}",
			 "slot", (json_int_t)t->slot, "pid", (json_int_t)t->pid,
			 "comm", *comm ? json_string(comm) : json_null(),
			 "kind", t->kind < ARRAY_SIZE(netcost_task_kind_names) ?
				 netcost_task_kind_names[t->kind] : "unknown",
			 "frames", frames, "load", t->load, "waking", t->waking);
}

/* nc_tasks_to_json - {"task_slots", "held", "kthreads", "tasks": [...]} */
static json_t *nc_tasks_to_json(const struct nc_task_list *l)
{
	json_t *a = json_array();
	size_t i, k = 0;

	for (i = 0; i < l->n; i++) {
		json_array_append_new(a, nc_task_to_json(&l->v[i]));
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

/* nc_print_tasks - the text form, read off the JSON object */
static void nc_print_tasks(json_t *o)
{
	json_t *tasks = json_object_get(o, "tasks"), *t, *f;
	size_t i, j;

	printf("task table: %lld of %lld slots held (%lld by the packet path's kernel threads)\n",
	       (long long)json_integer_value(json_object_get(o, "held")),
	       (long long)json_integer_value(json_object_get(o, "task_slots")),
	       (long long)json_integer_value(json_object_get(o, "kthreads")));
	if (!json_array_size(tasks))
		return;
	printf("\n%7s %8s  %-12s %-24s %s\n", "SLOT", "PID", "KIND", "STATE", "COMM");
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
		printf("%7lld %8lld  %-12s %-24s %s\n",
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
	o = nc_tasks_to_json(&l);
	nc_task_list_free(&l);
	if (json)
		ret = nc_json_print(stdout, o, 2);
	else
		nc_print_tasks(o);
	json_decref(o);
	return ret;
}
