// SPDX-License-Identifier: GPL-2.0
/*
 * vectors.c - interrupt vectors that netcost cannot see.
 *
 * hardirq is timed at irq_handler_entry/exit and hardirq_vectors at the
 * irq_vectors tracepoints.  Some x86 vectors have neither, and on some
 * machines a NIC's interrupts arrive on them:
 *  - the hypervisor callback vector: Hyper-V's VMBus (netvsc, the NIC of
 *    Azure and Hyper-V guests) and Xen HVM's event channels.  The NIC's
 *    interrupts never reach irq_handler_entry, so hardirq and nic_irqs
 *    miss them; their softirqs are seen.  /proc/interrupts' HYP line
 *    counts them (irq_stat);
 *  - KVM's asynchronous page fault notification
 *    (KVM_FEATURE_ASYNC_PF_INT), which the kernel does not count;
 *  - the posted MSI notification (CONFIG_X86_POSTED_MSI, 6.10+): the
 *    device handlers it runs are seen, the vector's own entry and exit
 *    are not.  /proc/interrupts' PMN line counts it.
 * INFO names each one this kernel takes, with the kernel's own count
 * where it keeps one, and the load says so in the kernel log.
 */
#include <linux/netlink.h>
#include <linux/printk.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/hardirq.h>
#include <asm/hypervisor.h>
#include <asm/processor.h>
#include <uapi/asm/kvm_para.h>
#include <net/netlink.h>

#include "uapi/netcost.h"
#include "vectors.h"

struct nc_untraced {
	const char *name;
	bool counted;		/* the kernel counts it: @count holds */
	u64 count;		/* its interrupts since boot, all CPUs */
};

/*
 * nc_kvm_features - KVM's paravirtual feature bits (KVM_CPUID_FEATURES),
 * 0 when KVM's CPUID leaves are not found.  The kernel's own
 * kvm_arch_para_features() is not exported, so the leaves are searched
 * as hypervisor_cpuid_base() does: every 0x100 from KVM_CPUID_SIGNATURE.
 */
static u32 nc_kvm_features(void)
{
	u32 base, eax, sig[3];

	for (base = KVM_CPUID_SIGNATURE; base < KVM_CPUID_SIGNATURE + 0x10000; base += 0x100) {
		cpuid(base, &eax, &sig[0], &sig[1], &sig[2]);
		if (!memcmp(sig, "KVMKVMKVM\0\0\0", 12) && eax - base >= 1)
			return cpuid_eax(base | KVM_CPUID_FEATURES);
	}
	return 0;
}

/* nc_untraced_find - fill @v with the vectors this kernel takes; how many */
static int nc_untraced_find(struct nc_untraced *v)
{
	int n = 0;
	int __maybe_unused cpu;

	if (x86_hyper_type == X86_HYPER_MS_HYPERV || x86_hyper_type == X86_HYPER_XEN_HVM) {
		v[n] = (struct nc_untraced){
			.name = x86_hyper_type == X86_HYPER_MS_HYPERV ?
				"hyperv_callback" : "xen_callback",
		};
#ifdef CONFIG_X86_HV_CALLBACK_VECTOR
		v[n].counted = true;
		for_each_possible_cpu(cpu)
			v[n].count += NC_IRQ_STAT(cpu, irq_hv_callback_count,
						  HYPERVISOR_CALLBACK);
#endif
		n++;
	}
	if (x86_hyper_type == X86_HYPER_KVM &&
	    (nc_kvm_features() & BIT(KVM_FEATURE_ASYNC_PF_INT)))
		v[n++] = (struct nc_untraced){ .name = "kvm_async_pf" };
#ifdef CONFIG_X86_POSTED_MSI
	{
		u64 c = 0;

		for_each_possible_cpu(cpu)
			c += NC_IRQ_STAT(cpu, posted_msi_notification_count,
					 POSTED_MSI_NOTIFICATION);
		if (c)
			v[n++] = (struct nc_untraced){ .name = "posted_msi", .counted = true,
						       .count = c };
	}
#endif
	return n;
}

/* nc_untraced_size - room for INFO's NETCOST_A_UNTRACED nests */
size_t nc_untraced_size(void)
{
	return NC_UNTRACED_MAX *
	       (nla_total_size(0) +				/* NETCOST_A_UNTRACED */
		nla_total_size(32) +				/* _NAME */
		nla_total_size_64bit(sizeof(u64)));		/* _COUNT */
}

/* nc_untraced_put - one NETCOST_A_UNTRACED nest per vector netcost cannot see */
int nc_untraced_put(struct sk_buff *msg)
{
	struct nc_untraced v[NC_UNTRACED_MAX];
	struct nlattr *nest;
	int i, n = nc_untraced_find(v);

	for (i = 0; i < n; i++) {
		nest = nla_nest_start(msg, NETCOST_A_UNTRACED);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(msg, NETCOST_UNTRACED_A_NAME, v[i].name) ||
		    (v[i].counted &&
		     nla_put_u64_64bit(msg, NETCOST_UNTRACED_A_COUNT, v[i].count,
				       NETCOST_UNTRACED_A_PAD))) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* nc_untraced_warn - at load: say which vectors hardirq does not see */
void nc_untraced_warn(void)
{
	struct nc_untraced v[NC_UNTRACED_MAX];
	char names[96] = "";
	int i, len = 0, n = nc_untraced_find(v);

	for (i = 0; i < n; i++)
		len += scnprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
				 v[i].name);
	if (n)
		pr_warn("netcost: interrupts on vectors without tracepoints (%s) are in no stage: hardirq does not see them\n",
			names);
}
