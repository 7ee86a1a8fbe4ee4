// SPDX-License-Identifier: GPL-2.0
/*
 * test_nic.c - the module's NIC IRQ matching rule (module/nic.h), compiled
 * in userspace, on the IRQ names real drivers give their vectors (taken
 * from each driver's request_irq()/pci_irq_vector() naming code), and the
 * generation-tagged verdict cache that keeps a renamed device's IRQs
 * from being judged by a stale name list.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "../../module/nic.h"

struct nic_case {
	const char *driver;	/* the parent device's driver */
	const char *ifname;
	const char *parent;	/* dev_name() of the parent device */
	const char *action;	/* an IRQ action name */
	bool nic;		/* is it this device's? */
};

static const struct nic_case cases[] = {
	/* mlx5: "%s@pci:%s" (mlx5_comp<N>, mlx5_async<N>, pci_name) */
	{ "mlx5_core", "enp3s0f0np0", "0000:03:00.0", "mlx5_comp3@pci:0000:03:00.0", true },
	{ "mlx5_core", "enp3s0f0np0", "0000:03:00.0", "mlx5_comp0@pci:0000:03:00.0", true },
	{ "mlx5_core", "enp3s0f0np0", "0000:03:00.0", "mlx5_async0@pci:0000:03:00.0", true },
	{ "mlx5_core", "enp3s0f0np0", "0000:03:00.0", "mlx5_comp3@pci:0000:03:00.1", false },
	/* i40e: "<drv>-<ifname>-TxRx-<n>", misc "<drv>-<pci>:misc" */
	{ "i40e", "enp1s0f0", "0000:01:00.0", "i40e-enp1s0f0-TxRx-0", true },
	{ "i40e", "enp1s0f0", "0000:01:00.0", "i40e-0000:01:00.0:misc", true },
	{ "i40e", "enp1s0f0", "0000:01:00.0", "i40e-enp1s0f1-TxRx-0", false },
	{ "i40e", "enp1s0f0", "0000:01:00.0", "i40e-0000:01:00.1:misc", false },
	/* ice: as i40e */
	{ "ice", "ens1f0", "0000:17:00.0", "ice-ens1f0-TxRx-7", true },
	{ "ice", "ens1f0", "0000:17:00.0", "ice-0000:17:00.0:misc", true },
	{ "ice", "ens1f0", "0000:17:00.0", "ice-ens1f01-TxRx-0", false },
	/* ixgbe: "<ifname>-TxRx-<n>", the other vector "<ifname>" */
	{ "ixgbe", "eth0", "0000:05:00.0", "eth0-TxRx-0", true },
	{ "ixgbe", "eth0", "0000:05:00.0", "eth0", true },
	{ "ixgbe", "eth0", "0000:05:00.0", "eth0-rx-1", true },
	/* igb: as ixgbe */
	{ "igb", "eth1", "0000:06:00.0", "eth1-TxRx-3", true },
	{ "igb", "eth1", "0000:06:00.0", "eth1", true },
	{ "igb", "eth1", "0000:06:00.0", "eth10-TxRx-0", false },
	{ "igb", "eth1", "0000:06:00.0", "eth10", false },
	/* e1000e: "<ifname>-rx-0", "<ifname>-tx-0", "<ifname>" */
	{ "e1000e", "enp0s31f6", "0000:00:1f.6", "enp0s31f6-rx-0", true },
	{ "e1000e", "enp0s31f6", "0000:00:1f.6", "enp0s31f6-tx-0", true },
	{ "e1000e", "enp0s31f6", "0000:00:1f.6", "enp0s31f6", true },
	/* e1000 (the lab's NIC): "<ifname>" */
	{ "e1000", "eth0", "0000:00:02.0", "eth0", true },
	{ "e1000", "eth0", "0000:00:02.0", "eth1", false },
	/* virtio-net: "<virtio dev>-input.<n>", "-output.<n>", "-config", INTx "<virtio dev>" */
	{ "virtio_net", "eth0", "virtio1", "virtio1-input.0", true },
	{ "virtio_net", "eth0", "virtio1", "virtio1-output.0", true },
	{ "virtio_net", "eth0", "virtio1", "virtio1-config", true },
	{ "virtio_net", "eth0", "virtio1", "virtio1", true },
	{ "virtio_net", "eth0", "virtio1", "virtio10-input.0", false },
	{ "virtio_net", "eth0", "virtio1", "virtio2-req.0", false },
	/* bnxt: "<ifname>-TxRx-<n>" (and -rx-/-tx- variants) */
	{ "bnxt_en", "enp1s0f0np0", "0000:01:00.0", "enp1s0f0np0-TxRx-1", true },
	{ "bnxt_en", "enp1s0f0np0", "0000:01:00.0", "enp1s0f0np0-rx-0", true },
	{ "bnxt_en", "enp1s0f0np0", "0000:01:00.0", "enp1s0f1np1-TxRx-1", false },
	/* ena: "ena-mgmnt@pci:<pci>", io "<ifname>-Tx-Rx-<n>" */
	{ "ena", "ens5", "0000:00:05.0", "ena-mgmnt@pci:0000:00:05.0", true },
	{ "ena", "ens5", "0000:00:05.0", "ens5-Tx-Rx-0", true },
	{ "ena", "ens5", "0000:00:05.0", "ena-mgmnt@pci:0000:00:06.0", false },
	/* gve: "gve-mgmnt@pci:<pci>", "gve-ntfy-blk<n>@pci:<pci>" */
	{ "gve", "ens4", "0000:00:04.0", "gve-mgmnt@pci:0000:00:04.0", true },
	{ "gve", "ens4", "0000:00:04.0", "gve-ntfy-blk0@pci:0000:00:04.0", true },
	{ "gve", "ens4", "0000:00:04.0", "gve-ntfy-blk15@pci:0000:00:04.0", true },
	{ "gve", "ens4", "0000:00:04.0", "gve-ntfy-blk0@pci:10000:00:04.0", false },
	/* mlx4: "mlx4-<n>@<pci>" */
	{ "mlx4_core", "enp2s0", "0000:02:00.0", "mlx4-1@0000:02:00.0", true },
	/* other devices' IRQs are not a NIC's */
	{ "e1000e", "eth0", "0000:00:19.0", "ahci[0000:00:1f.2]", false },
	{ "e1000e", "eth0", "0000:00:19.0", "nvme0q1", false },
	{ "e1000e", "eth0", "0000:00:19.0", "xhci_hcd", false },
	{ "e1000e", "eth0", "0000:00:19.0", "i8042", false },
	{ "e1000e", "eth0", "0000:00:19.0", "timer", false },
	{ "e1000e", "eth0", "0000:00:19.0", "", false },
	{ "e1000e", "eth0", "0000:00:19.0", "eth0x", false },
	/* unknown parent or driver: only the interface name can match */
	{ "", "eth0", "", "eth0-TxRx-0", true },
	{ "", "eth0", "", "@pci:", false },
	{ "", "eth0", "", "-eth0", false },
};

static void test_driver_table(void **state)
{
	size_t i;
	int bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct nic_case *c = &cases[i];
		bool got = nc_nic_name_match(c->action, c->ifname, c->parent, c->driver);

		if (got != c->nic) {
			print_error("%s: \"%s\" for %s (parent %s): got %d, want %d\n",
				    c->driver, c->action, c->ifname, c->parent, got, c->nic);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* every driver of the list has at least one matching row */
static void test_driver_coverage(void **state)
{
	static const char *const drivers[] = {
		"mlx5_core", "i40e", "ice", "ixgbe", "igb", "e1000e", "virtio_net",
		"bnxt_en", "ena", "gve",
	};
	size_t d, i;

	(void)state;
	for (d = 0; d < sizeof(drivers) / sizeof(drivers[0]); d++) {
		int yes = 0, no = 0;

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			if (strcmp(cases[i].driver, drivers[d]))
				continue;
			if (cases[i].nic)
				yes++;
			else
				no++;
		}
		if (!yes)
			fail_msg("no matching IRQ name for %s", drivers[d]);
		(void)no;
	}
}

/*
 * The cache: a verdict computed from generation g is not used once the
 * name list moved to g + 1 (a rename racing with the classification),
 * zeroed memory is never a verdict, and the generation skips 0 on wrap.
 */
static void test_verdict_generations(void **state)
{
	unsigned int g = 1, v;

	(void)state;
	assert_false(nc_nic_verdict_valid(0, g));
	v = nc_nic_verdict(g, true);
	assert_true(nc_nic_verdict_valid(v, g));
	assert_true(v & 1);
	g = nc_nic_gen_next(g);
	assert_false(nc_nic_verdict_valid(v, g));
	v = nc_nic_verdict(g, false);
	assert_true(nc_nic_verdict_valid(v, g));
	assert_false(v & 1);

	g = NC_NIC_GEN_MASK;
	v = nc_nic_verdict(g, true);
	assert_true(nc_nic_verdict_valid(v, g));
	g = nc_nic_gen_next(g);
	assert_int_equal(g, 1);
	assert_false(nc_nic_verdict_valid(v, g));
	assert_false(nc_nic_verdict_valid(0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_driver_table),
		cmocka_unit_test(test_driver_coverage),
		cmocka_unit_test(test_verdict_generations),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
