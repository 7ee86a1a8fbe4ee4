/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen.h - the two modes of netcost-gen, each a linear script in its file.
 */
#ifndef NETCOST_GEN_H
#define NETCOST_GEN_H

/* gen_send - "netcost-gen send": paced or max-rate UDP sender (send.c). */
int gen_send(int argc, char **argv);

/* gen_sink - "netcost-gen sink": counting UDP receiver (sink.c). */
int gen_sink(int argc, char **argv);

#endif
