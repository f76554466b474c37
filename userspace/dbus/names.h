/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-dbus: the names a source takes on the bus, and its values made
 * fit for it
 */
#ifndef KEVENT_DBUS_NAMES_H
#define KEVENT_DBUS_NAMES_H

#include <stddef.h>

/* The service's well-known name, its objects' root and interface */
#define KDBUS_NAME "org.kevent1"
#define KDBUS_ROOT "/org/kevent1"
#define KDBUS_SOURCES KDBUS_ROOT "/source"
#define KDBUS_IFACE "org.kevent1.Source"

/*
 * kdbus_object_path() - the object path of a kobject path
 * @path: kobject path relative to /sys, such as "/devices/platform/x.0"
 * @ret: the object path, to be freed with free()
 *
 * KDBUS_SOURCES "/" and @path as sd_bus_path_encode() escapes it: each
 * byte but [A-Za-z0-9] as "_" and two lower-case hex digits, the empty
 * string as "_"; sd_bus_path_decode() gives @path back.
 *
 * Return: 0; -EINVAL for a NULL or empty argument; -ENOMEM.
 */
int kdbus_object_path(const char *path, char **ret);

/*
 * kdbus_property_name() - the property name of a sysfs attribute name
 * @attr: the attribute name, such as "sync_action" or "data-role"
 * @ret: the property name, to be freed with free()
 *
 * A D-Bus member name ([A-Za-z_][A-Za-z0-9_]*, at most 255 bytes) that
 * reads as the attribute: bytes of [A-Za-z0-9_] are kept; any other byte,
 * a leading digit and an "_" followed by "x" become "_x" and two
 * lower-case hex digits ("data-role" is "data_x2drole", "2x" is "_x32x").
 * kdbus_property_attr() reverses it.
 *
 * Return: 0; -EINVAL for a NULL or empty @attr; -ENAMETOOLONG if the name
 * would be longer than 255 bytes; -ENOMEM.
 */
int kdbus_property_name(const char *attr, char **ret);

/*
 * kdbus_property_attr() - the attribute name of a property name
 * @name: a name kdbus_property_name() made
 * @ret: the attribute name, to be freed with free()
 *
 * Return: 0; -EINVAL for a name kdbus_property_name() does not make; -ENOMEM.
 */
int kdbus_property_attr(const char *name, char **ret);

/*
 * kdbus_value_string() - a sysfs value as a D-Bus string
 * @value: the value as read, not necessarily NUL-terminated
 * @len: its length
 *
 * The value less one trailing newline. D-Bus strings are UTF-8 without
 * NUL: each byte that is not part of a valid UTF-8 sequence, and each NUL,
 * becomes U+FFFD (the replacement character), as GLib's
 * g_utf8_make_valid() does.
 *
 * Return: the string, to be freed with free(); NULL when out of memory.
 */
char *kdbus_value_string(const char *value, size_t len);

#endif
