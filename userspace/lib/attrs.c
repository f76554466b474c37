// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names of classes and units of registered attributes.
 */
#include <errno.h>
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
};

#define KEVENT_ATTRIBUTE_ENTRY(id, name, cls, unit, desc) { name, unit },
static const struct attribute_entry attributes[KEVENT_ATTRIBUTE_COUNT] = {
	KEVENT_ATTRIBUTES(KEVENT_ATTRIBUTE_ENTRY)
};

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
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < KEVENT_ATTRIBUTE_COUNT; i++)
		if (strcmp(name, attributes[i].name) == 0)
			return attributes[i].unit;
	return NULL;
}

KEVENT_EXPORT int kevent_attribute_id(const char *name)
{
	size_t i;

	if (!name)
		return -ENOENT;
	for (i = 0; i < KEVENT_ATTRIBUTE_COUNT; i++)
		if (strcmp(name, attributes[i].name) == 0)
			return i;
	return -ENOENT;
}
