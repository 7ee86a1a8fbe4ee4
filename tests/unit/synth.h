/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - synthetic models for the unit tests: what the module would
 * report for a stock and for a PREEMPT_RT kernel receiving 38k UDP
 * packets/s, drawn from a fixed-seed generator so that every run is the
 * same.  Header-only, so that each test_*.c stays one file.
 */
#ifndef NETCOST_TEST_SYNTH_H
#define NETCOST_TEST_SYNTH_H

#include <math.h>
#include <string.h>

#include "model.h"
#include "netcost_names.h"

/* synth_rand - xorshift64*: a uniform double in (0, 1) */
static inline double synth_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return ((double)((*s * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

/* synth_record - one event of @v into @h, as the module's probe would */
static inline void synth_record(struct nc_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
	h->buckets[netcost_hist_index(v)]++;
}

/*
 * synth_stage - @n events of @stage on @cpu, log-normally spread around
 * @median with shape @sigma.
 */
static inline void synth_stage(struct nc_model *m, uint32_t cpu, const char *stage,
			       uint64_t n, double median, double sigma, uint64_t seed)
{
	struct nc_cpu *c = nc_model_cpu(m, cpu);
	int s = nc_model_find_stage(m, stage);
	struct nc_hist *h = nc_cpu_hist(c, (unsigned int)s);
	uint64_t i;

	seed = seed * 0x9E3779B97F4A7C15ULL + 1;
	for (i = 0; i < n; i++) {
		double u1 = synth_rand(&seed), u2 = synth_rand(&seed);
		double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);

		synth_record(h, (uint64_t)llround(median * exp(sigma * z)));
	}
}

/* synth_counter - set counter @name on @cpu */
static inline void synth_counter(struct nc_model *m, uint32_t cpu, const char *name,
				 uint64_t v)
{
	struct nc_cpu *c = nc_model_cpu(m, cpu);
	int i = nc_model_counter(m, name);

	c->counter[i] = v;
	c->has_counter[i] = true;
}

/* synth_napi - NAPI instance @n's polls on @cpu, as the module would report them */
static inline void synth_napi(struct nc_model *m, uint32_t cpu, const struct nc_napi *n)
{
	struct nc_napi *e = nc_model_napi(m, nc_model_cpu(m, cpu), n);

	if (e)
		nc_napi_add(e, n);
}

/*
 * synth_napis - the NAPI instances of synth_model()'s guest: eth0's two
 * queues (rx-0 polled on CPU 0 and, after an IRQ move, a little on CPU 1;
 * rx-1 in a NAPI thread, on CPU 1), eth0's tx-only instance (id 0, no
 * IRQ known), eth1's queue, busy-polled only (untimed), and each CPU's
 * backlog
 */
static inline void synth_napis(struct nc_model *m)
{
	synth_napi(m, 0, &(struct nc_napi){ .id = 8193, .ifindex = 2, .has_ifname = true,
		   .ifname = "eth0", .has_irq = true, .irq = 24, .polls = 37000,
		   .packets = 370000, .timed_polls = 37000, .cycles = 37000ULL * 13000 });
	synth_napi(m, 1, &(struct nc_napi){ .id = 8193, .ifindex = 2, .has_ifname = true,
		   .ifname = "eth0", .has_irq = true, .irq = 25, .polls = 600,
		   .packets = 6000, .timed_polls = 600, .cycles = 600 * 14000 });
	synth_napi(m, 1, &(struct nc_napi){ .id = 8194, .ifindex = 2, .has_ifname = true,
		   .ifname = "eth0", .has_irq = true, .irq = 26, .has_thread_pid = true,
		   .thread_pid = 812, .polls = 400, .packets = 4000, .timed_polls = 400,
		   .cycles = 400 * 15000 });
	synth_napi(m, 0, &(struct nc_napi){ .id = 0, .ifindex = 2, .has_ifname = true,
		   .ifname = "eth0", .polls = 20, .packets = 20, .timed_polls = 20,
		   .cycles = 20 * 900 });
	synth_napi(m, 0, &(struct nc_napi){ .polls = 10, .packets = 30, .timed_polls = 10,
		   .cycles = 10 * 2000 });
	synth_napi(m, 0, &(struct nc_napi){ .id = 8195, .ifindex = 3, .has_ifname = true,
		   .ifname = "eth1", .has_irq = true, .irq = 27, .polls = 50, .packets = 5 });
	synth_napi(m, 1, &(struct nc_napi){ .polls = 1, .packets = 1, .timed_polls = 1,
		   .cycles = 1500 });
	nc_model_sum_total(m, NULL);
}

/* synth_info - INFO of a 2-CPU guest, @secs after the reset */
static inline void synth_info(struct nc_model *m, bool rt, double secs)
{
	struct nc_info *info = &m->info;
	static const char *const hooks[] = {
		"irq_handler_entry", "irq_handler_exit", "softirq_entry", "softirq_exit",
		"napi_poll", "netif_receive_skb", "sched_switch", "finish_task_switch.isra.0",
	};
	unsigned int i;

	strcpy(info->version, NETCOST_VERSION);
	strcpy(info->kernel, rt ? "6.1.0-57-rt-amd64" : "6.1.0-57-amd64");
	info->preempt_rt = rt;
	info->threadirqs = false;
	info->tsc_khz = 2096000;
	info->nr_cpus = 2;
	info->nr_cpus_online = 2;
	info->probe_cost = 60;
	info->probe_cost_p50 = 52;
	info->probe_cost_p90 = 96;
	info->probe_cost_samples = 4242;
	info->hist_buckets = NETCOST_HIST_BUCKETS;
	info->hist_sub_bits = NETCOST_HIST_SUB_BITS;
	info->mem_per_cpu = 45312;
	info->generation = 3;
	info->reset_ns = 1000000000ULL;
	info->now_ns = info->reset_ns + (uint64_t)(secs * 1e9);
	info->reset_cycles = 5000000000ULL;
	info->now_cycles = info->reset_cycles + (uint64_t)(secs * 2096000000.0);
	info->config.nic_irqs_auto = true;
	info->config.nr_nic_irqs = 1;
	info->config.nic_irq[0] = 11;
	strcpy(info->config.cpus, "0-1");
	info->config.groups = NETCOST_GROUP_ALL;
	info->config.recording = true;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		struct nc_hook *h = &info->hook[info->nr_hooks++];

		strcpy(h->name, hooks[i]);
		h->kind = i == 7 ? NETCOST_HOOK_KRETPROBE : NETCOST_HOOK_TRACEPOINT;
		h->group = i < 2 ? NETCOST_GROUP_IRQ : i < 4 ? NETCOST_GROUP_SOFTIRQ :
			   i < 6 ? NETCOST_GROUP_NET : NETCOST_GROUP_SCHED;
		h->attached = true;
		h->hits = 100000 + i;
	}
}

/*
 * synth_model - a 10 s run at 38k rx packets/s on CPU 0 (and a little on
 * CPU 1): stock, or PREEMPT_RT with its threaded IRQ and extra context
 * switches.  @m must be inited.  With @meta, the snapshot meta too.
 */
static inline void synth_model(struct nc_model *m, bool rt, bool meta)
{
	const double secs = 10;
	const uint64_t pkts = 380000, irqs = 38000;
	uint32_t cpu;

	synth_info(m, rt, secs);
	for (cpu = 0; cpu < 2; cpu++) {
		uint64_t k = cpu ? 50 : 1;	/* CPU 1 sees a 50th */
		uint64_t seed = cpu * 100 + rt;

		synth_stage(m, cpu, "hardirq", irqs / k, rt ? 900 : 2600, 0.2, seed + 1);
		synth_stage(m, cpu, "hardirq_other", 10000 / k, 1500, 0.4, seed + 2);
		synth_stage(m, cpu, "softirq_net_rx", irqs / k, rt ? 16000 : 14000, 0.3, seed + 3);
		synth_stage(m, cpu, "softirq_other", 5000 / k, 2200, 0.5, seed + 4);
		synth_stage(m, cpu, "napi_poll", irqs / k, rt ? 15000 : 13000, 0.3, seed + 5);
		synth_stage(m, cpu, "napi_poll_work", irqs / k, 10, 0.3, seed + 6);
		synth_stage(m, cpu, "rx_skb", pkts / k, rt ? 1200 : 1000, 0.25, seed + 7);
		synth_stage(m, cpu, "syscall_rx", pkts / k, rt ? 2600 : 1500, 0.3, seed + 8);
		synth_stage(m, cpu, "ctx_switch", (rt ? 2 * irqs : 2000) / k, rt ? 4200 : 3000,
			    0.3, seed + 9);
		synth_stage(m, cpu, "wakeup_latency", (rt ? irqs : 2000) / k, 9000, 0.6, seed + 10);
		if (rt)
			synth_stage(m, cpu, "irq_thread", irqs / k, 22000, 0.3, seed + 11);	/* NET_RX incl. */
		synth_counter(m, cpu, "rx_packets", pkts / k);
		synth_counter(m, cpu, "tx_packets", 20 / k);
		synth_counter(m, cpu, "nic_irqs", irqs / k);
		synth_counter(m, cpu, "ctx_switches", (rt ? 2 * irqs : 2000) / k);
		synth_counter(m, cpu, "ctx_switches_irq_thread", (rt ? irqs : 0) / k);
		synth_counter(m, cpu, "ctx_switches_ksoftirqd", 40 / k);
		synth_counter(m, cpu, "net_rx_in_irq_exit", (rt ? 0 : irqs - 400) / k);
		synth_counter(m, cpu, "net_rx_in_irq_exit_cycles", (rt ? 0 : (irqs - 400) * 14000) / k);
		synth_counter(m, cpu, "net_rx_in_ksoftirqd", 400 / k);
		synth_counter(m, cpu, "net_rx_in_ksoftirqd_cycles", 400 * 15000 / k);
		synth_counter(m, cpu, "net_rx_in_irq_thread", (rt ? irqs - 400 : 0) / k);
		synth_counter(m, cpu, "net_rx_in_irq_thread_cycles", (rt ? (irqs - 400) * 16000 : 0) / k);
		synth_counter(m, cpu, "net_rx_in_task_bh_enable", 0);
		synth_counter(m, cpu, "net_rx_in_task_bh_enable_cycles", 0);
		synth_counter(m, cpu, "napi_budget_exhausted", 12 / k);
		synth_counter(m, cpu, "task_table_full", 0);
		synth_counter(m, cpu, "probe_hits", 2000000 / k);
	}
	nc_model_sum_total(m, NULL);
	if (!meta)
		return;
	m->has_meta = true;
	m->meta.kernel = nc_xstrdup(m->info.kernel);
	m->meta.preempt_rt = rt;
	m->meta.cmdline = nc_xstrdup("console=ttyS0 quiet");
	m->meta.cpu_model = nc_xstrdup("QEMU Virtual CPU version 2.5+");
	m->meta.tsc_khz = m->info.tsc_khz;
	m->meta.nr_cpus = 2;
	m->meta.taken_at = nc_xstrdup("2024-05-01T12:00:00Z");
	m->meta.interval_ns = m->info.now_ns - m->info.reset_ns;
	m->meta.probe_cost = 60;
	m->meta.note = nc_xstrdup(rt ? "rt, 38k pps" : "stock, 38k pps");
	m->meta.load = json_pack("{s:s, s:i, s:i}", "generator", "netcost-gen", "pps", 38000,
				 "size", 64);
}

#endif
