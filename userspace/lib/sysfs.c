// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading attribute values and the subsystem from sysfs.
 *
 * Each call opens /sys for itself (O_PATH) and checks that it is sysfs: the
 * library keeps no descriptor, so a program that closes the descriptors it
 * does not know, or reuses their numbers, cannot redirect its reads. A path
 * below it is resolved with a single openat2() that refuses symlinks,
 * escapes and mount points, so every file read is a file of sysfs. Where
 * openat2() is not available (kernel before 5.6, seccomp, valgrind that
 * does not know it), or when it fails, each path component is opened in
 * turn without following symlinks and checked to be on the file system of
 * /sys, so the errors stay those of the walk. Files are opened with
 * O_NONBLOCK: something that is not an attribute (a FIFO on a file system
 * mounted below /sys) cannot block the open.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/openat2.h>
#include <libudev.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define KEVENT_ON_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef KEVENT_ON_VALGRIND
#define KEVENT_ON_VALGRIND() 0
#endif

#include "kevent-private.h"

#define RESOLVE_STRICT \
	(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | \
	 RESOLVE_NO_XDEV)

/* How an attribute is opened; O_NONBLOCK, so that a FIFO cannot block. */
#define ATTR_OPEN_FLAGS \
	(O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)

enum { OPENAT2_UNKNOWN, OPENAT2_YES, OPENAT2_NO };

static int openat2_state = OPENAT2_UNKNOWN;

void kevent_sysfs_force_walk(bool force)
{
	__atomic_store_n(&openat2_state, force ? OPENAT2_NO : OPENAT2_UNKNOWN,
			 __ATOMIC_RELAXED);
}

static bool openat2_usable(void)
{
	int state = __atomic_load_n(&openat2_state, __ATOMIC_RELAXED);

	if (state == OPENAT2_UNKNOWN) {
		/* valgrind 3.19 warns about the unknown system call */
		state = KEVENT_ON_VALGRIND() ? OPENAT2_NO : OPENAT2_YES;
		__atomic_store_n(&openat2_state, state, __ATOMIC_RELAXED);
	}
	return state == OPENAT2_YES;
}

static int openat2_strict(int dirfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = flags,
		.resolve = RESOLVE_STRICT,
	};

	return syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
}

/*
 * openat2(@dirfd, @rel, @flags) beneath @dirfd, through no symlink and no
 * mount point.
 * Return: a descriptor, or -errno; -ENOSYS when openat2() is unavailable
 * (ENOSYS, E2BIG, or EPERM from seccomp), which turns it off for the
 * process. An EPERM for this file only (an LSM), told apart by an
 * openat2() of @dirfd itself that works, is -ENOSYS for this call alone:
 * the walk then says what it meets.
 */
static int open_beneath(int dirfd, const char *rel, int flags)
{
	int fd, err;

	fd = openat2_strict(dirfd, rel, flags);
	if (fd >= 0)
		return fd;
	err = errno;
	if (err == EPERM) {
		fd = openat2_strict(dirfd, ".", O_PATH | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			return -ENOSYS;
		}
	}
	if (err == ENOSYS || err == EPERM || err == E2BIG) {
		__atomic_store_n(&openat2_state, OPENAT2_NO, __ATOMIC_RELAXED);
		return -ENOSYS;
	}
	return -err;
}

/*
 * An O_PATH descriptor of /sys for one call, to close when done.
 * Return: the descriptor; -EXDEV if /sys is not sysfs; or -errno.
 */
static int open_sys(void)
{
	struct statfs sfs;
	int fd, r;

	fd = open("/sys", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sfs) < 0) {
		r = -errno;
		goto out_close;
	}
	if ((unsigned long)sfs.f_type != SYSFS_MAGIC) {
		r = -EXDEV;
		goto out_close;
	}
	return fd;

out_close:
	close(fd);
	return r;
}

/* The device of the file system of @fd, or -errno. */
static int fd_dev(int fd, dev_t *ret_dev)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	*ret_dev = st.st_dev;
	return 0;
}

/*
 * Open directory component @name below @dirfd, never through a symlink,
 * and only on the file system @dev.
 */
static int open_dir_nofollow(int dirfd, const char *name, dev_t dev)
{
	struct stat st;
	int fd, r;

	fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out_close;
	}
	if (S_ISLNK(st.st_mode)) {
		r = -ELOOP;
		goto out_close;
	}
	if (!S_ISDIR(st.st_mode)) {
		r = -ENOTDIR;
		goto out_close;
	}
	if (st.st_dev != dev) {
		r = -EXDEV;
		goto out_close;
	}
	return fd;

out_close:
	close(fd);
	return r;
}

/*
 * What one read asks for at most: kernfs gives a binary attribute at most a
 * page a read, and a page is at least 4 KiB, so a read of this much that
 * comes back short has reached the end.
 */
#define READ_CHUNK 4096

/*
 * Read the whole value from offset 0, so that a descriptor kept open reads
 * the current value each time: sysfs runs the attribute's show() again for
 * a read at offset 0. A read that returns less than it asked for ends the
 * value: sysfs hands an attribute's value over in one read(), as systemd's
 * read_virtual_file() relies on too, a binary attribute a page at a time
 * (READ_CHUNK), and a regular file reads short at its end only. So one
 * pread() reads a value shorter than 4 KiB.
 */
static int read_all(int fd, char **ret_value, size_t *ret_len)
{
	size_t len = 0, size = READ_CHUNK, want;
	char *buf, *p;
	ssize_t n;

	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == size) {
			if (size > KEVENT_VALUE_MAX) {
				free(buf);
				return -EFBIG;
			}
			size *= 2;
			p = realloc(buf, size + 1);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
		}
		want = size - len < READ_CHUNK ? size - len : READ_CHUNK;
		n = pread(fd, buf + len, want, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			return n;
		}
		len += n;
		if ((size_t)n < want)
			break;
	}
	if (len > KEVENT_VALUE_MAX) {
		free(buf);
		return -EFBIG;
	}
	buf[len] = '\0';
	*ret_value = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
}

/*
 * Open @attr of @path below @rootfd one component at a time, through no
 * symlink, on the file system of @rootfd only. Return: a descriptor,
 * -ENODEV when a directory is missing, -EXDEV when a component is on
 * another file system, or another -errno.
 */
static int open_walk(int rootfd, const char *path, const char *attr)
{
	char comp[KEVENT_PATH_MAX];
	const char *p, *end;
	int dirfd, fd, r;
	dev_t dev = 0, fdev = 0;

	r = fd_dev(rootfd, &dev);
	if (r < 0)
		return r;
	dirfd = rootfd;
	for (p = path + 1; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		memcpy(comp, p, end - p);
		comp[end - p] = '\0';
		fd = open_dir_nofollow(dirfd, comp, dev);
		if (dirfd != rootfd)
			close(dirfd);
		if (fd < 0)
			return fd == -ENOENT ? -ENODEV : fd;
		dirfd = fd;
	}

	fd = openat(dirfd, attr, ATTR_OPEN_FLAGS);
	r = -errno;
	if (dirfd != rootfd)
		close(dirfd);
	if (fd < 0)
		return r;
	/* A mount point in place of the attribute */
	r = fd_dev(fd, &fdev);
	if (r == 0 && fdev != dev)
		r = -EXDEV;
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/* Open @attr of @path below @rootfd: one openat2() if it can, else the walk. */
static int open_attr(int rootfd, const char *path, const char *attr)
{
	char rel[KEVENT_PATH_MAX + KEVENT_PATH_MAX];
	int fd;

	if (openat2_usable() &&
	    snprintf(rel, sizeof(rel), "%s/%s", path + 1, attr) <
		    (int)sizeof(rel)) {
		fd = open_beneath(rootfd, rel, ATTR_OPEN_FLAGS);
		if (fd >= 0)
			return fd;
		/* The walk tells the failures apart as it always did. */
	}
	return open_walk(rootfd, path, attr);
}

int kevent_attr_open_at(int rootfd, const char *path, const char *attr)
{
	struct stat st;
	int fd, r;

	if (!kevent_path_is_valid(path) || !kevent_attr_name_is_valid(attr))
		return -EINVAL;

	fd = open_attr(rootfd, path, attr);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out_close;
	}
	if (S_ISDIR(st.st_mode)) {
		r = -EISDIR;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		r = -EINVAL;
		goto out_close;
	}
	return fd;

out_close:
	close(fd);
	return r;
}

KEVENT_EXPORT int kevent_attr_open(const char *path, const char *attr)
{
	int rootfd, fd;

	if (!kevent_path_is_valid(path) || !kevent_attr_name_is_valid(attr))
		return -EINVAL;
	rootfd = open_sys();
	if (rootfd < 0)
		return rootfd;
	fd = kevent_attr_open_at(rootfd, path, attr);
	close(rootfd);
	/* The caller's descriptor reads as documented: without O_NONBLOCK. */
	if (fd >= 0 && fcntl(fd, F_SETFL, 0) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

KEVENT_EXPORT int kevent_attr_read_fd(int fd, char **ret_value, size_t *ret_len)
{
	if (fd < 0 || !ret_value)
		return -EINVAL;
	return read_all(fd, ret_value, ret_len);
}

int kevent_attr_read_at(int rootfd, const char *path, const char *attr,
			char **ret_value, size_t *ret_len)
{
	int fd, r;

	if (!ret_value)
		return -EINVAL;
	fd = kevent_attr_open_at(rootfd, path, attr);
	if (fd < 0)
		return fd;
	r = read_all(fd, ret_value, ret_len);
	close(fd);
	return r;
}

KEVENT_EXPORT int kevent_attr_read(const char *path, const char *attr,
				   char **ret_value, size_t *ret_len)
{
	int rootfd, r;

	if (!ret_value || !kevent_path_is_valid(path) ||
	    !kevent_attr_name_is_valid(attr))
		return -EINVAL;
	rootfd = open_sys();
	if (rootfd < 0)
		return rootfd;
	r = kevent_attr_read_at(rootfd, path, attr, ret_value, ret_len);
	close(rootfd);
	return r;
}

int kevent_device_get_subsystem_at(int rootfd, const char *path,
				   char **ret_subsystem)
{
	char target[KEVENT_PATH_MAX], *base;
	ssize_t n;
	int fd, r;

	if (!openat2_usable())
		return -ENOSYS;
	fd = open_beneath(rootfd, path + 1,
			  O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return fd;
	n = readlinkat(fd, "subsystem", target, sizeof(target));
	r = -errno;
	close(fd);
	if (n < 0)
		return r;
	if ((size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	target[n] = '\0';
	base = strrchr(target, '/');
	*ret_subsystem = strdup(base ? base + 1 : target);
	return *ret_subsystem ? 0 : -ENOMEM;
}

KEVENT_EXPORT int kevent_device_get_subsystem(const char *path,
					      char **ret_subsystem)
{
	char syspath[sizeof("/sys") + KEVENT_PATH_MAX];
	struct udev_device *dev;
	struct udev *udev;
	const char *s;
	int rootfd, r;

	if (!ret_subsystem || !kevent_path_is_valid(path))
		return -EINVAL;
	rootfd = open_sys();
	r = rootfd;
	if (rootfd >= 0) {
		r = kevent_device_get_subsystem_at(rootfd, path, ret_subsystem);
		close(rootfd);
	}
	/* A path that leaves sysfs is not a device's */
	if (r == 0 || r == -ENOMEM || r == -EXDEV)
		return r;

	/* Without openat2(), or where it failed: libudev, as before. */
	snprintf(syspath, sizeof(syspath), "/sys%s", path);

	udev = udev_new();
	if (!udev)
		return -ENOMEM;
	dev = udev_device_new_from_syspath(udev, syspath);
	if (!dev) {
		r = errno == ENOMEM ? -ENOMEM : -ENODEV;
		goto out_unref_udev;
	}
	s = udev_device_get_subsystem(dev);
	if (!s) {
		r = -ENOENT;
		goto out_unref_dev;
	}
	*ret_subsystem = strdup(s);
	r = *ret_subsystem ? 0 : -ENOMEM;

out_unref_dev:
	udev_device_unref(dev);
out_unref_udev:
	udev_unref(udev);
	return r;
}

bool kevent_below_sys(const char *p)
{
	return strncmp(p, "/sys/", 5) == 0 && p[5];
}

int kevent_sysfs_file_resolve(const char *name, char **ret_real,
			      char **ret_path, char **ret_attr)
{
	char *real, *slash, *path, *attr;
	int r;

	/* Refuse what is plainly outside /sys before looking at it. */
	if (name[0] == '/' && !kevent_below_sys(name))
		return -EXDEV;
	real = realpath(name, NULL);
	if (!real)
		return -errno;
	if (!kevent_below_sys(real)) {
		free(real);
		return -EXDEV;
	}
	slash = strrchr(real, '/');
	*slash = '\0';
	path = strdup(slash == real + 4 ? "/" : real + 4);
	attr = strdup(slash + 1);
	*slash = '/';
	if (!path || !attr) {
		r = -ENOMEM;
	} else if (!kevent_path_is_valid(path) ||
		   !kevent_attr_name_is_valid(attr)) {
		r = -EINVAL;
	} else {
		*ret_real = real;
		*ret_path = path;
		*ret_attr = attr;
		return 0;
	}
	free(real);
	free(path);
	free(attr);
	return r;
}

int kevent_sysfs_file_open(const char *real, int *ret_fd)
{
	struct statfs sfs;
	struct stat st;
	int fd, r;

	fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sfs) < 0 || fstat(fd, &st) < 0)
		r = -errno;
	else if ((unsigned long)sfs.f_type != SYSFS_MAGIC)
		r = -EXDEV;
	else if (S_ISDIR(st.st_mode))
		r = -EISDIR;
	else {
		*ret_fd = fd;
		return 0;
	}
	close(fd);
	return r;
}
