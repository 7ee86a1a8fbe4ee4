// SPDX-License-Identifier: GPL-2.0
/*
 * ncstub.c - the oracle's measure of ftrace's fentry dispatch, without
 * netcost (tests/oracle/README.md, "d").
 *
 * One ftrace_ops on the entry of one function (@sym: finish_task_switch
 * or its .isra clone), registered as netcost registers its own: no
 * FTRACE_OPS_FL_SAVE_REGS, no FTRACE_OPS_FL_RECURSION, loaded before
 * ftrace's kprobe events on that function are armed, so that ftrace's
 * list function calls the kprobes' ops first and this one a step later.
 * Its callback's first act is a TSC read (get_cycles(), netcost's
 * clock): an "f" stamp.
 *
 * And one probe on the sched_switch tracepoint, registered before
 * ftrace's event there is enabled, so that it runs first, as netcost's
 * does: its only act is a TSC read, an "s" stamp.  From it to ftrace's
 * sched_switch timestamp is what the oracle's model takes as no
 * distance (a start stamp a probe takes as its last act, then ftrace's
 * event): the part of ftrace's event before its timestamp, which the
 * model's offsets leave in every one of ftrace's timestamps alike.
 *
 * Stamps are kept per CPU, in order; /proc/ncstub lists them ("CPU KIND
 * CYCLES" a line).  Code that shares nothing with netcost.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/timex.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#define NCSTUB_N 16384		/* stamps kept per CPU; later ones are dropped */

static char *sym = "finish_task_switch";
module_param(sym, charp, 0444);
MODULE_PARM_DESC(sym, "the function whose entry is hooked");

struct ncstub_cpu {
	unsigned int n[2];		/* f, s */
	u64 ts[2][NCSTUB_N];
};

static struct ncstub_cpu *ncstub;	/* nr_cpu_ids of them */
static struct ftrace_ops ncstub_ops;
static struct proc_dir_entry *ncstub_proc;
static struct tracepoint *ncstub_tp;

/* interrupts are off at both hooks: no writer nests on this CPU */
static __always_inline void ncstub_keep(int kind, u64 t)
{
	struct ncstub_cpu *c = &ncstub[raw_smp_processor_id()];
	unsigned int i = c->n[kind];

	if (i < NCSTUB_N) {
		c->ts[kind][i] = t;
		c->n[kind] = i + 1;
	}
}

static void notrace ncstub_cb(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ncstub_keep(0, get_cycles());
}

static void notrace ncstub_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state)
{
	ncstub_keep(1, get_cycles());
}

static int ncstub_show(struct seq_file *m, void *v)
{
	unsigned int cpu, i, k;

	for_each_possible_cpu(cpu)
		for (k = 0; k < 2; k++)
			for (i = 0; i < READ_ONCE(ncstub[cpu].n[k]); i++)
				seq_printf(m, "%u %c %llu\n", cpu, "fs"[k], ncstub[cpu].ts[k][i]);
	return 0;
}

static void ncstub_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		ncstub_tp = tp;
}

/*
 * the ftrace call site of @name: a kprobe on its entry resolves it (the
 * kernel's way; netcost's hooks.c does the same, and the stub shares no
 * code with netcost on purpose)
 */
static unsigned long ncstub_addr(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

static int __init ncstub_init(void)
{
	unsigned long addr = ncstub_addr(sym);
	int err;

	if (!addr) {
		pr_err("ncstub: no function %s\n", sym);
		return -ENOENT;
	}
	ncstub = vzalloc(array_size(nr_cpu_ids, sizeof(*ncstub)));
	if (!ncstub)
		return -ENOMEM;
	for_each_kernel_tracepoint(ncstub_tp_find, NULL);
	if (!ncstub_tp) {
		pr_err("ncstub: no sched_switch tracepoint\n");
		err = -ENOENT;
		goto free;
	}
	ncstub_proc = proc_create_single("ncstub", 0444, NULL, ncstub_show);
	if (!ncstub_proc) {
		err = -ENOMEM;
		goto free;
	}
	ncstub_ops.func = ncstub_cb;
	err = ftrace_set_filter_ip(&ncstub_ops, addr, 0, 0);
	if (!err)
		err = register_ftrace_function(&ncstub_ops);
	if (err) {
		ftrace_free_filter(&ncstub_ops);
		goto proc;
	}
	err = tracepoint_probe_register(ncstub_tp, ncstub_switch, NULL);
	if (err)
		goto ops;
	return 0;
ops:
	unregister_ftrace_function(&ncstub_ops);
	ftrace_free_filter(&ncstub_ops);
proc:
	proc_remove(ncstub_proc);
free:
	vfree(ncstub);
	return err;
}

static void __exit ncstub_exit(void)
{
	tracepoint_probe_unregister(ncstub_tp, ncstub_switch, NULL);
	tracepoint_synchronize_unregister();
	unregister_ftrace_function(&ncstub_ops);
	ftrace_free_filter(&ncstub_ops);
	proc_remove(ncstub_proc);
	vfree(ncstub);
}

module_init(ncstub_init);
module_exit(ncstub_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("netcost oracle: an ftrace_ops stamp at a function's entry");
