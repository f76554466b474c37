// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names of classes, and the registry of attributes (attributes.txt): the
 * id, unit and class of a name. An entry with a '*' is a template of names
 * that a channel number tells apart ("temp*_alarm": temp1_alarm, ...),
 * matched as the kernel matches it. A name the library's copy lacks is
 * looked up in the running kernel's registry (registry.c), which may be
 * newer.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "kevent-private.h"
#include "kevent_attrs.h"

static const char *const class_names[__KEVENT_CLASS_MAX] = {
	[KEVENT_CLASS_GENERAL] = KEVENT_MCGRP_GENERAL,
	[KEVENT_CLASS_STORAGE] = KEVENT_MCGRP_STORAGE,
	[KEVENT_CLASS_POWER] = KEVENT_MCGRP_POWER,
	[KEVENT_CLASS_FS] = KEVENT_MCGRP_FS,
	[KEVENT_CLASS_HOTPLUG] = KEVENT_MCGRP_HOTPLUG,
	[KEVENT_CLASS_NET] = KEVENT_MCGRP_NET,
};

struct attribute_entry {
	const char *name;
	const char *unit;
	enum kevent_class cls;
};

#define KEVENT_ATTRIBUTE_ENTRY(id, name, cls, unit, desc) { name, unit, cls },
static const struct attribute_entry attributes[KEVENT_ATTRIBUTE_COUNT] = {
	KEVENT_ATTRIBUTES(KEVENT_ATTRIBUTE_ENTRY)
};

/*
 * The entries looked at: all, but in a test's build of a library as old as
 * the first KEVENT_ATTRIBUTES_BUILT_IN entries of attributes.txt.
 */
#ifndef KEVENT_ATTRIBUTES_BUILT_IN
#define KEVENT_ATTRIBUTES_BUILT_IN KEVENT_ATTRIBUTE_COUNT
#endif

/* Most digits of a channel number, as in the kernel's registry */
#define CHANNEL_DIGITS 9

/*
 * Whether @name is one of the names of template @tmpl, whose '*' is at
 * @star: the template with a channel number in place of the '*', 0 or up
 * to CHANNEL_DIGITS digits without a leading zero.
 */
static bool template_match(const char *tmpl, const char *star,
			   const char *name)
{
	size_t prefix = star - tmpl, suffix = strlen(star + 1);
	size_t len = strlen(name), digits, i;

	if (len <= prefix + suffix || strncmp(name, tmpl, prefix) != 0 ||
	    strcmp(name + len - suffix, star + 1) != 0)
		return false;
	digits = len - prefix - suffix;
	if (digits > CHANNEL_DIGITS || (digits > 1 && name[prefix] == '0'))
		return false;
	for (i = prefix; i < prefix + digits; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

bool kevent_registry_name_matches(const char *entry, const char *name)
{
	const char *star = strchr(entry, '*');

	return star ? template_match(entry, star, name) :
		      strcmp(name, entry) == 0;
}

/* The registry's entry of @name, or NULL */
static const struct attribute_entry *attribute_lookup(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < KEVENT_ATTRIBUTES_BUILT_IN; i++)
		if (kevent_registry_name_matches(attributes[i].name, name))
			return &attributes[i];
	return NULL;
}

KEVENT_EXPORT const char *kevent_class_to_string(enum kevent_class cls)
{
	if ((unsigned int)cls >= __KEVENT_CLASS_MAX)
		return NULL;
	return class_names[cls];
}

KEVENT_EXPORT int kevent_class_from_string(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < __KEVENT_CLASS_MAX; i++)
		if (strcmp(name, class_names[i]) == 0)
			return i;
	return -EINVAL;
}

KEVENT_EXPORT const char *kevent_attribute_unit(const char *name)
{
	const struct attribute_entry *e = attribute_lookup(name);
	const char *unit = NULL;

	if (e)
		return e->unit;
	kevent_kernel_attribute(name, &unit, NULL);
	return unit;
}

KEVENT_EXPORT int kevent_attribute_id(const char *name)
{
	const struct attribute_entry *e = attribute_lookup(name);

	if (e)
		return e - attributes;
	if (!name)
		return -ENOENT;
	return kevent_kernel_attribute(name, NULL, NULL);
}

enum kevent_class kevent_attribute_class(const char *name)
{
	const struct attribute_entry *e = attribute_lookup(name);
	enum kevent_class cls = KEVENT_CLASS_UNKNOWN;

	if (e)
		return e->cls;
	if (name)
		kevent_kernel_attribute(name, NULL, &cls);
	return cls;
}

/*
 * The class of the subsystem a device's directory belongs to: that of the
 * directory nearest the attribute on its path that is named after a
 * subsystem of this table, as the kernel gives it (kevent_attr_class() in
 * kernel/kevent_registry.c, whose table this one must equal). A class
 * device's directory is below one named after its class; a CPU's below
 * "cpu"; a USB device's below its bus's root hub, "usb<bus>" (the
 * attribute's own directory is no bus: it may be a network device named
 * usb0). Kobjects below /fs belong to the filesystems.
 */
static const struct {
	const char *subsystem;
	enum kevent_class cls;
} subsystem_classes[] = {
	{ "hwmon", KEVENT_CLASS_POWER },
	{ "power_supply", KEVENT_CLASS_POWER },
	{ "thermal", KEVENT_CLASS_POWER },
	{ "block", KEVENT_CLASS_STORAGE },
	{ "net", KEVENT_CLASS_NET },
	{ "cpu", KEVENT_CLASS_HOTPLUG },
	{ "typec", KEVENT_CLASS_HOTPLUG },
	{ "usb", KEVENT_CLASS_HOTPLUG },
};

/*
 * Whether @dir, @len bytes, names @subsystem; "usb" also names "usb<N>",
 * unless @own, the attribute's own directory.
 */
static bool dir_is(const char *dir, size_t len, bool own,
		   const char *subsystem)
{
	size_t n = strlen(subsystem);

	if (len < n || strncmp(dir, subsystem, n) != 0)
		return false;
	if (len == n)
		return true;
	if (own || strcmp(subsystem, "usb") != 0)
		return false;
	for (; n < len; n++)
		if (dir[n] < '0' || dir[n] > '9')
			return false;
	return true;
}

enum kevent_class kevent_path_class(const char *path, const char *name)
{
	const char *end, *dir;
	size_t i;

	if (!path)
		return kevent_attribute_class(name);
	if (strncmp(path, "/fs/", 4) == 0 || strcmp(path, "/fs") == 0)
		return KEVENT_CLASS_FS;
	/* From the attribute's directory up */
	end = path + strlen(path);
	while (end > path) {
		dir = end;
		while (dir > path && dir[-1] != '/')
			dir--;
		for (i = 0; i < sizeof(subsystem_classes) /
				sizeof(subsystem_classes[0]); i++)
			if (dir_is(dir, end - dir, *end == '\0',
				   subsystem_classes[i].subsystem))
				return subsystem_classes[i].cls;
		end = dir > path ? dir - 1 : path;
	}
	return kevent_attribute_class(name);
}
