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
#include <linux/rcupdate.h>
#include <linux/rcuwait.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <kevent.h>

#include "kevent_internal.h"

static void kevent_sources_recheck_windows(void);

/*
 * A new window applies to the windows open too: the sources waiting for
 * theirs to end look at it again now (a longer one sends nothing earlier).
 */
static int kevent_coalesce_param_set(const char *val,
				     const struct kernel_param *kp)
{
	int ret;

	ret = param_set_uint_minmax(val, kp, 0, KEVENT_COALESCE_MS_MAX);
	if (!ret) {
		kevent_sources_recheck_windows();
		kevent_kernfs_recheck_windows();
	}

	return ret;
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
EXPORT_SYMBOL_IF_KUNIT(kevent_sources_count);
unsigned int kevent_sources_gen = 1;
static unsigned long kevent_sources_next_id;
/* The sources by attribute file, under kevent_sources_lock too */
static DEFINE_HASHTABLE(kevent_sources_by_kn, 10);
/*
 * Held by the sources' work to take a reference to a source's path, and
 * with kevent_sources_lock by kevent_source_move() to change it.
 */
static DEFINE_SPINLOCK(kevent_source_paths_lock);

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

/**
 * kevent_attr_restricted - whether an attribute is kept from the dumps
 * @kn: the attribute's file
 *
 * The dumps of the sources and of the replay ring list an attribute that
 * others than its owner and group cannot read only to CAP_SYS_ADMIN: they
 * would tell an unprivileged user which private attributes exist and when
 * they changed. Its live events go to every listener, as its uevents and
 * inotify on its directory do; no event carries a value.
 *
 * Return: true if @kn is not readable by others.
 */
bool kevent_attr_restricted(struct kernfs_node *kn)
{
	return !(kn->mode & 0004);
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
EXPORT_SYMBOL_IF_KUNIT(kevent_coalesce_wait);

/**
 * kevent_coalesce_window - the coalescing window
 *
 * Context: Any context.
 * Return: the window of the coalesce_ms parameter, in nanoseconds.
 */
u64 kevent_coalesce_window(void)
{
	return (u64)READ_ONCE(coalesce_ms) * NSEC_PER_MSEC;
}

/*
 * Report the notifications counted as one event, and start the window from
 * it; false if there were none.
 */
static bool kevent_source_send(struct kevent_source *src)
{
	struct kevent_path *path;
	unsigned int count;

	count = atomic_xchg(&src->pending, 0);
	if (!count)
		return false;

	if (count > 1)
		atomic64_add(count - 1, &kevent_stat_coalesced);

	kevent_kernfs_notify(src->kn);

	spin_lock(&kevent_source_paths_lock);
	path = kevent_path_get(src->path);
	spin_unlock(&kevent_source_paths_lock);
	/*
	 * The window runs from the event's own timestamp, so that listeners
	 * see consecutive events of a source at least a window apart.
	 */
	src->last_sent = kevent_emit(path, src->attr_id, src->channel,
				     src->class, count - 1,
				     kevent_attr_restricted(src->kn));
	kevent_path_put(path);
	src->sent = true;

	return true;
}

static void kevent_source_work(struct work_struct *work)
{
	struct kevent_source *src = container_of(to_delayed_work(work),
						 struct kevent_source, work);
	u64 window = kevent_coalesce_window();
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

/*
 * Make every source waiting for the end of its coalescing window look at the
 * window again. Sources waiting with nothing pending are left be.
 */
static void kevent_sources_recheck_windows(void)
{
	struct kevent_source *src;

	mutex_lock(&kevent_sources_lock);
	list_for_each_entry(src, &kevent_sources, node)
		if (delayed_work_pending(&src->work))
			mod_delayed_work(kevent_wq, &src->work, 0);
	mutex_unlock(&kevent_sources_lock);
}

/*
 * kevent_source_register_as - kevent_source_register_class(), or with a
 * negative @class, kevent_source_register(): the class kevent_attr_class()
 * gives the attribute.
 */
static int kevent_source_register_as(struct kevent_source *src,
				     struct kobject *kobj,
				     const struct attribute *attr, int class)
{
	struct kevent_source *iter;
	struct kevent_path *path;
	struct kernfs_node *kn;
	u32 channel;
	int attr_id;
	int ret;

	might_sleep();

	if (!src || !kobj || !attr)
		return -EINVAL;

	if (!kevent_layer_up())
		return -ENODEV;

	attr_id = kevent_registry_lookup(attr->name, &channel);
	if (attr_id < 0)
		return attr_id;

	kn = kevent_find_attr(kobj, attr->name);
	if (IS_ERR(kn))
		return PTR_ERR(kn);

	path = kevent_path_of(kobj);
	if (IS_ERR(path)) {
		ret = PTR_ERR(path);
		goto out_put_kn;
	}

	mutex_lock(&kevent_sources_lock);
	/*
	 * Both checks come before @src is written: a source registered
	 * already is live, its work may be queued and its path in use.
	 */
	if (hash_hashed(&src->hnode)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	hash_for_each_possible(kevent_sources_by_kn, iter, hnode,
			       (unsigned long)kn) {
		if (iter->kn == kn) {
			ret = -EEXIST;
			goto out_unlock;
		}
	}

	INIT_DELAYED_WORK(&src->work, kevent_source_work);
	atomic_set(&src->pending, 0);
	src->last_sent = 0;
	src->sent = false;
	src->kn = kn;
	src->path = path;
	src->attr_id = attr_id;
	src->channel = channel;
	src->class = class < 0 ? kevent_attr_class(path->path, attr_id) : class;
	src->id = ++kevent_sources_next_id;
	list_add_tail(&src->node, &kevent_sources);
	hash_add(kevent_sources_by_kn, &src->hnode, (unsigned long)kn);
	kevent_sources_count++;
	kevent_sources_gen++;
	rcuwait_init(&src->closing);
	/* Notifications count from here: the source is whole */
	atomic_set_release(&src->users, 1);
	mutex_unlock(&kevent_sources_lock);

	return 0;

out_unlock:
	mutex_unlock(&kevent_sources_lock);
	kevent_path_put(path);
out_put_kn:
	kernfs_put(kn);

	return ret;
}

/**
 * kevent_source_register_class - annotate an attribute, in a source the
 *	caller owns, as a source of a class
 * @src: the source, zeroed or unregistered; it must stay allocated until
 *	nothing can notify it any more, after kevent_source_unregister()
 * @kobj: the kobject, already in sysfs
 * @attr: one of @kobj's attributes; its name must be in the registry
 * @class: class of the source's events, in place of the one
 *	kevent_source_register() gives them
 *
 * As kevent_source_register(), for an attribute whose events belong to
 * another class than its device's subsystem or its name gives them.
 *
 * Context: Process context.
 * Return: 0, or an error as kevent_source_register(); also -EINVAL if
 * @class is greater than %KEVENT_CLASS_MAX.
 */
int kevent_source_register_class(struct kevent_source *src,
				 struct kobject *kobj,
				 const struct attribute *attr,
				 enum kevent_class class)
{
	if (class > KEVENT_CLASS_MAX)
		return -EINVAL;

	return kevent_source_register_as(src, kobj, attr, class);
}
EXPORT_SYMBOL_GPL(kevent_source_register_class);

/**
 * kevent_source_register - annotate an attribute as an event source, in a
 *	source the caller owns
 * @src: the source, zeroed or unregistered, typically embedded in the
 *	driver's data; it must stay allocated until nothing can notify it any
 *	more, after kevent_source_unregister()
 * @kobj: the kobject, already in sysfs
 * @attr: one of @kobj's attributes; its name must be in the registry
 *
 * The source is listed in the sources dump until kevent_source_unregister().
 * Its events belong to the class of the subsystem the kobject belongs to
 * (a power supply's online to power, a CPU's to hotplug), or else to the
 * class the registry gives the attribute's name: see kevent_attr_class().
 * The kobject's path is taken now: once the kobject is renamed or moved,
 * kevent_source_move() takes it again.
 *
 * A source the driver owns can be notified before it is registered, while
 * it is unregistered and after: nothing happens then. So an interrupt or a
 * timer that notifies it may outlive the registration, as long as it stops
 * before the memory holding @src is freed.
 *
 * Context: Process context.
 * Return: 0, or -EINVAL if the attribute's name is not in the registry or
 * contains a '/', -ENOENT if @kobj has no such attribute file, -EEXIST if
 * it is already a source, -EBUSY if @src is registered already (it is left
 * as it was), -ENAMETOOLONG if the kobject's path is %KEVENT_PATH_MAX bytes
 * or longer, -ENODEV if the layer did not start, -ENOMEM.
 */
int kevent_source_register(struct kevent_source *src, struct kobject *kobj,
			   const struct attribute *attr)
{
	return kevent_source_register_as(src, kobj, attr, -1);
}
EXPORT_SYMBOL_GPL(kevent_source_register);

/* Take @src off the list of sources, under kevent_sources_lock */
static void kevent_source_unlist(struct kevent_source *src)
{
	lockdep_assert_held(&kevent_sources_lock);

	list_del(&src->node);
	hash_del(&src->hnode);
	kevent_sources_count--;
	kevent_sources_gen++;
}

/*
 * Close @src to new notifications, wait for those in flight, send the event
 * of those counted, and release what the source holds. @src is unlisted.
 */
static void kevent_source_close(struct kevent_source *src)
{
	/*
	 * A notifier holds a use while it touches the source: once the
	 * registration's own use is dropped, new ones fail, and the last
	 * notifier in flight wakes this.
	 */
	if (!atomic_dec_and_test(&src->users)) {
		rcuwait_wait_event(&src->closing, !atomic_read(&src->users),
				   TASK_UNINTERRUPTIBLE);
		/*
		 * The last notifier may still be in kevent_source_put_use(),
		 * waking this task through @src: let it leave before @src
		 * can be freed.
		 */
		synchronize_rcu();
	}

	kevent_source_flush(src);

	kernfs_put(src->kn);
	kevent_path_put(src->path);
	src->kn = NULL;
	src->path = NULL;
}

/**
 * kevent_source_unregister - remove an event source the caller owns
 * @src: source registered with kevent_source_register()
 *
 * Waits until the event of a notification made before the call is sent,
 * ending the source's coalescing window early: none is dropped. A
 * notification made during the call or after it does nothing, and the call
 * waits for those in flight: @src itself may be freed once nothing can
 * notify it any more.
 *
 * Context: Process context.
 */
void kevent_source_unregister(struct kevent_source *src)
{
	might_sleep();

	mutex_lock(&kevent_sources_lock);
	kevent_source_unlist(src);
	mutex_unlock(&kevent_sources_lock);

	kevent_source_close(src);
}
EXPORT_SYMBOL_GPL(kevent_source_unregister);

/**
 * kevent_source_move - take the path of a source's kobject again
 * @src: a registered source
 * @kobj: its kobject, renamed or moved since @src was registered
 *
 * The attribute file stays the same across a rename or a move, and so does
 * the source: notifications counted and not yet reported go out with the
 * new path, none with the old one, which no longer exists.
 *
 * It may race with kevent_source_unregister() of @src: once that has
 * begun, the call does nothing and returns -ENOENT.
 *
 * Context: Process context.
 * Return: 0, -ENOENT if @src is not registered, -ENAMETOOLONG if the new
 * path is %KEVENT_PATH_MAX bytes or longer, -ENOMEM; the source keeps its
 * old path on error.
 */
int kevent_source_move(struct kevent_source *src, struct kobject *kobj)
{
	struct kevent_path *path, *old;

	might_sleep();

	path = kevent_path_of(kobj);
	if (IS_ERR(path))
		return PTR_ERR(path);

	mutex_lock(&kevent_sources_lock);
	/*
	 * Once unlisted, the source is kevent_source_close()'s, which frees
	 * its path without this lock: leave it be.
	 */
	if (!hash_hashed(&src->hnode)) {
		mutex_unlock(&kevent_sources_lock);
		kevent_path_put(path);
		return -ENOENT;
	}
	spin_lock(&kevent_source_paths_lock);
	old = src->path;
	src->path = path;
	spin_unlock(&kevent_source_paths_lock);
	kevent_sources_gen++;
	mutex_unlock(&kevent_sources_lock);

	kevent_path_put(old);

	return 0;
}
EXPORT_SYMBOL_GPL(kevent_source_move);

static void kevent_source_devm_unregister(void *src)
{
	kevent_source_unregister(src);
}

/**
 * devm_kevent_source_register - annotate a device attribute as an event
 *	source, in a source the driver owns
 * @dev: the device, already in sysfs
 * @src: the source, zeroed, typically in the driver's devm_kzalloc()ed data
 * @attr: one of @dev's attributes; its name must be in the registry
 *
 * As kevent_source_register() for @dev's kobject; the source is
 * unregistered when the driver is detached from @dev. devm actions run in
 * reverse order, so an interrupt requested with devm before this call may
 * still notify @src after it is unregistered: that does nothing, and is
 * safe as long as @src lives in memory that is released after the
 * interrupt, such as the driver's data allocated before it.
 *
 * Context: Process context.
 * Return: 0, or an error as kevent_source_register().
 */
int devm_kevent_source_register(struct device *dev, struct kevent_source *src,
				const struct attribute *attr)
{
	int ret;

	if (!dev)
		return -EINVAL;

	ret = kevent_source_register(src, &dev->kobj, attr);
	if (ret)
		return ret;

	return devm_add_action_or_reset(dev, kevent_source_devm_unregister,
					src);
}
EXPORT_SYMBOL_GPL(devm_kevent_source_register);

/* kevent_source_register_as(), in a source allocated here */
static struct kevent_source *kevent_source_add_as(struct kobject *kobj,
						  const struct attribute *attr,
						  int class)
{
	struct kevent_source *src;
	int ret;

	src = kzalloc(sizeof(*src), GFP_KERNEL);
	if (!src)
		return ERR_PTR(-ENOMEM);
	src->allocated = true;

	ret = kevent_source_register_as(src, kobj, attr, class);
	if (ret) {
		kfree(src);
		return ERR_PTR(ret);
	}

	return src;
}

/**
 * kevent_source_add_class - annotate an attribute as a source of a class
 * @kobj: the kobject, already in sysfs
 * @attr: one of @kobj's attributes; its name must be in the registry
 * @class: class of the source's events, in place of the one
 *	kevent_source_add() gives them
 *
 * As kevent_source_add(), for an attribute whose events belong to another
 * class than its device's subsystem or its name gives them.
 *
 * Context: Process context.
 * Return: the new source, or an ERR_PTR() as kevent_source_add(); also
 * -EINVAL if @class is greater than %KEVENT_CLASS_MAX.
 */
struct kevent_source *kevent_source_add_class(struct kobject *kobj,
					      const struct attribute *attr,
					      enum kevent_class class)
{
	if (class > KEVENT_CLASS_MAX)
		return ERR_PTR(-EINVAL);

	return kevent_source_add_as(kobj, attr, class);
}
EXPORT_SYMBOL_GPL(kevent_source_add_class);

/**
 * kevent_source_add - annotate an attribute as an event source
 * @kobj: the kobject, already in sysfs
 * @attr: one of @kobj's attributes; its name must be in the registry
 *
 * As kevent_source_register(), in a source allocated here and freed by
 * kevent_source_remove(). The returned pointer must not be notified once
 * kevent_source_remove() has returned: a driver whose notifiers may outlive
 * the source (an interrupt requested with devm before it, a timer) embeds
 * the source in its own data and uses kevent_source_register() instead.
 *
 * Context: Process context.
 * Return: the new source, or an ERR_PTR(): -EINVAL if the attribute's name
 * is not in the registry or contains a '/', -ENOENT if @kobj has no such
 * attribute file, -EEXIST if it is already a source, -ENAMETOOLONG if the
 * kobject's path is %KEVENT_PATH_MAX bytes or longer, -ENODEV if the layer
 * did not start, -ENOMEM.
 */
struct kevent_source *kevent_source_add(struct kobject *kobj,
					const struct attribute *attr)
{
	return kevent_source_add_as(kobj, attr, -1);
}
EXPORT_SYMBOL_GPL(kevent_source_add);

/**
 * kevent_source_remove - remove an event source kevent_source_add() made
 * @src: source from kevent_source_add(); NULL or an ERR_PTR() is ignored
 *
 * As kevent_source_unregister(), then frees @src: it must not be notified
 * once this call has returned.
 *
 * Context: Process context.
 */
void kevent_source_remove(struct kevent_source *src)
{
	if (IS_ERR_OR_NULL(src))
		return;

	kevent_source_unregister(src);
	kfree(src);
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
 * As kevent_source_add() for @dev's kobject; the source is removed, and
 * freed, when the driver is detached from @dev. devm actions run in reverse
 * order: anything registered with devm before this call that may notify the
 * source (an interrupt, a timer) still runs after it is freed. Such a
 * driver uses devm_kevent_source_register() with a source in its own data.
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
 * kevent_source_put_use - end a notifier's use of a source
 * @src: the source, of which the caller holds a use
 *
 * The last use of a source being unregistered wakes the task unregistering
 * it. The wake-up takes no spinlock_t (rcuwait_wake_up() takes only the
 * scheduler's raw locks), so this may run in hard interrupt context and
 * under a raw spinlock on PREEMPT_RT too. That task waits for an RCU grace
 * period before it returns, so @src outlives this call.
 *
 * Context: Any context.
 */
void kevent_source_put_use(struct kevent_source *src)
{
	rcu_read_lock();
	if (atomic_dec_and_test(&src->users))
		rcuwait_wake_up(&src->closing);
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(kevent_source_put_use);

/**
 * kevent_source_notify - report that an event source's value changed
 * @src: a source, registered or not
 *
 * The event is sent, and poll()ers of the attribute woken, shortly after
 * from process context: at once if the source sent no event in the last
 * coalesce_ms milliseconds, else when that window ends. Notifications made
 * before that are folded into the same event. A source that is not
 * registered, or is being unregistered, is left untouched but for its use
 * count: nothing is sent.
 *
 * Context: Any context, including hard interrupt handlers and with
 * spinlocks held, raw ones too, also on PREEMPT_RT. Does not sleep or
 * allocate: it counts, queues the work (whose pool lock is raw), and the
 * last notifier in flight while the source is unregistered wakes the
 * unregistering task with rcuwait_wake_up(), which takes no sleeping lock.
 * Return: 0, -ENODEV if @src is not registered, or -EINVAL if @src is NULL
 * or an ERR_PTR().
 */
int kevent_source_notify(struct kevent_source *src)
{
	if (IS_ERR_OR_NULL(src))
		return -EINVAL;

	if (!atomic_inc_not_zero(&src->users))
		return -ENODEV;

	atomic_inc(&src->pending);
	queue_delayed_work(kevent_wq, &src->work, 0);

	kevent_source_put_use(src);

	return 0;
}
EXPORT_SYMBOL_GPL(kevent_source_notify);

/**
 * kevent_notify - report a change of an attribute that is not a source
 * @kobj: the kobject, in sysfs
 * @attr: name of one of @kobj's attributes; it must be in the registry
 *
 * Sends the event and wakes poll()ers of the attribute before returning.
 * Once the attribute file is found, its poll()ers are woken even if the
 * event cannot be sent. The event's class is the one kevent_attr_class()
 * gives, as for a source.
 *
 * Context: Process context.
 * Return: 0 once the event is sent (or counted as failed, see the stats),
 * -EINVAL if @attr is not in the registry or contains a '/', -ENOENT if
 * @kobj has no such attribute file, -ENAMETOOLONG if the kobject's path is
 * %KEVENT_PATH_MAX bytes or longer, -ENODEV if the layer did not start,
 * -ENOMEM. No event is sent on error.
 */
int kevent_notify(struct kobject *kobj, const char *attr)
{
	struct kevent_path *path;
	struct kernfs_node *kn;
	u32 channel;
	int attr_id;

	might_sleep();

	if (!kobj)
		return -EINVAL;

	if (!kevent_layer_up())
		return -ENODEV;

	attr_id = kevent_registry_lookup(attr, &channel);
	if (attr_id < 0)
		return attr_id;

	kn = kevent_find_attr(kobj, attr);
	if (IS_ERR(kn))
		return PTR_ERR(kn);

	/* poll()ers are woken even when the event cannot be sent */
	kevent_kernfs_notify(kn);

	path = kevent_path_of(kobj);
	if (IS_ERR(path)) {
		kernfs_put(kn);
		return PTR_ERR(path);
	}

	kevent_emit(path, attr_id, channel,
		    kevent_attr_class(path->path, attr_id), 0,
		    kevent_attr_restricted(kn));

	kevent_path_put(path);
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
		bytes += (src->allocated ? ksize(src) : sizeof(*src)) +
			 ksize(src->path);
	*ret_count = kevent_sources_count;
	mutex_unlock(&kevent_sources_lock);

	return bytes;
}

/* Sources left at module exit: only if a user forgot to remove them */
void kevent_sources_release_all(void)
{
	char buf[KEVENT_ATTR_NAME_MAX];
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
		pr_warn("source %s/%s still registered at exit\n",
			src->path->path,
			kevent_registry_name(src->attr_id, src->channel, buf));
		list_del(&src->node);
		kevent_source_close(src);
		/* Only the sources kevent allocated are its to free */
		if (src->allocated)
			kfree(src);
	}
}
