// SPDX-License-Identifier: GPL-2.0
/*
 * kevent: the attributes the kernel already announces, with no driver
 * change.
 *
 * sysfs_notify(), sysfs_notify_dirent() and the drivers that call
 * kernfs_notify() directly all end in kernfs_notify(), which wakes the
 * poll()ers of an attribute. kevent hears of each call (a kprobe in the
 * module, kevent_kernfs_probe.c; a call from kernfs_notify() itself in a
 * kernel built with the layer) and turns each announcement of an attribute
 * of the initial namespace's sysfs into a kevent event: the path of the
 * attribute's directory, the attribute's own name, and its class (see
 * kevent_attr_class()).
 *
 * kernfs_notify() is called from hard IRQ too. kevent_kernfs_note() takes a
 * reference on the node and marks it pending in a table of fixed size under
 * a raw spinlock; a notification of a node in the table is folded. A work
 * item in process context builds the path and sends the event. The node
 * stays in the table for a coalescing window after its event, as a source
 * does (kevent_source.c): the notifications within the window fold into one
 * trailing event. When the table is full, a notification of a node not in
 * it is dropped and counted, and the layer's sequence numbers skip one for
 * each, so that every listener sees the gap (its overrun). A node removed
 * before its event went out is dropped and counted. The events of kevent's
 * own sources already went out: their own kernfs_notify() is not reported
 * again.
 *
 * The hook is armed only while the family has a listener, so that a kernel
 * where nobody listens pays nothing in kernfs_notify() (see
 * kevent_kernfs_bind()). The announcements made while it is disarmed are
 * not events, and the replay ring does not hold them; the events of
 * kevent's own sources are recorded whether or not anybody listens.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/kobject_ns.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "kevent_internal.h"

static bool probe_sysfs_notify = true;
module_param_named(sysfs_notify, probe_sysfs_notify, bool, 0444);
MODULE_PARM_DESC(sysfs_notify,
		 "Report every attribute announced with sysfs_notify() or kernfs_notify() (default on)");

/* The nodes the table holds at most: pending, or in their window */
#define KEVENT_KERNFS_SLOTS	256

/**
 * struct kevent_kernfs_node - an announced attribute, pending or in its
 *	coalescing window
 * @node: in kevent_kernfs_used or kevent_kernfs_free
 * @hnode: in kevent_kernfs_nodes, by @kn, while used
 * @kn: the attribute's file, referenced
 * @pending: notifications not yet reported
 * @last_sent: CLOCK_BOOTTIME of its last event, if @sent
 * @sent: an event went out since it came into the table
 */
struct kevent_kernfs_node {
	struct list_head node;
	struct hlist_node hnode;
	struct kernfs_node *kn;
	unsigned int pending;
	u64 last_sent;
	bool sent;
};

/*
 * Protects the table: its lists, the hash, and the @pending of every entry.
 * Raw: it is taken in kevent_kernfs_note(), in any context, PREEMPT_RT
 * included. Only the work takes entries out and drops their references, so
 * it may use an entry's @kn, @last_sent and @sent without the lock.
 */
static DEFINE_RAW_SPINLOCK(kevent_kernfs_lock);
static struct kevent_kernfs_node kevent_kernfs_slots[KEVENT_KERNFS_SLOTS];
static LIST_HEAD(kevent_kernfs_used);
static LIST_HEAD(kevent_kernfs_free);
static DEFINE_HASHTABLE(kevent_kernfs_nodes, 8);
/* Notifications dropped for want of a slot, not yet seen by the work */
static unsigned int kevent_kernfs_lost;
/* Notifications dropped in NMI context, not yet added to the above */
static atomic_t kevent_kernfs_nmi_lost = ATOMIC_INIT(0);

static atomic64_t kevent_kernfs_stat_sent = ATOMIC64_INIT(0);
static atomic64_t kevent_kernfs_stat_full = ATOMIC64_INIT(0);
static atomic64_t kevent_kernfs_stat_removed = ATOMIC64_INIT(0);
static atomic64_t kevent_kernfs_stat_other = ATOMIC64_INIT(0);

/* The node kevent itself is notifying on this CPU, not to be reported */
static DEFINE_PER_CPU(struct kernfs_node *, kevent_own_notify);

static struct kernfs_root *kevent_sysfs_root;
static bool kevent_kernfs_probed;
/* The hook is armed whether or not anybody listens (kevent_kernfs_init()) */
static bool kevent_kernfs_armed_for_good;

/*
 * Arming: serialises the hook's arming, registering and unregistering, and
 * protects the counts of binds below.
 */
static DEFINE_MUTEX(kevent_kernfs_arm_lock);
/* Sockets that joined a group of the family, and those the work last saw */
static unsigned long kevent_kernfs_binds;
static unsigned long kevent_kernfs_binds_seen;
/* How long after a listener left the hook is disarmed, if none is left */
#define KEVENT_KERNFS_DISARM_DELAY	HZ

static void kevent_kernfs_disarm_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(kevent_kernfs_disarm_work,
			    kevent_kernfs_disarm_fn);

static void kevent_kernfs_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(kevent_kernfs_work, kevent_kernfs_work_fn);

/**
 * kevent_kernfs_notify - wake the poll()ers of a source's attribute
 * @kn: the attribute's file
 *
 * As kernfs_notify(), for the attributes whose event kevent sends itself:
 * the probe on kernfs_notify() leaves this call out, so that the change is
 * reported once.
 *
 * Context: Any context.
 */
void kevent_kernfs_notify(struct kernfs_node *kn)
{
	preempt_disable();
	this_cpu_write(kevent_own_notify, kn);
	kernfs_notify(kn);
	this_cpu_write(kevent_own_notify, NULL);
	preempt_enable();
}

/**
 * kevent_kernfs_note - take note of a notification
 * @kn: the node kernfs_notify() was called for
 *
 * Called by the hook on kernfs_notify() while it is armed.
 *
 * Context: Any context but NMI (see kevent_kernfs_note_nmi()).
 */
void kevent_kernfs_note(struct kernfs_node *kn)
{
	struct kevent_kernfs_node *entry;
	struct kernfs_node *parent;
	unsigned long flags;
	unsigned int nmi_lost;
	bool first = false;

	if (!kn || kernfs_type(kn) != KERNFS_FILE ||
	    this_cpu_read(kevent_own_notify) == kn)
		return;

	/* A file's parent never changes: it is a directory of its root */
	parent = kevent_kn_parent(kn);
	if (!parent || parent->dir.root != kevent_sysfs_root)
		return;

	raw_spin_lock_irqsave(&kevent_kernfs_lock, flags);
	/* A read first: the counter is 0 but where kprobes are int3s */
	nmi_lost = atomic_read(&kevent_kernfs_nmi_lost) ?
		   atomic_xchg(&kevent_kernfs_nmi_lost, 0) : 0;
	if (nmi_lost) {
		kevent_kernfs_lost += nmi_lost;
		first = true;
	}
	hash_for_each_possible(kevent_kernfs_nodes, entry, hnode,
			       (unsigned long)kn) {
		if (entry->kn == kn) {
			/*
			 * Folded: the work is queued for a node not yet sent,
			 * and comes back when a sent node's window ends
			 */
			entry->pending++;
			goto out_unlock;
		}
	}

	entry = list_first_entry_or_null(&kevent_kernfs_free,
					 struct kevent_kernfs_node, node);
	if (!entry) {
		kevent_kernfs_lost++;
		atomic64_inc(&kevent_kernfs_stat_full);
		first = true;
		goto out_unlock;
	}

	kernfs_get(kn);
	entry->kn = kn;
	entry->pending = 1;
	entry->sent = false;
	list_move_tail(&entry->node, &kevent_kernfs_used);
	hash_add(kevent_kernfs_nodes, &entry->hnode, (unsigned long)kn);
	first = true;

out_unlock:
	raw_spin_unlock_irqrestore(&kevent_kernfs_lock, flags);

	/* A node in its window is looked at again when the window ends */
	if (first)
		mod_delayed_work(kevent_wq, &kevent_kernfs_work, 0);
}

/**
 * kevent_kernfs_note_nmi - count a notification dropped in NMI context
 *
 * A hook that runs in NMI context cannot take the table's lock: the
 * notification is dropped and counted, and the next one noted outside NMI
 * context reports the loss, so that listeners see the gap (their overrun).
 *
 * Context: NMI.
 */
void kevent_kernfs_note_nmi(void)
{
	atomic_inc(&kevent_kernfs_nmi_lost);
	atomic64_inc(&kevent_kernfs_stat_other);
}

/*
 * Whether @dir is in another network namespace than the initial one: a
 * directory on its way up to the root carries another namespace's tag (a
 * network device of a container). Under rcu_read_lock(): directories may
 * move.
 */
static bool kevent_kernfs_foreign(struct kernfs_node *dir)
{
	const void *init_tag = net_ns_type_operations.initial_ns();
	bool foreign = false;

	rcu_read_lock();
	for (; dir; dir = kevent_kn_parent(dir)) {
		if (dir->ns && (const void *)dir->ns != init_tag) {
			foreign = true;
			break;
		}
	}
	rcu_read_unlock();

	return foreign;
}

/* Room for a path; only the work uses it, which never runs twice at once */
static char kevent_kernfs_path[KEVENT_PATH_MAX];

/*
 * Send the event of @count notifications of @kn, unless its file is gone.
 * Return: the event's timestamp, 0 when nothing was sent.
 */
static u64 kevent_kernfs_send(struct kernfs_node *kn, unsigned int count)
{
	struct kernfs_node *dir = kevent_kn_parent(kn);
	const char *name = kevent_kn_name(kn);
	struct kevent_path *path;
	enum kevent_class class;
	u32 attr_id, channel;
	int len, ret;
	u64 sent;

	/* Removed: kernfs deactivates a node before it unlinks it */
	if (atomic_read(&kn->active) < 0) {
		atomic64_inc(&kevent_kernfs_stat_removed);
		return 0;
	}

	len = kernfs_path_from_node(dir, NULL, kevent_kernfs_path,
				    sizeof(kevent_kernfs_path));
	if (len < 0 || len >= sizeof(kevent_kernfs_path) ||
	    kevent_kernfs_foreign(dir)) {
		atomic64_inc(&kevent_kernfs_stat_other);
		return 0;
	}

	ret = kevent_registry_lookup(name, &channel);
	if (ret >= 0) {
		attr_id = ret;
		name = NULL;
	} else {
		attr_id = KEVENT_ATTR_ID_NONE;
		channel = KEVENT_NO_CHANNEL;
	}
	class = kevent_attr_class(kevent_kernfs_path, ret);

	/* Out of memory: the event is lost, and listeners see the gap */
	path = kevent_path_new(kevent_kernfs_path, name);
	if (!path) {
		kevent_emit_lost(1);
		return 0;
	}

	if (count > 1)
		atomic64_add(count - 1, &kevent_stat_coalesced);
	atomic64_inc(&kevent_kernfs_stat_sent);

	sent = kevent_emit(path, attr_id, channel, class, count - 1,
			   kevent_attr_restricted(kn));
	kevent_path_put(path);

	return sent;
}

/*
 * Send the events of the nodes whose window allows, let go of those whose
 * window ended with nothing pending, and come back when the next window
 * ends. Only this work takes entries out of the table.
 */
static void kevent_kernfs_work_fn(struct work_struct *work)
{
	u64 window = kevent_coalesce_window();
	u64 now = ktime_get_boottime_ns(), wake = 0, wait, sent;
	struct kevent_kernfs_node *entry;
	struct list_head *pos;
	struct kernfs_node *kn;
	unsigned int count, lost;

	raw_spin_lock_irq(&kevent_kernfs_lock);
	lost = kevent_kernfs_lost;
	kevent_kernfs_lost = 0;
	raw_spin_unlock_irq(&kevent_kernfs_lock);
	if (lost)
		kevent_emit_lost(lost);

	raw_spin_lock_irq(&kevent_kernfs_lock);
	pos = kevent_kernfs_used.next;
	while (pos != &kevent_kernfs_used) {
		entry = list_entry(pos, struct kevent_kernfs_node, node);
		wait = kevent_coalesce_wait(now, entry->last_sent, entry->sent,
					    window);
		if (wait) {
			if (!wake || wait < wake)
				wake = wait;
			pos = pos->next;
			continue;
		}

		count = entry->pending;
		entry->pending = 0;
		if (!count) {
			/* Its window ended quietly: let it go */
			kn = entry->kn;
			pos = pos->next;
			hash_del(&entry->hnode);
			list_move_tail(&entry->node, &kevent_kernfs_free);
			entry->kn = NULL;
			raw_spin_unlock_irq(&kevent_kernfs_lock);
			kernfs_put(kn);
			raw_spin_lock_irq(&kevent_kernfs_lock);
			continue;
		}

		/* The entry stays in the table: this work alone takes it out */
		raw_spin_unlock_irq(&kevent_kernfs_lock);
		sent = kevent_kernfs_send(entry->kn, count);
		raw_spin_lock_irq(&kevent_kernfs_lock);
		/* Its window starts, from now if nothing was sent */
		entry->last_sent = sent ?: now;
		entry->sent = true;
		if (!wake || window < wake)
			wake = window ?: 1;
		pos = pos->next;
	}
	raw_spin_unlock_irq(&kevent_kernfs_lock);

	if (wake)
		queue_delayed_work(kevent_wq, &kevent_kernfs_work,
				   nsecs_to_jiffies(wake) + 1);
}

/**
 * kevent_kernfs_recheck_windows - look at the windows again
 *
 * The coalescing window changed: the nodes waiting for theirs to end are
 * looked at again now.
 *
 * Context: Any context.
 */
void kevent_kernfs_recheck_windows(void)
{
	if (READ_ONCE(kevent_kernfs_probed))
		mod_delayed_work(kevent_wq, &kevent_kernfs_work, 0);
}

/*
 * Whether the family has a listener now, or a socket joined one of its
 * groups since the last look and may not show as a listener yet: the
 * family hears of a join (kevent_kernfs_bind()) before netlink records it.
 */
static bool kevent_kernfs_wanted(void)
{
	lockdep_assert_held(&kevent_kernfs_arm_lock);

	if (kevent_kernfs_binds != kevent_kernfs_binds_seen) {
		kevent_kernfs_binds_seen = kevent_kernfs_binds;
		return true;
	}
	return kevent_nl_has_listeners();
}

/* Arm or disarm the hook, saying so when it fails; under the arming lock */
static void kevent_kernfs_arm(bool on)
{
	int ret;

	lockdep_assert_held(&kevent_kernfs_arm_lock);

	ret = kevent_kernfs_hook_arm(on);
	if (ret)
		pr_warn_ratelimited("cannot %s the hook on kernfs_notify() (%d)\n",
				    on ? "arm" : "disarm", ret);
}

static void kevent_kernfs_disarm_fn(struct work_struct *work)
{
	mutex_lock(&kevent_kernfs_arm_lock);
	if (!kevent_kernfs_probed || kevent_kernfs_armed_for_good)
		goto out_unlock;
	if (kevent_kernfs_wanted())
		/* A join since the last look: look again once it shows */
		queue_delayed_work(kevent_wq, &kevent_kernfs_disarm_work,
				   KEVENT_KERNFS_DISARM_DELAY);
	else
		kevent_kernfs_arm(false);
out_unlock:
	mutex_unlock(&kevent_kernfs_arm_lock);
}

/**
 * kevent_kernfs_bind - a socket joins a group of the family
 *
 * The hook is armed before the call returns, so that the listener hears of
 * every announcement made once it has joined. Netlink records the join only
 * after this call, so the look that disarms (kevent_kernfs_disarm_fn())
 * keeps the hook armed for one more delay after any join.
 *
 * Context: Process context; generic netlink's family lock held (read).
 */
void kevent_kernfs_bind(void)
{
	mutex_lock(&kevent_kernfs_arm_lock);
	kevent_kernfs_binds++;
	if (kevent_kernfs_probed)
		kevent_kernfs_arm(true);
	mutex_unlock(&kevent_kernfs_arm_lock);
}

/**
 * kevent_kernfs_unbind - a socket leaves a group of the family
 *
 * Also when it had not joined it (NETLINK_DROP_MEMBERSHIP of any group):
 * the hook is disarmed only if, a delay later, no listener is left.
 *
 * Context: Process context.
 */
void kevent_kernfs_unbind(void)
{
	if (READ_ONCE(kevent_kernfs_probed) &&
	    !READ_ONCE(kevent_kernfs_armed_for_good))
		mod_delayed_work(kevent_wq, &kevent_kernfs_disarm_work,
				 KEVENT_KERNFS_DISARM_DELAY);
}

/**
 * kevent_kernfs_stats_show - the hook's counters, for debugfs
 * @m: the file
 *
 * Context: Process context.
 */
void kevent_kernfs_stats_show(struct seq_file *m)
{
	unsigned int used = 0;
	struct list_head *pos;

	raw_spin_lock_irq(&kevent_kernfs_lock);
	list_for_each(pos, &kevent_kernfs_used)
		used++;
	raw_spin_unlock_irq(&kevent_kernfs_lock);

	seq_printf(m, "probe %s\n", kevent_kernfs_probed ? "on" : "off");
	seq_printf(m, "armed %s\n",
		   kevent_kernfs_probed && kevent_kernfs_hook_armed() ?
		   "yes" : "no");
	seq_printf(m, "nodes %u\nslots %u\n", used, KEVENT_KERNFS_SLOTS);
	seq_printf(m, "sent %lld\n", atomic64_read(&kevent_kernfs_stat_sent));
	seq_printf(m, "dropped_full %lld\n",
		   atomic64_read(&kevent_kernfs_stat_full));
	seq_printf(m, "dropped_removed %lld\n",
		   atomic64_read(&kevent_kernfs_stat_removed));
	seq_printf(m, "dropped_other %lld\n",
		   atomic64_read(&kevent_kernfs_stat_other));
}

/**
 * kevent_kernfs_init - start carrying the announcements of sysfs
 *
 * The hook starts disarmed, unless a socket joined a group already. Where
 * the family does not hear of its listeners (a kernel before 6.8), or where
 * arming takes effect only later (a kprobe not on ftrace), it is armed for
 * good. Without the hook (kprobes are not built in, or the
 * lockdown forbids them), the layer goes on with the events of its own
 * sources: say so.
 *
 * Context: Process context, module init, after kevent_wq and the family.
 */
void kevent_kernfs_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < KEVENT_KERNFS_SLOTS; i++)
		list_add_tail(&kevent_kernfs_slots[i].node,
			      &kevent_kernfs_free);

	if (!probe_sysfs_notify || !kernel_kobj->sd)
		return;
	kevent_sysfs_root = kernel_kobj->sd->dir.root;

	mutex_lock(&kevent_kernfs_arm_lock);
	ret = kevent_kernfs_hook_register();
	if (ret) {
		pr_warn("cannot probe kernfs_notify() (%d): only kevent's own sources send events\n",
			ret);
		goto out_unlock;
	}
	WRITE_ONCE(kevent_kernfs_probed, true);
	WRITE_ONCE(kevent_kernfs_armed_for_good, !kevent_nl_hears_binds ||
		   !kevent_kernfs_hook_arms_at_once());
	if (kevent_kernfs_armed_for_good || kevent_kernfs_wanted())
		kevent_kernfs_arm(true);
out_unlock:
	mutex_unlock(&kevent_kernfs_arm_lock);
}

/**
 * kevent_kernfs_exit - stop, and drop what is pending
 *
 * The announcements pending are not reported: the layer is going.
 *
 * Context: Process context, module exit, before kevent_wq is destroyed.
 */
void kevent_kernfs_exit(void)
{
	struct kevent_kernfs_node *entry, *tmp;

	mutex_lock(&kevent_kernfs_arm_lock);
	if (!kevent_kernfs_probed) {
		mutex_unlock(&kevent_kernfs_arm_lock);
		return;
	}
	/* No handler runs once this returns */
	kevent_kernfs_hook_unregister();
	WRITE_ONCE(kevent_kernfs_probed, false);
	mutex_unlock(&kevent_kernfs_arm_lock);
	/* Its work finds the hook gone, if an unbind queues it again */
	cancel_delayed_work_sync(&kevent_kernfs_disarm_work);
	cancel_delayed_work_sync(&kevent_kernfs_work);

	list_for_each_entry_safe(entry, tmp, &kevent_kernfs_used, node) {
		hash_del(&entry->hnode);
		list_move_tail(&entry->node, &kevent_kernfs_free);
		kernfs_put(entry->kn);
		entry->kn = NULL;
	}
	kevent_kernfs_lost = 0;
	atomic_set(&kevent_kernfs_nmi_lost, 0);
}
