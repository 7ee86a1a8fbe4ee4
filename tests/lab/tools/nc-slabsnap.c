// SPDX-License-Identifier: GPL-2.0
/*
 * nc-slabsnap - (guest test tool) snapshots of the slab caches that do not
 * disturb what they count (issue 10: the allocations are back after the
 * unload cycles).
 *
 *   nc-slabsnap REQUESTS
 *
 * At start it opens, once, every /sys/kernel/slab/NAME/shrink file,
 * /proc/sys/vm/drop_caches, /proc/slabinfo and /proc/meminfo, and keeps
 * them open.  It then reads lines from the FIFO REQUESTS (which it opens
 * itself, read-write, so that it never sees an end of file); each line
 * is a path.  For each one it syncs, writes 3 to drop_caches, 1 to every
 * shrink file (SLUB counts objects on per-CPU slabs as in use: the writes
 * flush them), and writes "NAME ACTIVE" per cache and "@percpu KB" and
 * "@vmalloc KB" (Percpu and VmallocUsed of /proc/meminfo) to PATH.tmp,
 * then renames it to PATH: the caller waits for PATH.  A line "quit"
 * ends it.
 *
 * Why a program: a shell opens each of the ~240 shrink files per
 * snapshot, and closing a kernfs file frees its open node with
 * kfree_rcu(), which batches for seconds: read at once, a cache held up
 * to one object per shrink file more or less, depending on when the
 * batch drained (6.12: kmalloc-96 +242, allocated at kernfs_fop_open(),
 * with no netcost ever loaded).  Files held open keep those objects
 * allocated, the same in every snapshot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int *shrink_fds;
static size_t n_shrink;

static void die(const char *what)
{
	fprintf(stderr, "nc-slabsnap: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void open_shrink_files(void)
{
	DIR *d = opendir("/sys/kernel/slab");
	struct dirent *e;
	size_t cap = 0;
	char path[512];
	int fd;

	if (!d)
		die("/sys/kernel/slab");
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink", e->d_name);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;	/* an alias, or a cache that cannot shrink */
		if (n_shrink == cap) {
			cap = cap ? cap * 2 : 256;
			shrink_fds = realloc(shrink_fds, cap * sizeof(*shrink_fds));
			if (!shrink_fds)
				die("realloc");
		}
		shrink_fds[n_shrink++] = fd;
	}
	closedir(d);
}

/* read_all - the whole of the file open at @fd, from its start, into @buf */
static size_t read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		die("lseek");
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	if (n < 0)
		die("read");
	buf[len] = '\0';
	return len;
}

static void snapshot(const char *out, int drop, int slabinfo, int meminfo)
{
	static char buf[1 << 20];
	char tmp[PATH_MAX + 8], name[128], *line, *save;
	unsigned long active, kb;
	size_t i;
	FILE *f;

	sync();
	if (pwrite(drop, "3\n", 2, 0) != 2)
		die("drop_caches");
	for (i = 0; i < n_shrink; i++)
		if (pwrite(shrink_fds[i], "1\n", 2, 0) < 0 && errno != EINVAL)
			die("shrink");
	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f)
		die(tmp);
	read_all(slabinfo, buf, sizeof(buf));
	line = strtok_r(buf, "\n", &save);
	for (i = 0; line; line = strtok_r(NULL, "\n", &save), i++) {
		/* two header lines: "slabinfo - version", "# name ..." */
		if (i >= 2 && sscanf(line, "%127s %lu", name, &active) == 2)
			fprintf(f, "%s %lu\n", name, active);
	}
	read_all(meminfo, buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "Percpu: %lu", &kb) == 1)
			fprintf(f, "@percpu %lu\n", kb);
		else if (sscanf(line, "VmallocUsed: %lu", &kb) == 1)
			fprintf(f, "@vmalloc %lu\n", kb);
	}
	if (fclose(f))
		die(tmp);
	if (rename(tmp, out))
		die(out);
}

int main(int argc, char **argv)
{
	int drop, slabinfo, meminfo;
	char line[PATH_MAX];
	FILE *req;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: nc-slabsnap REQUESTS-FIFO\n");
		return 2;
	}
	open_shrink_files();
	drop = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	slabinfo = open("/proc/slabinfo", O_RDONLY | O_CLOEXEC);
	meminfo = open("/proc/meminfo", O_RDONLY | O_CLOEXEC);
	if (drop < 0 || slabinfo < 0 || meminfo < 0)
		die("/proc");
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die(argv[1]);
	req = fdopen(fd, "r");
	if (!req)
		die("fdopen");
	fprintf(stderr, "nc-slabsnap: %zu shrink files held open\n", n_shrink);
	while (fgets(line, sizeof(line), req)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "quit"))
			break;
		if (line[0])
			snapshot(line, drop, slabinfo, meminfo);
	}
	return 0;
}
