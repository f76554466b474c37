// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-monitor: listen to the kevent layer the way a daemon does.
 *
 * Usage: kevent-monitor [CLASS...]
 *
 *   CLASS       join this class: general, storage, power, fs, hotplug or
 *               net (several may be given; all of them by default)
 *   -h, --help  print the usage and exit
 *
 * It joins the classes, prints the current value of every annotated source
 * of those classes, then one line per event until SIGINT or SIGTERM:
 *
 *	/devices/platform/kevent-demo.0 temperature=43210
 *
 * An event only says which attribute changed: the value is read from sysfs
 * when the event is handled. When events were lost (the socket's receive
 * buffer overflowed, or a class's sequence numbers have a gap), it says so
 * on stderr and prints the value of every source again, so that no value
 * it printed stays stale. Joining comes before that first read, so a change
 * in between is seen as an event, never missed.
 *
 * Exit status: 0 after SIGINT or SIGTERM; 1 on a runtime failure, such as
 * the kevent layer not being loaded or being unloaded; 2 on a usage error.
 *
 * Build:
 *	cc -Wall -Wextra -o kevent-monitor kevent-monitor.c \
 *		$(pkg-config --cflags --libs libkevent)
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <kevent/kevent.h>

#define PROG "kevent-monitor"

static const char usage[] =
	"Usage: " PROG " [CLASS...]\n"
	"Print the value of every kevent source of the CLASSes (general,\n"
	"storage, power, fs, hotplug, net; all by default), then\n"
	"\"PATH ATTR=VALUE\" for each event, until SIGINT or SIGTERM.\n"
	"Exit status: 0 on a signal, 1 runtime failure, 2 usage error.\n";

/* Print "PATH ATTR=VALUE", the value read from sysfs now. */
static void print_value(const char *path, const char *attr)
{
	char *value;
	size_t len;
	int r;

	r = kevent_attr_read(path, attr, &value, &len);
	if (r < 0) {
		/* Such as ENODEV: the device went away after the event. */
		printf("%s %s=<error: %s>\n", path, attr, strerror(-r));
		return;
	}
	/* sysfs values end with a newline: drop it to keep one line. */
	if (len > 0 && value[len - 1] == '\n')
		value[len - 1] = '\0';
	printf("%s %s=%s\n", path, attr, value);
	free(value);
}

static int source_cb(const struct kevent_event *source, void *userdata)
{
	const unsigned int *classes = userdata;
	enum kevent_class cls = kevent_event_get_class(source);

	if (cls <= KEVENT_CLASS_MAX && (*classes & (1u << cls)))
		print_value(kevent_event_get_path(source),
			    kevent_event_get_attr(source));
	return 0;
}

/* Print the value of every source of @classes. Return: 0 or -errno. */
static int read_state(unsigned int classes)
{
	int r;

	r = kevent_sources_foreach(source_cb, &classes);
	if (r < 0)
		fprintf(stderr, PROG ": cannot list the sources: %s\n",
			strerror(-r));
	return r;
}

/*
 * Handle every pending event. Taking one event per wakeup of poll() would
 * do too (the descriptor stays readable while events wait); taking them all
 * costs fewer wakeups. Return: 0, or -1 when the watch must end.
 */
static int drain(struct kevent_monitor *monitor, unsigned int classes)
{
	struct kevent_event *event;
	uint64_t lost;
	int r;

	for (;;) {
		r = kevent_monitor_receive(monitor, &event);
		if (r == -EAGAIN)
			return 0;
		if (r == -ENOBUFS) {
			fprintf(stderr, PROG
				": events were lost (receive buffer overrun), reading every value again\n");
			if (read_state(classes) < 0)
				return -1;
			continue;
		}
		if (r == -EMSGSIZE) {
			fprintf(stderr, PROG ": an oversized message was dropped\n");
			continue;
		}
		if (r == -ENODEV) {
			fprintf(stderr, PROG ": the kevent layer was unloaded\n");
			return -1;
		}
		if (r < 0) {
			fprintf(stderr, PROG ": cannot receive events: %s\n",
				strerror(-r));
			return -1;
		}

		lost = kevent_event_get_lost(event);
		if (lost) {
			fprintf(stderr, PROG
				": %llu events were lost, reading every value again\n",
				(unsigned long long)lost);
			if (read_state(classes) < 0) {
				kevent_event_unref(event);
				return -1;
			}
		}
		print_value(kevent_event_get_path(event),
			    kevent_event_get_attr(event));
		kevent_event_unref(event);
	}
}

int main(int argc, char **argv)
{
	struct kevent_monitor *monitor = NULL;
	struct pollfd pfd[2];
	unsigned int classes = 0;
	sigset_t mask;
	int i, r, sfd, status = EXIT_FAILURE;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return EXIT_SUCCESS;
		}
		r = kevent_class_from_string(argv[i]);
		if (r < 0) {
			fprintf(stderr, PROG ": unknown class '%s'\n%s",
				argv[i], usage);
			return 2;
		}
		classes |= 1u << r;
	}
	if (!classes)
		classes = (1u << (KEVENT_CLASS_MAX + 1)) - 1;

	/* One line at a time, also into a pipe or a file. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* SIGINT and SIGTERM arrive on a descriptor of the poll loop. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		fprintf(stderr, PROG ": signalfd: %s\n", strerror(errno));
		return EXIT_FAILURE;
	}

	r = kevent_monitor_new(&monitor);
	if (r == -ENOENT) {
		fprintf(stderr, PROG
			": the kevent layer is not loaded (modprobe kevent)\n");
		goto out;
	}
	if (r < 0) {
		fprintf(stderr, PROG ": cannot talk to the kevent layer: %s\n",
			strerror(-r));
		goto out;
	}
	for (i = 0; i <= KEVENT_CLASS_MAX; i++) {
		if (!(classes & (1u << i)))
			continue;
		r = kevent_monitor_join(monitor, i);
		if (r < 0) {
			fprintf(stderr, PROG ": cannot join class %s: %s\n",
				kevent_class_to_string(i), strerror(-r));
			goto out;
		}
	}
	if (read_state(classes) < 0)
		goto out;

	pfd[0] = (struct pollfd){ .fd = kevent_monitor_get_fd(monitor),
				  .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	for (;;) {
		if (drain(monitor, classes) < 0)
			goto out;
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, PROG ": poll: %s\n", strerror(errno));
			goto out;
		}
		if (pfd[1].revents & POLLIN)
			break;
	}
	status = EXIT_SUCCESS;

out:
	kevent_monitor_unref(monitor);
	close(sfd);
	return status;
}
