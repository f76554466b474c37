// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-once: receive events the way many libudev users do, taking one
 * event with kevent_monitor_receive() per wakeup of poll() on the
 * monitor's descriptor, never "until -EAGAIN".
 *
 * Usage: kevent-once CLASS IDLE_MS
 *
 * Joins CLASS, then prints "SEQ PATH ATTR" for each event it takes, and
 * ends with status 0 once poll() has waited IDLE_MS milliseconds without a
 * wakeup. Status 1 on a failure, such as an overrun of its socket.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevent/kevent.h>

static void die(const char *what, int err)
{
	fprintf(stderr, "kevent-once: %s: %s\n", what, strerror(err));
	exit(1);
}

int main(int argc, char **argv)
{
	struct kevent_monitor *monitor;
	struct kevent_event *event;
	struct pollfd pfd;
	int cls, idle_ms, r;

	if (argc != 3) {
		fprintf(stderr, "usage: kevent-once CLASS IDLE_MS\n");
		return 2;
	}
	cls = kevent_class_from_string(argv[1]);
	idle_ms = atoi(argv[2]);
	if (cls < 0 || idle_ms <= 0) {
		fprintf(stderr, "usage: kevent-once CLASS IDLE_MS\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	r = kevent_monitor_new(&monitor);
	if (r < 0)
		die("kevent_monitor_new", -r);
	r = kevent_monitor_join(monitor, cls);
	if (r < 0)
		die("kevent_monitor_join", -r);

	pfd = (struct pollfd){ .fd = kevent_monitor_get_fd(monitor),
			       .events = POLLIN };
	for (;;) {
		r = poll(&pfd, 1, idle_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("poll", errno);
		if (r == 0)
			break;

		/* One event a wakeup */
		r = kevent_monitor_receive(monitor, &event);
		if (r == -EAGAIN)
			continue;
		if (r < 0)
			die("kevent_monitor_receive", -r);
		printf("%" PRIu64 " %s %s\n", kevent_event_get_seq(event),
		       kevent_event_get_path(event),
		       kevent_event_get_attr(event));
		kevent_event_unref(event);
	}

	kevent_monitor_unref(monitor);
	return 0;
}
