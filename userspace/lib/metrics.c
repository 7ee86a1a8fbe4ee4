// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - every figure netcost derives from the model, in one place:
 * the interval and its rates, the packets a stage is divided by, cost per
 * packet (rx, or tx for the transmit stages), the stages a packet's total
 * sums (role top) and the irq_thread rule.  The renderers (report, diff,
 * plot, export) print these and compute none of their own.
 */
#include <string.h>

#include "metrics.h"

/* nc_interval_s - the seconds the statistics cover (now - reset); 0: unknown */
double nc_interval_s(const struct nc_model *m)
{
	if (m->info.now_ns <= m->info.reset_ns)
		return 0;
	return (double)(m->info.now_ns - m->info.reset_ns) / 1e9;
}

/* nc_per_s - @count per second of the interval; -1 when it has no length */
double nc_per_s(const struct nc_model *m, uint64_t count)
{
	double s = nc_interval_s(m);

	return s > 0 ? (double)count / s : -1;
}

/* nc_rx_packets - rx_packets of @c (a CPU or the total) */
uint64_t nc_rx_packets(const struct nc_model *m, const struct nc_cpu *c)
{
	return nc_cpu_counter(m, c, "rx_packets");
}

/* nc_tx_packets - tx_packets of @c */
uint64_t nc_tx_packets(const struct nc_model *m, const struct nc_cpu *c)
{
	return nc_cpu_counter(m, c, "tx_packets");
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
 * nc_cpu_packets - the packets that @stage's cost is divided by: tx_packets
 * for the transmit stages (tx_xmit, syscall_tx, softirq_net_tx), rx_packets
 * for every other one.
 */
uint64_t nc_cpu_packets(const struct nc_model *m, const struct nc_cpu *c,
			unsigned int stage)
{
	return nc_cpu_counter(m, c, m->stage[stage].per_tx ? "tx_packets" : "rx_packets");
}

/*
 * nc_stage_own_cycles - the cycles of @stage on @c that are its own, for
 * totals: a threaded NIC handler's run (irq_thread) includes the NET_RX
 * softirq it runs at local_bh_enable(), which softirq_net_rx counts too
 * (net_rx_in_irq_thread_cycles says how much), so that part is taken off
 * here and a packet's total counts it once.  Every other stage is already
 * net of what nests in it.
 */
uint64_t nc_stage_own_cycles(const struct nc_model *m, const struct nc_cpu *c,
			     unsigned int stage)
{
	uint64_t sum, nested;

	if (!c->stage[stage])
		return 0;
	sum = c->stage[stage]->sum;
	if (strcmp(m->stage[stage].name, "irq_thread"))
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
	return (double)c->stage[s]->sum / (double)pkts;
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

