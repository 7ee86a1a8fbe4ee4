/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the in-memory model of netcost's statistics: what the module
 * reports over netlink (INFO + STATS) and what a snapshot file holds.
 * Every printing subcommand prints from this model, wherever it came from.
 *
 * NAPI instances (0.9.0) are kept per CPU and, in the total, added up by
 * instance (nc_model_sum_total()), at most NC_MAX_NAPI entries a model.
 *
 * Stages and counters are keyed by NAME, as on the wire: the known ones
 * take the indices of enum netcost_stage / enum netcost_counter, unknown
 * (newer) ones are appended, so that they survive a save/show round trip.
 */
#ifndef NETCOST_MODEL_H
#define NETCOST_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#define NETCOST_HIST_USERSPACE
#include "netcost_hist.h"
#include "uapi/netcost.h"
#include "common.h"

#define NC_MAX_STAGES	64
#define NC_MAX_COUNTERS	64
#define NC_MAX_HOOKS	128
#define NC_MAX_NIC_IRQS	64
#define NC_NAME_LEN	64
#define NC_MAX_NAPI	4096	/* NAPI entries a model keeps, over all its CPUs */

/* One stage's histogram on one CPU, or summed over CPUs */
struct nc_hist {
	uint64_t count;			/* events */
	uint64_t sum;			/* in the stage's unit */
	uint64_t min;			/* smallest event, 0 when count is 0 */
	uint64_t max;			/* largest event */
	uint64_t buckets[NETCOST_HIST_BUCKETS];	/* by netcost_hist_index() */
};

/*
 * How a stage's time relates to the CPU time spent on packets: the values
 * of enum netcost_role, which the module sends (NETCOST_STAGE_A_ROLE) and
 * snapshots keep; a built-in table stands in for older modules and files.
 */
enum nc_role {
	NC_ROLE_TOP = NETCOST_ROLE_TOP,		/* a top-level context: summed into the total */
	NC_ROLE_NESTED = NETCOST_ROLE_NESTED,	/* runs inside a top-level stage */
	NC_ROLE_OTHER = NETCOST_ROLE_OTHER,	/* CPU time spent on other work */
	NC_ROLE_LATENCY = NETCOST_ROLE_WAITING,	/* waiting time, not CPU time */
	NC_ROLE_COUNT = NETCOST_ROLE_COUNT,	/* not cycles at all (unit packets) */
	NC_NR_ROLES
};

struct nc_stage_desc {
	char name[NC_NAME_LEN];
	uint8_t unit;			/* enum netcost_unit */
	enum nc_role role;
	bool role_sent;			/* role from the module or file, not the table */
	bool per_tx;			/* per packet = per tx packet */
};

/* A stage as INFO describes it (NETCOST_A_STAGE without figures) */
struct nc_info_stage {
	char name[NC_NAME_LEN];
	uint8_t unit;
	int role;			/* -1: not sent */
};

/* INFO's interrupt vectors without tracepoints: hardirq does not see them */
#define NC_MAX_UNTRACED	8
struct nc_untraced {
	char name[NC_NAME_LEN];
	bool has_count;			/* the kernel counts it */
	uint64_t count;			/* its interrupts since boot, all CPUs */
};

/*
 * One NAPI instance's polls (NETCOST_A_NAPI, 0.9.0): on one CPU, or, in
 * the total, added up over the CPUs it polled on.  An instance is the
 * key (id, ifindex, ifname); the lists are kept in nc_napi_cmp() order.
 */
struct nc_napi {
	uint32_t id;			/* napi_id; 0: none (a CPU's backlog, a tx-only NAPI) */
	uint32_t ifindex;
	bool has_ifname;		/* false: no device (a backlog) */
	/*
	 * a total's instance with no device: the CPU it is of.  Such an
	 * instance is a CPU's own (its backlog), never added across CPUs
	 */
	uint32_t backlog_cpu;
	char ifname[NC_NAME_LEN];	/* its device, control characters escaped; "" if none */
	bool has_irq;			/* false: unknown */
	uint32_t irq;
	bool has_thread_pid;		/* false: no NAPI thread */
	uint32_t thread_pid;
	uint64_t polls;
	uint64_t packets;		/* the polls' work */
	uint64_t timed_polls;		/* polls timed in the napi_poll stage */
	uint64_t cycles;		/* their napi_poll cycles */
	/* where irq and thread_pid came from: the polls of that CPU (nc_napi_add()) */
	uint64_t irq_polls, thread_polls;
	/* the total's: the CPUs it polled on, ascending; a CPU's own list has none */
	unsigned int nr_cpus;
	uint32_t *cpus;
};

struct nc_cpu {
	uint32_t cpu;
	struct nc_hist *stage[NC_MAX_STAGES];	/* NULL: none reported */
	uint64_t counter[NC_MAX_COUNTERS];
	bool has_counter[NC_MAX_COUNTERS];
	unsigned int nr_napi;
	struct nc_napi *napi;		/* NAPI instances, in nc_napi_cmp() order */
};

struct nc_config {
	bool nic_irqs_auto;		/* NIC IRQs found by device name */
	unsigned int nr_nic_irqs;
	uint32_t nic_irq[NC_MAX_NIC_IRQS];
	char cpus[256];			/* cpulist of recorded CPUs */
	uint32_t groups;		/* NETCOST_GROUP_* */
	bool recording;
	/*
	 * rx_skb and tx_xmit timed on 1 packet in @sample (0.15.0; 0 or 1:
	 * every packet, as before)
	 */
	uint32_t sample;
};

struct nc_hook {
	char name[NC_NAME_LEN];
	uint8_t kind;			/* enum netcost_hook_kind */
	uint32_t group;			/* NETCOST_GROUP_* */
	bool attached;
	uint64_t hits;
	uint64_t missed;		/* k(ret)probe hits the kernel dropped */
};

/* NETCOST_CMD_INFO, attribute by attribute */
struct nc_info {
	char version[32];
	char kernel[128];
	bool preempt_rt;
	bool threadirqs;
	uint32_t tsc_khz;		/* get_cycles() rate */
	uint32_t nr_cpus;		/* possible */
	uint32_t nr_cpus_online;
	uint32_t probe_cost;		/* cycles per probe hit: mean of the sampled bodies */
	/* the sampled bodies' median and 90th percentile, their number (0.4.0; else 0) */
	uint32_t probe_cost_p50;	/* cycles */
	uint32_t probe_cost_p90;	/* cycles */
	uint64_t probe_cost_samples;
	uint32_t hist_buckets;
	uint32_t hist_sub_bits;
	uint32_t mem_per_cpu;		/* bytes */
	uint32_t generation;
	uint64_t reset_ns;		/* ktime_get_ns() */
	uint64_t now_ns;
	uint64_t reset_cycles;		/* get_cycles() */
	uint64_t now_cycles;
	struct nc_config config;
	unsigned int nr_hooks;
	struct nc_hook hook[NC_MAX_HOOKS];
	bool has_task_slots;		/* sent by modules from 0.2.0 */
	uint32_t task_slots;
	uint32_t task_slots_used;
	bool has_task_slots_kthreads;	/* INFO TASK_SLOTS_KTHREADS: modules from 0.11.0 */
	uint32_t task_slots_kthreads;	/* of task_slots_used: IRQ/NAPI threads, ksoftirqd */
	bool has_nic_devices;		/* INFO NIC_DEVICES: absent from older modules */
	uint32_t nic_devices;		/* devices whose names find NIC IRQs */
	unsigned int nr_untraced;
	struct nc_untraced untraced[NC_MAX_UNTRACED];
	unsigned int nr_stages;		/* INFO's stage table (0.2.0), or 0 */
	struct nc_info_stage stage[NC_MAX_STAGES];
};

/* The "meta" object of a snapshot: where and when it was taken */
struct nc_meta {
	char *kernel;
	bool preempt_rt;
	bool threadirqs;
	char *cmdline;			/* /proc/cmdline */
	char *cpu_model;		/* /proc/cpuinfo "model name" */
	uint32_t tsc_khz;
	uint32_t nr_cpus;
	char *taken_at;			/* ISO 8601, UTC */
	uint64_t interval_ns;		/* now_ns - reset_ns */
	uint32_t probe_cost;		/* cycles */
	char *note;
	json_t *load;			/* free-form, optional (the generator's) */
	json_t *soak;			/* free-form, optional (netcost soak's) */
	json_t *path_config;		/* optional: the packet path's settings (pathcfg.c) */
};

struct nc_model {
	struct nc_info info;
	bool has_meta;			/* loaded from or meant for a file */
	struct nc_meta meta;
	unsigned int nr_stages;
	struct nc_stage_desc stage[NC_MAX_STAGES];
	unsigned int nr_counters;
	char counter[NC_MAX_COUNTERS][NC_NAME_LEN];
	unsigned int nr_cpus;
	struct nc_cpu *cpus;		/* sorted by CPU number */
	struct nc_cpu total;		/* nc_model_sum_total() */
	unsigned int napi_kept;		/* NAPI entries of all CPUs, at most NC_MAX_NAPI */
	uint64_t napi_dropped;		/* entries past NC_MAX_NAPI, not kept */
	/*
	 * The packets of all CPUs, kept when nc_model_filter() drops CPUs:
	 * "per packet" always divides by them (metrics.c), so that --cpu N
	 * shows what --per-cpu shows for N.
	 */
	bool all_set;
	uint64_t all_rx, all_tx;
	/* 0: "per packet" as nc_packet_basis() finds; else 1 + enum nc_basis (diff --basis) */
	int basis_forced;
};

bool nc_name_ok(const char *name);
void nc_model_init(struct nc_model *m);
void nc_model_free(struct nc_model *m);
void nc_model_clear_stats(struct nc_model *m);
void nc_model_filter(struct nc_model *dst, const struct nc_model *src, const bool *keep,
		     const bool *cpus);
int nc_model_stage(struct nc_model *m, const char *name, uint8_t unit);
int nc_model_find_stage(const struct nc_model *m, const char *name);
int nc_model_set_role(struct nc_model *m, unsigned int stage, unsigned int role);
void nc_model_info_stages(struct nc_model *m);
const char *nc_role_name(enum nc_role role);
int nc_role_parse(const char *name);
int nc_model_counter(struct nc_model *m, const char *name);
int nc_model_find_counter(const struct nc_model *m, const char *name);
struct nc_cpu *nc_model_cpu(struct nc_model *m, uint32_t cpu);
struct nc_hist *nc_cpu_hist(struct nc_cpu *c, unsigned int stage);
int nc_napi_cmp(const struct nc_napi *a, const struct nc_napi *b);
struct nc_napi *nc_cpu_find_napi(const struct nc_cpu *c, const struct nc_napi *key);
struct nc_napi *nc_model_napi(struct nc_model *m, struct nc_cpu *c, const struct nc_napi *key);
void nc_napi_add(struct nc_napi *dst, const struct nc_napi *src);
int nc_model_sum_total(struct nc_model *m, const bool *cpuset);
int nc_model_delta(struct nc_model *d, const struct nc_model *cur,
		   const struct nc_model *prev);

uint64_t nc_cpu_counter(const struct nc_model *m, const struct nc_cpu *c,
			const char *name);
void nc_hist_add(struct nc_hist *dst, const struct nc_hist *src);
const char *nc_preempt_model(bool preempt_rt, bool threadirqs);

void nc_meta_free(struct nc_meta *meta);

#endif
