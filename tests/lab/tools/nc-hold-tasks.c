// SPDX-License-Identifier: GPL-2.0
/*
 * nc-hold-tasks - (guest test tool) many tasks that each made one socket
 * call and then sleep, as on a real box: every inet socket's user keeps
 * a task-table slot in netcost until it exits (it is a load task: wait.c
 * follows it; until 0.14.0 every netlink user too: journald, dbus).
 *
 *   nc-hold-tasks N READY-FILE [SPREAD]
 *
 * Starts N threads.  Each sends one UDP datagram to 127.0.0.1:9 (nothing
 * listens: the kernel answers with an ICMP port unreachable) and then
 * sleeps.
 *
 * A fresh guest allocates a burst of task_structs at evenly spaced
 * addresses, which hash_ptr() spreads over the table far more evenly
 * than a real box's, whose tasks were made and reaped over its uptime.
 * SPREAD K (default 1) starts N * K threads first and lets a random
 * (N * (K - 1)) of them exit before the other N send: the holders' task
 * structs are then a random subset of K times as many addresses.  When all N have sent, writes N to READY-FILE (through a
 * temporary file and rename(), so that a reader never sees it half
 * written) and sleeps until a signal ends the process.  Exit status 1
 * with a message on stderr when a thread cannot be started or its send
 * fails.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static unsigned int sent, failed;
static int phase;		/* 0: wait; 1: the others exit; 2: holders send */
static pthread_t *tid;		/* every thread, held to the end */
static char *role;		/* per thread: 1 = a holder */

/* holder - @arg non-NULL: a holder; else a thread that only exits */
static void *holder(void *arg)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	char byte = 0;
	int fd, ok = 0;

	pthread_mutex_lock(&lock);
	while (phase < (arg ? 2 : 1))
		pthread_cond_wait(&go, &lock);
	pthread_mutex_unlock(&lock);
	if (!arg)
		return NULL;
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd >= 0) {
		ok = sendto(fd, &byte, 1, 0, (struct sockaddr *)&to, sizeof(to)) == 1;
		close(fd);
	}
	pthread_mutex_lock(&lock);
	if (ok)
		sent++;
	else
		failed++;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	for (;;)
		pause();
	return NULL;
}

/* pick_holders - mark a random @n of @total in @role (a partial Fisher-Yates draw) */
static int pick_holders(char *role, unsigned long total, unsigned long n)
{
	unsigned long *idx = calloc(total, sizeof(*idx)), i;

	if (!idx)
		return -1;
	srandom(getpid());
	for (i = 0; i < total; i++)
		idx[i] = i;
	for (i = 0; i < n; i++) {
		unsigned long j = i + (unsigned long)random() % (total - i), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
		role[idx[i]] = 1;
	}
	free(idx);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	unsigned long n, k = 1, total;
	char *end, tmp[PATH_MAX];
	FILE *f;
	unsigned long i;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: nc-hold-tasks N READY-FILE [SPREAD]\n");
		return 2;
	}
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || !n || n > 100000) {
		fprintf(stderr, "nc-hold-tasks: N must be 1-100000, not '%s'\n", argv[1]);
		return 2;
	}
	if (argc == 4) {
		k = strtoul(argv[3], &end, 10);
		if (errno || end == argv[3] || *end || !k || k > 20 || n * k > 100000) {
			fprintf(stderr, "nc-hold-tasks: SPREAD must be 1-20 (N * SPREAD <= 100000), not '%s'\n",
				argv[3]);
			return 2;
		}
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]) >= (int)sizeof(tmp)) {
		fprintf(stderr, "nc-hold-tasks: READY-FILE name too long\n");
		return 2;
	}
	total = n * k;
	tid = calloc(total, sizeof(*tid));
	role = calloc(total, 1);
	if (!tid || !role || pick_holders(role, total, n)) {
		fprintf(stderr, "nc-hold-tasks: out of memory\n");
		return 1;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < total; i++) {
		int e = pthread_create(&tid[i], &attr, holder, role[i] ? role : NULL);

		if (e) {
			fprintf(stderr, "nc-hold-tasks: thread %lu of %lu: %s\n", i + 1, total,
				strerror(e));
			return 1;
		}
	}
	/* the others exit and are reaped; then the holders send */
	pthread_mutex_lock(&lock);
	phase = 1;
	pthread_cond_broadcast(&go);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < total; i++)
		if (!role[i])
			pthread_join(tid[i], NULL);
	pthread_mutex_lock(&lock);
	phase = 2;
	pthread_cond_broadcast(&go);
	while (sent + failed < n)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	if (failed) {
		fprintf(stderr, "nc-hold-tasks: %u of %lu sends failed\n", failed, n);
		return 1;
	}
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%lu\n", n) < 0 || fclose(f) || rename(tmp, argv[2])) {
		fprintf(stderr, "nc-hold-tasks: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (;;)
		pause();
}
