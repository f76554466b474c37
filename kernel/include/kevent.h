/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent: attribute-based kernel events, in-kernel API.
 *
 * A driver annotates a sysfs attribute of one of its kobjects as an event
 * source and notifies it when the value changes. kevent then tells user space
 * the kobject's path and the attribute's name over generic netlink, and wakes
 * poll()ers of the attribute file. Attribute names must be listed in the
 * registry (attributes.txt).
 */
#ifndef _KEVENT_H
#define _KEVENT_H

#include "../uapi/kevent.h"

struct attribute;
struct device;
struct kobject;
struct kevent_source;

struct kevent_source *kevent_source_add(struct kobject *kobj,
					const struct attribute *attr);
struct kevent_source *kevent_source_add_class(struct kobject *kobj,
					      const struct attribute *attr,
					      enum kevent_class class);
struct kevent_source *devm_kevent_source_add(struct device *dev,
					     const struct attribute *attr);
void kevent_source_remove(struct kevent_source *src);
int kevent_source_notify(struct kevent_source *src);
int kevent_notify(struct kobject *kobj, const char *attr);

#endif /* _KEVENT_H */
