// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * calib.c - (guest) the cost of one system call, in TSC cycles, for the
 * oracle's probe-cost calibration.  Under qemu -icount the TSC counts
 * instructions, so the same call costs the same every time, except when
 * an interrupt lands in it: the median of many calls is the call's cost.
 *
 *   calib getppid|sendto [N]      prints "<call> <median cycles>"
 *
 * getppid: a system call no tool measures (the probes on raw_syscalls run,
 * and return early).  sendto(-1, ...): fails with EBADF at once, but is a
 * system call netcost measures (syscall_tx), so its probes take their
 * full path.  Built static: the lab image needs nothing for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

static int cmp(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int send = argc > 1 && !strcmp(argv[1], "sendto");
	long n = argc > 2 ? atol(argv[2]) : 4001;
	unsigned long long *d;
	char buf[1] = { 0 };
	long i;

	if (argc < 2 || (!send && strcmp(argv[1], "getppid")) || n < 1) {
		fprintf(stderr, "usage: calib getppid|sendto [N]\n");
		return 2;
	}
	d = calloc(n, sizeof(*d));
	if (!d)
		return 1;
	for (i = 0; i < n; i++) {
		unsigned long long t0, t1;

		t0 = __rdtsc();
		if (send)
			syscall(SYS_sendto, -1, buf, 1, 0, NULL, 0);
		else
			syscall(SYS_getppid);
		t1 = __rdtsc();
		d[i] = t1 - t0;
	}
	qsort(d, n, sizeof(*d), cmp);
	printf("%s %llu\n", argv[1], d[n / 2]);
	return 0;
}
