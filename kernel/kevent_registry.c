// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the registry of event attribute names, generated from
 * attributes.txt. An attribute's id is its position in the registry.
 *
 * An entry is a name, or a template of the names a channel number tells
 * apart ("temp*_alarm": temp1_alarm, temp2_alarm, ...), as hwmon's are.
 * The names of a template share its id; kevent keeps the channel number
 * beside the id, and events carry the attribute's own name.
 */

#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "kevent_internal.h"
#include "kevent_attrs.h"

struct kevent_attr_desc {
	const char *name;
	const char *unit;
	enum kevent_class class;
};

#define KEVENT_ATTR_DESC(_id, _name, _class, _unit, _desc) \
	[_id] = { .name = _name, .unit = _unit, .class = _class },

static const struct kevent_attr_desc kevent_registry[] = {
	KEVENT_ATTRIBUTES(KEVENT_ATTR_DESC)
};

static_assert(ARRAY_SIZE(kevent_registry) == KEVENT_ATTRIBUTE_COUNT);

/* Most digits of a channel number: any such number fits in a u32 */
#define KEVENT_CHANNEL_DIGITS	9

/*
 * Whether @name is one of the names of template @tmpl, whose '*' is at
 * @star: @tmpl with a channel number in place of the '*', 0 or up to
 * KEVENT_CHANNEL_DIGITS digits without a leading zero (so that a name has
 * one channel number and a channel one name). Sets *@ret_channel if so.
 */
static bool kevent_template_match(const char *tmpl, const char *star,
				  const char *name, size_t len,
				  u32 *ret_channel)
{
	size_t prefix = star - tmpl, suffix = strlen(star + 1), digits, i;
	u32 channel = 0;

	if (len <= prefix + suffix || strncmp(name, tmpl, prefix) ||
	    strcmp(name + len - suffix, star + 1))
		return false;

	digits = len - prefix - suffix;
	if (digits > KEVENT_CHANNEL_DIGITS ||
	    (digits > 1 && name[prefix] == '0'))
		return false;
	for (i = prefix; i < prefix + digits; i++) {
		if (!isdigit(name[i]))
			return false;
		channel = channel * 10 + name[i] - '0';
	}

	*ret_channel = channel;
	return true;
}

/**
 * kevent_registry_lookup - find an attribute name in the registry
 * @name: attribute name, as in sysfs
 * @ret_channel: set to the channel number of a name of a template, or to
 *	%KEVENT_NO_CHANNEL for a name the registry lists itself
 *
 * Context: Any context.
 * Return: the attribute id, or -EINVAL if @name is NULL, empty, too long,
 * contains a '/' or is not in the registry.
 */
int kevent_registry_lookup(const char *name, u32 *ret_channel)
{
	const char *star;
	size_t len;
	int i;

	if (!name)
		return -EINVAL;
	len = strnlen(name, KEVENT_ATTR_NAME_MAX);
	if (!len || len == KEVENT_ATTR_NAME_MAX || strchr(name, '/'))
		return -EINVAL;

	for (i = 0; i < ARRAY_SIZE(kevent_registry); i++) {
		star = strchr(kevent_registry[i].name, '*');
		if (!star && !strcmp(kevent_registry[i].name, name)) {
			*ret_channel = KEVENT_NO_CHANNEL;
			return i;
		}
		if (star && kevent_template_match(kevent_registry[i].name,
						  star, name, len,
						  ret_channel))
			return i;
	}

	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_registry_lookup);

/**
 * kevent_registry_name - name of a registered attribute
 * @attr_id: attribute id returned by kevent_registry_lookup()
 * @channel: the channel number it returned
 * @buf: room for the name of a template's attribute
 *
 * Context: Any context.
 * Return: the attribute's name: the registry's own, or, for a template's,
 * the template with @channel in place of its '*', written in @buf.
 */
const char *kevent_registry_name(u32 attr_id, u32 channel,
				 char buf[KEVENT_ATTR_NAME_MAX])
{
	const char *tmpl = kevent_registry[attr_id].name;
	const char *star = strchr(tmpl, '*');

	if (!star)
		return tmpl;

	/* gen-attributes checked that every name of the template fits */
	snprintf(buf, KEVENT_ATTR_NAME_MAX, "%.*s%u%s", (int)(star - tmpl),
		 tmpl, channel, star + 1);
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_registry_name);

/**
 * kevent_registry_entry - an entry of the registry, as attributes.txt has it
 * @attr_id: its id
 * @ret_name: set to its name; a template's holds a '*'
 * @ret_unit: set to its unit, or NULL for none
 * @ret_class: set to its class
 *
 * Context: Any context.
 * Return: 0, or -ENOENT if there is no entry @attr_id.
 */
int kevent_registry_entry(u32 attr_id, const char **ret_name,
			  const char **ret_unit, enum kevent_class *ret_class)
{
	if (attr_id >= ARRAY_SIZE(kevent_registry))
		return -ENOENT;

	*ret_name = kevent_registry[attr_id].name;
	*ret_unit = kevent_registry[attr_id].unit;
	*ret_class = kevent_registry[attr_id].class;
	return 0;
}

/**
 * kevent_registry_class - class of a registered attribute
 * @attr_id: attribute id returned by kevent_registry_lookup()
 *
 * Context: Any context.
 * Return: the class whose multicast group carries the attribute's events.
 */
enum kevent_class kevent_registry_class(u32 attr_id)
{
	return kevent_registry[attr_id].class;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_registry_class);

/*
 * The class of the subsystem an attribute's directory belongs to: that of
 * the directory nearest the attribute on its path that is named after a
 * subsystem of this table. A class device's directory is below one named
 * after its class (/devices/virtual/block/md0,
 * /devices/platform/coretemp.0/hwmon/hwmon1); a CPU's below "cpu"; a USB
 * device's below its bus's root hub, "usb<bus>" (the attribute's own
 * directory is no bus: it may be a network device named usb0). Kobjects
 * below /fs belong to the filesystems. libkevent holds the same table
 * (userspace/lib/attrs.c); test/host/class-table.bats keeps them equal.
 */
static const struct {
	const char *subsystem;
	enum kevent_class class;
} kevent_subsystem_classes[] = {
	{ "hwmon",		KEVENT_CLASS_POWER },
	{ "power_supply",	KEVENT_CLASS_POWER },
	{ "thermal",		KEVENT_CLASS_POWER },
	{ "block",		KEVENT_CLASS_STORAGE },
	{ "net",		KEVENT_CLASS_NET },
	{ "cpu",		KEVENT_CLASS_HOTPLUG },
	{ "typec",		KEVENT_CLASS_HOTPLUG },
	{ "usb",		KEVENT_CLASS_HOTPLUG },
};

/*
 * Whether @dir, @len bytes, names @subsystem. "usb" also names "usb<N>", a
 * USB bus, unless @own: the attribute's own directory, which may be a
 * device named so (a network device usb0).
 */
static bool kevent_dir_is(const char *dir, size_t len, bool own,
			  const char *subsystem)
{
	size_t n = strlen(subsystem);

	if (len < n || strncmp(dir, subsystem, n))
		return false;
	if (len == n)
		return true;
	if (own || strcmp(subsystem, "usb"))
		return false;
	for (; n < len; n++)
		if (!isdigit(dir[n]))
			return false;
	return true;
}

/*
 * The class of the subsystem the directory at @path (below /sys, from its
 * leading '/') belongs to, in @class: see kevent_subsystem_classes; the
 * filesystems' below /fs. False if it belongs to none of them.
 */
static bool kevent_subsystem_class(const char *path, enum kevent_class *class)
{
	const char *end = path + strlen(path), *dir, *subsystem;
	unsigned int i;

	if (!strncmp(path, "/fs/", 4) || !strcmp(path, "/fs")) {
		*class = KEVENT_CLASS_FS;
		return true;
	}

	/* From the attribute's directory up */
	while (end > path) {
		dir = end;
		while (dir > path && dir[-1] != '/')
			dir--;
		for (i = 0; i < ARRAY_SIZE(kevent_subsystem_classes); i++) {
			subsystem = kevent_subsystem_classes[i].subsystem;
			if (kevent_dir_is(dir, end - dir, !*end, subsystem)) {
				*class = kevent_subsystem_classes[i].class;
				return true;
			}
		}
		end = dir > path ? dir - 1 : path;
	}

	return false;
}

/**
 * kevent_attr_class - class of an attribute's events
 * @path: the path of the attribute's directory below /sys, from its
 *	leading '/'
 * @attr_id: the attribute's id, or a negative number if the registry does
 *	not list its name
 *
 * One name may be an attribute of devices of several subsystems: a CPU's
 * online is a hotplug event, a power supply's a power event. So the
 * subsystem the device belongs to comes first, the registry second.
 *
 * Context: Any context.
 * Return: the class of the subsystem the attribute's directory belongs to
 * (see kevent_subsystem_classes; %KEVENT_CLASS_FS below /fs); else the
 * class the registry gives the name; else %KEVENT_CLASS_GENERAL.
 */
enum kevent_class kevent_attr_class(const char *path, int attr_id)
{
	enum kevent_class class;

	if (kevent_subsystem_class(path, &class))
		return class;
	if (attr_id >= 0)
		return kevent_registry_class(attr_id);
	return KEVENT_CLASS_GENERAL;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_attr_class);
