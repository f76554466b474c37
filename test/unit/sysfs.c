// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the library's reads of sysfs: they stay on sysfs, and on
 * the /sys the process sees at the time of the read, whatever the program
 * did to its descriptors in between.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "kevent-private.h"
#include "unit.h"

/* A real attribute of every Linux system, and its subsystem. */
#define LO_PATH "/devices/virtual/net/lo"
#define LO_ATTR "mtu"
#define LO_SUBSYSTEM "net"

static char fakedir[] = "/tmp/kevent-unit-fake.XXXXXX";

/* Write @data into @rel below fakedir; false if it could not. */
static bool put_fake(const char *rel, const char *data)
{
	char path[256];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", fakedir, rel);
	f = fopen(path, "we");
	if (!f)
		return false;
	ok = fputs(data, f) >= 0;
	return fclose(f) == 0 && ok;
}

/*
 * A directory that looks like /sys for the device lo, with a value of mtu
 * and a subsystem no real system has.
 * Return: an O_PATH descriptor of it, or -1.
 */
static int make_fake_sys(void)
{
	char cmd[512];

	if (!mkdtemp(fakedir))
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/devices/virtual/net/lo && "
		 "ln -s ../../../../class/fake %s/devices/virtual/net/lo/subsystem",
		 fakedir, fakedir);
	if (system(cmd) != 0 || !put_fake("devices/virtual/net/lo/mtu", "FAKE\n"))
		return -1;
	return open(fakedir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/*
 * Put @fake in place of every descriptor of the process that is open on
 * /sys, as a program does that closes the descriptors it does not know and
 * opens a directory that gets the same number.
 * Return: how many there were.
 */
static int replace_sys_fds(int fake)
{
	char link[64], target[64];
	struct dirent *de;
	int n = 0, fd;
	ssize_t len;
	DIR *d;

	d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		fd = atoi(de->d_name);
		if (de->d_name[0] == '.' || fd == dirfd(d) || fd == fake)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (strcmp(target, "/sys") != 0)
			continue;
		close(fd);
		if (dup2(fake, fd) == fd)
			n++;
	}
	closedir(d);
	return n;
}

UNIT_TEST(test_sysfs_no_stale_descriptor)
{
	char *value = NULL, *before = NULL, *subsystem = NULL, cmd[128];
	int fake, fd, n;

	/* A first read, as a daemon does before it closes its descriptors */
	CHECK(kevent_attr_read(LO_PATH, LO_ATTR, &before, NULL) == 0);
	fake = make_fake_sys();
	CHECK(fake >= 0);
	n = replace_sys_fds(fake);
	CHECK(n >= 0);

	/* Every read is of /sys, none of the directory that took the number */
	CHECK(kevent_attr_read(LO_PATH, LO_ATTR, &value, NULL) == 0);
	CHECK_STR(value, before);
	free(value);
	value = NULL;
	fd = kevent_attr_open(LO_PATH, LO_ATTR);
	CHECK(fd >= 0 && kevent_attr_read_fd(fd, &value, NULL) == 0);
	CHECK_STR(value, before);
	if (fd >= 0)
		close(fd);
	CHECK(kevent_device_get_subsystem(LO_PATH, &subsystem) == 0);
	CHECK_STR(subsystem, LO_SUBSYSTEM);

	free(subsystem);
	free(value);
	free(before);
	if (fake >= 0)
		close(fake);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fakedir);
	if (system(cmd) != 0)
		printf("cleanup: '%s' failed\n", cmd);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * Read @attr of @path below @root, with SIGALRM every second to interrupt
 * each open() or read() that blocks (the read then fails with -EINTR,
 * rather than hang the test).
 */
static int read_bounded(int root, const char *path, const char *attr)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval every_second = { { 1, 0 }, { 1, 0 } }, off = { 0 };
	char *value = NULL;
	int r;

	sigaction(SIGALRM, &sa, &old); /* no SA_RESTART */
	setitimer(ITIMER_REAL, &every_second, NULL);
	r = kevent_attr_read_at(root, path, attr, &value, NULL);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	free(value);
	return r;
}

/* Reads below @root, whichever way paths resolve. */
static void check_confined(int root, int tmp, const char *tmp_path)
{
	/* /proc is another file system than / */
	CHECK(read_bounded(root, "/proc", "version") == -EXDEV);
	CHECK(read_bounded(root, "/proc/sys/kernel", "ostype") == -EXDEV);
	/* A FIFO fails at once, rather than wait for a writer */
	CHECK(read_bounded(tmp, tmp_path, "fifo") == -EINVAL);
	/* What stays on one file system is read */
	CHECK(read_bounded(tmp, tmp_path, "value") == 0);
}

UNIT_TEST(test_sysfs_confined_to_one_file_system)
{
	char dir[] = "/tmp/kevent-unit-xdev.XXXXXX", cmd[128];
	int root, tmp;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "mkfifo %s/fifo && echo 1 > %s/value", dir,
		 dir);
	CHECK(system(cmd) == 0);
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	tmp = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	CHECK(root >= 0 && tmp >= 0);

	/* dir relative to /tmp: "/kevent-unit-xdev.XXXXXX" */
	check_confined(root, tmp, dir + 4);
	kevent_sysfs_force_walk(true);
	check_confined(root, tmp, dir + 4);
	kevent_sysfs_force_walk(false);

	close(root);
	close(tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

/*
 * The unit binary is linked with --wrap=syscall: the library's openat2()
 * calls come here. They are counted, and fail with EPERM for a path that
 * ends with openat2_eperm_suffix, as an LSM may refuse one file.
 */
static const char *openat2_eperm_suffix;
static unsigned int openat2_calls;

long __real_syscall(long nr, ...);

long __wrap_syscall(long nr, ...)
{
	const char *path;
	long a[6];
	va_list ap;
	size_t n;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_openat2) {
		openat2_calls++;
		path = (const char *)a[1];
		n = openat2_eperm_suffix ? strlen(openat2_eperm_suffix) : 0;
		if (n && strlen(path) >= n &&
		    strcmp(path + strlen(path) - n, openat2_eperm_suffix) == 0) {
			errno = EPERM;
			return -1;
		}
	}
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/*
 * An EPERM of openat2() for one file is that file's: it is opened by the
 * walk, and openat2() stays in use for the others. (An openat2() that
 * seccomp refuses fails with EPERM for every path: that turns it off.)
 */
UNIT_TEST(test_sysfs_openat2_eperm_of_one_file)
{
	unsigned int calls;
	int fd;

	kevent_sysfs_force_walk(false);
	calls = openat2_calls;
	fd = kevent_attr_open("/devices/virtual/mem/null", "dev");
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	if (openat2_calls == calls) {
		unit_skip("openat2() is not used here (valgrind, or an old kernel)");
		return;
	}

	openat2_eperm_suffix = "/null/dev";
	fd = kevent_attr_open("/devices/virtual/mem/null", "dev");
	openat2_eperm_suffix = NULL;
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);

	calls = openat2_calls;
	fd = kevent_attr_open("/devices/virtual/mem/zero", "dev");
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(openat2_calls > calls);
	kevent_sysfs_force_walk(false);
}
