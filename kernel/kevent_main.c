// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: attribute-based kernel events over generic netlink.
 *
 * Module setup, the counters reported by KEVENT_CMD_GET_STATS, and in
 * debugfs the memory the layer takes (kevent/memory) and the counters of
 * the probe on kernfs_notify() (kevent/sysfs_notify).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include "kevent_internal.h"

struct workqueue_struct *kevent_wq;

/*
 * Whether the layer is up, set once kevent_init() has done all it does
 * (see kevent_layer_up()). Built in, an init that failed leaves the kernel
 * running with the drivers that call the API: they find the layer down,
 * and neither queue on its freed workqueue nor send through its
 * unregistered family.
 */
bool kevent_up;
EXPORT_SYMBOL_IF_KUNIT(kevent_up);

atomic64_t kevent_stat_sent = ATOMIC64_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(kevent_stat_sent);
atomic64_t kevent_stat_coalesced = ATOMIC64_INIT(0);
atomic64_t kevent_stat_failed = ATOMIC64_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(kevent_stat_failed);

static struct dentry *kevent_debugfs;

/* The memory the sources and the replay ring take, in bytes */
static int kevent_memory_show(struct seq_file *m, void *v)
{
	unsigned int sources, events;
	size_t source_bytes, replay_bytes;

	source_bytes = kevent_sources_memory(&sources);
	replay_bytes = kevent_replay_memory(&events);
	seq_printf(m, "sources %u\nsource_bytes %zu\n", sources, source_bytes);
	seq_printf(m, "replay_events %u\nreplay_bytes %zu\n", events,
		   replay_bytes);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kevent_memory);

/* The counters of the probe on kernfs_notify() (kevent_kernfs.c) */
static int kevent_sysfs_notify_show(struct seq_file *m, void *v)
{
	kevent_kernfs_stats_show(m);

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kevent_sysfs_notify);

static int __init kevent_init(void)
{
	int ret;

	/*
	 * Not ordered: the sources' works run on as many CPUs as there are
	 * (unbound, as they only build and send messages). kevent_emit()
	 * numbers and sends each event under one lock, so listeners still
	 * see sequence numbers in increasing order; a work item never runs
	 * on two CPUs at once, so each source's events, and the table of
	 * kernfs_notify()'s nodes, are handled one at a time.
	 */
	kevent_wq = alloc_workqueue("kevent", WQ_UNBOUND, 0);
	if (!kevent_wq)
		return -ENOMEM;

	ret = kevent_replay_init();
	if (ret)
		goto out_destroy_wq;

	ret = kevent_netlink_init();
	if (ret)
		goto out_replay_exit;

	kevent_kernfs_init();

	kevent_debugfs = debugfs_create_dir("kevent", NULL);
	debugfs_create_file("memory", 0400, kevent_debugfs, NULL,
			    &kevent_memory_fops);
	debugfs_create_file("sysfs_notify", 0400, kevent_debugfs, NULL,
			    &kevent_sysfs_notify_fops);

	/* Pairs with kevent_layer_up(): all of the above is seen done */
	smp_store_release(&kevent_up, true);

	return 0;

out_replay_exit:
	kevent_replay_exit();
out_destroy_wq:
	destroy_workqueue(kevent_wq);
	kevent_wq = NULL;

	return ret;
}

static void __exit kevent_exit(void)
{
	WRITE_ONCE(kevent_up, false);
	debugfs_remove_recursive(kevent_debugfs);
	kevent_kernfs_exit();
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
