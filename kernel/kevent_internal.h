/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent: definitions shared by the parts of kevent.ko.
 */
#ifndef _KEVENT_INTERNAL_H
#define _KEVENT_INTERNAL_H

#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "kevent_compat.h"
#include "include/kevent.h"
#include "uapi/kevent.h"

struct kernfs_node;
struct kobject;
struct seq_file;
struct sk_buff;

/* Longest coalescing window the coalesce_ms module parameter allows */
#define KEVENT_COALESCE_MS_MAX		10000

/**
 * struct kevent_path - the kobject path, and name, of an attribute's events
 * @ref: the source owning it, each event being sent, each replay record
 * @name: the attribute's name when the registry does not list it (stored
 *	after @path), else NULL: the event names it by its registry id
 * @path: kobject path below /sys, shorter than %KEVENT_PATH_MAX
 */
struct kevent_path {
	refcount_t ref;
	const char *name;
	char path[];
};

/**
 * struct kevent_record - an event, as sent and as held for late listeners
 * @seq: its sequence number, one counter for all classes
 * @class_seq: its sequence number within its class
 * @timestamp: CLOCK_BOOTTIME of the event, nanoseconds
 * @path: its kobject path, and the attribute's name when the registry does
 *	not list it (@attr_id is %KEVENT_ATTR_ID_NONE); an entry of the
 *	replay ring holds a reference
 * @attr_id: registry id of the attribute, or %KEVENT_ATTR_ID_NONE
 * @channel: channel number of a name of a template of the registry, else
 *	%KEVENT_NO_CHANNEL
 * @class: class of the event
 * @coalesced: notifications folded into the event
 * @restricted: the attribute is not readable by others than its owner and
 *	group: the replay lists it only to CAP_SYS_ADMIN
 */
struct kevent_record {
	u64 seq;
	u64 class_seq;
	u64 timestamp;
	struct kevent_path *path;
	u32 attr_id;
	u32 channel;
	enum kevent_class class;
	u32 coalesced;
	bool restricted;
};

/* kevent_main.c */
extern struct workqueue_struct *kevent_wq;
extern bool kevent_up;
extern atomic64_t kevent_stat_sent;
extern atomic64_t kevent_stat_coalesced;
extern atomic64_t kevent_stat_failed;

/**
 * kevent_layer_up - whether kevent_init() has set the layer up
 *
 * The API's entry points that make a source or send an event refuse with
 * -ENODEV when it has not: built in, its init may have failed.
 *
 * Return: true once the layer is up, until its module's exit.
 */
static inline bool kevent_layer_up(void)
{
	/* Pairs with the release in kevent_init(): seen up, seen whole */
	return smp_load_acquire(&kevent_up);
}

/* kevent_registry.c */
int kevent_registry_lookup(const char *name, u32 *ret_channel);
const char *kevent_registry_name(u32 attr_id, u32 channel,
				 char buf[KEVENT_ATTR_NAME_MAX]);
enum kevent_class kevent_registry_class(u32 attr_id);
int kevent_registry_entry(u32 attr_id, const char **ret_name,
			  const char **ret_unit, enum kevent_class *ret_class);
enum kevent_class kevent_attr_class(const char *path, int attr_id);

/* kevent_source.c */
extern struct mutex kevent_sources_lock;
extern struct list_head kevent_sources;
extern unsigned int kevent_sources_count;
extern unsigned int kevent_sources_gen;
void kevent_sources_release_all(void);
size_t kevent_sources_memory(unsigned int *ret_count);
u64 kevent_coalesce_wait(u64 now, u64 last_sent, bool sent, u64 window);
u64 kevent_coalesce_window(void);
void kevent_source_put_use(struct kevent_source *src);

/* kevent_kernfs.c */
void kevent_kernfs_init(void);
void kevent_kernfs_exit(void);
void kevent_kernfs_notify(struct kernfs_node *kn);
void kevent_kernfs_note(struct kernfs_node *kn);
void kevent_kernfs_note_nmi(void);
void kevent_kernfs_bind(void);
void kevent_kernfs_unbind(void);
void kevent_kernfs_recheck_windows(void);
void kevent_kernfs_stats_show(struct seq_file *m);

/*
 * The hook on kernfs_notify(): kevent_kernfs_probe.c in the module, a static
 * key in a kernel built with the layer
 */
int kevent_kernfs_hook_register(void);
void kevent_kernfs_hook_unregister(void);
int kevent_kernfs_hook_arm(bool on);
bool kevent_kernfs_hook_arms_at_once(void);
bool kevent_kernfs_hook_armed(void);

/* kevent_path.c */
struct kevent_path *kevent_path_new(const char *path, const char *name);
struct kevent_path *kevent_path_of(struct kobject *kobj);
void kevent_path_put(struct kevent_path *kp);

/**
 * kevent_path_get - take a reference to a path
 * @kp: the path, or NULL
 *
 * Context: Any context.
 * Return: @kp.
 */
static inline struct kevent_path *kevent_path_get(struct kevent_path *kp)
{
	if (kp)
		refcount_inc(&kp->ref);
	return kp;
}

/* kevent_replay.c */
int kevent_replay_init(void);
void kevent_replay_exit(void);
size_t kevent_replay_memory(unsigned int *ret_count);
struct kevent_path *kevent_replay_record(const struct kevent_record *rec);
int kevent_replay_foreach(u64 after,
			  int (*fn)(const struct kevent_record *rec,
				    void *data),
			  void *data, bool *ret_evicted);

/* kevent_netlink.c */
int kevent_netlink_init(void);
void kevent_netlink_exit(void);
u64 kevent_emit(struct kevent_path *path, u32 attr_id, u32 channel,
		enum kevent_class class, u32 coalesced, bool restricted);
void kevent_emit_lost(unsigned int count);
bool kevent_attr_restricted(struct kernfs_node *kn);
size_t kevent_event_size(const char *path, const char *name);
int kevent_put_event(struct sk_buff *msg, const struct kevent_record *rec);
extern bool kevent_nl_hears_binds;
bool kevent_nl_has_listeners(void);

#endif /* _KEVENT_INTERNAL_H */
