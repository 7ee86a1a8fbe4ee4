// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - per-CPU log-linear histograms and counters: record, copy, reset.
 *
 * Writers are the probes of one CPU, which may nest (a hardirq probe can
 * interrupt a softirq probe).  Every update is a single this_cpu
 * operation, so nesting never loses an increment; a stage's event count
 * is the sum of its buckets, so count and buckets always agree.  Each
 * histogram carries one sequence number per nesting level, odd while an
 * update of that level runs: an update that interrupts another on the
 * same CPU (hardirq over softirq over task, NMI over all) takes the next
 * level (nc_cpu.rec_depth, one increment where working out the context
 * from preempt_count() took a dozen instructions), so the outer one's
 * sequence stays odd until the outer update is done, and the netlink
 * reader on another CPU takes a consistent copy without a lock when all
 * four were even and unchanged (the retry loop of nc_hist_copy()).  A
 * bucket is a u32 that counts on in wraps[] when it goes round; the copy
 * makes whole u64s of the two.
 *
 * The bottom of the module, with clock and tasks: it calls nothing above
 * it.  probe_hits comes from the hook table through nc_stats_set_hits_fn()
 * (main.c registers it); the NAPI tables (napi.c) are copied by netlink.c
 * beside nc_stats_copy(), and cleared by the @clear_cpu netlink.c hands
 * nc_stats_reset().  No netlink here.
 */
#include <linux/cpu.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "netcost.h"
#include "hist.h"
#include "netcost_hist.h"

struct nc_hist __percpu *nc_hists[__NETCOST_STAGE_MAX];
struct nc_counters __percpu *nc_ctrs;
/*
 * Bumped before and after every reset: even while the statistics are
 * whole, odd while a reset runs, so that a dump that sees an odd one is
 * flagged interrupted.  Never 0: netlink reads a dump sequence of 0 as
 * "not set".
 */
atomic_t nc_generation = ATOMIC_INIT(2);
u64 nc_reset_ns;		/* ns, ktime_get_ns() */
u64 nc_reset_cycles;		/* cycles */

/*
 * What each stage's figures are (INFO and STATS send it): only top-level
 * stages add up to a packet's total; nested ones run inside them.
 */
const u8 nc_stage_role[__NETCOST_STAGE_MAX] = {
	[NETCOST_STAGE_HARDIRQ]		= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_HARDIRQ_OTHER]	= NETCOST_ROLE_OTHER,
	[NETCOST_STAGE_SOFTIRQ_NET_RX]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_SOFTIRQ_NET_TX]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_SOFTIRQ_OTHER]	= NETCOST_ROLE_OTHER,
	[NETCOST_STAGE_IRQ_THREAD]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_NAPI_POLL]	= NETCOST_ROLE_NESTED,
	[NETCOST_STAGE_NAPI_POLL_WORK]	= NETCOST_ROLE_COUNT,
	[NETCOST_STAGE_RX_SKB]		= NETCOST_ROLE_NESTED,
	[NETCOST_STAGE_TX_XMIT]		= NETCOST_ROLE_NESTED,
	[NETCOST_STAGE_CTX_SWITCH]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_WAKEUP_LATENCY]	= NETCOST_ROLE_WAITING,
	[NETCOST_STAGE_SYSCALL_RX]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_SYSCALL_TX]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_HARDIRQ_VECTORS]	= NETCOST_ROLE_OTHER,
	[NETCOST_STAGE_RUNQ_WAIT_LOAD]	= NETCOST_ROLE_WAITING,
	[NETCOST_STAGE_RUNQ_WAIT_IRQ_THREAD] = NETCOST_ROLE_WAITING,
	[NETCOST_STAGE_RUNQ_WAIT_KSOFTIRQD] = NETCOST_ROLE_WAITING,
	[NETCOST_STAGE_BLOCKED_LOAD]	= NETCOST_ROLE_WAITING,
	[NETCOST_STAGE_NAPI_THREAD]	= NETCOST_ROLE_TOP,
	[NETCOST_STAGE_BUSY_POLL]	= NETCOST_ROLE_NESTED,
	[NETCOST_STAGE_CTX_SWITCH_OTHER] = NETCOST_ROLE_OTHER,
};

/*
 * test_bucket_bias (test only): from the next reset on, every bucket
 * starts this many events short of going round (and the copy takes the
 * start off again), so that a short load makes the busy buckets wrap:
 * the lab checks the counts against /proc through that.  0: off.
 */
#ifdef NC_TEST_BUILD
static unsigned int nc_bucket_bias;
module_param_named(test_bucket_bias, nc_bucket_bias, uint, 0600);
MODULE_PARM_DESC(test_bucket_bias, "test only: buckets start N events before they wrap, from the next reset (0: off)");
#define nc_bucket_bias_get() READ_ONCE(nc_bucket_bias)
#else
#define nc_bucket_bias_get() 0U
#endif

/*
 * nc_rec_update - fold the configuration (recording, CPU mask, groups)
 * into each CPU's one word, nc_cpu.rec, which is all a probe reads to
 * know whether it records: NC_REC_ON plus the groups while this CPU
 * records, else 0.  Process context, after any change.
 */
void nc_rec_update(void)
{
	bool on = READ_ONCE(nc_cfg.recording);
	u32 groups = READ_ONCE(nc_cfg.groups);
	int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu(nc_cpu, cpu).rec,
			   on && cpumask_test_cpu(cpu, nc_cfg.cpus) ?
			   groups | NC_REC_ON : 0);
}

/*
 * nc_hist_clear - empty one histogram of this CPU, sequences kept.
 * Interrupts are off meanwhile: a writer nested in the clear would leave
 * its sum without its bucket (or the reverse).
 */
void nc_hist_clear(struct nc_hist *h)
{
	unsigned long flags;
	u32 i;

	local_irq_save(flags);
	h->sum = 0;
	h->min_inv = 0;
	h->max = 0;
	if (likely(!h->base)) {
		memset(h->buckets, 0, sizeof(h->buckets));
	} else {
		for (i = 0; i < NETCOST_HIST_BUCKETS; i++)
			h->buckets[i] = h->base;
	}
	memset(h->wraps, 0, sizeof(h->wraps));
	local_irq_restore(flags);
}

/*
 * nc_hist_reset - clear @h for a reset, its sequence of @level odd
 * meanwhile, so that no reader takes a half-cleared copy; bumps its gen,
 * which tells a writer the reset interrupted to drop its event
 */
static void nc_hist_reset(struct nc_hist *h, u32 level, u32 base)
{
	WRITE_ONCE(h->seq[level], h->seq[level] + 1);
	smp_wmb();	/* seq odd before the data moves */
	h->base = base;
	nc_hist_clear(h);
	WRITE_ONCE(h->gen, h->gen + 1);
	smp_wmb();	/* data cleared before seq turns even */
	WRITE_ONCE(h->seq[level], h->seq[level] + 1);
}

/*
 * nc_hist_copy - take a consistent copy of one histogram of another CPU
 * into @raw: every level's sequence even, and unchanged across the copy.
 * Retries while a writer runs, then makes whole counts of it in @dst.
 * Returns false when it gave up (a writer kept one sequence busy through
 * every try: under emulation a vCPU can stop in the middle of an update
 * for a long time); the caller must then flag what it sends as
 * interrupted, never pass the copy off as consistent.
 */
static bool nc_hist_copy(const struct nc_hist *src, struct nc_hist *raw,
			 struct nc_hist_snap *dst)
{
	u32 s1[NC_LEVELS], s2[NC_LEVELS], b, lo, hi;
	int tries = 64, i;
	bool busy;

	do {
		busy = false;
		for (i = 0; i < NC_LEVELS; i++)
			s1[i] = READ_ONCE(src->seq[i]);
		smp_rmb();	/* seqs read before the data (pairs with nc_record's wmb) */
		/*
		 * The header, then only the buckets between min's and max's:
		 * no event lies outside them, and most of a histogram's 1.6 kB
		 * is never touched (a full copy was most of a dump's time).
		 * A torn min or max still indexes inside the arrays, and the
		 * sequences below reject the copy.
		 */
		memcpy(raw, src, offsetof(struct nc_hist, buckets));
		if (raw->min_inv) {
			lo = netcost_hist_index(~raw->min_inv);
			hi = netcost_hist_index(raw->max);
			if (lo <= hi) {
				memcpy(&raw->buckets[lo], &src->buckets[lo],
				       (hi - lo + 1) * sizeof(raw->buckets[0]));
				memcpy(&raw->wraps[lo], &src->wraps[lo], hi - lo + 1);
			}
		}
		smp_rmb();	/* data read before the seqs again */
		for (i = 0; i < NC_LEVELS; i++) {
			s2[i] = READ_ONCE(src->seq[i]);
			busy |= s1[i] != s2[i] || (s1[i] & 1);
		}
		if (busy)
			cpu_relax();
	} while (busy && --tries);
	dst->sum = raw->sum;
	dst->min_inv = raw->min_inv;
	dst->max = raw->max;
	dst->count = 0;
	dst->first = NETCOST_HIST_BUCKETS;
	dst->last = 0;
	if (!raw->min_inv)	/* no event since the reset */
		return !busy;
	/*
	 * Every event lies in [min, max], so only their buckets' range can
	 * hold any: most of the 313 are never walked.
	 */
	lo = netcost_hist_index(~raw->min_inv);
	hi = netcost_hist_index(raw->max);
	for (b = lo; b <= hi; b++) {
		u64 v = ((u64)raw->wraps[b] << 32) + raw->buckets[b] - raw->base;

		dst->buckets[b] = v;
		if (!v)
			continue;
		dst->count += v;
		if (dst->first == NETCOST_HIST_BUCKETS)
			dst->first = b;
		dst->last = b;
	}
	return !busy;
}

/* every hook's hits on a CPU since load (nc_stats_set_hits_fn()), or NULL */
static u64 (*nc_hits_fn)(int cpu);

void nc_stats_set_hits_fn(u64 (*fn)(int cpu))
{
	WRITE_ONCE(nc_hits_fn, fn);
}

/* nc_hits - every hook's hits on @cpu since load (0: no hook table yet) */
static u64 nc_hits(int cpu)
{
	u64 (*fn)(int cpu) = READ_ONCE(nc_hits_fn);

	return fn ? fn(cpu) : 0;
}

/*
 * nc_stats_copy - copy one CPU's statistics for the netlink reader.
 * Returns false when a histogram's copy may be torn (nc_hist_copy()).
 */
bool nc_stats_copy(int cpu, struct nc_cpu_stats *dst)
{
	const struct nc_counters *src = per_cpu_ptr(nc_ctrs, cpu);
	u64 base, hits;
	bool ok = true;
	int i;

	for (i = 0; i < __NETCOST_STAGE_MAX; i++)
		ok &= nc_hist_copy(per_cpu_ptr(nc_hists[i], cpu), &dst->raw, &dst->hist[i]);
	for (i = 0; i < __NETCOST_CTR_MAX; i++)
		dst->c.counters[i] = READ_ONCE(src->counters[i]);
	/*
	 * every hook counts its hits: probe_hits is their growth since the
	 * reset.  The base first: a reset between the two reads then makes
	 * the figure too large (and the dump is flagged interrupted), never
	 * negative.
	 */
	base = READ_ONCE(src->hits_base);
	barrier();
	hits = nc_hits(cpu);
	dst->c.counters[NETCOST_CTR_PROBE_HITS] = hits > base ? hits - base : 0;
	dst->c.self_cycles = READ_ONCE(src->self_cycles);
	dst->c.self_samples = READ_ONCE(src->self_samples);
	return ok;
}

/*
 * nc_stats_reset_cpu - clear this CPU's statistics, from an IPI so that
 * no probe of this CPU runs halfway through an update meanwhile, except
 * a task-context probe the IPI interrupted: that one can leave one event
 * in sum/min/max without its bucket, never a bucket without its count.
 * @clear: nc_stats_reset()'s @clear_cpu, by reference.
 */
static void nc_stats_reset_cpu(void *clear)
{
	void (*clear_cpu)(int cpu) = *(void (**)(int cpu))clear;
	u32 base = 0U - nc_bucket_bias_get();	/* 0 when off */
	/* the IPI is a writer nested in whatever update it interrupted */
	u32 level = min_t(u32, this_cpu_inc_return(nc_cpu.rec_depth) - 1, NC_LEVELS - 1);
	int i;

	for (i = 0; i < __NETCOST_STAGE_MAX; i++)
		nc_hist_reset(this_cpu_ptr(nc_hists[i]), level, base);
	memset(this_cpu_ptr(nc_ctrs)->counters, 0, sizeof(nc_ctrs->counters));
	clear_cpu(smp_processor_id());
	this_cpu_write(nc_ctrs->hits_base, nc_hits(smp_processor_id()));
	this_cpu_dec(nc_cpu.rec_depth);
}

/*
 * nc_stats_reset - clear every CPU's statistics, and with each CPU's the
 * caller's, @clear_cpu(cpu) (process context).  The generation is odd
 * from before the first CPU is touched until after the last: a dump that
 * sees it odd, or changed, is flagged interrupted.
 */
void nc_stats_reset(void (*clear_cpu)(int cpu))
{
	u32 base = 0U - nc_bucket_bias_get();
	int cpu;

	atomic_inc(&nc_generation);
	smp_mb__after_atomic();	/* odd before any statistic moves */
	cpus_read_lock();
	on_each_cpu(nc_stats_reset_cpu, &clear_cpu, 1);
	/*
	 * offline CPUs run no probes: cleared from here, but as the online
	 * ones are (sequence odd meanwhile, never zeroed), since a reader may
	 * be copying them
	 */
	for_each_possible_cpu(cpu) {
		int i;

		if (cpu_online(cpu))
			continue;
		for (i = 0; i < __NETCOST_STAGE_MAX; i++)
			nc_hist_reset(per_cpu_ptr(nc_hists[i], cpu), 0, base);
		memset(per_cpu_ptr(nc_ctrs, cpu)->counters, 0, sizeof(nc_ctrs->counters));
		clear_cpu(cpu);
		per_cpu_ptr(nc_ctrs, cpu)->hits_base = nc_hits(cpu);
	}
	cpus_read_unlock();
	WRITE_ONCE(nc_reset_ns, ktime_get_ns());
	WRITE_ONCE(nc_reset_cycles, get_cycles());
	smp_mb__before_atomic();	/* the statistics cleared before it turns even */
	/* even again; past 2^32 resets it skips 0 */
	if (!atomic_inc_return(&nc_generation))
		atomic_add(2, &nc_generation);
}

/* nc_self_add - a sampled probe body that started at @t0 ends now */
void nc_self_add(u64 t0)
{
	u64 d = get_cycles() - t0;

	this_cpu_add(nc_ctrs->self_cycles, d);
	this_cpu_inc(nc_ctrs->self_samples);
	this_cpu_inc(nc_ctrs->self_hist[netcost_hist_index(d)]);
}

/*
 * nc_probe_cost - mean cycles of a sampled probe body over all CPUs,
 * the overhead netcost adds to every hook it fires.
 */
u32 nc_probe_cost(void)
{
	u64 cycles = 0, samples = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		cycles += READ_ONCE(per_cpu_ptr(nc_ctrs, cpu)->self_cycles);
		samples += READ_ONCE(per_cpu_ptr(nc_ctrs, cpu)->self_samples);
	}
	return samples ? (u32)div64_u64(cycles, samples) : 0;
}

/* nc_probe_cost_samples - probe bodies timed since load, all CPUs */
u64 nc_probe_cost_samples(void)
{
	u64 samples = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		samples += READ_ONCE(per_cpu_ptr(nc_ctrs, cpu)->self_samples);
	return samples;
}

/*
 * nc_probe_cost_pct - the @pct-th percentile of the sampled probe
 * bodies' cycles over all CPUs: the low bound of the bucket it falls in
 * (within 12.5%), 0 with no sample.  Process context (INFO).
 */
u32 nc_probe_cost_pct(unsigned int pct)
{
	u64 n = 0, want, acc = 0;
	unsigned int b;
	int cpu;

	for (b = 0; b < NETCOST_HIST_BUCKETS; b++)
		for_each_possible_cpu(cpu)
			n += READ_ONCE(per_cpu_ptr(nc_ctrs, cpu)->self_hist[b]);
	if (!n)
		return 0;
	want = div64_u64(n * pct + 99, 100);
	for (b = 0; b < NETCOST_HIST_BUCKETS; b++) {
		for_each_possible_cpu(cpu)
			acc += READ_ONCE(per_cpu_ptr(nc_ctrs, cpu)->self_hist[b]);
		if (acc >= want)
			return min_t(u64, netcost_hist_lo(b), U32_MAX);
	}
	return 0;
}

/* nc_stats_init - allocate the per-CPU statistics, zeroed */
int nc_stats_init(void)
{
	int i;

	nc_ctrs = alloc_percpu(struct nc_counters);
	if (!nc_ctrs)
		goto err_free;
	for (i = 0; i < __NETCOST_STAGE_MAX; i++) {
		nc_hists[i] = alloc_percpu(struct nc_hist);
		if (!nc_hists[i])
			goto err_free;
	}
	nc_reset_ns = ktime_get_ns();
	nc_reset_cycles = get_cycles();
	return 0;

err_free:
	nc_stats_exit();
	return -ENOMEM;
}

/* nc_stats_exit - free them; every probe is gone by now */
void nc_stats_exit(void)
{
	int i;

	for (i = 0; i < __NETCOST_STAGE_MAX; i++) {
		free_percpu(nc_hists[i]);
		nc_hists[i] = NULL;
	}
	free_percpu(nc_ctrs);
	nc_ctrs = NULL;
}
