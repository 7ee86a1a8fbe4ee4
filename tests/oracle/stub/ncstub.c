// SPDX-License-Identifier: GPL-2.0
/*
 * ncstub.c - the oracle's measures of where a probe's first and last acts
 * lie against ftrace's events at a context switch, without netcost
 * (tests/oracle/README.md, "d", "E" and "L").
 *
 * ftrace_ops callbacks on the entry of one function (@sym:
 * finish_task_switch or its .isra clone), registered as netcost
 * registers its own: no FTRACE_OPS_FL_SAVE_REGS, no
 * FTRACE_OPS_FL_RECURSION.  ftrace's list function calls the newest ops
 * first, so one loaded before ftrace's kprobe events on that function are
 * armed runs a step after their handlers.  Each callback's only act is
 * a TSC read (get_cycles(), netcost's clock): an "f" stamp, and with
 * @mode 2 a second ops registered before it, called right after it,
 * an "h" stamp.  h - f is the step from one callback's last act to the
 * next one's first (L).
 *
 * Probes on the sched_switch tracepoint, registered when the module
 * loads: a tracepoint calls its probes in the order they were
 * registered.  The first one's only act is a TSC read, an "s" stamp;
 * with @mode 2 a second one right after it, a "t" stamp.  t - s is the
 * step from one probe's first act to the next one's first act (E).  From
 * the last of them to ftrace's sched_switch timestamp is what the
 * oracle's model takes as no distance (a start stamp a probe takes as
 * its last act, then ftrace's event): the part of ftrace's event before
 * its timestamp, which the model's offsets leave in every one of
 * ftrace's timestamps alike.
 *
 * Probes on sched_waking and sched_wakeup, registered when 1 is written
 * to the @wake parameter (record.sh does it after netcost has loaded, so
 * that they run right after netcost's probes and before ftrace's): a TSC
 * read each, a "w" and a "u" stamp.  netcost stamps the start of a
 * wake-up as its probe's last act, so its stamp lies one probe's return
 * before this one.  Under -icount, when the other vCPU's turn falls
 * between netcost's probe and ftrace's event, ftrace's timestamp comes
 * after the turn and this stamp before it (replay.c, wake_stamp()).
 *
 * Stamps are kept per CPU, in order, up to @n of each kind; /proc/ncstub
 * lists them ("CPU KIND CYCLES" a line), and its first read ends them.
 * Code that shares nothing with netcost.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/timex.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

enum { NCSTUB_F, NCSTUB_S, NCSTUB_T, NCSTUB_H, NCSTUB_W, NCSTUB_U, NCSTUB_KINDS };
static const char ncstub_kinds[NCSTUB_KINDS] = "fsthwu";

static char *sym = "finish_task_switch";
module_param(sym, charp, 0444);
MODULE_PARM_DESC(sym, "the function whose entry is hooked");

static int mode = 1;
module_param(mode, int, 0444);
MODULE_PARM_DESC(mode, "1: one sched_switch probe and one ftrace_ops; 2: two of each");

static unsigned int n = 16384;
module_param(n, uint, 0444);
MODULE_PARM_DESC(n, "stamps kept per CPU and kind; later ones are dropped");

struct ncstub_cpu {
	unsigned int n[NCSTUB_KINDS];
	u64 *ts[NCSTUB_KINDS];
};

static struct ncstub_cpu *ncstub;	/* nr_cpu_ids of them */
static u64 *ncstub_mem;
static struct ftrace_ops ncstub_ops, ncstub_ops_h;
static struct proc_dir_entry *ncstub_proc;
static struct tracepoint *ncstub_tp, *ncstub_tp_waking, *ncstub_tp_wakeup;
static bool ncstub_wake_on;	/* the sched_waking and sched_wakeup probes */
/*
 * set by the first read of /proc/ncstub: stamps stop, so that what the
 * reader lists (by position over the counts) does not move under it
 */
static bool ncstub_frozen;

/* interrupts are off at both hooks: no writer nests on this CPU */
static __always_inline void ncstub_keep(int kind, u64 t)
{
	struct ncstub_cpu *c = &ncstub[raw_smp_processor_id()];
	unsigned int i = c->n[kind];

	if (i < n && !READ_ONCE(ncstub_frozen)) {
		c->ts[kind][i] = t;
		c->n[kind] = i + 1;
	}
}

static void notrace ncstub_cb(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ncstub_keep(NCSTUB_F, get_cycles());
}

static void notrace ncstub_cb_h(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	ncstub_keep(NCSTUB_H, get_cycles());
}

static void notrace ncstub_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state)
{
	ncstub_keep(NCSTUB_S, get_cycles());
}

static void notrace ncstub_switch_t(void *data, bool preempt, struct task_struct *prev,
				    struct task_struct *next, unsigned int prev_state)
{
	ncstub_keep(NCSTUB_T, get_cycles());
}

static void notrace ncstub_waking(void *data, struct task_struct *p)
{
	ncstub_keep(NCSTUB_W, get_cycles());
}

static void notrace ncstub_wakeup(void *data, struct task_struct *p)
{
	ncstub_keep(NCSTUB_U, get_cycles());
}

/* a position: CPU, kind, index (pos counts the stamps in that order) */
static void *ncstub_at(loff_t pos)
{
	unsigned int cpu, k;

	for_each_possible_cpu(cpu)
		for (k = 0; k < NCSTUB_KINDS; k++) {
			unsigned int m = READ_ONCE(ncstub[cpu].n[k]);

			if (pos < m)
				return &ncstub[cpu].ts[k][pos];
			pos -= m;
		}
	return NULL;
}

static void *ncstub_start(struct seq_file *m, loff_t *pos)
{
	if (!READ_ONCE(ncstub_frozen)) {
		WRITE_ONCE(ncstub_frozen, true);
		/* the stamps of a probe still running on another CPU land first */
		synchronize_rcu();
	}
	return ncstub_at(*pos);
}

static void *ncstub_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return ncstub_at(*pos);
}

static void ncstub_stop(struct seq_file *m, void *v)
{
}

static int ncstub_show(struct seq_file *m, void *v)
{
	const u64 *p = v;
	unsigned int cpu, k;

	/* which CPU's and kind's array holds @p */
	for_each_possible_cpu(cpu)
		for (k = 0; k < NCSTUB_KINDS; k++)
			if (p >= ncstub[cpu].ts[k] && p < ncstub[cpu].ts[k] + n) {
				seq_printf(m, "%u %c %llu\n", cpu, ncstub_kinds[k], *p);
				return 0;
			}
	return 0;
}

static const struct seq_operations ncstub_seq = {
	.start = ncstub_start,
	.next = ncstub_next,
	.stop = ncstub_stop,
	.show = ncstub_show,
};

static void ncstub_tp_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		ncstub_tp = tp;
	else if (!strcmp(tp->name, "sched_waking"))
		ncstub_tp_waking = tp;
	else if (!strcmp(tp->name, "sched_wakeup"))
		ncstub_tp_wakeup = tp;
}

/*
 * wake: 1 registers the sched_waking and sched_wakeup probes, once
 * (after the modules whose probes they must follow); 0 is refused
 */
static int ncstub_wake_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err)
		return err;
	if (!on || !ncstub)
		return -EINVAL;
	if (ncstub_wake_on)
		return 0;
	err = tracepoint_probe_register(ncstub_tp_waking, ncstub_waking, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(ncstub_tp_wakeup, ncstub_wakeup, NULL);
	if (err) {
		tracepoint_probe_unregister(ncstub_tp_waking, ncstub_waking, NULL);
		tracepoint_synchronize_unregister();
		return err;
	}
	ncstub_wake_on = true;
	return 0;
}

static int ncstub_wake_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", ncstub_wake_on);
}

static const struct kernel_param_ops ncstub_wake_ops = {
	.set = ncstub_wake_set,
	.get = ncstub_wake_get,
};
module_param_cb(wake, &ncstub_wake_ops, NULL, 0644);
MODULE_PARM_DESC(wake, "1: stamp sched_waking and sched_wakeup from now on (w, u)");

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

static int ncstub_ops_add(struct ftrace_ops *ops, ftrace_func_t func, unsigned long addr)
{
	int err;

	ops->func = func;
	err = ftrace_set_filter_ip(ops, addr, 0, 0);
	if (!err)
		err = register_ftrace_function(ops);
	if (err)
		ftrace_free_filter(ops);
	return err;
}

static void ncstub_ops_del(struct ftrace_ops *ops)
{
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
}

static int __init ncstub_init(void)
{
	unsigned long addr = ncstub_addr(sym);
	unsigned int cpu, k, i = 0;
	int err;

	if (!addr) {
		pr_err("ncstub: no function %s\n", sym);
		return -ENOENT;
	}
	if (mode != 1 && mode != 2) {
		pr_err("ncstub: mode %d: 1 or 2\n", mode);
		return -EINVAL;
	}
	if (!n || n > (1U << 22)) {
		pr_err("ncstub: n %u: 1 to %u\n", n, 1U << 22);
		return -EINVAL;
	}
	ncstub = vzalloc(array_size(nr_cpu_ids, sizeof(*ncstub)));
	ncstub_mem = vmalloc(array3_size(nr_cpu_ids, NCSTUB_KINDS, array_size(n, sizeof(u64))));
	if (!ncstub || !ncstub_mem) {
		err = -ENOMEM;
		goto free;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		for (k = 0; k < NCSTUB_KINDS; k++)
			ncstub[cpu].ts[k] = ncstub_mem + (size_t)(i++) * n;
	for_each_kernel_tracepoint(ncstub_tp_find, NULL);
	if (!ncstub_tp || !ncstub_tp_waking || !ncstub_tp_wakeup) {
		pr_err("ncstub: no sched_switch, sched_waking or sched_wakeup tracepoint\n");
		err = -ENOENT;
		goto free;
	}
	ncstub_proc = proc_create_seq("ncstub", 0444, NULL, &ncstub_seq);
	if (!ncstub_proc) {
		err = -ENOMEM;
		goto free;
	}
	/* h before f: the list function calls f, then h */
	if (mode == 2) {
		err = ncstub_ops_add(&ncstub_ops_h, ncstub_cb_h, addr);
		if (err)
			goto proc;
	}
	err = ncstub_ops_add(&ncstub_ops, ncstub_cb, addr);
	if (err)
		goto ops_h;
	/* s before t: the tracepoint calls s, then t */
	err = tracepoint_probe_register(ncstub_tp, ncstub_switch, NULL);
	if (err)
		goto ops;
	if (mode == 2) {
		err = tracepoint_probe_register(ncstub_tp, ncstub_switch_t, NULL);
		if (err)
			goto tp;
	}
	return 0;
tp:
	tracepoint_probe_unregister(ncstub_tp, ncstub_switch, NULL);
	tracepoint_synchronize_unregister();
ops:
	ncstub_ops_del(&ncstub_ops);
ops_h:
	if (mode == 2)
		ncstub_ops_del(&ncstub_ops_h);
proc:
	proc_remove(ncstub_proc);
free:
	vfree(ncstub_mem);
	vfree(ncstub);
	return err;
}

static void __exit ncstub_exit(void)
{
	if (ncstub_wake_on) {
		tracepoint_probe_unregister(ncstub_tp_wakeup, ncstub_wakeup, NULL);
		tracepoint_probe_unregister(ncstub_tp_waking, ncstub_waking, NULL);
	}
	if (mode == 2)
		tracepoint_probe_unregister(ncstub_tp, ncstub_switch_t, NULL);
	tracepoint_probe_unregister(ncstub_tp, ncstub_switch, NULL);
	tracepoint_synchronize_unregister();
	ncstub_ops_del(&ncstub_ops);
	if (mode == 2)
		ncstub_ops_del(&ncstub_ops_h);
	proc_remove(ncstub_proc);
	vfree(ncstub_mem);
	vfree(ncstub);
}

module_init(ncstub_init);
module_exit(ncstub_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("netcost oracle: first-act stamps at a context switch");
