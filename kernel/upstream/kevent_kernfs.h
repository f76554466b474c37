/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent's hook in kernfs_notify(): while a listener is bound to the
 * "kevent" family, each announcement of an attribute of sysfs is a kevent
 * event (lib/kevent/kevent_kernfs.c); otherwise the hook is a jump not
 * taken.
 */
#ifndef _LINUX_KEVENT_KERNFS_H
#define _LINUX_KEVENT_KERNFS_H

#include <linux/jump_label.h>

struct kernfs_node;

#if IS_ENABLED(CONFIG_KEVENT)
DECLARE_STATIC_KEY_FALSE(kevent_kernfs_key);
void kevent_kernfs_note(struct kernfs_node *kn);

static inline void kevent_kernfs_announce(struct kernfs_node *kn)
{
	if (static_branch_unlikely(&kevent_kernfs_key))
		kevent_kernfs_note(kn);
}
#else
static inline void kevent_kernfs_announce(struct kernfs_node *kn)
{
}
#endif

#endif /* _LINUX_KEVENT_KERNFS_H */
