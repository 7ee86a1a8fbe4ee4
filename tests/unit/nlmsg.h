/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nlmsg.h - the module's replies, built from a model with libmnl exactly
 * as module/netlink.c lays them out, in each UAPI version the tools read
 * (enum nlmsg_uapi): for the parser's unit test and as the recorded
 * replies the netlink fuzzer starts from.  Header-only.
 */
#ifndef NETCOST_TEST_NLMSG_H
#define NETCOST_TEST_NLMSG_H

#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "model.h"
#include "uapi/netcost.h"

enum nlmsg_uapi {
	NLMSG_0_1,	/* no roles, no task slots, a nest per non-empty bucket */
	NLMSG_0_2,	/* + roles in STATS and INFO's stage table, task-table fill */
	NLMSG_0_3,	/* + buckets as one packed run, the layout in each STATS message */
	NLMSG_0_4,	/* + the probe self-cost's median, 90th percentile and samples */
	NLMSG_0_9,	/* + each CPU's NAPI instances */
	NLMSG_0_11,	/* + the kernel threads' task slots */
};

/* nlmsg_start - a reply header of @cmd at @buf */
static inline struct nlmsghdr *nlmsg_start(void *buf, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = 0x20;		/* the family id the kernel handed out */
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = 1;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = NETCOST_GENL_VERSION;
	return nlh;
}

/* nlmsg_info - the INFO reply of @m at @buf, as UAPI @v lays it out */
static inline struct nlmsghdr *nlmsg_info(void *buf, const struct nc_model *m,
					  enum nlmsg_uapi v)
{
	const struct nc_info *info = &m->info;
	struct nlmsghdr *nlh = nlmsg_start(buf, NETCOST_CMD_INFO, 0);
	struct nlattr *nest;
	unsigned int i;

	mnl_attr_put_strz(nlh, NETCOST_A_VERSION, info->version);
	mnl_attr_put_strz(nlh, NETCOST_A_KERNEL, info->kernel);
	mnl_attr_put_u8(nlh, NETCOST_A_PREEMPT_RT, info->preempt_rt);
	mnl_attr_put_u8(nlh, NETCOST_A_THREADIRQS, info->threadirqs);
	mnl_attr_put_u32(nlh, NETCOST_A_TSC_KHZ, info->tsc_khz);
	mnl_attr_put_u32(nlh, NETCOST_A_NR_CPUS_POSSIBLE, info->nr_cpus);
	mnl_attr_put_u32(nlh, NETCOST_A_NR_CPUS_ONLINE, info->nr_cpus_online);
	mnl_attr_put_u32(nlh, NETCOST_A_PROBE_COST, info->probe_cost);
	mnl_attr_put_u32(nlh, NETCOST_A_HIST_BUCKETS, info->hist_buckets);
	mnl_attr_put_u32(nlh, NETCOST_A_HIST_SUB_BITS, info->hist_sub_bits);
	mnl_attr_put_u32(nlh, NETCOST_A_MEM_PER_CPU, info->mem_per_cpu);
	mnl_attr_put_u64(nlh, NETCOST_A_RESET_NS, info->reset_ns);
	mnl_attr_put_u64(nlh, NETCOST_A_NOW_NS, info->now_ns);
	mnl_attr_put_u64(nlh, NETCOST_A_RESET_CYCLES, info->reset_cycles);
	mnl_attr_put_u64(nlh, NETCOST_A_NOW_CYCLES, info->now_cycles);
	mnl_attr_put_u32(nlh, NETCOST_A_GENERATION, info->generation);
	nest = mnl_attr_nest_start(nlh, NETCOST_A_CONFIG);
	mnl_attr_put_u8(nlh, NETCOST_CFG_A_NIC_IRQS_AUTO, info->config.nic_irqs_auto);
	for (i = 0; i < info->config.nr_nic_irqs; i++)
		mnl_attr_put_u32(nlh, NETCOST_CFG_A_NIC_IRQ, info->config.nic_irq[i]);
	mnl_attr_put_strz(nlh, NETCOST_CFG_A_CPUMASK, info->config.cpus);
	mnl_attr_put_u32(nlh, NETCOST_CFG_A_GROUPS, info->config.groups);
	mnl_attr_put_u8(nlh, NETCOST_CFG_A_RECORDING, info->config.recording);
	mnl_attr_nest_end(nlh, nest);
	for (i = 0; i < info->nr_hooks; i++) {
		const struct nc_hook *h = &info->hook[i];

		nest = mnl_attr_nest_start(nlh, NETCOST_A_HOOK);
		mnl_attr_put_strz(nlh, NETCOST_HOOK_A_NAME, h->name);
		mnl_attr_put_u8(nlh, NETCOST_HOOK_A_KIND, h->kind);
		mnl_attr_put_u32(nlh, NETCOST_HOOK_A_GROUP, h->group);
		mnl_attr_put_u8(nlh, NETCOST_HOOK_A_ATTACHED, h->attached);
		mnl_attr_put_u64(nlh, NETCOST_HOOK_A_HITS, h->hits);
		mnl_attr_put_u64(nlh, NETCOST_HOOK_A_MISSED, h->missed);
		mnl_attr_nest_end(nlh, nest);
	}
	if (v < NLMSG_0_2)
		return nlh;
	mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS, 1024);
	mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS_USED, 17);
	if (v >= NLMSG_0_11)
		mnl_attr_put_u32(nlh, NETCOST_A_TASK_SLOTS_KTHREADS, 5);
	if (v >= NLMSG_0_4) {
		mnl_attr_put_u32(nlh, NETCOST_A_PROBE_COST_P50, info->probe_cost_p50);
		mnl_attr_put_u32(nlh, NETCOST_A_PROBE_COST_P90, info->probe_cost_p90);
		mnl_attr_put_u64(nlh, NETCOST_A_PROBE_COST_SAMPLES, info->probe_cost_samples);
	}
	if (v >= NLMSG_0_9 && info->has_nic_devices)
		mnl_attr_put_u32(nlh, NETCOST_A_NIC_DEVICES, info->nic_devices);
	for (i = 0; v >= NLMSG_0_9 && i < info->nr_untraced; i++) {
		nest = mnl_attr_nest_start(nlh, NETCOST_A_UNTRACED);
		mnl_attr_put_strz(nlh, NETCOST_UNTRACED_A_NAME, info->untraced[i].name);
		if (info->untraced[i].has_count)
			mnl_attr_put_u64(nlh, NETCOST_UNTRACED_A_COUNT, info->untraced[i].count);
		mnl_attr_nest_end(nlh, nest);
	}
	for (i = 0; i < m->nr_stages; i++) {
		nest = mnl_attr_nest_start(nlh, NETCOST_A_STAGE);
		mnl_attr_put_u32(nlh, NETCOST_STAGE_A_ID, i);
		mnl_attr_put_strz(nlh, NETCOST_STAGE_A_NAME, m->stage[i].name);
		mnl_attr_put_u8(nlh, NETCOST_STAGE_A_UNIT, m->stage[i].unit);
		mnl_attr_put_u8(nlh, NETCOST_STAGE_A_ROLE, m->stage[i].role);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

/*
 * nlmsg_buckets - @h's buckets from @from to the last non-empty one, as
 * one packed run (UAPI 0.3.0); nothing when none is left
 */
static inline void nlmsg_buckets(struct nlmsghdr *nlh, const struct nc_hist *h,
				 unsigned int from)
{
	unsigned int first = NETCOST_HIST_BUCKETS, last = 0, b;

	for (b = from; b < NETCOST_HIST_BUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		if (first == NETCOST_HIST_BUCKETS)
			first = b;
		last = b;
	}
	if (first == NETCOST_HIST_BUCKETS)
		return;
	mnl_attr_put_u32(nlh, NETCOST_STAGE_A_BUCKET_FIRST, first);
	mnl_attr_put(nlh, NETCOST_STAGE_A_BUCKET_COUNTS, (last - first + 1) * sizeof(uint64_t),
		     &h->buckets[first]);
}

/*
 * nlmsg_napi - NAPI instance @n as the module's nest (UAPI 0.9.0): the
 * device, IRQ and thread only when known, the 64-bit figures after a PAD
 * as nla_put_u64_64bit() lays them where alignment matters
 */
static inline void nlmsg_napi(struct nlmsghdr *nlh, const struct nc_napi *n)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, NETCOST_A_NAPI);

	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_ID, n->id);
	mnl_attr_put_u32(nlh, NETCOST_NAPI_A_IFINDEX, n->ifindex);
	if (n->has_ifname)
		mnl_attr_put_strz(nlh, NETCOST_NAPI_A_IFNAME, n->ifname);
	if (n->has_irq)
		mnl_attr_put_u32(nlh, NETCOST_NAPI_A_IRQ, n->irq);
	if (n->has_thread_pid)
		mnl_attr_put_u32(nlh, NETCOST_NAPI_A_THREAD_PID, n->thread_pid);
	mnl_attr_put(nlh, NETCOST_NAPI_A_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_POLLS, n->polls);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_PACKETS, n->packets);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_TIMED_POLLS, n->timed_polls);
	mnl_attr_put_u64(nlh, NETCOST_NAPI_A_CYCLES, n->cycles);
	mnl_attr_nest_end(nlh, nest);
}

/*
 * nlmsg_stats - the STATS message of CPU @c of @m at @buf (of @len bytes):
 * every stage and counter it has (and NAPI instance), as UAPI @v lays them out
 */
static inline struct nlmsghdr *nlmsg_stats(void *buf, size_t len, const struct nc_model *m,
					   const struct nc_cpu *c, enum nlmsg_uapi v)
{
	struct nlmsghdr *nlh = nlmsg_start(buf, NETCOST_CMD_STATS, NLM_F_MULTI);
	unsigned int s, b;

	(void)len;
	mnl_attr_put_u32(nlh, NETCOST_A_CPU, c->cpu);
	if (v >= NLMSG_0_3) {
		mnl_attr_put_u32(nlh, NETCOST_A_HIST_BUCKETS, NETCOST_HIST_BUCKETS);
		mnl_attr_put_u32(nlh, NETCOST_A_HIST_SUB_BITS, NETCOST_HIST_SUB_BITS);
	}
	for (s = 0; s < m->nr_stages; s++) {
		const struct nc_hist *h = c->stage[s];
		struct nlattr *nest, *bn;

		if (!h)
			continue;
		nest = mnl_attr_nest_start(nlh, NETCOST_A_STAGE);
		mnl_attr_put_u32(nlh, NETCOST_STAGE_A_ID, s);
		mnl_attr_put_strz(nlh, NETCOST_STAGE_A_NAME, m->stage[s].name);
		mnl_attr_put_u8(nlh, NETCOST_STAGE_A_UNIT, m->stage[s].unit);
		if (v >= NLMSG_0_2)
			mnl_attr_put_u8(nlh, NETCOST_STAGE_A_ROLE, m->stage[s].role);
		mnl_attr_put_u64(nlh, NETCOST_STAGE_A_COUNT, h->count);
		mnl_attr_put_u64(nlh, NETCOST_STAGE_A_SUM, h->sum);
		mnl_attr_put_u64(nlh, NETCOST_STAGE_A_MIN_VAL, h->min);
		mnl_attr_put_u64(nlh, NETCOST_STAGE_A_MAX_VAL, h->max);
		if (v >= NLMSG_0_3) {
			nlmsg_buckets(nlh, h, 0);
			mnl_attr_nest_end(nlh, nest);
			continue;
		}
		for (b = 0; b < NETCOST_HIST_BUCKETS; b++) {
			if (!h->buckets[b])
				continue;
			bn = mnl_attr_nest_start(nlh, NETCOST_STAGE_A_BUCKET);
			mnl_attr_put_u64(nlh, NETCOST_BUCKET_A_LO, netcost_hist_lo(b));
			mnl_attr_put_u64(nlh, NETCOST_BUCKET_A_HI, netcost_hist_hi(b));
			mnl_attr_put_u64(nlh, NETCOST_BUCKET_A_COUNT, h->buckets[b]);
			mnl_attr_nest_end(nlh, bn);
		}
		mnl_attr_nest_end(nlh, nest);
	}
	for (s = 0; s < m->nr_counters; s++) {
		struct nlattr *nest;

		if (!c->has_counter[s])
			continue;
		nest = mnl_attr_nest_start(nlh, NETCOST_A_COUNTER);
		mnl_attr_put_u32(nlh, NETCOST_COUNTER_A_ID, s);
		mnl_attr_put_strz(nlh, NETCOST_COUNTER_A_NAME, m->counter[s]);
		mnl_attr_put_u64(nlh, NETCOST_COUNTER_A_VALUE, c->counter[s]);
		mnl_attr_nest_end(nlh, nest);
	}
	for (s = 0; v >= NLMSG_0_9 && s < c->nr_napi; s++)
		nlmsg_napi(nlh, &c->napi[s]);
	return nlh;
}

#endif
