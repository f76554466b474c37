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
	enum kevent_class class;
};

#define KEVENT_ATTR_DESC(_id, _name, _class, _unit, _desc) \
	[_id] = { .name = _name, .class = _class },

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
