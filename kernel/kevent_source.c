// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: event sources, the attributes drivers annotate and notify.
 *
 * kevent_source_notify() only counts the notification and queues the
 * source's work, so it may be called from any context. The work reports all
 * notifications counted since it last ran as one event, whose COALESCED
 * attribute says how many were folded into it.
 *
 * Coalescing window: an event only says "go and read", so notifications of
 * one source can be folded without losing anything. The first notification
 * after a quiet time goes out at once; the ones that follow within
 * coalesce_ms of that event are folded into one trailing event, sent when
 * the window ends. A source thus sends at most one event per window, its
 * last change is always followed by an event, and its state is a counter
 * and a work item, whatever the rate.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/limits.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <kevent.h>

#include "kevent_internal.h"

static int kevent_coalesce_param_set(const char *val,
				     const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, KEVENT_COALESCE_MS_MAX);
}

static const struct kernel_param_ops kevent_coalesce_param_ops = {
	.set	= kevent_coalesce_param_set,
	.get	= param_get_uint,
};

static unsigned int coalesce_ms = 10;
module_param_cb(coalesce_ms, &kevent_coalesce_param_ops, &coalesce_ms, 0644);
MODULE_PARM_DESC(coalesce_ms,
		 "Window in which notifications of a source are folded into one event (0 to 10000 ms, 0 folds only while an event is queued, default 10)");

/*
 * Protects the list of sources, their count, and their generation, which
 * changes with the list and starts at 1 (see nl_dump_check_consistent()).
 */
DEFINE_MUTEX(kevent_sources_lock);
LIST_HEAD(kevent_sources);
unsigned int kevent_sources_count;
unsigned int kevent_sources_gen = 1;
static unsigned long kevent_sources_next_id;
/* The sources by attribute file, under kevent_sources_lock too */
static DEFINE_HASHTABLE(kevent_sources_by_kn, 10);

/* The attribute file @name of @kobj, referenced, or an ERR_PTR() */
static struct kernfs_node *kevent_find_attr(struct kobject *kobj,
					    const char *name)
{
	struct kernfs_node *kn;

	if (!kobj->sd)
		return ERR_PTR(-ENOENT);

	kn = kernfs_find_and_get(kobj->sd, name);
	if (!kn)
		return ERR_PTR(-ENOENT);

	if (kernfs_type(kn) != KERNFS_FILE) {
		kernfs_put(kn);
		return ERR_PTR(-ENOENT);
	}

	return kn;
}

/* The path of @kobj below /sys, or an ERR_PTR() */
static char *kevent_get_path(struct kobject *kobj)
{
	char *path;

	path = kobject_get_path(kobj, GFP_KERNEL);
	if (!path)
		return ERR_PTR(-ENOMEM);

	if (strlen(path) >= KEVENT_PATH_MAX) {
		kfree(path);
		return ERR_PTR(-ENAMETOOLONG);
	}

	return path;
}

/**
 * kevent_coalesce_wait - time left in a source's coalescing window
 * @now: the current CLOCK_BOOTTIME, nanoseconds
 * @last_sent: CLOCK_BOOTTIME of the source's last event, nanoseconds
 * @sent: the source has sent an event, @last_sent is valid
 * @window: the coalescing window, nanoseconds
 *
 * Return: 0 if the source may send an event now, else the nanoseconds
 * until its window ends.
 */
u64 kevent_coalesce_wait(u64 now, u64 last_sent, bool sent, u64 window)
{
	u64 elapsed;

	if (!sent || !window)
		return 0;

	/* A clock that went backwards counts as no time elapsed */
	elapsed = now > last_sent ? now - last_sent : 0;

	return elapsed >= window ? 0 : window - elapsed;
}
KEVENT_EXPORT_FOR_KUNIT(kevent_coalesce_wait);

/*
 * Report the notifications counted as one event, and start the window from
 * it; false if there were none.
 */
static bool kevent_source_send(struct kevent_source *src)
{
	unsigned int count;

	count = atomic_xchg(&src->pending, 0);
	if (!count)
		return false;

	if (count > 1)
		atomic64_add(count - 1, &kevent_stat_coalesced);

	kernfs_notify(src->kn);
	/*
	 * The window runs from the event's own timestamp, so that listeners
	 * see consecutive events of a source at least a window apart.
	 */
	src->last_sent = kevent_emit(src->path, src->attr_id, src->class,
				     count - 1);
	src->sent = true;

	return true;
}

static void kevent_source_work(struct work_struct *work)
{
	struct kevent_source *src = container_of(to_delayed_work(work),
						 struct kevent_source, work);
	u64 window = (u64)READ_ONCE(coalesce_ms) * NSEC_PER_MSEC;
	u64 now = ktime_get_boottime_ns();
	u64 wait;

	/*
	 * Within the window, fold: come back when it ends. The timer may fire
	 * up to a tick early, so the check is made again then.
	 */
	wait = kevent_coalesce_wait(now, src->last_sent, src->sent, window);
	if (wait) {
		queue_delayed_work(kevent_wq, &src->work,
				   nsecs_to_jiffies(wait) + 1);
		return;
	}

	kevent_source_send(src);
}

/*
 * Send the event of the notifications counted, now, even within the window:
 * the source is going away. Its work may requeue itself while the window
 * lasts, so cancel it (waiting for a run in progress) and report what is left
 * from here.
 */
static void kevent_source_flush(struct kevent_source *src)
{
	cancel_delayed_work_sync(&src->work);
	kevent_source_send(src);
}

static void kevent_source_free(struct kevent_source *src)
{
	kernfs_put(src->kn);
	kfree(src->path);
	kfree(src);
}

/**
 * kevent_source_add_class - annotate an attribute as a source of a class
 * @kobj: the kobject, already in sysfs
 * @attr: one of @kobj's attributes; its name must be in the registry
 * @class: class of the source's events, in place of the registry's
 *
 * As kevent_source_add(), for an attribute whose events belong to another
 * class than the registry gives its name, such as the online attribute of
 * a power supply.
 *
 * Context: Process context.
 * Return: the new source, or an ERR_PTR() as kevent_source_add(); also
 * -EINVAL if @class is greater than %KEVENT_CLASS_MAX.
 */
struct kevent_source *kevent_source_add_class(struct kobject *kobj,
					      const struct attribute *attr,
					      enum kevent_class class)
{
	struct kevent_source *src, *iter;
	struct kernfs_node *kn;
	int attr_id;
	char *path;
	int ret;

	might_sleep();

	if (!kobj || !attr || class > KEVENT_CLASS_MAX)
		return ERR_PTR(-EINVAL);

	attr_id = kevent_registry_lookup(attr->name);
	if (attr_id < 0)
		return ERR_PTR(attr_id);

	kn = kevent_find_attr(kobj, attr->name);
	if (IS_ERR(kn))
		return ERR_CAST(kn);

	path = kevent_get_path(kobj);
	if (IS_ERR(path)) {
		ret = PTR_ERR(path);
		goto out_put_kn;
	}

	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src) {
		ret = -ENOMEM;
		goto out_free_path;
	}
	INIT_DELAYED_WORK(&src->work, kevent_source_work);
	atomic_set(&src->pending, 0);
	src->kn = kn;
	src->path = path;
	src->attr_id = attr_id;
	src->class = class;

	mutex_lock(&kevent_sources_lock);
	hash_for_each_possible(kevent_sources_by_kn, iter, hnode,
			       (unsigned long)kn) {
		if (iter->kn == kn) {
			mutex_unlock(&kevent_sources_lock);
			kfree(src);
			ret = -EEXIST;
			goto out_free_path;
		}
	}
	src->id = ++kevent_sources_next_id;
	list_add_tail(&src->node, &kevent_sources);
	hash_add(kevent_sources_by_kn, &src->hnode, (unsigned long)kn);
	kevent_sources_count++;
	kevent_sources_gen++;
	mutex_unlock(&kevent_sources_lock);

	return src;

out_free_path:
	kfree(path);
out_put_kn:
	kernfs_put(kn);

	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(kevent_source_add_class);

/**
 * kevent_source_add - annotate an attribute as an event source
 * @kobj: the kobject, already in sysfs
 * @attr: one of @kobj's attributes; its name must be in the registry
 *
 * The source is listed in the sources dump until kevent_source_remove(). Its
 * events belong to the class the registry gives the attribute's name.
 * The kobject's path is taken now: a kobject that is renamed or moved must
 * have its sources removed and added again.
 *
 * Context: Process context.
 * Return: the new source, or an ERR_PTR(): -EINVAL if the attribute's name
 * is not in the registry or contains a '/', -ENOENT if @kobj has no such
 * attribute file, -EEXIST if it is already a source, -ENOMEM.
 */
struct kevent_source *kevent_source_add(struct kobject *kobj,
					const struct attribute *attr)
{
	int attr_id;

	if (!attr)
		return ERR_PTR(-EINVAL);

	attr_id = kevent_registry_lookup(attr->name);
	if (attr_id < 0)
		return ERR_PTR(attr_id);

	return kevent_source_add_class(kobj, attr,
				       kevent_registry_class(attr_id));
}
EXPORT_SYMBOL_GPL(kevent_source_add);

/**
 * kevent_source_remove - remove an event source
 * @src: source from kevent_source_add(); NULL or an ERR_PTR() is ignored
 *
 * Waits until the event of a notification made before the call is sent,
 * ending the source's coalescing window early: none is dropped. @src must
 * not be notified once this call has started.
 *
 * Context: Process context.
 */
void kevent_source_remove(struct kevent_source *src)
{
	might_sleep();

	if (IS_ERR_OR_NULL(src))
		return;

	mutex_lock(&kevent_sources_lock);
	list_del(&src->node);
	hash_del(&src->hnode);
	kevent_sources_count--;
	kevent_sources_gen++;
	mutex_unlock(&kevent_sources_lock);

	kevent_source_flush(src);
	kevent_source_free(src);
}
EXPORT_SYMBOL_GPL(kevent_source_remove);

static void kevent_source_devm_remove(void *src)
{
	kevent_source_remove(src);
}

/**
 * devm_kevent_source_add - annotate a device attribute as an event source
 * @dev: the device, already in sysfs
 * @attr: one of @dev's attributes; its name must be in the registry
 *
 * As kevent_source_add() for @dev's kobject; the source is removed when the
 * driver is detached from @dev.
 *
 * Context: Process context.
 * Return: the new source, or an ERR_PTR() as kevent_source_add().
 */
struct kevent_source *devm_kevent_source_add(struct device *dev,
					     const struct attribute *attr)
{
	struct kevent_source *src;
	int ret;

	if (!dev)
		return ERR_PTR(-EINVAL);

	src = kevent_source_add(&dev->kobj, attr);
	if (IS_ERR(src))
		return src;

	ret = devm_add_action_or_reset(dev, kevent_source_devm_remove, src);
	if (ret)
		return ERR_PTR(ret);

	return src;
}
EXPORT_SYMBOL_GPL(devm_kevent_source_add);

/**
 * kevent_source_notify - report that an event source's value changed
 * @src: source from kevent_source_add()
 *
 * The event is sent, and poll()ers of the attribute woken, shortly after
 * from process context: at once if the source sent no event in the last
 * coalesce_ms milliseconds, else when that window ends. Notifications made
 * before that are folded into the same event.
 *
 * Context: Any context, including hard interrupt handlers and with
 * spinlocks held. Does not sleep or allocate.
 * Return: 0, or -EINVAL if @src is NULL or an ERR_PTR().
 */
int kevent_source_notify(struct kevent_source *src)
{
	if (IS_ERR_OR_NULL(src))
		return -EINVAL;

	atomic_inc(&src->pending);
	queue_delayed_work(kevent_wq, &src->work, 0);

	return 0;
}
EXPORT_SYMBOL_GPL(kevent_source_notify);

/**
 * kevent_notify - report a change of an attribute that is not a source
 * @kobj: the kobject, in sysfs
 * @attr: name of one of @kobj's attributes; it must be in the registry
 *
 * Sends the event and wakes poll()ers of the attribute before returning.
 *
 * Context: Process context.
 * Return: 0 once the event is sent (or counted as failed, see the stats),
 * -EINVAL if @attr is not in the registry or contains a '/', -ENOENT if
 * @kobj has no such attribute file, -ENOMEM. Nothing is sent on error.
 */
int kevent_notify(struct kobject *kobj, const char *attr)
{
	struct kernfs_node *kn;
	int attr_id;
	char *path;

	might_sleep();

	if (!kobj)
		return -EINVAL;

	attr_id = kevent_registry_lookup(attr);
	if (attr_id < 0)
		return attr_id;

	kn = kevent_find_attr(kobj, attr);
	if (IS_ERR(kn))
		return PTR_ERR(kn);

	path = kevent_get_path(kobj);
	if (IS_ERR(path)) {
		kernfs_put(kn);
		return PTR_ERR(path);
	}

	kernfs_notify(kn);
	kevent_emit(path, attr_id, kevent_registry_class(attr_id), 0);

	kfree(path);
	kernfs_put(kn);

	return 0;
}
EXPORT_SYMBOL_GPL(kevent_notify);

/**
 * kevent_sources_memory - memory the sources take
 * @ret_count: the number of sources
 *
 * Context: Process context.
 * Return: the bytes allocated for the sources and their paths.
 */
size_t kevent_sources_memory(unsigned int *ret_count)
{
	struct kevent_source *src;
	size_t bytes = 0;

	mutex_lock(&kevent_sources_lock);
	list_for_each_entry(src, &kevent_sources, node)
		bytes += ksize(src) + ksize(src->path);
	*ret_count = kevent_sources_count;
	mutex_unlock(&kevent_sources_lock);

	return bytes;
}

/* Sources left at module exit: only if a user forgot to remove them */
void kevent_sources_release_all(void)
{
	struct kevent_source *src, *tmp;
	LIST_HEAD(list);

	mutex_lock(&kevent_sources_lock);
	list_for_each_entry(src, &kevent_sources, node)
		hash_del(&src->hnode);
	list_splice_init(&kevent_sources, &list);
	kevent_sources_count = 0;
	kevent_sources_gen++;
	mutex_unlock(&kevent_sources_lock);

	list_for_each_entry_safe(src, tmp, &list, node) {
		pr_warn("source %s/%s still registered at exit\n", src->path,
			kevent_registry_name(src->attr_id));
		list_del(&src->node);
		kevent_source_flush(src);
		kevent_source_free(src);
	}
}
