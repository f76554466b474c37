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

#include <linux/atomic.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/rcuwait.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "../uapi/kevent.h"

/* The channel of a name the registry lists itself, not by a template */
#define KEVENT_NO_CHANNEL	U32_MAX

struct attribute;
struct device;
struct kernfs_node;
struct kevent_path;
struct kobject;

/**
 * struct kevent_source - an annotated attribute
 *
 * A driver embeds it in the data it owns, as it embeds a work_struct, and
 * registers it with kevent_source_register(); or kevent_source_add()
 * allocates one. Its fields are kevent's own. A source zeroed and never
 * registered, or unregistered, may still be notified: nothing happens.
 *
 * @node: entry in the list of sources, in order of @id
 * @hnode: entry in the table of sources by @kn, which refuses a second
 *	source of an attribute without walking every source
 * @id: unique and increasing, lets a sources dump resume after any entry
 * @work: sends the event and wakes poll()ers of the attribute, at once or
 *	when the source's coalescing window ends
 * @pending: notifications not yet reported
 * @users: 0 while the source is not registered; else 1, plus the
 *	notifiers in flight, which unregistering waits for
 * @closing: where the task unregistering the source waits for them
 * @last_sent: CLOCK_BOOTTIME of the last event the work sent, nanoseconds;
 *	only the work uses it
 * @sent: the work has sent an event, @last_sent is valid
 * @allocated: kevent_source_add() allocated it; freed when removed
 * @kn: the attribute's kernfs node, referenced
 * @path: kobject path below /sys, taken when the source was registered,
 *	shared with its events
 * @attr_id: registry id of the attribute's name
 * @channel: channel number of a name of a template of the registry
 *	(temp1_alarm of temp*_alarm), else %KEVENT_NO_CHANNEL
 * @class: class of its events
 */
struct kevent_source {
	struct list_head node;
	struct hlist_node hnode;
	unsigned long id;
	struct delayed_work work;
	atomic_t pending;
	atomic_t users;
	struct rcuwait closing;
	u64 last_sent;
	bool sent;
	bool allocated;
	struct kernfs_node *kn;
	struct kevent_path *path;
	u32 attr_id;
	u32 channel;
	enum kevent_class class;
};

int kevent_source_register(struct kevent_source *src, struct kobject *kobj,
			   const struct attribute *attr);
int kevent_source_register_class(struct kevent_source *src,
				 struct kobject *kobj,
				 const struct attribute *attr,
				 enum kevent_class class);
int devm_kevent_source_register(struct device *dev, struct kevent_source *src,
				const struct attribute *attr);
void kevent_source_unregister(struct kevent_source *src);
int kevent_source_move(struct kevent_source *src, struct kobject *kobj);

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
