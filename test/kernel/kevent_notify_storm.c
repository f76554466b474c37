// SPDX-License-Identifier: GPL-2.0
/*
 * kevent_notify_storm: many attribute files announced at once with
 * sysfs_notify(), the way the stock kernel announces its own, with no use
 * of kevent: for the bounds of kevent.ko's probe on kernfs_notify().
 *
 * It creates /sys/kernel/kevent_notify_storm/ with the files f0 ...
 * f<files - 1> (module parameter files, 1 to 1024, default 300), each
 * reading 0, and notify: writing N to it calls sysfs_notify() on f0 to
 * f<N - 1>, one after another, from process context. For the benchmark,
 * bench: writing N times N calls of sysfs_notify() on f0; reading it gives
 * "sysfs_notify N TOTAL_NS NS_PER_CALL" of the last run.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#define KEVENT_NOTIFY_STORM_MAX 1024

static unsigned int files = 300;
module_param(files, uint, 0444);
MODULE_PARM_DESC(files, "Attribute files to create, 1 to 1024 (default 300)");

static struct kobject *kevent_notify_storm_kobj;
static struct kobj_attribute *kevent_notify_storm_attrs;
static struct attribute **kevent_notify_storm_list;
static struct attribute_group kevent_notify_storm_group;

static ssize_t kevent_notify_storm_show(struct kobject *kobj,
					struct kobj_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "0\n");
}

/* notify: sysfs_notify() on the first N files */
static ssize_t notify_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	unsigned int n, i;
	int ret;

	ret = kstrtouint(buf, 0, &n);
	if (ret)
		return ret;
	if (n > files)
		return -EINVAL;

	for (i = 0; i < n; i++)
		sysfs_notify(kobj, NULL, kevent_notify_storm_attrs[i].attr.name);

	return count;
}

static struct kobj_attribute kevent_notify_storm_notify = __ATTR_WO(notify);

/* The last bench run, under kevent_notify_storm_bench_lock */
static DEFINE_MUTEX(kevent_notify_storm_bench_lock);
static unsigned int kevent_notify_storm_bench_n;
static u64 kevent_notify_storm_bench_ns;

/*
 * bench: N calls of sysfs_notify() on f0, timed in chunks, the CPU yielded
 * between chunks outside the time measured
 */
static ssize_t bench_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	const char *name = kevent_notify_storm_attrs[0].attr.name;
	unsigned int n, i = 0, end;
	u64 total = 0, start;
	int ret;

	ret = kstrtouint(buf, 0, &n);
	if (ret)
		return ret;
	if (!n)
		return -EINVAL;

	mutex_lock(&kevent_notify_storm_bench_lock);
	while (i < n) {
		end = min(n, i + 1024);
		start = ktime_get_ns();
		for (; i < end; i++)
			sysfs_notify(kobj, NULL, name);
		total += ktime_get_ns() - start;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	if (!ret) {
		kevent_notify_storm_bench_n = n;
		kevent_notify_storm_bench_ns = total;
	}
	mutex_unlock(&kevent_notify_storm_bench_lock);

	return ret ? ret : count;
}

static ssize_t bench_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	ssize_t len = 0;

	mutex_lock(&kevent_notify_storm_bench_lock);
	if (kevent_notify_storm_bench_n)
		len = sysfs_emit(buf, "sysfs_notify %u %llu %llu\n",
				 kevent_notify_storm_bench_n,
				 kevent_notify_storm_bench_ns,
				 div_u64(kevent_notify_storm_bench_ns,
					 kevent_notify_storm_bench_n));
	mutex_unlock(&kevent_notify_storm_bench_lock);

	return len;
}

static struct kobj_attribute kevent_notify_storm_bench =
	__ATTR(bench, 0600, bench_show, bench_store);

static void kevent_notify_storm_free(void)
{
	unsigned int i;

	if (kevent_notify_storm_attrs)
		for (i = 0; i < files; i++)
			kfree(kevent_notify_storm_attrs[i].attr.name);
	kfree(kevent_notify_storm_attrs);
	kfree(kevent_notify_storm_list);
}

static int __init kevent_notify_storm_init(void)
{
	unsigned int i;
	int ret;

	if (!files || files > KEVENT_NOTIFY_STORM_MAX)
		return -EINVAL;

	kevent_notify_storm_attrs = kcalloc(files,
					    sizeof(*kevent_notify_storm_attrs),
					    GFP_KERNEL);
	/* The files, notify, bench and the NULL that ends the list */
	kevent_notify_storm_list = kcalloc(files + 3,
					   sizeof(*kevent_notify_storm_list),
					   GFP_KERNEL);
	if (!kevent_notify_storm_attrs || !kevent_notify_storm_list) {
		ret = -ENOMEM;
		goto out_free;
	}

	for (i = 0; i < files; i++) {
		struct kobj_attribute *ka = &kevent_notify_storm_attrs[i];

		ka->attr.name = kasprintf(GFP_KERNEL, "f%u", i);
		if (!ka->attr.name) {
			ret = -ENOMEM;
			goto out_free;
		}
		sysfs_attr_init(&ka->attr);
		ka->attr.mode = 0444;
		ka->show = kevent_notify_storm_show;
		kevent_notify_storm_list[i] = &ka->attr;
	}
	kevent_notify_storm_list[files] = &kevent_notify_storm_notify.attr;
	kevent_notify_storm_list[files + 1] = &kevent_notify_storm_bench.attr;
	kevent_notify_storm_group.attrs = kevent_notify_storm_list;

	kevent_notify_storm_kobj = kobject_create_and_add("kevent_notify_storm",
							  kernel_kobj);
	if (!kevent_notify_storm_kobj) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = sysfs_create_group(kevent_notify_storm_kobj,
				 &kevent_notify_storm_group);
	if (ret)
		goto out_put;

	return 0;

out_put:
	kobject_put(kevent_notify_storm_kobj);
out_free:
	kevent_notify_storm_free();
	return ret;
}

static void __exit kevent_notify_storm_exit(void)
{
	sysfs_remove_group(kevent_notify_storm_kobj, &kevent_notify_storm_group);
	kobject_put(kevent_notify_storm_kobj);
	kevent_notify_storm_free();
}

module_init(kevent_notify_storm_init);
module_exit(kevent_notify_storm_exit);

MODULE_DESCRIPTION("Many sysfs attributes announced at once, for kevent's tests");
MODULE_LICENSE("GPL");
