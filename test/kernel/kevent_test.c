// SPDX-License-Identifier: GPL-2.0
/*
 * kevent_test: a driver that tests the kevent API where the demo driver,
 * an example, does not go.
 *
 * It binds to the platform device kevent-test.0, created at load, whose
 * attribute temperature is an event source the driver embeds in its data
 * and registers with devm_kevent_source_register(). The module parameter
 * name renames the device and driver: a name with a space, as real
 * platform devices have ("Fixed MDIO bus.0"), gives a source whose path
 * has one (insmod kevent_test.ko 'name="kevent test"'). With the module
 * parameter notify_us set, a high-resolution timer notifies that source
 * every notify_us microseconds, without any lock, from the probe on: its
 * devm cancel is registered before the source, so on unbind the source is
 * unregistered while the timer still fires, as an interrupt requested with
 * devm before the source would.
 *
 * Its control lives in debugfs, kevent_test/:
 *
 *   deep    write LEN: make a chain of kobjects below
 *           /sys/kernel/kevent_test whose last one's path below /sys is LEN
 *           bytes long, with an attribute label, and register that
 *           attribute as a source; the write fails with the registration's
 *           error, the chain staying. Write 0 to remove it. Read: the LEN
 *           of the chain there, 0 for none.
 *   notify  write anything: kevent_notify() the label of the chain's last
 *           kobject; the write fails with its error.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>

#include <kevent.h>

#include "kevent_compat.h"

#define KEVENT_TEST_NAME		"kevent-test"
/* Longest name of one kobject of the chain, longest path, most kobjects */
#define KEVENT_TEST_SEGMENT_MAX		200
#define KEVENT_TEST_DEEP_MAX		8192
#define KEVENT_TEST_DEEP_KOBJS		64

static char *name = KEVENT_TEST_NAME;
module_param(name, charp, 0444);
MODULE_PARM_DESC(name,
		 "Name of the platform device (with .0) and of the driver (default: " KEVENT_TEST_NAME ")");

static unsigned int notify_us;
module_param(notify_us, uint, 0644);
MODULE_PARM_DESC(notify_us,
		 "Notify the temperature source every notify_us microseconds from a timer, from probe to unbind (0: never, the default)");

/**
 * struct kevent_test_priv - the driver's data, allocated first in probe
 * @src: the temperature source; outlives the timer, which may notify it
 *	after it is unregistered
 * @timer: notifies @src every notify_us microseconds
 * @period: the timer's period
 */
struct kevent_test_priv {
	struct kevent_source src;
	struct hrtimer timer;
	ktime_t period;
};

static ssize_t temperature_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "25000\n");
}
static DEVICE_ATTR_RO(temperature);

static struct attribute *kevent_test_attrs[] = {
	&dev_attr_temperature.attr,
	NULL,
};

static const struct attribute_group kevent_test_group = {
	.attrs = kevent_test_attrs,
};

/* No lock: a notify may meet the source's unregistration at any point */
static enum hrtimer_restart kevent_test_timer_fn(struct hrtimer *timer)
{
	struct kevent_test_priv *priv = container_of(timer,
						     struct kevent_test_priv,
						     timer);

	kevent_source_notify(&priv->src);
	hrtimer_forward_now(timer, priv->period);

	return HRTIMER_RESTART;
}

static void kevent_test_timer_cancel(void *data)
{
	struct kevent_test_priv *priv = data;

	hrtimer_cancel(&priv->timer);
}

static int kevent_test_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct kevent_test_priv *priv;
	unsigned int us = READ_ONCE(notify_us);
	int ret;

	priv = devm_kzalloc(dev, sizeof(*priv), GFP_KERNEL);
	if (!priv)
		return -ENOMEM;

	/* The attribute must exist before it can be annotated */
	ret = devm_device_add_group(dev, &kevent_test_group);
	if (ret)
		return ret;
	hrtimer_setup(&priv->timer, kevent_test_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	priv->period = ns_to_ktime((u64)us * NSEC_PER_USEC);

	/* Released after the source: the timer outlives its registration */
	ret = devm_add_action_or_reset(dev, kevent_test_timer_cancel, priv);
	if (ret)
		return ret;
	if (us)
		hrtimer_start(&priv->timer, priv->period, HRTIMER_MODE_REL);

	ret = devm_kevent_source_register(dev, &priv->src,
					  &dev_attr_temperature.attr);
	if (ret)
		return dev_err_probe(dev, ret, "cannot annotate temperature\n");

	return 0;
}

static struct platform_driver kevent_test_driver = {
	.driver = {
		.name = KEVENT_TEST_NAME,
	},
	.probe = kevent_test_probe,
};

/* The deep control */

static ssize_t kevent_test_label_show(struct kobject *kobj,
				      struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "deep\n");
}

static struct kobj_attribute kevent_test_label =
	__ATTR(label, 0444, kevent_test_label_show, NULL);

/**
 * struct kevent_test_deep - the chain of kobjects of the deep control
 * @lock: serialises the writers of the control
 * @base: /sys/kernel/kevent_test, under which the chain hangs
 * @kobjs: the chain, from the top
 * @nr: the number of kobjects in @kobjs
 * @len: the length of the path of the last one below /sys, 0 for none
 * @registered: @src is registered
 * @src: the source of the last one's label
 */
struct kevent_test_deep {
	struct mutex lock;	/* protects the fields below */
	struct kobject *base;
	struct kobject *kobjs[KEVENT_TEST_DEEP_KOBJS];
	unsigned int nr;
	unsigned int len;
	bool registered;
	struct kevent_source src;
};

static struct kevent_test_deep *kevent_test_deep;
static struct platform_device *kevent_test_pdev;
static struct dentry *kevent_test_debugfs;

/* Remove the chain: its source, its attribute, its kobjects, last first */
static void kevent_test_deep_remove(struct kevent_test_deep *d)
{
	lockdep_assert_held(&d->lock);

	if (d->registered)
		kevent_source_unregister(&d->src);
	d->registered = false;
	if (d->len)
		sysfs_remove_file(d->kobjs[d->nr - 1], &kevent_test_label.attr);
	while (d->nr)
		kobject_put(d->kobjs[--d->nr]);
	d->len = 0;
}

/* Make a chain whose last kobject's path is @len bytes, and annotate it */
static int kevent_test_deep_add(struct kevent_test_deep *d, unsigned int len)
{
	char name[KEVENT_TEST_SEGMENT_MAX + 1];
	struct kobject *parent = d->base;
	unsigned int left, seg;
	char *path;
	int ret;

	lockdep_assert_held(&d->lock);

	path = kobject_get_path(d->base, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	left = len > strlen(path) ? len - strlen(path) : 0;
	kfree(path);
	/* Each kobject adds a '/' and a name of at least one byte */
	if (left < 2)
		return -EINVAL;

	while (left) {
		if (d->nr == KEVENT_TEST_DEEP_KOBJS) {
			ret = -E2BIG;
			goto out_remove;
		}
		seg = min(left - 1, KEVENT_TEST_SEGMENT_MAX);
		/* Leave no remainder too short for a kobject of its own */
		if (left - 1 - seg == 1)
			seg--;
		memset(name, 'd', seg);
		name[seg] = '\0';
		parent = kobject_create_and_add(name, parent);
		if (!parent) {
			ret = -ENOMEM;
			goto out_remove;
		}
		d->kobjs[d->nr++] = parent;
		left -= seg + 1;
	}

	ret = sysfs_create_file(parent, &kevent_test_label.attr);
	if (ret)
		goto out_remove;
	d->len = len;

	/* Refused or not, the chain stays for the notify control */
	ret = kevent_source_register(&d->src, parent, &kevent_test_label.attr);
	d->registered = !ret;

	return ret;

out_remove:
	while (d->nr)
		kobject_put(d->kobjs[--d->nr]);

	return ret;
}

static ssize_t kevent_test_deep_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	struct kevent_test_deep *d = kevent_test_deep;
	unsigned int len;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &len);
	if (ret)
		return ret;
	if (len > KEVENT_TEST_DEEP_MAX)
		return -EINVAL;

	mutex_lock(&d->lock);
	kevent_test_deep_remove(d);
	if (len)
		ret = kevent_test_deep_add(d, len);
	mutex_unlock(&d->lock);

	return ret ?: count;
}

static ssize_t kevent_test_deep_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct kevent_test_deep *d = kevent_test_deep;
	char buf[16];
	int len;

	mutex_lock(&d->lock);
	len = scnprintf(buf, sizeof(buf), "%u\n", d->len);
	mutex_unlock(&d->lock);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations kevent_test_deep_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = kevent_test_deep_read,
	.write = kevent_test_deep_write,
	.llseek = default_llseek,
};

static ssize_t kevent_test_notify_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	struct kevent_test_deep *d = kevent_test_deep;
	int ret = -ENOENT;

	mutex_lock(&d->lock);
	if (d->len)
		ret = kevent_notify(d->kobjs[d->nr - 1],
				    kevent_test_label.attr.name);
	mutex_unlock(&d->lock);

	return ret ?: count;
}

static const struct file_operations kevent_test_notify_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = kevent_test_notify_write,
};

static int __init kevent_test_init(void)
{
	struct kevent_test_deep *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	mutex_init(&d->lock);

	d->base = kobject_create_and_add("kevent_test", kernel_kobj);
	if (!d->base) {
		ret = -ENOMEM;
		goto out_free;
	}
	kevent_test_deep = d;

	kevent_test_driver.driver.name = name;
	ret = platform_driver_register(&kevent_test_driver);
	if (ret)
		goto out_put_base;

	kevent_test_pdev = platform_device_register_simple(name, 0, NULL, 0);
	if (IS_ERR(kevent_test_pdev)) {
		ret = PTR_ERR(kevent_test_pdev);
		goto out_unregister_driver;
	}

	kevent_test_debugfs = debugfs_create_dir("kevent_test", NULL);
	debugfs_create_file("deep", 0600, kevent_test_debugfs, NULL,
			    &kevent_test_deep_fops);
	debugfs_create_file("notify", 0200, kevent_test_debugfs, NULL,
			    &kevent_test_notify_fops);

	return 0;

out_unregister_driver:
	platform_driver_unregister(&kevent_test_driver);
out_put_base:
	kobject_put(d->base);
out_free:
	kfree(d);
	return ret;
}

static void __exit kevent_test_exit(void)
{
	struct kevent_test_deep *d = kevent_test_deep;

	debugfs_remove_recursive(kevent_test_debugfs);
	platform_device_unregister(kevent_test_pdev);
	platform_driver_unregister(&kevent_test_driver);

	mutex_lock(&d->lock);
	kevent_test_deep_remove(d);
	mutex_unlock(&d->lock);
	kobject_put(d->base);
	kfree(d);
}

module_init(kevent_test_init);
module_exit(kevent_test_exit);

MODULE_DESCRIPTION("Tests of the kevent API: removal races, long paths");
MODULE_LICENSE("GPL");
