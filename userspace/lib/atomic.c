// SPDX-License-Identifier: GPL-2.0
/*
 * atomic.c - nc_write_atomic(): replace a file so that a reader sees the
 * old contents or the new ones, never half a file, and so that a typo in
 * "-o" cannot write through a symlink or into a device.  See atomic.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"

/* nc_aerr - "@target: what: reason" into @err; returns -1 */
static int __attribute__((format(printf, 3, 4)))
nc_aerr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* nc_write_stdout - "-": @fn on stdout, flushed and checked */
static int nc_write_stdout(nc_write_fn fn, void *arg, char *err, size_t errlen)
{
	int ret;

	errno = 0;
	ret = fn(stdout, arg);
	if (fflush(stdout) == EOF || ferror(stdout))
		return nc_aerr(err, errlen, "standard output: cannot write: %s",
			       errno ? strerror(errno) : "write error");
	if (ret)
		return nc_aerr(err, errlen, "standard output: cannot write%s%s",
			       errno ? ": " : "", errno ? strerror(errno) : "");
	return 0;
}

/*
 * The temporary file being written, for the SIGINT/SIGTERM handler: a
 * Ctrl-C during a long write removes it.  With the default action the
 * process then dies of the signal as it would have; a program's own
 * handler is called after, and the write ends with "interrupted".
 */
static const int nc_atomic_sigs[] = { SIGINT, SIGTERM };
static char *volatile nc_atomic_tmp;
static volatile sig_atomic_t nc_atomic_interrupted;
static struct sigaction nc_atomic_old[2];

static void nc_atomic_on_signal(int sig)
{
	int saved = errno;
	char *tmp = nc_atomic_tmp;
	unsigned int i;

	if (tmp)
		unlink(tmp);
	nc_atomic_tmp = NULL;
	nc_atomic_interrupted = 1;
	for (i = 0; i < 2; i++) {
		if (nc_atomic_sigs[i] != sig)
			continue;
		if (nc_atomic_old[i].sa_handler == SIG_DFL) {
			signal(sig, SIG_DFL);
			raise(sig);	/* delivered when this handler returns */
		} else if (!(nc_atomic_old[i].sa_flags & SA_SIGINFO) &&
			   nc_atomic_old[i].sa_handler != SIG_IGN) {
			nc_atomic_old[i].sa_handler(sig);
		}
	}
	errno = saved;
}

/* nc_atomic_catch - catch SIGINT/SIGTERM (unless ignored) while @on */
static void nc_atomic_catch(bool on)
{
	struct sigaction sa = { .sa_handler = nc_atomic_on_signal };
	unsigned int i;

	sigfillset(&sa.sa_mask);
	for (i = 0; i < 2; i++) {
		if (on) {
			sigaction(nc_atomic_sigs[i], NULL, &nc_atomic_old[i]);
			if (nc_atomic_old[i].sa_handler != SIG_IGN)
				sigaction(nc_atomic_sigs[i], &sa, NULL);
		} else {
			sigaction(nc_atomic_sigs[i], &nc_atomic_old[i], NULL);
		}
	}
}

/* nc_write_devnull - "-o /dev/null": a dry run, written and discarded */
static int nc_write_devnull(const char *target, nc_write_fn fn, void *arg,
			    char *err, size_t errlen)
{
	FILE *f = fopen(target, "w");
	int ret;

	if (!f)
		return nc_aerr(err, errlen, "%s: %s", target, strerror(errno));
	ret = fn(f, arg);
	if (fclose(f) || ret)
		return nc_aerr(err, errlen, "%s: cannot write", target);
	return 0;
}

/* nc_fsync_dir - make the rename durable; a failure only costs durability */
static void nc_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int nc_write_check(const char *target, char *err, size_t errlen)
{
	struct stat st;

	if (!target || !*target)
		return nc_aerr(err, errlen, "no output file named");
	if (!strcmp(target, "-") || lstat(target, &st))
		return 0;
	if (S_ISLNK(st.st_mode))
		return nc_aerr(err, errlen,
			       "%s: is a symbolic link; refusing to replace it (name the real file)",
			       target);
	if (S_ISDIR(st.st_mode))
		return nc_aerr(err, errlen, "%s: is a directory; name a file", target);
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
		return 0;	/* /dev/null: a dry run */
	if (!S_ISREG(st.st_mode))
		return nc_aerr(err, errlen,
			       "%s: exists and is not a regular file (a device or FIFO); refusing to write to it",
			       target);
	return 0;
}

int nc_write_atomic(const char *target, nc_write_fn fn, void *arg,
		    char *err, size_t errlen)
{
	char *copy_dir = NULL, *copy_base = NULL, *tmp = NULL;
	const char *dir, *base;
	sigset_t block, oldmask;
	bool caught = false;
	struct stat st;
	mode_t mode, mask;
	int fd = -1, saved, ret = -1;
	FILE *f = NULL;

	if (!target || !*target)
		return nc_aerr(err, errlen, "no output file named");
	if (!strcmp(target, "-"))
		return nc_write_stdout(fn, arg, err, errlen);

	if (nc_write_check(target, err, errlen))
		return -1;
	if (!lstat(target, &st)) {
		if (S_ISCHR(st.st_mode))	/* /dev/null, as nc_write_check() allowed */
			return nc_write_devnull(target, fn, arg, err, errlen);
		mode = st.st_mode & 07777;
	} else if (errno == ENOENT) {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	} else {
		return nc_aerr(err, errlen, "%s: %s", target, strerror(errno));
	}

	copy_dir = strdup(target);
	copy_base = strdup(target);
	if (!copy_dir || !copy_base) {
		nc_aerr(err, errlen, "%s: out of memory", target);
		goto out;
	}
	dir = dirname(copy_dir);
	base = basename(copy_base);
	if (asprintf(&tmp, "%s/.%s.XXXXXX", dir, base) < 0) {
		tmp = NULL;
		nc_aerr(err, errlen, "%s: out of memory", target);
		goto out;
	}
	nc_atomic_interrupted = 0;
	nc_atomic_catch(true);
	caught = true;
	/* no signal between creating the file and naming it to the handler */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &oldmask);
	fd = mkostemp(tmp, O_CLOEXEC);		/* O_CREAT | O_EXCL */
	if (fd >= 0)
		nc_atomic_tmp = tmp;
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	if (fd < 0) {
		nc_aerr(err, errlen, "%s: cannot create a file in %s: %s", target, dir,
			strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if (fchmod(fd, mode)) {
		nc_aerr(err, errlen, "%s: %s", target, strerror(errno));
		goto out_unlink;
	}
	f = fdopen(fd, "w");
	if (!f) {
		nc_aerr(err, errlen, "%s: %s", target, strerror(errno));
		goto out_unlink;
	}
	fd = -1;
	errno = 0;
	if (fn(f, arg) || nc_atomic_interrupted) {
		saved = nc_atomic_interrupted ? EINTR : errno;
		nc_aerr(err, errlen, "%s: cannot write%s%s; left unchanged", target,
			saved ? ": " : "", saved ? strerror(saved) : "");
		goto out_unlink;
	}
	if (fflush(f) == EOF || ferror(f)) {
		nc_aerr(err, errlen, "%s: cannot write: %s; left unchanged", target,
			errno ? strerror(errno) : "write error");
		goto out_unlink;
	}
	if (fsync(fileno(f))) {
		nc_aerr(err, errlen, "%s: cannot write: %s; left unchanged", target,
			strerror(errno));
		goto out_unlink;
	}
	saved = fclose(f);
	f = NULL;
	if (saved) {
		nc_aerr(err, errlen, "%s: cannot write: %s; left unchanged", target,
			strerror(errno));
		goto out_unlink;
	}
	/* the target may have become something else meanwhile: check again */
	if (!lstat(target, &st) && !S_ISREG(st.st_mode)) {
		nc_aerr(err, errlen, "%s: is no longer a regular file; refusing to replace it",
			target);
		goto out_unlink;
	}
	sigprocmask(SIG_BLOCK, &block, &oldmask);
	if (nc_atomic_interrupted || rename(tmp, target)) {
		nc_aerr(err, errlen, "%s: cannot replace: %s", target,
			nc_atomic_interrupted ? strerror(EINTR) : strerror(errno));
		sigprocmask(SIG_SETMASK, &oldmask, NULL);
		goto out_unlink;
	}
	nc_atomic_tmp = NULL;
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
	nc_fsync_dir(dir);
	ret = 0;
	goto out;

out_unlink:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	sigprocmask(SIG_BLOCK, &block, &oldmask);
	if (nc_atomic_tmp)
		unlink(tmp);
	nc_atomic_tmp = NULL;
	sigprocmask(SIG_SETMASK, &oldmask, NULL);
out:
	if (caught)
		nc_atomic_catch(false);
	free(tmp);
	free(copy_dir);
	free(copy_base);
	return ret;
}

/* nc_put_text - the nc_write_fn of nc_write_atomic_text() */
static int nc_put_text(FILE *f, void *arg)
{
	return fputs(arg, f) == EOF ? -1 : 0;
}

int nc_write_atomic_text(const char *target, const char *text, char *err, size_t errlen)
{
	return nc_write_atomic(target, nc_put_text, (void *)text, err, errlen);
}
