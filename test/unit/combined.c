// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the combined monitor, with monitors that need no kevent
 * layer (sample and poll monitors of this machine's sysfs), and of the
 * sources kevent-watch's options ask it to combine.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "kevent-private.h"
#include "options.h"
#include "unit.h"

/* A file of sysfs every Linux machine has, whose value stays put */
#define LO_MTU "/sys/class/net/lo/mtu"

UNIT_TEST(test_combined_monitor_members)
{
	struct kevent_combined_monitor *cm = NULL;
	struct kevent_sample_monitor *s1 = NULL, *s2 = NULL;
	struct kevent_poll_monitor *pm = NULL;
	enum kevent_backend backend = KEVENT_BACKEND_KEVENT;
	struct kevent_event *ev = NULL;
	struct pollfd pfd;

	CHECK(kevent_combined_monitor_new(NULL) == -EINVAL);
	CHECK(kevent_combined_monitor_new(&cm) == 0);
	CHECK(kevent_combined_monitor_get_fd(cm) >= 0);
	CHECK(kevent_combined_monitor_get_fd(NULL) == -EINVAL);
	/* Nothing held: nothing pending, and the backend left alone */
	CHECK(kevent_combined_monitor_receive(cm, &ev, &backend) == -EAGAIN);
	CHECK(backend == KEVENT_BACKEND_KEVENT && ev == NULL);
	CHECK(kevent_combined_monitor_receive(NULL, &ev, NULL) == -EINVAL);
	CHECK(kevent_combined_monitor_receive(cm, NULL, NULL) == -EINVAL);

	CHECK(kevent_sample_monitor_new(&s1, 1000) == 0);
	CHECK(kevent_sample_monitor_new(&s2, 1000) == 0);
	CHECK(kevent_poll_monitor_new(&pm) == 0);
	CHECK(kevent_sample_monitor_add(s1, LO_MTU) == 0);
	CHECK(kevent_poll_monitor_add(pm, LO_MTU) == 0);

	CHECK(kevent_combined_monitor_add_sample(NULL, s1) == -EINVAL);
	CHECK(kevent_combined_monitor_add_sample(cm, NULL) == -EINVAL);
	CHECK(kevent_combined_monitor_add_kevent(cm, NULL) == -EINVAL);
	CHECK(kevent_combined_monitor_add_sample(cm, s1) == 0);
	CHECK(kevent_combined_monitor_add_sample(cm, s1) == -EEXIST);
	CHECK(kevent_combined_monitor_add_sample(cm, s2) == 0);
	CHECK(kevent_combined_monitor_add_poll(cm, pm) == 0);

	/*
	 * The members' own references go; the combined monitor's keep them.
	 * A sampler whose value stays put wakes the descriptor every
	 * interval and has nothing to report: -EAGAIN, never an event.
	 */
	kevent_sample_monitor_unref(s1);
	kevent_sample_monitor_unref(s2);
	kevent_poll_monitor_unref(pm);
	pfd = (struct pollfd){ .fd = kevent_combined_monitor_get_fd(cm),
			       .events = POLLIN };
	CHECK(poll(&pfd, 1, 1000) == 1);
	CHECK(kevent_combined_monitor_receive(cm, &ev, &backend) == -EAGAIN);
	CHECK(ev == NULL);

	CHECK(kevent_combined_monitor_ref(cm) == cm);
	CHECK(kevent_combined_monitor_unref(cm) == NULL);
	CHECK(kevent_combined_monitor_unref(cm) == NULL);
	CHECK(kevent_combined_monitor_unref(NULL) == NULL);
}

UNIT_TEST(test_backend_names)
{
	CHECK_STR(kevent_backend_to_string(KEVENT_BACKEND_KEVENT), "kevent");
	CHECK_STR(kevent_backend_to_string(KEVENT_BACKEND_UEVENT), "uevent");
	CHECK_STR(kevent_backend_to_string(KEVENT_BACKEND_POLL), "poll");
	CHECK_STR(kevent_backend_to_string(KEVENT_BACKEND_STOCK), "stock");
	CHECK_STR(kevent_backend_to_string(KEVENT_BACKEND_SAMPLE), "sample");
	CHECK(kevent_backend_to_string(KEVENT_BACKEND_SAMPLE + 1) == NULL);
	CHECK(kevent_backend_to_string((enum kevent_backend)-1) == NULL);
}

/* Does kevent-watch with @args watch the kevent layer's events? */
static int kevent_chosen(const char *const *args)
{
	struct watch_options o;
	char err[256] = "";
	int r = unit_parse_args(&o, err, sizeof(err), args);

	if (r == 0)
		r = o.kevent;
	else
		printf("  (refused: \"%s\")\n", err);
	watch_options_free(&o);
	return r;
}

UNIT_TEST(test_kevent_option)
{
	/* Alone, or with no other source: the kevent layer */
	CHECK(kevent_chosen(ARGS("--json")) == 1);
	CHECK(kevent_chosen(ARGS("--kevent")) == 1);
	CHECK(kevent_chosen(ARGS("--list")) == 1);
	/* Another source alone: not the kevent layer */
	CHECK(kevent_chosen(ARGS("--stock")) == 0);
	CHECK(kevent_chosen(ARGS("--uevent")) == 0);
	CHECK(kevent_chosen(ARGS("--poll", "/sys/a")) == 0);
	CHECK(kevent_chosen(ARGS("--sample", "1s", "/sys/a")) == 0);
	CHECK(kevent_chosen(ARGS("--list", "--sample", "1s", "/sys/a")) == 0);
	/* --kevent beside them: both */
	CHECK(kevent_chosen(ARGS("--kevent", "--stock")) == 1);
	CHECK(kevent_chosen(ARGS("--sample", "1s", "--kevent", "/sys/a")) == 1);
	CHECK(kevent_chosen(ARGS("--kevent", "--uevent", "--poll", "/sys/a")) ==
	      1);
	/* What only the kevent layer has needs it */
	CHECK(kevent_chosen(ARGS("--kevent", "--sample", "1s", "--replay",
				 "/sys/a")) == 1);
	CHECK(kevent_chosen(ARGS("--kevent", "--stock", "--rcvbuf", "1M")) ==
	      1);
	CHECK(kevent_chosen(ARGS("--stock", "--replay")) == -1);
	CHECK(kevent_chosen(ARGS("--uevent", "--rcvbuf", "1M")) == -1);
	CHECK(kevent_chosen(ARGS("--list", "--replay")) == -1);
	CHECK(kevent_chosen(ARGS("--list", "--rcvbuf", "1M")) == -1);
	CHECK(kevent_chosen(ARGS("--kevent", "--kevent")) == 1);
}
