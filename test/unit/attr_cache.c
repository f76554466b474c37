// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kevent-watch's cache of open attributes (cli/attr_cache.c),
 * on the sysfs of the machine that runs them: the memory devices of
 * /sys/devices/virtual/mem are there on every Linux system. That a removed
 * attribute's descriptor fails with ENODEV, and the cache opens the new
 * one, takes a kernel with kevent: test/vm/watch-reads.bats.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "attr_cache.h"
#include "unit.h"

static const char *const mem_devices[] = {
	"null", "zero", "full", "random", "urandom", "kmsg",
};

/* How many descriptors the process has open */
static int open_fds(void)
{
	struct dirent *d;
	DIR *dir;
	int n = 0;

	dir = opendir("/proc/self/fd");
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			n++;
	closedir(dir);
	return n - 1; /* the directory's own */
}

/* Read @attr of memory device @name through @c; 0 or -errno. */
static int read_mem(struct attr_cache *c, const char *name, const char *attr,
		    char **ret_value)
{
	struct attr_cache_entry *e;
	char path[64];
	int r;

	snprintf(path, sizeof(path), "/devices/virtual/mem/%s", name);
	*ret_value = NULL;
	r = attr_cache_get(c, path, attr, &e);
	if (r == 0)
		r = attr_cache_read(e, ret_value, NULL);
	return r;
}

UNIT_TEST(test_attr_cache_reuse)
{
	struct attr_cache_entry *e1 = NULL, *e2 = NULL;
	struct attr_cache *c = attr_cache_new();
	char *value = NULL;
	int fds;

	CHECK(c != NULL);
	if (!c)
		return;
	fds = open_fds();
	CHECK(attr_cache_get(c, "/devices/virtual/mem/null", "dev", &e1) == 0);
	CHECK(open_fds() == fds + 1);
	CHECK_STR(attr_cache_subsystem(e1), "mem");
	CHECK(attr_cache_read(e1, &value, NULL) == 0);
	CHECK_STR(value, "1:3\n");
	free(value);
	value = NULL;

	/* The second lookup opens nothing and finds the same entry. */
	CHECK(attr_cache_get(c, "/devices/virtual/mem/null", "dev", &e2) == 0);
	CHECK(e2 == e1);
	CHECK(open_fds() == fds + 1);
	CHECK_STR(attr_cache_subsystem(e2), "mem");
	CHECK(attr_cache_read(e2, &value, NULL) == 0);
	CHECK_STR(value, "1:3\n");
	free(value);

	/* A file that is not there is not kept; the open says why. */
	CHECK(attr_cache_get(c, "/devices/virtual/mem/null", "no-such-attr",
			     &e2) == -ENOENT);
	CHECK(e2 == NULL);
	CHECK(attr_cache_get(c, "/devices/virtual/mem/no-such-dev", "dev",
			     &e2) == -ENODEV);
	CHECK(e2 == NULL);
	/* One that cannot be read is kept, with its error and subsystem. */
	CHECK(attr_cache_get(c, "/devices/virtual/mem/null", "power", &e2) ==
	      -EISDIR);
	CHECK(e2 != NULL);
	if (e2)
		CHECK_STR(attr_cache_subsystem(e2), "mem");
	e1 = e2;
	CHECK(attr_cache_get(c, "/devices/virtual/mem/null", "power", &e2) ==
	      -EISDIR);
	CHECK(e2 == e1);
	CHECK(open_fds() == fds + 1);

	attr_cache_free(c);
	CHECK(open_fds() == fds);
	attr_cache_free(NULL);
}

/* A low RLIMIT_NOFILE makes a small cache: the descriptors stay bounded. */
UNIT_TEST(test_attr_cache_bounded)
{
	struct rlimit old, low;
	struct attr_cache *c;
	char *value = NULL, want[16];
	int fds, r;
	size_t i;

	CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
	low = old;
	low.rlim_cur = 16; /* a cache of 16 / 4 = 4 descriptors */
	if (low.rlim_cur > old.rlim_max || setrlimit(RLIMIT_NOFILE, &low)) {
		CHECK(!"setrlimit(RLIMIT_NOFILE, 16)");
		return;
	}
	c = attr_cache_new();
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
	CHECK(c != NULL);
	if (!c)
		return;

	fds = open_fds();
	for (i = 0; i < sizeof(mem_devices) / sizeof(mem_devices[0]); i++) {
		r = read_mem(c, mem_devices[i], "uevent", &value);
		CHECK(r == 0 && value && strstr(value, "DEVNAME="));
		free(value);
		r = read_mem(c, mem_devices[i], "dev", &value);
		snprintf(want, sizeof(want), "1:%s\n",
			 i == 0 ? "3" : i == 1 ? "5" : i == 2 ? "7" :
			 i == 3 ? "8" : i == 4 ? "9" : "11");
		CHECK(r == 0);
		CHECK_STR(value, want);
		free(value);
		CHECK(open_fds() <= fds + 4);
	}
	attr_cache_free(c);
	CHECK(open_fds() == fds);
}

/* The highest descriptor open on a file whose path starts with @prefix. */
static int highest_fd_of(const char *prefix)
{
	char link[64], target[256];
	struct dirent *d;
	int fd, top = -1;
	ssize_t len;
	DIR *dir;

	dir = opendir("/proc/self/fd");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		fd = atoi(d->d_name);
		if (d->d_name[0] == '.' || fd == dirfd(dir) || fd <= top)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (strncmp(target, prefix, strlen(prefix)) == 0)
			top = fd;
	}
	closedir(dir);
	return top;
}

/*
 * With every descriptor taken, a lookup closes the cached ones and opens
 * its attribute: the value is read, not an EMFILE.
 */
UNIT_TEST(test_attr_cache_emfile)
{
	struct rlimit old, low;
	struct attr_cache *c = attr_cache_new();
	char *value = NULL;
	int r, fd, top, fill[64];
	size_t i, n_fill = 0;

	CHECK(c != NULL && getrlimit(RLIMIT_NOFILE, &old) == 0);
	if (!c)
		return;
	/*
	 * Cache three, as many as a walk of a path holds open at once (the
	 * library opens /sys for each call), and take the free descriptors
	 * below them; then let no descriptor be opened above the highest.
	 */
	for (i = 0; i < 3; i++) {
		CHECK(read_mem(c, mem_devices[i], "dev", &value) == 0);
		free(value);
	}
	top = highest_fd_of("/sys/devices/virtual/mem/");
	for (;;) {
		fd = dup(0);
		if (fd < 0 || fd > top || n_fill == 64)
			break;
		fill[n_fill++] = fd;
	}
	if (fd >= 0)
		close(fd);
	low = old;
	low.rlim_cur = top + 1;
	if (top < 0 || fd < top || setrlimit(RLIMIT_NOFILE, &low)) {
		CHECK(!"setrlimit(RLIMIT_NOFILE, lowest free descriptor)");
		goto out_free;
	}
	for (i = 3; i < sizeof(mem_devices) / sizeof(mem_devices[0]); i++) {
		r = read_mem(c, mem_devices[i], "dev", &value);
		CHECK(r == 0 && value && value[0] == '1');
		free(value);
	}
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
out_free:
	while (n_fill)
		close(fill[--n_fill]);
	attr_cache_free(c);
}
