/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - read the module into the model: INFO, STATS, CONFIG_GET
 * ("netcost info/dump/watch/save/export/config"); and the task table's
 * held slots (TASKS, "netcost tasks").
 */
#ifndef NETCOST_STATS_H
#define NETCOST_STATS_H

#include "model.h"
#include "nl.h"

int nc_fetch_info(struct nc_nl *nl, struct nc_info *info);
int nc_fetch_config(struct nc_nl *nl, struct nc_config *cfg);
int nc_fetch(struct nc_nl *nl, struct nc_model *m);
int nc_fetch_once(struct nc_model *m);
int nc_parse_stats_msg(const struct nlmsghdr *nlh, struct nc_model *m);
int nc_parse_info_msg(const struct nlmsghdr *nlh, struct nc_info *info);

/* one held slot of the task table (TASKS) */
struct nc_task_slot {
	uint32_t slot;
	uint32_t pid;
	uint32_t frames;		/* NETCOST_TASK_FRAME_* */
	uint8_t kind;			/* enum netcost_task_kind */
	bool load;
	bool waking;
};

struct nc_task_list {
	uint32_t slots;			/* the table's size */
	size_t n, cap;
	struct nc_task_slot *v;		/* in slot order */
};

int nc_fetch_tasks(struct nc_nl *nl, struct nc_task_list *l);
int nc_parse_tasks_msg(const struct nlmsghdr *nlh, struct nc_task_list *l);
void nc_task_list_free(struct nc_task_list *l);

#endif
