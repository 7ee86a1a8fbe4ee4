// SPDX-License-Identifier: GPL-2.0
/*
 * probes_irq.c - hardirq handlers, threaded handlers and irq_exit().
 *
 * hardirq / hardirq_other: one primary handler run, irq_handler_entry ->
 * irq_handler_exit.  Handlers do not nest, so one per-CPU start time is
 * enough; the run's cycles are added to the CPU's hard_total, which every
 * other stage subtracts.  hardirq_vectors: the same for x86 system
 * vectors (irq_vectors tracepoints) and NMI handlers (nmi_handler).
 *
 * irq_thread: one threaded-handler run of a NIC IRQ, by kretprobe on
 * irq_forced_thread_fn()/irq_thread_fn().  The start time lives in the
 * kretprobe instance, the excluded time in the task table: on RT the
 * thread can be preempted and migrated mid-run.  The softirq work that
 * local_bh_enable() does at the end of a forced-threaded run is part of
 * the run (and also shows as net_rx_in_irq_thread).
 *
 * NIC IRQs, by default, are those whose action name is a network
 * device's or its parent device's name ("eth0", "virtio0"), or starts
 * with one of them and a dash ("eth0-rx-0", "virtio0-input.0").  The names come from a
 * netdevice notifier; the verdict is cached per IRQ.
 */
#include <linux/bitmap.h>
#include <linux/interrupt.h>
#include <linux/irqnr.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <asm/tsc.h>

#include "netcost.h"

#define NC_MAX_NETDEVS	64

struct nc_netdev_name {
	const struct net_device *dev;	/* key, compared only */
	char name[IFNAMSIZ];
	char parent[32];
};

static struct nc_netdev_name nc_names[NC_MAX_NETDEVS];
static DEFINE_RAW_SPINLOCK(nc_names_lock);
static unsigned long *nc_irq_known;	/* nr_irqs bits: verdict cached */
static unsigned long *nc_irq_nic;	/* nr_irqs bits: the verdict */
static unsigned int nc_nr_irqs;

static bool nc_name_is(const char *action, const char *dev)
{
	size_t n = strlen(dev);

	if (!n || strncmp(action, dev, n))
		return false;
	return action[n] == '-' || !action[n];
}

/* nc_irq_classify - whether an action name belongs to a network device */
static bool nc_irq_classify(const char *action)
{
	unsigned long flags;
	bool nic = false;
	int i;

	raw_spin_lock_irqsave(&nc_names_lock, flags);
	for (i = 0; i < NC_MAX_NETDEVS && !nic; i++) {
		if (!nc_names[i].dev)
			continue;
		nic = nc_name_is(action, nc_names[i].name) ||
		      nc_name_is(action, nc_names[i].parent);
	}
	raw_spin_unlock_irqrestore(&nc_names_lock, flags);
	return nic;
}

/* nc_irq_is_nic - whether @irq (action @name) counts as a NIC IRQ */
bool nc_irq_is_nic(int irq, const char *name)
{
	bool nic;

	if (irq < 0 || irq >= nc_nr_irqs)
		return false;
	if (!READ_ONCE(nc_cfg.nic_irqs_auto))
		return test_bit(irq, nc_cfg.nic_irqs);
	if (test_bit(irq, nc_irq_known))
		return test_bit(irq, nc_irq_nic);

	nic = name && nc_irq_classify(name);
	if (nic)
		set_bit(irq, nc_irq_nic);
	else
		clear_bit(irq, nc_irq_nic);
	smp_mb__before_atomic();
	set_bit(irq, nc_irq_known);
	return nic;
}

/* nc_irq_config_changed - forget cached verdicts (names or config moved) */
void nc_irq_config_changed(void)
{
	int i;

	for (i = 0; i < nc_nr_irqs; i++)
		clear_bit(i, nc_irq_known);
}

void nc_tp_irq_handler_entry(void *data, int irq, struct irqaction *action)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	struct nc_stamp st;

	c->hardirq_irq = irq;
	c->hardirq_nic = nc_irq_is_nic(irq, action->name);
	nc_probe_end(t0);
	nc_stamp(c, &st);
	c->hardirq_hard = st.hard;
	c->hardirq_start = st.now;
}

/*
 * nc_hard_end - a hard frame ended: its net cycles (less the NMIs inside
 * it, which added their own) go to this CPU's hard_total, in one
 * instruction, since an NMI may add to it at any time.
 */
static u64 nc_hard_end(struct nc_cpu *c, u64 start, u64 hard_at_start)
{
	struct nc_stamp st;
	u64 d;

	nc_stamp(c, &st);
	d = nc_net(st.now, start, st.hard - hard_at_start);
	this_cpu_add(nc_cpu.hard_total, d);
	return d;
}

void nc_tp_irq_handler_exit(void *data, int irq, struct irqaction *action,
			    int ret)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->hardirq_start;
	u64 t0, d;

	if (!start || c->hardirq_irq != irq)
		return;
	d = nc_hard_end(c, start, c->hardirq_hard);
	c->hardirq_start = 0;
	t0 = nc_probe_begin(data);
	if (c->hardirq_nic) {
		nc_record(NETCOST_STAGE_HARDIRQ, d);
		nc_count(NETCOST_CTR_NIC_IRQS, 1);
	} else {
		nc_record(NETCOST_STAGE_HARDIRQ_OTHER, d);
	}
	nc_probe_end(t0);
}

/*
 * nc_tp_vector_entry/exit - x86 system vectors (local APIC timer, IPIs,
 * irq_work, ...; the irq_vectors tracepoints, one probe pair for all):
 * interrupt time like any handler's, recorded as hardirq_vectors.  They
 * do not nest in each other or in a handler (interrupts are off).
 */
void nc_tp_vector_entry(void *data, int vector)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 t0 = nc_probe_begin(data);
	struct nc_stamp st;

	nc_probe_end(t0);
	nc_stamp(c, &st);
	c->vector_hard = st.hard;
	c->vector_start = st.now;
}

void nc_tp_vector_exit(void *data, int vector)
{
	NC_TP_GUARD()
	struct nc_cpu *c = this_nc_cpu();
	u64 start = c->vector_start;
	u64 t0, d;

	if (!start)
		return;
	d = nc_hard_end(c, start, c->vector_hard);
	c->vector_start = 0;
	t0 = nc_probe_begin(data);
	nc_record(NETCOST_STAGE_HARDIRQ_VECTORS, d);
	nc_probe_end(t0);
}

/*
 * nc_tp_nmi_handler - one NMI handler ran for @delta_ns (the kernel's
 * own measurement; there is no entry event): its cycles are interrupt
 * time of whatever it interrupted.
 */
void nc_tp_nmi_handler(void *data, void *handler, s64 delta_ns, int handled)
{
	NC_TP_GUARD()
	u64 t0 = nc_probe_begin(data);
	u64 d;

	if (delta_ns > 0) {
		d = mul_u64_u32_div(delta_ns, tsc_khz, NSEC_PER_MSEC);
		this_cpu_add(nc_cpu.hard_total, d);
		nc_record(NETCOST_STAGE_HARDIRQ_VECTORS, d);
	}
	nc_probe_end(t0);
}

/*
 * nc_krp_do_softirq_entry/ret - track which task is inside do_softirq(),
 * the way a stock kernel's local_bh_enable() runs pending softirqs.  A
 * softirq run anywhere else on a stock kernel, but in ksoftirqd, comes
 * from irq_exit().  (Probing do_softirq(), once per bh_enable that finds
 * work, costs a fraction of probing irq_exit_rcu() at every interrupt.)
 */
int nc_krp_do_softirq_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	u64 t0 = nc_probe_begin(nc_krp_hook(ri));

	this_nc_cpu()->bh_owner = current;
	nc_probe_end(t0);
	return 0;
}

int nc_krp_do_softirq_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	this_nc_cpu()->bh_owner = NULL;
	return 0;
}

/*
 * nc_krp_irq_thread_entry - a threaded handler starts: open the task's
 * IRQ-thread frame.  Returning non-zero skips the return probe, for
 * handlers that are not a NIC's and for a call nested in an open run.
 */
int nc_krp_irq_thread_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct irqaction *action = (void *)regs_get_kernel_argument(regs, 1);
	struct nc_irq_thread_run *run = (void *)ri->data;
	u64 t0 = nc_probe_begin(nc_krp_hook(ri));
	struct nc_stamp st;
	struct nc_task *t;

	if (!action || !nc_irq_is_nic(action->irq, action->name))
		goto skip;
	t = nc_task_get(current);
	/*
	 * Since 7.x irq_forced_thread_fn() calls irq_thread_fn(): the inner
	 * call is part of the run the outer one opened, not a run of its own.
	 */
	if (!t || (t->frames & NC_FRAME_IRQ_THREAD))
		goto skip;
	run->irq = action->irq;
	nc_probe_end(t0);
	nc_stamp(this_nc_cpu(), &st);
	nc_task_settle(t, &st);
	t->frames |= NC_FRAME_IRQ_THREAD;
	t->thr_excl = 0;
	run->start = st.now;
	return 0;

skip:
	nc_probe_end(t0);
	return 1;
}

/* nc_krp_irq_thread_ret - the run ends, wherever the thread now is */
int nc_krp_irq_thread_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct nc_irq_thread_run *run = (void *)ri->data;
	struct nc_stamp st;
	struct nc_task *t;
	u64 t0;

	nc_stamp(this_nc_cpu(), &st);
	t0 = nc_probe_begin(NULL);
	t = nc_task_find(current);
	if (!t || !(t->frames & NC_FRAME_IRQ_THREAD))
		goto out;
	nc_task_settle(t, &st);
	t->frames &= ~NC_FRAME_IRQ_THREAD;
	nc_record(NETCOST_STAGE_IRQ_THREAD, nc_net(st.now, run->start, t->thr_excl));
out:
	nc_probe_end(t0);
	return 0;
}

/* ---- network device names, for the default NIC IRQ list ---- */

static void nc_names_update(const struct net_device *dev, bool add)
{
	const char *parent = dev->dev.parent ? dev_name(dev->dev.parent) : "";
	struct nc_netdev_name *slot = NULL;
	unsigned long flags;
	int i;

	if (dev->flags & IFF_LOOPBACK)
		return;
	raw_spin_lock_irqsave(&nc_names_lock, flags);
	for (i = 0; i < NC_MAX_NETDEVS; i++) {
		if (nc_names[i].dev == dev) {
			slot = &nc_names[i];
			break;
		}
		if (!slot && !nc_names[i].dev)
			slot = &nc_names[i];
	}
	if (slot && add) {
		slot->dev = dev;
		strscpy(slot->name, dev->name, sizeof(slot->name));
		strscpy(slot->parent, parent, sizeof(slot->parent));
	} else if (slot && slot->dev == dev) {
		memset(slot, 0, sizeof(*slot));
	}
	raw_spin_unlock_irqrestore(&nc_names_lock, flags);
	nc_irq_config_changed();
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

/* nc_irq_init - verdict bitmaps, and the names of existing devices */
int nc_irq_init(void)
{
	int err;

	nc_nr_irqs = nc_get_nr_irqs();
	nc_irq_known = bitmap_zalloc(nc_nr_irqs, GFP_KERNEL);
	nc_irq_nic = bitmap_zalloc(nc_nr_irqs, GFP_KERNEL);
	nc_cfg.nic_irqs = bitmap_zalloc(nc_nr_irqs, GFP_KERNEL);
	if (!nc_irq_known || !nc_irq_nic || !nc_cfg.nic_irqs) {
		err = -ENOMEM;
		goto err_free;
	}
	/* replays NETDEV_REGISTER for every device in every namespace */
	err = register_netdevice_notifier(&nc_netdev_nb);
	if (err)
		goto err_free;
	return 0;

err_free:
	bitmap_free(nc_cfg.nic_irqs);
	bitmap_free(nc_irq_nic);
	bitmap_free(nc_irq_known);
	return err;
}

/* nc_irq_exit - after the probes are gone */
void nc_irq_exit(void)
{
	unregister_netdevice_notifier(&nc_netdev_nb);
	bitmap_free(nc_cfg.nic_irqs);
	bitmap_free(nc_irq_nic);
	bitmap_free(nc_irq_known);
}

/* nc_irq_max - the IRQ numbers CONFIG accepts: [0, nr_irqs) */
unsigned int nc_irq_max(void)
{
	return nc_nr_irqs;
}
