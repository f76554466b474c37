/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-dbus: an object on the bus for each kobject that has sources, its
 * attributes the properties of its interface
 */
#ifndef KEVENT_DBUS_OBJECTS_H
#define KEVENT_DBUS_OBJECTS_H

#include <stdbool.h>

#include <systemd/sd-bus.h>

struct kdbus_objects;

/* An empty table of objects on @bus. Return: 0 or -ENOMEM. */
int kdbus_objects_new(sd_bus *bus, struct kdbus_objects **ret);

/* Take every object off the bus, silently, and free the table. */
void kdbus_objects_free(struct kdbus_objects *objects);

/* How many objects the table has */
size_t kdbus_objects_count(const struct kdbus_objects *objects);

/*
 * kdbus_objects_add() - have attribute @attr of kobject @path on the bus
 * @announce: say so with InterfacesAdded (a new object) or
 *	PropertiesChanged (a new attribute of an object); false while the
 *	service starts, before it owns its name
 *
 * Return: 1 when the object or the attribute is new; 0 when it was there;
 * -EINVAL for a path or name that cannot be made a bus name (too long);
 * -ENOMEM; or the negative errno of sd-bus.
 */
int kdbus_objects_add(struct kdbus_objects *objects, const char *path,
		      const char *attr, bool announce);

/*
 * kdbus_objects_changed() - an event: the attribute's current value is
 * read and sent with PropertiesChanged; an attribute not on the bus yet is
 * added first (and announced). An object whose kobject is gone (the read
 * finds no directory) is taken off the bus with InterfacesRemoved.
 *
 * Return: 0; or a negative errno as kdbus_objects_add() gives it.
 */
int kdbus_objects_changed(struct kdbus_objects *objects, const char *path,
			  const char *attr);

/*
 * kdbus_objects_refresh() - after events were lost: every value is read
 * again, and those that differ from the last one sent are sent with
 * PropertiesChanged; objects whose kobject is gone are removed.
 */
void kdbus_objects_refresh(struct kdbus_objects *objects);

/*
 * kdbus_objects_remove() - kobject @path and those below it were removed:
 * their objects leave the bus with InterfacesRemoved. Return: how many.
 */
int kdbus_objects_remove(struct kdbus_objects *objects, const char *path);

#endif
