// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-combined: receive from several libkevent monitors through one
 * combined monitor, taking one event per wakeup of poll() on its one
 * descriptor, as a program that integrates libkevent in its own loop does.
 *
 * Usage: kevent-combined [--kevent CLASS] [--uevent] [--stock]
 *                        [--stock-poll FILE] [--poll FILE]
 *                        [--sample MS FILE] IDLE_MS
 *
 * Makes each monitor asked for (the kevent layer's joined to CLASS; the
 * stock monitor, with --stock-poll polling FILE too; the poll and sample
 * monitors with their one FILE, the sampler every MS milliseconds), adds
 * them to one combined monitor in that order, then prints "BACKEND SOURCE
 * SEQ PATH ATTR" for each event it takes, and "lost BACKEND" for a receive
 * buffer overrun. Ends with status 0 once IDLE_MS milliseconds passed
 * without an event (a sampler wakes it every interval, with or without
 * one); status 1 on a failure, 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kevent/kevent.h>

static void die(const char *what, int err)
{
	fprintf(stderr, "kevent-combined: %s: %s\n", what, strerror(err));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: kevent-combined [--kevent CLASS] [--uevent] [--stock] [--stock-poll FILE] [--poll FILE] [--sample MS FILE] IDLE_MS\n");
	exit(2);
}

/* Make and add each monitor the arguments name; return the IDLE_MS. */
static int add_monitors(struct kevent_combined_monitor *cm, int argc,
			char **argv)
{
	int i, cls, r = 0, idle_ms;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--kevent") && i + 1 < argc - 1) {
			struct kevent_monitor *m;

			cls = kevent_class_from_string(argv[++i]);
			if (cls < 0)
				usage();
			r = kevent_monitor_new(&m);
			if (r < 0)
				die("kevent_monitor_new", -r);
			r = kevent_monitor_join(m, cls);
			if (r < 0)
				die("kevent_monitor_join", -r);
			r = kevent_combined_monitor_add_kevent(cm, m);
			kevent_monitor_unref(m);
		} else if (!strcmp(argv[i], "--uevent")) {
			struct kevent_uevent_monitor *um;

			r = kevent_uevent_monitor_new(&um);
			if (r < 0)
				die("kevent_uevent_monitor_new", -r);
			r = kevent_combined_monitor_add_uevent(cm, um);
			kevent_uevent_monitor_unref(um);
		} else if (!strcmp(argv[i], "--stock") ||
			   (!strcmp(argv[i], "--stock-poll") && i + 1 < argc - 1)) {
			struct kevent_stock_monitor *sm;

			r = kevent_stock_monitor_new(&sm);
			if (r < 0)
				die("kevent_stock_monitor_new", -r);
			if (!strcmp(argv[i], "--stock-poll")) {
				r = kevent_stock_monitor_add_file(sm, argv[++i]);
				if (r < 0)
					die("kevent_stock_monitor_add_file", -r);
			}
			r = kevent_combined_monitor_add_stock(cm, sm);
			kevent_stock_monitor_unref(sm);
		} else if (!strcmp(argv[i], "--poll") && i + 1 < argc - 1) {
			struct kevent_poll_monitor *pm;

			r = kevent_poll_monitor_new(&pm);
			if (r < 0)
				die("kevent_poll_monitor_new", -r);
			r = kevent_poll_monitor_add(pm, argv[++i]);
			if (r < 0)
				die("kevent_poll_monitor_add", -r);
			r = kevent_combined_monitor_add_poll(cm, pm);
			kevent_poll_monitor_unref(pm);
		} else if (!strcmp(argv[i], "--sample") && i + 2 < argc - 1) {
			struct kevent_sample_monitor *sp;
			int ms = atoi(argv[++i]);

			if (ms <= 0)
				usage();
			r = kevent_sample_monitor_new(&sp, (uint64_t)ms * 1000);
			if (r < 0)
				die("kevent_sample_monitor_new", -r);
			r = kevent_sample_monitor_add(sp, argv[++i]);
			if (r < 0)
				die("kevent_sample_monitor_add", -r);
			r = kevent_combined_monitor_add_sample(cm, sp);
			kevent_sample_monitor_unref(sp);
		} else {
			usage();
		}
		if (r < 0)
			die("kevent_combined_monitor_add", -r);
	}
	idle_ms = argc > 1 ? atoi(argv[argc - 1]) : 0;
	if (idle_ms <= 0)
		usage();
	return idle_ms;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	struct kevent_combined_monitor *cm;
	enum kevent_backend backend;
	struct kevent_event *event;
	struct pollfd pfd;
	int64_t last_ms, left_ms;
	int idle_ms, r;

	setvbuf(stdout, NULL, _IOLBF, 0);
	r = kevent_combined_monitor_new(&cm);
	if (r < 0)
		die("kevent_combined_monitor_new", -r);
	idle_ms = add_monitors(cm, argc, argv);

	pfd = (struct pollfd){ .fd = kevent_combined_monitor_get_fd(cm),
			       .events = POLLIN };
	last_ms = now_ms();
	for (;;) {
		left_ms = last_ms + idle_ms - now_ms();
		if (left_ms <= 0)
			break;
		r = poll(&pfd, 1, left_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("poll", errno);
		if (r == 0)
			break;

		/* One event a wakeup */
		r = kevent_combined_monitor_receive(cm, &event, &backend);
		if (r == -EAGAIN)
			continue;
		if (r == -ENOBUFS) {
			printf("lost %s\n", kevent_backend_to_string(backend));
			continue;
		}
		if (r < 0)
			die("kevent_combined_monitor_receive", -r);
		printf("%s %s %" PRIu64 " %s %s\n",
		       kevent_backend_to_string(backend),
		       kevent_event_source_to_string(
			       kevent_event_get_source(event)),
		       kevent_event_get_seq(event), kevent_event_get_path(event),
		       kevent_event_get_attr(event));
		kevent_event_unref(event);
		last_ms = now_ms();
	}

	kevent_combined_monitor_unref(cm);
	return 0;
}
