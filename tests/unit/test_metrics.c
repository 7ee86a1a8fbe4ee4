// SPDX-License-Identifier: GPL-2.0
/*
 * test_metrics.c - lib/metrics.c, the one home of derived figures (issue
 * 11, one-way data flow), on a hand-made model whose figures are worked
 * out here by hand: events and cost per packet, share of the CPU time,
 * the top-level total and its largest stages with the irq_thread rule,
 * counters per packet and per second, where NET_RX ran (any
 * net_rx_in_<where> counter, new ones too), a stage with the "waiting"
 * role and one this netcost does not know, and diff's per-packet figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "metrics.h"
#include "synth.h"

#define EPS 1e-9

/* event - record @v into stage @name of @cpu */
static void event(struct nc_model *m, uint32_t cpu, const char *name, uint64_t v)
{
	int s = nc_model_find_stage(m, name);

	assert_true(s >= 0);
	synth_record(nc_cpu_hist(nc_model_cpu(m, cpu), (unsigned int)s), v);
}

/*
 * hand_model - 2 CPUs, 1 s, 2 GHz.  CPU 0: hardirq 100 + 500, irq_thread
 * 1000 of which NET_RX 600, runq_wait_load (waiting) 5000, a future
 * nested stage 70; rx 4, tx 2; NET_RX ran in irq_exit 3x (300 cycles), in
 * the IRQ thread 1x (600), in a place this netcost does not know 1x (100).
 */
static struct nc_model *hand_model(void)
{
	struct nc_model *m = calloc(1, sizeof(*m));
	int s;

	nc_model_init(m);
	/* a module before 0.6.0: its irq_thread holds the NET_RX it ran */
	strcpy(m->info.version, "0.5.0");
	m->info.tsc_khz = 2000000;
	m->info.reset_ns = 0;
	m->info.now_ns = 1000000000;
	m->info.reset_cycles = 0;
	m->info.now_cycles = 2000000000;
	nc_model_cpu(m, 0);
	nc_model_cpu(m, 1);
	event(m, 0, "hardirq", 100);
	event(m, 0, "hardirq", 500);
	event(m, 0, "irq_thread", 1000);
	s = nc_model_stage(m, "runq_wait_load", NETCOST_UNIT_CYCLES);
	assert_true(s >= 0);
	assert_int_equal(nc_model_set_role(m, (unsigned int)s, (unsigned int)nc_role_parse("waiting")), 0);
	event(m, 0, "runq_wait_load", 5000);
	s = nc_model_stage(m, "future_nested", NETCOST_UNIT_CYCLES);
	assert_true(s >= 0);
	event(m, 0, "future_nested", 70);
	synth_counter(m, 0, "rx_packets", 4);
	synth_counter(m, 1, "rx_packets", 0);
	synth_counter(m, 0, "tx_packets", 2);
	synth_counter(m, 0, "net_rx_in_irq_exit", 3);
	synth_counter(m, 0, "net_rx_in_irq_exit_cycles", 300);
	synth_counter(m, 0, "net_rx_in_irq_thread", 1);
	synth_counter(m, 0, "net_rx_in_irq_thread_cycles", 600);
	synth_counter(m, 0, "net_rx_in_newplace", 1);
	synth_counter(m, 0, "net_rx_in_newplace_cycles", 100);
	assert_int_equal(nc_model_sum_total(m, NULL), 2);
	return m;
}

static unsigned int stage(const struct nc_model *m, const char *name)
{
	int s = nc_model_find_stage(m, name);

	assert_true(s >= 0);
	return (unsigned int)s;
}

static void test_per_packet(void **state)
{
	struct nc_model *m = hand_model();
	const struct nc_cpu *t = &m->total;

	(void)state;
	assert_float_equal(nc_interval_s(m), 1.0, EPS);
	assert_float_equal(nc_per_s(m, 4), 4.0, EPS);
	assert_float_equal(nc_stage_events_per_packet(m, t, stage(m, "hardirq")), 0.5, EPS);
	assert_float_equal(nc_stage_events_per_packet(m, t, stage(m, "softirq_net_rx")), 0, EPS);
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "hardirq")), 150, EPS);
	/* irq_thread: 1000 cycles, 600 of them NET_RX (softirq_net_rx's): own 400 */
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "irq_thread")), 250, EPS);
	assert_float_equal(nc_stage_own_per_packet(m, t, stage(m, "irq_thread")), 100, EPS);
	assert_float_equal(nc_top_per_packet(m, t), 250, EPS);
	assert_int_equal(nc_top_cycles(m, t), 1000);
	/* per CPU, divided by the packets of all CPUs */
	assert_float_equal(nc_stage_per_packet(m, &m->cpus[0], stage(m, "hardirq")), 150, EPS);
	nc_model_free(m);
	free(m);
}

/*
 * test_sampled - config sample 8 (0.15.0): rx_skb timed on 2 of its 16
 * events (100 and 300 cycles), 14 left untimed (rx_skb_untimed): the
 * mean stays the timed events' 200, the events are all 16, and every
 * figure that adds events up takes the sum as 16 x 200 = 3200: per
 * packet (4 rx packets) 4 events and 800 cycles; hardirq has no
 * _untimed counter and is not sampled
 */
static void test_sampled(void **state)
{
	struct nc_model *m = hand_model();
	const struct nc_cpu *t = &m->total;
	unsigned int rx;

	(void)state;
	rx = stage(m, "rx_skb");
	assert_false(nc_stage_sampled(m, rx));
	event(m, 0, "rx_skb", 100);
	event(m, 0, "rx_skb", 300);
	synth_counter(m, 0, "rx_skb_untimed", 14);
	m->info.config.sample = 8;
	assert_int_equal(nc_model_sum_total(m, NULL), 2);
	assert_true(nc_stage_sampled(m, rx));
	assert_false(nc_stage_sampled(m, stage(m, "hardirq")));
	assert_int_equal(nc_stage_events(m, t, rx), 16);
	assert_int_equal(nc_stage_sum(m, t, rx), 3200);
	assert_int_equal(nc_stage_sum(m, t, stage(m, "hardirq")), 600);
	assert_float_equal(nc_stage_events_per_packet(m, t, rx), 4, EPS);
	assert_float_equal(nc_stage_per_packet(m, t, rx), 800, EPS);
	assert_float_equal(nc_stage_per_packet(m, &m->cpus[0], rx), 800, EPS);
	/* 3200 cycles of 2 CPUs x 1 s at 2 GHz */
	assert_float_equal(nc_stage_cpu_pct(m, t, rx, 2), 100.0 * 3200 / 4e9, 1e-12);
	/* every event timed (no untimed counter): the sum as recorded */
	m->info.config.sample = 1;
	assert_false(nc_stage_sampled(m, rx));
	nc_model_free(m);
	free(m);
}

/*
 * test_packet_basis - a box that only sends has its figures per sent
 * packet, one that only receives per received packet, one doing both per
 * rx packet with the transmit stages per tx (the demo's pair: a sender
 * that received 3 packets/s printed ~10^8 cycles per packet before)
 */
/*
 * since 0.6.0 an irq_thread run is net of the softirqs inside (their
 * stages hold them): all of it is its own, and NET_RX's share is only
 * where NET_RX ran
 */
static void test_irq_thread_net_since_0_6(void **state)
{
	struct nc_model *m = hand_model();
	const struct nc_cpu *t = &m->total;

	(void)state;
	strcpy(m->info.version, "0.6.0");
	assert_float_equal(nc_stage_own_per_packet(m, t, stage(m, "irq_thread")), 250, EPS);
	assert_int_equal(nc_top_cycles(m, t), 1600);
	assert_float_equal(nc_top_per_packet(m, t), 400, EPS);
	/* a snapshot with no version is the current module's */
	m->info.version[0] = 0;
	assert_int_equal(nc_top_cycles(m, t), 1600);
	strcpy(m->info.version, "0.5.0");
	assert_int_equal(nc_top_cycles(m, t), 1000);
	nc_model_free(m);
	free(m);
}

static void test_packet_basis(void **state)
{
	struct nc_model *m = hand_model();	/* rx 4, tx 2: both directions */
	const struct nc_cpu *t = &m->total;
	unsigned int k = (unsigned int)nc_model_find_counter(m, "net_rx_in_irq_exit");

	(void)state;
	event(m, 0, "tx_xmit", 800);
	nc_model_sum_total(m, NULL);
	assert_int_equal(nc_packet_basis(m), NC_BASIS_MIXED);
	assert_string_equal(nc_basis_name(nc_packet_basis(m)), "mixed");
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "tx_xmit")), 400, EPS);
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "hardirq")), 150, EPS);

	/* a sender: 1000 sent, 4 received: everything per sent packet */
	synth_counter(m, 0, "tx_packets", 1000);
	nc_model_sum_total(m, NULL);
	assert_int_equal(nc_packet_basis(m), NC_BASIS_TX);
	assert_int_equal(nc_basis_packets(m), 1000);
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "hardirq")), 0.6, EPS);
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "tx_xmit")), 0.8, EPS);
	assert_float_equal(nc_counter_per_packet(m, t, k), 0.003, EPS);
	assert_float_equal(nc_stage_per_packet_named(m, "no_such_stage", false, false), 0, EPS);
	assert_non_null(strstr(nc_basis_desc(nc_packet_basis(m)), "per sent packet"));

	/* a receiver: 4 received, none sent: the tx stages per rx packet too */
	synth_counter(m, 0, "tx_packets", 0);
	nc_model_sum_total(m, NULL);
	assert_int_equal(nc_packet_basis(m), NC_BASIS_RX);
	assert_float_equal(nc_stage_per_packet(m, t, stage(m, "tx_xmit")), 200, EPS);
	nc_model_free(m);
	free(m);
}

static void test_cpu_share_and_roles(void **state)
{
	struct nc_model *m = hand_model();
	const struct nc_cpu *t = &m->total;
	unsigned int top[8], n;

	(void)state;
	/* 600 cycles of 2 CPUs x 2e9 */
	assert_float_equal(nc_stage_cpu_pct(m, t, stage(m, "hardirq"), 2), 100.0 * 600 / 4e9, EPS);
	assert_float_equal(nc_cpu_time_pct(m, 1000, 1), 100.0 * 1000 / 2e9, EPS);
	/* waiting time is not CPU time, nor in the total, nor a top stage */
	assert_true(nc_stage_cpu_pct(m, t, stage(m, "runq_wait_load"), 2) < 0);
	assert_false(nc_stage_in_total(m, stage(m, "runq_wait_load")));
	assert_false(nc_stage_is_cpu_time(m, stage(m, "runq_wait_load")));
	/* a stage this netcost does not know: nested, outside the totals */
	assert_false(nc_stage_in_total(m, stage(m, "future_nested")));
	/* napi_poll_work counts packets: no CPU share */
	assert_true(nc_stage_cpu_pct(m, t, stage(m, "napi_poll_work"), 2) < 0);
	n = nc_top_stages(m, t, top, 8);
	assert_int_equal(n, 2);
	assert_string_equal(m->stage[top[0]].name, "hardirq");
	assert_string_equal(m->stage[top[1]].name, "irq_thread");
	assert_int_equal(nc_top_stages(m, t, top, 1), 1);
	/* no interval: no share */
	m->info.now_cycles = 0;
	assert_true(nc_cpu_time_pct(m, 1000, 2) < 0);
	nc_model_free(m);
	free(m);
}

static void test_counters(void **state)
{
	struct nc_model *m = hand_model();
	struct nc_netrx_row rows[16];
	unsigned int n;

	(void)state;
	assert_float_equal(nc_counter_per_packet(m, &m->total,
			   (unsigned int)nc_model_find_counter(m, "tx_packets")), 0.5, EPS);
	n = nc_netrx_placement(m, &m->total, rows, 16);
	assert_int_equal(n, 3);
	for (unsigned int i = 0; i < n; i++) {
		if (!strcmp(rows[i].where, "irq_exit")) {
			assert_int_equal(rows[i].runs, 3);
			assert_float_equal(rows[i].runs_pct, 60, EPS);
			assert_float_equal(rows[i].cycles_pct, 30, EPS);
			assert_float_equal(rows[i].per_packet, 75, EPS);
		} else if (!strcmp(rows[i].where, "irq_thread")) {
			assert_float_equal(rows[i].cycles_pct, 60, EPS);
			assert_float_equal(rows[i].per_packet, 150, EPS);
		} else {
			assert_string_equal(rows[i].where, "newplace");
			assert_float_equal(rows[i].runs_pct, 20, EPS);
			assert_float_equal(rows[i].per_packet, 25, EPS);
		}
	}
	assert_true(nc_is_netrx_runs("net_rx_in_irq_exit"));
	assert_false(nc_is_netrx_runs("net_rx_in_irq_exit_cycles"));
	assert_true(nc_is_netrx_cycles("net_rx_in_irq_exit_cycles"));
	assert_false(nc_is_netrx_cycles("rx_packets"));
	nc_model_free(m);
	free(m);
}

/* diff's figure: own cycles for top stages, 0 for a stage a side lacks */
static void test_per_packet_named(void **state)
{
	struct nc_model *m = hand_model();

	(void)state;
	assert_float_equal(nc_stage_per_packet_named(m, "irq_thread", false, true), 100, EPS);
	assert_float_equal(nc_stage_per_packet_named(m, "irq_thread", false, false), 250, EPS);
	assert_float_equal(nc_stage_per_packet_named(m, "softirq_net_rx", false, true), 0, EPS);
	assert_float_equal(nc_stage_per_packet_named(m, "no_such_stage", true, false), 0, EPS);
	synth_counter(m, 0, "rx_packets", 0);
	synth_counter(m, 0, "tx_packets", 0);
	assert_int_equal(nc_model_sum_total(m, NULL), 2);
	assert_true(nc_stage_per_packet_named(m, "hardirq", false, true) < 0);
	assert_true(nc_stage_events_per_packet(m, &m->total, stage(m, "hardirq")) < 0);
	assert_true(nc_counter_per_packet(m, &m->total,
		    (unsigned int)nc_model_find_counter(m, "tx_packets")) < 0);
	assert_true(nc_top_per_packet(m, &m->total) < 0);
	nc_model_free(m);
	free(m);
}

static void test_recorded_cpus_and_buckets(void **state)
{
	struct nc_model *m = hand_model();
	const struct nc_hist *h;

	(void)state;
	assert_int_equal(nc_recorded_cpus(m), 2);	/* no mask: all */
	strcpy(m->info.config.cpus, "1");
	assert_int_equal(nc_recorded_cpus(m), 1);
	h = m->total.stage[stage(m, "hardirq")];
	assert_float_equal(nc_hist_bucket_pct(h, netcost_hist_index(100)), 50, EPS);
	assert_float_equal(nc_hist_bucket_pct(h, netcost_hist_index(500)), 50, EPS);
	nc_model_free(m);
	free(m);
}

/* info_at - INFO at @ns with hooks a and b at @ha and @hb hits */
static void info_at(struct nc_info *i, uint64_t ns, uint64_t ha, uint64_t hb, uint32_t cost)
{
	memset(i, 0, sizeof(*i));
	i->tsc_khz = 2000000;
	i->now_ns = ns;
	i->probe_cost = cost;
	strcpy(i->hook[0].name, "irq_handler_entry");
	i->hook[0].hits = ha;
	strcpy(i->hook[1].name, "napi_poll");
	i->hook[1].hits = hb;
	i->nr_hooks = 2;
}

/* issue 9 item 5: the probes' cost from two INFO replies */
static void test_overhead(void **state)
{
	struct nc_info *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct nc_overhead *o = calloc(1, sizeof(*o));

	(void)state;
	/* 2 s apart: 20000 and 5000 more hits, 100 cycles each, 2 GHz */
	info_at(a, 1000000000, 1000, 500, 90);
	info_at(b, 3000000000, 21000, 5500, 100);
	assert_int_equal(nc_overhead(a, b, o), 0);
	assert_float_equal(o->interval_s, 2, EPS);
	assert_int_equal(o->nr_hooks, 2);
	assert_string_equal(o->hook[0].name, "irq_handler_entry");
	assert_float_equal(o->hook[0].hits_per_s, 10000, EPS);
	assert_float_equal(o->hook[1].hits_per_s, 2500, EPS);
	assert_float_equal(o->hits_per_s, 12500, EPS);
	assert_float_equal(o->cost_per_hit, 100, EPS);	/* the later sample */
	assert_float_equal(o->cycles_per_s, 1.25e6, EPS);
	assert_float_equal(o->cpu_pct, 100 * 1.25e6 / 2e9, EPS);
	assert_float_equal(o->hook[0].cpu_pct, 100 * 1e6 / 2e9, EPS);

	/* a hook attached between the reads counts from 0 */
	strcpy(a->hook[1].name, "other");
	assert_int_equal(nc_overhead(a, b, o), 0);
	assert_float_equal(o->hook[1].hits_per_s, 2750, EPS);

	/* no self-cost sampled yet: rates, but no cycles */
	b->probe_cost = 0;
	assert_int_equal(nc_overhead(a, b, o), 0);
	assert_true(o->cost_per_hit < 0 && o->cycles_per_s < 0 && o->cpu_pct < 0);
	assert_true(o->hook[0].cycles_per_s < 0);

	/*
	 * two hooks of one name, told apart by their kind (the fentry on
	 * finish_task_switch() and the kprobe twin that INFO listed before
	 * 0.10.0): each is matched with its own earlier count
	 */
	info_at(a, 1000000000, 1000, 500, 90);
	info_at(b, 3000000000, 21000, 5500, 100);
	strcpy(a->hook[1].name, "irq_handler_entry");
	strcpy(b->hook[1].name, "irq_handler_entry");
	a->hook[0].kind = b->hook[0].kind = NETCOST_HOOK_FENTRY;
	a->hook[1].kind = b->hook[1].kind = NETCOST_HOOK_KPROBE;
	assert_int_equal(nc_overhead(a, b, o), 0);
	assert_float_equal(o->hook[0].hits_per_s, 10000, EPS);
	assert_float_equal(o->hook[1].hits_per_s, 2500, EPS);
	assert_int_equal(o->hook[0].kind, NETCOST_HOOK_FENTRY);
	assert_true(o->hook[0].dup_name && o->hook[1].dup_name);

	/* the module loaded again between the reads; no time between them */
	info_at(a, 1000000000, 1000, 500, 90);
	info_at(b, 3000000000, 10, 5500, 100);
	assert_int_equal(nc_overhead(a, b, o), -1);
	info_at(b, 1000000000, 21000, 5500, 100);
	assert_int_equal(nc_overhead(a, b, o), -1);
	free(a);
	free(b);
	free(o);
}

/* diff's B/A and shares: undefined ratios are -1, never a division by 0 */
static void test_ratio_share(void **state)
{
	(void)state;
	assert_float_equal(nc_ratio(300, 200), 1.5, EPS);
	assert_true(nc_ratio(300, 0) < 0);
	assert_true(nc_ratio(-1, 200) < 0);
	assert_true(nc_ratio(300, -1) < 0);
	assert_float_equal(nc_ratio(0, 200), 0, EPS);
	assert_float_equal(nc_share(-50, 200), -0.25, EPS);
	assert_float_equal(nc_share(50, -200), -0.25, EPS);
	assert_float_equal(nc_share(50, 0), 0, EPS);
}

/* the closure's inputs: switches, interrupt-context work, NET_RX in tasks */
static void test_closure_inputs(void **state)
{
	struct nc_model *m = hand_model();
	struct nc_cpu *c0;
	double n = -1;

	(void)state;
	event(m, 0, "ctx_switch", 40);
	event(m, 0, "ctx_switch", 60);
	/* every switch (0.10.0: the packet path's and the others') */
	event(m, 0, "ctx_switch_other", 200);
	event(m, 0, "softirq_other", 1000);
	synth_counter(m, 0, "net_rx_in_task_bh_enable_cycles", 77);
	c0 = &m->cpus[0];
	assert_float_equal(nc_cpu_switch_cycles(m, c0, &n), 300, EPS);
	assert_float_equal(n, 3, EPS);
	/* hardirq 600 + NET_RX in irq_exit 300, and on a stock kernel softirq_other 1000 */
	assert_float_equal(nc_cpu_irq_context_cycles(m, c0), 1900, EPS);
	m->info.preempt_rt = true;
	assert_float_equal(nc_cpu_irq_context_cycles(m, c0), 900, EPS);
	assert_float_equal(nc_cpu_task_netrx_cycles(m, c0), 77, EPS);
	assert_float_equal(nc_cpu_switch_cycles(m, &m->cpus[1], &n), 0, EPS);
	assert_float_equal(n, 0, EPS);
	assert_float_equal(nc_cpu_irq_context_cycles(m, NULL), 0, EPS);
	nc_model_free(m);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_packet),
		cmocka_unit_test(test_sampled),
		cmocka_unit_test(test_irq_thread_net_since_0_6),
		cmocka_unit_test(test_packet_basis),
		cmocka_unit_test(test_cpu_share_and_roles),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_per_packet_named),
		cmocka_unit_test(test_recorded_cpus_and_buckets),
		cmocka_unit_test(test_overhead),
		cmocka_unit_test(test_ratio_share),
		cmocka_unit_test(test_closure_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
