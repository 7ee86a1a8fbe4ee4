/* SPDX-License-Identifier: GPL-2.0 */
/* netlink.h - the "netcost" generic netlink family (netlink.c) */
#ifndef _NETCOST_NETLINK_H
#define _NETCOST_NETLINK_H

#include <linux/types.h>

int nc_netlink_init(void);
void nc_set_recording(bool on);
void nc_netlink_exit(void);

#endif /* _NETCOST_NETLINK_H */
