/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - read the module into the model: INFO, STATS, CONFIG_GET
 * ("netcost info/dump/watch/save/export/config").
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

#endif
