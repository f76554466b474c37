/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent: definitions shared by the parts of kevent.ko.
 */
#ifndef _KEVENT_INTERNAL_H
#define _KEVENT_INTERNAL_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "uapi/kevent.h"

struct kernfs_node;

/**
 * struct kevent_source - an annotated attribute
 * @node: entry in &kevent_sources, in order of @id
 * @id: unique and increasing, lets a sources dump resume after any entry
 * @work: sends the event and wakes poll()ers of the attribute
 * @pending: notifications not yet reported
 * @kn: the attribute's kernfs node, referenced
 * @path: kobject path below /sys, taken when the source was added
 * @attr_id: registry id of the attribute's name
 * @class: class of its events
 */
struct kevent_source {
	struct list_head node;
	unsigned long id;
	struct work_struct work;
	atomic_t pending;
	struct kernfs_node *kn;
	char *path;
	u32 attr_id;
	enum kevent_class class;
};

/**
 * struct kevent_replay_entry - an event held for late listeners
 * @seq: its sequence number
 * @timestamp: CLOCK_BOOTTIME of the event, nanoseconds
 * @path: kobject path below /sys, owned by the entry
 * @attr_id: registry id of the attribute
 * @class: class of the event
 * @coalesced: notifications folded into the event
 */
struct kevent_replay_entry {
	u64 seq;
	u64 timestamp;
	char *path;
	u32 attr_id;
	enum kevent_class class;
	u32 coalesced;
};

/* kevent_main.c */
extern struct workqueue_struct *kevent_wq;
extern atomic64_t kevent_stat_sent;
extern atomic64_t kevent_stat_coalesced;
extern atomic64_t kevent_stat_failed;

/* kevent_registry.c */
int kevent_registry_lookup(const char *name);
const char *kevent_registry_name(u32 attr_id);
enum kevent_class kevent_registry_class(u32 attr_id);

/* kevent_source.c */
extern struct mutex kevent_sources_lock;
extern struct list_head kevent_sources;
extern unsigned int kevent_sources_count;
extern unsigned int kevent_sources_gen;
void kevent_sources_release_all(void);

/* kevent_replay.c */
int kevent_replay_init(void);
void kevent_replay_exit(void);
void kevent_replay_record(u64 seq, u64 timestamp, const char *path,
			  u32 attr_id, enum kevent_class class, u32 coalesced);
int kevent_replay_foreach(u64 after,
			  int (*fn)(const struct kevent_replay_entry *entry,
				    void *data),
			  void *data);

/* kevent_netlink.c */
int kevent_netlink_init(void);
void kevent_netlink_exit(void);
void kevent_emit(const char *path, u32 attr_id, enum kevent_class class,
		 u32 coalesced);

#endif /* _KEVENT_INTERNAL_H */
