// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: how a kernel built with the layer hears of kernfs_notify(). The
 * function calls kevent_kernfs_note() itself, behind a static key that is
 * on only while the family has a listener (kevent_kernfs_bind()): while
 * nobody listens, kernfs_notify() passes over a jump that is not taken.
 */

#include <linux/jump_label.h>
#include <linux/kevent_kernfs.h>

#include "kevent_internal.h"

DEFINE_STATIC_KEY_FALSE(kevent_kernfs_key);

/* The key is off until a listener comes */
int kevent_kernfs_hook_register(void)
{
	return 0;
}

void kevent_kernfs_hook_unregister(void)
{
	static_branch_disable(&kevent_kernfs_key);
}

/*
 * Context: process context, under kevent_kernfs.c's arming lock. The key
 * is left alone when it is so already.
 */
int kevent_kernfs_hook_arm(bool on)
{
	if (on)
		static_branch_enable(&kevent_kernfs_key);
	else
		static_branch_disable(&kevent_kernfs_key);
	return 0;
}

/* static_branch_enable() returns with the branch patched in */
bool kevent_kernfs_hook_arms_at_once(void)
{
	return true;
}

bool kevent_kernfs_hook_armed(void)
{
	return static_key_enabled(&kevent_kernfs_key);
}
