// SPDX-License-Identifier: GPL-2.0
/*
 * mark.c - nc-qprof-mark start|stop: (guest) open or close a qprof
 * window.  Maps a page of code at QPROF_MARK_PAGE and calls the "ret"
 * at the mark's address: the qprof plugin sees a block run there.  Under
 * qemu without the plugin it does nothing.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "mark.h"

int main(int argc, char **argv)
{
	unsigned long at;
	unsigned char *page;

	if (argc != 2 || (strcmp(argv[1], "start") && strcmp(argv[1], "stop"))) {
		fprintf(stderr, "usage: nc-qprof-mark start|stop\n");
		return 2;
	}
	at = strcmp(argv[1], "start") ? QPROF_MARK_STOP : QPROF_MARK_START;
	page = mmap((void *)QPROF_MARK_PAGE, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (page == MAP_FAILED) {
		perror("nc-qprof-mark: mmap");
		return 1;
	}
	memset(page, 0xc3, 4096);	/* ret */
	((void (*)(void))at)();
	return 0;
}
