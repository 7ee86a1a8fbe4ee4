// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * replay.c - the stage definitions of Documentation/stages.md, the one
 * source of them, applied to an ftrace text trace taken with trace_clock
 * x86-tsc: the oracle's own implementation of that text, which it holds
 * netcost to.  It shares no code with module/, userspace/ or include/.
 *
 * Every timestamp used for a duration is the trace's, moved by the cost
 * model (struct model) to where netcost's own timestamp at that hook
 * point is: see point_*() below and README.md.  Window decisions (was
 * recording on?) use the raw trace timestamps.
 *
 * Net durations (Documentation/stages.md, "The clock: net durations"):
 * (end - start) - hard time on the CPU while the owner ran - the owner's
 * time off CPU [- soft time for system calls].  A negative net value is
 * recorded as 0 and counted in clamped_negative.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"

const char *const stage_name[NSTAGES] = {
	"hardirq", "hardirq_other", "softirq_net_rx", "softirq_net_tx",
	"softirq_other", "irq_thread", "napi_poll", "napi_poll_work",
	"rx_skb", "tx_xmit", "ctx_switch", "wakeup_latency",
	"syscall_rx", "syscall_tx", "hardirq_vectors",
	"runq_wait_load", "runq_wait_irq_thread", "runq_wait_ksoftirqd",
	"blocked_load", "napi_thread", "ctx_switch_other",
};

const char *const counter_name[NCOUNTERS] = {
	"rx_packets", "tx_packets", "nic_irqs", "ctx_switches",
	"ctx_switches_irq_thread", "ctx_switches_ksoftirqd",
	"net_rx_in_irq_exit", "net_rx_in_irq_exit_cycles",
	"net_rx_in_ksoftirqd", "net_rx_in_ksoftirqd_cycles",
	"net_rx_in_irq_thread", "net_rx_in_irq_thread_cycles",
	"net_rx_in_other_irq_thread", "net_rx_in_other_irq_thread_cycles",
	"net_rx_in_task_bh_enable", "net_rx_in_task_bh_enable_cycles",
	"napi_budget_exhausted", "clamped_negative",
	"runq_wait_behind_irq_thread_cycles", "runq_wait_behind_ksoftirqd_cycles",
	"runq_wait_behind_soak_cycles", "runq_wait_behind_load_cycles",
	"runq_wait_behind_idle_cycles", "runq_wait_behind_other_cycles",
	"blocked_load_woken_by_hardirq", "blocked_load_woken_by_hardirq_cycles",
	"blocked_load_woken_by_softirq", "blocked_load_woken_by_softirq_cycles",
	"blocked_load_woken_by_irq_thread", "blocked_load_woken_by_irq_thread_cycles",
	"blocked_load_woken_by_ksoftirqd", "blocked_load_woken_by_ksoftirqd_cycles",
	"blocked_load_woken_by_load", "blocked_load_woken_by_load_cycles",
	"blocked_load_woken_by_other", "blocked_load_woken_by_other_cycles",
	"irq_thread_excl_cycles", "napi_thread_excl_cycles",
	"rx_backlog_packets",
	"net_rx_in_napi_thread", "net_rx_in_napi_thread_cycles",
};

/* ---- the histogram rule: values 0..7 one bucket each, then 8 per power of two ---- */

unsigned int hist_index(uint64_t v)
{
	int msb;

	if (v < (1u << HIST_SUB_BITS))
		return (unsigned int)v;
	msb = 63 - __builtin_clzll(v);
	if (msb >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	return ((unsigned int)(msb - HIST_SUB_BITS + 1) << HIST_SUB_BITS) |
	       (unsigned int)((v >> (msb - HIST_SUB_BITS)) & ((1u << HIST_SUB_BITS) - 1));
}

uint64_t hist_lo(unsigned int i)
{
	unsigned int g = i >> HIST_SUB_BITS, sub = i & ((1u << HIST_SUB_BITS) - 1);

	if (i >= HIST_BUCKETS - 1)
		return 1ull << HIST_MAX_BITS;
	if (!g)
		return i;
	return (uint64_t)((1u << HIST_SUB_BITS) + sub) << (g - 1);
}

uint64_t hist_hi(unsigned int i)
{
	if (i >= HIST_BUCKETS - 1)
		return ~0ull;
	if (i < (1u << HIST_SUB_BITS))
		return i;
	return hist_lo(i) + (1ull << ((i >> HIST_SUB_BITS) - 1)) - 1;
}

/* ---- replay state ---- */

enum kind { K_OTHER, K_IRQ_THREAD, K_KSOFTIRQD, K_NAPI_THREAD };

/* waiting: what runs on a CPU (the order of the runq_wait_behind_* counters) */
enum wclass { CL_IRQ_THREAD, CL_KSOFTIRQD, CL_SOAK, CL_LOAD, CL_IDLE, CL_OTHER, NCLASSES };
/* who woke a sleeping load task (the order of the blocked_load_woken_by_* counters) */
enum waker { WK_NONE, WK_HARDIRQ, WK_SOFTIRQ, WK_IRQ_THREAD, WK_KSOFTIRQD, WK_LOAD, WK_OTHER };
enum wstate { W_NONE, W_RUNQ, W_BLOCKED };

struct task {
	int seen;
	int kind, irq;			/* irq: from "irq/N-name", or -1 */
	int backlog;			/* RT's backlog_napi/N: netcost's NAPI-thread kind */
	int cpu;			/* running on, or -1 */
	int on_rq;			/* runnable (woken, or preempted) */
	double hard_acc, soft_acc, off_acc;
	double hard_snap, soft_snap;	/* CPU totals when it last came on */
	int off;
	double off_since;
	int waking;			/* a first sched_waking is pending */
	double waking_t;
	double waking_turn;		/* its sched_waking line's turn (line_turn) */
	uint64_t waking_stamp;		/* and the stub's stamp there (wake_stamp()) */
	uint64_t waking_raw;
	int sys_open, sys_stage;	/* syscall frame */
	int sys_inet;			/* it reached inet's sendmsg/recvmsg */
	double sys_t0, sys_h0, sys_s0, sys_o0;
	double sys_amb0;		/* its sys_enter line's amb (line_amb) */
	double sys_turn0;		/* and its turn (line_turn) */
	uint64_t sys_raw;
	int thr_open;			/* NIC irq_thread frame */
	int thr_nest;			/* calls nested in the open run */
	int thr_worked;			/* 0.6.0: the open run called the handler */
	double thr_t0, thr_h0, thr_s0, thr_o0;
	uint64_t thr_raw;
	int nthr_open, nthr_polled;	/* a NAPI thread's run (threaded NAPI) */
	double nthr_t0, nthr_x0;	/* its start; task_excl() there */
	double npoll_t0, npoll_x0;	/* its polls: from its start or the last poll */
	double nthr_o0;			/* task_off() at its start */
	uint64_t nthr_raw, npoll_raw;
	int load;			/* entered an rx/tx system call */
	int wstate, waker, wait_cpu;	/* enum wstate, enum waker */
	double wait_t;			/* queued or asleep since */
	double wait_turn;		/* its start line's turn, unplaced (line_turn) */
	uint64_t wait_raw;
	double wait_snap[NCLASSES];	/* wait_cpu's class times at wait_t */
	struct bh *bh;			/* softirq frames, once it has had one */
	/*
	 * the second readings of the softirqs inside its open run (an IRQ
	 * or NAPI thread's, or a system call's), which the run takes out:
	 * a softirq that may read shorter leaves the run that much longer
	 * (run_amb_long), one that may read longer the run shorter
	 */
	double run_amb_short, run_amb_long;
};

#define MAX_PID 65536

/* a frame of softirq processing: softirq, napi, rx, tx */
struct frame {
	int open, owner;
	double t0, h0, o0;
	double amb0;			/* its start line's amb (line_amb) */
	double turn0;			/* its start line's turn (line_turn) */
	uint64_t raw;
};

enum rxl { RX_SKIP, RX_ONE, RX_LIST };

/*
 * The softirq frames of one task: a frame belongs to the task running at
 * its start, and its end is the end event in that task.  Where the kernel
 * serialises softirqs per CPU this is the same as one set per CPU; where
 * it does not (PREEMPT_RT since 6.18 without the BH lock), two tasks'
 * softirq runs interleave on one CPU.  The idle tasks (pid 0, one per
 * CPU) keep theirs in their CPU.
 */
struct bh {
	struct frame sirq;
	int sirq_vec, sirq_where;
	struct frame napi, rx, tx;
	int rx_stack[64], rx_depth, rx_last_list;
	int rx_flush;		/* rx holds a list GRO delivered (netcost 0.8.0) */
	int rx_backlog;		/* rx holds a backlog's packet (netcost 0.8.0) */
	int tx_depth;
};

struct cpu {
	int curr;
	int backlog_on, backlog_pid;	/* the task in this CPU's backlog poll */
	double hard_total, soft_total;
	int hard_open, hard_irq, hard_nic;
	char hard_vec[48];
	double hard_t0;
	uint64_t hard_raw;
	struct bh idle_bh;
	int ss_pending;
	int ss_stage;			/* ST_CTX_SWITCH or ST_CTX_SWITCH_OTHER */
	double ss_t;
	uint64_t ss_raw;
	int irq_exit_depth;
	/*
	 * after an irq_handler_exit, the irq_exit_rcu_e that must come next
	 * (interrupts stay off until irq_exit() runs softirqs); without it,
	 * the softirq runs that follow at once are at that irq_exit()
	 */
	int await_exit, exit_inferred;
	double cls_acc[NCLASSES];	/* time each class of task ran here */
	double cls_since;		/* the last sched_switch, if cls_seen */
	int cls_seen, cls_cur;
	/* the interrupt just taken (line_amb): in it, or right after it */
	/* interrupts just taken, one per nesting level (irq_block()) */
	struct blk {
		int nic;		/* a NIC's handler in it */
		int done;		/* it returned (its irq_exit_rcu_r) */
		int level;		/* irq_exit_depth when it came */
		double before, first;	/* the line before it; its first line */
		double hs0;		/* hard + soft totals at its start */
	} blk[4];
	int nblk;
	/* the stub's stamps (struct model's sw_*): the next ones to match */
	size_t sw_si, sw_fi;
	uint64_t sw_last;		/* the last sched_switch's raw ts */
	/* and of its wake-ups (wk_*): next, and the last such line's ts */
	size_t wk_i[2];
	uint64_t wk_last[2];
};

static struct task *tasks;
/*
 * Every CPU's idle task has pid 0 in the trace; each is a task of its
 * own (its frames, its time off the CPU), keyed idle_key(cpu) < 0 from
 * the line's parse on.  One task for all of them read another CPU's idle
 * switches as time cpu0's NET_RX at irq_exit() spent off the CPU
 * (6.12-smp2: 5,746 of cpu0's NET_RX runs read negative).
 */
static struct task idle_tasks[MAX_CPUS];
static struct cpu cpus[MAX_CPUS];

static int idle_key(int c)
{
	return -1 - c;
}
static const struct model *M;
static struct rstats *R;
static int recording;

static struct task *task(int pid)
{
	struct task *t = pid < 0 ? &idle_tasks[(-1 - pid) % MAX_CPUS] :
			 &tasks[(unsigned int)pid % MAX_PID];

	if (!t->seen) {
		t->seen = 1;
		t->cpu = -1;
		t->irq = -1;
	}
	return t;
}

static void set_comm(int pid, const char *comm)
{
	struct task *t = task(pid);
	const char *p;

	if (pid >= 0)
		snprintf(R->comm[(unsigned int)pid % MAX_PID], 16, "%s", comm);
	t->kind = K_OTHER;
	t->irq = -1;
	t->backlog = !strncmp(comm, "backlog_napi/", 13);
	if (!strncmp(comm, "irq/", 4)) {
		t->kind = K_IRQ_THREAD;
		p = comm + 4;
		if (isdigit((unsigned char)*p))
			t->irq = atoi(p);
	} else if (!strncmp(comm, "ksoftirqd/", 10)) {
		t->kind = K_KSOFTIRQD;
	} else if (!strncmp(comm, "napi/", 5)) {
		/* netcost also asks its kthread function: only NAPI threads have this name */
		t->kind = K_NAPI_THREAD;
	}
}

/*
 * woken_task - the task of a sched_waking/sched_wakeup event, its name
 * taken from the event's comm= field (which runs up to " pid=")
 */
static struct task *woken_task(int pid, const char *cm)
{
	char comm[32];

	if (cm) {
		const char *e = strstr(cm, " pid=");

		snprintf(comm, sizeof(comm), "%.*s", e ? (int)(e - cm) : 15, cm);
		set_comm(pid, comm);
	}
	return task(pid);
}

/* bh_of - the softirq frames of task @pid, running on CPU @c */
static struct bh *bh_of(int c, int pid)
{
	struct task *t;

	if (pid < 0)
		return &cpus[c].idle_bh;
	t = task(pid);
	if (!t->bh) {
		t->bh = calloc(1, sizeof(*t->bh));
		if (!t->bh) {
			perror("oracle: calloc");
			exit(2);
		}
	}
	return t->bh;
}

/* hard and soft time the task has seen on its CPU while running, and its off-CPU time */
static double task_hard(const struct task *t)
{
	return t->hard_acc + (t->cpu >= 0 ? cpus[t->cpu].hard_total - t->hard_snap : 0);
}

static double task_soft(const struct task *t)
{
	return t->soft_acc + (t->cpu >= 0 ? cpus[t->cpu].soft_total - t->soft_snap : 0);
}

static double task_off(const struct task *t)
{
	return t->off_acc;
}

/* what a thread's run excludes: hard and soft time, off-CPU time */
static double task_excl(const struct task *t)
{
	return task_hard(t) + task_soft(t) + task_off(t);
}

/* ---- recording ---- */

/*
 * Interrupts between the two tools' probes.  At a tracepoint that runs
 * with interrupts on (softirq_entry/exit, the net events, sys_*), an
 * interrupt can come after netcost's probe and before ftrace's: it then
 * lies inside one tool's interval only, minus its handler's time, which
 * both subtract.  The trace shows it as an interrupt right before the
 * event, which is also what an interrupt just before both probes looks
 * like, so such an event has two readings: line_amb is, for a line that
 * follows an interrupt with nothing between and had interrupts on, the
 * most the interrupt can move netcost's stamp (from the line before the
 * interrupt, or AMB_GAP before it, to this one, less the handler's
 * time).  At an end netcost may read that much shorter, at a start that
 * much longer (record()).
 * Measured: 6.12-rt's tick after the HRTIMER softirq's wake-up, 273 of
 * 3,100 softirq_other runs, ~2,600 cycles each; in CI at 319321b 226 of
 * 3,010 recvfrom exits (syscall_rx, p99 two buckets apart); in CI at
 * 1ee5717 ~400 of 3,002 net_dev_start_xmit (6.12's tick, phase-locked to
 * the load: tx_xmit +4.14%).  Which events get it: amb_event(); how
 * close the interrupt must be, and how far back netcost's stamp may be:
 * AMB_GAP.
 */
static double line_amb, net_amb0;
/* for a run that took softirqs out: their second readings (task.run_amb_*) */
static double run_amb_short, run_amb_long;

/*
 * The other vCPU's turn between the tools' probes.  Under -icount the
 * vCPUs take turns on one host thread and share one clock: a CPU's next
 * line after another CPU logged lines comes after at least one turn of
 * that CPU, which ran while this one did not.  Most turns begin where a
 * vCPU halts or writes a device's register (in 7.3-rt-smp2: 2,998 of
 * the 4,671 turns taken by a busy CPU began at a transmit's doorbell,
 * 1,504 at the poll's interrupt enable before GRO's list), but one whose
 * budget ran out begins at any instruction, so it may fall between
 * netcost's probe and ftrace's at this line: netcost's stamp then
 * precedes the whole turn, by at most the time from this CPU's line
 * before (its stamp follows that line) to this one (line_turn: at an end
 * netcost reads that much shorter, at a start that much longer).  Rare:
 * in CI 66's 7.3-rt-smp2, cpu1's GRO list whose napi_poll line came
 * 116,877 cycles after that CPU's wake-up of netcost-gen on cpu0, the
 * woken task's system calls on cpu0 between: the replay read 122,536
 * cycles, netcost 7,282.  So the compare takes at most one event of a
 * stage (or of a _cycles counter) to have had a turn between the probes
 * (struct rev's turn_*), where line_amb's interrupts may be at
 * every event.  A turn of the other CPU that logs no line (user code, or
 * kernel code between events) is not seen: such a line reads one way.
 */
static double line_turn, net_turn0;

static double turn_amb(uint64_t ts, uint64_t prev, int foreign)
{
	return foreign && prev && ts > prev ? (double)(ts - prev) : 0;
}

/*
 * Where the turn fell at a wake-up.  The rule above (one event a stage)
 * held until a boot whose ticks came in step with the other vCPU's
 * budget: in a 7.3-rt-smp2 recording (0.14.0's oracle, run 1 of three),
 * cpu1's ksoftirqd/1 was woken in the tick's irq_exit at the same
 * instruction tick after tick, and about 100 of cpu1's 3,492 wake-ups
 * had cpu0's turn between netcost's sched_waking probe and ftrace's
 * event: netcost read +1,407 cycles a wake-up against a band of +40
 * (the replay's 122,880-cycle waits read 147,456 to 196,607).  So the
 * stub (record.sh, ncstub's "w" and "u" stamps) stamps every sched_waking
 * and sched_wakeup right after netcost's probe, before ftrace's event.
 * When another CPU logged a line after that stamp and before this line,
 * the turn fell after netcost's stamp: the start moves back by the
 * line's distance from the stamp beyond the usual one (wk_gap: the
 * median of the first lines without a turn).  A turn between netcost's
 * stamp and the stub's (one probe's return) is not seen: such a line
 * keeps its turn reading.  wake_stamp() returns the move (0 for none)
 * and sets *placed when the stamp settled where the turn fell.
 */
#define WK_GAPS 63
static struct {
	uint64_t v[WK_GAPS];
	int n;
} wk_gap[2];
/* each CPU's last line so far (replay_trace() keeps it) */
static uint64_t prev_ts[MAX_CPUS];

static double wk_usual(int k)
{
	uint64_t v[WK_GAPS];
	int n = wk_gap[k].n;

	memcpy(v, wk_gap[k].v, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_u64);
	return (double)v[n / 2];
}

static double wake_stamp(int c, uint64_t ts, int k, int *placed, uint64_t *stamp)
{
	struct cpu *p = &cpus[c];
	const uint64_t *v = k ? M->wk_u[c] : M->wk_w[c];
	size_t n = k ? M->wk_u_n[c] : M->wk_w_n[c];
	uint64_t last = p->wk_last[k], w;
	int o, split = 0;

	*placed = 0;
	*stamp = 0;
	p->wk_last[k] = ts;
	if (!M->wk_stamps)
		return 0;
	while (p->wk_i[k] < n && v[p->wk_i[k]] <= ts)
		p->wk_i[k]++;
	if (!p->wk_i[k] || v[p->wk_i[k] - 1] <= last)
		return 0;	/* no stamp of this line: it reads both ways */
	w = v[p->wk_i[k] - 1];
	*stamp = w;
	if (!line_turn) {
		if (wk_gap[k].n < WK_GAPS)
			wk_gap[k].v[wk_gap[k].n++] = ts - w;
		return 0;
	}
	/* ORACLE_NO_WAKE_STAMPS: the turn readings alone (tests/oracle/selftest) */
	if (M->wk_blind)
		return 0;
	for (o = 0; o < MAX_CPUS; o++)
		split |= o != c && prev_ts[o] > w && prev_ts[o] < ts;
	if (!split || !wk_gap[k].n)
		return 0;
	*placed = 1;
	return fmax((double)(ts - w) - wk_usual(k), 0);
}

static void record(int cpu, enum stage s, double v, uint64_t t0, uint64_t t1, int pid, int net)
{
	struct rhist *h = &R->h[cpu][s];
	double lo = v - line_amb - run_amb_short, hi = v + net_amb0 + run_amb_long;
	double tsh = line_turn, tlg = net_turn0;
	uint64_t u;

	net_amb0 = 0;
	net_turn0 = 0;
	run_amb_short = 0;
	run_amb_long = 0;
	if (!recording && !M->record_all)
		return;
	if (v - lo > 0 || hi > v) {
		h->amb_short += v - lo;
		h->amb_long += hi - v;
		h->namb++;
	}
	if (v < 0) {
		if (net)
			R->c[cpu][C_CLAMPED_NEGATIVE]++;
		v = 0;
	}
	u = (uint64_t)(v + 0.5);
	if (!h->count || u < h->min)
		h->min = u;
	if (u > h->max)
		h->max = u;
	h->count++;
	h->sum += u;
	h->b[hist_index(u)]++;
	if (h->nev == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 1024;
		h->ev = realloc(h->ev, h->cap * sizeof(*h->ev));
		if (!h->ev) {
			perror("oracle: realloc");
			exit(2);
		}
	}
	h->ev[h->nev++] = (struct rev){ t0, t1, u, lo > 0 ? (uint64_t)(lo + 0.5) : 0,
					(uint64_t)((hi < 0 ? 0 : hi) + 0.5),
					(uint64_t)(tsh + 0.5), (uint64_t)(tlg + 0.5),
					pid < 0 ? 0 : pid };
}

static void count(int cpu, enum counter c, uint64_t n)
{
	if (recording || M->record_all)
		R->c[cpu][c] += n;
}

/* ---- the cost model: netcost's timestamp at a hook point, from ftrace's ---- */

/*
 * ftrace's ring buffer: the event that does not fit in its page moves
 * the writer to the next page and takes its timestamp after that move,
 * the page's first event (read_page_starts()).  At a tracepoint,
 * ftrace's probe runs after netcost's stamp, so the move lies between
 * the two: that event's timestamp is M->ps_cost later than it would be.
 * At a kprobe ftrace's handler runs first, the move lies before both
 * tools' stamps, and nothing is moved.
 */
static const uint64_t *page_ts;
static size_t page_n, page_i;
static uint64_t line_ts;
static int line_page_first;

static double page_move(uint64_t ts)
{
	return ts == line_ts && line_page_first ? M->ps_cost : 0;
}

/*
 * At a tracepoint netcost's probe runs first (it registered first).  It
 * takes an interval's start as its last act: ftrace's timestamp follows
 * at once, offset 0.  It takes an interval's end as its first act:
 * ftrace's timestamp is one netcost probe later, offset -N.  At a hook
 * netcost does not attach, there is nothing in between: offset 0.
 */
static double tp_start(uint64_t ts)
{
	return (double)ts - page_move(ts);
}

/*
 * wk_start - a wake-up's start in the model's times.  With the stub's
 * wake-up probes in the recording, one probe more runs between netcost's
 * stamp and ftrace's event: E of it (e_sw, the stub's own measure of a
 * probe's step, record.sh's stub phase).
 */
static double wk_start(uint64_t ts)
{
	return tp_start(ts) - (M->wk_stamps ? M->e_sw : 0);
}

static double probe_cost(const char *tp)
{
	/* these probes find the task in netcost's task table */
	if (!strcmp(tp, "sys_exit") || !strcmp(tp, "sched_switch") || !strcmp(tp, "sched_waking"))
		return M->n_sys;
	return M->n_cpu;
}

/*
 * An end stamp: netcost's work before it (the call into its probe, its
 * first test: about its cheapest probe, n_min) is inside both tools'
 * intervals; only the rest of its probe lies between the two stamps.
 */
static double tp_end_n(uint64_t ts, const char *tp, double n)
{
	return (double)ts - page_move(ts) - (model_hooked(M, tp) ? n - M->n_min : 0);
}

static double tp_end(uint64_t ts, const char *tp)
{
	return tp_end_n(ts, tp, probe_cost(tp));
}

/*
 * At a kprobe address ftrace's handler runs first (newest first), then
 * netcost's, which takes its timestamp at once: offset +K.  netcost's
 * own ftrace_ops at finish_task_switch runs after ftrace's kprobes, one
 * step of ftrace's list function later: +K + d_fts (measured in-run).
 * At a kretprobe entry netcost's entry handler stamps after its work:
 * +K+N.  At the kretprobe return netcost's handler runs first: -N.
 */
static double kp_at(uint64_t ts, const char *sym)
{
	return (double)ts + (model_hooked(M, sym) ? M->k_fts + M->d_fts : 0);
}

static double krp_entry(uint64_t ts, const char *sym)
{
	return (double)ts + (model_hooked(M, sym) ? M->k_thr + M->n_sys : 0);
}

/*
 * netcost's fentry hooks (0.4.0) share its one ftrace_ops, which runs
 * after ftrace's kprobes at every site, the same step of ftrace's list
 * function later (d_fts, measured at finish_task_switch).  An IRQ thread
 * run's start stamps after the hook's work (+K + d + N), its end at
 * kthread_should_stop() first (+K + d).
 */
static double fe_entry(uint64_t ts, const char *sym)
{
	return (double)ts + (model_hooked(M, sym) ? M->k_thr + M->d_fts + M->n_sys : 0);
}

static double fe_at(uint64_t ts, const char *sym, double k)
{
	return (double)ts + (model_hooked(M, sym) ? k + M->d_fts : 0);
}

static double krp_return(uint64_t ts, const char *sym)
{
	return (double)ts - (model_hooked(M, sym) ? M->n_sys - M->n_min : 0);
}

/*
 * irq_exit_missed - on a stock kernel, an irq_handler_exit, or a system
 * vector's exit event (@vk 2: vector_of()), is followed by
 * irq_exit_rcu_e (another action's irq_handler_entry on a shared line,
 * or an NMI, may come between): interrupts stay off until
 * irq_exit() runs softirqs.  An interrupt inside a kprobe handler (ftrace's
 * own, at kthread_should_stop in ksoftirqd's loop, say) has its nested
 * kprobe events missed: no irq_exit_rcu_e, and the softirq runs that
 * follow at once, back to back, are at that irq_exit() (exit_inferred,
 * until another event follows a softirq_exit).  The compare checks the
 * count against the kprobe's own missed hits (kprobe_profile).
 */
static void irq_exit_missed(struct rstats *rs, int c, const char *prev, const char *ev, int vk)
{
	struct cpu *p = &cpus[c];

	if (p->exit_inferred && !strcmp(prev, "softirq_exit") && strcmp(ev, "softirq_entry"))
		p->exit_inferred = 0;
	if (p->await_exit && strcmp(ev, "irq_handler_entry") && strcmp(ev, "nmi_handler")) {
		p->await_exit = 0;
		if (M->stock && M->exit_kprobe && !strcmp(ev, "softirq_entry")) {
			p->exit_inferred = 1;
			rs->exit_inferred++;
		}
	}
	if (p->exit_inferred && !strcmp(ev, "softirq_entry"))
		rs->exit_inferred_runs++;
	if (!strcmp(ev, "irq_handler_exit"))
		p->await_exit = 1;
	/* a system vector's exit, but the reschedule IPI's (no irq_exit()) */
	if (vk == 2 && strcmp(ev, "reschedule_exit"))
		p->await_exit = 1;
}

/* ---- parsing helpers ---- */

static const char *arg(const char *args, const char *key)
{
	size_t n = strlen(key);
	const char *p = args;

	while ((p = strstr(p, key))) {
		if ((p == args || p[-1] == ' ' || p[-1] == '(') && p[n] == '=')
			return p + n + 1;
		p += n;
	}
	return NULL;
}

static long argl(const char *args, const char *key, long dflt)
{
	const char *p = arg(args, key);

	return p ? strtol(p, NULL, 0) : dflt;
}

static int argis(const char *args, const char *key, const char *val)
{
	const char *p = arg(args, key);
	size_t n = strlen(val);

	return p && !strncmp(p, val, n) && (p[n] == ' ' || !p[n]);
}

static int is_nic_name(const char *name)
{
	int i;

	for (i = 0; i < M->nnic_names; i++) {
		size_t n = strlen(M->nic_names[i]);

		if (!strncmp(name, M->nic_names[i], n) && (!name[n] || name[n] == '-'))
			return 1;
	}
	return 0;
}

static const char *const vectors[] = {
	"local_timer", "reschedule", "call_function", "call_function_single",
	"irq_work", "x86_platform_ipi", "spurious_apic", "error_apic",
	"thermal_apic", "threshold_apic", "deferred_error_apic", NULL,
};

/* vector_of - "local_timer_entry" -> 1 (entry) / 2 (exit), 0 if no system vector */
static int vector_of(const char *ev, char *vec, size_t len)
{
	int i;

	for (i = 0; vectors[i]; i++) {
		size_t n = strlen(vectors[i]);

		if (strncmp(ev, vectors[i], n) || ev[n] != '_')
			continue;
		snprintf(vec, len, "%s", vectors[i]);
		if (!strcmp(ev + n, "_entry"))
			return 1;
		if (!strcmp(ev + n, "_exit"))
			return 2;
	}
	return 0;
}

static int is_rx_entry(const char *ev)
{
	return !strcmp(ev, "netif_receive_skb_entry") || !strcmp(ev, "napi_gro_receive_entry") ||
	       !strcmp(ev, "netif_rx_entry") || !strcmp(ev, "netif_receive_skb_list_entry") ||
	       !strcmp(ev, "napi_gro_frags_entry");
}

static int is_rx_exit(const char *ev)
{
	return !strcmp(ev, "netif_receive_skb_exit") || !strcmp(ev, "napi_gro_receive_exit") ||
	       !strcmp(ev, "netif_rx_exit") || !strcmp(ev, "netif_receive_skb_list_exit") ||
	       !strcmp(ev, "napi_gro_frags_exit");
}

static int sys_stage(long nr)
{
	switch (nr) {
	case 45: case 47: case 299:	/* recvfrom recvmsg recvmmsg */
		return ST_SYSCALL_RX;
	case 44: case 46: case 307:	/* sendto sendmsg sendmmsg */
		return ST_SYSCALL_TX;
	}
	return -1;
}

/* ---- frames ---- */

static void frame_open(struct frame *f, int owner, double t0, uint64_t raw)
{
	struct task *t = task(owner);

	f->open = 1;
	f->owner = owner;
	f->t0 = t0;
	f->h0 = task_hard(t);
	f->o0 = task_off(t);
	f->raw = raw;
	f->amb0 = line_amb;
	f->turn0 = line_turn;
}

static double frame_net(const struct frame *f, double t1)
{
	struct task *t = task(f->owner);

	net_amb0 = f->amb0;
	net_turn0 = f->turn0;
	return (t1 - f->t0) - (task_hard(t) - f->h0) - (task_off(t) - f->o0);
}

/*
 * take_run_amb - task @t's run ends: the second readings of the softirqs
 * it took out go with its record (and, turned round, with counter @ctr,
 * the sum of what it took out; -1: none)
 */
static void take_run_amb(int c, struct task *t, int ctr)
{
	run_amb_short = t->run_amb_short;
	run_amb_long = t->run_amb_long;
	if (ctr >= 0 && (recording || M->record_all)) {
		R->camb_short[c][ctr] += t->run_amb_long;
		R->camb_long[c][ctr] += t->run_amb_short;
	}
	t->run_amb_short = 0;
	t->run_amb_long = 0;
}

/* ---- events ---- */

static void ev_hard_entry(int c, uint64_t ts, int irq, const char *vec, int nic)
{
	struct cpu *p = &cpus[c];

	p->hard_open = 1;
	p->hard_irq = irq;
	p->hard_nic = nic;
	snprintf(p->hard_vec, sizeof(p->hard_vec), "%s", vec);
	p->hard_t0 = tp_start(ts);
	p->hard_raw = ts;
}

static void ev_hard_exit(int c, uint64_t ts, int irq, const char *vec, const char *tp, int pid)
{
	struct cpu *p = &cpus[c];
	double v;

	if (!p->hard_open || p->hard_irq != irq || strcmp(p->hard_vec, vec))
		return;
	p->hard_open = 0;
	v = tp_end(ts, tp) - p->hard_t0;
	if (v < 0)
		v = 0;
	p->hard_total += v;
	if (irq < 0) {
		record(c, ST_HARDIRQ_VECTORS, v, p->hard_raw, ts, pid, 0);
	} else if (p->hard_nic) {
		record(c, ST_HARDIRQ, v, p->hard_raw, ts, pid, 0);
		count(c, C_NIC_IRQS, 1);
	} else {
		record(c, ST_HARDIRQ_OTHER, v, p->hard_raw, ts, pid, 0);
	}
}

static void ev_softirq_entry(int c, uint64_t ts, int vec, int pid)
{
	struct bh *p = bh_of(c, pid);
	struct task *t = task(pid);

	frame_open(&p->sirq, pid, tp_start(ts), ts);
	p->sirq_vec = vec;
	if (cpus[c].irq_exit_depth > 0 || cpus[c].exit_inferred)
		p->sirq_where = C_NET_RX_IN_IRQ_EXIT;
	else if (t->kind == K_KSOFTIRQD)
		p->sirq_where = C_NET_RX_IN_KSOFTIRQD;
	else if (t->kind == K_IRQ_THREAD && t->thr_open)
		p->sirq_where = C_NET_RX_IN_IRQ_THREAD;
	else if (t->kind == K_IRQ_THREAD)
		p->sirq_where = C_NET_RX_IN_OTHER_IRQ_THREAD;
	else if (t->kind == K_NAPI_THREAD || t->backlog)
		p->sirq_where = C_NET_RX_IN_NAPI_THREAD;
	else
		p->sirq_where = C_NET_RX_IN_TASK_BH_ENABLE;
	if (vec == 3)
		frame_open(&p->napi, pid, tp_start(ts), ts);
}

/*
 * GRO's lists (netcost 0.8.0): the packets GRO passed on reach the stack
 * in lists, at the poll's end (napi_complete_done(), gro_normal_list())
 * with no entry event; a netif_receive_skb event outside any rx frame
 * opens one, which holds the list, and the poll's napi_poll event (or the
 * next entry, NET_RX's exit, a NAPI thread's next mark) ends it.
 */
static int rx_counted_levels(const struct bh *p);

/* rx_marked_end - the rx frame no exit closes (a list, a backlog's packet) ends at @end */
static void rx_marked_end(int c, struct bh *p, double end, uint64_t ts)
{
	p->rx_flush = 0;
	p->rx_backlog = 0;
	if (p->rx.open) {
		p->rx.open = 0;
		record(c, ST_RX_SKB, frame_net(&p->rx, end), p->rx.raw, ts, p->rx.owner, 1);
	}
}

static void rx_flush_end(int c, struct bh *p, double end, uint64_t ts)
{
	if (p->rx_flush)
		rx_marked_end(c, p, end, ts);
}

static void ev_softirq_exit(int c, uint64_t ts, int vec, int pid)
{
	struct bh *p = bh_of(c, pid);
	struct task *t;
	double net, rec;

	if (!p->sirq.open || p->sirq_vec != vec)
		return;
	/* a list GRO flushed after the last poll's event */
	if (vec == 3)
		rx_flush_end(c, p, tp_end(ts, "softirq_exit"), ts);
	net = frame_net(&p->sirq, tp_end(ts, "softirq_exit"));
	p->sirq.open = 0;
	p->napi.open = 0;
	rec = net < 0 ? 0 : net;
	cpus[c].soft_total += rec;
	t = task(p->sirq.owner);
	if (t->thr_open || t->nthr_open || t->sys_open) {
		t->run_amb_long += line_amb;
		t->run_amb_short += net_amb0;
	}
	if (vec == 3) {
		/* the run's second reading (line_amb) goes with its place's cycles too */
		if (recording || M->record_all) {
			R->camb_short[c][p->sirq_where + 1] += line_amb;
			R->camb_long[c][p->sirq_where + 1] += net_amb0;
			R->cturn_short[c][p->sirq_where + 1] =
				fmax(R->cturn_short[c][p->sirq_where + 1], line_turn);
			R->cturn_long[c][p->sirq_where + 1] =
				fmax(R->cturn_long[c][p->sirq_where + 1], net_turn0);
		}
		record(c, ST_SOFTIRQ_NET_RX, net, p->sirq.raw, ts, p->sirq.owner, 1);
		count(c, p->sirq_where, 1);
		count(c, p->sirq_where + 1, (uint64_t)(rec + 0.5));
	} else {
		record(c, vec == 2 ? ST_SOFTIRQ_NET_TX : ST_SOFTIRQ_OTHER, net,
		       p->sirq.raw, ts, p->sirq.owner, 1);
	}
}

/* whether task @pid's napi_poll event is a poll of its NET_RX softirq run */
static int napi_in_softirq(const struct bh *p, int pid)
{
	return p->napi.open && p->napi.owner == pid;
}

/*
 * Threaded NAPI (netcost 0.5.0): a NAPI thread's run goes from one
 * kthread_should_stop() to the first one after a poll, and the next run
 * starts at the same stamp; its polls (a napi_poll event in the thread
 * outside a NET_RX softirq: netcost asks napi->thread == current, which
 * a NAPI thread's poll of its own instance is) are timed from the run's
 * start or the previous poll.  Both net of hard, soft and off-CPU time;
 * napi_thread_excl_cycles sums what a run took out but the time off CPU.
 */
static void ev_napi_thread_poll(int c, uint64_t ts, int pid)
{
	struct task *t = task(pid);
	double end;

	if (t->kind != K_NAPI_THREAD || !t->nthr_open)
		return;
	/*
	 * netcost stamps first in its napi_poll probe, whose work after the
	 * stamp is, in a NAPI thread, more than the per-CPU frame probe's N:
	 * it finds the task and closes the poll there (n_poll_thr, measured)
	 */
	end = tp_end_n(ts, "napi_poll", M->n_poll_thr);
	record(c, ST_NAPI_POLL, (end - t->npoll_t0) - (task_excl(t) - t->npoll_x0), t->npoll_raw, ts, pid, 1);
	t->npoll_t0 = end;
	t->npoll_x0 = task_excl(t);
	t->npoll_raw = ts;
	t->nthr_polled = 1;
}

static void ev_napi_thread_mark(int c, uint64_t ts, int pid)
{
	struct task *t = task(pid);
	double at = fe_at(ts, "kthread_should_stop", M->k_kss);

	rx_flush_end(c, bh_of(c, pid), at, ts);
	if (t->nthr_open && t->nthr_polled) {
		double ex = task_excl(t) - t->nthr_x0;

		take_run_amb(c, t, C_NAPI_THREAD_EXCL_CYCLES);
		record(c, ST_NAPI_THREAD, (at - t->nthr_t0) - ex, t->nthr_raw, ts, pid, 1);
		/* the interrupts and softirqs: the excluded time but the off-CPU */
		count(c, C_NAPI_THREAD_EXCL_CYCLES,
		      (uint64_t)(ex - (task_off(t) - t->nthr_o0) + 0.5));
		t->nthr_open = 0;
	}
	if (!t->nthr_open) {
		t->nthr_open = 1;
		t->nthr_polled = 0;
		t->run_amb_short = 0;
		t->run_amb_long = 0;
		t->nthr_t0 = at;
		t->nthr_x0 = task_excl(t);
		t->nthr_o0 = task_off(t);
		t->nthr_raw = ts;
	}
	t->npoll_t0 = at;
	t->npoll_x0 = task_excl(t);
	t->npoll_raw = ts;
}

/*
 * A backlog's packets (netcost 0.8.0; recordings with RPS): from the
 * kprobe event at process_backlog() to the poll's napi_poll event, each
 * netif_receive_skb event of that task outside another packet's entry
 * ends the previous packet's frame and opens its own.
 */
static void backlog_close(int c, struct bh *p, double end, uint64_t ts)
{
	if (p->rx_backlog && !rx_counted_levels(p))
		rx_marked_end(c, p, end, ts);
}

static void ev_rx_core(int c, uint64_t ts, const char *args, int pid)
{
	struct bh *p = bh_of(c, pid);

	if (cpus[c].backlog_on && cpus[c].backlog_pid == pid) {
		if (rx_counted_levels(p) || p->rx_flush)
			return;
		/* netcost stamps first there: an end, then a start */
		backlog_close(c, p, tp_end(ts, "netif_receive_skb"), ts);
		if (argis(args, "dev", "lo"))
			return;
		count(c, C_RX_BACKLOG_PACKETS, 1);
		frame_open(&p->rx, pid, tp_start(ts), ts);
		p->rx_backlog = 1;
		return;
	}
	if (rx_counted_levels(p) || p->rx_flush || p->rx_backlog || argis(args, "dev", "lo"))
		return;
	frame_open(&p->rx, pid, tp_start(ts), ts);
	p->rx_flush = 1;
}

static void ev_napi_poll(int c, uint64_t ts, const char *args, int pid)
{
	struct bh *p = bh_of(c, pid);
	const char *w = strstr(args, " work "), *b = strstr(args, " budget ");
	long work = w ? strtol(w + 6, NULL, 10) : 0;
	long budget = b ? strtol(b + 8, NULL, 10) : 0;
	double end;

	/* netcost ends a backlog's packet and the list at its napi_poll stamp, the poll's own */
	end = napi_in_softirq(p, pid) ? tp_end_n(ts, "napi_poll", M->n_poll_sirq) :
	      task(pid)->kind == K_NAPI_THREAD ? tp_end_n(ts, "napi_poll", M->n_poll_thr) :
	      tp_end(ts, "napi_poll");
	if (cpus[c].backlog_on && cpus[c].backlog_pid == pid) {
		cpus[c].backlog_on = 0;
		backlog_close(c, p, end, ts);
	}
	rx_flush_end(c, p, end, ts);
	record(c, ST_NAPI_POLL_WORK, work > 0 ? work : 0, ts, ts, pid, 0);
	if (b && work >= budget)
		count(c, C_NAPI_BUDGET_EXHAUSTED, 1);
	if (napi_in_softirq(p, pid)) {
		record(c, ST_NAPI_POLL, frame_net(&p->napi, end), p->napi.raw, ts, pid, 1);
		frame_open(&p->napi, pid, tp_start(ts), ts);
		return;
	}
	ev_napi_thread_poll(c, ts, pid);
}

static int rx_counted_levels(const struct bh *p)
{
	int i, n = 0;

	for (i = 0; i < p->rx_depth; i++)
		n += p->rx_stack[i] != RX_SKIP;
	return n;
}

static void ev_rx_entry(int c, uint64_t ts, const char *ev, const char *args, int pid)
{
	struct bh *p = bh_of(c, pid);
	int list = !strcmp(ev, "netif_receive_skb_list_entry");

	if (argis(args, "dev", "lo")) {
		if (p->rx_depth < 64)
			p->rx_stack[p->rx_depth++] = RX_SKIP;
		p->rx_last_list = 0;
		return;
	}
	count(c, C_RX_PACKETS, 1);
	/* the skbs of one list: one entry each, one exit for the list */
	if (list && p->rx_last_list && p->rx_depth && p->rx_stack[p->rx_depth - 1] == RX_LIST)
		return;
	p->rx_last_list = list;
	rx_flush_end(c, p, tp_start(ts), ts);
	/* inside a backlog's packet: nested, as in any entry */
	if (!rx_counted_levels(p) && !p->rx_backlog)
		frame_open(&p->rx, pid, tp_start(ts), ts);
	if (p->rx_depth < 64)
		p->rx_stack[p->rx_depth++] = list ? RX_LIST : RX_ONE;
}

static void ev_rx_exit(int c, uint64_t ts, const char *ev, int pid)
{
	struct bh *p = bh_of(c, pid);
	int lvl;

	p->rx_last_list = 0;
	if (!p->rx_depth)
		return;
	lvl = p->rx_stack[--p->rx_depth];
	if (lvl != RX_SKIP && !rx_counted_levels(p) && p->rx.open && !p->rx_backlog) {
		p->rx.open = 0;
		record(c, ST_RX_SKB, frame_net(&p->rx, tp_end(ts, ev)), p->rx.raw, ts, p->rx.owner, 1);
	}
}

static void ev_tx(int c, uint64_t ts, const char *ev, const char *args, int pid)
{
	struct bh *p = bh_of(c, pid);

	if (argis(args, "dev", "lo"))
		return;
	if (!strcmp(ev, "net_dev_start_xmit")) {
		count(c, C_TX_PACKETS, 1);
		if (!p->tx_depth++)
			frame_open(&p->tx, pid, tp_start(ts), ts);
		return;
	}
	if (p->tx_depth && !--p->tx_depth && p->tx.open) {
		p->tx.open = 0;
		record(c, ST_TX_XMIT, frame_net(&p->tx, tp_end(ts, "net_dev_xmit")), p->tx.raw, ts,
		       p->tx.owner, 1);
	}
}

/* ---- waiting: runqueue waits and sleeps of load tasks, IRQ threads, ksoftirqd ---- */

/*
 * What a task is, as the one on a CPU.  SCHED_IDLE (the soak's class)
 * does not show in the trace: the oracle's load runs no soak.
 */
static int wclass(int pid, const struct task *t)
{
	if (pid < 0)
		return CL_IDLE;
	if (t->kind == K_IRQ_THREAD || t->kind == K_NAPI_THREAD)
		return CL_IRQ_THREAD;
	if (t->kind == K_KSOFTIRQD)
		return CL_KSOFTIRQD;
	return t->load ? CL_LOAD : CL_OTHER;
}

/* the stage a task's runqueue waits go to, or -1: not followed */
static int wstage(const struct task *t)
{
	/* NAPI threads are followed as IRQ threads */
	if (t->kind == K_IRQ_THREAD || t->kind == K_NAPI_THREAD)
		return ST_RUNQ_WAIT_IRQ_THREAD;
	if (t->kind == K_KSOFTIRQD)
		return ST_RUNQ_WAIT_KSOFTIRQD;
	return t->load ? ST_RUNQ_WAIT_LOAD : -1;
}

/* t joins cpu's runqueue at (model time) at */
static void wait_queued(struct task *t, int cpu, double at, uint64_t raw, double turn)
{
	const struct cpu *p = &cpus[cpu];
	int i;

	for (i = 0; i < NCLASSES; i++)
		t->wait_snap[i] = p->cls_acc[i];
	if (p->cls_seen && at > p->cls_since)
		t->wait_snap[p->cls_cur] += at - p->cls_since;
	t->wait_cpu = cpu;
	t->wait_t = at;
	t->wait_raw = raw;
	t->wait_turn = turn;
	t->wstate = W_RUNQ;
}

/*
 * sched_switch at (model time) out: the CPU's time since the last switch
 * goes to the class of the task that ran; prev starts a wait (queued
 * when it leaves runnable, R or R+; a load task that leaves asleep
 * starts a sleep); next's runqueue wait ends.
 */
static void wait_switch(int c, uint64_t ts, double out, int prev, int next, const char *st)
{
	struct cpu *p = &cpus[c];
	struct task *tp = task(prev), *tn = task(next);
	int runnable = st && st[0] == 'R', dead = st && (st[0] == 'X' || st[0] == 'Z');
	int i, s;

	if (p->cls_seen)
		p->cls_acc[p->cls_cur] += out - p->cls_since;
	p->cls_seen = 1;
	p->cls_since = out;
	p->cls_cur = wclass(next, tn);

	if (dead) {
		/* the task left (netcost frees its slot at sched_process_exit) */
		tp->load = 0;
		tp->wstate = W_NONE;
	} else if (wstage(tp) >= 0) {
		if (runnable) {
			wait_queued(tp, c, out, ts, line_turn);
		} else if (tp->load) {
			tp->wstate = W_BLOCKED;
			tp->wait_t = out;
			tp->wait_raw = ts;
		} else {
			tp->wstate = W_NONE;
		}
	}

	s = wstage(tn);
	if (s >= 0 && tn->wstate == W_RUNQ) {
		double v = out - tn->wait_t;

		/*
		 * a turn at its start (netcost reads longer) or at this end
		 * (shorter): the stage's, and its classes' counters' (one
		 * event each, as every turn reading)
		 */
		for (i = C_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES;
		     (recording || M->record_all) && i <= C_RUNQ_WAIT_BEHIND_OTHER_CYCLES; i++) {
			R->cturn_long[c][i + 1] = fmax(R->cturn_long[c][i + 1], tn->wait_turn);
			R->cturn_short[c][i + 1] = fmax(R->cturn_short[c][i + 1], line_turn);
		}
		net_turn0 = tn->wait_turn;
		record(c, s, v, tn->wait_raw, ts, next, 1);
		if (v < 0)
			v = 0;
		if (tn->wait_cpu != c) {
			count(c, C_RUNQ_WAIT_BEHIND_OTHER_CYCLES, (uint64_t)(v + 0.5));
		} else {
			/* per class, rounded so that the classes add up to the wait */
			double done = 0;
			uint64_t sum = 0, r;

			for (i = 0; i < NCLASSES; i++) {
				done += p->cls_acc[i] - tn->wait_snap[i];
				r = (uint64_t)(done + 0.5) - sum;
				count(c, C_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES + i, r);
				sum += r;
			}
		}
	}
	if (s >= 0)
		tn->wstate = W_NONE;
}

/*
 * sched_waking of a load task: who wakes it, from the line's context
 * flags (h/H/z/Z: hardirq or NMI, s: serving a softirq) and its task;
 * its next sched_wakeup takes the note.
 */
static void wait_waking(int pid, const char *flags, const char *args)
{
	struct task *t = task((int)argl(args, "pid", -1)), *w = task(pid);

	if (!t->load)
		return;
	if (strpbrk(flags, "hHzZ"))
		t->waker = WK_HARDIRQ;
	else if (w->kind == K_IRQ_THREAD || w->kind == K_NAPI_THREAD)
		t->waker = WK_IRQ_THREAD;
	else if (w->kind == K_KSOFTIRQD)
		t->waker = WK_KSOFTIRQD;
	else if (strchr(flags, 's'))
		t->waker = WK_SOFTIRQ;
	else
		t->waker = w->load ? WK_LOAD : WK_OTHER;
}

/*
 * sched_wakeup(_new): the task joins target_cpu's runqueue; a sleep ends.
 * netcost stamps it after its look-ups, near its probe's end: offset 0.
 */
static void ev_sched_wakeup(int c, uint64_t ts, const char *args)
{
	int pid = (int)argl(args, "pid", -1), cpu = (int)argl(args, "target_cpu", c), placed;
	uint64_t stamp;
	double at = wk_start(ts) - wake_stamp(c, ts, 1, &placed, &stamp);
	struct task *t;
	int wk;

	if (pid < 0)
		return;
	t = woken_task(pid, arg(args, "comm"));
	wk = t->waker;
	t->waker = WK_NONE;
	if (wstage(t) < 0 || t->wstate == W_RUNQ)
		return;
	if (t->wstate == W_BLOCKED) {
		double v = at - t->wait_t;

		record(c, ST_BLOCKED_LOAD, v, t->wait_raw, ts, pid, 1);
		if (wk == WK_NONE)
			wk = WK_OTHER;
		count(c, C_BLOCKED_LOAD_WOKEN_BY_HARDIRQ + 2 * (wk - WK_HARDIRQ), 1);
		count(c, C_BLOCKED_LOAD_WOKEN_BY_HARDIRQ + 2 * (wk - WK_HARDIRQ) + 1,
		      (uint64_t)((v < 0 ? 0 : v) + 0.5));
	}
	if (cpu < 0 || cpu >= MAX_CPUS)
		cpu = c;
	wait_queued(t, cpu, at, ts, placed ? 0 : line_turn);
}

/*
 * Where netcost's frames pause at a switch (Documentation/stages.md,
 * "time off CPU"): its sched_switch probe's first act.  The stub's probe
 * runs just before netcost's (record.sh, phase B) and stamps as its first
 * act: netcost's stamp is one probe's step (e_sw) later, which in the
 * model's times (ftrace's) is p_sw later still.  The stub's stamp of this
 * switch is the CPU's last one before ftrace's event, after its previous
 * switch.  Without stamps (ftrace's own times, or netcost not at
 * sched_switch): @out.  A switch without its stamp is counted
 * (sw_pause_missed: compare.c fails on it) and placed at @out.
 */
static double sw_pause(int c, uint64_t ts, double out)
{
	struct cpu *p = &cpus[c];
	const uint64_t *v = M->sw_s[c];
	size_t n = M->sw_s_n[c];
	uint64_t last = p->sw_last;

	p->sw_last = ts;
	if (!M->sw_stamps || !model_hooked(M, "sched_switch"))
		return out;
	while (p->sw_si < n && v[p->sw_si] < ts)
		p->sw_si++;
	if (!p->sw_si || v[p->sw_si - 1] <= last) {
		R->sw_pause_missed++;
		return out;
	}
	R->sw_pause++;
	return (double)v[p->sw_si - 1] + M->e_sw + M->p_sw;
}

/*
 * Where netcost's frames resume: its finish_task_switch() hook's last
 * act.  The stub's ftrace_ops callback is called right after netcost's
 * and stamps as its first act, l_sw after netcost's last act: its first
 * stamp on the CPU after the fts event @ts, before the CPU's next
 * switch.  Without stamps: @in.
 */
static double sw_resume(int c, uint64_t ts, double in, const char *sym)
{
	struct cpu *p = &cpus[c];
	const uint64_t *v = M->sw_f[c];
	size_t n = M->sw_f_n[c];

	if (!M->sw_stamps || !model_hooked(M, sym))
		return in;
	while (p->sw_fi < n && v[p->sw_fi] <= ts)
		p->sw_fi++;
	/* one switch-in's callbacks run with interrupts off: far below 100,000 */
	if (p->sw_fi == n || v[p->sw_fi] - ts > 100000) {
		R->sw_resume_missed++;
		return in;
	}
	R->sw_resume++;
	return (double)v[p->sw_fi] - M->l_sw + M->p_sw;
}

static void ev_sched_switch(int c, uint64_t ts, const char *args)
{
	struct cpu *p = &cpus[c];
	int prev = (int)argl(args, "prev_pid", -1), next = (int)argl(args, "next_pid", -1);
	const char *st = arg(args, "prev_state");
	const char *nc = arg(args, "next_comm"), *pc = arg(args, "prev_comm");
	struct task *tp, *tn;
	char comm[32];
	double out = tp_end(ts, "sched_switch");

	if (prev < 0 || next < 0)
		return;
	/* the idle task of this CPU */
	if (!prev)
		prev = idle_key(c);
	if (!next)
		next = idle_key(c);
	/* comms: "prev_comm=X prev_pid=" (a comm may hold spaces) */
	if (pc) {
		const char *e = strstr(pc, " prev_pid=");
		snprintf(comm, sizeof(comm), "%.*s", e ? (int)(e - pc) : 15, pc);
		set_comm(prev, comm);
	}
	if (nc) {
		const char *e = strstr(nc, " next_pid=");
		snprintf(comm, sizeof(comm), "%.*s", e ? (int)(e - nc) : 15, nc);
		set_comm(next, comm);
	}
	tp = task(prev);
	tn = task(next);
	/*
	 * Documentation/stages.md, ctx_switch: a switch into or out of a
	 * packet-path task (an IRQ or NAPI thread, RT's backlog threads,
	 * ksoftirqd, a load task) is ctx_switch, any other ctx_switch_other;
	 * read before wait_switch(), which forgets a dead task's load
	 */
	p->ss_stage = tp->kind != K_OTHER || tn->kind != K_OTHER || tp->backlog || tn->backlog ||
		      tp->load || tn->load ? ST_CTX_SWITCH : ST_CTX_SWITCH_OTHER;
	wait_switch(c, ts, out, prev, next, st);

	count(c, C_CTX_SWITCHES, 1);
	if (tp->kind == K_IRQ_THREAD || tn->kind == K_IRQ_THREAD)
		count(c, C_CTX_SWITCHES_IRQ_THREAD, 1);
	if (tp->kind == K_KSOFTIRQD || tn->kind == K_KSOFTIRQD)
		count(c, C_CTX_SWITCHES_KSOFTIRQD, 1);

	/* prev goes off CPU: from here to its next finish_task_switch */
	if (tp->cpu >= 0) {
		tp->hard_acc += p->hard_total - tp->hard_snap;
		tp->soft_acc += p->soft_total - tp->soft_snap;
	}
	tp->cpu = -1;
	tp->off = 1;
	tp->off_since = sw_pause(c, ts, out);
	tp->on_rq = st && st[0] == 'R';

	/* wakeup_latency ends when the thread is put on the CPU */
	if (tn->waking) {
		/*
		 * ORACLE_SHOW_WAKE_TURNS: a start after a turn that the stub's
		 * stamp did not place, that stamp, the CPU's line before, and
		 * the usual distance from a stamp to ftrace's line (the
		 * selftest moves the stamp before the turn)
		 */
		if (M->wk_show && recording && tn->waking_turn && tn->waking_stamp && wk_gap[0].n)
			printf("# wake turn: cpu%d %llu %llu %.0f %.0f\n", c,
			       (unsigned long long)tn->waking_raw, (unsigned long long)tn->waking_stamp,
			       (double)tn->waking_raw - tn->waking_turn, wk_usual(0));
		net_turn0 = tn->waking_turn;
		record(c, ST_WAKEUP_LATENCY, out - tn->waking_t, tn->waking_raw, ts, next, 1);
		tn->waking = 0;
	}
	tn->on_rq = 1;
	tn->cpu = c;
	tn->hard_snap = p->hard_total;
	tn->soft_snap = p->soft_total;

	p->ss_pending = 1;
	p->ss_t = tp_start(ts);
	p->ss_raw = ts;
	p->curr = next;
}

static void ev_finish_task_switch(int c, uint64_t ts, int pid, const char *sym)
{
	struct cpu *p = &cpus[c];
	struct task *t = task(pid);
	double in = kp_at(ts, sym);

	if (p->ss_pending) {
		record(c, p->ss_stage, in - p->ss_t, p->ss_raw, ts, pid, 0);
		p->ss_pending = 0;
	}
	if (t->off) {
		t->off_acc += sw_resume(c, ts, in, sym) - t->off_since;
		t->off = 0;
	}
	t->cpu = c;
	t->hard_snap = p->hard_total;
	t->soft_snap = p->soft_total;
}

static void ev_sched_waking(int c, uint64_t ts, const char *args)
{
	int pid = (int)argl(args, "pid", -1), placed;
	uint64_t stamp;
	double back = wake_stamp(c, ts, 0, &placed, &stamp);
	struct task *t;

	if (pid < 0)
		return;
	t = woken_task(pid, arg(args, "comm"));
	if (!t->on_rq && t->kind != K_OTHER && !t->waking) {
		t->waking = 1;
		/* the start of an interval: netcost stamps as its probe's last act */
		t->waking_t = wk_start(ts) - back;
		t->waking_raw = ts;
		/* a turn the stub did not place: netcost may be before it */
		t->waking_turn = placed ? 0 : line_turn;
		t->waking_stamp = stamp;
	}
	t->on_rq = 1;
}

static void ev_sys_enter(int c, uint64_t ts, const char *args, int pid)
{
	struct task *t = task(pid);
	long nr = strtol(args + 3, NULL, 10);	/* "NR 44 (...)" */
	int s = sys_stage(nr);

	(void)c;
	if (s < 0)
		return;
	t->sys_open = 1;
	t->sys_inet = 0;
	t->sys_stage = s;
	t->sys_t0 = tp_start(ts);
	t->sys_h0 = task_hard(t);
	t->sys_s0 = task_soft(t);
	t->sys_o0 = task_off(t);
	t->sys_raw = ts;
	t->sys_amb0 = line_amb;
	t->sys_turn0 = line_turn;
	t->run_amb_short = 0;
	t->run_amb_long = 0;
}

static void ev_sys_exit(int c, uint64_t ts, const char *args, int pid)
{
	struct task *t = task(pid);
	long nr = strtol(args + 3, NULL, 10);
	double net;

	if (sys_stage(nr) < 0 || !t->sys_open)
		return;
	t->sys_open = 0;
	if (!t->sys_inet)	/* not an inet socket's call: no event */
		return;
	net = (tp_end(ts, "sys_exit") - t->sys_t0) - (task_hard(t) - t->sys_h0) -
	      (task_soft(t) - t->sys_s0) - (task_off(t) - t->sys_o0);
	net_amb0 = t->sys_amb0;
	net_turn0 = t->sys_turn0;
	take_run_amb(c, t, -1);
	record(c, t->sys_stage, net, t->sys_raw, ts, pid, 1);
}

/*
 * ev_sys_inet - the open system call reached inet's (or inet6's) sendmsg
 * or recvmsg: its socket is an inet one, so it is an event, and the task
 * a load task (stages.md: only calls on inet sockets count, since 0.14.0)
 */
static void ev_sys_inet(int pid)
{
	struct task *t = task(pid);

	if (!t->sys_open)
		return;
	t->sys_inet = 1;
	t->load = 1;
}

static int nic_irq(int irq)
{
	return irq >= 0 && irq < 4096 && M->nic_irq[irq];
}

static void ev_thread_entry(uint64_t ts, const char *sym, int pid)
{
	struct task *t = task(pid);

	if (t->kind != K_IRQ_THREAD || !nic_irq(t->irq))
		return;
	/*
	 * A call inside an open run is part of it: since 7.x
	 * irq_forced_thread_fn() calls irq_thread_fn(), and the run (with
	 * the NET_RX at its local_bh_enable()) is the outer call.
	 */
	if (t->thr_open) {
		if (M->thr_chain)
			t->thr_worked = 1;
		else
			t->thr_nest++;
		return;
	}
	t->thr_open = 1;
	t->thr_worked = 1;
	t->run_amb_short = 0;
	t->run_amb_long = 0;
	t->thr_t0 = M->thr_fentry ? fe_entry(ts, sym) : krp_entry(ts, sym);
	t->thr_h0 = task_hard(t);
	t->thr_s0 = task_soft(t);
	t->thr_o0 = task_off(t);
	t->thr_raw = ts;
}

static void ev_thread_return(int c, uint64_t ts, const char *sym, int pid)
{
	struct task *t = task(pid);

	if (!t->thr_open || M->thr_fentry)
		return;
	if (t->thr_nest) {
		t->thr_nest--;
		return;
	}
	t->thr_open = 0;
	take_run_amb(c, t, -1);
	record(c, ST_IRQ_THREAD,
	       (krp_return(ts, sym) - t->thr_t0) - (task_hard(t) - t->thr_h0) - (task_off(t) - t->thr_o0),
	       t->thr_raw, ts, pid, 1);
}

/*
 * ev_thread_stop - kthread_should_stop() in task @pid: with netcost 0.4.0
 * the end of its open IRQ thread run (nested calls of 7.x ended with it),
 * net of hardirqs; with 0.6.0 only of a run that called the handler, net
 * of softirqs too (irq_thread_excl_cycles: both), and the thread's next
 * run starts at the same stamp (its loop, its sleep's way in and out)
 */
static void ev_thread_stop(int c, uint64_t ts, int pid)
{
	struct task *t = task(pid);
	double end, ex;

	if (!M->thr_fentry || !t->thr_open || (M->thr_chain && !t->thr_worked))
		return;
	end = fe_at(ts, "kthread_should_stop", M->k_kss);
	ex = task_hard(t) - t->thr_h0;
	if (M->thr_chain) {
		ex += task_soft(t) - t->thr_s0;
		count(c, C_IRQ_THREAD_EXCL_CYCLES, (uint64_t)(ex + 0.5));
	}
	/* 0.6.0 takes the softirqs out; before, the run held them whole */
	if (M->thr_chain) {
		take_run_amb(c, t, C_IRQ_THREAD_EXCL_CYCLES);
	} else {
		t->run_amb_short = 0;
		t->run_amb_long = 0;
	}
	record(c, ST_IRQ_THREAD, (end - t->thr_t0) - ex - (task_off(t) - t->thr_o0), t->thr_raw, ts, pid, 1);
	t->thr_nest = 0;
	if (M->thr_chain) {
		t->thr_worked = 0;
		t->thr_t0 = end;
		t->thr_h0 = task_hard(t);
		t->thr_s0 = task_soft(t);
		t->thr_o0 = task_off(t);
		t->thr_raw = ts;
	} else {
		t->thr_open = 0;
	}
}

/* ---- in-run K: a *_cal kprobe event just before its twin ---- */

void push_k(struct ksamples *k, uint64_t d)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 1024;
		k->v = realloc(k->v, k->cap * sizeof(*k->v));
		if (!k->v) {
			perror("oracle: realloc");
			exit(2);
		}
	}
	k->v[k->n++] = d;
}

/*
 * a poll's last stretch (@kind: a NAPI thread's or a NET_RX softirq's),
 * kept by its device, its work (the packets it took: under load the
 * stretch holds the last one's delivery) and the event before it: a
 * tracepoint event, whose netcost probe runs before ftrace's (after a
 * kprobe event netcost's own hook there would be in the stretch)
 */
static void push_poll(struct rstats *rs, int kind, const char *args, const char *prev, uint64_t d)
{
	static const char *const kprobes[] = {
		"fts", "kss", "irq_forced_thread_fn", "irq_thread_fn", "irq_exit_rcu", "rec",
	};
	const char *dev = strstr(args, "for device "), *work;
	char key[64];
	size_t k;
	int i;

	for (k = 0; k < sizeof(kprobes) / sizeof(kprobes[0]); k++)
		if (!strncmp(prev, kprobes[k], strlen(kprobes[k])))
			return;

	work = strstr(args, " work ");
	snprintf(key, sizeof(key), "%.*s work %d after %s", dev ? (int)strcspn(dev + 11, " ") : 1,
		 dev ? dev + 11 : "?", work ? atoi(work + 6) : -1, prev);
	for (i = 0; i < rs->n_polls[kind]; i++)
		if (!strcmp(rs->n_poll[kind][i].key, key))
			break;
	if (i == rs->n_polls[kind]) {
		if (i == (int)(sizeof(rs->n_poll[0]) / sizeof(rs->n_poll[0][0])))
			return;
		snprintf(rs->n_poll[kind][i].key, sizeof(rs->n_poll[kind][i].key), "%s", key);
		rs->n_polls[kind]++;
	}
	push_k(&rs->n_poll[kind][i].s, d);
}

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

double median_u64(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + v[n / 2]) / 2;
}

double stage_median(const struct rhist *h)
{
	uint64_t *v = malloc((h->nev + 1) * sizeof(*v));
	double m;
	size_t i;

	if (!v)
		return 0;
	for (i = 0; i < h->nev; i++)
		v[i] = h->ev[i].v;
	m = median_u64(v, h->nev);
	free(v);
	return m;
}

/* ---- the trace text ---- */

/*
 * "   comm-pid   [000] flags  12345678: event: args"; the comm may hold
 * spaces and dashes: the pid follows the last '-' before " [".
 */
int parse_line(char *s, int *pid, int *cpu, uint64_t *ts, char **comm, char **flags,
	       char **ev, char **args)
{
	char *br = strstr(s, " [");
	char *dash, *p, *end;

	while (br && !(isdigit((unsigned char)br[2]) && strchr(br + 2, ']')))
		br = strstr(br + 1, " [");
	if (!br)
		return -1;
	*br = 0;
	dash = strrchr(s, '-');
	if (!dash)
		return -1;
	*dash = 0;
	*pid = atoi(dash + 1);
	for (p = s; *p == ' '; p++)
		;
	*comm = p;
	*cpu = atoi(br + 2);
	p = strchr(br + 2, ']');
	if (!p)
		return -1;
	p++;
	while (*p == ' ')
		p++;
	*flags = p;
	while (*p && *p != ' ')		/* flags */
		p++;
	if (*p)
		*p++ = 0;
	while (*p == ' ')
		p++;
	*ts = strtoull(p, &end, 10);
	if (end == p || *end != ':')
		return -1;		/* not an x86-tsc counter timestamp */
	p = end + 1;
	while (*p == ' ')
		p++;
	*ev = p;
	p = strchr(p, ':');
	if (!p)
		return -1;
	*p++ = 0;
	if (*p == ' ')
		p++;
	*args = p;
	return 0;
}

static const char *kprobe_sym(const char *ev)
{
	if (!strcmp(ev, "irq_forced_thread_fn_e") || !strcmp(ev, "irq_forced_thread_fn_r"))
		return "irq_forced_thread_fn";
	return "irq_thread_fn";
}

/*
 * read_page_starts - the timestamps of the first event of every page in
 * @path, per_cpu/cpuN/trace_pipe_raw read after the text (record.sh),
 * sorted, into *@ts (*@n of them).  A page is struct buffer_data_page:
 * u64 time_stamp, a long commit (bytes; its two top flag bits are
 * missed-event marks), then the events: a u32 header of type_len (5 bits)
 * and time_delta (27), with type_len 29 padding, 30 a time extend (delta
 * += array[0] << 27), 31 an absolute stamp, 1..28 data of type_len * 4
 * bytes and 0 data of array[0] bytes.  Returns 0, or -1 with a message.
 */
#define RB_PAGE		4096
#define RB_HDR		16

int read_page_starts(const char *path, uint64_t **ts, size_t *n)
{
	unsigned char pg[RB_PAGE];
	FILE *f = fopen(path, "rb");
	size_t cap = 0, got;
	uint64_t *v = NULL;

	*n = 0;
	if (!f) {
		perror(path);
		return -1;
	}
	while ((got = fread(pg, 1, sizeof(pg), f)) > 0) {
		uint64_t t, commit;
		size_t off = RB_HDR;

		if (got != sizeof(pg)) {
			fprintf(stderr, "oracle: %s: a short page (%zu bytes)\n", path, got);
			goto bad;
		}
		memcpy(&t, pg, 8);
		memcpy(&commit, pg + 8, 8);
		commit &= 0x3fffffffull;
		if (commit > RB_PAGE - RB_HDR) {
			fprintf(stderr, "oracle: %s: a page commits %llu bytes\n", path,
				(unsigned long long)commit);
			goto bad;
		}
		while (off + 4 <= RB_HDR + commit) {
			uint32_t h, a0 = 0;
			unsigned int type;

			memcpy(&h, pg + off, 4);
			if (off + 8 <= RB_PAGE)
				memcpy(&a0, pg + off + 4, 4);
			type = h & 0x1f;
			if (type == 30) {		/* time extend */
				t += (h >> 5) | ((uint64_t)a0 << 27);
				off += 8;
				continue;
			}
			if (type == 31) {		/* absolute stamp */
				t = (h >> 5) | ((uint64_t)a0 << 27);
				off += 8;
				continue;
			}
			if (type == 29) {		/* padding: a discarded event, or the end */
				if (!(h >> 5))
					break;
				off += 4 + a0;
				continue;
			}
			t += h >> 5;
			if (*n == cap) {
				cap = cap ? 2 * cap : 4096;
				v = realloc(v, cap * sizeof(*v));
				if (!v) {
					perror("oracle: realloc");
					exit(2);
				}
			}
			v[(*n)++] = t;
			break;
		}
	}
	fclose(f);
	qsort(v, *n, sizeof(*v), cmp_u64);
	*ts = v;
	return 0;
bad:
	fclose(f);
	free(v);
	*n = 0;
	return -1;
}

/*
 * amb_event - may an interrupt fall between netcost's probe and ftrace's
 * at @ev, unseen (line_amb)?  At the softirqs' and the system calls'
 * ends, and at the net events' starts, any interrupt: it is
 * asynchronous there.  At the net events' ends (@nic: the block had a
 * NIC's handler) only one without a NIC: a NIC's interrupt right before
 * net_dev_xmit, a receive's exit or napi_poll is raised by the driver's
 * own register write (the transmit's doorbell, the poll's interrupt
 * enable) and is taken at once, before either probe.
 */
static int amb_event(const char *ev, int nic)
{
	if (!strncmp(ev, "softirq_e", 9) || !strncmp(ev, "sys_e", 5) ||
	    !strcmp(ev, "net_dev_start_xmit") || is_rx_entry(ev) || !strcmp(ev, "netif_receive_skb"))
		return 1;
	return !nic && (!strcmp(ev, "net_dev_xmit") || is_rx_exit(ev) || !strcmp(ev, "napi_poll"));
}

/*
 * An interrupt between the two tools' probes returns straight into
 * ftrace's probe: the event's line follows the block's last line by the
 * return path and at most both probes (measured: 0-825 cycles for the
 * 273 ticks between the probes of 6.12-rt's softirq_exit in run 2b).
 * The doorbell's NIC interrupt before net_dev_xmit returns through the
 * same path plus the driver's tail and both whole probes: 917-1,218
 * cycles on 6.1, 6.12 and 7.3.  And netcost's stamp then precedes the
 * block's first line by at most the interrupt's entry and the probes'
 * code.  AMB_GAP bounds both, above every such measure: a block further
 * before the event came before both probes (6.12's tick 5,500 cycles
 * before every sixth net_dev_start_xmit in runs 19 and 20, 7.3-rt's
 * 1,540-2,455 in 450 of 3,002, netcost agreeing with the replay), and
 * the second reading's allowance stops AMB_GAP before the block.
 */
#define AMB_GAP 1400.0

/*
 * irq_block - follow the interrupt blocks of CPU @c, line by line: an
 * interrupt's lines (its handler's, its irq_exit()'s wake-ups and
 * softirqs, their h/H flags or irq_exit_rcu open) and the line right
 * after.  @hard_in: this line starts a handler (@nic: a NIC's).
 * Returns that line's line_amb: the first line after the block, with
 * irqs on ('d', 'D', 'X': off), within AMB_GAP of the block's last line
 * (@prev), at an event whose probes an interrupt can fall between
 * (amb_event()), may have netcost's stamp before the block, by at most
 * the time from AMB_GAP before the block (or from the line before it,
 * if later) to this line, less the block's hard and soft time; else 0.
 */
static double irq_block(int c, uint64_t ts, uint64_t prev, const char *ev, const char *flags,
			int hard_in, int nic)
{
	struct cpu *p = &cpus[c];
	double a = 0, from;

	/*
	 * Only the last interrupt before the line can have come between the
	 * probes: one that follows a whole interrupt at its level (its
	 * irq_exit_rcu() returned) replaces it, one inside an interrupt's
	 * irq_exit() softirqs nests.  6.1's tick right after a transmit's
	 * doorbell interrupts (eth1's and eth0's, before both probes) fell
	 * between the probes at net_dev_xmit in 498 of 3,002 transmits, and
	 * 7.3's tick inside irq_exit()'s softirqs before softirq_entry in 42
	 * of 60 softirq_other runs (fresh-clone run 31): netcost read ~2,300-
	 * 3,000 cycles shorter and longer there, and with one block per
	 * outermost interrupt, judged by any NIC handler in it, neither had a
	 * second reading.
	 */
	struct blk *b;

	/* interrupts whose level ended without a line at it are over */
	while (p->nblk && p->blk[p->nblk - 1].level > p->irq_exit_depth)
		p->nblk--;
	b = p->nblk ? &p->blk[p->nblk - 1] : NULL;
	if (hard_in && !p->hard_open) {
		if (!b || b->level < p->irq_exit_depth) {
			if (p->nblk == 4)
				return 0;
			b = &p->blk[p->nblk++];
		} else if (!b->done) {
			b = NULL;	/* another handler of the same interrupt */
		}
		if (b) {
			b->nic = 0;
			b->done = 0;
			b->level = p->irq_exit_depth;
			b->before = (double)prev;
			b->first = (double)ts;
			b->hs0 = p->hard_total + p->soft_total;
		}
		b = &p->blk[p->nblk - 1];
	}
	if (!b)
		return 0;
	b->nic |= hard_in && nic;
	if (!strcmp(ev, "irq_exit_rcu_r") && p->irq_exit_depth == b->level + 1)
		b->done = 1;
	if (hard_in || strchr(flags, 'h') || strchr(flags, 'H') ||
	    !strncmp(ev, "irq_exit_rcu_", 13) || p->hard_open || p->irq_exit_depth > b->level)
		return 0;
	/* the first line after the interrupt, at its level: it and any below */
	while (p->nblk && p->blk[p->nblk - 1].level >= p->irq_exit_depth)
		p->nblk--;
	if (strchr("dDX", flags[0]) || !b->before || (double)(ts - prev) > AMB_GAP ||
	    !amb_event(ev, b->nic))
		return 0;
	from = b->first - AMB_GAP > b->before ? b->first - AMB_GAP : b->before;
	a = (double)ts - from - (p->hard_total + p->soft_total - b->hs0);
	return a > 0 ? a : 0;
}

int replay_trace(const char *path, const struct model *m, struct rstats *rs)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *comm, *flags, *ev, *args, vec[48], fts_sym[128] = "", prev_ev[MAX_CPUS][32];
	const char *nm;
	int nic;
	/* the CPU of the line before: another one's means a turn (turn_amb()) */
	int last_cpu = -1, turn;
	size_t cap = 0;
	ssize_t n;
	uint64_t ts;
	int pid, cpu, i, vk;

	if (!f) {
		perror(path);
		return -1;
	}
	tasks = calloc(MAX_PID, sizeof(*tasks));
	if (!tasks)
		return -1;
	memset(cpus, 0, sizeof(cpus));
	memset(wk_gap, 0, sizeof(wk_gap));
	M = m;
	R = rs;
	recording = 0;
	page_ts = m->page_ts;
	page_n = m->ps_cost > 0 ? m->page_n : 0;
	page_i = 0;
	line_ts = 0;
	memset(prev_ev, 0, sizeof(prev_ev));
	memset(prev_ts, 0, sizeof(prev_ts));
	for (i = 0; i < m->nhooks; i++)
		if (!strncmp(m->hooks[i], "finish_task_switch", 18))
			snprintf(fts_sym, sizeof(fts_sym), "%s", m->hooks[i]);

	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (line[0] == '#' || !line[0])
			continue;
		rs->lines++;
		if (strstr(line, "LOST") && strstr(line, "EVENTS")) {
			rs->lost++;
			continue;
		}
		if (parse_line(line, &pid, &cpu, &ts, &comm, &flags, &ev, &args)) {
			fprintf(stderr, "oracle: cannot read trace line %llu\n",
				(unsigned long long)rs->lines);
			return -1;
		}
		if (cpu < 0 || cpu >= MAX_CPUS)
			return -1;
		if (cpu >= rs->ncpus)
			rs->ncpus = cpu + 1;
		if (!pid)
			pid = idle_key(cpu);
		rs->events++;
		/* the page's first event: the first line of its timestamp */
		line_page_first = 0;
		while (page_i < page_n && page_ts[page_i] < ts)
			page_i++;
		if (page_i < page_n && page_ts[page_i] == ts) {
			line_page_first = 1;
			rs->page_firsts++;
			page_i++;
		}
		line_ts = ts;
		turn = last_cpu != cpu && prev_ts[cpu];
		last_cpu = cpu;
		rs->turns += turn;
		if (comm[0] != '<' && !task(pid)->kind)
			set_comm(pid, comm);
		/* the calibration's stretches are one CPU's own: none with a turn in it */
		if (!turn) {
			if (!strcmp(ev, "fts") && !strcmp(prev_ev[cpu], "fts_cal"))
				push_k(&rs->k_fts, ts - prev_ts[cpu]);
			if ((!strcmp(ev, "irq_forced_thread_fn_e") && !strcmp(prev_ev[cpu], "irq_forced_thread_fn_cal")) ||
			    (!strcmp(ev, "irq_thread_fn_e") && !strcmp(prev_ev[cpu], "irq_thread_fn_cal")))
				push_k(&rs->k_thr, ts - prev_ts[cpu]);
			if (!strcmp(ev, "kss") && !strcmp(prev_ev[cpu], "kss_cal"))
				push_k(&rs->k_kss, ts - prev_ts[cpu]);
		}
		vk = vector_of(ev, vec, sizeof(vec));
		net_amb0 = 0;
		net_turn0 = 0;
		nm = !strcmp(ev, "irq_handler_entry") ? arg(args, "name") : NULL;
		nic = nm && is_nic_name(nm);
		line_amb = irq_block(cpu, ts, prev_ts[cpu], ev, flags,
				     !strcmp(ev, "irq_handler_entry") || vk == 1, nic);
		line_turn = turn_amb(ts, prev_ts[cpu], turn);
		if (!turn) {
			if (!strcmp(ev, "irq_handler_exit") && cpus[cpu].hard_open && cpus[cpu].hard_nic)
				push_k(&rs->n_tail, ts - prev_ts[cpu]);
			if (!strcmp(ev, "napi_poll") && napi_in_softirq(bh_of(cpu, pid), pid))
				push_poll(rs, POLL_SIRQ, args, prev_ev[cpu], ts - prev_ts[cpu]);
			else if (!strcmp(ev, "napi_poll") && task(pid)->kind == K_NAPI_THREAD)
				push_poll(rs, POLL_THR, args, prev_ev[cpu], ts - prev_ts[cpu]);
		}
		irq_exit_missed(rs, cpu, prev_ev[cpu], ev, vk);
		snprintf(prev_ev[cpu], sizeof(prev_ev[cpu]), "%s", ev);
		prev_ts[cpu] = ts;

		if (!strcmp(ev, "irq_handler_entry")) {
			ev_hard_entry(cpu, ts, (int)argl(args, "irq", -1), "", nic);
		} else if (!strcmp(ev, "irq_handler_exit")) {
			ev_hard_exit(cpu, ts, (int)argl(args, "irq", -1), "", "irq_handler_exit", pid);
		} else if (vk) {
			if (vk == 1)
				ev_hard_entry(cpu, ts, -1, vec, 0);
			else
				ev_hard_exit(cpu, ts, -1, vec, ev, pid);
		} else if (!strcmp(ev, "nmi_handler")) {
			/* delta_ns=N: hard time, and one hardirq_vectors event */
			double d = (double)argl(args, "delta_ns", 0) * m->tsc_khz / 1e6;
			cpus[cpu].hard_total += d;
			record(cpu, ST_HARDIRQ_VECTORS, d, ts, ts, pid, 0);
		} else if (!strcmp(ev, "softirq_entry")) {
			ev_softirq_entry(cpu, ts, (int)argl(args, "vec", -1), pid);
		} else if (!strcmp(ev, "softirq_exit")) {
			ev_softirq_exit(cpu, ts, (int)argl(args, "vec", -1), pid);
		} else if (!strcmp(ev, "napi_poll")) {
			ev_napi_poll(cpu, ts, args, pid);
		} else if (!strcmp(ev, "backlog")) {
			cpus[cpu].backlog_on = 1;
			cpus[cpu].backlog_pid = pid;
		} else if (!strcmp(ev, "netif_receive_skb")) {
			ev_rx_core(cpu, ts, args, pid);
		} else if (is_rx_entry(ev)) {
			ev_rx_entry(cpu, ts, ev, args, pid);
		} else if (is_rx_exit(ev)) {
			ev_rx_exit(cpu, ts, ev, pid);
		} else if (!strcmp(ev, "net_dev_start_xmit") || !strcmp(ev, "net_dev_xmit")) {
			ev_tx(cpu, ts, ev, args, pid);
		} else if (!strcmp(ev, "sched_switch")) {
			ev_sched_switch(cpu, ts, args);
		} else if (!strcmp(ev, "fts")) {
			ev_finish_task_switch(cpu, ts, pid, fts_sym);
		} else if (!strcmp(ev, "sched_waking")) {
			wait_waking(pid, flags, args);
			ev_sched_waking(cpu, ts, args);
		} else if (!strcmp(ev, "sched_wakeup") || !strcmp(ev, "sched_wakeup_new")) {
			ev_sched_wakeup(cpu, ts, args);
		} else if (!strcmp(ev, "sched_process_exit")) {
			/* netcost frees the task's slot: no load task, no wait open */
			struct task *t = task((int)argl(args, "pid", -1));

			t->load = 0;
			t->wstate = W_NONE;
			t->waker = WK_NONE;
		} else if (!strcmp(ev, "sys_enter")) {
			ev_sys_enter(cpu, ts, args, pid);
		} else if (!strcmp(ev, "sys_exit")) {
			ev_sys_exit(cpu, ts, args, pid);
		} else if (!strncmp(ev, "inet", 4) && strstr(ev, "msg")) {
			ev_sys_inet(pid);
		} else if (!strcmp(ev, "irq_forced_thread_fn_e") || !strcmp(ev, "irq_thread_fn_e")) {
			ev_thread_entry(ts, kprobe_sym(ev), pid);
		} else if (!strcmp(ev, "irq_forced_thread_fn_r") || !strcmp(ev, "irq_thread_fn_r")) {
			ev_thread_return(cpu, ts, kprobe_sym(ev), pid);
		} else if (!strcmp(ev, "kss")) {
			if (task(pid)->kind == K_NAPI_THREAD)
				ev_napi_thread_mark(cpu, ts, pid);
			else
				ev_thread_stop(cpu, ts, pid);
		} else if (!strcmp(ev, "irq_exit_rcu_e")) {
			cpus[cpu].irq_exit_depth++;
		} else if (!strcmp(ev, "irq_exit_rcu_r")) {
			if (cpus[cpu].irq_exit_depth > 0)
				cpus[cpu].irq_exit_depth--;
		} else if (!strcmp(ev, "rec")) {
			recording = (int)argl(args, "on", 0) != 0;
			if (recording && !rs->window_on)
				rs->window_on = ts;
			if (!recording)
				rs->window_off = ts;
		}
	}
	free(line);
	fclose(f);
	for (i = 0; i < MAX_PID; i++)
		free(tasks[i].bh);
	free(tasks);
	return 0;
}
