// SPDX-License-Identifier: GPL-2.0
/*
 * nc-sockcalls - (guest test tool) a known number of socket calls of one
 * family, for the syscall stages' family rule (issue 21, item 8:
 * syscall_rx and syscall_tx count only calls on inet sockets).
 *
 *   nc-sockcalls FAMILY N
 *
 * FAMILY unix: a socketpair of unix datagram sockets; inet: one UDP socket
 * bound to 127.0.0.1, which sends to itself.  Makes N sendto() calls, each
 * of one byte, each followed by one recvfrom() of it: exactly N calls of
 * each kind, all on sockets of FAMILY.  Prints "FAMILY N sendto N
 * recvfrom" on success; exit status 1 with a message on stderr when a
 * call fails, 2 on a usage error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fail(const char *what)
{
	fprintf(stderr, "nc-sockcalls: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct sockaddr_in self = { .sin_family = AF_INET };
	socklen_t len = sizeof(self);
	struct sockaddr *to = NULL;
	socklen_t tolen = 0;
	unsigned long n, i;
	int sv[2], unix_ = 0;
	char *end, byte = 0;

	if (argc != 3 || (strcmp(argv[1], "unix") && strcmp(argv[1], "inet"))) {
		fprintf(stderr, "usage: nc-sockcalls unix|inet N\n");
		return 2;
	}
	errno = 0;
	n = strtoul(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || n < 1 || n > 10000000) {
		fprintf(stderr, "nc-sockcalls: N must be 1-10000000, not '%s'\n", argv[2]);
		return 2;
	}
	unix_ = !strcmp(argv[1], "unix");
	if (unix_) {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
			return fail("socketpair");
	} else {
		sv[0] = socket(AF_INET, SOCK_DGRAM, 0);
		if (sv[0] < 0)
			return fail("socket");
		self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(sv[0], (struct sockaddr *)&self, sizeof(self)) ||
		    getsockname(sv[0], (struct sockaddr *)&self, &len))
			return fail("bind 127.0.0.1");
		sv[1] = sv[0];
		to = (struct sockaddr *)&self;
		tolen = sizeof(self);
	}
	for (i = 0; i < n; i++) {
		if (sendto(sv[0], &byte, 1, 0, to, tolen) != 1)
			return fail("sendto");
		if (recvfrom(sv[1], &byte, 1, 0, NULL, NULL) != 1)
			return fail("recvfrom");
	}
	printf("%s %lu sendto %lu recvfrom\n", argv[1], n, n);
	return 0;
}
