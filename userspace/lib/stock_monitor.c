// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The stock monitor: the attribute events a kernel without kevent.ko sends
 * already, behind one descriptor. Its epoll set holds the uevent socket
 * (NETLINK_KOBJECT_UEVENT, the kernel's group), the rtnetlink socket
 * (RTNLGRP_LINK), the poll monitor of the files added, /proc/self/mountinfo
 * (for the changes of the mounts) and an eventfd that stays readable while
 * events of one message wait in the state's queue.
 *
 * The poll monitor also watches the attributes the kernel announces with
 * sysfs_notify() and no uevent, those of the stock kinds marked "polled":
 * md arrays' and ext4 filesystems'. They are looked for when the monitor
 * starts, again at each block device's uevent (an array started, stopped,
 * or its redundancy group added), and at each change of the mounts (a
 * filesystem mounted or unmounted).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "kevent-private.h"

/* A uevent is at most UEVENT_BUFFER_SIZE (2048) bytes; links are larger */
#define STOCK_RECV_BUF (64 * 1024)

static int polled_scan(struct kevent_stock_monitor *m);

enum stock_tag {
	TAG_UEVENT = 1,
	TAG_RTNL,
	TAG_POLL,
	TAG_HELD,
	TAG_MOUNTS,
};

struct kevent_stock_monitor {
	unsigned int refcount;
	int epfd;
	int uevent_fd;
	int rtnl_fd;
	int held_fd; /* eventfd: readable while events are queued */
	int mounts_fd; /* /proc/self/mountinfo */
	bool held;
	struct kevent_poll_monitor *poll;
	struct kevent_stock_state *state;
	uint64_t forged;
	char *buf;
};

static int epoll_add(int epfd, int fd, enum stock_tag tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };

	/*
	 * The mount table's poll() says EPOLLPRI once, to whichever poll()
	 * comes first: when an epoll set holding this one checks it, that
	 * check takes it. It is always EPOLLIN, and woken at each change:
	 * edge-triggered, that is one event a change, whoever checks.
	 */
	if (tag == TAG_MOUNTS)
		ev.events = EPOLLIN | EPOLLET;

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

/* The links there are, through a dump on a socket of its own. */
static int link_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct kevent_stock_state *st = data;

	return kevent_stock_state_link(st, nlh, nlh->nlmsg_len, true) < 0 ?
		       MNL_CB_ERROR :
		       MNL_CB_OK;
}

static int links_dump(struct kevent_stock_state *st, char *buf)
{
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct rtgenmsg *rt;
	unsigned int seq = 1, portid;
	ssize_t n;
	int r;

	nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out_close;
	}
	portid = mnl_socket_get_portid(nl);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	rt = mnl_nlmsg_put_extra_header(nlh, sizeof(*rt));
	rt->rtgen_family = AF_UNSPEC;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out_close;
	}
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, STOCK_RECV_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		r = mnl_cb_run(buf, n, seq, portid, link_dump_cb, st);
		if (r <= MNL_CB_STOP) {
			r = r < 0 ? -errno : 0;
			break;
		}
	}
out_close:
	mnl_socket_close(nl);
	return r;
}

/* The values of every power supply there is, from its uevent file. */
static int psys_seed(struct kevent_stock_state *st, char *buf)
{
	char file[PATH_MAX], *real;
	struct dirent *de;
	ssize_t n;
	DIR *dir;
	int fd, r = 0;

	dir = opendir("/sys/class/power_supply");
	if (!dir)
		return 0;
	while (r == 0 && (de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "/sys/class/power_supply/%s",
			 de->d_name);
		real = realpath(file, NULL);
		if (!real)
			continue;
		snprintf(file, sizeof(file), "%s/uevent", real);
		fd = open(file, O_RDONLY | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, buf, STOCK_RECV_BUF);
		if (fd >= 0)
			close(fd);
		if (n > 0 && strncmp(real, "/sys/", 5) == 0)
			r = kevent_stock_state_psy_seed(st, real + 4, buf, n);
		free(real);
	}
	closedir(dir);
	return r;
}

/* Read the whole state again, without events: after a loss. */
static int resync(struct kevent_stock_monitor *m)
{
	int r;

	kevent_stock_state_resync_begin(m->state);
	r = psys_seed(m->state, m->buf);
	if (r == 0)
		r = links_dump(m->state, m->buf);
	if (r == 0)
		kevent_stock_state_resync_end(m->state);
	return r;
}

KEVENT_EXPORT struct kevent_stock_monitor *
kevent_stock_monitor_ref(struct kevent_stock_monitor *monitor)
{
	if (monitor)
		monitor->refcount++;
	return monitor;
}

KEVENT_EXPORT struct kevent_stock_monitor *
kevent_stock_monitor_unref(struct kevent_stock_monitor *monitor)
{
	if (!monitor || --monitor->refcount > 0)
		return NULL;
	kevent_poll_monitor_unref(monitor->poll);
	kevent_stock_state_free(monitor->state);
	if (monitor->uevent_fd >= 0)
		close(monitor->uevent_fd);
	if (monitor->rtnl_fd >= 0)
		close(monitor->rtnl_fd);
	if (monitor->held_fd >= 0)
		close(monitor->held_fd);
	if (monitor->mounts_fd >= 0)
		close(monitor->mounts_fd);
	if (monitor->epfd >= 0)
		close(monitor->epfd);
	free(monitor->buf);
	free(monitor);
	return NULL;
}

KEVENT_EXPORT int
kevent_stock_monitor_new(struct kevent_stock_monitor **ret_monitor)
{
	struct kevent_stock_monitor *m;
	int r;

	if (!ret_monitor)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	*m = (struct kevent_stock_monitor){ .refcount = 1, .epfd = -1,
					    .uevent_fd = -1, .rtnl_fd = -1,
					    .held_fd = -1, .mounts_fd = -1 };
	m->buf = malloc(STOCK_RECV_BUF + 1);
	m->state = kevent_stock_state_new();
	if (!m->buf || !m->state) {
		r = -ENOMEM;
		goto out_unref;
	}
	m->epfd = epoll_create1(EPOLL_CLOEXEC);
	m->held_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->epfd < 0 || m->held_fd < 0) {
		r = -errno;
		goto out_unref;
	}
	/* Subscribed first, then seeded: no change falls in between. */
	m->uevent_fd = kevent_netlink_open(NETLINK_KOBJECT_UEVENT,
				    KEVENT_UEVENT_GROUP_KERNEL);
	if (m->uevent_fd < 0) {
		r = m->uevent_fd;
		goto out_unref;
	}
	m->rtnl_fd = kevent_netlink_open(NETLINK_ROUTE, RTMGRP_LINK);
	if (m->rtnl_fd < 0) {
		r = m->rtnl_fd;
		goto out_unref;
	}
	r = epoll_add(m->epfd, m->uevent_fd, TAG_UEVENT);
	if (r == 0)
		r = epoll_add(m->epfd, m->rtnl_fd, TAG_RTNL);
	if (r == 0)
		r = epoll_add(m->epfd, m->held_fd, TAG_HELD);
	/* Without /proc, a filesystem mounted later is not followed */
	m->mounts_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (r == 0 && m->mounts_fd >= 0)
		r = epoll_add(m->epfd, m->mounts_fd, TAG_MOUNTS);
	if (r == 0)
		r = psys_seed(m->state, m->buf);
	if (r == 0)
		r = links_dump(m->state, m->buf);
	if (r == 0)
		r = polled_scan(m);
	if (r < 0)
		goto out_unref;
	*ret_monitor = m;
	return 0;

out_unref:
	kevent_stock_monitor_unref(m);
	return r;
}

KEVENT_EXPORT int
kevent_stock_monitor_add_file(struct kevent_stock_monitor *monitor,
			      const char *file)
{
	int r;

	if (!monitor || !file)
		return -EINVAL;
	if (!monitor->poll) {
		r = kevent_poll_monitor_new(&monitor->poll);
		if (r < 0)
			return r;
		r = epoll_add(monitor->epfd,
			      kevent_poll_monitor_get_fd(monitor->poll),
			      TAG_POLL);
		if (r < 0) {
			monitor->poll = kevent_poll_monitor_unref(monitor->poll);
			return r;
		}
	}
	return kevent_poll_monitor_add(monitor->poll, file);
}

KEVENT_EXPORT int
kevent_stock_monitor_get_fd(struct kevent_stock_monitor *monitor)
{
	if (!monitor)
		return -EINVAL;
	return monitor->epfd;
}

KEVENT_EXPORT uint64_t
kevent_stock_monitor_get_forged(const struct kevent_stock_monitor *monitor)
{
	return monitor ? monitor->forged : 0;
}

/* The held eventfd is readable exactly while events are queued. */
static void held_update(struct kevent_stock_monitor *m)
{
	bool pending = kevent_stock_state_pending(m->state) > 0;
	uint64_t v = 1;

	if (pending == m->held)
		return;
	if (pending) {
		if (write(m->held_fd, &v, sizeof(v)) == sizeof(v))
			m->held = true;
	} else {
		if (read(m->held_fd, &v, sizeof(v)) == sizeof(v) ||
		    errno == EAGAIN)
			m->held = false;
	}
}

/*
 * Receive one datagram of @fd into m->buf. Return: its length, 0 for one
 * to ignore (truncated, or not from the kernel: counted), or -errno.
 */
static ssize_t recv_kernel(struct kevent_stock_monitor *m, int fd,
			   bool need_creds)
{
	char control[CMSG_SPACE(sizeof(struct ucred))];
	struct sockaddr_nl snl = { 0 };
	struct iovec iov = { .iov_base = m->buf, .iov_len = STOCK_RECV_BUF };
	struct msghdr msg = {
		.msg_name = &snl,
		.msg_namelen = sizeof(snl),
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	struct ucred *cred = NULL;
	struct cmsghdr *cmsg;
	ssize_t n;

	do
		n = recvmsg(fd, &msg, MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (msg.msg_flags & MSG_TRUNC)
		return 0;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg))
		if (cmsg->cmsg_level == SOL_SOCKET &&
		    cmsg->cmsg_type == SCM_CREDENTIALS)
			cred = (struct ucred *)CMSG_DATA(cmsg);
	/* Only the kernel: port 0, and for uevents root's credentials */
	if (msg.msg_namelen < sizeof(snl) || snl.nl_pid != 0 ||
	    (need_creds && (!cred || cred->uid != 0))) {
		m->forged++;
		return 0;
	}
	return n;
}

static int receive_uevent(struct kevent_stock_monitor *m)
{
	static const char block[] = "SUBSYSTEM=block";
	ssize_t n = recv_kernel(m, m->uevent_fd, true);
	bool of_block;
	int r;

	if (n <= 0)
		return n;
	/* Its keys are NUL-terminated: the key whole, not a prefix */
	of_block = memmem(m->buf, n, block, sizeof(block)) != NULL;
	r = kevent_stock_state_uevent(m->state, m->buf, n);
	if (r == 0 && of_block)
		r = polled_scan(m);
	return r;
}

static int receive_rtnl(struct kevent_stock_monitor *m)
{
	const struct nlmsghdr *nlh;
	ssize_t n = recv_kernel(m, m->rtnl_fd, false);
	int len = n, r;

	if (n <= 0)
		return n;
	for (nlh = (const struct nlmsghdr *)m->buf; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		r = kevent_stock_state_link(m->state, nlh, nlh->nlmsg_len,
					    false);
		if (r < 0)
			return r;
	}
	return 0;
}

KEVENT_EXPORT int
kevent_stock_monitor_receive(struct kevent_stock_monitor *monitor,
			     struct kevent_event **ret_event)
{
	struct epoll_event evs[4];
	int i, n, r;

	if (!monitor || !ret_event)
		return -EINVAL;
	for (;;) {
		*ret_event = kevent_stock_state_pop(monitor->state);
		if (*ret_event) {
			held_update(monitor);
			return 0;
		}
		held_update(monitor);
		n = epoll_wait(monitor->epfd, evs, 4, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EAGAIN;
		for (i = 0; i < n; i++) {
			switch (evs[i].data.u32) {
			case TAG_UEVENT:
				r = receive_uevent(monitor);
				break;
			case TAG_RTNL:
				r = receive_rtnl(monitor);
				break;
			case TAG_MOUNTS:
				r = polled_scan(monitor);
				break;
			case TAG_POLL:
				r = kevent_poll_monitor_receive(monitor->poll,
								ret_event);
				if (r == 0) {
					/* What the others queued stays held */
					held_update(monitor);
					return 0;
				}
				break;
			default:
				r = 0;
				break;
			}
			if (r == -ENOBUFS) {
				/* Lost: take the state afresh, say so */
				resync(monitor);
				return -ENOBUFS;
			}
			if (r < 0 && r != -EAGAIN)
				return r;
		}
	}
}

/* What kevent_stock_foreach() visits in one directory of devices */
struct stock_kind {
	const char *dir; /* of the devices, or of links to them */
	const char *prefix; /* of the entries taken, or NULL for all */
	enum kevent_event_source source;
	enum kevent_class cls;
	const char *subsystem;
	/* the attributes: these, or (NULL) the files that match: */
	const char *const *attrs;
	bool (*match)(const char *file);
	const char *subdir; /* of the device's, holding them, or NULL */
	/* announced by sysfs_notify() alone: the poll monitor watches them */
	bool polled;
};

static bool hwmon_alarm(const char *file)
{
	size_t len = strlen(file);

	return len > 6 && strcmp(file + len - 6, "_alarm") == 0 &&
	       kevent_uevent_names_attr("hwmon", file);
}

static bool registered(const char *file)
{
	return kevent_attribute_id(file) >= 0;
}

static const char *const net_attrs[] = { "operstate", "carrier", "mtu",
					 "address", NULL };
static const char *const online_attrs[] = { "online", NULL };
static const char *const size_attrs[] = { "size", NULL };
/* What md announces of an array (drivers/md/md.c) */
static const char *const md_attrs[] = { "array_state", "sync_action",
					"degraded", "sync_completed", NULL };
/* What ext4 announces (fs/ext4/sysfs.c) */
static const char *const ext4_attrs[] = { "errors_count", NULL };

static const struct stock_kind stock_kinds[] = {
	{ .dir = "/sys/class/hwmon", .source = KEVENT_EVENT_SOURCE_UEVENT,
	  .cls = KEVENT_CLASS_POWER, .subsystem = "hwmon",
	  .match = hwmon_alarm },
	{ .dir = "/sys/class/power_supply",
	  .source = KEVENT_EVENT_SOURCE_UEVENT, .cls = KEVENT_CLASS_POWER,
	  .subsystem = "power_supply", .match = registered },
	{ .dir = "/sys/class/net", .source = KEVENT_EVENT_SOURCE_RTNETLINK,
	  .cls = KEVENT_CLASS_NET, .subsystem = "net", .attrs = net_attrs },
	{ .dir = "/sys/devices/system/cpu", .prefix = "cpu",
	  .source = KEVENT_EVENT_SOURCE_UEVENT, .cls = KEVENT_CLASS_HOTPLUG,
	  .subsystem = "cpu", .attrs = online_attrs },
	{ .dir = "/sys/block", .source = KEVENT_EVENT_SOURCE_UEVENT,
	  .cls = KEVENT_CLASS_STORAGE, .subsystem = "block",
	  .attrs = size_attrs },
	{ .dir = "/sys/block", .prefix = "md", .subdir = "md",
	  .source = KEVENT_EVENT_SOURCE_POLL, .cls = KEVENT_CLASS_STORAGE,
	  .attrs = md_attrs, .polled = true },
	{ .dir = "/sys/fs/ext4", .source = KEVENT_EVENT_SOURCE_POLL,
	  .cls = KEVENT_CLASS_FS, .attrs = ext4_attrs, .polled = true },
};

static int name_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of @dir (those starting with @prefix), sorted, NULL-ended */
static char **dir_names(const char *dir, const char *prefix)
{
	char **names = NULL, **n;
	size_t count = 0;
	struct dirent *de;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return calloc(1, sizeof(*names));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    (prefix && strncmp(de->d_name, prefix, strlen(prefix)) != 0))
			continue;
		n = realloc(names, (count + 2) * sizeof(*names));
		if (!n)
			goto out_free;
		names = n;
		names[count] = strdup(de->d_name);
		if (!names[count])
			goto out_free;
		names[++count] = NULL;
	}
	closedir(d);
	if (!names)
		return calloc(1, sizeof(*names));
	qsort(names, count, sizeof(*names), name_cmp);
	return names;

out_free:
	closedir(d);
	while (count)
		free(names[--count]);
	free(names);
	return NULL;
}

static void names_free(char **names)
{
	size_t i;

	for (i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

static int visit(const struct stock_kind *k, const char *path,
		 const char *attr, kevent_event_cb cb, void *userdata)
{
	struct kevent_event *ev;
	int r;

	r = kevent_event_new_stock_class(k->source, 0, path, attr, k->cls,
					 k->subsystem, &ev);
	if (r == -EINVAL)
		return 0;
	if (r < 0)
		return r;
	r = cb(ev, userdata);
	kevent_event_unref(ev);
	return r;
}

/* Visit the attributes of one device, at @real below /sys */
static int visit_device(const struct stock_kind *k, const char *real,
			kevent_event_cb cb, void *userdata)
{
	char file[PATH_MAX], dir[PATH_MAX];
	char **files;
	size_t i;
	int r = 0;

	if (k->subdir) {
		if (snprintf(dir, sizeof(dir), "%s/%s", real, k->subdir) >=
		    (int)sizeof(dir))
			return 0;
		real = dir;
	}
	if (k->attrs) {
		for (i = 0; r == 0 && k->attrs[i]; i++) {
			if (snprintf(file, sizeof(file), "%s/%s", real,
				     k->attrs[i]) < (int)sizeof(file) &&
			    access(file, F_OK) == 0)
				r = visit(k, real + 4, k->attrs[i], cb,
					  userdata);
		}
		return r;
	}
	files = dir_names(real, NULL);
	if (!files)
		return -ENOMEM;
	for (i = 0; r == 0 && files[i]; i++)
		if (k->match(files[i]))
			r = visit(k, real + 4, files[i], cb, userdata);
	names_free(files);
	return r;
}

/* Visit the attributes of the stock kinds, or of the polled ones alone */
static int stock_walk(bool polled_only, kevent_event_cb cb, void *userdata)
{
	const struct stock_kind *k;
	char file[PATH_MAX], *real;
	char **names;
	size_t i, j;
	int r = 0;

	for (i = 0; r == 0 && i < sizeof(stock_kinds) / sizeof(stock_kinds[0]);
	     i++) {
		k = &stock_kinds[i];
		if (polled_only && !k->polled)
			continue;
		names = dir_names(k->dir, k->prefix);
		if (!names)
			return -ENOMEM;
		for (j = 0; r == 0 && names[j]; j++) {
			/* cpuN only, not cpufreq or cpuidle */
			if (k->prefix && !(names[j][strlen(k->prefix)] >= '0' &&
					   names[j][strlen(k->prefix)] <= '9'))
				continue;
			snprintf(file, sizeof(file), "%s/%s", k->dir,
				 names[j]);
			real = realpath(file, NULL);
			if (!real)
				continue;
			if (strncmp(real, "/sys/", 5) == 0)
				r = visit_device(k, real, cb, userdata);
			free(real);
		}
		names_free(names);
	}
	return r;
}

/* Watch a polled attribute with the poll monitor, once */
static int polled_add(const struct kevent_event *ev, void *userdata)
{
	struct kevent_stock_monitor *m = userdata;
	char file[PATH_MAX];
	int r;

	snprintf(file, sizeof(file), "/sys%s/%s", kevent_event_get_path(ev),
		 kevent_event_get_attr(ev));
	r = kevent_stock_monitor_add_file(m, file);
	/* Watched already, or gone since it was found */
	if (r == -EEXIST || r == -ENOENT || r == -ENODEV)
		r = 0;
	return r;
}

/*
 * Watch the polled attributes there are now; let go of those that went.
 * Return: 0 or -errno.
 */
static int polled_scan(struct kevent_stock_monitor *m)
{
	if (m->poll)
		kevent_poll_monitor_prune(m->poll);
	return stock_walk(true, polled_add, m);
}

KEVENT_EXPORT int kevent_stock_foreach(kevent_event_cb cb, void *userdata)
{
	if (!cb)
		return -EINVAL;
	return stock_walk(false, cb, userdata);
}
