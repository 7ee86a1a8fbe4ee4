/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - the generic netlink socket every live subcommand talks through
 * ("netcost info/dump/reset/config/watch/save/export").
 */
#ifndef NETCOST_NL_H
#define NETCOST_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

#define NC_NL_BUFSIZE	(64 * 1024)	/* >= 32 KiB: a dump skb fits */

struct nc_nl {
	struct mnl_socket *sock;
	char *buf;			/* NC_NL_BUFSIZE, requests and replies */
	unsigned int portid;
	unsigned int seq;
	uint16_t family;		/* resolved id of "netcost" */
	uint32_t family_version;	/* CTRL_ATTR_VERSION */
	bool dump_intr;			/* the last dump saw NLM_F_DUMP_INTR */
	const char *name;		/* the family's name; NULL: "netcost" (tests) */
};

int nc_nl_open(struct nc_nl *nl);
void nc_nl_close(struct nc_nl *nl);
struct nlmsghdr *nc_nl_request(struct nc_nl *nl, uint8_t cmd, uint16_t flags);
int nc_nl_talk(struct nc_nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
const char *nc_nl_cmd_name(uint8_t cmd);
int nc_nl_replay(struct nc_nl *nl, void *buf, size_t len, unsigned int seq, uint8_t cmd,
		 mnl_cb_t cb, void *data);

#endif
