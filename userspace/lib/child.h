/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - the processes "netcost run" starts (the sink and the sender):
 * find the program, spawn with stdout and stderr into pipes, wait for its
 * ready file, drain them without blocking, reap, signal, poll, stop (INT
 * then KILL), say why one failed, and read its JSON result and rusage.  No module needed: the unit
 * tests run shell commands through it (tests/unit/test_child.c).
 */
#ifndef NETCOST_CHILD_H
#define NETCOST_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <jansson.h>

#include "runargs.h"

#define NC_CHILD_ERR_KEEP	(64 * 1024)	/* bytes kept of a child's stderr */
#define NC_CHILD_OUT_KEEP	(64 << 20)	/* bytes kept of a child's stdout */

/* One process run started: the sink or the sender */
struct nc_child {
	const char *role;		/* "sink", "sender": for messages */
	struct nc_argv argv;		/* what is exec'ed */
	pid_t pid;			/* 0: not started */
	int pidfd;			/* -1: none, poll with a short timeout */
	int fd[2];			/* its stdout, stderr; -1 at EOF */
	char *buf[2];
	size_t len[2];
	int *perf;			/* [ncpus] task-clock counters, -1: none */
	double *task_ns;		/* [ncpus] read at the end */
	bool perf_ok;
	bool exited;
	int status;			/* from wait4() */
	struct rusage ru;
	uint64_t exit_ns;
	uint64_t int_ns;		/* when run sent SIGINT; 0: not yet */
	bool killed;			/* run sent SIGKILL */
	json_t *result;			/* its -j output, or NULL (the caller frees it) */
};

/* called between fork and exec, while the child waits (perf.c's counters) */
typedef void (*nc_child_hook)(struct nc_child *ch, void *arg);

uint64_t nc_now_ns(void);
void nc_child_init(struct nc_child *ch, const char *role);
bool nc_child_running(const struct nc_child *ch);
int nc_child_spawn(struct nc_child *ch, nc_child_hook hook, void *arg);
void nc_child_drain(struct nc_child *ch, int i);
bool nc_child_reap(struct nc_child *ch);
void nc_child_signal(struct nc_child *ch, int sig);
bool nc_child_failed(const struct nc_child *ch);
void nc_child_report(const struct nc_child *ch);
bool nc_children_poll(struct nc_child **ch, unsigned int n, int ms, int extra_fd);
void nc_child_free(struct nc_child *ch);

int nc_ms_until(uint64_t t);
int nc_find_exec(const char *who, const char *name, const char *env, char *buf, size_t len);
int nc_child_spawn_ready(struct nc_child *ch, nc_child_hook hook, void *arg,
			 const char *dir, const char *ready, int timeout_s,
			 const volatile sig_atomic_t *stop);
void nc_children_stop(struct nc_child **chs, unsigned int n, int kill_s);
bool nc_child_parse_result(struct nc_child *ch);
double nc_tv_s(struct timeval tv);
double nc_rusage_cpu_s(const struct rusage *ru);
json_t *nc_child_to_json(const struct nc_child *ch, const int *cpus, int ncpus);
void nc_child_pair_watchdog(struct nc_child *snd, struct nc_child *snk, uint64_t now,
			    uint64_t end, uint64_t sink_ns, uint64_t kill_ns);

#endif
