// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the in-memory statistics model behind "netcost dump", "show",
 * "watch", "diff", "plot" and "export": stages and counters keyed by name,
 * per-CPU histograms, totals across CPUs and interval deltas.
 */
#include <stdio.h>
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
	[NETCOST_STAGE_CTX_SWITCH_OTHER] = NC_ROLE_OTHER,
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

/* nc_cpu_free - free the histograms and NAPI instances of one CPU (or of the total) */
static void nc_cpu_free(struct nc_cpu *c)
{
	unsigned int i;

	for (i = 0; i < NC_MAX_STAGES; i++) {
		free(c->stage[i]);
		c->stage[i] = NULL;
	}
	for (i = 0; i < c->nr_napi; i++)
		free(c->napi[i].cpus);
	free(c->napi);
	c->napi = NULL;
	c->nr_napi = 0;
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
	m->napi_kept = 0;
	m->napi_dropped = 0;
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
	dst->napi_kept = 0;
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
		for (s = 0; s < c->nr_napi; s++) {
			struct nc_napi *n = nc_model_napi(dst, d, &c->napi[s]);

			if (n)
				nc_napi_add(n, &c->napi[s]);
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
 * nc_napi_cmp - the order of a NAPI list: a device's instances by its
 * name, then those of none (backlogs); then by id and ifindex (and a
 * backlog by its CPU).  0 only for the same instance: equal id, ifindex
 * and ifname (and CPU, for one with no device).
 */
int nc_napi_cmp(const struct nc_napi *a, const struct nc_napi *b)
{
	int r;

	if (a->has_ifname != b->has_ifname)
		return a->has_ifname ? -1 : 1;
	r = a->has_ifname ? strcmp(a->ifname, b->ifname) : 0;
	if (r)
		return r;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->ifindex != b->ifindex)
		return a->ifindex < b->ifindex ? -1 : 1;
	if (!a->has_ifname && a->backlog_cpu != b->backlog_cpu)
		return a->backlog_cpu < b->backlog_cpu ? -1 : 1;
	return 0;
}

/* nc_napi_pos - where @key's instance is, or belongs, in @c's list; *@found: which */
static unsigned int nc_napi_pos(const struct nc_cpu *c, const struct nc_napi *key,
				bool *found)
{
	unsigned int lo = 0, hi = c->nr_napi;

	*found = false;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int r = nc_napi_cmp(&c->napi[mid], key);

		if (!r) {
			*found = true;
			return mid;
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* nc_cpu_find_napi - the entry of @key's instance in @c's list, or NULL */
struct nc_napi *nc_cpu_find_napi(const struct nc_cpu *c, const struct nc_napi *key)
{
	bool found;
	unsigned int i = nc_napi_pos(c, key, &found);

	return found ? &c->napi[i] : NULL;
}

/*
 * nc_napi_insert - the entry of @key's instance in @c's list, put in its
 * place with zero figures when new (the list grows by doubling)
 */
static struct nc_napi *nc_napi_insert(struct nc_cpu *c, const struct nc_napi *key)
{
	unsigned int i, n = c->nr_napi;
	struct nc_napi *e;
	bool found;

	i = nc_napi_pos(c, key, &found);
	if (found)
		return &c->napi[i];
	if (n >= 4 ? !(n & (n - 1)) : !n)	/* full at 4, 8, 16, ... */
		c->napi = nc_xrealloc(c->napi, (n ? 2 * n : 4) * sizeof(*c->napi));
	memmove(&c->napi[i + 1], &c->napi[i], (n - i) * sizeof(*c->napi));
	c->nr_napi++;
	e = &c->napi[i];
	memset(e, 0, sizeof(*e));
	e->id = key->id;
	e->ifindex = key->ifindex;
	e->has_ifname = key->has_ifname;
	e->backlog_cpu = key->backlog_cpu;
	if (key->has_ifname)
		snprintf(e->ifname, sizeof(e->ifname), "%s", key->ifname);
	return e;
}

/*
 * nc_model_napi - the entry of @key's instance (its id, ifindex and
 * ifname) on CPU @c of @m, added with zero figures when new.  NULL when
 * @m holds NC_MAX_NAPI entries already: the instance then counts in
 * m->napi_dropped.
 */
struct nc_napi *nc_model_napi(struct nc_model *m, struct nc_cpu *c, const struct nc_napi *key)
{
	struct nc_napi *n = nc_cpu_find_napi(c, key);

	if (n)
		return n;
	if (m->napi_kept >= NC_MAX_NAPI) {
		m->napi_dropped++;
		return NULL;
	}
	m->napi_kept++;
	return nc_napi_insert(c, key);
}

/* nc_sat_add - @a + @b, UINT64_MAX when that does not fit */
static uint64_t nc_sat_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/*
 * nc_napi_add - add @src's polls to @dst, the same instance (a CPU's
 * second nest of it, or a CPU into the total).  The figures add up,
 * saturating, as a file may hold anything.  irq and thread_pid are those
 * reported; where two differ, that of the one with more polls (the first
 * of equals) stays.
 */
void nc_napi_add(struct nc_napi *dst, const struct nc_napi *src)
{
	dst->polls = nc_sat_add(dst->polls, src->polls);
	dst->packets = nc_sat_add(dst->packets, src->packets);
	dst->timed_polls = nc_sat_add(dst->timed_polls, src->timed_polls);
	dst->cycles = nc_sat_add(dst->cycles, src->cycles);
	if (src->has_irq && (!dst->has_irq || src->polls > dst->irq_polls)) {
		dst->has_irq = true;
		dst->irq = src->irq;
		dst->irq_polls = src->polls;
	}
	if (src->has_thread_pid && (!dst->has_thread_pid || src->polls > dst->thread_polls)) {
		dst->has_thread_pid = true;
		dst->thread_pid = src->thread_pid;
		dst->thread_polls = src->polls;
	}
}

/* nc_napi_add_cpu - @cpu is one of the CPUs @n (a total's entry) polled on */
static void nc_napi_add_cpu(struct nc_napi *n, uint32_t cpu)
{
	if (n->nr_cpus && n->cpus[n->nr_cpus - 1] == cpu)
		return;
	n->cpus = nc_xrealloc(n->cpus, (n->nr_cpus + 1) * sizeof(*n->cpus));
	n->cpus[n->nr_cpus++] = cpu;
}

/*
 * nc_model_sum_total - recompute m->total from the CPUs in @cpuset (all
 * CPUs when NULL).  A stage is in the total when any selected CPU reported
 * it; a NAPI instance is added up over the CPUs it polled on.  Returns the
 * number of CPUs summed.
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
		for (s = 0; s < c->nr_napi; s++) {
			struct nc_napi key = c->napi[s], *e;

			/* a CPU's backlog is its own: never added to another's */
			if (!key.has_ifname)
				key.backlog_cpu = c->cpu;
			e = nc_napi_insert(t, &key);
			nc_napi_add(e, &c->napi[s]);
			nc_napi_add_cpu(e, c->cpu);
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

/* nc_u64_delta - @cur less @prev, or @cur itself when it went down (a reset) */
static uint64_t nc_u64_delta(uint64_t cur, uint64_t prev)
{
	return prev <= cur ? cur - prev : cur;
}

/*
 * nc_napi_delta - NAPI entry @cur's polls since @prev (NULL: none then),
 * with its IRQ and thread as they are now
 */
static struct nc_napi nc_napi_delta(const struct nc_napi *cur, const struct nc_napi *prev)
{
	static const struct nc_napi none;
	struct nc_napi d = *cur;

	if (!prev)
		prev = &none;
	d.polls = nc_u64_delta(cur->polls, prev->polls);
	d.packets = nc_u64_delta(cur->packets, prev->packets);
	d.timed_polls = nc_u64_delta(cur->timed_polls, prev->timed_polls);
	d.cycles = nc_u64_delta(cur->cycles, prev->cycles);
	d.nr_cpus = 0;
	d.cpus = NULL;
	return d;
}

/*
 * nc_model_delta - what happened between @prev and @cur ("netcost watch").
 * When the module was reset in between (another generation), @cur itself
 * is the delta.  @d must be freshly inited; it gets @cur's names and info
 * with the interval starting at @prev's answer, and the NAPI instances
 * that polled in the interval.
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
		/* the NAPI instances that polled in the interval */
		for (s = 0; s < c->nr_napi; s++) {
			struct nc_napi dn, *e;

			dn = nc_napi_delta(&c->napi[s], p ? nc_cpu_find_napi(p, &c->napi[s]) : NULL);
			if (!dn.polls)
				continue;
			e = nc_model_napi(d, dc, &dn);
			if (e)
				nc_napi_add(e, &dn);
		}
	}
	d->napi_dropped += cur->napi_dropped;
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
