/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent: the kernel API changes between the kernels kevent builds for.
 *
 * kevent builds from one source for 6.1 (Debian 12), 6.12 (Debian 13 and
 * Debian 12's newer kernel) and the newest kernel Debian ships. Every test
 * of the kernel's version is here, and each shim names the change upstream
 * that it covers; the other files use the shims only.
 *
 * Changes that needed no shim, because the newer form also works on 6.1:
 *   6.12 "fs: remove no_llseek": a file_operations without .llseek is not
 *	seekable, as it already was since 6.0 ("fs: clear FMODE_LSEEK if no
 *	llseek function"); the demo's debugfs files leave .llseek out.
 *   6.9 "power: supply: core: make power_supply_class constant":
 *	power_supply_class is no longer visible to modules; kevent_bridge
 *	finds the class through the supplies' devices on every kernel.
 */
#ifndef _KEVENT_COMPAT_H
#define _KEVENT_COMPAT_H

#include <linux/version.h>

/*
 * 6.6 "genetlink: use struct genl_info for dumps": the attributes of a dump
 * request moved from struct genl_dumpit_info into its struct genl_info.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define kevent_dumpit_attrs(dumpit_info)	((dumpit_info)->info.attrs)
#else
#define kevent_dumpit_attrs(dumpit_info)	((dumpit_info)->attrs)
#endif

/*
 * 6.8 "genetlink: Add per family bind/unbind callbacks": a family hears when
 * a socket joins or leaves one of its groups. Before, it does not, and
 * kevent's hook on kernfs_notify() stays armed (kevent_kernfs_init()).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define KEVENT_HAVE_GENL_BIND
#endif

/*
 * 6.2 "genetlink: introduce split op representation": the kernel's YNL
 * generator writes the family's operations as split ops (struct
 * genl_split_ops, genl_family.split_ops). Before, a family lists struct
 * genl_ops, which has every member the generated initialisers use (cmd,
 * doit, start, dumpit, policy, maxattr, flags); no operation of the family
 * has both a doit and a dumpit, so each split op is one genl_ops. Kbuild
 * includes this file ahead of the generated kevent_nl_gen.c, which is built
 * unchanged.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define genl_split_ops	genl_ops
#define split_ops	ops
#define n_split_ops	n_ops
#endif

/*
 * 6.4 "driver core: class: remove struct class_interface * from callbacks":
 * add_dev() and remove_dev() of a class interface take the device only.
 * KEVENT_CLASS_INTF_ARGS is their parameter list.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define KEVENT_CLASS_INTF_ARGS(dev)	struct device *dev
#else
#define KEVENT_CLASS_INTF_ARGS(dev) \
	struct device *dev, struct class_interface *intf
#endif

/*
 * 6.13 "module: Convert symbol namespace to string literal": the namespace
 * that MODULE_IMPORT_NS() names, here that of EXPORT_SYMBOL_IF_KUNIT(), is
 * a string; before, an identifier that the macro turned into one.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define KEVENT_KUNIT_NS		"EXPORTED_FOR_KUNIT_TESTING"
#else
#define KEVENT_KUNIT_NS		EXPORTED_FOR_KUNIT_TESTING
#endif

/*
 * 6.13 "hrtimers: Introduce hrtimer_setup() to replace hrtimer_init()":
 * the callback is set with the timer; hrtimer_init() is gone since. Used by
 * the test driver (test/kernel/kevent_test.c).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#include <linux/hrtimer.h>

static inline void
hrtimer_setup(struct hrtimer *timer,
	      enum hrtimer_restart (*function)(struct hrtimer *),
	      clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/*
 * 7.2 "driver core: Replace dev->offline + ->offline_disabled with
 * accessors": the offline state of a device is a bit of dev->flags, read
 * with dev_offline(). Before, a bitfield.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#define kevent_dev_offline(dev)		dev_offline(dev)
#else
/* SMT control writes it without the device lock: a race, and a known one */
#define kevent_dev_offline(dev)		data_race((bool)(dev)->offline)
#endif

/*
 * 6.15 "kernfs: Use RCU to access kernfs_node::parent" and "kernfs: Use RCU
 * to access kernfs_node::name": both are RCU pointers since. The node of a
 * sysfs attribute file never moves nor changes its name, so its own parent
 * and name are stable while it is referenced; a directory's parent is read
 * under rcu_read_lock().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
#define kevent_kn_parent(kn)	rcu_dereference_check((kn)->__parent, true)
#define kevent_kn_name(kn)	rcu_dereference_check((kn)->name, true)
#else
#define kevent_kn_parent(kn)	READ_ONCE((kn)->parent)
#define kevent_kn_name(kn)	((kn)->name)
#endif

#endif /* _KEVENT_COMPAT_H */
