/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the derived figures of a model (metrics.c): what every
 * renderer prints, computed once.  The data flows nl -> stats -> model ->
 * metrics -> (report | diff | plot | export).
 */
#ifndef NETCOST_METRICS_H
#define NETCOST_METRICS_H

#include "model.h"

double nc_interval_s(const struct nc_model *m);
uint64_t nc_model_interval_cycles(const struct nc_model *m);
double nc_per_s(const struct nc_model *m, uint64_t count);
uint64_t nc_rx_packets(const struct nc_model *m, const struct nc_cpu *c);
uint64_t nc_tx_packets(const struct nc_model *m, const struct nc_cpu *c);
bool nc_stage_in_total(const struct nc_model *m, unsigned int s);
bool nc_stage_is_cpu_time(const struct nc_model *m, unsigned int s);
bool nc_stage_is_kernel_work(const struct nc_model *m, unsigned int s);
uint64_t nc_cpu_packets(const struct nc_model *m, const struct nc_cpu *c,
			unsigned int stage);
uint64_t nc_stage_own_cycles(const struct nc_model *m, const struct nc_cpu *c,
			     unsigned int stage);
double nc_stage_per_packet(const struct nc_model *m, const struct nc_cpu *c,
			   unsigned int s);
double nc_stage_own_per_packet(const struct nc_model *m, const struct nc_cpu *c,
			       unsigned int s);
double nc_top_per_packet(const struct nc_model *m, const struct nc_cpu *c);

#endif
