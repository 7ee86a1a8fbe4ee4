// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - netcost: where does a packet's CPU time go?
 *
 * Init and exit only, in dependency order; exit is the exact reverse:
 *   statistics -> NAPI tables -> task table -> NIC IRQ names -> hooks ->
 *   netlink family.
 * On unload the family goes first (no command can reach what follows),
 * then every probe, then tracepoint_synchronize_unregister() (inside
 * nc_hooks_exit()), and only then is anything freed.
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "netcost.h"
#include "hist.h"
#include "hooks.h"
#include "napi.h"
#include "netlink.h"
#include "nic.h"
#include "tasks.h"
#include "vectors.h"

struct nc_config nc_cfg = {
	.groups		= NETCOST_GROUP_ALL,
	.recording	= true,
	.nic_irqs_auto	= true,
	.sample		= 1,
};

/*
 * nc_sample_set - time rx_skb and tx_xmit on 1 packet in @n (1: every
 * one; CONFIG checked 1 <= @n <= 65536; nc_sampled()).  Every CPU's
 * random sequence gets a seed of its own the first time, and each kind's
 * first timed event a random place among the first @n.
 */
void nc_sample_set(u32 n)
{
	int cpu, k;

	for_each_possible_cpu(cpu) {
		struct nc_cpu *c = per_cpu_ptr(&nc_cpu, cpu);

		if (!READ_ONCE(c->sample_rnd))
			WRITE_ONCE(c->sample_rnd, get_random_u32() | 1);
		for (k = 0; k < NC_SAMPLE_KINDS; k++)
			WRITE_ONCE(c->sample_left[k], 1 + get_random_u32() % n);
	}
	WRITE_ONCE(nc_cfg.sample, n);
}

bool nc_threadirqs;
bool nc_open_read;
module_param_named(open_read, nc_open_read, bool, 0644);
MODULE_PARM_DESC(open_read, "let users without CAP_NET_ADMIN read timings (a side channel)");

/*
 * The test-only parameters (dump_repeat and bench_untimed_net here,
 * fault_attach and bench_empty_hooks in hooks.c, test_bucket_bias in hist.c,
 * test_claim_race, test_claim_delay_us and test_claim_recheck in tasks.c)
 * exist only in a test build (NETCOST_TEST=y: the lab's modules, "make
 * module-K"); the module users build (DKMS, "make module") has none of
 * them.
 */
#ifdef NC_TEST_BUILD
/* bench/overhead times a STATS dump of 64 CPUs on one */
unsigned int nc_dump_repeat = 1;
module_param_named(dump_repeat, nc_dump_repeat, uint, 0644);
MODULE_PARM_DESC(dump_repeat, "benchmarks only: a STATS dump sends each CPU N times (1-256), as CPUs cpu + k * nr_cpu_ids");
/* bench/overhead's ceiling of a sampled rx_skb and tx_xmit (netcost.h) */
bool nc_bench_untimed_net;
module_param_named(bench_untimed_net, nc_bench_untimed_net, bool, 0444);
MODULE_PARM_DESC(bench_untimed_net, "benchmarks only: rx_skb and tx_xmit count packets, time nothing");
#define NC_BUILD_NOTE ", a test build"
#else
#define NC_BUILD_NOTE ""
#endif

/*
 * nc_detect_threadirqs - whether IRQ handlers are force-threaded.  Always
 * on PREEMPT_RT; on stock kernels only with "threadirqs" on the command
 * line.  The kernel exports neither force_irqthreads_key nor
 * saved_command_line, so read /proc/cmdline.
 */
static bool nc_detect_threadirqs(void)
{
	struct file *f;
	loff_t pos = 0;
	bool found = false;
	char *buf, *tok, *p;
	ssize_t n;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return true;
	buf = kzalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return false;
	f = filp_open("/proc/cmdline", O_RDONLY, 0);
	if (IS_ERR(f))
		goto out;
	n = kernel_read(f, buf, PAGE_SIZE - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		goto out;
	p = buf;
	while ((tok = strsep(&p, "\t\n ")) && !found)
		found = !strcmp(tok, "threadirqs");
out:
	kfree(buf);
	return found;
}

static int __init netcost_init(void)
{
	int err;

	err = nc_stats_init();
	if (err)
		return err;
	err = nc_napi_init();
	if (err)
		goto err_stats;
	err = nc_tasks_init();
	if (err)
		goto err_napi;
	if (!alloc_cpumask_var(&nc_cfg.cpus, GFP_KERNEL)) {
		err = -ENOMEM;
		goto err_tasks;
	}
	cpumask_copy(nc_cfg.cpus, cpu_possible_mask);
	nc_threadirqs = nc_detect_threadirqs();

	err = nc_irq_init();
	if (err)
		goto err_cpumask;
	err = nc_hooks_init();
	if (err)
		goto err_irq;
	/* probe_hits: the hooks' counters exist now, netlink is not up yet */
	nc_stats_set_hits_fn(nc_hooks_hits);
	nc_rec_update();
	nc_sample_set(nc_cfg.sample);
	err = nc_hooks_apply(nc_cfg.groups);
	if (err)
		goto err_hooks;
	err = nc_netlink_init();
	if (err)
		goto err_hooks;

	pr_info("netcost %s: loaded (%s%s%s, tsc %u kHz%s)\n", NETCOST_VERSION,
		IS_ENABLED(CONFIG_PREEMPT_RT) ? "PREEMPT_RT" : "stock",
		!IS_ENABLED(CONFIG_PREEMPT_RT) && nc_threadirqs ? "+threadirqs" : "",
		NC_BH_PER_TASK ? ", softirqs not serialised: softirq frames per task" : "",
		tsc_khz, NC_BUILD_NOTE);
	nc_untraced_warn();
	return 0;

err_hooks:
	nc_stats_set_hits_fn(NULL);
	nc_hooks_exit();
err_irq:
	nc_irq_exit();
err_cpumask:
	free_cpumask_var(nc_cfg.cpus);
err_tasks:
	nc_tasks_exit();
err_napi:
	nc_napi_exit();
err_stats:
	nc_stats_exit();
	return err;
}

static void __exit netcost_exit(void)
{
	nc_netlink_exit();
	nc_stats_set_hits_fn(NULL);
	nc_hooks_exit();
	nc_irq_exit();
	free_cpumask_var(nc_cfg.cpus);
	nc_tasks_exit();
	nc_napi_exit();
	nc_stats_exit();
	pr_info("netcost: unloaded\n");
}

module_init(netcost_init);
module_exit(netcost_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("the netcost developers");
MODULE_DESCRIPTION("netcost: per-stage cycle accounting of the packet path");
MODULE_VERSION(NETCOST_VERSION);
