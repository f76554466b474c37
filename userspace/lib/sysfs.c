// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Reading attribute values from sysfs, and the subsystem through libudev.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libudev.h>

#include "kevent-private.h"

/* Open directory component @name below @dirfd, never through a symlink. */
static int open_dir_nofollow(int dirfd, const char *name)
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
	return fd;

out_close:
	close(fd);
	return r;
}

static int read_all(int fd, char **ret_value, size_t *ret_len)
{
	size_t len = 0, size = 4096;
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
		n = read(fd, buf + len, size - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			free(buf);
			return n;
		}
		if (n == 0)
			break;
		len += n;
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

int kevent_attr_read_at(int rootfd, const char *path, const char *attr,
			char **ret_value, size_t *ret_len)
{
	char comp[KEVENT_PATH_MAX];
	const char *p, *end;
	struct stat st;
	int dirfd, fd, r;

	if (!ret_value || !kevent_path_is_valid(path) ||
	    !kevent_attr_name_is_valid(attr))
		return -EINVAL;

	dirfd = rootfd;
	for (p = path + 1; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		memcpy(comp, p, end - p);
		comp[end - p] = '\0';
		fd = open_dir_nofollow(dirfd, comp);
		if (dirfd != rootfd)
			close(dirfd);
		if (fd < 0)
			return fd == -ENOENT ? -ENODEV : fd;
		dirfd = fd;
	}

	fd = openat(dirfd, attr, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	r = -errno;
	if (dirfd != rootfd)
		close(dirfd);
	if (fd < 0)
		return r;
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
	r = read_all(fd, ret_value, ret_len);

out_close:
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
	rootfd = open("/sys", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	r = kevent_attr_read_at(rootfd, path, attr, ret_value, ret_len);
	close(rootfd);
	return r;
}

KEVENT_EXPORT int kevent_device_get_subsystem(const char *path,
					      char **ret_subsystem)
{
	char syspath[sizeof("/sys") + KEVENT_PATH_MAX];
	struct udev_device *dev;
	struct udev *udev;
	const char *s;
	int r;

	if (!ret_subsystem || !kevent_path_is_valid(path))
		return -EINVAL;
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
