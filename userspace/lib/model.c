// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the in-memory statistics model behind "netcost dump", "show",
 * "watch", "diff", "plot" and "export": stages and counters keyed by name,
 * per-CPU histograms, totals across CPUs and interval deltas.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "netcost_names.h"

/*
 * Where each known stage's cycles belong, for modules before 0.2.0 and
 * their snapshots (later ones send NETCOST_STAGE_A_ROLE).  Only the
 * top-level contexts are summed into a packet's total, so that nested
 * stages (NAPI poll inside NET_RX, rx_skb inside the poll) are not counted
 * twice.
 */
static const enum nc_role nc_stage_roles[] = {
	[NETCOST_STAGE_HARDIRQ]		= NC_ROLE_TOP,
	[NETCOST_STAGE_HARDIRQ_OTHER]	= NC_ROLE_OTHER,
	[NETCOST_STAGE_SOFTIRQ_NET_RX]	= NC_ROLE_TOP,
	[NETCOST_STAGE_SOFTIRQ_NET_TX]	= NC_ROLE_TOP,
	[NETCOST_STAGE_SOFTIRQ_OTHER]	= NC_ROLE_OTHER,
	[NETCOST_STAGE_IRQ_THREAD]	= NC_ROLE_TOP,
	[NETCOST_STAGE_NAPI_POLL]	= NC_ROLE_NESTED,
	[NETCOST_STAGE_NAPI_POLL_WORK]	= NC_ROLE_COUNT,
	[NETCOST_STAGE_RX_SKB]		= NC_ROLE_NESTED,
	[NETCOST_STAGE_TX_XMIT]		= NC_ROLE_NESTED,
	[NETCOST_STAGE_CTX_SWITCH]	= NC_ROLE_TOP,
	[NETCOST_STAGE_WAKEUP_LATENCY]	= NC_ROLE_LATENCY,
	[NETCOST_STAGE_SYSCALL_RX]	= NC_ROLE_TOP,
	[NETCOST_STAGE_SYSCALL_TX]	= NC_ROLE_TOP,
	[NETCOST_STAGE_HARDIRQ_VECTORS]	= NC_ROLE_OTHER,
	[NETCOST_STAGE_RUNQ_WAIT_LOAD]	= NC_ROLE_LATENCY,
	[NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD] = NC_ROLE_LATENCY,
	[NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD] = NC_ROLE_LATENCY,
	[NETCOST_STAGE_BLOCKED_LOAD]	= NC_ROLE_LATENCY,
	[NETCOST_STAGE_NAPI_THREAD]	= NC_ROLE_TOP,
	[NETCOST_STAGE_BUSY_POLL]	= NC_ROLE_NESTED,
};
_Static_assert(ARRAY_SIZE(nc_stage_roles) == ARRAY_SIZE(netcost_stage_names),
	       "a role for every stage");

/* nc_role_name - "top", "nested", "other", "waiting", "count" */
const char *nc_role_name(enum nc_role role)
{
	return (unsigned int)role < ARRAY_SIZE(netcost_role_names) ?
	       netcost_role_names[role] : "nested";
}

/* nc_role_parse - the role named @name, or -1 */
int nc_role_parse(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < ARRAY_SIZE(netcost_role_names); i++)
		if (!strcmp(name, netcost_role_names[i]))
			return (int)i;
	return -1;
}

/*
 * nc_model_set_role - stage @stage has role @role, as the module or a file
 * says.  Returns 0, or -1 for a role this tool does not know (the stage
 * then keeps the one it has) or one that contradicts what was said before.
 */
int nc_model_set_role(struct nc_model *m, unsigned int stage, unsigned int role)
{
	struct nc_stage_desc *d = &m->stage[stage];

	if (role >= NC_NR_ROLES)
		return -1;
	if (d->role_sent && d->role != (enum nc_role)role)
		return -1;
	d->role = (enum nc_role)role;
	d->role_sent = true;
	return 0;
}

/*
 * nc_model_info_stages - register the stages INFO described, with their
 * roles, so that a stage with no events yet still has its place and role.
 */
void nc_model_info_stages(struct nc_model *m)
{
	unsigned int i;

	for (i = 0; i < m->info.nr_stages; i++) {
		const struct nc_info_stage *is = &m->info.stage[i];
		int s = nc_model_stage(m, is->name, is->unit);

		if (s >= 0 && is->role >= 0 && !m->stage[s].role_sent)
			nc_model_set_role(m, (unsigned int)s, (unsigned int)is->role);
	}
}

/* nc_model_init - an empty model that already knows every known stage */
void nc_model_init(struct nc_model *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < ARRAY_SIZE(netcost_stage_names); i++)
		nc_model_stage(m, netcost_stage_names[i],
			       i == NETCOST_STAGE_NAPI_POLL_WORK ?
			       NETCOST_UNIT_PACKETS : NETCOST_UNIT_CYCLES);
	for (i = 0; i < ARRAY_SIZE(netcost_counter_names); i++)
		nc_model_counter(m, netcost_counter_names[i]);
}

/* nc_cpu_free - free the histograms of one CPU (or of the total) */
static void nc_cpu_free(struct nc_cpu *c)
{
	unsigned int i;

	for (i = 0; i < NC_MAX_STAGES; i++) {
		free(c->stage[i]);
		c->stage[i] = NULL;
	}
}

/* nc_model_clear_stats - drop all statistics, keep info and names */
void nc_model_clear_stats(struct nc_model *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_cpus; i++)
		nc_cpu_free(&m->cpus[i]);
	free(m->cpus);
	m->cpus = NULL;
	m->nr_cpus = 0;
	nc_cpu_free(&m->total);
	memset(&m->total, 0, sizeof(m->total));
}

/* nc_meta_free - free what a snapshot's meta object owns */
void nc_meta_free(struct nc_meta *meta)
{
	free(meta->kernel);
	free(meta->cmdline);
	free(meta->cpu_model);
	free(meta->taken_at);
	free(meta->note);
	json_decref(meta->load);
	json_decref(meta->soak);
	json_decref(meta->path_config);
	memset(meta, 0, sizeof(*meta));
}

/* nc_meta_copy - @dst (free of its own) = a deep copy of @src */
static void nc_meta_copy(struct nc_meta *dst, const struct nc_meta *src)
{
	*dst = *src;
	dst->kernel = nc_xstrdup(src->kernel);
	dst->cmdline = nc_xstrdup(src->cmdline);
	dst->cpu_model = nc_xstrdup(src->cpu_model);
	dst->taken_at = nc_xstrdup(src->taken_at);
	dst->note = nc_xstrdup(src->note);
	dst->load = json_incref(src->load);
	dst->soak = json_incref(src->soak);
	dst->path_config = json_incref(src->path_config);
}

/*
 * nc_model_filter - @dst (not inited, or freed) becomes a copy of @src with
 * only the stages in @keep (NULL: all) and the CPUs in @cpus (indexed by
 * CPU number, NC_MAX_CPUS long; NULL: all), totalled again.  @src is not
 * touched: filters make a new model, so that what is read stays whole.
 */
void nc_model_filter(struct nc_model *dst, const struct nc_model *src, const bool *keep,
		     const bool *cpus)
{
	unsigned int i, s;

	memcpy(dst, src, sizeof(*dst));
	if (!src->all_set) {
		dst->all_set = true;
		dst->all_rx = nc_cpu_counter(src, &src->total, "rx_packets");
		dst->all_tx = nc_cpu_counter(src, &src->total, "tx_packets");
	}
	dst->cpus = NULL;
	dst->nr_cpus = 0;
	memset(&dst->total, 0, sizeof(dst->total));
	nc_meta_copy(&dst->meta, &src->meta);
	for (i = 0; i < src->nr_cpus; i++) {
		const struct nc_cpu *c = &src->cpus[i];
		struct nc_cpu *d;

		if (cpus && !cpus[c->cpu])
			continue;
		d = nc_model_cpu(dst, c->cpu);
		memcpy(d->counter, c->counter, sizeof(d->counter));
		memcpy(d->has_counter, c->has_counter, sizeof(d->has_counter));
		for (s = 0; s < src->nr_stages; s++) {
			if (!c->stage[s] || (keep && !keep[s]))
				continue;
			*nc_cpu_hist(d, s) = *c->stage[s];
		}
	}
	nc_model_sum_total(dst, NULL);
}

/* nc_model_free - release everything; the model may be inited again */
void nc_model_free(struct nc_model *m)
{
	nc_model_clear_stats(m);
	nc_meta_free(&m->meta);
}

/*
 * nc_name_ok - whether @name may name a stage or a counter: [a-z][a-z0-9_]*
 * and shorter than NC_NAME_LEN.  Names become Prometheus metric names and
 * label values, JSON keys and table cells: nothing else gets in.
 */
bool nc_name_ok(const char *name)
{
	const char *p;

	if (!name || *name < 'a' || *name > 'z' || strlen(name) >= NC_NAME_LEN)
		return false;
	for (p = name + 1; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

/* nc_model_find_stage - the index of stage @name, or -1 */
int nc_model_find_stage(const struct nc_model *m, const char *name)
{
	unsigned int i;

	for (i = 0; i < m->nr_stages; i++)
		if (!strcmp(m->stage[i].name, name))
			return (int)i;
	return -1;
}

/*
 * nc_model_stage - the index of stage @name, added when it is new to the
 * tool (a newer module).  Returns -1 when the name is too long or the
 * table is full, or not a name (nc_name_ok()).  An unknown stage counts as nested: the tool cannot know
 * what it overlaps, so it stays out of the per-packet total.
 */
int nc_model_stage(struct nc_model *m, const char *name, uint8_t unit)
{
	struct nc_stage_desc *s;
	int i = nc_model_find_stage(m, name);
	unsigned int k;

	if (i >= 0)
		return i;
	if (m->nr_stages >= NC_MAX_STAGES || !nc_name_ok(name))
		return -1;
	i = (int)m->nr_stages++;
	s = &m->stage[i];
	strcpy(s->name, name);
	s->unit = unit;
	s->role = unit == NETCOST_UNIT_PACKETS ? NC_ROLE_COUNT : NC_ROLE_NESTED;
	for (k = 0; k < ARRAY_SIZE(nc_stage_roles); k++) {
		if (strcmp(name, netcost_stage_names[k]))
			continue;
		s->role = nc_stage_roles[k];
		s->per_tx = k == NETCOST_STAGE_TX_XMIT || k == NETCOST_STAGE_SYSCALL_TX ||
			    k == NETCOST_STAGE_SOFTIRQ_NET_TX;
	}
	return i;
}

/* nc_model_find_counter - the index of counter @name, or -1 */
int nc_model_find_counter(const struct nc_model *m, const char *name)
{
	unsigned int i;

	for (i = 0; i < m->nr_counters; i++)
		if (!strcmp(m->counter[i], name))
			return (int)i;
	return -1;
}

/* nc_model_counter - the index of counter @name, added when new; -1 if full */
int nc_model_counter(struct nc_model *m, const char *name)
{
	int i = nc_model_find_counter(m, name);

	if (i >= 0)
		return i;
	if (m->nr_counters >= NC_MAX_COUNTERS || !nc_name_ok(name))
		return -1;
	i = (int)m->nr_counters++;
	strcpy(m->counter[i], name);
	return i;
}

/*
 * nc_model_cpu - the entry of CPU @cpu, created (in CPU order) when the
 * model has none yet.  Returns NULL for a CPU number beyond NC_MAX_CPUS.
 */
struct nc_cpu *nc_model_cpu(struct nc_model *m, uint32_t cpu)
{
	unsigned int i;

	if (cpu >= NC_MAX_CPUS)
		return NULL;
	for (i = 0; i < m->nr_cpus && m->cpus[i].cpu <= cpu; i++)
		if (m->cpus[i].cpu == cpu)
			return &m->cpus[i];
	m->cpus = nc_xrealloc(m->cpus, (m->nr_cpus + 1) * sizeof(*m->cpus));
	memmove(&m->cpus[i + 1], &m->cpus[i], (m->nr_cpus - i) * sizeof(*m->cpus));
	m->nr_cpus++;
	memset(&m->cpus[i], 0, sizeof(m->cpus[i]));
	m->cpus[i].cpu = cpu;
	return &m->cpus[i];
}

/* nc_cpu_hist - the histogram of @stage on @c, allocated on first use */
struct nc_hist *nc_cpu_hist(struct nc_cpu *c, unsigned int stage)
{
	if (!c->stage[stage])
		c->stage[stage] = nc_xcalloc(1, sizeof(struct nc_hist));
	return c->stage[stage];
}

/* nc_hist_add - merge @src into @dst: counts and sums add, min/max widen */
void nc_hist_add(struct nc_hist *dst, const struct nc_hist *src)
{
	unsigned int i;

	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	for (i = 0; i < NETCOST_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

/*
 * nc_model_sum_total - recompute m->total from the CPUs in @cpuset (all
 * CPUs when NULL).  A stage is in the total when any selected CPU reported
 * it.  Returns the number of CPUs summed.
 */
int nc_model_sum_total(struct nc_model *m, const bool *cpuset)
{
	struct nc_cpu *t = &m->total;
	unsigned int i, s;
	int n = 0;

	nc_cpu_free(t);
	memset(t, 0, sizeof(*t));
	for (i = 0; i < m->nr_cpus; i++) {
		const struct nc_cpu *c = &m->cpus[i];

		if (cpuset && !cpuset[c->cpu])
			continue;
		n++;
		for (s = 0; s < m->nr_stages; s++)
			if (c->stage[s])
				nc_hist_add(nc_cpu_hist(t, s), c->stage[s]);
		for (s = 0; s < m->nr_counters; s++) {
			if (!c->has_counter[s])
				continue;
			t->counter[s] += c->counter[s];
			t->has_counter[s] = true;
		}
	}
	return n;
}

/*
 * nc_hist_delta - @cur minus @prev (the same stage, earlier).  min and max
 * of the interval are not known; the bounds of the outermost non-empty
 * buckets, narrowed by the cumulative min/max, stand in for them.
 */
static void nc_hist_delta(struct nc_hist *d, const struct nc_hist *cur,
			  const struct nc_hist *prev)
{
	unsigned int i, first = NETCOST_HIST_BUCKETS, last = 0;

	*d = *cur;
	if (!prev)
		return;
	d->count = cur->count >= prev->count ? cur->count - prev->count : 0;
	d->sum = cur->sum >= prev->sum ? cur->sum - prev->sum : 0;
	for (i = 0; i < NETCOST_HIST_BUCKETS; i++) {
		d->buckets[i] = cur->buckets[i] >= prev->buckets[i] ?
				cur->buckets[i] - prev->buckets[i] : 0;
		if (d->buckets[i]) {
			if (first == NETCOST_HIST_BUCKETS)
				first = i;
			last = i;
		}
	}
	if (first == NETCOST_HIST_BUCKETS) {
		d->min = d->max = 0;
		return;
	}
	d->min = netcost_hist_lo(first);
	if (d->min < cur->min)
		d->min = cur->min;
	d->max = netcost_hist_hi(last);
	if (d->max > cur->max)
		d->max = cur->max;
}

/*
 * nc_model_delta - what happened between @prev and @cur ("netcost watch").
 * When the module was reset in between (another generation), @cur itself
 * is the delta.  @d must be freshly inited; it gets @cur's names and info
 * with the interval starting at @prev's answer.
 */
int nc_model_delta(struct nc_model *d, const struct nc_model *cur,
		   const struct nc_model *prev)
{
	bool same = prev && prev->info.generation == cur->info.generation;
	unsigned int i, s;

	d->info = cur->info;
	d->nr_stages = cur->nr_stages;
	memcpy(d->stage, cur->stage, sizeof(d->stage));
	d->nr_counters = cur->nr_counters;
	memcpy(d->counter, cur->counter, sizeof(d->counter));
	if (same) {
		d->info.reset_ns = prev->info.now_ns;
		d->info.reset_cycles = prev->info.now_cycles;
	}
	for (i = 0; i < cur->nr_cpus; i++) {
		const struct nc_cpu *c = &cur->cpus[i];
		const struct nc_cpu *p = NULL;
		struct nc_cpu *dc = nc_model_cpu(d, c->cpu);
		unsigned int j;

		if (!dc)
			return NC_EXIT_ERROR;
		for (j = 0; same && j < prev->nr_cpus; j++)
			if (prev->cpus[j].cpu == c->cpu)
				p = &prev->cpus[j];
		for (s = 0; s < cur->nr_stages; s++) {
			int ps;

			if (!c->stage[s])
				continue;
			ps = p ? nc_model_find_stage(prev, cur->stage[s].name) : -1;
			nc_hist_delta(nc_cpu_hist(dc, s), c->stage[s],
				      ps >= 0 ? p->stage[ps] : NULL);
		}
		for (s = 0; s < cur->nr_counters; s++) {
			int pc;

			if (!c->has_counter[s])
				continue;
			dc->has_counter[s] = true;
			dc->counter[s] = c->counter[s];
			pc = p ? nc_model_find_counter(prev, cur->counter[s]) : -1;
			if (pc >= 0 && p->has_counter[pc] && p->counter[pc] <= c->counter[s])
				dc->counter[s] -= p->counter[pc];
		}
	}
	nc_model_sum_total(d, NULL);
	return NC_EXIT_OK;
}

/* nc_cpu_counter - counter @name on @c (a CPU or the total); 0 if absent */
uint64_t nc_cpu_counter(const struct nc_model *m, const struct nc_cpu *c,
			const char *name)
{
	int i = nc_model_find_counter(m, name);

	return i >= 0 ? c->counter[i] : 0;
}

/* nc_preempt_model - the name printed for the kernel's preemption model */
const char *nc_preempt_model(bool preempt_rt, bool threadirqs)
{
	if (preempt_rt)
		return "PREEMPT_RT";
	return threadirqs ? "stock+threadirqs" : "stock";
}
