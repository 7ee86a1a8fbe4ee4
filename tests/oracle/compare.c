// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * compare.c - the oracle's verdict: netcost's snapshot against the
 * replay of the same run's trace, one TAP line per stage and counter.
 *
 *   oracle-replay --label L --dir DIR --residuals tests/oracle/residuals.md
 *
 * DIR holds what tests/oracle/record.sh wrote: trace.txt, nc.json,
 * calib.txt, interrupts.txt, netdevs.txt.  Rules (issue 8, issue 20;
 * tests/oracle/README.md, "The comparison"): counts equal per CPU; each
 * mean within its band of the residual committed in residuals.md; the
 * histograms' p50, p90, p99 within one bucket; 0 = 0 is not applicable.
 * A failing stage prints both figures and the first histogram bucket
 * where they disagree, with some of the replay's events in it.
 * Also writes DIR/compare.tsv (one line per stage: the table of README).
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle.h"

/*
 * The bands (issue 20, item 3): a stage's residual (netcost's mean less
 * the replay's) is compared with the one committed in residuals.md for
 * the same kernel, CPU and stage.  A short stage keeps its documented
 * offset within 40 cycles; a long one stays within 1.5% and moves by at
 * most 1.5 points from the committed residual; the per-packet total the
 * same within 1%.  Short: the replay's median or mean event under 5,000
 * cycles, when the table is written (its band column says which, and the
 * compare follows it): a stage of mostly short events carries a short
 * stage's per-event offset, whatever a few long events do to its mean
 * (7.3-rt-smp2's cpu1 softirq_other: mean 5,145, offset -85 = -1.66%).
 */
#define MEAN_SMALL	5000.0
#define BAND_SHORT	40.0
#define BAND_LONG	0.015
#define BAND_TOTAL	0.01

static const char *label = "?";
/*
 * the committed residuals' label: the label, or for a sampled recording
 * (LABEL-sampleN, netcost config sample N) the unsampled one's, whose
 * residuals every stage keeps: sampling changes no definition
 */
static char rlabel[64] = "?";
static int failures;
static FILE *tsv;

/*
 * A sampled recording (netcost 0.15.0, config sample N > 1): rx_skb and
 * tx_xmit are timed on 1 packet in N, drawn at random, the rest counted
 * in <stage>_untimed.  Their events must still be the replay's exactly
 * (timed + untimed); their mean must be within SAMPLE_MEAN_TOL of the
 * unsampled mean, which the replay's mean plus the committed residual
 * of the unsampled recording stands for (issue 23: "the oracle proves
 * the sampled means within 2% of the unsampled ones"); their histogram
 * is compared at the rank tolerance of a sample of its size
 * (cmp_hist()).
 */
#define SAMPLE_MEAN_TOL	0.02
static unsigned int sample_n = 1;

static int sampled_stage(int s)
{
	return sample_n > 1 && (s == ST_RX_SKB || s == ST_TX_XMIT);
}

/*
 * A line that compares nothing (zero events or zero on both sides, a stage
 * or counter the replay does not define and netcost leaves at 0) is not a
 * pass: it is printed as a TAP skip, "ok - ... # SKIP not applicable: ...",
 * which tests/oracle/run and tests/run-all count apart (issue 20, item 5).
 */
static void not_applicable(const char *what, const char *why)
{
	printf("ok - %s: %s # SKIP not applicable: %s\n", label, what, why);
}

int model_hooked(const struct model *m, const char *name)
{
	int i;

	for (i = 0; i < m->nhooks; i++)
		if (!strcmp(m->hooks[i], name))
			return 1;
	return 0;
}

static void die(const char *fmt, const char *arg)
{
	printf("not ok - %s: oracle: ", label);
	printf(fmt, arg);
	printf("\n");
	exit(1);
}

static char *path(const char *dir, const char *name)
{
	static char buf[4][4096];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* calib.txt: "key cycles" lines from the guest's calibration */
static double calib(const char *file, const char *key)
{
	FILE *f = fopen(file, "r");
	char k[64];
	double v;

	if (!f)
		die("cannot read %s", file);
	while (fscanf(f, "%63s %lf", k, &v) == 2) {
		if (!strcmp(k, key)) {
			fclose(f);
			return v;
		}
	}
	fclose(f);
	die("calib.txt has no %s", key);
	return 0;
}

static int calib_has(const char *file, const char *key)
{
	FILE *f = fopen(file, "r");
	char k[64];
	double v;
	int found = 0;

	if (!f)
		return 0;
	while (!found && fscanf(f, "%63s %lf", k, &v) == 2)
		found = !strcmp(k, key);
	fclose(f);
	return found;
}

/* version_at_least - whether the snapshot @nc is of netcost @maj.@min or later */
static int version_at_least(json_t *nc, int maj, int min)
{
	const char *v = json_string_value(json_object_get(json_object_get(nc, "info"), "version"));
	int a, b;

	if (!v || sscanf(v, "%d.%d", &a, &b) != 2)
		return 0;
	return a > maj || (a == maj && b >= min);
}

/*
 * hook_fentry - whether netcost hooked a function whose name starts with
 * @prefix through its own ftrace_ops (kind "fentry") in the snapshot @nc
 */
static int hook_fentry(json_t *nc, const char *prefix)
{
	json_t *h;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(nc, "info"), "hooks"), i, h) {
		const char *name = json_string_value(json_object_get(h, "name"));
		const char *kind = json_string_value(json_object_get(h, "kind"));

		if (json_is_true(json_object_get(h, "attached")) && name && kind &&
		    !strncmp(name, prefix, strlen(prefix)) && !strcmp(kind, "fentry"))
			return 1;
	}
	return 0;
}

/*
 * stub_gaps - the stub's stamps (fts-stub.stamps: "CPU KIND CYCLES",
 * record.sh's stub phase, ncstub mode 2) against the trace's events, per
 * CPU.  @g: from each fts event to the first "f" stamp after it, when
 * that comes before the CPU's next fts event (one switch's step from
 * ftrace's kprobe event to the next ftrace_ops callback).  @p: to each
 * sched_switch event from the last "s" or "t" stamp before it (t: the
 * second probe, the last before ftrace's event), when that comes after
 * the CPU's previous event (the stub's probes ran first).  @e: from each
 * "s" stamp to the first "t" after it, before the next "s" (one probe's
 * first act to the next one's).  @l: from each "f" to the first "h"
 * after it, before the next "f" (one callback's stamp to the next
 * one's).  The number of @g, or -1 (no files).
 */
#define STUB_KINDS "fsthwu"
static struct ksamples stub_k[6][MAX_CPUS];	/* f, s, t, h, w, u: each CPU's, sorted */

static int stub_kind(char k)
{
	const char *p = strchr(STUB_KINDS, k);

	return k && p ? (int)(p - STUB_KINDS) : -1;
}

/* load_stub - @file's stamps into stub_k; -1 when it cannot be read */
static int load_stub(const char *file)
{
	unsigned long long v;
	int cpu, k;
	char kind;
	FILE *f;

	for (k = 0; k < 6; k++)
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			stub_k[k][cpu].n = 0;
	f = fopen(file, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%d %c %llu", &cpu, &kind, &v) == 3)
		if (cpu >= 0 && cpu < MAX_CPUS && (k = stub_kind(kind)) >= 0)
			push_k(&stub_k[k][cpu], v);
	fclose(f);
	for (k = 0; k < 6; k++)
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			qsort(stub_k[k][cpu].v, stub_k[k][cpu].n, sizeof(uint64_t), cmp_u64);
	return 0;
}

/* pairs - to @out, each @a stamp's distance to the first @b after it, before the next @a */
static void pairs(const struct ksamples *a, const struct ksamples *b, struct ksamples *out)
{
	size_t i, j;

	for (i = 0, j = 0; i < a->n; i++) {
		while (j < b->n && b->v[j] < a->v[i])
			j++;
		if (j == b->n)
			break;
		if (i + 1 < a->n && b->v[j] > a->v[i + 1])
			continue;
		push_k(out, b->v[j] - a->v[i]);
	}
}

static long stub_gaps(const char *trace, const char *stamps, struct ksamples *g, struct ksamples *p,
		      struct ksamples *e, struct ksamples *l)
{
	static struct ksamples fe[MAX_CPUS], sw[MAX_CPUS], sp;
	char line[4096], *comm, *flags, *ev, *args;
	FILE *f;
	int cpu, pid;
	uint64_t ts;
	size_t i, j;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		fe[cpu].n = sw[cpu].n = 0;
	f = fopen(trace, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (parse_line(line, &pid, &cpu, &ts, &comm, &flags, &ev, &args) ||
		    cpu < 0 || cpu >= MAX_CPUS)
			continue;
		if (!strcmp(ev, "fts"))
			push_k(&fe[cpu], ts);
		else if (!strcmp(ev, "sched_switch"))
			push_k(&sw[cpu], ts);
	}
	fclose(f);
	if (load_stub(stamps))
		return -1;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		qsort(fe[cpu].v, fe[cpu].n, sizeof(uint64_t), cmp_u64);
		qsort(sw[cpu].v, sw[cpu].n, sizeof(uint64_t), cmp_u64);
		pairs(&fe[cpu], &stub_k[0][cpu], g);
		pairs(&stub_k[1][cpu], &stub_k[2][cpu], e);
		pairs(&stub_k[0][cpu], &stub_k[3][cpu], l);
		/* the switch probes' stamps, s and t, in one sorted array */
		sp.n = 0;
		for (i = 0; i < stub_k[1][cpu].n; i++)
			push_k(&sp, stub_k[1][cpu].v[i]);
		for (i = 0; i < stub_k[2][cpu].n; i++)
			push_k(&sp, stub_k[2][cpu].v[i]);
		qsort(sp.v, sp.n, sizeof(uint64_t), cmp_u64);
		for (i = 0, j = 0; i < sw[cpu].n; i++) {
			while (j < sp.n && sp.v[j] < sw[cpu].v[i])
				j++;
			/* sp[j - 1]: the last stamp before this event */
			if (!j || (i && sp.v[j - 1] < sw[cpu].v[i - 1]))
				continue;
			push_k(p, sw[cpu].v[i] - sp.v[j - 1]);
		}
	}
	return (long)g->n;
}

/*
 * The fentry's step (record.sh, "d"), measured by the oracle's stub
 * (tests/oracle/stub), not by netcost: on a switch-only load, with
 * ftrace's sched_switch event and fts/fts_cal kprobe events at
 * finish_task_switch(), the stub stamps
 *   - as the first act of an ftrace_ops callback there, behind ftrace's
 *     kprobes (as netcost's ops sits in phase B): G, the median from the
 *     switch's fts event;
 *   - as the only act of a sched_switch probe that runs before ftrace's
 *     event (as netcost's does): P, the median to ftrace's timestamp.
 * The model takes a start stamp a tracepoint probe takes as its last act
 * to lie at ftrace's timestamp: its offsets are of ftrace's timestamps,
 * which hold P of ftrace's own work before them.  So the fentry callback
 * stamps at +G + P in the model's terms: K + d, d = G + P - K (K from
 * the same trace's twins).  netcost's own work before its stamp (finding
 * the hook) is not in it: the stages that end or start at a fentry hook
 * carry it (residuals.md).
 */
static void fts_calibrate(const char *dir, json_t *nc, struct model *m)
{
	static struct rstats r;
	struct ksamples g = { 0 }, p = { 0 }, e = { 0 }, l = { 0 };
	struct model raw = *m;
	double k, gap, pre;
	long n;
	int ok;

	m->d_fts = 0;
	n = stub_gaps(path(dir, "fts-stub.trace"), path(dir, "fts-stub.stamps"), &g, &p, &e, &l);
	if (hook_fentry(nc, "finish_task_switch") || m->thr_fentry) {
		raw.nhooks = 0;		/* ftrace's own timestamps */
		raw.record_all = 1;
		memset(&r, 0, sizeof(r));
		ok = n >= 1000 && p.n >= 1000 &&
		     !replay_trace(path(dir, "fts-stub.trace"), &raw, &r) && r.k_fts.n >= 100;
		if (ok) {
			k = median_u64(r.k_fts.v, r.k_fts.n);
			gap = median_u64(g.v, g.n);
			pre = median_u64(p.v, p.n);
			m->d_fts = gap + pre - k;
			printf("ok - %s: calibration: d = %.0f cycles, the fentry's step, measured by the stub: G %.0f from %ld fts events to its ftrace_ops stamp, P %.0f from %zu of its sched_switch stamps to ftrace's, less K %.0f of the same trace\n",
			       label, m->d_fts, gap, n, pre, p.n, k);
		} else {
			failures++;
			printf("not ok - %s: calibration: d, the fentry's step, not measured (in %s: %ld stub stamps after an fts event and %zu before a sched_switch event, need 1,000 each; %zu twin pairs, need 100)\n",
			       label, path(dir, "fts-stub.trace"), n, p.n, r.k_fts.n);
		}
	}
	/*
	 * where netcost's frames pause and resume at a switch (replay.c,
	 * sw_pause() and sw_resume()): E and L from the stub's two probes
	 * and two callbacks, P as above
	 */
	ok = e.n >= 1000 && l.n >= 1000 && p.n >= 1000;
	if (ok) {
		m->e_sw = median_u64(e.v, e.n);
		m->l_sw = median_u64(l.v, l.n);
		m->p_sw = median_u64(p.v, p.n);
		printf("ok - %s: calibration: where frames pause and resume at a switch, measured by the stub: E %.0f from a sched_switch probe's first act to the next probe's (%zu switches), L %.0f from an ftrace_ops callback's stamp to the next callback's (%zu switch-ins), P %.0f from the last probe's stamp to ftrace's\n",
		       label, m->e_sw, e.n, m->l_sw, l.n, m->p_sw);
	} else {
		failures++;
		printf("not ok - %s: calibration: where frames pause and resume at a switch, not measured (in %s: %zu s-t and %zu f-h stamp pairs and %zu stamps before a sched_switch event, need 1,000 each: a stub of mode 2)\n",
		       label, path(dir, "fts-stub.stamps"), e.n, l.n, p.n);
	}
	free(g.v);
	free(p.v);
	free(e.v);
	free(l.v);
}

/*
 * load_switch_stamps - the stub's stamps of phase B (record.sh,
 * switch-stub.stamps: ncstub mode 1, loaded before netcost) for the
 * replay's sw_pause() and sw_resume(), each CPU's "s" and "f" kept.  A
 * recording without them fails: netcost's frames pause and resume there.
 * Its "w" and "u" stamps (the stub's wake-up probes, registered after
 * netcost's) for wake_stamp(); a recording made before them has none,
 * and its wake-ups read both ways after a turn (replay.c).
 */
static struct ksamples sw_keep[4][MAX_CPUS];	/* s, f, w, u */

static void load_switch_stamps(const char *dir, struct model *m)
{
	static const int kinds[4] = { 1, 0, 4, 5 };	/* stub_k's s, f, w, u */
	size_t ns = 0, nf = 0, nw = 0, nu = 0;
	int cpu, k;

	m->sw_stamps = 0;
	m->wk_stamps = 0;
	if (load_stub(path(dir, "switch-stub.stamps"))) {
		failures++;
		printf("not ok - %s: the stub's stamps of the load's switches (%s) cannot be read\n",
		       label, path(dir, "switch-stub.stamps"));
		return;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		/* stub_k is load_stub()'s, refilled by its next call: keep them */
		for (k = 0; k < 4; k++) {
			free(sw_keep[k][cpu].v);
			sw_keep[k][cpu] = stub_k[kinds[k]][cpu];
			memset(&stub_k[kinds[k]][cpu], 0, sizeof(stub_k[kinds[k]][cpu]));
		}
		m->sw_s[cpu] = sw_keep[0][cpu].v;
		m->sw_s_n[cpu] = sw_keep[0][cpu].n;
		m->sw_f[cpu] = sw_keep[1][cpu].v;
		m->sw_f_n[cpu] = sw_keep[1][cpu].n;
		m->wk_w[cpu] = sw_keep[2][cpu].v;
		m->wk_w_n[cpu] = sw_keep[2][cpu].n;
		m->wk_u[cpu] = sw_keep[3][cpu].v;
		m->wk_u_n[cpu] = sw_keep[3][cpu].n;
		ns += sw_keep[0][cpu].n;
		nf += sw_keep[1][cpu].n;
		nw += sw_keep[2][cpu].n;
		nu += sw_keep[3][cpu].n;
	}
	m->sw_stamps = 1;
	m->wk_stamps = nw && nu;
	m->wk_blind = !!getenv("ORACLE_NO_WAKE_STAMPS");
	m->wk_show = !!getenv("ORACLE_SHOW_WAKE_TURNS");
	printf("# %s: the stub's stamps of the load's switches: %zu at sched_switch, %zu at finish_task_switch(); of its wake-ups: %zu at sched_waking, %zu at sched_wakeup\n",
	       label, ns, nf, nw, nu);
}

/*
 * switch_stamps_check - every switch the replay saw while netcost's
 * frames could pause found its stub stamp, and every switch-in of a task
 * that was off the CPU its resume stamp
 */
static void switch_stamps_check(const struct model *m, const struct rstats *rs)
{
	int ok;

	if (!m->sw_stamps)
		return;
	ok = rs->sw_pause && rs->sw_resume && !rs->sw_pause_missed && !rs->sw_resume_missed;
	if (!ok)
		failures++;
	printf("%s - %s: the stub's stamps place every pause and resume: %llu switches (%llu without a stamp), %llu switch-ins (%llu without)\n",
	       ok ? "ok" : "not ok", label, (unsigned long long)rs->sw_pause,
	       (unsigned long long)rs->sw_pause_missed, (unsigned long long)rs->sw_resume,
	       (unsigned long long)rs->sw_resume_missed);
}

/*
 * exit_missed_check - the irq_exit()s the replay inferred (replay.c,
 * irq_exit_missed()) are at most the irq_exit_rcu_e kprobe's own missed
 * hits (kprobe_profile, record.sh): each stands for an event the kernel
 * says its kprobe dropped
 */
static void exit_missed_check(const char *dir, const struct rstats *rs)
{
	FILE *f = fopen(path(dir, "kprobe-profile.txt"), "r");
	char line[512], name[256];
	unsigned long long hits, missed = 0;
	int found = 0, ok;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %llu %llu", name, &hits, &missed) == 3 &&
		    !strcmp(name, "irq_exit_rcu_e")) {
			found = 1;
			break;
		}
	if (f)
		fclose(f);
	if (!found)
		missed = 0;
	if (!rs->exit_inferred) {
		printf("# %s: no irq_exit() without its irq_exit_rcu_e event (its kprobe missed %llu hits%s)\n",
		       label, missed, found ? "" : ": no kprobe-profile.txt");
		return;
	}
	ok = rs->exit_inferred <= missed;
	if (!ok)
		failures++;
	printf("%s - %s: %llu irq_exit()s without their irq_exit_rcu_e event (%llu softirq runs in them, at irq_exit()), the kprobe's own missed hits %llu%s\n",
	       ok ? "ok" : "not ok", label, (unsigned long long)rs->exit_inferred,
	       (unsigned long long)rs->exit_inferred_runs, missed,
	       found ? "" : " (no kprobe-profile.txt)");
}

static void load_model(const char *dir, json_t *nc, struct model *m)
{
	const char *cal = path(dir, "calib.txt");
	json_t *hooks = json_object_get(json_object_get(nc, "info"), "hooks"), *h;
	FILE *f;
	char line[512], a[64], b[64];
	size_t i;

	memset(m, 0, sizeof(*m));
	/* the kernel's own word (uname -v, record.sh): PREEMPT_RT or not */
	f = fopen(path(dir, "uname.txt"), "r");
	if (f) {
		m->stock = fgets(line, sizeof(line), f) && !strstr(line, "PREEMPT_RT");
		fclose(f);
	}
	/* the kprobe events the recording made (record.sh) */
	f = fopen(path(dir, "events.txt"), "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "oracle/irq_exit_rcu_e "))
			m->exit_kprobe = 1;
	if (f)
		fclose(f);
	/*
	 * N (task table): netcost's sys_enter + sys_exit on a measured call,
	 * per probe.  Since 0.14.0 sys_enter also looks the descriptor up
	 * (its family), which the probes N stands for (sys_exit, sched_switch,
	 * sched_waking) do not: that look-up is a call on a pipe (no socket)
	 * less one on no descriptor (both leave at sys_enter, after it and before
	 * it), taken out.  A recording before then has no such calls: 0.
	 */
	m->fd_check = 0;
	if (calib_has(cal, "nc_sendto_nosock") && calib_has(cal, "nc_sendto_badfd"))
		m->fd_check = (calib(cal, "nc_sendto_nosock") - calib(cal, "base_sendto_nosock")) -
			      (calib(cal, "nc_sendto_badfd") - calib(cal, "base_sendto_badfd"));
	m->n_sys = (calib(cal, "nc_sendto") - calib(cal, "base_sendto") - m->fd_check) / 2;
	m->n_cpu = m->n_sys;	/* until phase A measures it (main) */
	/* netcost's probes on a call it does not measure: they return at once */
	m->n_min = (calib(cal, "nc_getppid") - calib(cal, "base_getppid")) / 2;
	/* a tracepoint with two probes iterates them: the extra cost per hit */
	m->dispatch = 0;
	if (calib_has(cal, "both_getppid"))
		m->dispatch = (calib(cal, "both_getppid") - calib(cal, "ftrace_tp_getppid") -
			       calib(cal, "nc_getppid") + calib(cal, "base_getppid")) / 2;
	if (m->dispatch < 0)
		m->dispatch = 0;	/* measured -1 to -11: none */
	/* K: a second ftrace kprobe event on the same address (refined in-run, main) */
	m->k_fts = m->k_thr = m->k_kss = calib(cal, "ftrace_kp2_getppid") - calib(cal, "ftrace_kp1_getppid");
	/* netcost 0.4.0: an IRQ thread run ends at the thread's next kthread_should_stop() */
	m->thr_fentry = hook_fentry(nc, "irq_forced_thread_fn") || hook_fentry(nc, "irq_thread_fn");
	/* netcost 0.6.0: and the thread's next run starts at that stamp */
	m->thr_chain = m->thr_fentry && version_at_least(nc, 0, 6);
	m->tsc_khz = (unsigned int)json_integer_value(
		json_object_get(json_object_get(nc, "info"), "tsc_khz"));
	json_array_foreach(hooks, i, h) {
		if (json_is_true(json_object_get(h, "attached")) && m->nhooks < 64)
			snprintf(m->hooks[m->nhooks++], 64, "%s",
				 json_string_value(json_object_get(h, "name")));
	}
	f = fopen(path(dir, "netdevs.txt"), "r");
	if (!f)
		die("cannot read %s", path(dir, "netdevs.txt"));
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%63s %63s", a, b);

		if (n >= 1 && m->nnic_names < 31)
			snprintf(m->nic_names[m->nnic_names++], 64, "%s", a);
		if (n == 2 && m->nnic_names < 31)
			snprintf(m->nic_names[m->nnic_names++], 64, "%s", b);
	}
	fclose(f);
	/* /proc/interrupts: an IRQ is a NIC's when an action is named after one */
	f = fopen(path(dir, "interrupts.txt"), "r");
	if (!f)
		die("cannot read %s", path(dir, "interrupts.txt"));
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save;
		int irq;

		if (sscanf(line, " %d:", &irq) != 1 || irq < 0 || irq >= 4096)
			continue;
		for (tok = strtok_r(line, " ,\n", &save); tok; tok = strtok_r(NULL, " ,\n", &save)) {
			int j;

			for (j = 0; j < m->nnic_names; j++) {
				size_t n = strlen(m->nic_names[j]);

				if (!strncmp(tok, m->nic_names[j], n) && (!tok[n] || tok[n] == '-'))
					m->nic_irq[irq] = 1;
			}
		}
	}
	fclose(f);
}

/* netcost's figures for one stage of one CPU */
struct nhist {
	uint64_t count, sum, min, max;
	uint64_t b[HIST_BUCKETS];
};

static json_t *nc_cpu(json_t *nc, int cpu)
{
	json_t *cpus = json_object_get(nc, "cpus"), *c;
	size_t i;

	json_array_foreach(cpus, i, c)
		if (json_integer_value(json_object_get(c, "cpu")) == cpu)
			return c;
	return NULL;
}

static void nc_stage(json_t *c, const char *name, struct nhist *h)
{
	json_t *s = json_object_get(json_object_get(c, "stages"), name), *b;
	size_t i;

	memset(h, 0, sizeof(*h));
	if (!s)
		return;
	h->count = json_integer_value(json_object_get(s, "count"));
	/* schema 3 keys a stage's sum by its unit: "packets" for napi_poll_work */
	h->sum = json_integer_value(json_object_get(s, json_object_get(s, "packets") ?
						     "packets" : "cycles"));
	h->min = json_integer_value(json_object_get(s, "min"));
	h->max = json_integer_value(json_object_get(s, "max"));
	json_array_foreach(json_object_get(s, "buckets"), i, b) {
		uint64_t lo = json_integer_value(json_object_get(b, "lo"));

		h->b[hist_index(lo)] += json_integer_value(json_object_get(b, "count"));
	}
}

static uint64_t nc_counter(json_t *c, const char *name)
{
	return json_integer_value(json_object_get(json_object_get(c, "counters"), name));
}

static double mean(uint64_t sum, uint64_t n)
{
	return n ? (double)sum / n : 0;
}

/* the committed residuals (residuals.md): one row per kernel, CPU and stage */
enum resid_class { RC_MEAN, RC_SHORT, RC_LONG };

struct resid {
	char kernel[32], cpu[16], name[64];
	double nc, rp;
	enum resid_class cls;	/* from the band column; RC_MEAN: by its mean */
};
static struct resid *resids;
static size_t nresids;
static const char *resid_file;

static char *trim(char *p)
{
	char *e;

	while (*p == ' ' || *p == '\t')
		p++;
	e = p + strlen(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = 0;
	return p;
}

/*
 * load_residuals - the table rows "| kernel | cpu | stage | events |
 * netcost | replay | difference | band |"; other lines are prose
 */
static void load_residuals(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[512];

	if (!f)
		die("cannot read the committed residuals %s", file);
	while (fgets(line, sizeof(line), f)) {
		char *col[9], *p = line, *end;
		struct resid r;
		int n = 0;

		if (*p != '|')
			continue;
		p++;
		while (n < 9 && (end = strchr(p, '|'))) {
			*end = 0;
			col[n++] = trim(p);
			p = end + 1;
		}
		if (n < 8)
			continue;
		memset(&r, 0, sizeof(r));
		r.nc = strtod(col[4], &end);
		if (end == col[4] || *end)
			continue;	/* the header, the rule */
		r.rp = strtod(col[5], &end);
		if (end == col[5] || *end)
			continue;
		/* "±40 cycles": short; "±1.5%": long; "-64..+40 cycles": an offset */
		if (strchr(col[7], '%'))
			r.cls = RC_LONG;
		else if (strstr(col[7], "cycles") && !strstr(col[7], ".."))
			r.cls = RC_SHORT;
		snprintf(r.kernel, sizeof(r.kernel), "%s", col[0]);
		snprintf(r.cpu, sizeof(r.cpu), "%s", col[1]);
		snprintf(r.name, sizeof(r.name), "%s", col[2]);
		resids = realloc(resids, (nresids + 1) * sizeof(*resids));
		if (!resids)
			die("%s", "out of memory");
		resids[nresids++] = r;
	}
	fclose(f);
}

static const struct resid *resid_find(const char *cpu, const char *name)
{
	size_t i;

	for (i = 0; i < nresids; i++)
		if (!strcmp(resids[i].kernel, rlabel) && !strcmp(resids[i].cpu, cpu) &&
		    !strcmp(resids[i].name, name))
			return &resids[i];
	return NULL;
}

/* cycles_sum - a "_cycles" counter: a sum of cycles over the counter before it */
static int cycles_sum(const char *name)
{
	size_t l = strlen(name);

	return l > 7 && !strcmp(name + l - 7, "_cycles");
}

/* blocked_wait - a load task's sleeps and their split by waker */
static int blocked_wait(const char *name)
{
	return !strcmp(name, "blocked_load") ||
	       (!strncmp(name, "blocked_load_woken_by_", 22) && cycles_sum(name));
}

/*
 * switch_wait - the waits that netcost records in a switch after its
 * stamp, work the model does not charge, so that the replay reads them
 * long by a per-wait offset, one-sided, at any length of wait: those
 * that end at the switch into a woken thread (residuals.md: -29 to -93
 * cycles; the mix of waits, and so the mean offset, moves from run to
 * run: 7.3's runq_wait_ksoftirqd read -86 over 25 waits, -36 over 1),
 * and a load task's sleeps (blocked_load and its _woken_by_ counters),
 * which start at the switch that puts it to sleep (-20 to -173 cycles a
 * sleep by the waker's path, within a few cycles run to run over
 * thousands of sleeps; one short sleep woken by a load task, 6,197
 * cycles, read -108 = -1.74%, outside a long band).  The band is
 * one-sided: netcost may read short of the replay by up to the
 * committed offset + 40 cycles, and long by no more than 40.
 */
static int switch_wait(const char *name)
{
	return !strcmp(name, "wakeup_latency") || !strcmp(name, "runq_wait_irq_thread") ||
	       !strcmp(name, "runq_wait_ksoftirqd") || blocked_wait(name);
}

/* resid_short - whether a committed row is held in cycles (a short stage) */
static int resid_short(const struct resid *e)
{
	return e->cls == RC_MEAN ? e->rp < MEAN_SMALL : e->cls == RC_SHORT;
}

/*
 * blocked_offset - for a sleep split that compared nothing in the
 * committed run (a rare waker: 6.12-rt-threaded's one load task woken by
 * a load), the committed blocked_load* row of this kernel and CPU with
 * the largest per-sleep offset: the waker's path sets the offset
 * (-20 to -173 cycles), and the table measured this kernel's widest
 */
static const struct resid *blocked_offset(const char *cpu)
{
	const struct resid *w = NULL;
	size_t i;

	for (i = 0; i < nresids; i++) {
		const struct resid *e = &resids[i];

		if (strcmp(e->kernel, rlabel) || strcmp(e->cpu, cpu) || !blocked_wait(e->name))
			continue;
		if (!w || e->nc - e->rp < w->nc - w->rp)
			w = e;
	}
	return w;
}

/* resid_kernel - whether the committed table has this kernel at all */
static int resid_kernel(void)
{
	size_t i;

	for (i = 0; i < nresids; i++)
		if (!strcmp(resids[i].kernel, rlabel))
			return 1;
	return 0;
}

/*
 * band_ok - a mean against the replay's, by the band of the committed
 * residual of @name on @cpu ("cpu0", "all"); @rel is the long band (1.5%,
 * the per-packet total 1%); *why says what was compared
 */
static int band_ok(const char *cpu, const char *name, double nc, double rp, double rel,
		   double sh, double lg, char *why, size_t len)
{
	const struct resid *e = resid_find(cpu, name);
	double d = nc - rp, d0, r, r0;
	struct resid none;
	int ok;

	if (!e && !resid_kernel()) {
		snprintf(why, len, "%+.0f cycles: no committed residual for %s %s %s in %s",
			 d, rlabel, cpu, name, resid_file ? resid_file : "(no --residuals)");
		return 0;
	}
	if (!e && blocked_wait(name))
		e = blocked_offset(cpu);
	if (!e) {
		/*
		 * a line of a committed kernel that compared nothing in the
		 * committed run (a rare event): its band around no offset
		 */
		memset(&none, 0, sizeof(none));
		none.nc = none.rp = rp;
		e = &none;
	}
	d0 = e->nc - e->rp;
	/*
	 * sh, lg: how much shorter or longer netcost may read, per event,
	 * for interrupts between the two tools' probes (replay.c): the
	 * band's ends move by them, each on its own side
	 */
	if (switch_wait(name)) {
		double lo = fmin(d0, 0) - BAND_SHORT - sh, hi = fmax(d0, 0) + BAND_SHORT + lg;

		snprintf(why, len, "%+.0f cycles, committed %+.0f, band %+.0f..%+.0f (one-sided)",
			 d, d0, lo, hi);
		ok = d >= lo && d <= hi;
	} else if (resid_short(e)) {
		if (sh || lg)
			snprintf(why, len, "%+.0f cycles, committed %+.0f, band %+.0f..%+.0f",
				 d, d0, -BAND_SHORT - sh, BAND_SHORT + lg);
		else
			snprintf(why, len, "%+.0f cycles, committed %+.0f, band +-%.0f", d, d0,
				 BAND_SHORT);
		ok = d - d0 >= -BAND_SHORT - sh && d - d0 <= BAND_SHORT + lg;
	} else {
		double rs = rp ? sh / rp : 0, rl = rp ? lg / rp : 0;

		r = rp ? d / rp : (d ? INFINITY : 0);
		r0 = e->rp ? d0 / e->rp : 0;
		if (sh || lg)
			snprintf(why, len, "%+.2f%%, committed %+.2f%%, band %+.2f%%..%+.2f%%", 100 * r,
				 100 * r0, -100 * (rel + rs), 100 * (rel + rl));
		else
			snprintf(why, len, "%+.2f%%, committed %+.2f%%, band +-%.1f%%", 100 * r,
				 100 * r0, 100 * rel);
		ok = r >= -rel - rs && r <= rel + rl && r - r0 >= -rel - rs && r - r0 <= rel + rl;
	}
	return ok;
}

/* the offset a short stage's events carry by the model (its committed residual) */
static double resid_offset(const char *cpu, const char *name)
{
	const struct resid *e = resid_find(cpu, name);

	return e && (resid_short(e) || switch_wait(name)) ? e->nc - e->rp : 0;
}

static void where_they_disagree(const struct rhist *r, const struct nhist *n,
				const struct rstats *rs)
{
	unsigned int i;
	size_t k, shown = 0;

	for (i = 0; i < HIST_BUCKETS; i++)
		if (r->b[i] != n->b[i])
			break;
	if (i == HIST_BUCKETS) {
		printf("#   histograms are equal bucket by bucket\n");
		return;
	}
	printf("#   first bucket that differs: [%llu, %llu]: netcost %llu, replay %llu\n",
	       (unsigned long long)hist_lo(i), (unsigned long long)hist_hi(i),
	       (unsigned long long)n->b[i], (unsigned long long)r->b[i]);
	{
		unsigned int j, more = 0;

		printf("#   buckets that differ (netcost/replay):");
		for (j = i; j < HIST_BUCKETS; j++) {
			if (r->b[j] == n->b[j])
				continue;
			if (more++ < 16)
				printf(" [%llu,%llu] %llu/%llu", (unsigned long long)hist_lo(j),
				       (unsigned long long)hist_hi(j), (unsigned long long)n->b[j],
				       (unsigned long long)r->b[j]);
		}
		printf(more > 16 ? " and %u more\n" : "\n", more - 16);
	}
	/* ORACLE_SHOW_BUCKET=LO: the replay's events of the bucket from LO instead */
	if (getenv("ORACLE_SHOW_BUCKET"))
		i = hist_index(strtoull(getenv("ORACLE_SHOW_BUCKET"), NULL, 10));
	for (k = 0; k < r->nev && shown < 5; k++) {
		const struct rev *e = &r->ev[k];

		if (hist_index(e->v) != i)
			continue;
		printf("#   replay event: %llu..%llu (trace ts) value %llu, pid %d (%s)\n",
		       (unsigned long long)e->t0, (unsigned long long)e->t1,
		       (unsigned long long)e->v, e->pid, rs->comm[(unsigned int)e->pid % 65536]);
		shown++;
	}
	if (!shown)
		printf("#   (the replay has no event in that bucket)\n");
}

/*
 * The histograms (issue 20, item 4): the buckets that hold the 50th, 90th
 * and 99th percentile of netcost's histogram and of the replay's events
 * must be at most one bucket apart.  The replay's events are taken with
 * the stage's documented offset (a short stage's committed residual:
 * the model's known remainder, the same on every event), so that a stage
 * whose mean keeps its band is not failed for a shift the band allows,
 * while a change of shape (a tail, a second cluster) fails.  Each side's
 * quantile is taken over the ranks within HIST_RANK_TOL of it: where the
 * quantile falls in a gap between two clusters, one event decides which
 * side it lands on (a CI run of 0.12.0, 6.12-rt-rps's irq_thread: 3,000 of
 * 6,006 runs below 16,384 cycles and 3,002 above, in netcost and in the
 * replay alike, but for one run: netcost's p50 [16384,18431], the
 * replay's [14336,15359]).
 */
#define HIST_RANK_TOL 0.005
/*
 * ftrace's own events cost more before their timestamp now and then: a
 * twin pair (two kprobe events with nothing between them) is one handler
 * apart, but in about 0.2-1% of pairs some 190 cycles more (6.1: 50 of
 * 12,204 pairs at 832 against 645), ftrace's ring buffer moving to its
 * next page.  calibrate() measures that step in-run (ps_cost, the median
 * excess of the pairs over K + 100); load_pages() finds the events that
 * paid it in the recording's ring-buffer pages, and the replay moves them
 * (replay.c, page_move()).
 */
static double ps_rate, ps_cost;

/* pct_bucket - the bucket of quantile @q of @total events in buckets @b */
static unsigned int pct_bucket(const uint64_t *b, double q, uint64_t total)
{
	uint64_t rank = (uint64_t)ceil(q * total), cum = 0;
	unsigned int i;

	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		cum += b[i];
		if (cum >= rank)
			return i;
	}
	return HIST_BUCKETS - 1;
}

/* median_lo - the low end of the median's bucket of @total events in @b */
static double median_lo(const uint64_t *b, uint64_t total)
{
	return total ? (double)hist_lo(pct_bucket(b, 0.5, total)) : INFINITY;
}

/* the replay's quantile @q of its sorted values @v */
static double rp_quantile(const uint64_t *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * n);

	return (double)v[(rank ? rank : 1) - 1];
}

/*
 * the turn readings of a stage's events (struct rev's turn_*): how many
 * events have one, and the event with the largest of each side, which
 * alone the compare takes to have had the turn between the probes
 */
struct turns {
	uint64_t n;
	size_t si, li;		/* the events of the largest turn_short, turn_long */
	double sh, lg;		/* those turns */
};

static struct turns turns_of(const struct rhist *r)
{
	struct turns t = { 0, 0, 0, 0, 0 };
	size_t i;

	for (i = 0; i < r->nev; i++) {
		const struct rev *e = &r->ev[i];

		t.n += e->turn_short || e->turn_long;
		if (e->turn_short > r->ev[t.si].turn_short)
			t.si = i;
		if (e->turn_long > r->ev[t.li].turn_long)
			t.li = i;
	}
	if (r->nev) {
		t.sh = (double)r->ev[t.si].turn_short;
		t.lg = (double)r->ev[t.li].turn_long;
	}
	return t;
}

static void cmp_hist(const char *cpus, int s, const struct rhist *r, const struct nhist *n)
{
	static const double q[] = { 0.50, 0.90, 0.99 };
	double off = s == ST_NAPI_POLL_WORK ? 0 : resid_offset(cpus, stage_name[s]);
	uint64_t *v = malloc(3 * (r->nev + 1) * sizeof(*v)), total = 0, *vl, *vh;
	char txt[3][96];
	struct turns t = turns_of(r);
	int ok = 1, k;
	size_t i;

	if (!v)
		die("%s", "out of memory");
	/*
	 * the replay's events, and their other readings (amb: netcost's
	 * ends), one event's with a turn between the probes too (the one
	 * whose turn reading moves it most, each way)
	 */
	vl = v + r->nev + 1;
	vh = vl + r->nev + 1;
	for (i = 0; i < r->nev; i++) {
		double x = (double)r->ev[i].v + off,
		       xl = (double)r->ev[i].lo - (i == t.si ? t.sh : 0) + off,
		       xh = (double)r->ev[i].hi + (i == t.li ? t.lg : 0) + off;

		v[i] = x > 0 ? (uint64_t)(x + 0.5) : 0;
		vl[i] = xl > 0 ? (uint64_t)(xl + 0.5) : 0;
		vh[i] = xh > 0 ? (uint64_t)(xh + 0.5) : 0;
	}
	qsort(v, r->nev, sizeof(*v), cmp_u64);
	qsort(vl, r->nev, sizeof(*v), cmp_u64);
	qsort(vh, r->nev, sizeof(*v), cmp_u64);
	for (i = 0; i < HIST_BUCKETS; i++)
		total += n->b[i];
	if (!total || total != n->count || !r->nev) {
		failures++;
		printf("not ok - %s: %s %s histogram: netcost's buckets hold %llu events of %llu, the replay's %zu\n",
		       label, cpus, stage_name[s], (unsigned long long)total,
		       (unsigned long long)n->count, r->nev);
		free(v);
		return;
	}
	for (k = 0; k < 3; k++) {
		/*
		 * the replay's quantile, and the same with every event whose
		 * end an interrupt may have moved (amb) read short, then long
		 */
		/*
		 * a sampled stage's buckets are a random sample of its
		 * events: its quantile's rank is within 3 standard errors
		 * of a binomial proportion
		 */
		double tol = sampled_stage(s) ?
			     fmax(HIST_RANK_TOL, 3 * sqrt(q[k] * (1 - q[k]) / (double)total)) :
			     HIST_RANK_TOL;
		double qlo = fmax(q[k] - tol, 0), qhi = fmin(q[k] + tol, 1);
		double rq = rp_quantile(v, r->nev, q[k]);
		double rl = rp_quantile(vl, r->nev, qlo), rh = rp_quantile(vh, r->nev, qhi);
		unsigned int nb = pct_bucket(n->b, q[k], total), rb0, rb1;
		unsigned int nb0 = pct_bucket(n->b, qlo, total), nb1 = pct_bucket(n->b, qhi, total);
		int good;

		rb0 = hist_index((uint64_t)fmin(rq, rl));
		rb1 = hist_index((uint64_t)fmax(rq, rh));
		/* one bucket apart at most, at some rank within the tolerance */
		good = nb1 + 1 >= rb0 && nb0 <= rb1 + 1;
		ok &= good;
		snprintf(txt[k], sizeof(txt[k]), "p%.0f [%llu,%llu] vs [%llu,%llu]%s", 100 * q[k],
			 (unsigned long long)hist_lo(nb), (unsigned long long)hist_hi(nb),
			 (unsigned long long)hist_lo(rb0), (unsigned long long)hist_hi(rb1),
			 good ? "" : " (apart)");
	}
	if (!ok)
		failures++;
	printf("%s - %s: %s %s histogram: %s, %s, %s (netcost vs replay%s%+.0f; within one bucket at a rank within %s of the quantile's%s)\n",
	       ok ? "ok" : "not ok", label, cpus, stage_name[s], txt[0], txt[1], txt[2],
	       off ? " with its documented offset " : "", off,
	       sampled_stage(s) ? "0.5% or 3 standard errors of its sample of timed events" : "0.5%",
	       r->namb || t.n ? ", the replay's range over its two readings of events with an interrupt or a vCPU's turn between the tools' probes" : "");
	free(v);
}

/* appendf - printf at the end of the string @buf of @len bytes */
static void __attribute__((format(printf, 3, 4))) appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t l = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + l, len - l, fmt, ap);
	va_end(ap);
}

/*
 * cmp_sampled - a sampled stage (sampled_stage()): every event counted,
 * timed or not (@untimed: netcost's <stage>_untimed), and the mean of
 * the timed ones within SAMPLE_MEAN_TOL of the unsampled mean (the
 * replay's, plus the committed residual of the unsampled recording)
 */
static void cmp_sampled(int cpu, int s, const struct rhist *r, const struct nhist *n,
			uint64_t untimed)
{
	const struct resid *e;
	char cpus[16];
	double mr = mean(r->sum, r->count), mn = mean(n->sum, n->count), d0 = 0, want, rel;
	int ok_count = n->count + untimed == r->count, ok_mean;

	snprintf(cpus, sizeof(cpus), "cpu%d", cpu);
	e = resid_find(cpus, stage_name[s]);
	if (e)
		d0 = e->nc - e->rp;
	want = mr + d0;
	rel = want ? (mn - want) / want : 0;
	ok_mean = n->count && fabs(rel) <= SAMPLE_MEAN_TOL;
	if (!ok_count || !ok_mean)
		failures++;
	printf("%s - %s: cpu%d %s sampled 1 in %u: events %llu timed + %llu untimed %s %llu, mean %.0f of the timed vs the unsampled %.0f (replay %.0f, committed residual of %s %+.0f): %+.2f%% (within +-%.0f%%)\n",
	       ok_count && ok_mean ? "ok" : "not ok", label, cpu, stage_name[s], sample_n,
	       (unsigned long long)n->count, (unsigned long long)untimed,
	       ok_count ? "=" : "!=", (unsigned long long)r->count, mn, want, mr, rlabel, d0,
	       100 * rel, 100 * SAMPLE_MEAN_TOL);
	fprintf(tsv, "%s\tcpu%d\t%s\t%llu\t%llu\t%.1f\t%.1f\tsampled\t%s\n", label, cpu,
		stage_name[s], (unsigned long long)(n->count + untimed),
		(unsigned long long)r->count, mn, mr, ok_count && ok_mean ? "ok" : "FAIL");
	if (r->count && n->count)
		cmp_hist(cpus, s, r, n);
}

static void cmp_stage(int cpu, int s, const struct rhist *r, const struct nhist *n,
		      const struct rstats *rs, uint64_t untimed)
{
	double mr = mean(r->sum, r->count), mn = mean(n->sum, n->count);
	struct turns t = turns_of(r);
	char why[320] = "", what[96], cpus[16];
	int ok_count = r->count == n->count, ok_mean;

	snprintf(cpus, sizeof(cpus), "cpu%d", cpu);

	if (sampled_stage(s) && (r->count || n->count || untimed)) {
		cmp_sampled(cpu, s, r, n, untimed);
		return;
	}
	if (!r->count && !n->count && !r->sum && !n->sum) {
		snprintf(what, sizeof(what), "cpu%d %s", cpu, stage_name[s]);
		not_applicable(what, "no events on either side (0 = 0)");
		fprintf(tsv, "%s\tcpu%d\t%s\t0\t0\t0.0\t0.0\t-\tn/a\n", label, cpu, stage_name[s]);
		return;
	}
	if (s == ST_NAPI_POLL_WORK) {
		ok_mean = r->sum == n->sum;
		snprintf(why, sizeof(why), "packets, exact");
	} else {
		ok_mean = band_ok(cpus, stage_name[s], mn, mr, BAND_LONG,
				  r->count ? (r->amb_short + t.sh) / r->count : 0,
				  r->count ? (r->amb_long + t.lg) / r->count : 0,
				  why, sizeof(why));
		if (r->namb)
			appendf(why, sizeof(why),
				"; %llu with an interrupt between the tools' probes at a start or an end: -%.0f..+%.0f",
				(unsigned long long)r->namb, r->amb_short / r->count,
				r->amb_long / r->count);
		if (t.n)
			appendf(why, sizeof(why),
				"; %llu after another vCPU's turn at a start or an end, one of which may have had it between the tools' probes: -%.0f..+%.0f",
				(unsigned long long)t.n, t.sh / r->count, t.lg / r->count);
	}
	if (!r->count || !n->count) {
		ok_mean = r->sum == n->sum;	/* no mean to compare: the sums must agree */
		snprintf(why, sizeof(why), "no mean to compare: sums %llu, %llu",
			 (unsigned long long)n->sum, (unsigned long long)r->sum);
	}
	if (ok_count && ok_mean && s == ST_NAPI_POLL_WORK) {
		printf("ok - %s: cpu%d %s count %llu = %llu, sum %llu = %llu packets\n", label, cpu,
		       stage_name[s], (unsigned long long)n->count, (unsigned long long)r->count,
		       (unsigned long long)n->sum, (unsigned long long)r->sum);
	} else if (ok_count && ok_mean) {
		printf("ok - %s: cpu%d %s count %llu = %llu, mean %.0f vs replay %.0f (%s)\n", label, cpu,
		       stage_name[s], (unsigned long long)n->count, (unsigned long long)r->count,
		       mn, mr, why);
	} else {
		failures++;
		printf("not ok - %s: cpu%d %s count %llu %s %llu, mean %.0f vs replay %.0f (%s)\n",
		       label, cpu, stage_name[s], (unsigned long long)n->count,
		       ok_count ? "=" : "!=", (unsigned long long)r->count, mn, mr, why);
		printf("#   netcost: count %llu mean %.1f min %llu max %llu\n",
		       (unsigned long long)n->count, mn, (unsigned long long)n->min,
		       (unsigned long long)n->max);
		printf("#   replay:  count %llu mean %.1f min %llu max %llu\n",
		       (unsigned long long)r->count, mr, (unsigned long long)r->min,
		       (unsigned long long)r->max);
		where_they_disagree(r, n, rs);
	}
	/* ORACLE_SHOW_TURNS: each stage's largest turn readings (tests/oracle/selftest) */
	if (getenv("ORACLE_SHOW_TURNS") && t.n)
		printf("# turn: cpu%d %s count %llu turns %llu short %.0f long %.0f\n", cpu,
		       stage_name[s], (unsigned long long)r->count, (unsigned long long)t.n,
		       t.sh, t.lg);
	fprintf(tsv, "%s\tcpu%d\t%s\t%llu\t%llu\t%.1f\t%.1f\t%s\t%s\n", label, cpu, stage_name[s],
		(unsigned long long)n->count, (unsigned long long)r->count, mn, mr,
		s == ST_NAPI_POLL_WORK || !mr ? "exact" : switch_wait(stage_name[s]) ? "offset" :
		mr < MEAN_SMALL || median_lo(r->b, r->count) < MEAN_SMALL ? "short" : "long",
		ok_count && ok_mean ? "ok" : "FAIL");
	if (r->count && n->count)
		cmp_hist(cpus, s, r, n);
}

/*
 * cmp_counter - one counter of one CPU.  A plain counter must be equal; a
 * "_cycles" sum is compared per event (the mean rule) over the count it
 * belongs to: the counter before it, or for runq_wait_behind_* the
 * runqueue waits of all three kinds.  Zero on both sides compares nothing;
 * a sum without events on one side (or with events and no sum) cannot be
 * compared per event and must be equal, events and sum.
 */
static void cmp_counter(json_t *c, int cpu, int i, const struct rstats *rs)
{
	uint64_t vn = nc_counter(c, counter_name[i]), vr = rs->c[cpu][i], cn = 0, cr = 0;
	const char *nm = counter_name[i];
	char why[192] = "exact", what[96], cpus[16];
	int ok, per_event = 0, s;
	double med = INFINITY;	/* the replay's median event, where it has them */
	struct nhist n;

	if (!strncmp(nm, "runq_wait_behind_", 17)) {
		uint64_t wb[HIST_BUCKETS] = { 0 }, wn = 0;
		unsigned int b;

		for (s = ST_RUNQ_WAIT_LOAD; s <= ST_RUNQ_WAIT_KSOFTIRQD; s++) {
			nc_stage(c, stage_name[s], &n);
			cn += n.count;
			cr += rs->h[cpu][s].count;
			wn += rs->h[cpu][s].count;
			for (b = 0; b < HIST_BUCKETS; b++)
				wb[b] += rs->h[cpu][s].b[b];
		}
		/*
		 * a wait's offset (+108 cycles on 6.12) lands in the class it
		 * ends behind: short when the waits are
		 */
		med = median_lo(wb, wn);
		per_event = 1;
	} else if (i == C_IRQ_THREAD_EXCL_CYCLES || i == C_NAPI_THREAD_EXCL_CYCLES) {
		/* per irq_thread or napi_thread run */
		s = i == C_IRQ_THREAD_EXCL_CYCLES ? ST_IRQ_THREAD : ST_NAPI_THREAD;
		nc_stage(c, stage_name[s], &n);
		cn = n.count;
		cr = rs->h[cpu][s].count;
		per_event = 1;
	} else if (cycles_sum(nm)) {
		cn = nc_counter(c, counter_name[i - 1]);
		cr = rs->c[cpu][i - 1];
		per_event = 1;
	}
	snprintf(what, sizeof(what), "cpu%d %s", cpu, nm);
	if (!vn && !vr) {
		not_applicable(what, per_event && (cn || cr) ? "0 cycles on both sides (0 = 0)"
							    : "0 on both sides (0 = 0)");
		return;
	}
	snprintf(cpus, sizeof(cpus), "cpu%d", cpu);
	if (per_event && cn && cr) {
		double mn = mean(vn, cn), mr = mean(vr, cr);

		ok = band_ok(cpus, nm, mn, mr, BAND_LONG,
			     (rs->camb_short[cpu][i] + rs->cturn_short[cpu][i]) / cr,
			     (rs->camb_long[cpu][i] + rs->cturn_long[cpu][i]) / cr, why, sizeof(why));
		if (rs->cturn_short[cpu][i] || rs->cturn_long[cpu][i])
			appendf(why, sizeof(why),
				"; one run may have had another vCPU's turn between the tools' probes: -%.0f..+%.0f",
				rs->cturn_short[cpu][i] / cr, rs->cturn_long[cpu][i] / cr);
		fprintf(tsv, "%s\tcpu%d\t%s\t%llu\t%llu\t%.1f\t%.1f\t%s\t%s\n", label, cpu, nm,
			(unsigned long long)cn, (unsigned long long)cr, mn, mr,
			switch_wait(nm) ? "offset" : mr < MEAN_SMALL || med < MEAN_SMALL ? "short" : "long",
			ok ? "ok" : "FAIL");
	} else {
		ok = vn == vr && cn == cr;
		if (per_event)
			snprintf(why, sizeof(why), "exact: %llu vs %llu events, no mean to compare",
				 (unsigned long long)cn, (unsigned long long)cr);
	}
	if (!ok)
		failures++;
	printf("%s - %s: %s %llu %s %llu (%s)\n", ok ? "ok" : "not ok", label, what,
	       (unsigned long long)vn, vn == vr ? "=" : "vs replay", (unsigned long long)vr, why);
}

/*
 * not_replayed - netcost's stages and counters that the replay does not
 * define (a stage added to the module after the oracle, e.g. one on a
 * path this load never takes): not applicable while netcost leaves them
 * at 0; with events there, a failure: the oracle cannot check them.
 */
static void not_replayed(json_t *c, int cpu)
{
	static const char *const what[2] = { "stages", "counters" };
	const char *key;
	json_t *v;
	int k, j;

	for (k = 0; k < 2; k++) {
		json_object_foreach(json_object_get(c, what[k]), key, v) {
			const char *const *names = k ? counter_name : stage_name;
			int nn = k ? NCOUNTERS : NSTAGES;
			uint64_t x;
			char w[160];

			for (j = 0; j < nn; j++)
				if (!strcmp(names[j], key))
					break;
			if (j < nn)
				continue;
			x = json_integer_value(k ? v : json_object_get(v, "count"));
			snprintf(w, sizeof(w), "cpu%d %s", cpu, key);
			if (k && (!strcmp(key, "rx_skb_untimed") || !strcmp(key, "tx_xmit_untimed"))) {
				/* sampled: in its stage's line (cmp_sampled()); else none */
				if (sample_n > 1)
					continue;
				if (x)
					failures++;
				printf("%s - %s: %s %llu without sampling (config sample 1: every event timed)\n",
				       x ? "not ok" : "ok", label, w, (unsigned long long)x);
			} else if (k && (!strcmp(key, "probe_hits") || !strcmp(key, "task_table_full"))) {
				char why[128];

				snprintf(why, sizeof(why), "netcost's own health counter (%llu), not a stage definition",
					 (unsigned long long)x);
				not_applicable(w, why);
			} else if (!x) {
				not_applicable(w, k ? "a counter the replay does not define, 0 in netcost"
						    : "a stage the replay does not define, no events in netcost");
			} else {
				failures++;
				printf("not ok - %s: %s: netcost has %llu%s in a %s the replay does not define: the oracle cannot check it\n",
				       label, w, (unsigned long long)x, k ? "" : " events",
				       k ? "counter" : "stage");
			}
		}
	}
}

static const int top_level[] = {
	ST_HARDIRQ, ST_SOFTIRQ_NET_RX, ST_SOFTIRQ_NET_TX, ST_IRQ_THREAD,
	ST_CTX_SWITCH, ST_SYSCALL_RX, ST_SYSCALL_TX, ST_NAPI_THREAD,
};

/*
 * No cycle in two CPU-time stages (issue 19, item 4): each run of a stage
 * that is CPU time (the top-level ones and the "other" ones, hardirq_other,
 * softirq_other, hardirq_vectors) holds its own work only, so the runs of
 * those stages that lie inside its span on its CPU, each net of what it
 * holds in turn, fit in that span beside it: its net plus theirs is at
 * most its span.  A run that failed to take out a nested interrupt,
 * softirq, IRQ-thread run or the time its task was off the CPU (where
 * other tasks' runs lie) overfills its span by that much.  The replay's
 * nets are on netcost's stamps (the probes' modelled places), the spans
 * on the trace's: each run may overfill by a few probe offsets,
 * EXCL_TOL cycles.  Before 0.6.0 irq_thread held the softirqs of its
 * run, NET_RX's among them (the total took those out once): a snapshot
 * of such a module fails here, as two top-level stages held them.
 */
#define EXCL_TOL	1500.0

struct xrun {
	uint64_t t0, t1, v;
	int s;
};

static int cmp_xrun(const void *a, const void *b)
{
	const struct xrun *x = a, *y = b;

	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->t1 != y->t1)
		return x->t1 > y->t1 ? -1 : 1;	/* the outer first */
	return 0;
}

static void check_exclusive(int cpu, const struct rstats *rs)
{
	static const int cpu_time[] = {
		ST_HARDIRQ, ST_SOFTIRQ_NET_RX, ST_SOFTIRQ_NET_TX, ST_IRQ_THREAD,
		ST_CTX_SWITCH, ST_SYSCALL_RX, ST_SYSCALL_TX, ST_NAPI_THREAD,
		ST_HARDIRQ_OTHER, ST_SOFTIRQ_OTHER, ST_HARDIRQ_VECTORS, ST_CTX_SWITCH_OTHER,
	};
	size_t n = 0, i, j, k, over = 0, nested = 0;
	double worst = -1e18;
	struct xrun *x, wx = { 0 };
	char what[64];

	for (k = 0; k < sizeof(cpu_time) / sizeof(cpu_time[0]); k++)
		n += rs->h[cpu][cpu_time[k]].nev;
	snprintf(what, sizeof(what), "cpu%d no cycle in two CPU-time stages", cpu);
	if (!n) {
		not_applicable(what, "no runs");
		return;
	}
	x = calloc(n, sizeof(*x));
	if (!x)
		die("oracle: %s", "out of memory");
	n = 0;
	for (k = 0; k < sizeof(cpu_time) / sizeof(cpu_time[0]); k++) {
		const struct rhist *h = &rs->h[cpu][cpu_time[k]];

		for (i = 0; i < h->nev; i++)
			x[n++] = (struct xrun){ h->ev[i].t0, h->ev[i].t1, h->ev[i].v, cpu_time[k] };
	}
	qsort(x, n, sizeof(*x), cmp_xrun);
	for (i = 0; i < n; i++) {
		double in = 0, excess;

		for (j = i + 1; j < n && x[j].t0 <= x[i].t1; j++) {
			if (x[j].t1 > x[i].t1)
				continue;
			in += (double)x[j].v;
			nested++;
		}
		excess = (double)x[i].v + in - (double)(x[i].t1 - x[i].t0);
		if (excess > EXCL_TOL)
			over++;
		if (excess > worst) {
			worst = excess;
			wx = x[i];
		}
	}
	if (over)
		failures++;
	printf("%s - %s: %s: %zu of %zu runs overfill their span by more than %.0f cycles (most: %.0f, %s at %llu..%llu; %zu runs inside others)\n",
	       over ? "not ok" : "ok", label, what, over, n, EXCL_TOL, worst, stage_name[wx.s],
	       (unsigned long long)wx.t0, (unsigned long long)wx.t1, nested);
	free(x);
}

/*
 * k_median - an in-run K: the median of @s's twin-pair gaps into @k, when
 * there are the 100 pairs it needs; else a failure, and @k is left alone
 */
static int k_median(const struct ksamples *s, double *k)
{
	if (s->n < 100) {
		failures++;
		return 0;
	}
	*k = median_u64(s->v, s->n);
	return 1;
}

/*
 * calibrate - the model's in-run figures.  N for per-CPU frames: the NIC
 * hardirq's last stretch, from the last event inside it (or its entry)
 * to its exit, median in ftrace's own timestamps with netcost loaded
 * (phase B) minus without it (phase A): between those two timestamps
 * only netcost's irq_handler_exit probe was added.  (With threaded NAPI a
 * stock kernel's NIC handler wakes the NAPI thread: netcost's
 * sched_waking and sched_wakeup probes inside it made its whole length
 * read N = 471 on 6.12, against 148.)  K at each kprobe address: the gap
 * between a *_cal twin event and its event.
 */
/*
 * calibrate_poll - N at a napi_poll event of @kind (a NAPI thread's or a
 * NET_RX softirq's poll): netcost's whole probe there, which does more
 * than the per-CPU frame probe's N (a NAPI thread's task look-up; every
 * poll's per-instance record, 0.9.0), from the polls' last stretch
 * (from the event before to napi_poll) in ftrace's own timestamps, with
 * netcost (phase B) and without (phase A), on a kind of poll (device,
 * event before it) that both phases have 100 of: a NAPI thread's, the
 * one phase B has most of; a softirq's, the one whose stretch is
 * shortest in both phases, by the larger of its two p90s (a whole
 * TX-completion poll after softirq_entry holds netcost's fentry hooks
 * inside it too: 487 cycles on 6.1-rt against 400 after sched_wakeup;
 * a kind whose polls are of two sorts has a median that flips between
 * them: 6.1-tcp's "eth1 work 0 after softirq_entry", 988 cycles without
 * netcost and 14,181 with, made N 13,193 when the pick went by the
 * median without netcost)
 */
static double p90_of(struct ksamples *k)
{
	if (!k->n)
		return 0;
	qsort(k->v, k->n, sizeof(*k->v), cmp_u64);
	return (double)k->v[k->n * 9 / 10];
}

static double p90_both(struct ksamples *a, struct ksamples *b)
{
	double x = p90_of(a), y = p90_of(b);

	return x > y ? x : y;
}

static void calibrate_poll(struct rstats *ra, struct rstats *rb, int kind,
			   const char *what, const struct model *m, double *n)
{
	struct ksamples *sa = NULL, *sb = NULL;
	const char *key = "none";
	double a, b;
	int i, j, ok;

	for (i = 0; i < rb->n_polls[kind]; i++)
		for (j = 0; j < ra->n_polls[kind]; j++) {
			struct ksamples *x = &ra->n_poll[kind][j].s, *y = &rb->n_poll[kind][i].s;

			if (strcmp(rb->n_poll[kind][i].key, ra->n_poll[kind][j].key) ||
			    x->n < 100 || y->n < 100)
				continue;
			if (!sb || (kind == POLL_THR ? y->n > sb->n :
				    p90_both(x, y) < p90_both(sa, sb))) {
				sb = &rb->n_poll[kind][i].s;
				sa = x;
				key = rb->n_poll[kind][i].key;
			}
		}
	a = sa ? median_u64(sa->v, sa->n) : 0;
	b = sb ? median_u64(sb->v, sb->n) : 0;
	ok = sb && b - a > m->dispatch;
	if (ok)
		*n = b - a - m->dispatch;
	else
		failures++;
	printf("%s - %s: calibration: N at %s %s = %.1f: the last stretch of its polls (%s) median %.0f with netcost, %.0f without (%zu, %zu polls, need 100 each), less dispatch %.1f\n",
	       ok ? "ok" : "not ok", label, what, ok ? "measured in-run" : "not measured",
	       ok ? *n : 0.0, key, b, a, sb ? sb->n : 0, sa ? sa->n : 0, m->dispatch);
}

static void calibrate(const char *dir, struct model *m)
{
	static struct rstats ra, rb;
	struct model raw = *m;
	double a, b, k;
	int cpu, ok, i;
	uint64_t thr = 0, napi = 0;
	size_t sirq;

	raw.nhooks = 0;			/* ftrace's own timestamps */
	raw.record_all = 1;
	if (access(path(dir, "trace-a.txt"), R_OK))
		memset(&ra, 0, sizeof(ra));
	else if (replay_trace(path(dir, "trace-a.txt"), &raw, &ra))
		die("cannot replay %s", path(dir, "trace-a.txt"));
	raw.record_all = 0;
	if (replay_trace(path(dir, "trace.txt"), &raw, &rb))
		die("cannot replay %s", path(dir, "trace.txt"));
	a = ra.n_tail.n ? median_u64(ra.n_tail.v, ra.n_tail.n) : 0;
	b = rb.n_tail.n ? median_u64(rb.n_tail.v, rb.n_tail.n) : 0;
	/*
	 * A figure the model needs and the recording did not measure is a
	 * failure (issue 20, item 7), not a fallback to another figure.
	 */
	if (ra.n_tail.n >= 100 && rb.n_tail.n >= 100 && b - a > m->dispatch) {
		/*
		 * b - a is netcost's irq_handler_exit probe plus the tracepoint's
		 * dispatch of two probes instead of one, which lies outside
		 * the gap between the two tools' timestamps
		 */
		m->n_cpu = b - a - m->dispatch;
		printf("ok - %s: calibration: N (per-CPU frame probe) = %.1f measured in-run: NIC hardirq's last stretch median %.0f with netcost, %.0f without (%zu, %zu events), less dispatch %.1f\n",
		       label, m->n_cpu, b, a, rb.n_tail.n, ra.n_tail.n, m->dispatch);
	} else {
		failures++;
		printf("not ok - %s: calibration: N (per-CPU frame probe) not measured: %s (NIC hardirq's last stretch median %.0f with netcost, %.0f without, %zu and %zu events, need 100 each and a positive difference over dispatch %.1f)\n",
		       label, ra.events ? "phase A unusable" : "no phase A trace (trace-a.txt)", b, a,
		       rb.n_tail.n, ra.n_tail.n, m->dispatch);
	}
	/*
	 * the NET_RX softirqs' polls: a recording whose polls run in NAPI
	 * threads has a few, which the per-CPU frame probe's N stands for
	 */
	for (i = 0, sirq = 0; i < rb.n_polls[POLL_SIRQ]; i++)
		sirq += rb.n_poll[POLL_SIRQ][i].s.n;
	m->n_poll_sirq = m->n_cpu;
	if (sirq >= 100)
		calibrate_poll(&ra, &rb, POLL_SIRQ, "a NET_RX softirq's napi_poll", m, &m->n_poll_sirq);
	else
		not_applicable("calibration: N at a NET_RX softirq's napi_poll",
			       "fewer than 100 softirq polls: N (per-CPU frame probe) stands for them");
	if (ra.events)
		printf("# %s: order check: ctx_switch median in ftrace's timestamps %.0f with netcost, %.0f without (netcost's probes lie outside it: expect ~0 difference)\n",
	       label, stage_median(&rb.h[0][ST_CTX_SWITCH]), stage_median(&ra.h[0][ST_CTX_SWITCH]));
	ok = k_median(&rb.k_fts, &m->k_fts);
	k = m->k_fts;
	printf("%s - %s: calibration: K at finish_task_switch %s (%zu twin pairs, need 100; %.0f at getppid, not used)\n",
	       ok ? "ok" : "not ok", label, ok ? "measured in-run" : "not measured",
	       rb.k_fts.n, calib(path(dir, "calib.txt"), "ftrace_kp2_getppid") -
			   calib(path(dir, "calib.txt"), "ftrace_kp1_getppid"));
	if (ok) {
		size_t j, tail = 0;
		uint64_t *x = malloc(rb.k_fts.n * sizeof(*x));

		if (!x)
			die("%s", "out of memory");
		/* the pairs one ring-buffer page switch longer (see ps_rate) */
		for (j = 0; j < rb.k_fts.n; j++)
			if (rb.k_fts.v[j] > k + 100)
				x[tail++] = rb.k_fts.v[j] - (uint64_t)k;
		ps_rate = (double)tail / rb.k_fts.n;
		ps_cost = median_u64(x, tail);
		free(x);
		printf("# %s: K at finish_task_switch = %.0f; %zu of %zu pairs (%.2f%%) %.0f cycles longer: ftrace's page switch\n",
		       label, m->k_fts, tail, rb.k_fts.n, 100 * ps_rate, ps_cost);
	}
	/*
	 * K at the IRQ thread's function and at kthread_should_stop: used only
	 * for the runs of NIC IRQ threads, and K at kthread_should_stop for
	 * the NAPI threads' (threaded NAPI); a kernel without them needs neither
	 */
	for (cpu = 0; cpu < rb.ncpus; cpu++) {
		thr += rb.h[cpu][ST_IRQ_THREAD].count;
		napi += rb.h[cpu][ST_NAPI_THREAD].count;
	}
	if (napi)
		calibrate_poll(&ra, &rb, POLL_THR, "a NAPI thread's napi_poll", m, &m->n_poll_thr);
	if (!thr && !napi) {
		not_applicable("calibration: K at the IRQ thread function and at kthread_should_stop",
			       "no NIC IRQ thread runs in the trace: not used");
		return;
	}
	if (thr) {
		ok = k_median(&rb.k_thr, &m->k_thr);
		printf("%s - %s: calibration: K at the IRQ thread function %s = %.0f (%zu twin pairs, need 100; %llu IRQ thread runs)\n",
		       ok ? "ok" : "not ok", label, ok ? "measured in-run" : "not measured",
		       ok ? m->k_thr : 0.0, rb.k_thr.n, (unsigned long long)thr);
	}
	if (napi || m->thr_fentry) {
		ok = k_median(&rb.k_kss, &m->k_kss);
		printf("%s - %s: calibration: K at kthread_should_stop %s = %.0f (%zu twin pairs, need 100; %llu NAPI thread runs)\n",
		       ok ? "ok" : "not ok", label, ok ? "measured in-run" : "not measured",
		       ok ? m->k_kss : 0.0, rb.k_kss.n, (unsigned long long)napi);
	}
}

/*
 * load_pages - ftrace's page moves (replay.c, page_move()): the first
 * event of every ring-buffer page in trace-cpuN.raw but each CPU's first
 * page (an empty buffer starts on it: no move), for the model at
 * @m->ps_cost, measured in-run (calibrate).  No pages, or pages the text
 * does not show, fail: the model needs them.
 */
static uint64_t *pages;

static void load_pages(const char *dir, struct model *m)
{
	char name[32];
	size_t n = 0, cap = 0, k, i;
	int cpu, files = 0;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		uint64_t *v;

		snprintf(name, sizeof(name), "trace-cpu%d.raw", cpu);
		if (access(path(dir, name), R_OK))
			continue;
		files++;
		if (read_page_starts(path(dir, name), &v, &k))
			die("cannot read ring-buffer pages %s", path(dir, name));
		if (n + k > cap) {
			cap = 2 * (n + k);
			pages = realloc(pages, cap * sizeof(*pages));
			if (!pages)
				die("%s", "out of memory");
		}
		for (i = 1; i < k; i++)		/* v is sorted: v[0] is the first page */
			pages[n++] = v[i];
		free(v);
	}
	if (!files || !m->ps_cost) {
		failures++;
		printf("not ok - %s: ftrace's page moves for the model: %s\n", label,
		       !files ? "no ring-buffer pages (trace-cpuN.raw) in the recording" :
				"no move cost measured in-run (calibrate)");
		return;
	}
	qsort(pages, n, sizeof(*pages), cmp_u64);
	m->page_ts = pages;
	m->page_n = n;
}

/* drop_turns - every turn reading gone: each event reads one way, as in 0.14.0's replay */
static void drop_turns(struct rstats *rs)
{
	int c, s;
	size_t i;

	memset(rs->cturn_short, 0, sizeof(rs->cturn_short));
	memset(rs->cturn_long, 0, sizeof(rs->cturn_long));
	for (c = 0; c < MAX_CPUS; c++) {
		for (s = 0; s < NSTAGES; s++) {
			struct rhist *h = &rs->h[c][s];

			for (i = 0; i < h->nev; i++) {
				h->ev[i].turn_short = 0;
				h->ev[i].turn_long = 0;
			}
		}
	}
}

int main(int argc, char **argv)
{
	static struct rstats rs;
	struct model m;
	const char *dir = NULL;
	json_error_t err;
	json_t *nc;
	int i, cpu, s;
	double tot_n = 0, tot_r = 0, rx_n = 0, rx_r = 0;

	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--label"))
			label = argv[i + 1];
		else if (!strcmp(argv[i], "--dir"))
			dir = argv[i + 1];
		else if (!strcmp(argv[i], "--residuals"))
			resid_file = argv[i + 1];
	}
	if (!dir || i != argc) {
		fprintf(stderr, "usage: oracle-replay --label LABEL --dir DIR [--residuals FILE]\n");
		return 2;
	}
	nc = json_load_file(path(dir, "nc.json"), 0, &err);
	if (!nc)
		die("cannot read netcost's snapshot %s", path(dir, "nc.json"));
	{
		json_t *cfg = json_object_get(json_object_get(nc, "info"), "config");
		json_int_t sn = json_integer_value(json_object_get(cfg, "sample"));
		const char *sfx = strstr(label, "-sample");

		sample_n = sn > 1 ? (unsigned int)sn : 1;
		snprintf(rlabel, sizeof(rlabel), "%.*s",
			 sfx ? (int)(sfx - label) : (int)strlen(label), label);
		if ((sample_n > 1) != (sfx != NULL))
			die("%s: a sampled recording's label ends in -sampleN, and only its", label);
	}
	if (resid_file)
		load_residuals(resid_file);
	load_model(dir, nc, &m);
	calibrate(dir, &m);
	fts_calibrate(dir, nc, &m);
	load_switch_stamps(dir, &m);
	m.ps_cost = ps_cost;
	load_pages(dir, &m);
	if (replay_trace(path(dir, "trace.txt"), &m, &rs))
		die("cannot replay %s", path(dir, "trace.txt"));
	if (m.page_n) {
		int ok = rs.page_firsts == m.page_n;

		if (!ok)
			failures++;
		printf("%s - %s: ftrace's page moves: %llu of %zu pages' first events found in the text, each moved back %.0f cycles at a tracepoint\n",
		       ok ? "ok" : "not ok", label, (unsigned long long)rs.page_firsts, m.page_n,
		       ps_cost);
	}
	/* ORACLE_NO_TURNS: the compare as before the turn readings (tests/oracle/selftest) */
	if (getenv("ORACLE_NO_TURNS"))
		drop_turns(&rs);
	exit_missed_check(dir, &rs);
	switch_stamps_check(&m, &rs);
	tsv = fopen(path(dir, "compare.tsv"), "w");
	if (!tsv)
		die("cannot write %s", path(dir, "compare.tsv"));

	printf("# %s: model: N = %.1f (task table; sys_enter's descriptor look-up %.1f apart) / %.1f (per-CPU frame) / %.1f (softirq napi_poll), of which %.1f before an end stamp; K = %.1f (finish_task_switch, +%.1f for the fentry) / %.1f (IRQ thread fn); dispatch %.1f cycles\n",
	       label, m.n_sys, m.fd_check, m.n_cpu, m.n_poll_sirq, m.n_min, m.k_fts, m.d_fts, m.k_thr, m.dispatch);
	printf("# %s: trace: %llu events (%llu after another vCPU's turn), window %llu..%llu (%.3f s)\n",
	       label, (unsigned long long)rs.events, (unsigned long long)rs.turns,
	       (unsigned long long)rs.window_on,
	       (unsigned long long)rs.window_off,
	       (double)(rs.window_off - rs.window_on) / (m.tsc_khz * 1e3));
	if (rs.lost || !rs.window_on || !rs.window_off) {
		failures++;
		printf("not ok - %s: the trace is complete (%llu LOST lines, window %s)\n", label,
		       (unsigned long long)rs.lost, rs.window_on && rs.window_off ? "seen" : "not seen");
	} else {
		printf("ok - %s: the trace is complete and shows netcost's window\n", label);
	}

	for (cpu = 0; cpu < rs.ncpus; cpu++) {
		json_t *c = nc_cpu(nc, cpu);
		struct nhist n;

		if (!c) {
			failures++;
			printf("not ok - %s: netcost's snapshot has cpu%d\n", label, cpu);
			continue;
		}
		for (s = 0; s < NSTAGES; s++) {
			char un[96];

			snprintf(un, sizeof(un), "%s_untimed", stage_name[s]);
			nc_stage(c, stage_name[s], &n);
			cmp_stage(cpu, s, &rs.h[cpu][s], &n, &rs, nc_counter(c, un));
		}
		for (i = 0; i < NCOUNTERS; i++)
			cmp_counter(c, cpu, i, &rs);
		not_replayed(c, cpu);
		check_exclusive(cpu, &rs);
		for (i = 0; i < (int)(sizeof(top_level) / sizeof(top_level[0])); i++) {
			nc_stage(c, stage_name[top_level[i]], &n);
			tot_n += n.sum;
			tot_r += rs.h[cpu][top_level[i]].sum;
		}
		/* before 0.6.0 irq_thread held the NET_RX softirq_net_rx has */
		if (!m.thr_chain) {
			tot_n -= nc_counter(c, "net_rx_in_irq_thread_cycles");
			tot_r -= rs.c[cpu][C_NET_RX_IN_IRQ_THREAD_CYCLES];
		}
		rx_n += nc_counter(c, "rx_packets");
		rx_r += rs.c[cpu][C_RX_PACKETS];
	}
	if (rx_n && rx_r) {
		double pn = tot_n / rx_n, pr = tot_r / rx_r;
		char why[192];
		int ok = band_ok("all", "per_packet_total", pn, pr, BAND_TOTAL, 0, 0, why, sizeof(why));

		if (!ok)
			failures++;
		printf("%s - %s: per-packet total %.0f vs replay %.0f cycles (%s)\n",
		       ok ? "ok" : "not ok", label, pn, pr, why);
		fprintf(tsv, "%s\tall\tper_packet_total\t%.0f\t%.0f\t%.1f\t%.1f\ttotal\t%s\n", label,
			rx_n, rx_r, pn, pr, ok ? "ok" : "FAIL");
	} else {
		failures++;
		printf("not ok - %s: per-packet total: no packets (netcost %.0f, replay %.0f)\n", label,
		       rx_n, rx_r);
	}
	fclose(tsv);
	json_decref(nc);
	return failures ? 1 : 0;
}
