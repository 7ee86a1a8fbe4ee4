/* SPDX-License-Identifier: GPL-2.0 */
/*
 * napi.h - per NAPI instance, per CPU (napi.c): the table the napi_poll
 * probe adds every poll to, and the STATS dump copies.
 */
#ifndef _NETCOST_NAPI_H
#define _NETCOST_NAPI_H

#include <linux/bits.h>
#include <linux/types.h>

#define NC_NAPI_SLOTS_BITS	4
#define NC_NAPI_SLOTS		BIT(NC_NAPI_SLOTS_BITS)

struct nc_napi_slot {
	const void *key;		/* the napi_struct; NULL: free */
	u32 id;				/* napi_id */
	u32 ifindex;
	s32 irq;			/* napi->irq at the last poll; < 0: none */
	u32 pid;			/* its NAPI thread at the last poll; 0: none */
	u64 polls, packets, timed, cycles;
	char ifname[16];		/* IFNAMSIZ */
};

struct nc_napi_table {
	u32 seq;			/* odd while a write or a clear runs */
	struct nc_napi_slot s[NC_NAPI_SLOTS];
};

extern struct nc_napi_table __percpu *nc_napis;

struct napi_struct;
void nc_napi_account(const struct napi_struct *napi, int work, bool timed,
		     u64 cycles);
bool nc_napi_copy(int cpu, struct nc_napi_table *dst);
void nc_napi_clear(int cpu);
int nc_napi_init(void);
void nc_napi_exit(void);

#endif /* _NETCOST_NAPI_H */
