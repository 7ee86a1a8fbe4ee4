// SPDX-License-Identifier: GPL-2.0
/*
 * napi.c - per NAPI instance, per CPU: polls, packets, timed polls and
 * their napi_poll cycles (0.9.0).
 *
 * A multiqueue NIC has one NAPI instance per queue, each with its own
 * IRQ and, under threaded NAPI, its own thread; the napi_poll stage adds
 * them all up.  The napi_poll probe (probes_net.c) hands every poll to
 * nc_napi_account(), which adds it to this CPU's slot for the instance.
 * An instance is keyed by its napi_struct and told apart from a later
 * one at the same address by its napi_id and ifindex; its device name is
 * taken when it first polls on the CPU (after a reset: on its first poll
 * since).  A CPU has NC_NAPI_SLOTS slots; the polls of an instance that
 * finds none count in napi_table_full.
 *
 * A slot is written only on its own CPU with interrupts off (netpoll can
 * poll from a hard IRQ), and read by the STATS dump on any CPU: one
 * sequence count per CPU, odd while a write or a reset runs, lets the
 * reader retry until its copy is whole, as hist.c does per histogram.
 */
#include <linux/hash.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "netcost.h"
#include "hist.h"
#include "napi.h"

struct nc_napi_table __percpu *nc_napis;

/* nc_napi_fill - claim @s for @napi, with the identity its look-up read */
static void nc_napi_fill(struct nc_napi_slot *s, const struct napi_struct *napi,
			 const struct net_device *dev, u32 id, u32 ifindex)
{
	memset(s, 0, sizeof(*s));
	s->key = napi;
	s->id = id;
	s->ifindex = ifindex;
	if (dev)
		strscpy(s->ifname, dev->name, sizeof(s->ifname));
}

/*
 * nc_napi_slot - @napi's slot in table @t, claimed if it has none yet;
 * NULL when the table is full.  Open addressing from the pointer's hash.
 */
static struct nc_napi_slot *nc_napi_slot(struct nc_napi_table *t,
					 const struct napi_struct *napi)
{
	const struct net_device *dev = READ_ONCE(napi->dev);
	u32 id = READ_ONCE(napi->napi_id);
	u32 ifindex = dev ? READ_ONCE(dev->ifindex) : 0;
	u32 h = hash_ptr(napi, NC_NAPI_SLOTS_BITS), i;

	for (i = 0; i < NC_NAPI_SLOTS; i++) {
		struct nc_napi_slot *s = &t->s[(h + i) & (NC_NAPI_SLOTS - 1)];

		if (!s->key) {
			nc_napi_fill(s, napi, dev, id, ifindex);
			return s;
		}
		if (s->key == napi && s->id == id && s->ifindex == ifindex)
			return s;
	}
	return NULL;
}

/*
 * nc_napi_account - one poll of @napi on this CPU: @work packets, and,
 * when @timed, @cycles in the napi_poll stage.  Probe context.
 */
void nc_napi_account(const struct napi_struct *napi, int work, bool timed,
		     u64 cycles)
{
	struct nc_napi_table *t;
	struct nc_napi_slot *s;
	struct task_struct *thr;
	unsigned long flags;

	if (!(this_cpu_read(nc_cpu.rec) & NETCOST_GROUP_NET))
		return;
	local_irq_save(flags);
	t = this_cpu_ptr(nc_napis);
	WRITE_ONCE(t->seq, t->seq + 1);
	smp_wmb();	/* seq odd before the slot moves */
	s = nc_napi_slot(t, napi);
	if (s) {
		s->polls++;
		s->packets += max(work, 0);
		if (timed) {
			s->timed++;
			s->cycles += cycles;
		}
		/* a device's NAPI only: a CPU's backlog has none (its field is 0) */
		s->irq = READ_ONCE(napi->dev) ? NC_NAPI_IRQ(napi) : -1;
		thr = READ_ONCE(napi->thread);
		s->pid = thr ? task_pid_nr(thr) : 0;
	}
	smp_wmb();	/* the slot in place before seq turns even */
	WRITE_ONCE(t->seq, t->seq + 1);
	local_irq_restore(flags);
	if (!s)
		nc_count(NETCOST_CTR_NAPI_TABLE_FULL, 1);
}

/*
 * nc_napi_copy - @cpu's instances into @dst (slots in use, packed);
 * false when a writer kept the copy busy (it may be torn).
 */
bool nc_napi_copy(int cpu, struct nc_napi_table *dst)
{
	const struct nc_napi_table *t = per_cpu_ptr(nc_napis, cpu);
	int tries = 100;
	u32 s1, i, n;

	do {
		s1 = READ_ONCE(t->seq);
		smp_rmb();	/* pairs with nc_napi_account()'s first smp_wmb() */
		for (i = 0, n = 0; i < NC_NAPI_SLOTS; i++) {
			if (READ_ONCE(t->s[i].key))
				dst->s[n++] = t->s[i];
		}
		smp_rmb();	/* the slots read before seq again: pairs with the second */
		if (!(s1 & 1) && s1 == READ_ONCE(t->seq))
			break;
		cpu_relax();
	} while (--tries);
	dst->seq = n;	/* the copy's seq holds its count */
	return tries > 0;
}

/*
 * nc_napi_clear - empty @cpu's table: on its own CPU from the reset's
 * IPI (interrupts off), or for an offline CPU from the reset itself
 * (netlink.c hands it to nc_stats_reset())
 */
void nc_napi_clear(int cpu)
{
	struct nc_napi_table *t = per_cpu_ptr(nc_napis, cpu);

	WRITE_ONCE(t->seq, t->seq + 1);
	smp_wmb();	/* seq odd before the slots clear: pairs with nc_napi_copy() */
	memset(t->s, 0, sizeof(t->s));
	smp_wmb();	/* the slots clear before seq turns even */
	WRITE_ONCE(t->seq, t->seq + 1);
}

int nc_napi_init(void)
{
	nc_napis = alloc_percpu(struct nc_napi_table);
	return nc_napis ? 0 : -ENOMEM;
}

void nc_napi_exit(void)
{
	free_percpu(nc_napis);
	nc_napis = NULL;
}
