/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference netcost knows of.
 *
 * Kbuild force-includes this file into every source file, so that no
 * other file carries a LINUX_VERSION_CODE check.
 *
 * Tested kernels: 6.1.y and 6.12.y, stock and PREEMPT_RT (the lab's
 * Debian kernels).  Every tracepoint probe's prototype is checked by the
 * compiler against the kernel's own trace/events headers (probe_types.c),
 * so a changed tracepoint fails the build on any kernel.  What the
 * compiler cannot check - kprobe symbols and the semantics of the hooks
 * (which function runs a threaded handler, where softirqs run) - has
 * been checked in the lab on the tested kernels only, so any other
 * kernel is refused at build time unless the user asks for it:
 *
 *	make module KDIR=... NETCOST_ALLOW_UNTESTED=y
 *
 * Then INFO shows which hooks attached, and the lab's checks (tests/lab)
 * are the way to trust the figures.
 */
#ifndef _NETCOST_COMPAT_H
#define _NETCOST_COMPAT_H

#include <linux/version.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "netcost supports Linux 6.1 and later"
#endif

#define NC_KERNEL_IS(a, b) \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, 0) && \
	 LINUX_VERSION_CODE < KERNEL_VERSION(a, (b) + 1, 0))

#if !NC_KERNEL_IS(6, 1) && !NC_KERNEL_IS(6, 12) && !defined(NC_ALLOW_UNTESTED)
#error "netcost: this kernel version is untested (tested: 6.1, 6.12); build with NETCOST_ALLOW_UNTESTED=y to try it"
#endif

/*
 * genl pre_doit/post_doit take a genl_split_ops since 6.2
 * (commit 0b588afdd1e, "genetlink: use split ops in the pre/post hooks").
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define nc_genl_hook_ops genl_split_ops
#else
#define nc_genl_hook_ops genl_ops
#endif

/*
 * The name of finish_task_switch() in kallsyms depends on what the
 * compiler did to it; netcost tries these in order at load.
 */
#define NC_FINISH_TASK_SWITCH_NAMES \
	"finish_task_switch.isra.0", "finish_task_switch", \
	"finish_task_switch.part.0", "finish_task_switch.constprop.0"

#endif /* _NETCOST_COMPAT_H */
