// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The combined monitor: any of libkevent's monitors (kevent, uevent, poll,
 * stock, sample) behind one descriptor, so that a program waits on one fd
 * as it does with libudev's monitor.
 *
 * Its descriptor is an epoll set of the members' descriptors, each of which
 * is readable exactly while its monitor has something to report (the
 * members keep an eventfd readable for what they hold already). Receiving
 * takes one event at a time from the members in turn, so that a storm on
 * one of them does not hold back the others' events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "kevent-private.h"

struct combined_member {
	enum kevent_backend backend;
	void *monitor;
	int (*receive)(void *monitor, struct kevent_event **ret_event);
	void *(*unref)(void *monitor);
	bool ready; /* may have something: epoll said so, or it gave an event */
};

struct kevent_combined_monitor {
	unsigned int refcount;
	int epfd;
	struct combined_member *members;
	size_t n_members;
	size_t next; /* the member whose turn it is */
	struct epoll_event *ready_events; /* one per member, for epoll_wait() */
};

KEVENT_EXPORT int
kevent_combined_monitor_new(struct kevent_combined_monitor **ret_monitor)
{
	struct kevent_combined_monitor *m;

	if (!ret_monitor)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->refcount = 1;
	m->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (m->epfd < 0) {
		int r = -errno;

		free(m);
		return r;
	}
	*ret_monitor = m;
	return 0;
}

KEVENT_EXPORT struct kevent_combined_monitor *
kevent_combined_monitor_ref(struct kevent_combined_monitor *monitor)
{
	if (monitor)
		monitor->refcount++;
	return monitor;
}

KEVENT_EXPORT struct kevent_combined_monitor *
kevent_combined_monitor_unref(struct kevent_combined_monitor *monitor)
{
	size_t i;

	if (!monitor || --monitor->refcount > 0)
		return NULL;
	for (i = 0; i < monitor->n_members; i++)
		monitor->members[i].unref(monitor->members[i].monitor);
	free(monitor->members);
	free(monitor->ready_events);
	close(monitor->epfd);
	free(monitor);
	return NULL;
}

/*
 * Add @monitor, whose descriptor is @fd, as member @backend. The member
 * keeps a reference, taken with @ref. Return: 0, -EINVAL, -EEXIST (the same
 * monitor twice), -ENOMEM, or the negative errno of epoll_ctl().
 */
static int combined_add(struct kevent_combined_monitor *cm,
			enum kevent_backend backend, void *monitor, int fd,
			int (*receive)(void *, struct kevent_event **),
			void *(*ref)(void *), void *(*unref)(void *))
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct combined_member *members;
	struct epoll_event *ready;
	size_t i, n;

	if (!cm || !monitor || fd < 0)
		return -EINVAL;
	for (i = 0; i < cm->n_members; i++)
		if (cm->members[i].monitor == monitor)
			return -EEXIST;

	n = cm->n_members + 1;
	members = reallocarray(cm->members, n, sizeof(*members));
	if (!members)
		return -ENOMEM;
	cm->members = members;
	ready = reallocarray(cm->ready_events, n, sizeof(*ready));
	if (!ready)
		return -ENOMEM;
	cm->ready_events = ready;

	/* The member's index: its place in the array, which only grows */
	ev.data.u64 = cm->n_members;
	if (epoll_ctl(cm->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return -errno;
	members[cm->n_members++] = (struct combined_member){
		.backend = backend,
		.monitor = ref(monitor),
		.receive = receive,
		.unref = unref,
		/* Looked at on the first receive, without waiting for epoll */
		.ready = true,
	};
	return 0;
}

/*
 * The members' functions, with the types combined_add() takes: one set per
 * backend, NAME_receive() and so on calling PREFIX_receive().
 */
#define COMBINED_BACKEND(name, prefix)                                        \
	static int name##_receive(void *m, struct kevent_event **ret_event)   \
	{                                                                     \
		return prefix##_receive(m, ret_event);                        \
	}                                                                     \
	static void *name##_ref(void *m)                                      \
	{                                                                     \
		return prefix##_ref(m);                                       \
	}                                                                     \
	static void *name##_unref(void *m)                                    \
	{                                                                     \
		return prefix##_unref(m);                                     \
	}

COMBINED_BACKEND(kevent, kevent_monitor)
COMBINED_BACKEND(uevent, kevent_uevent_monitor)
COMBINED_BACKEND(poll, kevent_poll_monitor)
COMBINED_BACKEND(stock, kevent_stock_monitor)
COMBINED_BACKEND(sample, kevent_sample_monitor)

KEVENT_EXPORT int
kevent_combined_monitor_add_kevent(struct kevent_combined_monitor *monitor,
				   struct kevent_monitor *member)
{
	return combined_add(monitor, KEVENT_BACKEND_KEVENT, member,
			    member ? kevent_monitor_get_fd(member) : -1,
			    kevent_receive, kevent_ref, kevent_unref);
}

KEVENT_EXPORT int
kevent_combined_monitor_add_uevent(struct kevent_combined_monitor *monitor,
				   struct kevent_uevent_monitor *member)
{
	return combined_add(monitor, KEVENT_BACKEND_UEVENT, member,
			    member ? kevent_uevent_monitor_get_fd(member) : -1,
			    uevent_receive, uevent_ref, uevent_unref);
}

KEVENT_EXPORT int
kevent_combined_monitor_add_poll(struct kevent_combined_monitor *monitor,
				 struct kevent_poll_monitor *member)
{
	return combined_add(monitor, KEVENT_BACKEND_POLL, member,
			    member ? kevent_poll_monitor_get_fd(member) : -1,
			    poll_receive, poll_ref, poll_unref);
}

KEVENT_EXPORT int
kevent_combined_monitor_add_stock(struct kevent_combined_monitor *monitor,
				  struct kevent_stock_monitor *member)
{
	return combined_add(monitor, KEVENT_BACKEND_STOCK, member,
			    member ? kevent_stock_monitor_get_fd(member) : -1,
			    stock_receive, stock_ref, stock_unref);
}

KEVENT_EXPORT int
kevent_combined_monitor_add_sample(struct kevent_combined_monitor *monitor,
				   struct kevent_sample_monitor *member)
{
	return combined_add(monitor, KEVENT_BACKEND_SAMPLE, member,
			    member ? kevent_sample_monitor_get_fd(member) : -1,
			    sample_receive, sample_ref, sample_unref);
}

KEVENT_EXPORT int
kevent_combined_monitor_get_fd(struct kevent_combined_monitor *monitor)
{
	return monitor ? monitor->epfd : -EINVAL;
}

/*
 * Mark the members epoll finds readable. Return: how many, or the negative
 * errno of epoll_wait().
 */
static int combined_poll_ready(struct kevent_combined_monitor *cm)
{
	int i, n;

	do {
		n = epoll_wait(cm->epfd, cm->ready_events, cm->n_members, 0);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++)
		cm->members[cm->ready_events[i].data.u64].ready = true;
	return n;
}

KEVENT_EXPORT int
kevent_combined_monitor_receive(struct kevent_combined_monitor *monitor,
				struct kevent_event **ret_event,
				enum kevent_backend *ret_backend)
{
	struct combined_member *mb;
	bool polled = false;
	size_t k, i;
	int r;

	if (!monitor || !ret_event)
		return -EINVAL;
	for (;;) {
		/* The members that may have something, from the one whose turn */
		for (k = 0; k < monitor->n_members; k++) {
			i = (monitor->next + k) % monitor->n_members;
			mb = &monitor->members[i];
			if (!mb->ready)
				continue;
			r = mb->receive(mb->monitor, ret_event);
			if (r == -EAGAIN) {
				mb->ready = false;
				continue;
			}
			/* An event or an error of this member: the next's turn */
			monitor->next = (i + 1) % monitor->n_members;
			if (ret_backend)
				*ret_backend = mb->backend;
			return r;
		}
		/* None had anything: ask epoll once, which may find more */
		if (polled || !monitor->n_members)
			return -EAGAIN;
		r = combined_poll_ready(monitor);
		if (r <= 0)
			return r < 0 ? r : -EAGAIN;
		polled = true;
	}
}

KEVENT_EXPORT const char *kevent_backend_to_string(enum kevent_backend backend)
{
	static const char *const names[] = {
		[KEVENT_BACKEND_KEVENT] = "kevent",
		[KEVENT_BACKEND_UEVENT] = "uevent",
		[KEVENT_BACKEND_POLL] = "poll",
		[KEVENT_BACKEND_STOCK] = "stock",
		[KEVENT_BACKEND_SAMPLE] = "sample",
	};

	if ((unsigned int)backend >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[backend];
}
