/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * oracle.h - the trace-replay oracle: what replay.c (the stage
 * definitions of Documentation/stages.md, applied to an ftrace text
 * trace) and compare.c (netcost's snapshot against the replay, TAP)
 * share.
 *
 * Nothing here comes from module/, userspace/ or include/: the stage and
 * counter names are netcost's interface (README), the bucket rule is the
 * documented one, and the definitions are written once, in replay.c.
 */
#ifndef ORACLE_H
#define ORACLE_H

#include <stdint.h>
#include <stddef.h>

enum stage {
	ST_HARDIRQ, ST_HARDIRQ_OTHER, ST_SOFTIRQ_NET_RX, ST_SOFTIRQ_NET_TX,
	ST_SOFTIRQ_OTHER, ST_IRQ_THREAD, ST_NAPI_POLL, ST_NAPI_POLL_WORK,
	ST_RX_SKB, ST_TX_XMIT, ST_CTX_SWITCH, ST_WAKEUP_LATENCY,
	ST_SYSCALL_RX, ST_SYSCALL_TX, ST_HARDIRQ_VECTORS,
	ST_RUNQ_WAIT_LOAD, ST_RUNQ_WAIT_IRQ_THREAD, ST_RUNQ_WAIT_KSOFTIRQD,
	ST_BLOCKED_LOAD,
	ST_NAPI_THREAD,			/* threaded NAPI (0.5.0) */
	ST_CTX_SWITCH_OTHER,		/* a switch off the packet path (0.10.0) */
	NSTAGES
};

enum counter {
	C_RX_PACKETS, C_TX_PACKETS, C_NIC_IRQS, C_CTX_SWITCHES,
	C_CTX_SWITCHES_IRQ_THREAD, C_CTX_SWITCHES_KSOFTIRQD,
	C_NET_RX_IN_IRQ_EXIT, C_NET_RX_IN_IRQ_EXIT_CYCLES,
	C_NET_RX_IN_KSOFTIRQD, C_NET_RX_IN_KSOFTIRQD_CYCLES,
	C_NET_RX_IN_IRQ_THREAD, C_NET_RX_IN_IRQ_THREAD_CYCLES,
	C_NET_RX_IN_OTHER_IRQ_THREAD, C_NET_RX_IN_OTHER_IRQ_THREAD_CYCLES,
	C_NET_RX_IN_TASK_BH_ENABLE, C_NET_RX_IN_TASK_BH_ENABLE_CYCLES,
	C_NAPI_BUDGET_EXHAUSTED, C_CLAMPED_NEGATIVE,
	/* runqueue waits by what ran on the CPU meanwhile (enum wclass order) */
	C_RUNQ_WAIT_BEHIND_IRQ_THREAD_CYCLES, C_RUNQ_WAIT_BEHIND_KSOFTIRQD_CYCLES,
	C_RUNQ_WAIT_BEHIND_SOAK_CYCLES, C_RUNQ_WAIT_BEHIND_LOAD_CYCLES,
	C_RUNQ_WAIT_BEHIND_IDLE_CYCLES, C_RUNQ_WAIT_BEHIND_OTHER_CYCLES,
	/* load sleeps by waker: the count, then the cycles (enum waker order) */
	C_BLOCKED_LOAD_WOKEN_BY_HARDIRQ, C_BLOCKED_LOAD_WOKEN_BY_HARDIRQ_CYCLES,
	C_BLOCKED_LOAD_WOKEN_BY_SOFTIRQ, C_BLOCKED_LOAD_WOKEN_BY_SOFTIRQ_CYCLES,
	C_BLOCKED_LOAD_WOKEN_BY_IRQ_THREAD, C_BLOCKED_LOAD_WOKEN_BY_IRQ_THREAD_CYCLES,
	C_BLOCKED_LOAD_WOKEN_BY_KSOFTIRQD, C_BLOCKED_LOAD_WOKEN_BY_KSOFTIRQD_CYCLES,
	C_BLOCKED_LOAD_WOKEN_BY_LOAD, C_BLOCKED_LOAD_WOKEN_BY_LOAD_CYCLES,
	C_BLOCKED_LOAD_WOKEN_BY_OTHER, C_BLOCKED_LOAD_WOKEN_BY_OTHER_CYCLES,
	/* interrupts and softirqs taken out of irq_thread runs (0.6.0) */
	C_IRQ_THREAD_EXCL_CYCLES,
	/* interrupts and softirqs taken out of napi_thread runs (0.5.0) */
	C_NAPI_THREAD_EXCL_CYCLES,
	/* packets the stack took from a CPU's backlog (0.8.0) */
	C_RX_BACKLOG_PACKETS,
	/* NET_RX inside a NAPI thread (0.11.0) */
	C_NET_RX_IN_NAPI_THREAD, C_NET_RX_IN_NAPI_THREAD_CYCLES,
	NCOUNTERS
};

extern const char *const stage_name[NSTAGES];
extern const char *const counter_name[NCOUNTERS];

/* the log-linear histogram: 8 sub-buckets per power of two, 2^41 max */
#define HIST_SUB_BITS	3
#define HIST_MAX_BITS	41
#define HIST_BUCKETS	(((HIST_MAX_BITS - HIST_SUB_BITS + 1) << HIST_SUB_BITS) + 1)

unsigned int hist_index(uint64_t v);
uint64_t hist_lo(unsigned int i);
uint64_t hist_hi(unsigned int i);

/* one recorded replay event: where it came from, for failure output */
struct rev {
	uint64_t t0, t1;		/* raw trace timestamps of its ends */
	uint64_t v;
	uint64_t lo, hi;		/* v, or the reading with an interrupt at its ends moved (amb) */
	/*
	 * how much shorter or longer netcost reads if a vCPU's turn fell
	 * between the probes (replay.c, "The other vCPU's turn between the
	 * tools' probes"); at most one event of a stage is taken to have one
	 */
	uint64_t turn_short, turn_long;
	int pid;
};

struct rhist {
	uint64_t count, sum, min, max;
	uint64_t b[HIST_BUCKETS];
	/*
	 * interrupts at a start or an end (replay.c, "Interrupts between
	 * the two tools' probes"): how much shorter (amb_short) or longer
	 * (amb_long) netcost may read, summed, over namb events
	 */
	double amb_short, amb_long;
	uint64_t namb;
	struct rev *ev;
	size_t nev, cap;
};

#define MAX_CPUS 64

/* one in-run K's samples, in cycles (replay.c fills, compare.c reads) */
struct ksamples {
	uint64_t *v;
	size_t n, cap;
};
void push_k(struct ksamples *k, uint64_t d);	/* one more sample, grown as needed */

struct rstats {
	int ncpus;			/* CPUs seen: 0 .. ncpus-1 */
	struct rhist h[MAX_CPUS][NSTAGES];
	uint64_t c[MAX_CPUS][NCOUNTERS];
	/* a _cycles counter's events' second readings (struct rhist's amb_*) */
	double camb_short[MAX_CPUS][NCOUNTERS], camb_long[MAX_CPUS][NCOUNTERS];
	/* and their largest turn readings (struct rev's turn_*) */
	double cturn_short[MAX_CPUS][NCOUNTERS], cturn_long[MAX_CPUS][NCOUNTERS];
	uint64_t window_on, window_off;	/* raw ts, 0 = not seen */
	/* in-run K: ts(twin) - ts(twin_cal), where the _cal event runs just before */
	struct ksamples k_fts, k_thr, k_kss;
	/*
	 * a NIC hardirq's last stretch: from the last event inside it (or its
	 * entry) to its exit, where netcost's only probe is its exit probe
	 */
	struct ksamples n_tail;
	/*
	 * a poll's last stretch, from the last event before its napi_poll
	 * event, which holds netcost's whole napi_poll probe; by where the
	 * poll ran (POLL_THR: a NAPI thread, POLL_SIRQ: a NET_RX softirq,
	 * whose probe does other work), the device, the poll's work and that
	 * event's name, since the stretch differs with them (TX-completion
	 * polls against receiving ones, one packet against a batch)
	 */
	struct {
		char key[64];
		struct ksamples s;
	} n_poll[2][64];
	int n_polls[2];
	uint64_t lines, events, lost;
	/*
	 * softirq runs at an irq_exit() whose irq_exit_rcu kprobe event the
	 * trace does not have (an interrupt inside a kprobe handler: the
	 * nested kprobe is missed), told by the irq_handler_exit that no
	 * irq_exit_rcu_e followed; the irq_exit()s, and the runs in them
	 */
	uint64_t exit_inferred, exit_inferred_runs;
	uint64_t turns;			/* lines after another vCPU's turn (turn_amb()) */
	uint64_t page_firsts;		/* lines that were a ring-buffer page's first event */
	/*
	 * the stub's stamps at the switches netcost's frames pause and
	 * resume at (struct model's sw): switches and switch-ins that found
	 * theirs, and those that did not
	 */
	uint64_t sw_pause, sw_pause_missed, sw_resume, sw_resume_missed;
	char comm[65536][16];		/* last comm seen per pid (for output) */
};

/*
 * The cost model (README.md, "Cross-tool probe costs"): the offset of
 * netcost's timestamp from ftrace's at each kind of hook point.
 */
enum { POLL_THR, POLL_SIRQ };

struct model {
	double n_sys;		/* N: one netcost probe with task-table work (sys_*, sched, kretprobes) */
	double fd_check;	/* sys_enter's descriptor look-up (0.14.0), taken out of N */
	double n_cpu;		/* N: one netcost probe closing a per-CPU frame (irq, softirq, net) */
	double n_poll_thr;	/* N: netcost's napi_poll probe in a NAPI thread (its task-table work) */
	double n_poll_sirq;	/* N: netcost's napi_poll probe in a NET_RX softirq (per-instance work) */
	double k_fts;		/* K: one ftrace kprobe-event handler at finish_task_switch */
	double k_thr;		/* K: the same at irq_forced_thread_fn / irq_thread_fn */
	double d_fts;		/* netcost's fentry (any site): its stamp beyond a kprobe's */
	double k_kss;		/* K: one ftrace kprobe-event handler at kthread_should_stop */
	int thr_fentry;		/* netcost's IRQ-thread run: fentry to kthread_should_stop (0.4.0) */
	int thr_chain;		/* ... the next run from that stamp on, net of softirqs (0.6.0) */
	double n_min;		/* netcost's cheapest probe: call, test, return */
	double dispatch;	/* a tracepoint's dispatch of two probes, over one */
	double ps_cost;		/* ftrace's move to its next ring-buffer page (0: not modelled) */
	const uint64_t *page_ts;	/* the pages' first events (read_page_starts()), sorted */
	size_t page_n;
	int record_all;		/* record everything, no window (phase A) */
	int stock;		/* not PREEMPT_RT (uname.txt): softirqs run at irq_exit() */
	int exit_kprobe;	/* the recording made the irq_exit_rcu_e kprobe event (events.txt) */
	unsigned int tsc_khz;
	/*
	 * where netcost's frames pause and resume at a switch (0.12.0: its
	 * sched_switch probe's first act, its finish_task_switch() hook's
	 * last act), placed per switch by the oracle's stub, loaded before
	 * netcost in phase B (record.sh, switch-stub.stamps): its "s" stamps
	 * (a sched_switch probe's first act, the probe before netcost's)
	 * and "f" stamps (an ftrace_ops callback's first act, called after
	 * netcost's), each CPU's sorted; e_sw, from one probe's first act to
	 * the next one's; l_sw, from one callback's last act to the next
	 * one's first; p_sw, the part of ftrace's event before its
	 * timestamp (the model's times are ftrace's: the stamps' plus p_sw)
	 */
	const uint64_t *sw_s[MAX_CPUS], *sw_f[MAX_CPUS];
	size_t sw_s_n[MAX_CPUS], sw_f_n[MAX_CPUS];
	int sw_stamps;			/* the recording has them */
	double e_sw, l_sw, p_sw;
	/*
	 * the stub's stamps at sched_waking ("w") and sched_wakeup ("u"),
	 * its probes registered after netcost's (record.sh): each CPU's
	 * sorted, for replay.c's wake_stamp()
	 */
	const uint64_t *wk_w[MAX_CPUS], *wk_u[MAX_CPUS];
	size_t wk_w_n[MAX_CPUS], wk_u_n[MAX_CPUS];
	int wk_stamps;			/* the recording has them */
	int wk_blind;			/* ORACLE_NO_WAKE_STAMPS: not used to place turns */
	int wk_show;			/* ORACLE_SHOW_WAKE_TURNS */
	/* which hooks netcost attached (by tracepoint or symbol name) */
	char hooks[64][64];
	int nhooks;
	char nic_names[32][64];	/* netdev and parent device names */
	int nnic_names;
	unsigned char nic_irq[4096];
};

int model_hooked(const struct model *m, const char *name);
int cmp_u64(const void *a, const void *b);	/* qsort() of uint64_t, ascending */
double median_u64(uint64_t *v, size_t n);
double stage_median(const struct rhist *h);
int replay_trace(const char *path, const struct model *m, struct rstats *rs);
int read_page_starts(const char *path, uint64_t **ts, size_t *n);
/* one line of the trace text (x86-tsc timestamps); 0, or -1: not an event */
int parse_line(char *s, int *pid, int *cpu, uint64_t *ts, char **comm, char **flags,
	       char **ev, char **args);

#endif
