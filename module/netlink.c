// SPDX-License-Identifier: GPL-2.0
/*
 * netlink.c - the "netcost" generic netlink family.
 *
 *   INFO	do	module, kernel, clock, config, hooks, self-cost
 *   STATS	dump	per-CPU stages and counters, several messages per CPU
 *   RESET	do	clear the statistics
 *   CONFIG_GET	do	the configuration
 *   CONFIG_SET	do	NIC IRQs, CPUs, stage groups, recording, sampling
 *
 * Documentation/netlink/netcost.yaml is the API contract.  Policies are
 * strict.  Cycle timings are a side channel: STATS and CONFIG_GET need
 * CAP_NET_ADMIN unless the module was loaded with open_read=1; RESET and
 * CONFIG_SET always do.  One mutex, taken in pre_doit, serialises the
 * commands that change state.
 */
#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <net/genetlink.h>
#include <asm/tsc.h>

#include "netcost.h"
#include "hist.h"
#include "hooks.h"
#include "napi.h"
#include "netcost_hist.h"
#include "netcost_names.h"
#include "netlink.h"
#include "nic.h"
#include "tasks.h"
#include "vectors.h"
#include "wait.h"

static DEFINE_MUTEX(nc_mutex);
static struct genl_family nc_family;

/* CONFIG sample N: 1 (every packet) to 65536 (not const: 6.1 takes it so) */
static struct netlink_range_validation nc_sample_range = {
	.min = 1,
	.max = 65536,
};

static const struct nla_policy nc_cfg_policy[NETCOST_CFG_A_MAX + 1] = {
	[NETCOST_CFG_A_NIC_IRQS_AUTO]	= NLA_POLICY_MAX(NLA_U8, 1),
	[NETCOST_CFG_A_NIC_IRQ]		= { .type = NLA_U32 },
	[NETCOST_CFG_A_CPUMASK]		= { .type = NLA_NUL_STRING, .len = 4096 },
	[NETCOST_CFG_A_GROUPS]		= NLA_POLICY_MASK(NLA_U32, NETCOST_GROUP_ALL),
	[NETCOST_CFG_A_RECORDING]	= NLA_POLICY_MAX(NLA_U8, 1),
	[NETCOST_CFG_A_SAMPLE]		= NLA_POLICY_FULL_RANGE(NLA_U32, &nc_sample_range),
};

static const struct nla_policy nc_policy[NETCOST_A_MAX + 1] = {
	[NETCOST_A_CONFIG]		= NLA_POLICY_NESTED(nc_cfg_policy),
};

/* nc_may_read - whether the sender may read timings */
static bool nc_may_read(const struct sk_buff *skb)
{
	return READ_ONCE(nc_open_read) || netlink_capable(skb, CAP_NET_ADMIN);
}

/* nc_check_read - 0, or -EPERM with the reason when the sender may not read */
static int nc_check_read(const struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	if (nc_may_read(skb))
		return 0;
	NL_SET_ERR_MSG_MOD(extack,
			   "reading netcost needs CAP_NET_ADMIN (or module parameter open_read=1)");
	return -EPERM;
}

/* ---- CONFIG nest ---- */

static size_t nc_config_size(void)
{
	return nla_total_size(0) +				/* NETCOST_A_CONFIG */
	       nla_total_size(sizeof(u8)) +			/* _NIC_IRQS_AUTO */
	       nc_irq_list_count() * nla_total_size(sizeof(u32)) + /* _NIC_IRQ */
	       nla_total_size(4096) +				/* _CPUMASK */
	       nla_total_size(sizeof(u32)) +			/* _GROUPS */
	       nla_total_size(sizeof(u8)) +			/* _RECORDING */
	       nla_total_size(sizeof(u32));			/* _SAMPLE */
}

static int nc_config_put(struct sk_buff *msg)
{
	struct nlattr *nest;
	char *cpus;
	int irq;

	cpus = kasprintf(GFP_KERNEL, "%*pbl", cpumask_pr_args(nc_cfg.cpus));
	if (!cpus)
		return -ENOMEM;
	nest = nla_nest_start(msg, NETCOST_A_CONFIG);
	if (!nest)
		goto err_free;
	if (nla_put_u8(msg, NETCOST_CFG_A_NIC_IRQS_AUTO, nc_cfg.nic_irqs_auto) ||
	    nla_put_string(msg, NETCOST_CFG_A_CPUMASK, cpus) ||
	    nla_put_u32(msg, NETCOST_CFG_A_GROUPS, nc_cfg.groups) ||
	    nla_put_u8(msg, NETCOST_CFG_A_RECORDING, nc_cfg.recording) ||
	    nla_put_u32(msg, NETCOST_CFG_A_SAMPLE, READ_ONCE(nc_cfg.sample)))
		goto err_cancel;
	for (irq = nc_irq_list_next(0); irq >= 0; irq = nc_irq_list_next(irq + 1)) {
		if (nla_put_u32(msg, NETCOST_CFG_A_NIC_IRQ, irq))
			goto err_cancel;
	}
	nla_nest_end(msg, nest);
	kfree(cpus);
	return 0;

err_cancel:
	nla_nest_cancel(msg, nest);
err_free:
	kfree(cpus);
	return -EMSGSIZE;
}

/* ---- INFO ---- */

static int nc_stage_id_put(struct sk_buff *skb, int id);

/* nc_stages_size - room for INFO's NETCOST_A_STAGE nests */
static size_t nc_stages_size(void)
{
	return __NETCOST_STAGE_MAX *
	       (nla_total_size(0) +				/* NETCOST_A_STAGE */
		nla_total_size(sizeof(u32)) +			/* _ID */
		nla_total_size(32) +				/* _NAME */
		nla_total_size(sizeof(u8)) +			/* _UNIT */
		nla_total_size(sizeof(u8)));			/* _ROLE */
}

/* nc_stages_put - what every stage is, without figures */
static int nc_stages_put(struct sk_buff *msg)
{
	struct nlattr *nest;
	int id;

	for (id = 0; id < __NETCOST_STAGE_MAX; id++) {
		nest = nla_nest_start(msg, NETCOST_A_STAGE);
		if (!nest)
			return -EMSGSIZE;
		if (nc_stage_id_put(msg, id)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

static size_t nc_info_size(void)
{
	return nla_total_size(sizeof(NETCOST_VERSION)) +	/* VERSION */
	       nla_total_size(__NEW_UTS_LEN + 1) +		/* KERNEL */
	       nla_total_size(sizeof(u8)) +			/* PREEMPT_RT */
	       nla_total_size(sizeof(u8)) +			/* THREADIRQS */
	       nla_total_size(sizeof(u32)) +			/* TSC_KHZ */
	       nla_total_size(sizeof(u32)) +			/* NR_CPUS_POSSIBLE */
	       nla_total_size(sizeof(u32)) +			/* NR_CPUS_ONLINE */
	       nla_total_size(sizeof(u32)) +			/* PROBE_COST */
	       nla_total_size(sizeof(u32)) +			/* HIST_BUCKETS */
	       nla_total_size(sizeof(u32)) +			/* HIST_SUB_BITS */
	       nla_total_size(sizeof(u32)) +			/* MEM_PER_CPU */
	       4 * nla_total_size_64bit(sizeof(u64)) +		/* RESET/NOW NS/CYCLES */
	       nla_total_size(sizeof(u32)) +			/* GENERATION */
	       nla_total_size(sizeof(u32)) +			/* TASK_SLOTS */
	       nla_total_size(sizeof(u32)) +			/* TASK_SLOTS_USED */
	       nla_total_size(sizeof(u32)) +			/* TASK_SLOTS_KTHREADS */
	       2 * nla_total_size(sizeof(u32)) +		/* PROBE_COST_P50/P90 */
	       nla_total_size_64bit(sizeof(u64)) +		/* PROBE_COST_SAMPLES */
	       nla_total_size(sizeof(u32)) +			/* NIC_DEVICES */
	       nc_untraced_size() +				/* UNTRACED */
	       nc_config_size() +				/* CONFIG */
	       nc_stages_size() +				/* STAGE */
	       nc_hooks_size();					/* HOOK */
}

/*
 * nc_info_fill - the INFO reply; @counts: the figures that count what
 * happened on the box (tasks in the table, probe bodies timed) go only to
 * readers allowed to read timings, like the hooks' hit counts (@with_hooks)
 */
static int nc_info_fill(struct sk_buff *msg, const struct genl_info *info,
			u8 cmd, bool counts, bool with_hooks)
{
	unsigned int kthreads, used;
	void *hdr;

	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq, &nc_family, 0, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(msg, NETCOST_A_VERSION, NETCOST_VERSION) ||
	    nla_put_string(msg, NETCOST_A_KERNEL, init_utsname()->release) ||
	    nla_put_u8(msg, NETCOST_A_PREEMPT_RT, IS_ENABLED(CONFIG_PREEMPT_RT)) ||
	    nla_put_u8(msg, NETCOST_A_THREADIRQS, nc_threadirqs) ||
	    nla_put_u32(msg, NETCOST_A_TSC_KHZ, tsc_khz) ||
	    nla_put_u32(msg, NETCOST_A_NR_CPUS_POSSIBLE, num_possible_cpus()) ||
	    nla_put_u32(msg, NETCOST_A_NR_CPUS_ONLINE, num_online_cpus()) ||
	    nla_put_u32(msg, NETCOST_A_PROBE_COST, nc_probe_cost()) ||
	    nla_put_u32(msg, NETCOST_A_HIST_BUCKETS, NETCOST_HIST_BUCKETS) ||
	    nla_put_u32(msg, NETCOST_A_HIST_SUB_BITS, NETCOST_HIST_SUB_BITS) ||
	    nla_put_u32(msg, NETCOST_A_MEM_PER_CPU,
			NC_STATS_PER_CPU + sizeof(struct nc_napi_table) +
			sizeof(struct nc_cpu) + nc_wait_cpu_size()) ||
	    nla_put_u64_64bit(msg, NETCOST_A_RESET_NS, READ_ONCE(nc_reset_ns),
			      NETCOST_A_PAD) ||
	    nla_put_u64_64bit(msg, NETCOST_A_NOW_NS, ktime_get_ns(), NETCOST_A_PAD) ||
	    nla_put_u64_64bit(msg, NETCOST_A_RESET_CYCLES, READ_ONCE(nc_reset_cycles),
			      NETCOST_A_PAD) ||
	    nla_put_u64_64bit(msg, NETCOST_A_NOW_CYCLES, get_cycles(), NETCOST_A_PAD) ||
	    nla_put_u32(msg, NETCOST_A_GENERATION, atomic_read(&nc_generation)) ||
	    nla_put_u32(msg, NETCOST_A_TASK_SLOTS, nc_task_slots) ||
	    nla_put_u32(msg, NETCOST_A_PROBE_COST_P50, nc_probe_cost_pct(50)) ||
	    nla_put_u32(msg, NETCOST_A_PROBE_COST_P90, nc_probe_cost_pct(90)) ||
	    nla_put_u32(msg, NETCOST_A_NIC_DEVICES, nc_nic_devices()))
		goto err_cancel;
	if (counts) {
		used = nc_tasks_used(&kthreads);
		if (nla_put_u32(msg, NETCOST_A_TASK_SLOTS_USED, used) ||
		    nla_put_u32(msg, NETCOST_A_TASK_SLOTS_KTHREADS, kthreads) ||
		    nla_put_u64_64bit(msg, NETCOST_A_PROBE_COST_SAMPLES,
				      nc_probe_cost_samples(), NETCOST_A_PAD))
			goto err_cancel;
	}
	if (nc_config_put(msg) || nc_stages_put(msg) || nc_untraced_put(msg))
		goto err_cancel;
	if (with_hooks && nc_hooks_put(msg))
		goto err_cancel;
	genlmsg_end(msg, hdr);
	return 0;

err_cancel:
	genlmsg_cancel(msg, hdr);
	return -EMSGSIZE;
}

static int nc_reply_info(struct genl_info *info, u8 cmd, bool counts,
			 bool with_hooks)
{
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(nc_info_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = nc_info_fill(msg, info, cmd, counts, with_hooks);
	if (err) {
		NL_SET_ERR_MSG_MOD(info->extack, "reply does not fit");
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * INFO is open to everyone; what counts activity on the box is gated like
 * STATS: the per-hook hit counts (how often every system call, context
 * switch and interrupt happened), the task slots in use (how many tasks
 * made socket calls) and the probe bodies timed (one hit in 256).  The
 * CONFIG nest stays: it holds no timing and no count, only what the
 * administrator set (IRQ numbers, CPUs, groups, recording).
 */
static int nc_cmd_info(struct sk_buff *skb, struct genl_info *info)
{
	bool may = nc_may_read(skb);

	return nc_reply_info(info, NETCOST_CMD_INFO, may, may);
}

/* ---- RESET and CONFIG ---- */

static int nc_cmd_reset(struct sk_buff *skb, struct genl_info *info)
{
	/* each CPU's NAPI table with its histograms, in the same IPI */
	nc_stats_reset(nc_napi_clear);
	return 0;
}

static int nc_cmd_config_get(struct sk_buff *skb, struct genl_info *info)
{
	int err = nc_check_read(skb, info->extack);

	if (err)
		return err;
	return nc_reply_info(info, NETCOST_CMD_CONFIG_GET, true, false);
}

/*
 * nc_cmd_config_set - validate every attribute first, then apply, so that
 * a rejected request changes nothing.
 */
static int nc_cmd_config_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[NETCOST_CFG_A_MAX + 1];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *attr;
	struct nc_irq_list *irqs = NULL;
	unsigned int nirq_bits = 0;
	cpumask_var_t cpus;
	bool have_irqs = false;
	int rem, err;

	if (!info->attrs[NETCOST_A_CONFIG]) {
		NL_SET_ERR_MSG_MOD(extack, "CONFIG_SET needs a NETCOST_A_CONFIG nest");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, NETCOST_CFG_A_MAX, info->attrs[NETCOST_A_CONFIG],
			       nc_cfg_policy, extack);
	if (err)
		return err;

	nla_for_each_nested(attr, info->attrs[NETCOST_A_CONFIG], rem) {
		if (nla_type(attr) != NETCOST_CFG_A_NIC_IRQ)
			continue;
		/* the kernel's nr_irqs now: it may have grown since load */
		if (nla_get_u32(attr) >= nc_irq_max()) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "no such IRQ number (not below the kernel's nr_irqs)");
			return -EINVAL;
		}
		nirq_bits = max(nirq_bits, nla_get_u32(attr) + 1);
		have_irqs = true;
	}
	if (have_irqs && tb[NETCOST_CFG_A_NIC_IRQS_AUTO] &&
	    nla_get_u8(tb[NETCOST_CFG_A_NIC_IRQS_AUTO])) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NETCOST_CFG_A_NIC_IRQS_AUTO],
				    "give either automatic NIC IRQs or a list, not both");
		return -EINVAL;
	}
	if (have_irqs) {
		irqs = nc_irq_list_new(nirq_bits);
		if (!irqs)
			return -ENOMEM;
	}
	/*
	 * Allocated whether or not a CPU list came: without
	 * CONFIG_CPUMASK_OFFSTACK a cpumask_var_t is an array on the stack,
	 * which can be neither NULL-initialised nor tested for NULL.
	 */
	if (!zalloc_cpumask_var(&cpus, GFP_KERNEL)) {
		nc_irq_list_free(irqs);
		return -ENOMEM;
	}
	if (tb[NETCOST_CFG_A_CPUMASK]) {
		err = cpulist_parse(nla_data(tb[NETCOST_CFG_A_CPUMASK]), cpus);
		if (err == -ERANGE)
			NL_SET_ERR_MSG_ATTR(extack, tb[NETCOST_CFG_A_CPUMASK],
					    "the CPU list names CPUs this kernel cannot have");
		else if (err)
			NL_SET_ERR_MSG_ATTR(extack, tb[NETCOST_CFG_A_CPUMASK],
					    "not a CPU list (like 0-3,8)");
		if (err) {
			err = -EINVAL;
			goto out;
		}
		if (!cpumask_intersects(cpus, cpu_possible_mask)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[NETCOST_CFG_A_CPUMASK],
					    "the CPU list names no CPU of this machine");
			err = -EINVAL;
			goto out;
		}
	}

	if (tb[NETCOST_CFG_A_GROUPS]) {
		u32 groups = nla_get_u32(tb[NETCOST_CFG_A_GROUPS]);

		err = nc_hooks_apply(groups);
		if (err) {
			NL_SET_ERR_MSG_MOD(extack, "cannot attach the hooks of these groups");
			goto out;
		}
		WRITE_ONCE(nc_cfg.groups, groups);
	}
	if (have_irqs) {
		nla_for_each_nested(attr, info->attrs[NETCOST_A_CONFIG], rem) {
			if (nla_type(attr) == NETCOST_CFG_A_NIC_IRQ)
				nc_irq_list_add(irqs, nla_get_u32(attr));
		}
		/* the list before the switch to it: pairs with nc_irq_is_nic() */
		nc_irq_list_publish(irqs);
		irqs = NULL;
		WRITE_ONCE(nc_cfg.nic_irqs_auto, false);
	} else if (tb[NETCOST_CFG_A_NIC_IRQS_AUTO]) {
		WRITE_ONCE(nc_cfg.nic_irqs_auto,
			   !!nla_get_u8(tb[NETCOST_CFG_A_NIC_IRQS_AUTO]));
	}
	nc_irq_config_changed();
	if (tb[NETCOST_CFG_A_CPUMASK])
		cpumask_copy(nc_cfg.cpus, cpus);
	nc_rec_update();
	if (tb[NETCOST_CFG_A_SAMPLE])
		nc_sample_set(nla_get_u32(tb[NETCOST_CFG_A_SAMPLE]));
	if (tb[NETCOST_CFG_A_RECORDING])
		nc_set_recording(!!nla_get_u8(tb[NETCOST_CFG_A_RECORDING]));
	err = 0;
out:
	nc_irq_list_free(irqs);
	free_cpumask_var(cpus);
	return err;
}

/*
 * nc_set_recording - start or stop recording.  Not inlined, and called
 * nowhere else: the trace-replay oracle (tests/oracle) puts a kprobe
 * event here to find the instant netcost's window opens and closes.
 */
noinline void nc_set_recording(bool on)
{
	WRITE_ONCE(nc_cfg.recording, on);
	nc_rec_update();
}

/* ---- STATS dump ---- */

/*
 * The dump copies one CPU at a time into its context and sends the copy,
 * so that every fragment of a stage comes from one consistent copy.
 * cb->args: [0] CPU being sent (-1 before the first), [1] stage,
 * [2] bucket, [3] counter, then NAPI instance past the counters,
 * [4] copy valid, [5] the context.
 */
struct nc_dump {
	struct nc_cpu_stats copy;
	struct nc_napi_table napi;	/* the same CPU's; packed: napi.seq slots in use */
	bool torn;			/* a copy may be torn: flag every message */
	unsigned int rep, repeat;	/* module parameter dump_repeat */
};

static int nc_stats_start(struct netlink_callback *cb)
{
	int err = nc_check_read(cb->skb, cb->extack);
	struct nc_dump *d;

	if (err)
		return err;
	/* not zeroed: each CPU's copy sets what is sent (the buckets first..last) */
	d = kvmalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->torn = false;
	d->rep = 0;
	d->repeat = nc_dump_repeat_get();
	cb->args[0] = -1;
	cb->args[5] = (long)d;
	return 0;
}

static int nc_stats_done(struct netlink_callback *cb)
{
	kvfree((void *)cb->args[5]);
	return 0;
}

/*
 * nc_buckets_put - the buckets of @h from @first (non-empty) to @last (the
 * last non-empty one) as one run, BUCKET_FIRST and BUCKET_COUNTS: a copy
 * of the counts as they lie, where a nest per bucket cost four attributes
 * each.  A run the message cannot hold whole is cut short.  Returns the
 * index after the last bucket sent (@first when none fitted).
 */
static u32 nc_buckets_put(struct sk_buff *skb, const struct nc_hist_snap *h,
			  u32 first, u32 last)
{
	int room = skb_tailroom(skb) - nla_total_size(sizeof(u32)) -
		   nla_total_size_64bit(0);
	unsigned char *mark = skb_tail_pointer(skb);
	u32 n = last - first + 1;

	if (room < (int)sizeof(u64))
		return first;
	n = min_t(u32, n, room / sizeof(u64));
	if (nla_put_u32(skb, NETCOST_STAGE_A_BUCKET_FIRST, first) ||
	    nla_put_64bit(skb, NETCOST_STAGE_A_BUCKET_COUNTS, n * sizeof(u64),
			  &h->buckets[first], NETCOST_STAGE_A_PAD)) {
		nlmsg_trim(skb, mark);
		return first;
	}
	return first + n;
}

/* nc_stage_id_put - what a stage is: id, name, unit and role */
static int nc_stage_id_put(struct sk_buff *skb, int id)
{
	if (nla_put_u32(skb, NETCOST_STAGE_A_ID, id) ||
	    nla_put_string(skb, NETCOST_STAGE_A_NAME, netcost_stage_names[id]) ||
	    nla_put_u8(skb, NETCOST_STAGE_A_UNIT, id == NETCOST_STAGE_NAPI_POLL_WORK ?
		       NETCOST_UNIT_PACKETS : NETCOST_UNIT_CYCLES) ||
	    nla_put_u8(skb, NETCOST_STAGE_A_ROLE, nc_stage_role[id]))
		return -EMSGSIZE;
	return 0;
}

/*
 * Templates.  A stage's head (its nest, id, name, unit, role, count, sum,
 * min and max) and a counter's nest are the same bytes in every message
 * but for their u64 values.  They are built once, at load, by the same
 * nla_put_*() calls, and a dump copies them and writes the values in:
 * the calls, some 120 instructions an attribute, were most of a dump's
 * time (an attribute copied costs a few).  x86 needs no padding before a
 * 64-bit attribute (CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS; the Kbuild
 * allows x86 only), so a template's bytes do not depend on where they land.
 */
#ifndef CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS
#error "netcost: the STATS templates assume no 64-bit attribute padding"
#endif

enum { NC_V_COUNT, NC_V_SUM, NC_V_MIN, NC_V_MAX, NC_V_N };

struct nc_tmpl {
	u16 off, len;		/* bytes in nc_tmpl_buf */
	u16 val[NC_V_N];	/* where each u64 value lies, from off */
};

static struct nc_tmpl nc_stage_tmpl[__NETCOST_STAGE_MAX];
static struct nc_tmpl nc_ctr_tmpl[__NETCOST_CTR_MAX];
static u8 *nc_tmpl_buf;

/* nc_tmpl_find - @t's value offsets: the u64 attributes of @nest by type */
static int nc_tmpl_find(struct nc_tmpl *t, const struct nlattr *nest,
			const int types[NC_V_N], int n)
{
	const struct nlattr *a;
	int rem, v, found = 0;

	nla_for_each_nested(a, nest, rem) {
		for (v = 0; v < n; v++) {
			if (nla_type(a) != types[v])
				continue;
			if (nla_len(a) != sizeof(u64))
				return -EINVAL;
			t->val[v] = (const u8 *)nla_data(a) - (const u8 *)nest;
			found++;
		}
	}
	return found == n ? 0 : -EINVAL;
}

static int nc_tmpl_init(void)
{
	static const int stage_types[NC_V_N] = {
		NETCOST_STAGE_A_COUNT, NETCOST_STAGE_A_SUM,
		NETCOST_STAGE_A_MIN_VAL, NETCOST_STAGE_A_MAX_VAL,
	};
	static const int ctr_types[NC_V_N] = { NETCOST_COUNTER_A_VALUE };
	struct sk_buff *skb = alloc_skb(16384, GFP_KERNEL);
	struct nlattr *nest;
	int i, err = -EMSGSIZE;

	if (!skb)
		return -ENOMEM;
	for (i = 0; i < __NETCOST_STAGE_MAX; i++) {
		nc_stage_tmpl[i].off = skb->len;
		nest = nla_nest_start(skb, NETCOST_A_STAGE);
		if (!nest || nc_stage_id_put(skb, i) ||
		    nla_put_u64_64bit(skb, NETCOST_STAGE_A_COUNT, 0, NETCOST_STAGE_A_PAD) ||
		    nla_put_u64_64bit(skb, NETCOST_STAGE_A_SUM, 0, NETCOST_STAGE_A_PAD) ||
		    nla_put_u64_64bit(skb, NETCOST_STAGE_A_MIN_VAL, 0, NETCOST_STAGE_A_PAD) ||
		    nla_put_u64_64bit(skb, NETCOST_STAGE_A_MAX_VAL, 0, NETCOST_STAGE_A_PAD))
			goto out;
		nla_nest_end(skb, nest);
		nc_stage_tmpl[i].len = skb->len - nc_stage_tmpl[i].off;
		err = nc_tmpl_find(&nc_stage_tmpl[i], nest, stage_types, NC_V_N);
		if (err)
			goto out;
		err = -EMSGSIZE;
	}
	for (i = 0; i < __NETCOST_CTR_MAX; i++) {
		nc_ctr_tmpl[i].off = skb->len;
		nest = nla_nest_start(skb, NETCOST_A_COUNTER);
		if (!nest || nla_put_u32(skb, NETCOST_COUNTER_A_ID, i) ||
		    nla_put_string(skb, NETCOST_COUNTER_A_NAME, netcost_counter_names[i]) ||
		    nla_put_u64_64bit(skb, NETCOST_COUNTER_A_VALUE, 0, NETCOST_COUNTER_A_PAD))
			goto out;
		nla_nest_end(skb, nest);
		nc_ctr_tmpl[i].len = skb->len - nc_ctr_tmpl[i].off;
		err = nc_tmpl_find(&nc_ctr_tmpl[i], nest, ctr_types, 1);
		if (err)
			goto out;
		err = -EMSGSIZE;
	}
	nc_tmpl_buf = kmemdup(skb->data, skb->len, GFP_KERNEL);
	err = nc_tmpl_buf ? 0 : -ENOMEM;
out:
	kfree_skb(skb);
	return err;
}

/*
 * nc_tmpl_put - template @t into @skb with @vals written in; NULL when it
 * does not fit.
 */
static void *nc_tmpl_put(struct sk_buff *skb, const struct nc_tmpl *t,
			 const u64 *vals, int n)
{
	u8 *p;
	int v;

	if (skb_tailroom(skb) < t->len)
		return NULL;
	p = skb_put_data(skb, nc_tmpl_buf + t->off, t->len);
	for (v = 0; v < n; v++)
		memcpy(p + t->val[v], &vals[v], sizeof(u64));
	return p;
}

/*
 * nc_stage_put - one stage, from bucket *@bucket on.  Returns 0 when the
 * stage is complete; -EAGAIN when a fragment went out and *@bucket is
 * where the next one starts; -EMSGSIZE when nothing went out.
 */
static int nc_stage_put(struct sk_buff *skb, int id, const struct nc_hist_snap *h,
			long *bucket)
{
	u32 first = max_t(u32, h->first, *bucket), next;
	u64 vals[NC_V_N] = {
		[NC_V_COUNT] = h->count,
		[NC_V_SUM] = h->sum,
		[NC_V_MIN] = h->count ? ~h->min_inv : 0,
		[NC_V_MAX] = h->max,
	};
	struct nlattr *nest;

	/* the nest's length is its head's until nla_nest_end() */
	nest = nc_tmpl_put(skb, &nc_stage_tmpl[id], vals, NC_V_N);
	if (!nest)
		return -EMSGSIZE;
	if (first <= h->last) {
		next = nc_buckets_put(skb, h, first, h->last);
		if (next <= h->last) {
			nla_nest_end(skb, nest);
			*bucket = next;
			return -EAGAIN;
		}
	}
	nla_nest_end(skb, nest);
	*bucket = 0;
	return 0;
}

static int nc_counter_put(struct sk_buff *skb, int id, u64 value)
{
	return nc_tmpl_put(skb, &nc_ctr_tmpl[id], &value, 1) ? 0 : -EMSGSIZE;
}

/* nc_napi_put - one NAPI instance's polls on the message's CPU */
static int nc_napi_put(struct sk_buff *skb, const struct nc_napi_slot *n)
{
	struct nlattr *nest = nla_nest_start(skb, NETCOST_A_NAPI);

	if (!nest ||
	    nla_put_u32(skb, NETCOST_NAPI_A_ID, n->id) ||
	    nla_put_u32(skb, NETCOST_NAPI_A_IFINDEX, n->ifindex) ||
	    (n->ifname[0] && nla_put_string(skb, NETCOST_NAPI_A_IFNAME, n->ifname)) ||
	    (n->irq >= 0 && nla_put_u32(skb, NETCOST_NAPI_A_IRQ, n->irq)) ||
	    (n->pid && nla_put_u32(skb, NETCOST_NAPI_A_THREAD_PID, n->pid)) ||
	    nla_put_u64_64bit(skb, NETCOST_NAPI_A_POLLS, n->polls, NETCOST_NAPI_A_PAD) ||
	    nla_put_u64_64bit(skb, NETCOST_NAPI_A_PACKETS, n->packets, NETCOST_NAPI_A_PAD) ||
	    nla_put_u64_64bit(skb, NETCOST_NAPI_A_TIMED_POLLS, n->timed, NETCOST_NAPI_A_PAD) ||
	    nla_put_u64_64bit(skb, NETCOST_NAPI_A_CYCLES, n->cycles, NETCOST_NAPI_A_PAD)) {
		if (nest)
			nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * nc_stats_fill - one message about the CPU in cb->args[0], continuing
 * where the last one stopped.  Returns 0 once the CPU is complete,
 * -EAGAIN when the message is full, -EMSGSIZE when nothing fitted.
 */
static int nc_stats_fill(struct sk_buff *skb, struct netlink_callback *cb,
			 const struct nc_cpu_stats *s, const struct nc_napi_table *napi,
			 u32 cpu_id, bool torn)
{
	bool progress = false;
	void *hdr;
	int err;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &nc_family, NLM_F_MULTI, NETCOST_CMD_STATS);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	/* a copy a writer kept busy is no consistent copy: the reader retries */
	if (torn)
		genlmsg_nlhdr(hdr)->nlmsg_flags |= NLM_F_DUMP_INTR;
	if (nla_put_u32(skb, NETCOST_A_CPU, cpu_id) ||
	    nla_put_u32(skb, NETCOST_A_HIST_BUCKETS, NETCOST_HIST_BUCKETS) ||
	    nla_put_u32(skb, NETCOST_A_HIST_SUB_BITS, NETCOST_HIST_SUB_BITS))
		goto err_cancel;

	for (; cb->args[1] < __NETCOST_STAGE_MAX; cb->args[1]++) {
		err = nc_stage_put(skb, cb->args[1], &s->hist[cb->args[1]], &cb->args[2]);
		if (err == -EAGAIN) {
			progress = true;
			goto full;
		}
		if (err)
			goto full;
		progress = true;
	}
	for (; cb->args[3] < __NETCOST_CTR_MAX; cb->args[3]++) {
		if (nc_counter_put(skb, cb->args[3], s->c.counters[cb->args[3]]))
			goto full;
		progress = true;
	}
	/* past the counters, cb->args[3] walks the CPU's NAPI instances */
	for (; cb->args[3] < __NETCOST_CTR_MAX + napi->seq; cb->args[3]++) {
		if (nc_napi_put(skb, &napi->s[cb->args[3] - __NETCOST_CTR_MAX]))
			goto full;
		progress = true;
	}
	genlmsg_end(skb, hdr);
	return 0;

full:
	if (!progress)
		goto err_cancel;
	genlmsg_end(skb, hdr);
	return -EAGAIN;

err_cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int nc_stats_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nc_dump *d = (void *)cb->args[5];
	int err;

	/* odd: a reset is running now (hist.c) */
	cb->seq = atomic_read(&nc_generation);
	if (cb->seq & 1)
		d->torn = true;
	for (;;) {
		if (!cb->args[4]) {
			long cpu = cb->args[0];
			bool ok;

			if (cpu >= nr_cpu_ids)
				return skb->len;
			if (cpu < 0 || ++d->rep >= d->repeat) {
				cpu = cpumask_next(cpu, cpu_possible_mask);
				d->rep = 0;
				cb->args[0] = cpu;
			}
			if (cpu >= nr_cpu_ids)
				return skb->len;
			ok = nc_stats_copy(cpu, &d->copy);
			ok &= nc_napi_copy(cpu, &d->napi);
			/* a reset that began meanwhile may have cleared only some CPUs */
			if (!ok || atomic_read(&nc_generation) != cb->seq)
				d->torn = true;
			cb->args[1] = 0;
			cb->args[2] = 0;
			cb->args[3] = 0;
			cb->args[4] = 1;
		}
		err = nc_stats_fill(skb, cb, &d->copy, &d->napi,
				    cb->args[0] + d->rep * nr_cpu_ids, d->torn);
		if (err == -EAGAIN)
			return skb->len;
		if (err)
			return skb->len ? skb->len : err;
		cb->args[4] = 0;
	}
}

/* ---- TASKS dump ---- */

static int nc_tasks_start(struct netlink_callback *cb)
{
	cb->args[0] = 0;	/* the next slot to look at */
	return nc_check_read(cb->skb, cb->extack);
}

/* nc_task_put_nest - slot @i, held as @v, as one NETCOST_A_TASK nest */
static int nc_task_put_nest(struct sk_buff *skb, unsigned int i,
			    const struct nc_task_view *v)
{
	struct nlattr *nest = nla_nest_start(skb, NETCOST_A_TASK);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NETCOST_TASK_A_SLOT, i) ||
	    nla_put_u32(skb, NETCOST_TASK_A_PID, v->pid) ||
	    nla_put_u8(skb, NETCOST_TASK_A_KIND, v->kind) ||
	    nla_put_u32(skb, NETCOST_TASK_A_FRAMES, v->frames) ||
	    nla_put_u8(skb, NETCOST_TASK_A_LOAD, v->load) ||
	    nla_put_u8(skb, NETCOST_TASK_A_WAKING, v->waking)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * nc_tasks_dumpit - the held slots from cb->args[0] on, as many nests as a
 * message holds; a slot that does not fit starts the next message
 */
static int nc_tasks_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int i = cb->args[0];
	struct nc_task_view v;
	void *hdr;
	int n = 0;

	if (i >= nc_task_slots)
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &nc_family, NLM_F_MULTI, NETCOST_CMD_TASKS);
	if (!hdr || nla_put_u32(skb, NETCOST_A_TASK_SLOTS, nc_task_slots))
		return -EMSGSIZE;
	for (; i < nc_task_slots; i++) {
		if (!nc_task_peek(i, &v))
			continue;
		if (nc_task_put_nest(skb, i, &v))
			break;
		n++;
		cond_resched();
	}
	if (!n && i < nc_task_slots) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	cb->args[0] = i;
	genlmsg_end(skb, hdr);
	return skb->len;
}

/* ---- family ---- */

static int nc_pre_doit(const struct nc_genl_hook_ops *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	mutex_lock(&nc_mutex);
	return 0;
}

static void nc_post_doit(const struct nc_genl_hook_ops *ops, struct sk_buff *skb,
			 struct genl_info *info)
{
	mutex_unlock(&nc_mutex);
}

static const struct genl_ops nc_ops[] = {
	{
		.cmd	= NETCOST_CMD_INFO,
		.doit	= nc_cmd_info,
	},
	{
		.cmd	= NETCOST_CMD_STATS,
		.start	= nc_stats_start,
		.dumpit	= nc_stats_dumpit,
		.done	= nc_stats_done,
	},
	{
		.cmd	= NETCOST_CMD_RESET,
		.doit	= nc_cmd_reset,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= NETCOST_CMD_CONFIG_GET,
		.doit	= nc_cmd_config_get,
	},
	{
		.cmd	= NETCOST_CMD_CONFIG_SET,
		.doit	= nc_cmd_config_set,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= NETCOST_CMD_TASKS,
		.start	= nc_tasks_start,
		.dumpit	= nc_tasks_dumpit,
	},
};

static struct genl_family nc_family __ro_after_init = {
	.name		= NETCOST_GENL_NAME,
	.version	= NETCOST_GENL_VERSION,
	.maxattr	= NETCOST_A_MAX,
	.policy		= nc_policy,
	.netnsok	= false,
	/*
	 * commands after today's get the header's reserved bytes checked and
	 * need a policy; today's keep their rules (the field is in every
	 * kernel compat.h accepts: 6.1 added it, 9c5d03d36251)
	 */
	.resv_start_op	= NETCOST_CMD_CONFIG_SET + 1,
	.pre_doit	= nc_pre_doit,
	.post_doit	= nc_post_doit,
	.module		= THIS_MODULE,
	.ops		= nc_ops,
	.n_ops		= ARRAY_SIZE(nc_ops),
};

int nc_netlink_init(void)
{
	int err = nc_tmpl_init();

	if (err)
		return err;
	err = genl_register_family(&nc_family);
	if (err)
		kfree(nc_tmpl_buf);
	return err;
}

void nc_netlink_exit(void)
{
	genl_unregister_family(&nc_family);
	kfree(nc_tmpl_buf);
}
