/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the derived figures of a model (metrics.c): what every
 * renderer prints, computed once.  The data flows nl -> stats -> model ->
 * metrics -> (report | diff | plot | export).
 */
#ifndef NETCOST_METRICS_H
#define NETCOST_METRICS_H

#include "hist.h"
#include "model.h"

double nc_info_since_reset_s(const struct nc_info *info);
double nc_interval_s(const struct nc_model *m);
uint64_t nc_model_interval_cycles(const struct nc_model *m);
double nc_per_s(const struct nc_model *m, uint64_t count);
uint64_t nc_rx_packets(const struct nc_model *m, const struct nc_cpu *c);
uint64_t nc_tx_packets(const struct nc_model *m, const struct nc_cpu *c);
/* What "per packet" divides by: nc_packet_basis() */
enum nc_basis {
	NC_BASIS_MIXED,		/* both directions: tx stages per tx, the rest per rx */
	NC_BASIS_RX,		/* a receiving box: everything per rx packet */
	NC_BASIS_TX,		/* a sending box: everything per tx packet */
};

enum nc_basis nc_packet_basis(const struct nc_model *m);
void nc_model_force_basis(struct nc_model *m, enum nc_basis b);
unsigned int nc_recorded_cpulist(const struct nc_model *m, char *buf, size_t len);
const char *nc_basis_name(enum nc_basis b);
const char *nc_basis_desc(enum nc_basis b);
uint64_t nc_basis_packets(const struct nc_model *m);
bool nc_stage_in_total(const struct nc_model *m, unsigned int s);
bool nc_stage_is_cpu_time(const struct nc_model *m, unsigned int s);
bool nc_stage_is_kernel_work(const struct nc_model *m, unsigned int s);
uint64_t nc_cpu_packets(const struct nc_model *m, const struct nc_cpu *c,
			unsigned int stage);
bool nc_irq_thread_holds_net_rx(const struct nc_model *m);
bool nc_ctx_switch_holds_all(const struct nc_model *m);
bool nc_frames_hold_switch_work(const struct nc_model *m);
bool nc_syscalls_any_socket(const struct nc_model *m);
unsigned int nc_model_sample(const struct nc_model *m);
bool nc_stage_sampled(const struct nc_model *m, unsigned int s);
uint64_t nc_stage_untimed(const struct nc_model *m, const struct nc_cpu *c, unsigned int s);
uint64_t nc_stage_events(const struct nc_model *m, const struct nc_cpu *c, unsigned int s);
uint64_t nc_stage_sum(const struct nc_model *m, const struct nc_cpu *c, unsigned int s);
uint64_t nc_stage_own_cycles(const struct nc_model *m, const struct nc_cpu *c,
			     unsigned int stage);
double nc_stage_per_packet(const struct nc_model *m, const struct nc_cpu *c,
			   unsigned int s);
double nc_stage_own_per_packet(const struct nc_model *m, const struct nc_cpu *c,
			       unsigned int s);
double nc_top_per_packet(const struct nc_model *m, const struct nc_cpu *c);
unsigned int nc_recorded_cpus(const struct nc_model *m);
double nc_cpu_time_pct(const struct nc_model *m, uint64_t cycles, unsigned int nr_cpus);
double nc_stage_events_per_packet(const struct nc_model *m, const struct nc_cpu *c,
				  unsigned int s);
double nc_stage_cpu_pct(const struct nc_model *m, const struct nc_cpu *c, unsigned int s,
			unsigned int nr_cpus);
uint64_t nc_top_cycles(const struct nc_model *m, const struct nc_cpu *c);
unsigned int nc_top_stages(const struct nc_model *m, const struct nc_cpu *c,
			   unsigned int *out, unsigned int max);
double nc_stage_per_packet_named(const struct nc_model *m, const char *name, bool per_tx,
				 bool own);
double nc_counter_per_packet(const struct nc_model *m, const struct nc_cpu *c, unsigned int k);
double nc_napi_packets_per_poll(const struct nc_napi *n);
double nc_napi_cycles_per_poll(const struct nc_napi *n);
double nc_napi_cycles_per_packet(const struct nc_napi *n);
const char *nc_napi_device(const struct nc_napi *n);

#define NC_MAX_NAPI_DEVICES	64	/* devices nc_napi_by_device() keeps */

/* One side's NAPI instances of a device, added up (nc_napi_by_device()) */
struct nc_napi_side {
	unsigned int instances;		/* those that polled; 0: the side has none */
	struct nc_napi sum;		/* their polls, packets, timed polls and cycles */
	double packets_per_poll;	/* -1: no polls */
	double cycles_per_poll;		/* napi_poll cycles per timed poll; -1: none timed */
	double cycles_per_packet;	/* napi_poll cycles per packet; -1: a poll untimed, none */
};

/* A device's NAPI instances in A and B: a row of nc_napi_by_device() */
struct nc_napi_dev {
	char device[NC_NAME_LEN];	/* nc_napi_device(): a name, "backlog" (all CPUs'), "-" */
	bool has_ifname;		/* a device's, not instances without one */
	struct nc_napi_side side[2];	/* A, B */
};

struct nc_napi_devs {
	unsigned int nr;
	struct nc_napi_dev dev[NC_MAX_NAPI_DEVICES];	/* devices first, by name */
	uint64_t left_out;		/* instances of devices past NC_MAX_NAPI_DEVICES */
};

void nc_napi_by_device(struct nc_napi_devs *t, const struct nc_model *a,
		       const struct nc_model *b);

#define NC_MAX_NAPI_PAIRS	512	/* rows nc_napi_pair() keeps */

/* How nc_napi_pair() found an instance of A's counterpart in B */
enum nc_napi_match {
	NC_NAPI_ALONE,		/* none: the instance is on one side only */
	NC_NAPI_BY_ID,		/* the same napi_id (one boot; or id 0, no id, with id 0) */
	NC_NAPI_BY_ORDER,	/* the device's napi_ids differ (another boot): n-th with n-th */
	NC_NAPI_BY_CPU,		/* a CPU's backlog with the same CPU's */
};

/* An instance of A and its counterpart in B: a row of nc_napi_pair() */
struct nc_napi_pair {
	char device[NC_NAME_LEN];	/* nc_napi_device() */
	enum nc_napi_match match;
	/* A, B: instances 1 and sum the instance itself (no CPU list); 0: none that side */
	struct nc_napi_side side[2];
	double ratio_cycles_per_poll;	/* B/A; -1: undefined */
	double ratio_cycles_per_packet;	/* B/A; -1: undefined */
};

struct nc_napi_pairs {
	unsigned int nr;
	struct nc_napi_pair pair[NC_MAX_NAPI_PAIRS];	/* device by device, as in a total */
	uint64_t left_out;		/* rows past NC_MAX_NAPI_PAIRS */
};

void nc_napi_pair(struct nc_napi_pairs *t, const struct nc_model *a, const struct nc_model *b);
const char *nc_napi_match_name(enum nc_napi_match match);
bool nc_is_netrx_runs(const char *name);
bool nc_is_netrx_cycles(const char *name);

/* One row of "where NET_RX ran" (nc_netrx_placement()) */
struct nc_netrx_row {
	const char *where;		/* "irq_exit", "ksoftirqd", ... */
	uint64_t runs, cycles;
	double runs_pct, cycles_pct;	/* of all NET_RX runs / cycles */
	double per_packet;		/* cycles per packet (nc_basis_packets()); -1: none */
};

unsigned int nc_netrx_placement(const struct nc_model *m, const struct nc_cpu *c,
				struct nc_netrx_row *rows, unsigned int max);
double nc_hist_bucket_pct(const struct nc_hist *h, unsigned int b);

/* One hook's share of the probes' cost (nc_overhead()) */
struct nc_hook_rate {
	const char *name;		/* points into the later INFO */
	uint8_t kind;			/* enum netcost_hook_kind */
	bool dup_name;			/* another hook has its name (told apart by kind) */
	double hits_per_s;
	double cycles_per_s;		/* -1: no self-cost sampled yet */
	double cpu_pct;			/* of one CPU; -1: as above, or no TSC rate */
};

/* What the probes cost, from two INFO replies */
struct nc_overhead {
	double interval_s;		/* between the replies */
	double hits_per_s;		/* all hooks */
	double cost_per_hit;		/* cycles, the sampled self-cost; -1: none yet */
	double cost_p50;		/* cycles, its median; -1: not sent (before 0.4.0) */
	double cost_p90;		/* cycles, its 90th percentile; -1: not sent */
	double cycles_per_s;		/* -1: no self-cost */
	double cpu_pct;			/* of one CPU; -1: no self-cost or TSC rate */
	unsigned int nr_hooks;
	struct nc_hook_rate hook[NC_MAX_HOOKS];
};

int nc_overhead(const struct nc_info *a, const struct nc_info *b, struct nc_overhead *o);
double nc_ratio(double b, double a);
double nc_share(double part, double whole);
double nc_cpu_switch_cycles(const struct nc_model *m, const struct nc_cpu *c, double *count);
double nc_cpu_irq_context_cycles(const struct nc_model *m, const struct nc_cpu *c);
double nc_cpu_task_netrx_cycles(const struct nc_model *m, const struct nc_cpu *c);

#endif
