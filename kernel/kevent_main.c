// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: attribute-based kernel events over generic netlink.
 *
 * Module setup and the counters reported by KEVENT_CMD_GET_STATS.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#include "kevent_internal.h"

struct workqueue_struct *kevent_wq;

atomic64_t kevent_stat_sent = ATOMIC64_INIT(0);
atomic64_t kevent_stat_coalesced = ATOMIC64_INIT(0);
atomic64_t kevent_stat_failed = ATOMIC64_INIT(0);
atomic64_t kevent_stat_unrecorded = ATOMIC64_INIT(0);

static int __init kevent_init(void)
{
	int ret;

	/*
	 * Ordered, so that events of all sources go out one at a time and
	 * listeners see sequence numbers in increasing order.
	 */
	kevent_wq = alloc_ordered_workqueue("kevent", 0);
	if (!kevent_wq)
		return -ENOMEM;

	ret = kevent_replay_init();
	if (ret)
		goto out_destroy_wq;

	ret = kevent_netlink_init();
	if (ret)
		goto out_replay_exit;

	return 0;

out_replay_exit:
	kevent_replay_exit();
out_destroy_wq:
	destroy_workqueue(kevent_wq);

	return ret;
}

static void __exit kevent_exit(void)
{
	/* Users of the API hold a reference on this module: none is left. */
	kevent_sources_release_all();
	kevent_netlink_exit();
	destroy_workqueue(kevent_wq);
	kevent_replay_exit();
}

module_init(kevent_init);
module_exit(kevent_exit);

MODULE_DESCRIPTION("Attribute-based kernel events over generic netlink");
MODULE_LICENSE("GPL");
