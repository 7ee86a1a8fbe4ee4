// SPDX-License-Identifier: GPL-2.0
/*
 * test_atomic.c - nc_write_atomic(), the one writer behind save, export,
 * plot, run -o, soak and netcost-gen (issue 11, bugs 2 and 3): a new file
 * gets its contents and the usual mode; an existing one is replaced
 * whole or not at all; symlinks, directories, devices and FIFOs are
 * refused and left alone; "-" is stdout; messages name the target and
 * never a temporary file, and none is left behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "atomic.h"

#define ADIR	TEST_OUT "/atomic"

static char err[512];

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* no_temp_left - the folder holds no ".NAME.XXXXXX" file */
static void no_temp_left(void)
{
	DIR *d = opendir(ADIR);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fail_msg("temporary file left: %s", e->d_name);
	closedir(d);
}

static int setup(void **state)
{
	(void)state;
	if (system("rm -rf " ADIR " && mkdir -p " ADIR))
		return -1;
	return 0;
}

static void test_new_file(void **state)
{
	struct stat st;
	mode_t mask = umask(022);

	(void)state;
	assert_int_equal(nc_write_atomic_text(ADIR "/new.txt", "hello\n", err, sizeof(err)), 0);
	assert_string_equal(slurp(ADIR "/new.txt"), "hello\n");
	assert_int_equal(stat(ADIR "/new.txt", &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	umask(mask);
	no_temp_left();
}

static void test_replace_keeps_mode(void **state)
{
	struct stat st;

	(void)state;
	put(ADIR "/old.txt", "old\n");
	chmod(ADIR "/old.txt", 0600);
	assert_int_equal(nc_write_atomic_text(ADIR "/old.txt", "new\n", err, sizeof(err)), 0);
	assert_string_equal(slurp(ADIR "/old.txt"), "new\n");
	assert_int_equal(stat(ADIR "/old.txt", &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	no_temp_left();
}

static void test_refuses_symlink(void **state)
{
	(void)state;
	put(ADIR "/real.txt", "real\n");
	unlink(ADIR "/link.txt");
	assert_int_equal(symlink("real.txt", ADIR "/link.txt"), 0);
	assert_int_equal(nc_write_atomic_text(ADIR "/link.txt", "x\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, ADIR "/link.txt"));
	assert_non_null(strstr(err, "symbolic link"));
	assert_string_equal(slurp(ADIR "/real.txt"), "real\n");
	/* the link is still a link */
	{
		struct stat st;

		assert_int_equal(lstat(ADIR "/link.txt", &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	}
	no_temp_left();
}

static void test_refuses_special(void **state)
{
	struct stat st;

	(void)state;
	mkdir(ADIR "/sub", 0755);
	assert_int_equal(nc_write_atomic_text(ADIR "/sub", "x\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, ADIR "/sub: is a directory"));
	/* issue 22: /dev/null is a dry run; any other device is refused */
	assert_int_equal(nc_write_atomic_text("/dev/null", "x\n", err, sizeof(err)), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(nc_write_atomic_text("/dev/zero", "x\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/dev/zero: exists and is not a regular file"));
	unlink(ADIR "/fifo");
	assert_int_equal(mkfifo(ADIR "/fifo", 0644), 0);
	assert_int_equal(nc_write_atomic_text(ADIR "/fifo", "x\n", err, sizeof(err)), -1);
	assert_non_null(strstr(err, ADIR "/fifo"));
	no_temp_left();
}

static int fail_half_way(FILE *f, void *arg)
{
	(void)arg;
	fputs("half", f);
	return -1;
}

static void test_writer_failure_keeps_old(void **state)
{
	(void)state;
	put(ADIR "/keep.txt", "precious\n");
	assert_int_equal(nc_write_atomic(ADIR "/keep.txt", fail_half_way, NULL, err, sizeof(err)), -1);
	assert_string_equal(slurp(ADIR "/keep.txt"), "precious\n");
	assert_non_null(strstr(err, ADIR "/keep.txt"));
	assert_null(strstr(err, "XXXXXX"));
	no_temp_left();
}

static int write_big(FILE *f, void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < 100000; i++)
		if (fputs("0123456789abcdef\n", f) == EOF)
			return -1;
	return 0;
}

/* a full disk (here: RLIMIT_FSIZE) must not leave a truncated file */
static void test_disk_full_keeps_old(void **state)
{
	struct rlimit old, lim = { 4096, 4096 };

	(void)state;
	put(ADIR "/full.svg", "<svg>good</svg>\n");
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(nc_write_atomic(ADIR "/full.svg", write_big, NULL, err, sizeof(err)), -1);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_string_equal(slurp(ADIR "/full.svg"), "<svg>good</svg>\n");
	assert_non_null(strstr(err, ADIR "/full.svg: cannot write: File too large"));
	no_temp_left();
}

/* "-" is standard output, and no file named "-" appears */
static void test_dash_is_stdout(void **state)
{
	int saved = dup(STDOUT_FILENO), fd;
	char cwd[4096];

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(ADIR), 0);
	fd = open(ADIR "/stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	assert_int_equal(nc_write_atomic_text("-", "to stdout\n", err, sizeof(err)), 0);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(access(ADIR "/-", F_OK), -1);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(slurp(ADIR "/stdout.txt"), "to stdout\n");
}

/* raise_half_way - write a little, then the user's Ctrl-C (or a kill) */
static int raise_half_way(FILE *f, void *arg)
{
	fputs("half", f);
	fflush(f);
	raise(*(int *)arg);
	return 0;
}

/*
 * issue 22, bug 10: SIGINT or SIGTERM while the temporary file is being
 * written removes it, and the process still dies of the signal; the
 * target keeps its old contents.  A handler the program had is restored.
 */
static void test_signal_removes_temp(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	unsigned int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		int sig = sigs[i], status;
		pid_t pid;

		put(ADIR "/sig.txt", "old\n");
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			signal(sig, SIG_DFL);
			nc_write_atomic(ADIR "/sig.txt", raise_half_way, &sig, err, sizeof(err));
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sig);
		assert_string_equal(slurp(ADIR "/sig.txt"), "old\n");
		no_temp_left();
	}
	/* the handler in place before is the one in place after */
	{
		struct sigaction sa;

		signal(SIGINT, SIG_IGN);
		assert_int_equal(nc_write_atomic_text(ADIR "/sig.txt", "new\n", err, sizeof(err)), 0);
		sigaction(SIGINT, NULL, &sa);
		assert_true(sa.sa_handler == SIG_IGN);
		signal(SIGINT, SIG_DFL);
	}
}

static void test_missing_folder(void **state)
{
	(void)state;
	assert_int_equal(nc_write_atomic_text(ADIR "/nonexistent/x.txt", "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, ADIR "/nonexistent/x.txt"));
	assert_non_null(strstr(err, "No such file or directory"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_file),
		cmocka_unit_test(test_replace_keeps_mode),
		cmocka_unit_test(test_refuses_symlink),
		cmocka_unit_test(test_refuses_special),
		cmocka_unit_test(test_writer_failure_keeps_old),
		cmocka_unit_test(test_disk_full_keeps_old),
		cmocka_unit_test(test_dash_is_stdout),
		cmocka_unit_test(test_missing_folder),
		cmocka_unit_test(test_signal_removes_temp),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
