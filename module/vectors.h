/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vectors.h - interrupt vectors without tracepoints (vectors.c), which
 * INFO names
 */
#ifndef _NETCOST_VECTORS_H
#define _NETCOST_VECTORS_H

#include <linux/types.h>

struct sk_buff;

#define NC_UNTRACED_MAX	3	/* hypervisor callback, KVM async PF, posted MSI */
size_t nc_untraced_size(void);
int nc_untraced_put(struct sk_buff *msg);
void nc_untraced_warn(void);

#endif /* _NETCOST_VECTORS_H */
