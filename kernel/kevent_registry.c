// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the registry of event attribute names, generated from
 * attributes.txt. An attribute's id is its position in the registry.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "kevent_internal.h"
#include "kevent_attrs.h"

struct kevent_attr_desc {
	const char *name;
	enum kevent_class class;
};

#define KEVENT_ATTR_DESC(_id, _name, _class, _unit, _desc) \
	[_id] = { .name = _name, .class = _class },

static const struct kevent_attr_desc kevent_registry[] = {
	KEVENT_ATTRIBUTES(KEVENT_ATTR_DESC)
};

static_assert(ARRAY_SIZE(kevent_registry) == KEVENT_ATTRIBUTE_COUNT);

/**
 * kevent_registry_lookup - find an attribute name in the registry
 * @name: attribute name, as in sysfs
 *
 * Context: Any context.
 * Return: the attribute id, or -EINVAL if @name is NULL, empty, too long,
 * contains a '/' or is not in the registry.
 */
int kevent_registry_lookup(const char *name)
{
	size_t len;
	int i;

	if (!name)
		return -EINVAL;
	len = strnlen(name, KEVENT_ATTR_NAME_MAX);
	if (!len || len == KEVENT_ATTR_NAME_MAX || strchr(name, '/'))
		return -EINVAL;

	for (i = 0; i < ARRAY_SIZE(kevent_registry); i++)
		if (!strcmp(kevent_registry[i].name, name))
			return i;

	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_registry_lookup);

/**
 * kevent_registry_name - name of a registered attribute
 * @attr_id: attribute id returned by kevent_registry_lookup()
 *
 * Context: Any context.
 * Return: the attribute's name.
 */
const char *kevent_registry_name(u32 attr_id)
{
	return kevent_registry[attr_id].name;
}
EXPORT_SYMBOL_IF_KUNIT(kevent_registry_name);

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
