// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * kevent-monitor: the smallest complete user of libkevent.
 *
 * Joins the power class, waits for events on the monitor's descriptor with
 * poll(), and prints each event's path, attribute and current value.
 *
 *   cc kevent-monitor.c $(pkg-config --cflags --libs libkevent)
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kevent/kevent.h>

int main(int argc, char **argv)
{
	struct kevent_monitor *monitor = NULL;
	struct pollfd pfd;
	int ret;

	if (argc > 1) {
		bool help = !strcmp(argv[1], "--help");

		fprintf(help ? stdout : stderr,
			"usage: %s\n"
			"Print the power events of the kevent layer with their values.\n",
			argv[0]);
		return help ? 0 : 2;
	}

	ret = kevent_monitor_new(&monitor);
	if (ret < 0) {
		fprintf(stderr, "kevent-monitor: %s\n", strerror(-ret));
		return 1;
	}
	ret = kevent_monitor_join(monitor, KEVENT_CLASS_POWER);
	if (ret < 0) {
		fprintf(stderr, "kevent-monitor: cannot join power: %s\n",
			strerror(-ret));
		goto out_unref;
	}

	pfd.fd = kevent_monitor_get_fd(monitor);
	pfd.events = POLLIN;
	for (;;) {
		struct kevent_event *event;
		const char *path, *attr;
		char *value;

		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		ret = kevent_monitor_receive(monitor, &event);
		if (ret == -EAGAIN || ret == -ENOBUFS)
			continue;
		if (ret < 0)
			break;

		path = kevent_event_get_path(event);
		attr = kevent_event_get_attr(event);
		if (kevent_attr_read(path, attr, &value, NULL) == 0) {
			value[strcspn(value, "\n")] = '\0';
			printf("%s %s=%s\n", path, attr, value);
			free(value);
		} else {
			printf("%s %s unreadable\n", path, attr);
		}
		fflush(stdout);
		kevent_event_unref(event);
	}
	fprintf(stderr, "kevent-monitor: %s\n", strerror(-ret));

out_unref:
	kevent_monitor_unref(monitor);
	return 1;
}
