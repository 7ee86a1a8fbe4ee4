// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * calib.c - (guest) the cost of one system call, in TSC cycles, for the
 * oracle's probe-cost calibration.  Under qemu -icount the TSC counts
 * instructions, so the same call costs the same every time, except when
 * an interrupt lands in it: the median of many calls is the call's cost.
 *
 *   calib getppid|sendto|sendto-nosock|sendto-badfd [N]
 *                                 prints "<call> <median cycles>"
 *   calib pipe [N]                N round trips of a byte between two
 *                                 processes: context switches and little
 *                                 else; prints "pipe <median cycles>"
 *   calib raw SRC DST             copies ftrace's per_cpu/cpuN/trace_pipe_raw
 *                                 SRC to DST, a page a read, until it is
 *                                 empty (a plain cat would wait for more);
 *                                 prints "raw <pages>"
 *   calib tcp-sink PORT READY     (the oracle's TCP load) accepts one
 *                                 connection, writes READY once it
 *                                 listens, reads with recv() to EOF;
 *                                 prints "tcp-sink <bytes>"
 *   calib tcp-send HOST PORT BYTES  sends BYTES with send(), 16 KiB a
 *                                 call, then closes; prints "tcp-send <bytes>"
 *
 * getppid: a system call no tool measures (the probes on raw_syscalls run,
 * and return early).  sendto on an unconnected UDP socket with no
 * address: fails with EDESTADDRREQ at once (udp_sendmsg()'s first test),
 * but is a system call netcost measures (syscall_tx: an inet socket's),
 * so its probes take their full path.  Until netcost 0.14.0 this was
 * sendto(-1), which failed with EBADF; since, netcost reads the
 * descriptor's family at sys_enter, and a call on no socket leaves its
 * probes early (the task-table cost N read 85 cycles low: every wait
 * ending at a switch moved by that much).  sendto-nosock (a pipe:
 * ENOTSOCK at once) and sendto-badfd (EBADF) are calls netcost watches
 * but leaves at sys_enter, after the descriptor's look-up and before it:
 * their difference is that look-up, which only sys_enter does
 * (compare.c takes it out of N).  (A unix socket's sendto is no good
 * there: on 7.3 it costs 34,000 cycles, and its median moved by more
 * than the look-up.)  Built
 * static: the lab image needs nothing for it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* pipe_rtt - one round trip to the child and back, started at @t0 */
static int pipe_rtt(const int *ab, const int *ba, unsigned long long *d)
{
	unsigned long long t0 = __rdtsc();
	char c = 0;

	if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
		return -1;
	*d = __rdtsc() - t0;
	return 0;
}

static int pipe_main(long n, unsigned long long *d)
{
	int ab[2], ba[2], status;
	pid_t pid;
	char c;
	long i;

	if (pipe(ab) || pipe(ba))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		/* its copy of the write end closed: the parent's close is its EOF */
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	for (i = 0; i < n; i++)
		if (pipe_rtt(ab, ba, &d[i]))
			return 1;
	close(ab[1]);
	waitpid(pid, &status, 0);
	qsort(d, n, sizeof(*d), cmp);
	printf("pipe %llu\n", d[n / 2]);
	return 0;
}

/* raw_main - @src (trace_pipe_raw, read without waiting) into @dst, a page a read */
static int raw_main(const char *src, const char *dst)
{
	static char page[4096];
	int in = open(src, O_RDONLY | O_NONBLOCK), out;
	long pages = 0;
	ssize_t n;

	if (in < 0) {
		perror(src);
		return 1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		perror(dst);
		return 1;
	}
	while ((n = read(in, page, sizeof(page))) > 0) {
		if (n != (ssize_t)sizeof(page)) {
			fprintf(stderr, "calib: %s: a read of %zd bytes, not a page\n", src, n);
			return 1;
		}
		if (write(out, page, sizeof(page)) != (ssize_t)sizeof(page)) {
			perror(dst);
			return 1;
		}
		pages++;
	}
	if (n < 0 && errno != EAGAIN) {
		perror(src);
		return 1;
	}
	if (close(out)) {
		perror(dst);
		return 1;
	}
	printf("raw %ld\n", pages);
	return 0;
}

static int tcp_sink(int port, const char *ready)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char buf[65536];
	long long total = 0;
	int one = 1, l, c;
	ssize_t r;
	FILE *f;

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
		perror("tcp-sink");
		return 1;
	}
	f = fopen(ready, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f)) {
		perror(ready);
		return 1;
	}
	c = accept(l, NULL, NULL);
	if (c < 0) {
		perror("accept");
		return 1;
	}
	while ((r = recv(c, buf, sizeof(buf), 0)) > 0)
		total += r;
	if (r < 0) {
		perror("recv");
		return 1;
	}
	close(c);
	close(l);
	printf("tcp-sink %lld\n", total);
	return 0;
}

static int tcp_send(const char *host, int port, long long bytes)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	static char buf[16384];
	long long left = bytes;
	int s;

	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		fprintf(stderr, "tcp-send: not an IPv4 address: %s\n", host);
		return 2;
	}
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a))) {
		perror("tcp-send");
		return 1;
	}
	while (left > 0) {
		ssize_t w = send(s, buf, left < (long long)sizeof(buf) ? (size_t)left : sizeof(buf), 0);

		if (w < 0) {
			perror("send");
			return 1;
		}
		left -= w;
	}
	close(s);
	printf("tcp-send %lld\n", bytes);
	return 0;
}

int main(int argc, char **argv)
{
	int send = argc > 1 && (!strcmp(argv[1], "sendto") || !strcmp(argv[1], "sendto-nosock") ||
				!strcmp(argv[1], "sendto-badfd"));
	long n = argc > 2 ? atol(argv[2]) : 4001;
	unsigned long long *d;
	char buf[1] = { 0 };
	int fd = -1;
	long i;

	if (argc == 4 && !strcmp(argv[1], "raw"))
		return raw_main(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "tcp-sink"))
		return tcp_sink(atoi(argv[2]), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "tcp-send"))
		return tcp_send(argv[2], atoi(argv[3]), atoll(argv[4]));
	if (argc < 2 || (!send && strcmp(argv[1], "getppid") && strcmp(argv[1], "pipe")) ||
	    n < 1) {
		fprintf(stderr, "usage: calib getppid|sendto|sendto-nosock|sendto-badfd|pipe [N] | raw SRC DST | tcp-sink PORT READY | tcp-send HOST PORT BYTES\n");
		return 2;
	}
	d = calloc(n, sizeof(*d));
	if (!d)
		return 1;
	if (!strcmp(argv[1], "pipe"))
		return pipe_main(n, d);
	if (send) {
		int nosock = !strcmp(argv[1], "sendto-nosock"), want = nosock ? ENOTSOCK : EDESTADDRREQ;
		int p[2];

		if (strcmp(argv[1], "sendto-badfd")) {
			fd = nosock ? (pipe(p) ? -1 : p[1]) : socket(AF_INET, SOCK_DGRAM, 0);
			if (fd < 0 || syscall(SYS_sendto, fd, buf, 1, 0, NULL, 0) != -1 || errno != want) {
				fprintf(stderr, "calib: %s did not fail with %s at once\n", argv[1],
					strerror(want));
				return 1;
			}
		}
	}
	for (i = 0; i < n; i++) {
		unsigned long long t0, t1;

		t0 = __rdtsc();
		if (send)
			syscall(SYS_sendto, fd, buf, 1, 0, NULL, 0);
		else
			syscall(SYS_getppid);
		t1 = __rdtsc();
		d[i] = t1 - t0;
	}
	qsort(d, n, sizeof(*d), cmp);
	printf("%s %llu\n", argv[1], d[n / 2]);
	return 0;
}
