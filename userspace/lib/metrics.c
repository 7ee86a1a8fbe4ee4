// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - every figure netcost derives from the model, in one place:
 * the interval and its rates, the packets a stage is divided by, cost per
 * packet (rx, or tx for the transmit stages), the stages a packet's total
 * sums (role top) and the irq_thread rule.  The renderers (report, diff,
 * plot, export) print these and compute none of their own.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* nc_info_since_reset_s - the seconds from the last reset to @info's reply; 0: unknown */
double nc_info_since_reset_s(const struct nc_info *info)
{
	if (info->now_ns <= info->reset_ns)
		return 0;
	return (double)(info->now_ns - info->reset_ns) / 1e9;
}

/* nc_interval_s - the seconds the statistics cover (now - reset); 0: unknown */
double nc_interval_s(const struct nc_model *m)
{
	return nc_info_since_reset_s(&m->info);
}

/* nc_per_s - @count per second of the interval; -1 when it has no length */
double nc_per_s(const struct nc_model *m, uint64_t count)
{
	double s = nc_interval_s(m);

	return s > 0 ? (double)count / s : -1;
}

/*
 * nc_rx_packets - rx_packets of @c (a CPU or the total); the total of a
 * model narrowed to some CPUs (--cpu) is still all CPUs' packets
 */
uint64_t nc_rx_packets(const struct nc_model *m, const struct nc_cpu *c)
{
	if (c == &m->total && m->all_set)
		return m->all_rx;
	return nc_cpu_counter(m, c, "rx_packets");
}

/* nc_tx_packets - tx_packets of @c, as nc_rx_packets() */
uint64_t nc_tx_packets(const struct nc_model *m, const struct nc_cpu *c)
{
	if (c == &m->total && m->all_set)
		return m->all_tx;
	return nc_cpu_counter(m, c, "tx_packets");
}

/*
 * nc_packet_basis - what "per packet" divides by in @m.  A box under test
 * that only receives (it sent fewer than a tenth of the packets it
 * received) has every figure per received packet; one that only sends
 * (the reverse) per sent packet: a sender's stages divided by the handful
 * of packets it received would be meaningless.  A box doing both (sender
 * and receiver in one guest) divides the transmit stages (the model's
 * per_tx flag: tx_xmit, syscall_tx, softirq_net_tx) by tx_packets and
 * every other figure by rx_packets.
 */
enum nc_basis nc_packet_basis(const struct nc_model *m)
{
	uint64_t rx = nc_rx_packets(m, &m->total), tx = nc_tx_packets(m, &m->total);

	if (m->basis_forced)
		return (enum nc_basis)(m->basis_forced - 1);

	if (tx > 10 * rx)
		return NC_BASIS_TX;
	if (rx > 10 * tx)
		return NC_BASIS_RX;
	return NC_BASIS_MIXED;
}

/*
 * nc_model_force_basis - every figure of @m per rx (NC_BASIS_RX) or per tx
 * packet (NC_BASIS_TX), as "diff --basis" asks; NC_BASIS_MIXED: back to
 * what nc_packet_basis() finds
 */
void nc_model_force_basis(struct nc_model *m, enum nc_basis b)
{
	m->basis_forced = b == NC_BASIS_MIXED ? 0 : 1 + (int)b;
}

/* nc_basis_name - "rx", "tx" or "mixed": the JSON value of the basis */
const char *nc_basis_name(enum nc_basis b)
{
	return b == NC_BASIS_TX ? "tx" : b == NC_BASIS_RX ? "rx" : "mixed";
}

/* nc_basis_desc - the basis in words, for the text outputs */
const char *nc_basis_desc(enum nc_basis b)
{
	switch (b) {
	case NC_BASIS_TX:
		return "per sent packet (tx_packets of all CPUs: this box sends)";
	case NC_BASIS_RX:
		return "per received packet (rx_packets of all CPUs: this box receives)";
	default:
		return "per rx packet (of all CPUs); tx_xmit, syscall_tx, softirq_net_tx per tx packet";
	}
}

/*
 * nc_basis_packets - the packets of @m that the figures without a
 * direction of their own (counters, NET_RX placement, the packet rate)
 * are divided by: tx_packets on a sending box, rx_packets otherwise
 */
uint64_t nc_basis_packets(const struct nc_model *m)
{
	return nc_packet_basis(m) == NC_BASIS_TX ? nc_tx_packets(m, &m->total) :
						   nc_rx_packets(m, &m->total);
}

/* nc_stage_in_total - whether stage @s is summed into a packet's total */
bool nc_stage_in_total(const struct nc_model *m, unsigned int s)
{
	return m->stage[s].role == NC_ROLE_TOP;
}

/*
 * nc_stage_is_kernel_work - whether stage @s is kernel CPU work of its own,
 * outside every process's utime + stime: a top-level or other-work stage
 * in cycles (hard and soft interrupts, IRQ threads, context switches),
 * but not the syscalls, which run in (and are charged to) the process.
 * Nested stages run inside these; waiting time is not CPU time.  The
 * accounting closure of "netcost run" holds these against the soak.
 */
bool nc_stage_is_kernel_work(const struct nc_model *m, unsigned int s)
{
	const struct nc_stage_desc *d = &m->stage[s];

	return d->unit == NETCOST_UNIT_CYCLES &&
	       (d->role == NC_ROLE_TOP || d->role == NC_ROLE_OTHER) &&
	       strncmp(d->name, "syscall_", 8);
}

/* nc_stage_is_cpu_time - whether stage @s is CPU time (not waiting, not a count) */
bool nc_stage_is_cpu_time(const struct nc_model *m, unsigned int s)
{
	return m->stage[s].unit == NETCOST_UNIT_CYCLES && m->stage[s].role != NC_ROLE_LATENCY &&
	       m->stage[s].role != NC_ROLE_COUNT;
}

/*
 * nc_cpu_packets - the packets that @stage's cost is divided by (see
 * nc_packet_basis()): on a box doing both directions, tx_packets for the
 * transmit stages (tx_xmit, syscall_tx, softirq_net_tx), rx_packets for
 * every other one.
 */
uint64_t nc_cpu_packets(const struct nc_model *m, const struct nc_cpu *c,
			unsigned int stage)
{
	bool tx;

	switch (nc_packet_basis(m)) {
	case NC_BASIS_TX:
		tx = true;
		break;
	case NC_BASIS_RX:
		tx = false;
		break;
	default:
		tx = m->stage[stage].per_tx;
	}
	return tx ? nc_tx_packets(m, c) : nc_rx_packets(m, c);
}

/*
 * nc_module_before - whether @m is of a netcost module before 0.@minor.0;
 * a snapshot without a version is taken as the current module's
 */
static bool nc_module_before(const struct nc_model *m, int minor)
{
	int maj, min;

	if (sscanf(m->info.version, "%d.%d", &maj, &min) != 2)
		return false;
	return maj == 0 && min < minor;
}

/*
 * nc_irq_thread_holds_net_rx - whether @m's irq_thread runs hold the NET_RX
 * softirq they run at local_bh_enable(): until netcost 0.6.0 they did
 * (softirq_net_rx counted it too); since, a run is net of the softirqs
 * inside, as a NAPI thread's.  A snapshot without a version is taken as
 * the current module's.
 */
bool nc_irq_thread_holds_net_rx(const struct nc_model *m)
{
	return nc_module_before(m, 6);
}

/*
 * nc_ctx_switch_holds_all - whether @m's ctx_switch holds every context
 * switch on the CPU: until netcost 0.10.0 it did; since, only the packet
 * path's (into or out of an IRQ or NAPI thread, ksoftirqd, a load task),
 * and ctx_switch_other the rest.  A snapshot without a version is taken
 * as the current module's.
 */
bool nc_ctx_switch_holds_all(const struct nc_model *m)
{
	return nc_module_before(m, 10);
}

/*
 * nc_frames_hold_switch_work - whether @m's frames hold netcost's own
 * work at a context switch: until netcost 0.12.0 a preempted frame
 * paused after the sched_switch probe's task look-ups and waiting-stage
 * work and resumed before the finish_task_switch() hook's bookkeeping
 * (about 4-5% of syscall_tx on RT, where the sender is preempted about
 * twice a call); since, it pauses at the probe's first act and resumes at
 * the hook's last.  A snapshot without a version is taken as the current
 * module's.
 */
bool nc_frames_hold_switch_work(const struct nc_model *m)
{
	return nc_module_before(m, 12);
}

/*
 * nc_syscalls_any_socket - whether @m's syscall_rx and syscall_tx count
 * calls on any socket: until netcost 0.14.0 they did (unix and netlink
 * sockets too: a box's journald and dbus, netcost's own commands, and
 * those tasks were load tasks); since, calls on inet sockets only.  A
 * snapshot without a version is taken as the current module's.
 */
bool nc_syscalls_any_socket(const struct nc_model *m)
{
	return nc_module_before(m, 14);
}

/*
 * nc_model_sample - the N of @m's config sample: rx_skb and tx_xmit timed
 * on 1 packet in N (0.15.0; 1 for older modules and files, which time
 * every packet)
 */
unsigned int nc_model_sample(const struct nc_model *m)
{
	return m->info.config.sample > 1 ? m->info.config.sample : 1;
}

/* nc_untimed_counter - @m's counter <stage>_untimed of stage @s, or -1 */
static int nc_untimed_counter(const struct nc_model *m, unsigned int s)
{
	char name[NC_NAME_LEN + 16];

	snprintf(name, sizeof(name), "%s_untimed", m->stage[s].name);
	return nc_model_find_counter(m, name);
}

/*
 * nc_stage_untimed - the events of stage @s on @c that sampling left
 * untimed (CONFIG sample N, 0.15.0: rx_skb and tx_xmit, counted in
 * <stage>_untimed); 0 for every other stage and older snapshots
 */
uint64_t nc_stage_untimed(const struct nc_model *m, const struct nc_cpu *c, unsigned int s)
{
	int i = nc_untimed_counter(m, s);

	return i >= 0 ? c->counter[i] : 0;
}

/*
 * nc_stage_sampled - whether stage @s of @m was timed on 1 packet in
 * config.sample (a stage with an <stage>_untimed counter, in a model
 * whose module sampled)
 */
bool nc_stage_sampled(const struct nc_model *m, unsigned int s)
{
	return nc_model_sample(m) > 1 && nc_untimed_counter(m, s) >= 0;
}

/* nc_stage_events - stage @s's events on @c: the timed ones and the untimed */
uint64_t nc_stage_events(const struct nc_model *m, const struct nc_cpu *c, unsigned int s)
{
	return (c->stage[s] ? c->stage[s]->count : 0) + nc_stage_untimed(m, c, s);
}

/*
 * nc_stage_sum - stage @s's sum on @c, for every figure that adds events
 * up (per packet, CPU share, totals): a sampled stage's timed events
 * stand for all of its events, their sum scaled by events / timed
 * events (the mean stays the timed events' mean).  The histogram itself
 * keeps the timed events only.
 */
uint64_t nc_stage_sum(const struct nc_model *m, const struct nc_cpu *c, unsigned int s)
{
	const struct nc_hist *h = c->stage[s];
	uint64_t untimed;

	if (!h)
		return 0;
	untimed = nc_stage_untimed(m, c, s);
	if (!untimed || !h->count)
		return h->sum;
	return (uint64_t)((double)h->sum * (double)(h->count + untimed) / (double)h->count + 0.5);
}

/*
 * nc_stage_own_cycles - the cycles of @stage on @c that are its own, for
 * totals.  Every stage is net of what nests in it, but a threaded NIC
 * handler's run (irq_thread) of a module before 0.6.0, which held the
 * NET_RX softirq it ran at local_bh_enable(): softirq_net_rx counts it
 * too (net_rx_in_irq_thread_cycles says how much), so that part is taken
 * off here and a packet's total counts it once.
 */
uint64_t nc_stage_own_cycles(const struct nc_model *m, const struct nc_cpu *c,
			     unsigned int stage)
{
	uint64_t sum, nested;

	if (!c->stage[stage])
		return 0;
	sum = nc_stage_sum(m, c, stage);
	if (strcmp(m->stage[stage].name, "irq_thread") || !nc_irq_thread_holds_net_rx(m))
		return sum;
	/* irq_thread minus net_rx_in_irq_thread_cycles */
	nested = nc_cpu_counter(m, c, "net_rx_in_irq_thread_cycles");
	return sum > nested ? sum - nested : 0;
}

/* nc_model_interval_cycles - get_cycles() elapsed over the interval */
uint64_t nc_model_interval_cycles(const struct nc_model *m)
{
	if (m->info.now_cycles <= m->info.reset_cycles)
		return 0;
	return m->info.now_cycles - m->info.reset_cycles;
}

/*
 * nc_stage_per_packet - stage @s's units on @c per packet (rx_packets, or
 * tx_packets for the transmit stages) of all CPUs: a packet counted on one
 * CPU often costs cycles on another, and so the CPUs' shares add up to the
 * total.  -1 with no packets.
 */
double nc_stage_per_packet(const struct nc_model *m, const struct nc_cpu *c,
			   unsigned int s)
{
	uint64_t pkts = nc_cpu_packets(m, &m->total, s);

	if (!pkts || !c->stage[s])
		return -1;
	return (double)nc_stage_sum(m, c, s) / (double)pkts;
}

/*
 * nc_stage_own_per_packet - the same with the stage's own cycles only
 * (nc_stage_own_cycles()): what it adds to a packet's total.
 */
double nc_stage_own_per_packet(const struct nc_model *m, const struct nc_cpu *c,
			       unsigned int s)
{
	uint64_t pkts = nc_cpu_packets(m, &m->total, s);

	if (!pkts || !c->stage[s])
		return -1;
	return (double)nc_stage_own_cycles(m, c, s) / (double)pkts;
}

/*
 * nc_top_per_packet - the cycles a packet costs on @c: the sum of the
 * top-level stages' own cycles, since the nested ones are inside them.
 * -1 with no packets.
 */
double nc_top_per_packet(const struct nc_model *m, const struct nc_cpu *c)
{
	double total = 0;
	bool any = false;
	unsigned int s;

	for (s = 0; s < m->nr_stages; s++) {
		double v;

		if (!nc_stage_in_total(m, s) || !c->stage[s])
			continue;
		v = nc_stage_own_per_packet(m, c, s);
		if (v < 0)
			continue;
		total += v;
		any = true;
	}
	return any ? total : -1;
}


/*
 * nc_recorded_cpus - how many of @m's CPUs the module records (its config
 * cpumask): the dump lists every possible CPU, but only these can spend
 * cycles on recorded stages.  All of them when the mask says nothing.
 */
unsigned int nc_recorded_cpus(const struct nc_model *m)
{
	bool *set = nc_xcalloc(NC_MAX_CPUS, sizeof(*set));
	unsigned int i, n = 0;

	if (!nc_parse_cpulist(m->info.config.cpus, set, NC_MAX_CPUS))
		for (i = 0; i < m->nr_cpus; i++)
			n += set[m->cpus[i].cpu];
	free(set);
	return n ? n : m->nr_cpus;
}

/*
 * nc_recorded_cpulist - the CPUs @m records statistics of, as a cpulist
 * ("0-3,8") into @buf: those of the module's cpumask that the snapshot
 * lists (all it lists when the mask says nothing).  Returns how many.
 */
unsigned int nc_recorded_cpulist(const struct nc_model *m, char *buf, size_t len)
{
	bool *set = nc_xcalloc(NC_MAX_CPUS, sizeof(*set));
	bool *rec = nc_xcalloc(NC_MAX_CPUS, sizeof(*rec));
	bool mask = !nc_parse_cpulist(m->info.config.cpus, set, NC_MAX_CPUS);
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_cpus; i++)
		if (!mask || set[m->cpus[i].cpu]) {
			rec[m->cpus[i].cpu] = true;
			n++;
		}
	if (!n)		/* a mask that names none of them: all */
		for (i = 0; i < m->nr_cpus; i++, n++)
			rec[m->cpus[i].cpu] = true;
	nc_format_cpulist(rec, NC_MAX_CPUS, buf, len);
	free(set);
	free(rec);
	return n;
}

/*
 * nc_cpu_time_pct - @cycles as % of the CPU time recorded: @nr_cpus CPUs
 * times the interval.  -1 when the interval has no length.
 */
double nc_cpu_time_pct(const struct nc_model *m, uint64_t cycles, unsigned int nr_cpus)
{
	uint64_t span = nc_model_interval_cycles(m) * nr_cpus;

	return span ? 100.0 * (double)cycles / (double)span : -1;
}

/*
 * nc_stage_events_per_packet - stage @s's events on @c per packet (of all
 * CPUs, rx or tx as nc_cpu_packets() says).  -1 with no packets.
 */
double nc_stage_events_per_packet(const struct nc_model *m, const struct nc_cpu *c,
				  unsigned int s)
{
	uint64_t pkts = nc_cpu_packets(m, &m->total, s);

	if (!pkts)
		return -1;
	return (double)nc_stage_events(m, c, s) / (double)pkts;
}

/*
 * nc_stage_cpu_pct - stage @s's cycles on @c as % of the CPU time of
 * @nr_cpus CPUs over the interval; -1 for what is not CPU time (waiting,
 * counts) or without an interval
 */
double nc_stage_cpu_pct(const struct nc_model *m, const struct nc_cpu *c, unsigned int s,
			unsigned int nr_cpus)
{
	if (m->stage[s].unit != NETCOST_UNIT_CYCLES || m->stage[s].role == NC_ROLE_LATENCY)
		return -1;
	return nc_cpu_time_pct(m, nc_stage_sum(m, c, s), nr_cpus);
}

/* nc_top_cycles - the own cycles of @c's top-level stages (a packet's total) */
uint64_t nc_top_cycles(const struct nc_model *m, const struct nc_cpu *c)
{
	uint64_t sum = 0;
	unsigned int s;

	for (s = 0; s < m->nr_stages; s++)
		if (nc_stage_in_total(m, s) && c->stage[s])
			sum += nc_stage_own_cycles(m, c, s);
	return sum;
}

/*
 * nc_top_stages - the top-level stages of @c that cost something per
 * packet, most costly first, at most @max of them into @out; returns how
 * many
 */
unsigned int nc_top_stages(const struct nc_model *m, const struct nc_cpu *c,
			   unsigned int *out, unsigned int max)
{
	unsigned int s, i, n = 0, top[NC_MAX_STAGES] = { 0 };

	for (s = 0; s < m->nr_stages; s++) {
		double x = nc_stage_own_per_packet(m, c, s);

		if (!nc_stage_in_total(m, s) || !c->stage[s] || x <= 0)
			continue;
		for (i = n; i > 0 && nc_stage_own_per_packet(m, c, top[i - 1]) < x; i--)
			top[i] = top[i - 1];
		top[i] = s;
		n++;
	}
	if (n > max)
		n = max;
	memcpy(out, top, n * sizeof(*out));
	return n;
}

/*
 * nc_stage_per_packet_named - the cost per packet of the stage @name in
 * @m's total, as diff sets two snapshots side by side: own cycles for a
 * top-level stage (so that the rows add up to the total); 0 when @m lacks
 * the stage but has packets; -1 with no packets.  @per_tx: divide by tx
 * packets (the stage's own flag when @m has it).
 */
double nc_stage_per_packet_named(const struct nc_model *m, const char *name, bool per_tx,
				 bool own)
{
	int s = nc_model_find_stage(m, name);
	uint64_t pkts, sum;

	if (s >= 0)
		pkts = nc_cpu_packets(m, &m->total, (unsigned int)s);
	else if (nc_packet_basis(m) != NC_BASIS_MIXED)
		pkts = nc_basis_packets(m);
	else
		pkts = nc_cpu_counter(m, &m->total, per_tx ? "tx_packets" : "rx_packets");
	if (!pkts)
		return -1;
	if (s < 0 || !m->total.stage[s])
		return 0;
	sum = own ? nc_stage_own_cycles(m, &m->total, (unsigned int)s) :
		    nc_stage_sum(m, &m->total, (unsigned int)s);
	return (double)sum / (double)pkts;
}

/*
 * nc_counter_per_packet - counter @k of @c per packet of all CPUs
 * (nc_basis_packets()); -1 with no packets
 */
double nc_counter_per_packet(const struct nc_model *m, const struct nc_cpu *c, unsigned int k)
{
	uint64_t rx = nc_basis_packets(m);

	if (!rx || !c->has_counter[k])
		return -1;
	return (double)c->counter[k] / (double)rx;
}

/* nc_napi_packets_per_poll - a NAPI instance's packets per poll; -1 with no polls */
double nc_napi_packets_per_poll(const struct nc_napi *n)
{
	return n->polls ? (double)n->packets / (double)n->polls : -1;
}

/*
 * nc_napi_cycles_per_poll - a NAPI instance's napi_poll cycles per timed
 * poll (busy polls are not timed); -1 with none timed
 */
double nc_napi_cycles_per_poll(const struct nc_napi *n)
{
	return n->timed_polls ? (double)n->cycles / (double)n->timed_polls : -1;
}

/*
 * nc_napi_cycles_per_packet - a NAPI instance's napi_poll cycles per
 * packet: only when every poll was timed (a busy poll's packets have no
 * cycles here, and its work is not that of the timed polls); -1 when one
 * was not, or with no packets
 */
double nc_napi_cycles_per_packet(const struct nc_napi *n)
{
	return n->packets && n->timed_polls == n->polls ?
	       (double)n->cycles / (double)n->packets : -1;
}

/*
 * nc_napi_device - the name of @n's device, as the tables and the export
 * give it: its own, "backlog" for a CPU's backlog (id 0, no device), "-"
 * for another instance without a device
 */
const char *nc_napi_device(const struct nc_napi *n)
{
	if (n->has_ifname)
		return n->ifname;
	return n->id ? "-" : "backlog";
}

/* nc_napi_side_figures - @s's figures per poll and per packet, from its sum */
static void nc_napi_side_figures(struct nc_napi_side *s)
{
	s->packets_per_poll = nc_napi_packets_per_poll(&s->sum);
	s->cycles_per_poll = nc_napi_cycles_per_poll(&s->sum);
	s->cycles_per_packet = nc_napi_cycles_per_packet(&s->sum);
}

/* nc_napi_dev_cmp - devices by name first, then the instances without one */
static int nc_napi_dev_cmp(const void *x, const void *y)
{
	const struct nc_napi_dev *a = x, *b = y;

	if (a->has_ifname != b->has_ifname)
		return a->has_ifname ? -1 : 1;
	return strcmp(a->device, b->device);
}

/* nc_napi_dev_row - the row of @n's device in @t, added when new; NULL: @t is full */
static struct nc_napi_dev *nc_napi_dev_row(struct nc_napi_devs *t, const struct nc_napi *n)
{
	const char *name = nc_napi_device(n);
	struct nc_napi_dev *d;
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (t->dev[i].has_ifname == n->has_ifname && !strcmp(t->dev[i].device, name))
			return &t->dev[i];
	if (t->nr == ARRAY_SIZE(t->dev))
		return NULL;
	d = &t->dev[t->nr++];
	snprintf(d->device, sizeof(d->device), "%s", name);
	d->has_ifname = n->has_ifname;
	return d;
}

/*
 * nc_napi_by_device - the NAPI instances that polled in the totals of @a
 * and @b (NULL: A alone), added up by device, as instance ids differ
 * between kernels and device names do not: a row per device either side
 * has, every CPU's backlog in one.  It keeps the first
 * NC_MAX_NAPI_DEVICES devices met (A's, then B's, each by name); the
 * instances of others count in t->left_out.
 */
void nc_napi_by_device(struct nc_napi_devs *t, const struct nc_model *a,
		       const struct nc_model *b)
{
	const struct nc_model *m[2] = { a, b };
	unsigned int i, k;

	memset(t, 0, sizeof(*t));
	for (k = 0; k < 2 && m[k]; k++)
		for (i = 0; i < m[k]->total.nr_napi; i++) {
			const struct nc_napi *n = &m[k]->total.napi[i];
			struct nc_napi_dev *d;

			if (!n->polls)
				continue;
			d = nc_napi_dev_row(t, n);
			if (!d) {
				t->left_out++;
				continue;
			}
			d->side[k].instances++;
			nc_napi_add(&d->side[k].sum, n);
		}
	for (i = 0; i < t->nr; i++)
		for (k = 0; k < 2; k++)
			nc_napi_side_figures(&t->dev[i].side[k]);
	qsort(t->dev, t->nr, sizeof(t->dev[0]), nc_napi_dev_cmp);
}

/* nc_napi_match_name - how a pair was made, as diff prints it; NULL: alone */
const char *nc_napi_match_name(enum nc_napi_match match)
{
	switch (match) {
	case NC_NAPI_BY_ID:
		return "napi_id";
	case NC_NAPI_BY_ORDER:
		return "order";
	case NC_NAPI_BY_CPU:
		return "cpu";
	default:
		return NULL;
	}
}

/*
 * nc_napi_group_cmp - the device of two instances in a total's order
 * (nc_napi_cmp()): by name, then the backlogs, then the other instances
 * without a device; 0: the same device, as nc_napi_device() names it
 */
static int nc_napi_group_cmp(const struct nc_napi *a, const struct nc_napi *b)
{
	if (a->has_ifname != b->has_ifname)
		return a->has_ifname ? -1 : 1;
	if (a->has_ifname)
		return strcmp(a->ifname, b->ifname);
	return (a->id != 0) - (b->id != 0);
}

/*
 * nc_napi_key_cmp - the order of a device's instances in a total, by
 * what pairs them: the napi_id, then for one without a device (a CPU's
 * own) its CPU.  Not the ifindex, which another boot may change.
 */
static int nc_napi_key_cmp(const struct nc_napi *a, const struct nc_napi *b)
{
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (!a->has_ifname && a->backlog_cpu != b->backlog_cpu)
		return a->backlog_cpu < b->backlog_cpu ? -1 : 1;
	return 0;
}

/*
 * nc_napi_pair_add - a row of @t: instance @x of A and @y of B (NULL:
 * none on that side), unless neither polled, with their figures and B/A
 */
static void nc_napi_pair_add(struct nc_napi_pairs *t, const struct nc_napi *x,
			     const struct nc_napi *y, enum nc_napi_match match)
{
	const struct nc_napi *n[2] = { x, y };
	struct nc_napi_pair *p;
	unsigned int k;

	if ((!x || !x->polls) && (!y || !y->polls))
		return;
	if (t->nr == ARRAY_SIZE(t->pair)) {
		t->left_out++;
		return;
	}
	p = &t->pair[t->nr++];
	snprintf(p->device, sizeof(p->device), "%s", nc_napi_device(x ? x : y));
	p->match = x && y ? match : NC_NAPI_ALONE;
	for (k = 0; k < 2; k++) {
		if (n[k]) {
			p->side[k].instances = 1;
			p->side[k].sum = *n[k];
			p->side[k].sum.nr_cpus = 0;	/* the model's list stays the model's */
			p->side[k].sum.cpus = NULL;
		}
		nc_napi_side_figures(&p->side[k]);
	}
	p->ratio_cycles_per_poll = nc_ratio(p->side[1].cycles_per_poll,
					    p->side[0].cycles_per_poll);
	p->ratio_cycles_per_packet = nc_ratio(p->side[1].cycles_per_packet,
					      p->side[0].cycles_per_packet);
}

/*
 * nc_napi_merge - A's instances @a[0..@na) and B's @b[0..@nb) of one
 * device, each in a total's order, paired where their keys
 * (nc_napi_key_cmp()) are equal, the others alone, in key order
 */
static void nc_napi_merge(struct nc_napi_pairs *t, const struct nc_napi *a, unsigned int na,
			  const struct nc_napi *b, unsigned int nb, enum nc_napi_match match)
{
	unsigned int i = 0, j = 0;

	while (i < na || j < nb) {
		int r = i == na ? 1 : j == nb ? -1 : nc_napi_key_cmp(&a[i], &b[j]);

		nc_napi_pair_add(t, r <= 0 ? &a[i] : NULL, r >= 0 ? &b[j] : NULL, match);
		i += r <= 0;
		j += r >= 0;
	}
}

/*
 * nc_napi_ids_agree - whether A's and B's instances of a device (as
 * nc_napi_merge() takes them) are of one boot: every napi_id but 0 of the
 * side with fewer ids is the other side's too (a queue that did not poll
 * on one side may be missing there, but none is renumbered)
 */
static bool nc_napi_ids_agree(const struct nc_napi *a, unsigned int na,
			      const struct nc_napi *b, unsigned int nb)
{
	unsigned int i = 0, j = 0, ca = 0, cb = 0, both = 0;

	while (i < na || j < nb) {
		bool ha = i < na, hb = j < nb;
		uint32_t id = !hb || (ha && a[i].id < b[j].id) ? a[i].id : b[j].id;
		bool in_a = ha && a[i].id == id, in_b = hb && b[j].id == id;

		while (i < na && a[i].id == id)
			i++;
		while (j < nb && b[j].id == id)
			j++;
		if (!id)
			continue;
		ca += in_a;
		cb += in_b;
		both += in_a && in_b;
	}
	return both == (ca < cb ? ca : cb);
}

/*
 * nc_napi_pair_device - the rows of one device: its backlogs by CPU; by
 * napi_id where A's and B's ids agree (nc_napi_ids_agree()); else id 0
 * (no id: tx-only instances) with id 0, and the others by order, the n-th
 * of A in napi_id order with the n-th of B: ids are handed out as the
 * driver adds its instances, queue by queue, so that order is the queues'
 */
static void nc_napi_pair_device(struct nc_napi_pairs *t, const struct nc_napi *a,
				unsigned int na, const struct nc_napi *b, unsigned int nb)
{
	const struct nc_napi *first = na ? a : b;
	unsigned int za = 0, zb = 0, i;

	if (!first->has_ifname && !first->id) {
		nc_napi_merge(t, a, na, b, nb, NC_NAPI_BY_CPU);
		return;
	}
	if (nc_napi_ids_agree(a, na, b, nb)) {
		nc_napi_merge(t, a, na, b, nb, NC_NAPI_BY_ID);
		return;
	}
	while (za < na && !a[za].id)
		za++;
	while (zb < nb && !b[zb].id)
		zb++;
	nc_napi_merge(t, a, za, b, zb, NC_NAPI_BY_ID);
	for (i = 0; za + i < na || zb + i < nb; i++)
		nc_napi_pair_add(t, za + i < na ? &a[za + i] : NULL,
				 zb + i < nb ? &b[zb + i] : NULL, NC_NAPI_BY_ORDER);
}

/*
 * nc_napi_pair - the NAPI instances of the totals of @a and @b paired one
 * by one: device by device (by name, then the backlogs, then the other
 * instances without a device, as a total lists them), each instance
 * of A with its counterpart in B (nc_napi_pair_device()), or alone.  A row
 * where neither side polled is left out; past NC_MAX_NAPI_PAIRS rows, the
 * others count in t->left_out.  A snapshot without instances (before
 * 0.9.0) has none to pair: the other side's are alone.
 */
void nc_napi_pair(struct nc_napi_pairs *t, const struct nc_model *a, const struct nc_model *b)
{
	const struct nc_cpu *ta = &a->total, *tb = &b->total;
	unsigned int i = 0, j = 0;

	memset(t, 0, sizeof(*t));
	while (i < ta->nr_napi || j < tb->nr_napi) {
		int r = i == ta->nr_napi ? 1 : j == tb->nr_napi ? -1 :
			nc_napi_group_cmp(&ta->napi[i], &tb->napi[j]);
		const struct nc_napi *first = r <= 0 ? &ta->napi[i] : &tb->napi[j];
		unsigned int ei = i, ej = j;

		while (ei < ta->nr_napi && !nc_napi_group_cmp(&ta->napi[ei], first))
			ei++;
		while (ej < tb->nr_napi && !nc_napi_group_cmp(&tb->napi[ej], first))
			ej++;
		nc_napi_pair_device(t, ei > i ? &ta->napi[i] : NULL, ei - i,
				    ej > j ? &tb->napi[j] : NULL, ej - j);
		i = ei;
		j = ej;
	}
}

/* nc_is_netrx_runs - a "net_rx_in_<where>" run counter (not its _cycles) */
bool nc_is_netrx_runs(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, "net_rx_in_", 10) &&
	       !(len > 7 && !strcmp(name + len - 7, "_cycles"));
}

/* nc_is_netrx_cycles - the "_cycles" twin of a NET_RX placement counter */
bool nc_is_netrx_cycles(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, "net_rx_in_", 10) && len > 7 &&
	       !strcmp(name + len - 7, "_cycles");
}

/*
 * nc_netrx_placement - where NET_RX ran on @c: one row per
 * "net_rx_in_<where>" counter the model has (any <where>, new ones
 * included), with its runs and cycles, their shares of all runs and
 * cycles (%), and the cycles per rx packet of all CPUs (-1: no packets).
 * At most @max rows into @rows; returns how many (0: no NET_RX at all).
 */
unsigned int nc_netrx_placement(const struct nc_model *m, const struct nc_cpu *c,
				struct nc_netrx_row *rows, unsigned int max)
{
	uint64_t rx = nc_basis_packets(m), runs = 0, cycles = 0;
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_counters; i++) {
		if (!c->has_counter[i])
			continue;
		if (nc_is_netrx_runs(m->counter[i]))
			runs += c->counter[i];
		else if (nc_is_netrx_cycles(m->counter[i]))
			cycles += c->counter[i];
	}
	if (!runs && !cycles)
		return 0;
	for (i = 0; i < m->nr_counters && n < max; i++) {
		char cname[NC_NAME_LEN + 8];
		struct nc_netrx_row *r = &rows[n];

		if (!c->has_counter[i] || !nc_is_netrx_runs(m->counter[i]))
			continue;
		snprintf(cname, sizeof(cname), "%s_cycles", m->counter[i]);
		r->where = m->counter[i] + 10;
		r->runs = c->counter[i];
		r->cycles = nc_cpu_counter(m, c, cname);
		r->runs_pct = runs ? 100.0 * (double)r->runs / (double)runs : 0;
		r->cycles_pct = cycles ? 100.0 * (double)r->cycles / (double)cycles : 0;
		r->per_packet = rx ? (double)r->cycles / (double)rx : -1;
		n++;
	}
	return n;
}

/* nc_hist_bucket_pct - bucket @b's share of @h's events, in %; 0 when empty */
double nc_hist_bucket_pct(const struct nc_hist *h, unsigned int b)
{
	uint64_t total = nc_hist_bucket_total(h);

	return total ? 100.0 * (double)h->buckets[b] / (double)total : 0;
}

/*
 * nc_overhead - what the probes cost, from two INFO replies @a and @b
 * (@b later): each hook's hits per second over the interval between the
 * replies (a hook's hit count runs from its attach, RESET leaves it), the
 * sampled self-cost per hit of @b (probe_cost_cycles: the mean; its median
 * and 90th percentile when the module sends them), and so the cycles
 * per second and the % of one CPU the probes take.  Hooks are matched by
 * name and kind (a function may be hooked two ways, one attached); a hook
 * missing from @a counts from 0 hits.  Returns 0, or -1 when
 * the replies cannot be compared: no time between them, or a hit count
 * that went back (the module was loaded again).
 */
int nc_overhead(const struct nc_info *a, const struct nc_info *b, struct nc_overhead *o)
{
	double hz = (double)b->tsc_khz * 1000;
	unsigned int i, k;

	memset(o, 0, sizeof(*o));
	o->cost_per_hit = b->probe_cost ? (double)b->probe_cost : -1;
	o->cost_p50 = b->probe_cost_samples ? (double)b->probe_cost_p50 : -1;
	o->cost_p90 = b->probe_cost_samples ? (double)b->probe_cost_p90 : -1;
	if (b->now_ns <= a->now_ns)
		return -1;
	o->interval_s = (double)(b->now_ns - a->now_ns) / 1e9;
	for (i = 0; i < b->nr_hooks && o->nr_hooks < NC_MAX_HOOKS; i++) {
		const struct nc_hook *hb = &b->hook[i];
		struct nc_hook_rate *r = &o->hook[o->nr_hooks++];
		uint64_t before = 0;

		for (k = 0; k < a->nr_hooks; k++)
			if (!strcmp(a->hook[k].name, hb->name) && a->hook[k].kind == hb->kind)
				before = a->hook[k].hits;
		if (hb->hits < before)
			return -1;
		r->name = hb->name;
		r->kind = hb->kind;
		for (k = 0; k < b->nr_hooks; k++)
			if (k != i && !strcmp(b->hook[k].name, hb->name))
				r->dup_name = true;
		r->hits_per_s = (double)(hb->hits - before) / o->interval_s;
		r->cycles_per_s = o->cost_per_hit < 0 ? -1 : r->hits_per_s * o->cost_per_hit;
		r->cpu_pct = r->cycles_per_s < 0 || !hz ? -1 : 100 * r->cycles_per_s / hz;
		o->hits_per_s += r->hits_per_s;
	}
	o->cycles_per_s = o->cost_per_hit < 0 ? -1 : o->hits_per_s * o->cost_per_hit;
	o->cpu_pct = o->cycles_per_s < 0 || !hz ? -1 : 100 * o->cycles_per_s / hz;
	return 0;
}

/* nc_ratio - @b / @a, or -1 when it is undefined: a side missing (< 0), or @a not > 0 */
double nc_ratio(double b, double a)
{
	return a > 0 && b >= 0 ? b / a : -1;
}

/* nc_share - @part of @whole (either may be negative: deltas); NAN (undefined) when @whole is 0 */
double nc_share(double part, double whole)
{
	return whole != 0 ? part / whole : NAN;
}

/* nc_stage_cycles_named - the sum of stage @name on @c (NULL: none), its events in *@count */
static double nc_stage_cycles_named(const struct nc_model *m, const struct nc_cpu *c,
				    const char *name, double *count)
{
	int s = nc_model_find_stage(m, name);

	if (!c || s < 0 || !c->stage[s]) {
		if (count)
			*count = 0;
		return 0;
	}
	if (count)
		*count = (double)nc_stage_events(m, c, (unsigned int)s);
	return (double)nc_stage_sum(m, c, (unsigned int)s);
}

/*
 * nc_cpu_switch_cycles - the context switches' cycles on @c (ctx_switch
 * and ctx_switch_other: every switch, the packet path's and the rest),
 * and in *@count how many there were: what a switch into a process costs
 * on that CPU, which the process's own clock holds (the closure)
 */
double nc_cpu_switch_cycles(const struct nc_model *m, const struct nc_cpu *c, double *count)
{
	double n = 0, v;

	v = nc_stage_cycles_named(m, c, "ctx_switch", count);
	v += nc_stage_cycles_named(m, c, "ctx_switch_other", &n);
	if (count)
		*count += n;
	return v;
}

/*
 * nc_cpu_irq_context_cycles - the interrupt-context work on @c that runs
 * whichever task was interrupted, and that a kernel without
 * CONFIG_IRQ_TIME_ACCOUNTING charges to that task: hard IRQs (hardirq,
 * hardirq_other), NET_RX run from irq_exit, and on a stock kernel the
 * other softirqs, which run there too (on PREEMPT_RT they run in threads)
 */
double nc_cpu_irq_context_cycles(const struct nc_model *m, const struct nc_cpu *c)
{
	double v;

	if (!c)
		return 0;
	v = nc_stage_cycles_named(m, c, "hardirq", NULL) +
	    nc_stage_cycles_named(m, c, "hardirq_other", NULL) +
	    (double)nc_cpu_counter(m, c, "net_rx_in_irq_exit_cycles");
	if (!m->info.preempt_rt)
		v += nc_stage_cycles_named(m, c, "softirq_net_tx", NULL) +
		     nc_stage_cycles_named(m, c, "softirq_other", NULL);
	return v;
}

/*
 * nc_cpu_task_netrx_cycles - the NET_RX that tasks ran in their own
 * local_bh_enable() on @c (net_rx_in_task_bh_enable_cycles): measured
 * inside the tasks' time
 */
double nc_cpu_task_netrx_cycles(const struct nc_model *m, const struct nc_cpu *c)
{
	return c ? (double)nc_cpu_counter(m, c, "net_rx_in_task_bh_enable_cycles") : 0;
}
