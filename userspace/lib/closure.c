// SPDX-License-Identifier: GPL-2.0
/*
 * closure.c - the accounting closure of "netcost run" (closure.h).
 *
 * The method.  The soak's
 * spinner runs whenever nothing else wants a CPU, so what it lost is the
 * CPU time everything else consumed -- interrupts, softirqs, IRQ threads,
 * the scheduler, processes, kernel threads, netcost's own probes:
 *
 *   consumed(cpu)  = sum over samples of load % / 100 x sample length
 *                    x tsc_khz x 1000                     (cycles)
 *
 * What netcost accounts for, CPU by CPU:
 *
 *   kernel    hardirq + hardirq_other + softirq_net_rx + softirq_net_tx
 *             + softirq_other + irq_thread + napi_thread + ctx_switch
 *             + ctx_switch_other (every switch, 0.10.0): the
 *             stages that are CPU work of their own.  irq_thread is net
 *             of the softirqs its thread runs (0.6.0); a snapshot of an
 *             older module held the NET_RX, which softirq_net_rx counts
 *             too, so there net_rx_in_irq_thread_cycles is taken off.
 *             napi_poll, rx_skb and tx_xmit are nested in these and
 *             wakeup_latency is waiting, so none of them is added.
 *   probes    probe_hits x the probe cost INFO reports: the module's own
 *             consumption, partly outside every stage's clock.
 *   processes the sink's and the sender's utime + stime (wait4() rusage:
 *             the whole process, exec to exit, wrappers such as in-ns
 *             included) and the main thread of netcost run itself
 *             (RUSAGE_THREAD; the spinners are not counted, they are the
 *             measure).  syscall_rx and syscall_tx are inside stime and
 *             are not added.  Per CPU, a process's time is split by its
 *             task-clock on each CPU (perf_event_open(), inherited by its
 *             threads); without perf the per-CPU view is incomplete.
 *
 *   counted twice (negative) what a process's time holds that a kernel
 *             line holds too (lib/closure.c, nc_closure_add_overlap()):
 *             a context switch into a process runs on that process's
 *             clock (the CPU's mean ctx_switch x the processes' nvcsw +
 *             nivcsw); and when the kernel charges interrupts to the task
 *             they interrupt (no CONFIG_IRQ_TIME_ACCOUNTING, as Debian
 *             builds it: /proc/stat's irq column then stands still), the
 *             NET_RX the processes ran in their local_bh_enable()
 *             (measured) and, CPU by CPU, their share P/T of its
 *             interrupt-context work (hard IRQs, NET_RX in irq_exit, on a
 *             stock kernel the other softirqs too), interrupts arriving
 *             whichever task runs.  Without this line the closure of a
 *             stock kernel under a network load goes 20-30% negative.
 *
 *   unexplained = consumed - (kernel + probes + processes - counted twice),
 *                 in % of consumed, per CPU and in total.
 *
 * It is not forced to close: what is left is shown as it is.  Known
 * reasons for a remainder: timer and IPI interrupts (system vectors, not
 * irq_handler_entry), kernel threads (kworkers, RCU), parts of IRQ threads
 * and ksoftirqd outside the measured handler runs, and the soak's own
 * noise: on an emulated SMP guest (TCG) a vCPU's loop rate follows the
 * host's scheduling, so the calibration's spread is the error bar.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "closure.h"
#include "metrics.h"

/* nc_closure_cycles - CPU-seconds as cycles at @tsc_khz */
double nc_closure_cycles(double cpu_seconds, uint32_t tsc_khz)
{
	return cpu_seconds * tsc_khz * 1e3;
}

/*
 * nc_closure_load_cycles - the cycles a CPU spent on others while its
 * spinner saw @load_pct % load for @seconds: load x interval x TSC rate.
 */
double nc_closure_load_cycles(double load_pct, double seconds, uint32_t tsc_khz)
{
	return nc_closure_cycles(load_pct / 100 * seconds, tsc_khz);
}

/* nc_closure_cpu_index - where CPU @cpu is in @c's arrays; -1 if absent */
int nc_closure_cpu_index(const struct nc_closure *c, int cpu)
{
	for (unsigned int i = 0; i < c->ncpus; i++)
		if (c->cpu[i] == cpu)
			return (int)i;
	return -1;
}

/*
 * nc_closure_init - a closure over the @ncpus CPUs @cpus that the soak
 * measured for @seconds: @busy_s[i] CPU-seconds taken from spinner i
 * (sum of load x sample length), @load_pct[i] its mean load (or NULL).
 */
void nc_closure_init(struct nc_closure *c, uint32_t tsc_khz, double seconds,
		     unsigned int ncpus, const int *cpus, const double *busy_s,
		     const double *load_pct)
{
	memset(c, 0, sizeof(*c));
	c->tsc_khz = tsc_khz;
	c->seconds = seconds;
	c->ncpus = ncpus;
	c->cpu = nc_xcalloc(ncpus ? ncpus : 1, sizeof(*c->cpu));
	c->load_pct = nc_xcalloc(ncpus ? ncpus : 1, sizeof(*c->load_pct));
	c->consumed = nc_xcalloc(ncpus ? ncpus : 1, sizeof(*c->consumed));
	c->attributed = nc_xcalloc(ncpus ? ncpus : 1, sizeof(*c->attributed));
	c->remainder = nc_xcalloc(ncpus ? ncpus : 1, sizeof(*c->remainder));
	for (unsigned int i = 0; i < ncpus; i++) {
		c->cpu[i] = cpus[i];
		c->load_pct[i] = load_pct ? load_pct[i] :
				 seconds > 0 ? 100 * busy_s[i] / seconds : 0;
		c->consumed[i] = nc_closure_cycles(busy_s[i], tsc_khz);
	}
}

/*
 * nc_closure_add - a new, empty line @name; with @per_cpu its per-CPU
 * cells exist.  NULL when the closure is full.
 */
struct nc_cl_line *nc_closure_add(struct nc_closure *c, enum nc_cl_kind kind,
				  const char *name, bool per_cpu)
{
	struct nc_cl_line *l;

	if (c->nr_lines >= NC_CL_MAX_LINES)
		return NULL;
	l = &c->line[c->nr_lines++];
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->kind = kind;
	if (per_cpu)
		l->cpu = nc_xcalloc(c->ncpus ? c->ncpus : 1, sizeof(*l->cpu));
	return l;
}

/*
 * nc_closure_add_model - the kernel lines and the probe line from the
 * module's statistics @m, CPU by CPU.  CPUs the soak did not measure are
 * left out (there is nothing to hold them against).  Returns 0, or -1
 * when the closure is full.
 */
int nc_closure_add_model(struct nc_closure *c, const struct nc_model *m)
{
	struct nc_cl_line *l;
	uint64_t hits = 0;

	/* the stages metrics.c calls kernel work of their own, by their roles */
	for (unsigned int s = 0; s < m->nr_stages; s++) {
		if (!nc_stage_is_kernel_work(m, s))
			continue;
		l = nc_closure_add(c, NC_CL_KERNEL, m->stage[s].name, true);
		if (!l)
			return -1;
		if (!strcmp(m->stage[s].name, "irq_thread"))
			snprintf(l->what, sizeof(l->what), "%s", nc_irq_thread_holds_net_rx(m) ?
				 "net of the NET_RX it runs" : "net of the softirqs it runs");
		for (unsigned int i = 0; i < m->nr_cpus; i++) {
			int x = nc_closure_cpu_index(c, (int)m->cpus[i].cpu);

			if (x < 0)
				continue;
			l->cpu[x] = (double)nc_stage_own_cycles(m, &m->cpus[i], s);
			l->total += l->cpu[x];
		}
	}

	l = nc_closure_add(c, NC_CL_PROBES, "probes", true);
	if (!l)
		return -1;
	for (unsigned int i = 0; i < m->nr_cpus; i++) {
		int x = nc_closure_cpu_index(c, (int)m->cpus[i].cpu);
		uint64_t h = nc_cpu_counter(m, &m->cpus[i], "probe_hits");

		if (x < 0)
			continue;
		hits += h;
		l->cpu[x] = (double)h * m->info.probe_cost;
		l->total += l->cpu[x];
	}
	snprintf(l->what, sizeof(l->what), "%llu hits x %u cycles",
		 (unsigned long long)hits, m->info.probe_cost);
	return 0;
}

/*
 * nc_closure_add_process - a process line of @cpu_s CPU-seconds; when
 * @weight (per closure CPU, e.g. task-clock ns) is given and not all
 * zero, the cycles are split over the CPUs in its proportions.  Returns
 * the line, or NULL when the closure is full.
 */
struct nc_cl_line *nc_closure_add_process(struct nc_closure *c, const char *name,
					  double cpu_s, const double *weight)
{
	double wsum = 0;
	struct nc_cl_line *l;

	for (unsigned int i = 0; weight && i < c->ncpus; i++)
		wsum += weight[i] > 0 ? weight[i] : 0;
	l = nc_closure_add(c, NC_CL_PROCESS, name, wsum > 0);
	if (!l)
		return NULL;
	l->total = nc_closure_cycles(cpu_s, c->tsc_khz);
	for (unsigned int i = 0; l->cpu && i < c->ncpus; i++)
		l->cpu[i] = weight[i] > 0 ? l->total * weight[i] / wsum : 0;
	return l;
}

/*
 * nc_closure_add_overlap - what the process lines added so far hold that a
 * kernel line holds too, CPU by CPU, as a negative line:
 *
 *  - context switches into a process: ctx_switch runs after the next
 *    task's clock has started, so it is in that task's time; estimated
 *    as the CPU's mean ctx_switch x the processes' switches (nvcsw +
 *    nivcsw, each one switch in), spread over the CPUs like their time;
 *  - with @irq_in_tasks (the kernel charges interrupts to the task they
 *    interrupt: no CONFIG_IRQ_TIME_ACCOUNTING, /proc/stat's irq column
 *    stays 0), the NET_RX a process ran in its local_bh_enable()
 *    (net_rx_in_task_bh_enable_cycles: measured; the processes are the
 *    ones doing network I/O), and the interrupt-context work (hard IRQs,
 *    NET_RX in irq_exit, and on a stock kernel the other softirqs) in the
 *    share of the CPU's time the processes had: interrupts arrive
 *    whichever task runs, so a share P/T of them hits the processes
 *    (P: their time on the CPU, T: the window).
 *
 * Never more than the processes' time on a CPU.  Returns the line, or
 * NULL when the closure is full (or has no process lines).
 */
struct nc_cl_line *nc_closure_add_overlap(struct nc_closure *c,
					  const struct nc_model *m, bool irq_in_tasks)
{
	double *proc = nc_xcalloc(c->ncpus ? c->ncpus : 1, sizeof(*proc));
	double switches = 0, proc_total = 0, span = nc_closure_cycles(c->seconds, c->tsc_khz);
	struct nc_cl_line *l = NULL;
	bool any = false;

	for (unsigned int k = 0; k < c->nr_lines; k++) {
		const struct nc_cl_line *p = &c->line[k];

		if (p->kind != NC_CL_PROCESS)
			continue;
		any = true;
		switches += p->switches;
		proc_total += p->total;
		for (unsigned int i = 0; i < c->ncpus; i++)
			proc[i] += p->cpu ? p->cpu[i] : p->total / c->ncpus;
	}
	if (any)
		l = nc_closure_add(c, NC_CL_OVERLAP, "counted twice", true);
	for (unsigned int i = 0; l && i < c->ncpus; i++) {
		const struct nc_cpu *cpu = NULL;
		double n, ctx, irq = 0, v;

		for (unsigned int j = 0; j < m->nr_cpus; j++)
			if ((int)m->cpus[j].cpu == c->cpu[i])
				cpu = &m->cpus[j];
		ctx = nc_cpu_switch_cycles(m, cpu, &n);
		v = n > 0 && proc_total > 0 ? ctx / n * switches * proc[i] / proc_total : 0;
		if (irq_in_tasks) {
			irq = nc_cpu_irq_context_cycles(m, cpu);
			v += nc_cpu_task_netrx_cycles(m, cpu);
			if (span > 0)
				v += irq * (proc[i] < span ? proc[i] : span) / span;
		}
		l->cpu[i] = -(v < proc[i] ? v : proc[i]);
		l->total += l->cpu[i];
	}
	if (l)
		snprintf(l->what, sizeof(l->what), "%s",
			 irq_in_tasks ? "switches into the processes; interrupts they took (estimate)" :
			 "switches into the processes (estimate)");
	free(proc);
	return l;
}

/*
 * nc_cl_pct - @part in % of @whole; NAN when @whole is not positive (a
 * soak that measured nothing, or less than its calibration)
 */
static double nc_cl_pct(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : NAN;
}

/* nc_cl_jpct - a percentage for JSON: null when it is not a number */
static json_t *nc_cl_jpct(double pct)
{
	return isnan(pct) ? json_null() : json_real(pct);
}

/* nc_closure_finish - the sums, the remainder and its share */
void nc_closure_finish(struct nc_closure *c)
{
	c->consumed_total = c->attributed_total = 0;
	c->per_cpu_complete = true;
	for (unsigned int i = 0; i < c->ncpus; i++) {
		c->consumed_total += c->consumed[i];
		c->attributed[i] = 0;
	}
	for (unsigned int k = 0; k < c->nr_lines; k++) {
		const struct nc_cl_line *l = &c->line[k];

		c->attributed_total += l->total;
		if (!l->cpu) {
			c->per_cpu_complete = false;
			continue;
		}
		for (unsigned int i = 0; i < c->ncpus; i++)
			c->attributed[i] += l->cpu[i];
	}
	for (unsigned int i = 0; i < c->ncpus; i++)
		c->remainder[i] = c->consumed[i] - c->attributed[i];
	c->remainder_total = c->consumed_total - c->attributed_total;
	c->remainder_pct = nc_cl_pct(c->remainder_total, c->consumed_total);
}

/* nc_cl_kind_name - a line kind as the JSON names it */
static const char *nc_cl_kind_name(enum nc_cl_kind kind)
{
	switch (kind) {
	case NC_CL_KERNEL:
		return "kernel";
	case NC_CL_PROBES:
		return "probes";
	case NC_CL_OVERLAP:
		return "overlap";
	default:
		return "process";
	}
}


/*
 * nc_closure_to_json - {seconds, tsc_khz, consumed_cycles,
 * attributed_cycles, remainder_cycles, remainder_pct, per_cpu_complete,
 * cpus: [{cpu, load_pct, consumed_cycles, attributed_cycles,
 * remainder_cycles, remainder_pct}], lines: [{name, kind, what, cycles,
 * pct, per_cpu: [cycles...] or null}]}
 */
json_t *nc_closure_to_json(const struct nc_closure *c)
{
	json_t *cpus = json_array(), *lines = json_array();

	for (unsigned int i = 0; i < c->ncpus; i++)
		json_array_append_new(cpus, json_pack("{s:i, s:f, s:f, s:f, s:f, s:o}",
			"cpu", c->cpu[i], "load_pct", c->load_pct[i],
			"consumed_cycles", c->consumed[i],
			"attributed_cycles", c->attributed[i],
			"remainder_cycles", c->remainder[i],
			"remainder_pct", nc_cl_jpct(nc_cl_pct(c->remainder[i], c->consumed[i]))));
	for (unsigned int k = 0; k < c->nr_lines; k++) {
		const struct nc_cl_line *l = &c->line[k];
		json_t *per = json_null();

		if (l->cpu) {
			per = json_array();
			for (unsigned int i = 0; i < c->ncpus; i++)
				json_array_append_new(per, json_real(l->cpu[i]));
		}
		json_array_append_new(lines, json_pack("{s:s, s:s, s:s, s:f, s:o, s:o}",
			"name", l->name, "kind", nc_cl_kind_name(l->kind),
			"what", l->what, "cycles", l->total,
			"pct", nc_cl_jpct(nc_cl_pct(l->total, c->consumed_total)),
			"per_cpu", per));
	}
	return json_pack("{s:f, s:i, s:f, s:f, s:f, s:o, s:b, s:o, s:o}",
			 "seconds", c->seconds, "tsc_khz", (int)c->tsc_khz,
			 "consumed_cycles", c->consumed_total,
			 "attributed_cycles", c->attributed_total,
			 "remainder_cycles", c->remainder_total,
			 "remainder_pct", nc_cl_jpct(c->remainder_pct),
			 "per_cpu_complete", c->per_cpu_complete,
			 "cpus", cpus, "lines", lines);
}

/* nc_cl_fpct - a percentage @width wide, "-" when it is not a number */
static void nc_cl_fpct(FILE *f, int width, double pct)
{
	if (isnan(pct))
		fprintf(f, " %*s", width, "-");
	else
		fprintf(f, " %*.1f", width, pct);
}

/* nc_cl_row - one row: per-CPU Mcycles (or "?"), the total, its % */
static void nc_cl_row(FILE *f, const struct nc_closure *c, const char *name,
		      const double *per_cpu, double total, const char *what)
{
	fprintf(f, "%-26s", name);
	for (unsigned int i = 0; i < c->ncpus; i++) {
		if (per_cpu)
			fprintf(f, " %10.1f", per_cpu[i] / 1e6);
		else
			fprintf(f, " %10s", "?");
	}
	fprintf(f, " %10.1f", total / 1e6);
	nc_cl_fpct(f, 7, nc_cl_pct(total, c->consumed_total));
	fprintf(f, "%s%s\n", *what ? "  " : "", what);
}

/* nc_closure_print - the closure as a table: lines x CPUs, then the total */
void nc_closure_print(FILE *f, const struct nc_closure *c)
{
	char head[16];

	fprintf(f, "accounting closure: %.3f s x %u CPU%s at %.1f MHz, Mcycles (%% of consumed)\n",
		c->seconds, c->ncpus, c->ncpus == 1 ? "" : "s", c->tsc_khz / 1000.0);
	fprintf(f, "%-26s", "");
	for (unsigned int i = 0; i < c->ncpus; i++) {
		snprintf(head, sizeof(head), "cpu%d", c->cpu[i]);
		fprintf(f, " %10s", head);
	}
	fprintf(f, " %10s %7s\n", "total", "%");
	fprintf(f, "%-26s", "load (soak), %");
	for (unsigned int i = 0; i < c->ncpus; i++)
		fprintf(f, " %10.1f", c->load_pct[i]);
	fputc('\n', f);
	nc_cl_row(f, c, "consumed (soak)", c->consumed, c->consumed_total,
		  "load % x interval x TSC rate");
	for (unsigned int k = 0; k < c->nr_lines; k++) {
		const struct nc_cl_line *l = &c->line[k];
		char name[NC_NAME_LEN + 8];

		snprintf(name, sizeof(name), "  %s", l->name);
		nc_cl_row(f, c, name, l->cpu, l->total, l->what);
	}
	nc_cl_row(f, c, "attributed", c->per_cpu_complete ? c->attributed : NULL,
		  c->attributed_total, "");
	nc_cl_row(f, c, "unexplained", c->per_cpu_complete ? c->remainder : NULL,
		  c->remainder_total, "");
	if (c->per_cpu_complete) {
		fprintf(f, "%-26s", "  % of the CPU's consumed");
		for (unsigned int i = 0; i < c->ncpus; i++)
			nc_cl_fpct(f, 10, nc_cl_pct(c->remainder[i], c->consumed[i]));
		nc_cl_fpct(f, 10, c->remainder_pct);
		fputc('\n', f);
	}
	if (isnan(c->remainder_pct))
		fprintf(f, "unexplained: - (the soak counted no CPU time consumed: was it calibrated under load?)\n");
	else
		fprintf(f, "unexplained: %.1f%% of the CPU time consumed (aim: under 10%%)\n",
			c->remainder_pct);
}

/* nc_closure_free - free what nc_closure_init() and the lines hold */
void nc_closure_free(struct nc_closure *c)
{
	for (unsigned int k = 0; k < c->nr_lines; k++)
		free(c->line[k].cpu);
	free(c->cpu);
	free(c->load_pct);
	free(c->consumed);
	free(c->attributed);
	free(c->remainder);
	memset(c, 0, sizeof(*c));
}
