/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nic.h - whether an IRQ action name belongs to a network device: the
 * pure matching rule of nic.c, header-only so that tests/unit compiles
 * it in userspace (test_nic.c) against a table of real drivers' names.
 *
 * A device is known by up to three names: its interface name ("eth0"),
 * its parent device's name ("0000:03:00.0", "virtio1") and its parent's
 * driver ("mlx5_core", "i40e").  An action name is the device's when,
 * after an optional "<driver>-" prefix, it is one of the first two names
 * alone or followed by '-' or ':' (eth0, eth0-TxRx-3, virtio1-input.0,
 * i40e-0000:03:00.0:misc), or when it ends in "@<bus>:<parent>"
 * (mlx5_comp3@pci:0000:03:00.0, gve-ntfy-blk0@pci:0000:00:04.0).
 *
 * At the end, for the kernel only: what nic.c gives the rest of the
 * module.
 */
#ifndef _NETCOST_NIC_H
#define _NETCOST_NIC_H

#ifdef __KERNEL__
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <string.h>
#endif

/* nc_nic_prefix - @s starts with @name, followed by the end, '-' or ':' */
static inline bool nc_nic_prefix(const char *s, const char *name)
{
	size_t n = strlen(name);

	if (!n || strncmp(s, name, n))
		return false;
	return !s[n] || s[n] == '-' || s[n] == ':';
}

/* nc_nic_at_parent - @action ends in "@<bus>:<parent>" or "@<parent>" */
static inline bool nc_nic_at_parent(const char *action, const char *parent)
{
	const char *at = strrchr(action, '@');
	size_t n = strlen(parent), len;

	if (!at || !n)
		return false;
	at++;
	len = strlen(at);
	if (len == n)
		return !strcmp(at, parent);
	return len > n && at[len - n - 1] == ':' && !strcmp(at + len - n, parent);
}

/*
 * nc_nic_name_match - whether IRQ action name @action belongs to the
 * device named @ifname, with parent device @parent and parent driver
 * @driver (each may be "" when unknown).
 */
static inline bool nc_nic_name_match(const char *action, const char *ifname,
				     const char *parent, const char *driver)
{
	size_t n = strlen(driver);

	if (!action || !*action)
		return false;
	if (nc_nic_prefix(action, ifname) || nc_nic_prefix(action, parent) ||
	    nc_nic_at_parent(action, parent))
		return true;
	/* "<driver>-<ifname>-TxRx-0", "<driver>-<parent>:misc" */
	if (n && !strncmp(action, driver, n) && action[n] == '-')
		return nc_nic_prefix(action + n + 1, ifname) ||
		       nc_nic_prefix(action + n + 1, parent);
	return false;
}

/*
 * The per-IRQ verdict cache of nc_irq_is_nic(): one u32 per IRQ, the
 * generation of the name list it was computed from (31 bits, never 0)
 * shifted left by one, and the verdict in bit 0.  A verdict is used only
 * while the list's generation is still the one it was computed from, so
 * a name change that races with a classification can never leave a
 * stale verdict behind: zeroed memory and any older generation miss.
 */
#define NC_NIC_GEN_MASK		0x7fffffffu

static inline unsigned int nc_nic_verdict(unsigned int gen, bool nic)
{
	return (gen & NC_NIC_GEN_MASK) << 1 | nic;
}

/* nc_nic_verdict_valid - @v was computed at generation @gen */
static inline bool nc_nic_verdict_valid(unsigned int v, unsigned int gen)
{
	gen &= NC_NIC_GEN_MASK;
	return gen && v >> 1 == gen;
}

/* nc_nic_gen_next - the generation after @gen: never 0 */
static inline unsigned int nc_nic_gen_next(unsigned int gen)
{
	gen = (gen + 1) & NC_NIC_GEN_MASK;
	return gen ? gen : 1;
}

#ifdef __KERNEL__
/* nic.c: the NIC IRQ list and its automatic default */
int nc_irq_init(void);
unsigned int nc_irq_max(void);
void nc_irq_exit(void);
struct nc_irq_list *nc_irq_list_new(unsigned int nbits);
void nc_irq_list_add(struct nc_irq_list *l, unsigned int irq);
void nc_irq_list_publish(struct nc_irq_list *l);
void nc_irq_list_free(struct nc_irq_list *l);
unsigned int nc_irq_list_count(void);
int nc_irq_list_next(int irq);
bool nc_irq_is_nic(int irq, const char *name);
void nc_irq_config_changed(void);
unsigned int nc_nic_devices(void);
#endif

#endif /* _NETCOST_NIC_H */
