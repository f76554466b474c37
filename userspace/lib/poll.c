// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The poll source: sysfs attribute files woken by sysfs_notify().
 *
 * An epoll set holds the files, edge-triggered on EPOLLPRI|EPOLLERR (what
 * poll() with POLLPRI|POLLERR waits for), so that each notification is
 * reported once, even for a file whose read keeps failing.
 *
 * A file removed and created again (a device unplugged and plugged, an md
 * array stopped and assembled) is a new kernfs node, which the old
 * descriptor never hears of. So the set holds the kernel's uevent socket
 * too, for its wake-ups alone: after each uevent, the files whose node
 * went are let go, and those let go are opened again by the name they were
 * added with, if it is there again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <linux/magic.h>
#include <linux/netlink.h>

#include "kevent-private.h"

struct poll_file {
	int fd;
	char *name; /* as added, to open it again */
	char *path; /* kobject directory relative to /sys */
	char *attr;
};

/* The epoll tag of the uevent socket; a file's is its index */
#define POLL_TAG_UEVENT UINT64_MAX

struct kevent_poll_monitor {
	unsigned int refcount;
	int epfd;
	int uevent_fd; /* -1 until the first file, or when it cannot be had */
	struct poll_file *files;
	size_t n_files;
	char *buf;
};

KEVENT_EXPORT struct kevent_poll_monitor *
kevent_poll_monitor_ref(struct kevent_poll_monitor *monitor)
{
	if (monitor)
		monitor->refcount++;
	return monitor;
}

KEVENT_EXPORT struct kevent_poll_monitor *
kevent_poll_monitor_unref(struct kevent_poll_monitor *monitor)
{
	size_t i;

	if (!monitor || --monitor->refcount > 0)
		return NULL;
	for (i = 0; i < monitor->n_files; i++) {
		if (monitor->files[i].fd >= 0)
			close(monitor->files[i].fd);
		free(monitor->files[i].name);
		free(monitor->files[i].path);
		free(monitor->files[i].attr);
	}
	free(monitor->files);
	free(monitor->buf);
	if (monitor->uevent_fd >= 0)
		close(monitor->uevent_fd);
	if (monitor->epfd >= 0)
		close(monitor->epfd);
	free(monitor);
	return NULL;
}

KEVENT_EXPORT int kevent_poll_monitor_new(struct kevent_poll_monitor **ret_monitor)
{
	struct kevent_poll_monitor *m;
	int r;

	if (!ret_monitor)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->refcount = 1;
	m->uevent_fd = -1;
	m->buf = malloc(KEVENT_VALUE_MAX);
	m->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (m->epfd < 0 || !m->buf) {
		r = m->buf ? -errno : -ENOMEM;
		kevent_poll_monitor_unref(m);
		return r;
	}
	*ret_monitor = m;
	return 0;
}

KEVENT_EXPORT int kevent_poll_monitor_get_fd(struct kevent_poll_monitor *monitor)
{
	if (!monitor)
		return -EINVAL;
	return monitor->epfd;
}

/* Read @fd from offset 0, which re-arms its notification. */
static int rearm(struct kevent_poll_monitor *m, int fd)
{
	ssize_t n;

	do
		n = pread(fd, m->buf, KEVENT_VALUE_MAX, 0);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

/* Stop watching @f's file, if it has one: its entry stays, without it */
static void poll_file_release(struct kevent_poll_monitor *m,
			      struct poll_file *f)
{
	if (f->fd < 0)
		return;
	epoll_ctl(m->epfd, EPOLL_CTL_DEL, f->fd, NULL);
	close(f->fd);
	f->fd = -1;
}

/*
 * Whether @f watches the attribute file at @real as it is now: a file
 * removed and created again (an md array stopped and assembled again) is a
 * new kernfs node, with another inode.
 */
static bool poll_file_current(const struct poll_file *f, const char *real)
{
	struct stat watched, now;

	return f->fd >= 0 && fstat(f->fd, &watched) == 0 &&
	       stat(real, &now) == 0 && watched.st_ino == now.st_ino &&
	       watched.st_dev == now.st_dev;
}

/*
 * Hear the kernel's uevents, once: their wake-ups tell when a watched file
 * may have gone or come back. Without them (a socket refused by a sandbox)
 * the files are still watched, as long as their nodes last.
 */
static void uevents_open(struct kevent_poll_monitor *m)
{
	struct epoll_event ev = { .events = EPOLLIN,
				  .data.u64 = POLL_TAG_UEVENT };
	int fd;

	if (m->uevent_fd >= 0)
		return;
	fd = kevent_netlink_open(NETLINK_KOBJECT_UEVENT,
				 KEVENT_UEVENT_GROUP_KERNEL);
	if (fd < 0)
		return;
	if (epoll_ctl(m->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		close(fd);
		return;
	}
	m->uevent_fd = fd;
}

KEVENT_EXPORT int kevent_poll_monitor_add(struct kevent_poll_monitor *monitor,
					  const char *file)
{
	struct epoll_event ev = { .events = EPOLLPRI | EPOLLERR | EPOLLET };
	char *real, *path, *attr;
	struct poll_file *files, *f;
	char *name = NULL;
	size_t i;
	int fd = -1, r;

	if (!monitor || !file || !*file)
		return -EINVAL;
	r = kevent_sysfs_file_resolve(file, &real, &path, &attr);
	if (r < 0)
		return r;
	for (i = 0; i < monitor->n_files; i++)
		if (strcmp(monitor->files[i].path, path) == 0 &&
		    strcmp(monitor->files[i].attr, attr) == 0)
			break;
	if (i < monitor->n_files && poll_file_current(&monitor->files[i], real)) {
		r = -EEXIST;
		goto out_free;
	}

	r = kevent_sysfs_file_open(real, &fd);
	if (r < 0)
		goto out_free;
	/*
	 * The first read syncs the file with the attribute's notifications,
	 * even when the attribute's driver fails it (that error is reported
	 * with the first event).
	 */
	rearm(monitor, fd);

	if (i == monitor->n_files) {
		files = realloc(monitor->files,
				(monitor->n_files + 1) * sizeof(*files));
		if (!files) {
			r = -ENOMEM;
			goto out_close;
		}
		monitor->files = files;
		name = strdup(file);
		if (!name) {
			r = -ENOMEM;
			goto out_close;
		}
		files[i] = (struct poll_file){ .fd = -1, .name = name,
					       .path = path, .attr = attr };
		monitor->n_files++;
	} else {
		/* The file went, or is another: watch the new one instead */
		free(path);
		free(attr);
	}
	path = attr = NULL;
	f = &monitor->files[i];
	poll_file_release(monitor, f);
	ev.data.u64 = i;
	if (epoll_ctl(monitor->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		r = -errno;
		goto out_close;
	}
	f->fd = fd;
	free(real);
	uevents_open(monitor);
	return 0;

out_close:
	close(fd);
out_free:
	free(real);
	free(path);
	free(attr);
	return r;
}

void kevent_poll_monitor_prune(struct kevent_poll_monitor *monitor)
{
	struct poll_file *f;
	size_t i;

	for (i = 0; i < monitor->n_files; i++) {
		f = &monitor->files[i];
		if (f->fd >= 0 && rearm(monitor, f->fd) == -ENODEV)
			poll_file_release(monitor, f);
	}
}

/*
 * After uevents: let go of the files whose node went, and open again those
 * let go whose name is there again.
 */
static void poll_files_refresh(struct kevent_poll_monitor *m)
{
	char buf[4096];
	ssize_t n;
	size_t i;

	/* Their content does not matter; an overflowed socket wakes too */
	do
		n = recv(m->uevent_fd, buf, sizeof(buf), MSG_DONTWAIT);
	while (n > 0 || (n < 0 && (errno == EINTR || errno == ENOBUFS)));
	kevent_poll_monitor_prune(m);
	/* By index: an add may move the array */
	for (i = 0; i < m->n_files; i++)
		if (m->files[i].fd < 0)
			kevent_poll_monitor_add(m, m->files[i].name);
}

KEVENT_EXPORT int
kevent_poll_monitor_receive(struct kevent_poll_monitor *monitor,
			    struct kevent_event **ret_event)
{
	struct epoll_event ev;
	struct poll_file *f;
	int n, r;

	if (!monitor || !ret_event)
		return -EINVAL;
	for (;;) {
		n = epoll_wait(monitor->epfd, &ev, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EAGAIN;
		if (ev.data.u64 == POLL_TAG_UEVENT) {
			poll_files_refresh(monitor);
			continue;
		}
		if (ev.data.u64 >= monitor->n_files)
			continue;
		f = &monitor->files[ev.data.u64];
		if (f->fd < 0)
			continue;
		r = rearm(monitor, f->fd);
		if (r == -ENODEV) {
			/* The attribute went away: report it, then let go. */
			poll_file_release(monitor, f);
		}
		return kevent_event_new_stock(KEVENT_EVENT_SOURCE_POLL, 0,
					      f->path, f->attr, NULL,
					      ret_event);
	}
}
