// SPDX-License-Identifier: GPL-2.0
/*
 * nic.c - which IRQs are a network device's: the default NIC IRQ list.
 *
 * The names of every network device with a parent device (interface,
 * parent device, parent's driver) come from a netdevice notifier, in
 * every namespace, into an RCU-published array that grows with the
 * devices (no limit on their number).  A device with no parent (veth,
 * bridge, tun, vlan, bond, wireguard) has no IRQ of its own and is left
 * out: a box that makes and deletes thousands of veths for its
 * containers neither grows the list nor makes the IRQs classify again.
 * nc_irq_is_nic() matches an IRQ's action name against it with
 * nc_nic_name_match() (nic.h, unit-tested in userspace), once per IRQ
 * and name-list generation: a verdict carries the generation it was
 * computed from and is recomputed when the list has changed since, so a
 * rename racing with a classification cannot leave a stale verdict.
 * CONFIG can replace the automatic list by explicit IRQ numbers: a
 * bitmap sized to the largest of them, published by RCU like the names,
 * so that a list can name an IRQ the kernel added after load (the
 * kernel's nr_irqs when CONFIG runs bounds it, not the one at load).
 */
#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/irqnr.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "netcost.h"
#include "nic.h"

struct nc_nic_name {
	const struct net_device *dev;	/* key, compared only */
	char name[IFNAMSIZ];
	char parent[64];
	char driver[32];
};

struct nc_nic_names {
	struct rcu_head rcu;
	unsigned int n;
	struct nc_nic_name e[];
};

/* the explicit list: IRQ numbers below @nbits whose bit is set */
struct nc_irq_list {
	struct rcu_head rcu;
	unsigned int nbits;
	unsigned long bits[];
};

static struct nc_nic_names __rcu *nc_names;
static DEFINE_MUTEX(nc_names_mutex);	/* writers of nc_names and nc_names_gen */
static unsigned int nc_names_gen = 1;	/* nc_nic_gen_next() */
/* NULL: none given; written by CONFIG only, under netlink.c's mutex */
static struct nc_irq_list __rcu *nc_irq_list;
static u32 *nc_irq_verdict;		/* nr_irqs: nc_nic_verdict() */
static unsigned int nc_nr_irqs;

/*
 * test_nr_irqs (test only): nr_irqs taken as at most N at load, so that
 * the IRQs from N up are read as the kernel's later ones (sparse IRQs
 * raise nr_irqs after load; the lab's never grows: guest/t-nic.sh)
 */
#ifdef NC_TEST_BUILD
static unsigned int nc_test_nr_irqs;
module_param_named(test_nr_irqs, nc_test_nr_irqs, uint, 0400);
MODULE_PARM_DESC(test_nr_irqs, "test only: take nr_irqs as at most N at load (0: the kernel's)");
static unsigned int nc_nr_irqs_at_load(void)
{
	unsigned int n = nc_get_nr_irqs();

	return nc_test_nr_irqs ? min(n, nc_test_nr_irqs) : n;
}
#else
static unsigned int nc_nr_irqs_at_load(void)
{
	return nc_get_nr_irqs();
}
#endif

/* nc_names_bump - a new generation: every cached verdict is stale */
static void nc_names_bump(void)
{
	lockdep_assert_held(&nc_names_mutex);
	/* the new list is published before its generation: pairs with nc_irq_is_nic() */
	smp_store_release(&nc_names_gen, nc_nic_gen_next(nc_names_gen));
}

/* nc_irq_classify - whether an action name belongs to a network device */
static bool nc_irq_classify(const char *action)
{
	const struct nc_nic_names *l;
	bool nic = false;
	unsigned int i;

	rcu_read_lock();
	l = rcu_dereference(nc_names);
	for (i = 0; l && i < l->n && !nic; i++)
		nic = nc_nic_name_match(action, l->e[i].name, l->e[i].parent,
					l->e[i].driver);
	rcu_read_unlock();
	return nic;
}

/* nc_irq_is_nic - whether @irq (action @name) counts as a NIC IRQ */
bool nc_irq_is_nic(int irq, const char *name)
{
	unsigned int gen, v;
	bool nic;

	if (irq < 0)
		return false;
	if (!READ_ONCE(nc_cfg.nic_irqs_auto)) {
		const struct nc_irq_list *l;

		rcu_read_lock();
		l = rcu_dereference(nc_irq_list);
		nic = l && irq < l->nbits && test_bit(irq, l->bits);
		rcu_read_unlock();
		return nic;
	}
	/*
	 * With sparse IRQs the kernel raises nr_irqs after load (VFs, more
	 * channels, a driver loaded later): such an IRQ has no cached
	 * verdict, and is classified by its name every time
	 */
	if (unlikely(irq >= nc_nr_irqs))
		return name && nc_irq_classify(name);
	/* pairs with nc_names_bump(): the list is at least generation @gen */
	gen = smp_load_acquire(&nc_names_gen);
	v = READ_ONCE(nc_irq_verdict[irq]);
	if (nc_nic_verdict_valid(v, gen))
		return v & 1;
	nic = name && nc_irq_classify(name);
	WRITE_ONCE(nc_irq_verdict[irq], nc_nic_verdict(gen, nic));
	return nic;
}

/* nc_nic_devices - devices in the name list now, for INFO */
unsigned int nc_nic_devices(void)
{
	const struct nc_nic_names *l;
	unsigned int n;

	rcu_read_lock();
	l = rcu_dereference(nc_names);
	n = l ? l->n : 0;
	rcu_read_unlock();
	return n;
}

/* nc_irq_config_changed - forget cached verdicts (names or config moved) */
void nc_irq_config_changed(void)
{
	mutex_lock(&nc_names_mutex);
	nc_names_bump();
	mutex_unlock(&nc_names_mutex);
}

static void nc_nic_name_fill(struct nc_nic_name *e, const struct net_device *dev)
{
	const struct device *parent = dev->dev.parent;

	memset(e, 0, sizeof(*e));
	e->dev = dev;
	strscpy(e->name, dev->name, sizeof(e->name));
	if (parent) {
		strscpy(e->parent, dev_name(parent), sizeof(e->parent));
		if (parent->driver)
			strscpy(e->driver, parent->driver->name, sizeof(e->driver));
	}
}

/*
 * nc_names_update - add, rename or remove @dev: a new array replaces the
 * old one (RCU), then the generation moves on.  Process context, RTNL.
 */
static void nc_names_update(const struct net_device *dev, bool add)
{
	struct nc_nic_names *old, *new;
	struct nc_nic_name e;
	unsigned int i, n = 0, found = UINT_MAX;

	if ((dev->flags & IFF_LOOPBACK) || !dev->dev.parent)
		return;
	if (add)
		nc_nic_name_fill(&e, dev);
	mutex_lock(&nc_names_mutex);
	old = rcu_dereference_protected(nc_names, lockdep_is_held(&nc_names_mutex));
	for (i = 0; old && i < old->n; i++) {
		if (old->e[i].dev == dev)
			found = i;
	}
	if (found == UINT_MAX && !add)
		goto out;
	if (found != UINT_MAX && add && !memcmp(&old->e[found], &e, sizeof(e)))
		goto out;	/* NETDEV_UP with the same names */

	/* on failure the old list stays: this device's IRQs are not found */
	new = kvmalloc(struct_size(new, e, (old ? old->n : 0) + 1), GFP_KERNEL);
	if (!new)
		goto out;
	for (i = 0; old && i < old->n; i++) {
		if (i != found)
			new->e[n++] = old->e[i];
	}
	if (add)
		new->e[n++] = e;
	new->n = n;
	rcu_assign_pointer(nc_names, new);
	nc_names_bump();
	if (old)
		kvfree_rcu(old, rcu);
out:
	mutex_unlock(&nc_names_mutex);
}

static int nc_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_REGISTER:
	case NETDEV_CHANGENAME:
	case NETDEV_UP:
		nc_names_update(dev, true);
		break;
	case NETDEV_UNREGISTER:
		nc_names_update(dev, false);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block nc_netdev_nb = {
	.notifier_call = nc_netdev_event,
};

/* nc_irq_init - verdict cache and the existing devices */
int nc_irq_init(void)
{
	int err;

	nc_nr_irqs = nc_nr_irqs_at_load();
	nc_irq_verdict = kvcalloc(nc_nr_irqs, sizeof(*nc_irq_verdict), GFP_KERNEL);
	if (!nc_irq_verdict)
		return -ENOMEM;
	/* replays NETDEV_REGISTER (and UP) for every device in every namespace */
	err = register_netdevice_notifier(&nc_netdev_nb);
	if (err)
		kvfree(nc_irq_verdict);
	return err;
}

/* nc_irq_exit - after the probes are gone: no reader is left */
void nc_irq_exit(void)
{
	unregister_netdevice_notifier(&nc_netdev_nb);
	kvfree(rcu_dereference_protected(nc_names, true));
	RCU_INIT_POINTER(nc_names, NULL);
	kvfree(rcu_dereference_protected(nc_irq_list, true));
	RCU_INIT_POINTER(nc_irq_list, NULL);
	kvfree(nc_irq_verdict);
}

/*
 * nc_irq_max - the IRQ numbers CONFIG accepts: [0, nr_irqs), the
 * kernel's now (sparse IRQs raise it after load)
 */
unsigned int nc_irq_max(void)
{
	return nc_get_nr_irqs();
}

/*
 * The explicit list: CONFIG makes a new one (nc_irq_list_new(), then
 * nc_irq_list_add() for each IRQ) and publishes it, which replaces the
 * old one whole: a probe sees one list or the other.  Writers are
 * serialised by the netlink family's mutex; the readers below run there.
 */
struct nc_irq_list *nc_irq_list_new(unsigned int nbits)
{
	struct nc_irq_list *l;

	l = kvzalloc(struct_size(l, bits, BITS_TO_LONGS(nbits)), GFP_KERNEL);
	if (l)
		l->nbits = nbits;
	return l;
}

void nc_irq_list_add(struct nc_irq_list *l, unsigned int irq)
{
	if (irq < l->nbits)
		set_bit(irq, l->bits);
}

/* nc_irq_list_publish - @l (or NULL: none) replaces the list */
void nc_irq_list_publish(struct nc_irq_list *l)
{
	struct nc_irq_list *old;

	old = rcu_replace_pointer(nc_irq_list, l, true);
	if (old)
		kvfree_rcu(old, rcu);
}

/* nc_irq_list_free - a list never published (NULL: nothing) */
void nc_irq_list_free(struct nc_irq_list *l)
{
	kvfree(l);
}

/* nc_irq_list_count - IRQs in the list */
unsigned int nc_irq_list_count(void)
{
	const struct nc_irq_list *l;
	unsigned int n;

	rcu_read_lock();
	l = rcu_dereference(nc_irq_list);
	n = l ? bitmap_weight(l->bits, l->nbits) : 0;
	rcu_read_unlock();
	return n;
}

/* nc_irq_list_next - the first listed IRQ from @irq up, or -1 */
int nc_irq_list_next(int irq)
{
	const struct nc_irq_list *l;
	unsigned int next;

	rcu_read_lock();
	l = rcu_dereference(nc_irq_list);
	next = l ? find_next_bit(l->bits, l->nbits, irq) : 0;
	if (!l || next >= l->nbits)
		next = UINT_MAX;
	rcu_read_unlock();
	return next == UINT_MAX ? -1 : next;
}
