// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-dbus - the kevent layer's and the stock kernel's attribute events
 * on the system bus
 *
 * Owns the name org.kevent1. Each kobject that has sources is an object
 * below /org/kevent1/source (its path escaped as sd_bus_path_encode() does)
 * with the interface org.kevent1.Source, whose properties are its
 * attributes, each read from sysfs when asked for. An event sends
 * PropertiesChanged with the value read then; sources that come and go are
 * announced by the object manager at /org/kevent1 (InterfacesAdded,
 * InterfacesRemoved). Events lost to an overrun: every value is read again
 * and those that changed are sent.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>

#include <kevent/kevent.h>

#include "names.h"
#include "objects.h"

#define PROG "kevent-dbus"

static const char usage[] =
	"Usage: " PROG " [--kevent] [--stock] [--rcvbuf BYTES]\n"
	"Serve the values of kevent's attribute sources on the system bus as\n"
	KDBUS_NAME ", one object per kobject below " KDBUS_SOURCES ",\n"
	"interface " KDBUS_IFACE ", each attribute a property sent with\n"
	"PropertiesChanged when the kernel announces it.\n"
	"\n"
	"  --kevent     the kevent layer's sources (the default)\n"
	"  --stock      the stock kernel's announcements, without kevent.ko\n"
	"  --rcvbuf BYTES  the kevent layer's socket receive buffer\n"
	"  -h, --help   this help\n"
	"  -V, --version\n"
	"\n"
	"Exit status: 0 on SIGTERM or SIGINT, 1 on a failure, 2 on a usage error.\n";

struct service {
	sd_bus *bus;
	sd_event *event;
	struct kdbus_objects *objects;
	struct kevent_combined_monitor *all;
	struct kevent_monitor *kevent;
	struct kevent_stock_monitor *stock;
	struct udev *udev;
	struct udev_monitor *devices;
	bool announce;	/* sources added are announced: the name is owned */
};

static int add_source_cb(const struct kevent_event *ev, void *userdata)
{
	struct service *s = userdata;
	int r;

	r = kdbus_objects_add(s->objects, kevent_event_get_path(ev),
			      kevent_event_get_attr(ev), s->announce);
	if (r < 0 && r != -EINVAL)
		return 1;
	return 0;
}

/* The sources there are now, on the bus */
static int add_sources(struct service *s)
{
	int r;

	if (s->kevent) {
		r = kevent_sources_foreach(add_source_cb, s);
		if (r != 0) {
			fprintf(stderr, PROG ": cannot list the kevent layer's sources: %s\n",
				r > 0 ? "out of memory" : strerror(-r));
			return -1;
		}
	}
	if (s->stock) {
		r = kevent_stock_foreach(add_source_cb, s);
		if (r != 0) {
			fprintf(stderr, PROG ": cannot list the stock sources: %s\n",
				r > 0 ? "out of memory" : strerror(-r));
			return -1;
		}
	}
	return 0;
}

static int on_events(sd_event_source *src, int fd, uint32_t revents,
		     void *userdata)
{
	struct service *s = userdata;
	enum kevent_backend backend;
	struct kevent_event *ev;
	int r;

	(void)src;
	(void)fd;
	(void)revents;
	for (;;) {
		r = kevent_combined_monitor_receive(s->all, &ev, &backend);
		if (r == -EAGAIN)
			return 0;
		if (r == -ENOBUFS) {
			fprintf(stderr, PROG ": events were lost (%s), reading every value again\n",
				kevent_backend_to_string(backend));
			kdbus_objects_refresh(s->objects);
			continue;
		}
		if (r == -ENODEV) {
			fprintf(stderr, PROG ": the kevent layer was unloaded\n");
			return sd_event_exit(s->event, 1);
		}
		if (r == -EMSGSIZE || r == -EPROTO)
			continue;
		if (r < 0) {
			fprintf(stderr, PROG ": cannot receive events: %s\n",
				strerror(-r));
			return sd_event_exit(s->event, 1);
		}
		if (kevent_event_get_lost(ev))
			kdbus_objects_refresh(s->objects);
		kdbus_objects_changed(s->objects, kevent_event_get_path(ev),
				      kevent_event_get_attr(ev));
		kevent_event_unref(ev);
	}
}

/* Devices that go take their objects with them; new ones may bring sources */
static int on_device(sd_event_source *src, int fd, uint32_t revents,
		     void *userdata)
{
	struct service *s = userdata;
	struct udev_device *dev;
	const char *action, *devpath;

	(void)src;
	(void)fd;
	(void)revents;
	while ((dev = udev_monitor_receive_device(s->devices))) {
		action = udev_device_get_action(dev);
		devpath = udev_device_get_devpath(dev);
		if (action && devpath && !strcmp(action, "remove"))
			kdbus_objects_remove(s->objects, devpath);
		else if (action && !strcmp(action, "add"))
			add_sources(s);
		udev_device_unref(dev);
	}
	return 0;
}

static int open_monitors(struct service *s, int use_kevent, int use_stock,
			 size_t rcvbuf)
{
	int r, cls;

	r = kevent_combined_monitor_new(&s->all);
	if (r < 0)
		goto fail;
	if (use_kevent) {
		r = kevent_monitor_new(&s->kevent);
		for (cls = 0; r == 0 && cls <= KEVENT_CLASS_MAX; cls++)
			r = kevent_monitor_join(s->kevent, cls);
		if (r == -ENOENT) {
			fprintf(stderr, PROG ": the kevent layer is not loaded (insmod kevent.ko); --stock serves the stock kernel's announcements without it\n");
			return -1;
		}
		if (r == 0 && rcvbuf)
			r = kevent_monitor_set_receive_buffer_size(s->kevent,
								   rcvbuf);
		if (r == 0)
			r = kevent_combined_monitor_add_kevent(s->all, s->kevent);
		if (r < 0)
			goto fail;
	}
	if (use_stock) {
		r = kevent_stock_monitor_new(&s->stock);
		if (r == 0)
			r = kevent_combined_monitor_add_stock(s->all, s->stock);
		if (r < 0)
			goto fail;
	}
	/* The kernel's uevents, for devices added and removed */
	s->udev = udev_new();
	if (!s->udev) {
		r = -ENOMEM;
		goto fail;
	}
	s->devices = udev_monitor_new_from_netlink(s->udev, "kernel");
	if (!s->devices) {
		r = -ENOMEM;
		goto fail;
	}
	r = udev_monitor_enable_receiving(s->devices);
	if (r < 0)
		goto fail;
	return 0;
fail:
	fprintf(stderr, PROG ": cannot receive events: %s\n", strerror(-r));
	return -1;
}

static int serve(struct service *s)
{
	int r;

	r = sd_event_default(&s->event);
	if (r >= 0)
		r = sd_bus_open_system(&s->bus);
	if (r < 0) {
		fprintf(stderr, PROG ": cannot connect to the system bus: %s\n",
			strerror(-r));
		return 1;
	}
	r = sd_bus_attach_event(s->bus, s->event, SD_EVENT_PRIORITY_NORMAL);
	if (r >= 0)
		r = kdbus_objects_new(s->bus, &s->objects);
	if (r >= 0)
		r = sd_bus_add_object_manager(s->bus, NULL, KDBUS_ROOT);
	if (r < 0)
		goto fail;
	/* Joined first, then listed: no change between the two is missed */
	if (add_sources(s) < 0)
		return 1;
	s->announce = true;
	r = sd_event_add_io(s->event, NULL, kevent_combined_monitor_get_fd(s->all),
			    EPOLLIN, on_events, s);
	if (r >= 0)
		r = sd_event_add_io(s->event, NULL,
				    udev_monitor_get_fd(s->devices), EPOLLIN,
				    on_device, s);
	if (r >= 0)
		r = sd_event_add_signal(s->event, NULL, SIGTERM, NULL, NULL);
	if (r >= 0)
		r = sd_event_add_signal(s->event, NULL, SIGINT, NULL, NULL);
	if (r < 0)
		goto fail;
	r = sd_bus_request_name(s->bus, KDBUS_NAME, 0);
	if (r < 0) {
		fprintf(stderr, PROG ": cannot own the name " KDBUS_NAME ": %s\n",
			strerror(-r));
		return 1;
	}
	r = sd_event_loop(s->event);
	if (r < 0)
		goto fail;
	return r;
fail:
	fprintf(stderr, PROG ": %s\n", strerror(-r));
	return 1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "kevent", no_argument, NULL, 'k' },
		{ "stock", no_argument, NULL, 's' },
		{ "rcvbuf", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	struct service s = {};
	int c, use_kevent = 0, use_stock = 0, status;
	unsigned long long rcvbuf = 0;
	sigset_t mask;
	char *end;

	/* A usage error is one line of ours, not getopt's */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			use_kevent = 1;
			break;
		case 's':
			use_stock = 1;
			break;
		case 'r':
			errno = 0;
			rcvbuf = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || !rcvbuf ||
			    rcvbuf > INT_MAX || optarg[0] == '-') {
				fprintf(stderr, PROG ": --rcvbuf takes a number of bytes from 1 to %d, not '%s'\n",
					INT_MAX, optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'V':
			puts(PROG " " KEVENT_VERSION);
			return 0;
		case ':':
			fprintf(stderr, PROG ": %s needs a value; try '" PROG " --help'.\n",
				argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, PROG ": unknown option '%s'; try '" PROG " --help'.\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'; try '" PROG " --help'.\n",
			argv[optind]);
		return 2;
	}
	if (!use_stock)
		use_kevent = 1;
	if (rcvbuf && !use_kevent) {
		fprintf(stderr, PROG ": --rcvbuf is the kevent layer's buffer: it needs --kevent\n");
		return 2;
	}

	/* The signals arrive as events of the loop */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	setvbuf(stderr, NULL, _IOLBF, 0);

	status = 1;
	if (open_monitors(&s, use_kevent, use_stock, rcvbuf) == 0)
		status = serve(&s);

	kdbus_objects_free(s.objects);
	sd_bus_flush_close_unref(s.bus);
	sd_event_unref(s.event);
	udev_monitor_unref(s.devices);
	udev_unref(s.udev);
	kevent_combined_monitor_unref(s.all);
	kevent_monitor_unref(s.kevent);
	kevent_stock_monitor_unref(s.stock);
	return status;
}
