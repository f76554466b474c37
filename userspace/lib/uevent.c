// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The uevent source: change uevents with NAME=<attr> from the subsystems
 * that send them for attributes, through libudev.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>

#include "kevent-private.h"

/* Socket buffer the uevent monitor asks for (as udevadm monitor does). */
#define KEVENT_UEVENT_RCVBUF (128 * 1024 * 1024)

struct kevent_uevent_monitor {
	unsigned int refcount;
	struct udev *udev;
	struct udev_monitor *mon;
};

KEVENT_EXPORT struct kevent_uevent_monitor *
kevent_uevent_monitor_ref(struct kevent_uevent_monitor *monitor)
{
	if (monitor)
		monitor->refcount++;
	return monitor;
}

KEVENT_EXPORT struct kevent_uevent_monitor *
kevent_uevent_monitor_unref(struct kevent_uevent_monitor *monitor)
{
	if (!monitor || --monitor->refcount > 0)
		return NULL;
	udev_monitor_unref(monitor->mon);
	udev_unref(monitor->udev);
	free(monitor);
	return NULL;
}

KEVENT_EXPORT int
kevent_uevent_monitor_new(struct kevent_uevent_monitor **ret_monitor)
{
	struct kevent_uevent_monitor *m;
	int r;

	if (!ret_monitor)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->refcount = 1;
	m->udev = udev_new();
	if (!m->udev) {
		r = -ENOMEM;
		goto out_unref;
	}
	m->mon = udev_monitor_new_from_netlink(m->udev, "kernel");
	if (!m->mon) {
		r = errno ? -errno : -ENOMEM;
		goto out_unref;
	}
	/* A failure leaves the default buffer, which still works. */
	udev_monitor_set_receive_buffer_size(m->mon, KEVENT_UEVENT_RCVBUF);
	r = udev_monitor_enable_receiving(m->mon);
	if (r < 0)
		goto out_unref;
	*ret_monitor = m;
	return 0;

out_unref:
	kevent_uevent_monitor_unref(m);
	return r;
}

KEVENT_EXPORT int
kevent_uevent_monitor_get_fd(struct kevent_uevent_monitor *monitor)
{
	if (!monitor)
		return -EINVAL;
	return udev_monitor_get_fd(monitor->mon);
}

/*
 * The subsystems whose change uevents carry NAME=<attribute>: hwmon, from
 * hwmon_notify_event(). Others use NAME= for something else: an input
 * device for its product name (NAME="AT Translated Set 2 keyboard"), a
 * thermal zone for its type; an event of those would name no attribute.
 */
static const char *const uevent_attr_subsystems[] = {
	"hwmon",
};

/* [a-z0-9_]+, the shape of the attribute names of those subsystems */
static bool attr_shaped(const char *name)
{
	const char *p;

	if (!*name)
		return false;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_'))
			return false;
	return true;
}

bool kevent_uevent_names_attr(const char *subsystem, const char *name)
{
	size_t i;

	if (!subsystem || !name || !attr_shaped(name))
		return false;
	for (i = 0; i < sizeof(uevent_attr_subsystems) /
				sizeof(uevent_attr_subsystems[0]);
	     i++)
		if (strcmp(subsystem, uevent_attr_subsystems[i]) == 0)
			return true;
	return false;
}

/* The event of @dev, or 0 and NULL if it is not an attribute change. */
static int uevent_to_event(struct udev_device *dev,
			   struct kevent_event **ret_event)
{
	const char *action = udev_device_get_action(dev);
	const char *name = udev_device_get_property_value(dev, "NAME");
	const char *devpath = udev_device_get_devpath(dev);
	const char *subsystem = udev_device_get_subsystem(dev);
	int r;

	*ret_event = NULL;
	if (!action || strcmp(action, "change") != 0 || !devpath ||
	    !kevent_uevent_names_attr(subsystem, name))
		return 0;
	r = kevent_event_new_stock(KEVENT_EVENT_SOURCE_UEVENT,
				   udev_device_get_seqnum(dev), devpath, name,
				   subsystem, ret_event);
	/* A DEVPATH or NAME that fails validation: not an attribute event. */
	return r == -EINVAL ? 0 : r;
}

KEVENT_EXPORT int
kevent_uevent_monitor_receive(struct kevent_uevent_monitor *monitor,
			      struct kevent_event **ret_event)
{
	struct udev_device *dev;
	int r;

	if (!monitor || !ret_event)
		return -EINVAL;
	for (;;) {
		errno = 0;
		dev = udev_monitor_receive_device(monitor->mon);
		if (!dev) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == 0)
				return -EAGAIN;
			if (errno == EINTR)
				continue;
			return -errno;
		}
		r = uevent_to_event(dev, ret_event);
		udev_device_unref(dev);
		if (r < 0)
			return r;
		if (*ret_event)
			return 0;
	}
}
