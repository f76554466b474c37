// SPDX-License-Identifier: GPL-2.0
/*
 * kevent_demo: simulated temperature sensors, the example of a driver whose
 * attributes are kevent event sources. Each sensor is a platform device
 * kevent-demo.N with the annotated attributes temperature (millidegrees
 * Celsius), label and calibration (root only), and an hwmon device. The
 * driver notifies an attribute when its value changes; kevent tells user
 * space, which then reads the file. The hardware is simulated in debugfs,
 * kevent_demo/kevent-demo.N/:
 *   temperature  write an integer: set it as the interrupt would, notify
 *   label        write a string: set it (less one trailing newline), notify
 *   unplug       write 1: notify temperature, then unregister the device
 */

#include <linux/debugfs.h>
#include <linux/hwmon.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <kevent.h>

enum kevent_demo_attr { KEVENT_DEMO_TEMPERATURE, KEVENT_DEMO_LABEL,
			KEVENT_DEMO_CALIBRATION, KEVENT_DEMO_NR_ATTRS };

struct kevent_demo_sensor {
	spinlock_t lock;	/* protects the values and @unplugged */
	int temperature;
	int calibration;
	char label[256];
	bool unplugged;		/* the hardware is gone: reads fail */
	/* Embedded: notifying a source unregistered (unplugged) is harmless */
	struct kevent_source src[KEVENT_DEMO_NR_ATTRS];
	struct platform_device *pdev;	/* NULL once unplugged */
};

static unsigned int sensors = 2;
module_param(sensors, uint, 0444);
MODULE_PARM_DESC(sensors, "Number of simulated sensors (1-1024, default 2)");

static struct kevent_demo_sensor *kevent_demo_sensors;
static struct dentry *kevent_demo_debugfs;

/* Once unplugged, until the files are gone, reads fail as for a lost device */
static ssize_t kevent_demo_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct kevent_demo_sensor *s = dev_get_drvdata(dev);
	ssize_t len;

	spin_lock_irq(&s->lock);
	if (s->unplugged)
		len = -ENODEV;
	else if (!strcmp(attr->attr.name, "label"))
		len = sysfs_emit(buf, "%s\n", s->label);
	else
		len = sysfs_emit(buf, "%d\n",
				 !strcmp(attr->attr.name, "calibration") ?
				 s->calibration : s->temperature);
	spin_unlock_irq(&s->lock);
	return len;
}

/* In the order of enum kevent_demo_attr; the names are in attributes.txt */
static struct device_attribute kevent_demo_dev_attrs[] = {
	__ATTR(temperature, 0444, kevent_demo_show, NULL),
	__ATTR(label, 0444, kevent_demo_show, NULL),
	__ATTR(calibration, 0400, kevent_demo_show, NULL),
};

static struct attribute *kevent_demo_attrs[] = {
	&kevent_demo_dev_attrs[KEVENT_DEMO_TEMPERATURE].attr,
	&kevent_demo_dev_attrs[KEVENT_DEMO_LABEL].attr,
	&kevent_demo_dev_attrs[KEVENT_DEMO_CALIBRATION].attr,
	NULL
};

static const struct attribute_group kevent_demo_group = {
	.attrs = kevent_demo_attrs,
};

/* The hwmon device's name for the temperature, for sensors(1) */
static struct device_attribute dev_attr_temp1_input =
	__ATTR(temp1_input, 0444, kevent_demo_show, NULL);
static struct attribute *kevent_demo_temp_attrs[] = {
	&dev_attr_temp1_input.attr,
	NULL
};
ATTRIBUTE_GROUPS(kevent_demo_temp);

static int kevent_demo_probe(struct platform_device *pdev)
{
	struct kevent_demo_sensor *s = &kevent_demo_sensors[pdev->id];
	struct device *dev = &pdev->dev;
	struct device *hwmon;
	int ret, i;

	platform_set_drvdata(pdev, s);

	/* The attribute files must exist before they are annotated */
	ret = devm_device_add_group(dev, &kevent_demo_group);
	if (ret)
		return ret;

	/* Each source is unregistered when the driver is detached */
	for (i = 0; i < KEVENT_DEMO_NR_ATTRS; i++) {
		ret = devm_kevent_source_register(dev, &s->src[i],
						  kevent_demo_attrs[i]);
		if (ret)
			return dev_err_probe(dev, ret, "cannot annotate %s\n",
					     kevent_demo_attrs[i]->name);
	}

	hwmon = devm_hwmon_device_register_with_groups(dev, "kevent_demo", s,
						       kevent_demo_temp_groups);
	return PTR_ERR_OR_ZERO(hwmon);
}

static struct platform_driver kevent_demo_driver = {
	.driver.name = "kevent-demo",
	.probe = kevent_demo_probe,
};

/* The simulated hardware: the controls of a sensor in debugfs */

static int temperature_set(void *data, u64 val)
{
	struct kevent_demo_sensor *s = data;

	/* As a sensor's interrupt handler would: any context may notify */
	spin_lock_irq(&s->lock);
	s->temperature = clamp_val((s64)val, INT_MIN, INT_MAX);
	kevent_source_notify(&s->src[KEVENT_DEMO_TEMPERATURE]);
	spin_unlock_irq(&s->lock);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(temperature_fops, NULL, temperature_set,
				"%lld\n");

static ssize_t label_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct kevent_demo_sensor *s = file->private_data;
	char label[sizeof(s->label) + 1];	/* and a newline */

	if (count >= sizeof(label))
		return -EINVAL;
	if (copy_from_user(label, ubuf, count))
		return -EFAULT;
	label[count] = '\0';
	if (count && label[count - 1] == '\n')
		label[count - 1] = '\0';

	/* A change made in process context, notified there */
	spin_lock_irq(&s->lock);
	strscpy(s->label, label, sizeof(s->label));
	kevent_source_notify(&s->src[KEVENT_DEMO_LABEL]);
	spin_unlock_irq(&s->lock);
	return count;
}

static const struct file_operations label_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = label_write,
};

static int unplug_set(void *data, u64 val)
{
	struct kevent_demo_sensor *s = data;
	struct platform_device *pdev;

	if (val != 1)
		return -EINVAL;
	pdev = xchg(&s->pdev, NULL);
	if (!pdev)
		return -ENODEV;

	/* The event goes out first: a read of the temperature then fails */
	spin_lock_irq(&s->lock);
	s->unplugged = true;
	kevent_source_notify(&s->src[KEVENT_DEMO_TEMPERATURE]);
	spin_unlock_irq(&s->lock);
	platform_device_unregister(pdev);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(unplug_fops, NULL, unplug_set, "%llu\n");

/* Not __exit: the error path of kevent_demo_init() calls it too */
static void kevent_demo_exit(void)
{
	unsigned int i;

	/* Waits for the controls' writers, which use the devices */
	debugfs_remove_recursive(kevent_demo_debugfs);
	for (i = 0; i < sensors; i++)
		platform_device_unregister(kevent_demo_sensors[i].pdev);
	platform_driver_unregister(&kevent_demo_driver);
	kfree(kevent_demo_sensors);
}

static int __init kevent_demo_init(void)
{
	struct kevent_demo_sensor *s;
	struct dentry *dir;
	unsigned int i;
	int ret;

	if (!sensors || sensors > 1024)
		return -EINVAL;
	kevent_demo_sensors = kcalloc(sensors, sizeof(*s), GFP_KERNEL);
	if (!kevent_demo_sensors)
		return -ENOMEM;
	ret = platform_driver_register(&kevent_demo_driver);
	if (ret) {
		kfree(kevent_demo_sensors);
		return ret;
	}

	kevent_demo_debugfs = debugfs_create_dir("kevent_demo", NULL);
	for (i = 0; i < sensors; i++) {
		s = &kevent_demo_sensors[i];
		spin_lock_init(&s->lock);
		s->temperature = 25000;
		snprintf(s->label, sizeof(s->label), "sensor %u", i);

		s->pdev = platform_device_register_simple("kevent-demo", i,
							  NULL, 0);
		if (IS_ERR(s->pdev)) {
			ret = PTR_ERR(s->pdev);
			s->pdev = NULL;
			kevent_demo_exit();
			return ret;
		}
		dir = debugfs_create_dir(dev_name(&s->pdev->dev),
					 kevent_demo_debugfs);
		debugfs_create_file_unsafe("temperature", 0200, dir, s,
					   &temperature_fops);
		debugfs_create_file("label", 0200, dir, s, &label_fops);
		debugfs_create_file_unsafe("unplug", 0200, dir, s,
					   &unplug_fops);
	}
	return 0;
}
module_init(kevent_demo_init);
module_exit(kevent_demo_exit);

MODULE_DESCRIPTION("Simulated sensors whose attributes are kevent sources");
MODULE_LICENSE("GPL");
