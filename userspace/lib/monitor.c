// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The monitor: a multicast socket joined to chosen classes.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/filter.h>
#include <libmnl/libmnl.h>

#include "kevent-private.h"

/*
 * The descriptor a caller waits on is an epoll instance of the socket and of
 * an eventfd, so that it is readable while the library holds messages of a
 * batch (read from the socket already) as well as when the socket has some:
 * a caller that takes one event per wakeup gets every event.
 */
struct kevent_monitor {
	unsigned int refcount;
	struct mnl_socket *nl;
	int epoll_fd; /* what kevent_monitor_get_fd() gives */
	int held_fd; /* eventfd: non-zero while @held */
	bool held; /* messages of a batch wait in @buf */
	uint16_t family_id;
	uint32_t groups[__KEVENT_CLASS_MAX];
	uint64_t dropped;
	uint64_t forged; /* of @dropped: not sent by the kernel */
	struct kevent_gaps gaps;
	uint32_t filter_ids[KEVENT_FILTER_MAX_IDS]; /* attributes let through */
	size_t n_filter_ids; /* 0: no filter */
	bool gone;
	char *buf; /* KEVENT_RECV_BATCH datagrams of KEVENT_RECV_BUF_SIZE */
	struct mmsghdr msgs[KEVENT_RECV_BATCH];
	struct iovec iovs[KEVENT_RECV_BATCH];
	struct sockaddr_nl addrs[KEVENT_RECV_BATCH];
	unsigned int n_dgrams; /* received by the last recvmmsg() */
	unsigned int next_dgram; /* the next one to look at */
	const char *dgram; /* the datagram being looked at */
	size_t len;
	size_t off;
};

static int set_rcvbuf(int fd, size_t size)
{
	int n = size;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &n, sizeof(n)) == 0)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &n, sizeof(n)) == 0)
		return 0;
	return -errno;
}

KEVENT_EXPORT int
kevent_monitor_set_receive_buffer_size(struct kevent_monitor *monitor,
				       size_t size)
{
	if (!monitor || size > INT_MAX)
		return -EINVAL;
	return set_rcvbuf(mnl_socket_get_fd(monitor->nl), size);
}

/* The epoll instance of the socket and of the eventfd of held messages. */
static int monitor_poll_setup(struct kevent_monitor *m)
{
	struct epoll_event ev = { .events = EPOLLIN };

	m->held_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (m->held_fd < 0)
		return -errno;
	m->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (m->epoll_fd < 0)
		return -errno;
	if (epoll_ctl(m->epoll_fd, EPOLL_CTL_ADD, mnl_socket_get_fd(m->nl),
		      &ev) < 0)
		return -errno;
	if (epoll_ctl(m->epoll_fd, EPOLL_CTL_ADD, m->held_fd, &ev) < 0)
		return -errno;
	return 0;
}

/*
 * Make the eventfd say whether messages of the last batch are still held,
 * so that the descriptor stays readable until they are taken.
 */
static void monitor_update_held(struct kevent_monitor *m)
{
	bool held = m->off < m->len || m->next_dgram < m->n_dgrams;
	uint64_t n = 1;

	if (held == m->held)
		return;
	/* Neither can fail: the counter is 0 or 1, and read only when 1. */
	if (held)
		m->held = write(m->held_fd, &n, sizeof(n)) == sizeof(n);
	else
		m->held = read(m->held_fd, &n, sizeof(n)) != sizeof(n);
}

KEVENT_EXPORT int kevent_monitor_new(struct kevent_monitor **ret_monitor)
{
	struct genl_family family, ctrl;
	struct kevent_monitor *m;
	struct mnl_socket *req;
	uint32_t notify;
	int i, r;

	if (!ret_monitor)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->refcount = 1;
	m->epoll_fd = -1;
	m->held_fd = -1;
	m->buf = malloc(KEVENT_RECV_BATCH * KEVENT_RECV_BUF_SIZE);
	if (!m->buf) {
		r = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < KEVENT_RECV_BATCH; i++) {
		m->iovs[i].iov_base = m->buf + i * KEVENT_RECV_BUF_SIZE;
		m->iovs[i].iov_len = KEVENT_RECV_BUF_SIZE;
		m->msgs[i].msg_hdr.msg_name = &m->addrs[i];
		m->msgs[i].msg_hdr.msg_iov = &m->iovs[i];
		m->msgs[i].msg_hdr.msg_iovlen = 1;
	}

	r = kevent_request_socket_open(&req);
	if (r < 0)
		goto out_free;

	m->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!m->nl) {
		r = -errno;
		goto out_close_req;
	}
	if (mnl_socket_bind(m->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out_close_req;
	}
	/* A failure leaves the default buffer, which still works. */
	set_rcvbuf(mnl_socket_get_fd(m->nl), KEVENT_SOCKET_RCVBUF);
	r = monitor_poll_setup(m);
	if (r < 0)
		goto out_close_req;

	/*
	 * Listen to the controller before resolving the family, so that its
	 * removal right after the lookup is not missed.
	 */
	r = kevent_genl_family_resolve(req, "nlctrl", &ctrl);
	if (r < 0)
		goto out_close_req;
	notify = kevent_genl_family_group(&ctrl, "notify");
	if (!notify) {
		r = -EPROTO;
		goto out_close_req;
	}
	if (mnl_socket_setsockopt(m->nl, NETLINK_ADD_MEMBERSHIP, &notify,
				  sizeof(notify)) < 0) {
		r = -errno;
		goto out_close_req;
	}

	r = kevent_genl_family_resolve(req, KEVENT_FAMILY_NAME, &family);
	if (r == 0)
		r = kevent_family_check(&family);
	if (r == 0)
		r = kevent_family_answers(req, family.id);
	if (r < 0)
		goto out_close_req;
	m->family_id = family.id;
	for (i = 0; i < __KEVENT_CLASS_MAX; i++)
		m->groups[i] = kevent_genl_family_group(
			&family, kevent_class_to_string(i));
	mnl_socket_close(req);

	*ret_monitor = m;
	return 0;

out_close_req:
	mnl_socket_close(req);
out_free:
	kevent_monitor_unref(m);
	return r;
}

KEVENT_EXPORT struct kevent_monitor *
kevent_monitor_ref(struct kevent_monitor *monitor)
{
	if (monitor)
		monitor->refcount++;
	return monitor;
}

KEVENT_EXPORT struct kevent_monitor *
kevent_monitor_unref(struct kevent_monitor *monitor)
{
	if (!monitor || --monitor->refcount > 0)
		return NULL;
	if (monitor->epoll_fd >= 0)
		close(monitor->epoll_fd);
	if (monitor->held_fd >= 0)
		close(monitor->held_fd);
	if (monitor->nl)
		mnl_socket_close(monitor->nl);
	free(monitor->buf);
	free(monitor);
	return NULL;
}

KEVENT_EXPORT int kevent_monitor_join(struct kevent_monitor *monitor,
				      enum kevent_class cls)
{
	uint32_t group;

	if (!monitor || (unsigned int)cls >= __KEVENT_CLASS_MAX)
		return -EINVAL;
	group = monitor->groups[cls];
	if (!group)
		return -ENOENT;
	if (mnl_socket_setsockopt(monitor->nl, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)) < 0)
		return -errno;
	return 0;
}

KEVENT_EXPORT int kevent_monitor_filter_add_attr(struct kevent_monitor *monitor,
						const char *name)
{
	struct sock_filter prog[KEVENT_FILTER_LEN(KEVENT_FILTER_MAX_IDS)];
	struct sock_fprog fprog = { .filter = prog };
	size_t i, n;
	int id, len;

	if (!monitor || !name)
		return -EINVAL;
	id = kevent_attribute_id(name);
	if (id < 0)
		return id;
	n = monitor->n_filter_ids;
	for (i = 0; i < n; i++)
		if (monitor->filter_ids[i] == (uint32_t)id)
			return 0;
	if (n == KEVENT_FILTER_MAX_IDS)
		return -E2BIG;

	monitor->filter_ids[n] = id;
	len = kevent_filter_build(monitor->family_id, monitor->filter_ids,
				  n + 1, prog, KEVENT_FILTER_LEN(n + 1));
	if (len < 0)
		return len;
	fprog.len = len;
	/* The new program replaces the old one at once. */
	if (setsockopt(mnl_socket_get_fd(monitor->nl), SOL_SOCKET,
		       SO_ATTACH_FILTER, &fprog, sizeof(fprog)) < 0)
		return -errno;
	monitor->n_filter_ids = n + 1;
	return 0;
}

KEVENT_EXPORT int kevent_monitor_get_fd(struct kevent_monitor *monitor)
{
	if (!monitor)
		return -EINVAL;
	return monitor->epoll_fd;
}

KEVENT_EXPORT uint64_t
kevent_monitor_get_dropped(const struct kevent_monitor *monitor)
{
	return monitor ? monitor->dropped : 0;
}

KEVENT_EXPORT uint64_t
kevent_monitor_get_forged(const struct kevent_monitor *monitor)
{
	return monitor ? monitor->forged : 0;
}

uint64_t kevent_gaps_account(struct kevent_gaps *gaps, enum kevent_class cls,
			     uint64_t class_seq)
{
	uint64_t last;

	if ((unsigned int)cls >= __KEVENT_CLASS_MAX || !class_seq ||
	    gaps->resync)
		return 0;
	last = gaps->last[cls];
	/* Replayed, or seen already: older than what we know, no gap. */
	if (class_seq <= last)
		return 0;
	gaps->last[cls] = class_seq;
	/* No baseline yet: what came before the first event is not lost. */
	if (!last)
		return 0;
	return class_seq - last - 1;
}

void kevent_gaps_overflow(struct kevent_gaps *gaps)
{
	memset(gaps->last, 0, sizeof(gaps->last));
	gaps->resync = true;
}

void kevent_gaps_idle(struct kevent_gaps *gaps)
{
	gaps->resync = false;
}

KEVENT_EXPORT int kevent_monitor_mark_seen(struct kevent_monitor *monitor,
					   const struct kevent_event *event)
{
	if (!monitor || !event)
		return -EINVAL;
	if (event->source == KEVENT_EVENT_SOURCE_KEVENT)
		kevent_gaps_account(&monitor->gaps, event->cls,
				    event->class_seq);
	return 0;
}

/* Is @nlh the controller saying that the kevent family went away? */
static bool is_delfamily(const struct kevent_monitor *m,
			 const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *attr;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    genl->cmd != CTRL_CMD_DELFAMILY)
		return false;
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_FAMILY_ID:
			if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0 &&
			    mnl_attr_get_u16(attr) == m->family_id)
				return true;
			break;
		case CTRL_ATTR_FAMILY_NAME:
			if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0 &&
			    strcmp(mnl_attr_get_str(attr), KEVENT_FAMILY_NAME) ==
				    0)
				return true;
			break;
		}
	}
	return false;
}

/*
 * Look at one message of the current datagram.
 * Return: 1 and an event, 0 to go on, -ENODEV, -ENOMEM.
 */
static int handle_message(struct kevent_monitor *m, const struct nlmsghdr *nlh,
			  size_t len, struct kevent_event **ret_event)
{
	int r;

	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		if (is_delfamily(m, nlh)) {
			m->gone = true;
			return -ENODEV;
		}
		return 0;
	}
	if (nlh->nlmsg_type != m->family_id)
		return 0;
	switch (kevent_message_kind(nlh, len)) {
	case KEVENT_MSG_EVENT:
		break;
	case KEVENT_MSG_OTHER:
		return 0;
	case KEVENT_MSG_MALFORMED:
		m->dropped++;
		return 0;
	}
	r = kevent_event_parse(nlh, len, true, ret_event);
	if (r == -EBADMSG) {
		m->dropped++;
		return 0;
	}
	if (r < 0)
		return r;
	/* Filtered events leave gaps that are no loss. */
	if (!m->n_filter_ids)
		(*ret_event)->lost = kevent_gaps_account(
			&m->gaps, (*ret_event)->cls, (*ret_event)->class_seq);
	return 1;
}

/* kevent_monitor_receive() but for the eventfd of held messages */
static int monitor_receive(struct kevent_monitor *m,
			   struct kevent_event **ret_event)
{
	const struct nlmsghdr *nlh;
	const struct msghdr *msg;
	unsigned int i;
	size_t left;
	int n, r;

	for (;;) {
		if (m->gone)
			return -ENODEV;

		while (m->off < m->len) {
			nlh = (const struct nlmsghdr *)(m->dgram + m->off);
			left = m->len - m->off;
			if (!mnl_nlmsg_ok(nlh, left)) {
				m->dropped++;
				m->off = m->len;
				break;
			}
			m->off += NLMSG_ALIGN(nlh->nlmsg_len);
			r = handle_message(m, nlh, left, ret_event);
			if (r == 1)
				return 0;
			if (r < 0)
				return r;
		}
		m->off = m->len = 0;

		/* The next datagram of the batch, checked as it is taken */
		if (m->next_dgram < m->n_dgrams) {
			i = m->next_dgram++;
			msg = &m->msgs[i].msg_hdr;
			if (msg->msg_flags & MSG_TRUNC)
				return -EMSGSIZE;
			if (msg->msg_namelen != sizeof(m->addrs[i]) ||
			    m->addrs[i].nl_pid != 0) {
				m->dropped++;
				m->forged++;
				continue;
			}
			m->dgram = m->iovs[i].iov_base;
			m->len = m->msgs[i].msg_len;
			continue;
		}

		m->n_dgrams = m->next_dgram = 0;
		for (i = 0; i < KEVENT_RECV_BATCH; i++)
			m->msgs[i].msg_hdr.msg_namelen = sizeof(m->addrs[i]);
		n = recvmmsg(mnl_socket_get_fd(m->nl), m->msgs,
			     KEVENT_RECV_BATCH, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EWOULDBLOCK) {
				kevent_gaps_idle(&m->gaps);
				return -EAGAIN;
			}
			if (errno == ENOBUFS)
				kevent_gaps_overflow(&m->gaps);
			return -errno;
		}
		m->n_dgrams = n;
	}
}

KEVENT_EXPORT int kevent_monitor_receive(struct kevent_monitor *monitor,
					 struct kevent_event **ret_event)
{
	int r;

	if (!monitor || !ret_event)
		return -EINVAL;
	r = monitor_receive(monitor, ret_event);
	monitor_update_held(monitor);
	return r;
}
