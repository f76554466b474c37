// SPDX-License-Identifier: GPL-2.0
/*
 * kevent_bridge: kevent sources for attributes the kernel already has.
 *
 * Without patching the kernel, this module annotates and notifies:
 *
 *   net      operstate, carrier, mtu and address of every network device of
 *            the initial network namespace (a netdevice notifier). Other
 *            namespaces are left out: their devices' sysfs paths only mean
 *            something inside them, and kevent lives in the initial one.
 *   hotplug  online of every CPU device that has that file, present at
 *            load or hot-added later (a subsystem interface), notified
 *            from a CPU hotplug state (see kbr_cpu_work()).
 *   power    capacity, status and online of every power supply (a class
 *            interface for the supplies, the power supply notifier for
 *            their changes), present at load or added later. A change
 *            notification does not say which property changed: all three
 *            are notified.
 *
 * The kevent_source API only uses the name of an attribute, so the
 * attributes here are local ones carrying the names of the kernel's.
 * Attributes a device does not have are skipped.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/platform_device.h>
#include <linux/power_supply.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>

#include <kevent.h>

#include "kevent_compat.h"

#define KBR_ATTR(_name) { .name = #_name, .mode = 0444 }

/* Indexes in kbr_net_attrs[] */
enum {
	KBR_NET_OPERSTATE,
	KBR_NET_CARRIER,
	KBR_NET_MTU,
	KBR_NET_ADDRESS,
	KBR_NET_NR,
};

static const struct attribute kbr_net_attrs[KBR_NET_NR] = {
	[KBR_NET_OPERSTATE]	= KBR_ATTR(operstate),
	[KBR_NET_CARRIER]	= KBR_ATTR(carrier),
	[KBR_NET_MTU]		= KBR_ATTR(mtu),
	[KBR_NET_ADDRESS]	= KBR_ATTR(address),
};

static const struct attribute kbr_cpu_attr = KBR_ATTR(online);

#define KBR_PSY_NR 3

static const struct attribute kbr_psy_attrs[KBR_PSY_NR] = {
	KBR_ATTR(capacity),
	KBR_ATTR(status),
	KBR_ATTR(online),
};

/*
 * kbr_sources_add - annotate those of @n attributes @attrs that @kobj has,
 * in class @class, the sources in @srcs (NULL for an attribute skipped).
 * Returns how many.
 */
static unsigned int kbr_sources_add(struct kobject *kobj,
				    const struct attribute *attrs,
				    struct kevent_source **srcs,
				    unsigned int n, enum kevent_class class)
{
	unsigned int i, added = 0;

	for (i = 0; i < n; i++) {
		srcs[i] = kevent_source_add_class(kobj, &attrs[i], class);
		if (IS_ERR(srcs[i])) {
			if (PTR_ERR(srcs[i]) != -ENOENT)
				pr_warn_ratelimited("%s/%s: not annotated: %pe\n",
						    kobject_name(kobj),
						    attrs[i].name, srcs[i]);
			srcs[i] = NULL;
			continue;
		}
		added++;
	}

	return added;
}

static void kbr_sources_remove(struct kevent_source **srcs, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		kevent_source_remove(srcs[i]);
		srcs[i] = NULL;
	}
}

/* Network devices */

/**
 * struct kbr_netdev - the sources of one network device
 * @node: entry in &kbr_netdevs
 * @dev: the device, registered; its entry goes at NETDEV_UNREGISTER
 * @src: the sources, by index in kbr_net_attrs[]; NULL if skipped
 *
 * Entries are added, found and removed under the RTNL, which every
 * netdevice notifier call holds.
 */
struct kbr_netdev {
	struct list_head node;
	struct net_device *dev;
	struct kevent_source *src[KBR_NET_NR];
};

static LIST_HEAD(kbr_netdevs);

/* Set at module exit: the replayed NETDEV_DOWN events are not notified */
static bool kbr_net_exiting;

static struct kbr_netdev *kbr_netdev_find(struct net_device *dev)
{
	struct kbr_netdev *nd;

	list_for_each_entry(nd, &kbr_netdevs, node)
		if (nd->dev == dev)
			return nd;

	return NULL;
}

static void kbr_netdev_add(struct net_device *dev)
{
	struct kbr_netdev *nd;

	/* Only the initial namespace's sysfs paths are global */
	if (!net_eq(dev_net(dev), &init_net) || kbr_netdev_find(dev))
		return;

	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return;

	nd->dev = dev;
	if (!kbr_sources_add(&dev->dev.kobj, kbr_net_attrs, nd->src,
			     KBR_NET_NR, KEVENT_CLASS_NET)) {
		kfree(nd);
		return;
	}
	list_add_tail(&nd->node, &kbr_netdevs);
}

static void kbr_netdev_del(struct kbr_netdev *nd)
{
	list_del(&nd->node);
	kbr_sources_remove(nd->src, KBR_NET_NR);
	kfree(nd);
}

/* The device was renamed: its sources take its new path */
static int kbr_netdev_move(struct kbr_netdev *nd)
{
	unsigned int i;
	int ret;

	for (i = 0; i < KBR_NET_NR; i++) {
		if (!nd->src[i])
			continue;
		ret = kevent_source_move(nd->src[i], &nd->dev->dev.kobj);
		if (ret)
			return ret;
	}

	return 0;
}

static void kbr_netdev_notify(struct kbr_netdev *nd, unsigned int attr)
{
	if (nd && !READ_ONCE(kbr_net_exiting))
		kevent_source_notify(nd->src[attr]);
}

static int kbr_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct kbr_netdev *nd;

	ASSERT_RTNL();

	switch (event) {
	case NETDEV_REGISTER:
		kbr_netdev_add(dev);
		break;
	case NETDEV_UNREGISTER:
		/* Also sent to the old namespace when a device moves */
		nd = kbr_netdev_find(dev);
		if (nd)
			kbr_netdev_del(nd);
		break;
	case NETDEV_CHANGENAME:
		/*
		 * The sysfs path changed with the name, the attribute files
		 * stayed: changes not yet reported go out with the new path
		 */
		nd = kbr_netdev_find(dev);
		if (!nd || kbr_netdev_move(nd)) {
			if (nd)
				kbr_netdev_del(nd);
			kbr_netdev_add(dev);
		}
		break;
	case NETDEV_CHANGEMTU:
		nd = kbr_netdev_find(dev);
		kbr_netdev_notify(nd, KBR_NET_MTU);
		break;
	case NETDEV_CHANGEADDR:
		nd = kbr_netdev_find(dev);
		kbr_netdev_notify(nd, KBR_NET_ADDRESS);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		/*
		 * NETDEV_UP and NETDEV_DOWN come once the running state that
		 * the sysfs files show has changed; linkwatch updates the
		 * operational state of a running device, then sends
		 * NETDEV_CHANGE.
		 */
		nd = kbr_netdev_find(dev);
		kbr_netdev_notify(nd, KBR_NET_OPERSTATE);
		kbr_netdev_notify(nd, KBR_NET_CARRIER);
		break;
	}

	return NOTIFY_DONE;
}

static struct notifier_block kbr_netdev_nb = {
	.notifier_call = kbr_netdev_event,
};

static int kbr_net_init(void)
{
	/* Replays NETDEV_REGISTER (and NETDEV_UP) for the present devices */
	return register_netdevice_notifier(&kbr_netdev_nb);
}

static void kbr_net_exit(void)
{
	struct kbr_netdev *nd, *tmp;

	WRITE_ONCE(kbr_net_exiting, true);
	/* Replays NETDEV_UNREGISTER for the present devices */
	unregister_netdevice_notifier(&kbr_netdev_nb);

	rtnl_lock();
	list_for_each_entry_safe(nd, tmp, &kbr_netdevs, node)
		kbr_netdev_del(nd);
	rtnl_unlock();
}

/* CPUs */

/*
 * How often, and how long at most, an event waits for the online file to
 * show a CPU's new state. Bringing a CPU up can take seconds under
 * emulation; the bound is for a state the file never shows (suspend).
 */
#define KBR_CPU_POLL	max(HZ / 100, 1)
#define KBR_CPU_WAIT	(10 * HZ)

/**
 * struct kbr_cpu - the source of one CPU's online attribute
 * @work: notifies @src once the online file shows @online (kbr_cpu_work())
 * @dev: the CPU's device while it is registered, else NULL
 * @src: the source while the device is registered and has an online file,
 *	else NULL
 * @online: where the last hotplug callback went: true for up, false for down
 * @deadline: when @work stops waiting for the online file to show @online
 *
 * @dev, @src, @online and @deadline are under &kbr_cpu_lock. The source is
 * added and removed with the device (kbr_cpu_add(), kbr_cpu_remove()); the
 * work is queued only while @src is set, and removal clears it, then cancels
 * the work, then removes the source: nothing notifies a removed source.
 */
struct kbr_cpu {
	struct delayed_work work;
	struct device *dev;
	struct kevent_source *src;
	bool online;
	unsigned long deadline;
};

/* By CPU number, for every possible CPU: a hot-added CPU is one of them */
static struct kbr_cpu *kbr_cpus;
static DEFINE_SPINLOCK(kbr_cpu_lock);
static struct workqueue_struct *kbr_wq;
static enum cpuhp_state kbr_cpuhp_state;

/*
 * The online file shows !dev->offline, which changes once cpu_up() or
 * cpu_down() has returned: device_online() and device_offline() set it under
 * the device lock, SMT control (cpuhp_smt_enable(), cpuhp_smt_disable())
 * without it, after each CPU. The hotplug callbacks run before that, so they
 * only record the direction and queue this work, which polls until the
 * device's offline flag agrees with it, then notifies: the event's reader
 * sees the new value. A callback in the other direction meanwhile changes
 * what it waits for; after KBR_CPU_WAIT it notifies anyway.
 */
static void kbr_cpu_work(struct work_struct *work)
{
	struct kbr_cpu *kc = container_of(to_delayed_work(work),
					  struct kbr_cpu, work);

	spin_lock(&kbr_cpu_lock);
	if (kc->src) {
		if (kevent_dev_offline(kc->dev) == kc->online &&
		    time_before(jiffies, kc->deadline))
			queue_delayed_work(kbr_wq, &kc->work, KBR_CPU_POLL);
		else
			kevent_source_notify(kc->src);
	}
	spin_unlock(&kbr_cpu_lock);
}

static void kbr_cpu_changed(unsigned int cpu, bool online)
{
	struct kbr_cpu *kc = &kbr_cpus[cpu];

	spin_lock(&kbr_cpu_lock);
	if (kc->src) {
		kc->online = online;
		kc->deadline = jiffies + KBR_CPU_WAIT;
		mod_delayed_work(kbr_wq, &kc->work, 0);
	}
	spin_unlock(&kbr_cpu_lock);
}

/* The hotplug state's callbacks: the CPU comes up, or goes down */
static int kbr_cpu_up(unsigned int cpu)
{
	kbr_cpu_changed(cpu, true);

	return 0;
}

static int kbr_cpu_down(unsigned int cpu)
{
	kbr_cpu_changed(cpu, false);

	return 0;
}

/*
 * The subsystem interface's add_dev: a CPU device is registered, at load or
 * when a CPU is hot-added. Called under the CPU subsystem's mutex, and in
 * the hot-add path with the CPU hotplug lock held too.
 */
static int kbr_cpu_add(struct device *dev, struct subsys_interface *sif)
{
	struct kevent_source *src;
	struct kbr_cpu *kc;

	if (dev->id >= nr_cpu_ids)
		return 0;
	kc = &kbr_cpus[dev->id];

	if (!kbr_sources_add(&dev->kobj, &kbr_cpu_attr, &src, 1,
			     KEVENT_CLASS_HOTPLUG))
		return 0;

	spin_lock(&kbr_cpu_lock);
	kc->dev = dev;
	kc->src = src;
	spin_unlock(&kbr_cpu_lock);

	return 0;
}

/*
 * The subsystem interface's remove_dev: a CPU device goes away (a hot-removed
 * CPU), or the interface does (unload). The work never blocks, so waiting
 * for it here, whatever locks the caller holds, cannot deadlock.
 */
static void kbr_cpu_remove(struct device *dev, struct subsys_interface *sif)
{
	struct kevent_source *src;
	struct kbr_cpu *kc;

	if (dev->id >= nr_cpu_ids)
		return;
	kc = &kbr_cpus[dev->id];

	spin_lock(&kbr_cpu_lock);
	src = kc->src;
	kc->src = NULL;
	kc->dev = NULL;
	spin_unlock(&kbr_cpu_lock);

	/* Neither a callback nor the work queues it any more */
	cancel_delayed_work_sync(&kc->work);
	kevent_source_remove(src);
}

static struct subsys_interface kbr_cpu_intf = {
	.name		= "kevent_bridge",
	.subsys		= &cpu_subsys,
	.add_dev	= kbr_cpu_add,
	.remove_dev	= kbr_cpu_remove,
};

static int kbr_cpu_init(void)
{
	unsigned int cpu;
	int ret;

	kbr_cpus = kcalloc(nr_cpu_ids, sizeof(*kbr_cpus), GFP_KERNEL);
	if (!kbr_cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		INIT_DELAYED_WORK(&kbr_cpus[cpu].work, kbr_cpu_work);

	kbr_wq = alloc_workqueue("kevent_bridge", WQ_UNBOUND, 0);
	if (!kbr_wq) {
		ret = -ENOMEM;
		goto out_free;
	}

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"kevent/bridge:online",
					kbr_cpu_up, kbr_cpu_down);
	if (ret < 0)
		goto out_destroy_wq;
	kbr_cpuhp_state = ret;

	/* Calls kbr_cpu_add() for the CPU devices registered now */
	ret = subsys_interface_register(&kbr_cpu_intf);
	if (ret)
		goto out_remove_state;

	return 0;

out_remove_state:
	cpuhp_remove_state_nocalls(kbr_cpuhp_state);
out_destroy_wq:
	destroy_workqueue(kbr_wq);
out_free:
	kfree(kbr_cpus);

	return ret;
}

static void kbr_cpu_exit(void)
{
	/* Calls kbr_cpu_remove() for every CPU device: no source is left */
	subsys_interface_unregister(&kbr_cpu_intf);
	cpuhp_remove_state_nocalls(kbr_cpuhp_state);
	destroy_workqueue(kbr_wq);
	kfree(kbr_cpus);
}

/* Power supplies */

/**
 * struct kbr_psy - the sources of one power supply
 * @node: entry in &kbr_psys, under &kbr_psys_lock
 * @dev: the power supply's device
 * @src: the sources, by index in kbr_psy_attrs[]; NULL if skipped
 */
struct kbr_psy {
	struct list_head node;
	struct device *dev;
	struct kevent_source *src[KBR_PSY_NR];
};

static LIST_HEAD(kbr_psys);
static DEFINE_MUTEX(kbr_psys_lock);

/* The class interface's add_dev: a power supply appeared */
static int kbr_psy_add(KEVENT_CLASS_INTF_ARGS(dev))
{
	struct kbr_psy *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return 0;

	p->dev = dev;
	if (!kbr_sources_add(&dev->kobj, kbr_psy_attrs, p->src, KBR_PSY_NR,
			     KEVENT_CLASS_POWER)) {
		kfree(p);
		return 0;
	}

	mutex_lock(&kbr_psys_lock);
	list_add_tail(&p->node, &kbr_psys);
	mutex_unlock(&kbr_psys_lock);

	return 0;
}

/* The class interface's remove_dev: a power supply goes away */
static void kbr_psy_remove(KEVENT_CLASS_INTF_ARGS(dev))
{
	struct kbr_psy *p, *found = NULL;

	mutex_lock(&kbr_psys_lock);
	list_for_each_entry(p, &kbr_psys, node) {
		if (p->dev == dev) {
			list_del(&p->node);
			found = p;
			break;
		}
	}
	mutex_unlock(&kbr_psys_lock);

	/* Not notified any more: the notifier found it on the list only */
	if (found) {
		kbr_sources_remove(found->src, KBR_PSY_NR);
		kfree(found);
	}
}

/*
 * The class interface follows the supplies as they come and go. Its class,
 * the power supply class, is not visible to modules since 6.9 (see
 * kevent_compat.h), so it is taken from the device of a supply: one present
 * at load (kbr_psy_find_present()), or else the first that appears later,
 * which power_supply_changed() notifies once it is registered. Set once,
 * under kbr_psy_intf_lock; the class is the power supply core's own, which
 * outlives this module (it uses the core's notifier).
 */
static struct class_interface kbr_psy_intf = {
	.add_dev	= kbr_psy_add,
	.remove_dev	= kbr_psy_remove,
};

static DEFINE_MUTEX(kbr_psy_intf_lock);

/*
 * kbr_psy_intf_register - register the class interface with the class of
 * @dev, a power supply's device, unless it is registered already. Calls
 * kbr_psy_add() for every supply registered now, @dev included.
 */
static int kbr_psy_intf_register(struct device *dev)
{
	int ret = 0;

	mutex_lock(&kbr_psy_intf_lock);
	if (!kbr_psy_intf.class) {
		WRITE_ONCE(kbr_psy_intf.class, dev->class);
		ret = class_interface_register(&kbr_psy_intf);
		if (ret)
			WRITE_ONCE(kbr_psy_intf.class, NULL);
	}
	mutex_unlock(&kbr_psy_intf_lock);

	return ret;
}

static void kbr_psy_intf_unregister(void)
{
	mutex_lock(&kbr_psy_intf_lock);
	if (kbr_psy_intf.class) {
		/* Calls kbr_psy_remove() for the supplies still registered */
		class_interface_unregister(&kbr_psy_intf);
		WRITE_ONCE(kbr_psy_intf.class, NULL);
	}
	mutex_unlock(&kbr_psy_intf_lock);
}

/*
 * kbr_psy_find_present - the device of a power supply registered now, with
 * a reference, or NULL. Every registered device is in the kset of all
 * devices, which the platform bus's device shows; a device stays on its list
 * until device_del(), so each one found there holds a reference of its own.
 */
static struct device *kbr_psy_find_present(void)
{
	struct kset *devices = platform_bus.kobj.kset;
	struct device *dev, *found = NULL;
	struct kobject *kobj;

	spin_lock(&devices->list_lock);
	list_for_each_entry(kobj, &devices->list, entry) {
		dev = kobj_to_dev(kobj);
		if (dev->class && !strcmp(dev->class->name, "power_supply")) {
			found = get_device(dev);
			break;
		}
	}
	spin_unlock(&devices->list_lock);

	return found;
}

/* Called from power_supply_changed_work(), a blocking notifier chain */
static int kbr_psy_event(struct notifier_block *nb, unsigned long event,
			 void *data)
{
	struct power_supply *psy = data;
	struct kbr_psy *p;
	unsigned int i;

	if (event != PSY_EVENT_PROP_CHANGED)
		return NOTIFY_DONE;

	/* The first supply since load: its class is the one to follow */
	if (!READ_ONCE(kbr_psy_intf.class) && kbr_psy_intf_register(&psy->dev))
		pr_warn_ratelimited("power supplies not followed\n");

	mutex_lock(&kbr_psys_lock);
	list_for_each_entry(p, &kbr_psys, node) {
		if (p->dev != &psy->dev)
			continue;
		for (i = 0; i < KBR_PSY_NR; i++)
			if (p->src[i])
				kevent_source_notify(p->src[i]);
		break;
	}
	mutex_unlock(&kbr_psys_lock);

	return NOTIFY_DONE;
}

static struct notifier_block kbr_psy_nb = {
	.notifier_call = kbr_psy_event,
};

static int kbr_psy_init(void)
{
	struct device *present;
	int ret;

	ret = power_supply_reg_notifier(&kbr_psy_nb);
	if (ret)
		return ret;

	/* Supplies registered from now on are notified, the others found */
	present = kbr_psy_find_present();
	if (present) {
		ret = kbr_psy_intf_register(present);
		put_device(present);
		if (ret)
			power_supply_unreg_notifier(&kbr_psy_nb);
	}

	return ret;
}

static void kbr_psy_exit(void)
{
	/* Waits for the notifier calls in progress */
	power_supply_unreg_notifier(&kbr_psy_nb);
	kbr_psy_intf_unregister();
}

static int __init kbr_init(void)
{
	int ret;

	ret = kbr_cpu_init();
	if (ret)
		return ret;

	ret = kbr_psy_init();
	if (ret)
		goto out_cpu;

	ret = kbr_net_init();
	if (ret)
		goto out_psy;

	return 0;

out_psy:
	kbr_psy_exit();
out_cpu:
	kbr_cpu_exit();

	return ret;
}

static void __exit kbr_exit(void)
{
	kbr_net_exit();
	kbr_psy_exit();
	kbr_cpu_exit();
}

module_init(kbr_init);
module_exit(kbr_exit);

MODULE_DESCRIPTION("kevent sources for network devices, CPUs and power supplies");
MODULE_LICENSE("GPL");
