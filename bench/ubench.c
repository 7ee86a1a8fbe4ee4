// SPDX-License-Identifier: GPL-2.0
/*
 * ubench.c - nc-ubench: micro-loops that each drive one kind of hook, timed
 * with the TSC (under the lab's --icount, 1 cycle = 1 guest instruction),
 * for bench/overhead's per-hook costs.
 *
 *   nc-ubench [-j] null N      N getppid() calls: a system call netcost does
 *                              not watch (sys_enter/sys_exit hits only)
 *   nc-ubench [-j] pipe N      N round trips of one byte between two
 *                              processes over two pipes: 2 context switches,
 *                              2 wake-ups and 4 system calls each
 *   nc-ubench [-j] udp N HOST PORT
 *                              N 64-byte sendto()s on one UDP socket
 *
 * Prints the cycles per iteration (the mean over the loop, after 1% of
 * warm-up iterations that are not counted).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

static int json;

static void die(const char *what)
{
	fprintf(stderr, "nc-ubench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void report(const char *mode, long n, uint64_t cycles)
{
	if (json)
		printf("{\"mode\": \"%s\", \"iterations\": %ld, \"cycles\": %llu, \"cycles_per_iter\": %.1f}\n",
		       mode, n, (unsigned long long)cycles, (double)cycles / n);
	else
		printf("%-5s %10ld iterations %14llu cycles %10.1f cycles/iteration\n",
		       mode, n, (unsigned long long)cycles, (double)cycles / n);
}

static void loop_null(long n)
{
	uint64_t t0;
	long i;

	for (i = 0; i < n / 100 + 1; i++)
		syscall(SYS_getppid);
	t0 = __rdtsc();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	report("null", n, __rdtsc() - t0);
}

static void loop_pipe(long n)
{
	int ab[2], ba[2], status;
	long warm = n / 100 + 1, i;
	uint64_t t0 = 0;
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		for (i = 0; i < n + warm; i++) {
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < n + warm; i++) {
		if (i == warm)
			t0 = __rdtsc();
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("pipe round trip");
	}
	report("pipe", n, __rdtsc() - t0);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		die("pipe partner");
}

static void loop_udp(long n, const char *host, int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	long warm = n / 100 + 1, i;
	char buf[64] = { 0 };
	uint64_t t0 = 0;
	int fd;

	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
		fprintf(stderr, "nc-ubench: bad IPv4 address '%s'\n", host);
		exit(2);
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	for (i = 0; i < n + warm; i++) {
		if (i == warm)
			t0 = __rdtsc();
		/* ENOBUFS: a full qdisc or ring, the packet dropped; the call ran */
		if (sendto(fd, buf, sizeof(buf), 0, (void *)&sa, sizeof(sa)) < 0 &&
		    errno != ENOBUFS)
			die("sendto");
	}
	report("udp", n, __rdtsc() - t0);
	close(fd);
}

static void usage(void)
{
	fprintf(stderr, "usage: nc-ubench [-j] null N | pipe N | udp N HOST PORT\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long n;

	if (argc > 1 && !strcmp(argv[1], "-j")) {
		json = 1;
		argc--;
		argv++;
	}
	if (argc < 3)
		usage();
	n = strtol(argv[2], NULL, 10);
	if (n <= 0)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "null"))
		loop_null(n);
	else if (!strcmp(argv[1], "pipe"))
		loop_pipe(n);
	else if (!strcmp(argv[1], "udp") && argc == 5)
		loop_udp(n, argv[3], atoi(argv[4]));
	else
		usage();
	return 0;
}
