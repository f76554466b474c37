// SPDX-License-Identifier: GPL-2.0
/*
 * kevent_sensor_test: the test driver of the VM suites and of the benchmark,
 * simulated sensors whose attributes are kevent sources.
 *
 * The sensors have the shape of kernel/kevent_demo.c's, the example driver:
 * each one is a platform device kevent-sensor-test.N with the attributes
 * temperature (25000 at first), label ("sensor N") and calibration (root
 * only). Besides the demo's controls (temperature, label, unplug), the
 * controls that exist only for tests and benchmarks live here; all of them
 * in debugfs, in kevent_sensor_test/kevent-sensor-test.N/:
 *
 *   temperature  write a decimal integer: set it, then notify
 *   label        write a string: set it (less one trailing newline), notify
 *   storm        write N: N increments of temperature, each one notified
 *                from atomic context
 *   unplug       write 1: notify temperature, then unregister the device
 *   failing      write 1: the attributes read ENODEV, as they do while the
 *                device goes away, the device and its files staying there;
 *                write 0: they read their values again
 *   notify       write an attribute name: kevent_notify() it once, the write
 *                failing with its error; "hwmon:NAME" notifies the hwmon
 *                device's attribute NAME, as hwmon_notify_event() of the
 *                kernel with the layer built in does (temp1_alarm)
 *   churn        write N: for N seconds, remove the temperature source and
 *                add it again, over and over, while a thread on each of two
 *                CPUs notifies it from atomic context; the write fails
 *                with ENODEV when the driver is unbound meanwhile, which
 *                ends it; read: what the last run did ("cycles C notifies
 *                N failures F")
 *   bench        write "METHOD N": N times, increment the temperature and
 *                announce it with METHOD, timing the loop; read: the result
 *                of the last run ("METHOD N TOTAL_NS NS_PER_OP"). METHOD is
 *                source_notify (kevent_source_notify() with the sensor's
 *                spinlock held), notify (kevent_notify()), uevent
 *                (kobject_uevent_env() of a change with NAME=temperature, as
 *                hwmon_notify_event() sends it), sysfs_notify, or
 *                hwmon_notify (hwmon_notify_event() of temp1_input on the
 *                sensor's hwmon device: sysfs_notify() and the uevent, the
 *                work kevent_notify() does, as every hwmon driver notifies)
 *
 * The module parameter extra_sources (0 to 7, default 0) gives each sensor
 * that many more annotated attributes, named after entries of the registry
 * (capacity, status, online, mtu, address, carrier, operstate), each
 * reading 0: many sources for scale measurements.
 *
 * Each sensor also registers an hwmon device "kevent_sensor_test" below its
 * platform device, with temp1_input (the temperature), temp1_max (writable by root,
 * 80000 at first) and temp1_alarm (1 while the temperature is above
 * temp1_max). When a change of the temperature or of temp1_max flips
 * temp1_alarm, a work item calls hwmon_notify_event(), which sends a change
 * uevent with NAME=temp1_alarm and wakes poll()ers of temp1_alarm.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <kevent.h>

#define SENSOR_TEST_NAME		"kevent-sensor-test"
#define SENSOR_TEST_MAX_SENSORS		1024
#define SENSOR_TEST_LABEL_MAX		255
#define SENSOR_TEST_NOTIFY_MAX		64
#define SENSOR_TEST_TEMPERATURE		25000
#define SENSOR_TEST_TEMP_MAX		80000
#define SENSOR_TEST_BENCH_MAX		10000000
#define SENSOR_TEST_BENCH_CMD_MAX	64

enum sensor_test_attr {
	SENSOR_TEST_ATTR_TEMPERATURE,
	SENSOR_TEST_ATTR_LABEL,
	SENSOR_TEST_ATTR_CALIBRATION,

	SENSOR_TEST_NR_ATTRS,
};

enum sensor_test_bench_method {
	SENSOR_TEST_BENCH_SOURCE_NOTIFY,
	SENSOR_TEST_BENCH_NOTIFY,
	SENSOR_TEST_BENCH_UEVENT,
	SENSOR_TEST_BENCH_SYSFS_NOTIFY,
	SENSOR_TEST_BENCH_HWMON_NOTIFY,

	SENSOR_TEST_NR_BENCH_METHODS,
};

static const char *const sensor_test_bench_names[] = {
	[SENSOR_TEST_BENCH_SOURCE_NOTIFY] = "source_notify",
	[SENSOR_TEST_BENCH_NOTIFY] = "notify",
	[SENSOR_TEST_BENCH_UEVENT] = "uevent",
	[SENSOR_TEST_BENCH_SYSFS_NOTIFY] = "sysfs_notify",
	[SENSOR_TEST_BENCH_HWMON_NOTIFY] = "hwmon_notify",
};

/**
 * struct sensor_test_bench - the result of a sensor's last bench run
 * @method: what was timed, or -1 before the first run
 * @n: the number of notifications
 * @total_ns: time they took, nanoseconds
 */
struct sensor_test_bench {
	int method;
	unsigned int n;
	u64 total_ns;
};

/**
 * struct sensor_test_sensor - one simulated sensor
 * @lock: protects the fields below it; taken with interrupts off
 * @temperature: millidegrees Celsius
 * @calibration: offset in millidegrees, readable by root only
 * @label: human-readable name, @label_len bytes, not NUL-terminated
 * @label_len: length of @label
 * @unplugged: the device is going away; its attributes read -ENODEV
 * @failing: the attributes read -ENODEV, the device staying (the failing
 *	control)
 * @src: the attributes' event sources while the driver is bound
 * @src_lock: serialises adding and removing the temperature source: the
 *	churn control against the driver's detach; taken before @lock
 * @bound: the driver is bound and the temperature source is there or being
 *	churned; under @src_lock
 * @temp_max: the hwmon temp1_max, millidegrees Celsius
 * @alarm: the hwmon temp1_alarm as last computed: @temperature > @temp_max
 * @hwmon: the hwmon device while the driver is bound, else NULL
 * @alarm_work: sends the hwmon notification of a change of @alarm
 * @pdev: the platform device, NULL once unplugged; under sensor_test_lock
 * @bench: the last bench run; under sensor_test_lock
 */
struct sensor_test_sensor {
	spinlock_t lock;	/* protects the values and @src */
	int temperature;
	int calibration;
	char label[SENSOR_TEST_LABEL_MAX];
	size_t label_len;
	bool unplugged;
	bool failing;
	struct kevent_source *src[SENSOR_TEST_NR_ATTRS];
	struct mutex src_lock;	/* protects @bound */
	bool bound;
	int temp_max;
	bool alarm;
	struct device *hwmon;
	struct work_struct alarm_work;
	struct platform_device *pdev;
	struct sensor_test_bench bench;
};

static unsigned int sensors = 2;
module_param(sensors, uint, 0444);
MODULE_PARM_DESC(sensors, "Number of simulated sensors (1-1024, default 2)");

static unsigned int extra_sources;
module_param(extra_sources, uint, 0444);
MODULE_PARM_DESC(extra_sources,
		 "Annotated attributes each sensor has besides its own three (0-7, default 0)");

/**
 * struct sensor_test_churn - what the last churn run of a sensor did
 * @cycles: times the temperature source was removed and added again
 * @notifies: notifications the two threads made
 * @failures: times adding the source again failed (it stayed absent)
 */
struct sensor_test_churn {
	unsigned long cycles;
	atomic_long_t notifies;
	unsigned long failures;
};

static struct sensor_test_churn sensor_test_churn_result;

static struct sensor_test_sensor *sensor_test_sensors;
static unsigned int sensor_test_count;
static struct dentry *sensor_test_debugfs;
/* Serialises unplugging with the controls that use the platform device */
static DEFINE_MUTEX(sensor_test_lock);

/* Notify an attribute of @s; @s->lock is held */
static void sensor_test_notify(struct sensor_test_sensor *s,
			       enum sensor_test_attr attr)
{
	lockdep_assert_held(&s->lock);

	if (s->src[attr])
		kevent_source_notify(s->src[attr]);
}

/*
 * Recompute the alarm after a change of the temperature or of its maximum;
 * if it flipped, have the work item notify it. @s->lock is held: any context.
 */
static void sensor_test_update_alarm(struct sensor_test_sensor *s)
{
	bool alarm = s->temperature > s->temp_max;

	lockdep_assert_held(&s->lock);

	if (alarm == s->alarm)
		return;
	s->alarm = alarm;
	if (s->hwmon)
		schedule_work(&s->alarm_work);
}

/* Process context: hwmon_notify_event() sends a uevent, which may sleep */
static void sensor_test_alarm_work(struct work_struct *work)
{
	struct sensor_test_sensor *s =
		container_of(work, struct sensor_test_sensor, alarm_work);
	struct device *hwmon;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	hwmon = s->hwmon;
	spin_unlock_irqrestore(&s->lock, flags);

	/* sensor_test_hwmon_detach() waits for this before it goes away */
	if (hwmon)
		hwmon_notify_event(hwmon, hwmon_temp, hwmon_temp_alarm, 0);
}

static ssize_t temperature_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct sensor_test_sensor *s = dev_get_drvdata(dev);
	unsigned long flags;
	int temperature;
	bool unplugged;

	spin_lock_irqsave(&s->lock, flags);
	temperature = s->temperature;
	unplugged = s->unplugged || s->failing;
	spin_unlock_irqrestore(&s->lock, flags);

	if (unplugged)
		return -ENODEV;

	return sysfs_emit(buf, "%d\n", temperature);
}
static DEVICE_ATTR_RO(temperature);

static ssize_t label_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct sensor_test_sensor *s = dev_get_drvdata(dev);
	unsigned long flags;
	ssize_t len;

	spin_lock_irqsave(&s->lock, flags);
	if (s->unplugged || s->failing) {
		len = -ENODEV;
	} else {
		memcpy(buf, s->label, s->label_len);
		buf[s->label_len] = '\n';
		len = s->label_len + 1;
	}
	spin_unlock_irqrestore(&s->lock, flags);

	return len;
}
static DEVICE_ATTR_RO(label);

static ssize_t calibration_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct sensor_test_sensor *s = dev_get_drvdata(dev);
	unsigned long flags;
	int calibration;
	bool unplugged;

	spin_lock_irqsave(&s->lock, flags);
	calibration = s->calibration;
	unplugged = s->unplugged || s->failing;
	spin_unlock_irqrestore(&s->lock, flags);

	if (unplugged)
		return -ENODEV;

	return sysfs_emit(buf, "%d\n", calibration);
}
static DEVICE_ATTR_ADMIN_RO(calibration);

static struct attribute *sensor_test_attrs[] = {
	[SENSOR_TEST_ATTR_TEMPERATURE] = &dev_attr_temperature.attr,
	[SENSOR_TEST_ATTR_LABEL] = &dev_attr_label.attr,
	[SENSOR_TEST_ATTR_CALIBRATION] = &dev_attr_calibration.attr,
	NULL
};

static const struct attribute_group sensor_test_group = {
	.attrs = sensor_test_attrs,
};

static ssize_t sensor_test_extra_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0\n");
}

#define SENSOR_TEST_EXTRA_ATTR(_name)					\
	struct device_attribute dev_attr_extra_##_name =		\
		__ATTR(_name, 0444, sensor_test_extra_show, NULL)

static SENSOR_TEST_EXTRA_ATTR(capacity);
static SENSOR_TEST_EXTRA_ATTR(status);
static SENSOR_TEST_EXTRA_ATTR(online);
static SENSOR_TEST_EXTRA_ATTR(mtu);
static SENSOR_TEST_EXTRA_ATTR(address);
static SENSOR_TEST_EXTRA_ATTR(carrier);
static SENSOR_TEST_EXTRA_ATTR(operstate);

/* Names from the registry, so that they can be annotated */
static struct attribute *sensor_test_extra_attrs[] = {
	&dev_attr_extra_capacity.attr,
	&dev_attr_extra_status.attr,
	&dev_attr_extra_online.attr,
	&dev_attr_extra_mtu.attr,
	&dev_attr_extra_address.attr,
	&dev_attr_extra_carrier.attr,
	&dev_attr_extra_operstate.attr,
	NULL
};

#define SENSOR_TEST_MAX_EXTRA	(ARRAY_SIZE(sensor_test_extra_attrs) - 1)

static umode_t sensor_test_extra_is_visible(struct kobject *kobj,
					    struct attribute *attr, int n)
{
	return n < extra_sources ? attr->mode : 0;
}

static const struct attribute_group sensor_test_extra_group = {
	.attrs = sensor_test_extra_attrs,
	.is_visible = sensor_test_extra_is_visible,
};

static umode_t sensor_test_hwmon_is_visible(const void *data,
					    enum hwmon_sensor_types type,
					    u32 attr, int channel)
{
	if (type != hwmon_temp)
		return 0;

	switch (attr) {
	case hwmon_temp_input:
	case hwmon_temp_alarm:
		return 0444;
	case hwmon_temp_max:
		return 0644;
	default:
		return 0;
	}
}

static int sensor_test_hwmon_read(struct device *dev,
				  enum hwmon_sensor_types type, u32 attr,
				  int channel, long *val)
{
	struct sensor_test_sensor *s = dev_get_drvdata(dev);
	unsigned long flags;
	int ret = 0;

	if (type != hwmon_temp)
		return -EOPNOTSUPP;

	spin_lock_irqsave(&s->lock, flags);
	if (s->unplugged) {
		ret = -ENODEV;
		goto out_unlock;
	}
	switch (attr) {
	case hwmon_temp_input:
		*val = s->temperature;
		break;
	case hwmon_temp_max:
		*val = s->temp_max;
		break;
	case hwmon_temp_alarm:
		*val = s->temperature > s->temp_max;
		break;
	default:
		ret = -EOPNOTSUPP;
		break;
	}
out_unlock:
	spin_unlock_irqrestore(&s->lock, flags);

	return ret;
}

static int sensor_test_hwmon_write(struct device *dev,
				   enum hwmon_sensor_types type, u32 attr,
				   int channel, long val)
{
	struct sensor_test_sensor *s = dev_get_drvdata(dev);
	unsigned long flags;
	int ret = 0;

	if (type != hwmon_temp || attr != hwmon_temp_max)
		return -EOPNOTSUPP;

	spin_lock_irqsave(&s->lock, flags);
	if (s->unplugged) {
		ret = -ENODEV;
	} else {
		s->temp_max = clamp_val(val, INT_MIN, INT_MAX);
		sensor_test_update_alarm(s);
	}
	spin_unlock_irqrestore(&s->lock, flags);

	return ret;
}

static const struct hwmon_ops sensor_test_hwmon_ops = {
	.is_visible = sensor_test_hwmon_is_visible,
	.read = sensor_test_hwmon_read,
	.write = sensor_test_hwmon_write,
};

static const struct hwmon_channel_info *sensor_test_hwmon_info[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_ALARM),
	NULL
};

static const struct hwmon_chip_info sensor_test_hwmon_chip = {
	.ops = &sensor_test_hwmon_ops,
	.info = sensor_test_hwmon_info,
};

/* Runs before the hwmon device is unregistered: no notification after it */
static void sensor_test_hwmon_detach(void *data)
{
	struct sensor_test_sensor *s = data;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	s->hwmon = NULL;
	spin_unlock_irqrestore(&s->lock, flags);

	cancel_work_sync(&s->alarm_work);
}

static void sensor_test_detach(void *data)
{
	struct sensor_test_sensor *s = data;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	memset(s->src, 0, sizeof(s->src));
	spin_unlock_irqrestore(&s->lock, flags);
}

/* Take the temperature source out of @s, where nothing can notify it */
static struct kevent_source *
sensor_test_take_temperature(struct sensor_test_sensor *s)
{
	struct kevent_source *src;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	src = s->src[SENSOR_TEST_ATTR_TEMPERATURE];
	s->src[SENSOR_TEST_ATTR_TEMPERATURE] = NULL;
	spin_unlock_irqrestore(&s->lock, flags);

	return src;
}

/*
 * The driver detaches: remove the temperature source, after a churn cycle
 * in progress, and stop the churn from adding it again.
 */
static void sensor_test_remove_temperature(void *data)
{
	struct sensor_test_sensor *s = data;

	mutex_lock(&s->src_lock);
	s->bound = false;
	kevent_source_remove(sensor_test_take_temperature(s));
	mutex_unlock(&s->src_lock);
}

static int sensor_test_probe(struct platform_device *pdev)
{
	struct kevent_source *src[SENSOR_TEST_NR_ATTRS];
	struct device *dev = &pdev->dev;
	struct kevent_source *extra;
	struct sensor_test_sensor *s;
	struct device *hwmon;
	unsigned long flags;
	int ret;
	int i;

	if (pdev->id < 0 || pdev->id >= sensor_test_count)
		return -ENODEV;
	s = &sensor_test_sensors[pdev->id];
	platform_set_drvdata(pdev, s);

	/* The attributes must exist before they can be annotated */
	ret = devm_device_add_group(dev, &sensor_test_group);
	if (ret)
		return ret;

	if (extra_sources) {
		ret = devm_device_add_group(dev, &sensor_test_extra_group);
		if (ret)
			return ret;
	}
	for (i = 0; i < extra_sources; i++) {
		extra = devm_kevent_source_add(dev, sensor_test_extra_attrs[i]);
		if (IS_ERR(extra))
			return dev_err_probe(dev, PTR_ERR(extra),
					     "cannot annotate %s\n",
					     sensor_test_extra_attrs[i]->name);
	}

	/*
	 * The temperature source is added by hand, not with devm, so that the
	 * churn control can remove it and add it again.
	 */
	for (i = 0; i < SENSOR_TEST_NR_ATTRS; i++) {
		if (i == SENSOR_TEST_ATTR_TEMPERATURE)
			continue;
		src[i] = devm_kevent_source_add(dev, sensor_test_attrs[i]);
		if (IS_ERR(src[i]))
			return dev_err_probe(dev, PTR_ERR(src[i]),
					     "cannot annotate %s\n",
					     sensor_test_attrs[i]->name);
	}

	/* Released before the sources: controls stop notifying first */
	ret = devm_add_action(dev, sensor_test_detach, s);
	if (ret)
		return ret;

	src[SENSOR_TEST_ATTR_TEMPERATURE] =
		kevent_source_add(&dev->kobj,
				  sensor_test_attrs[SENSOR_TEST_ATTR_TEMPERATURE]);
	if (IS_ERR(src[SENSOR_TEST_ATTR_TEMPERATURE]))
		return dev_err_probe(dev,
				     PTR_ERR(src[SENSOR_TEST_ATTR_TEMPERATURE]),
				     "cannot annotate temperature\n");

	mutex_lock(&s->src_lock);
	spin_lock_irqsave(&s->lock, flags);
	memcpy(s->src, src, sizeof(s->src));
	spin_unlock_irqrestore(&s->lock, flags);
	s->bound = true;
	mutex_unlock(&s->src_lock);

	/* Released first: takes the temperature source out, then removes it */
	ret = devm_add_action_or_reset(dev, sensor_test_remove_temperature, s);
	if (ret)
		return ret;

	hwmon = devm_hwmon_device_register_with_info(dev, "kevent_sensor_test",
						     s, &sensor_test_hwmon_chip,
						     NULL);
	if (IS_ERR(hwmon))
		return dev_err_probe(dev, PTR_ERR(hwmon),
				     "cannot register the hwmon device\n");

	/* Released before the hwmon device: the work item stops first */
	ret = devm_add_action_or_reset(dev, sensor_test_hwmon_detach, s);
	if (ret)
		return ret;

	spin_lock_irqsave(&s->lock, flags);
	s->hwmon = hwmon;
	spin_unlock_irqrestore(&s->lock, flags);

	return 0;
}

static struct platform_driver sensor_test_driver = {
	.driver = {
		.name = SENSOR_TEST_NAME,
	},
	.probe = sensor_test_probe,
};

static bool sensor_test_present(struct sensor_test_sensor *s)
{
	unsigned long flags;
	bool unplugged;

	spin_lock_irqsave(&s->lock, flags);
	unplugged = s->unplugged;
	spin_unlock_irqrestore(&s->lock, flags);

	return !unplugged;
}

static ssize_t sensor_test_temperature_write(struct file *file,
					     const char __user *ubuf,
					     size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	unsigned long flags;
	int temperature;
	ssize_t ret;

	ret = kstrtoint_from_user(ubuf, count, 10, &temperature);
	if (ret)
		return ret;

	spin_lock_irqsave(&s->lock, flags);
	if (s->unplugged) {
		ret = -ENODEV;
	} else {
		s->temperature = temperature;
		sensor_test_notify(s, SENSOR_TEST_ATTR_TEMPERATURE);
		sensor_test_update_alarm(s);
		ret = count;
	}
	spin_unlock_irqrestore(&s->lock, flags);

	return ret;
}

static const struct file_operations sensor_test_temperature_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sensor_test_temperature_write,
};

static ssize_t sensor_test_label_write(struct file *file,
				       const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	unsigned long flags;
	size_t len = count;
	ssize_t ret;
	char *label;

	/* Room for the longest label and the newline that may follow it */
	if (count > SENSOR_TEST_LABEL_MAX + 1)
		return -EINVAL;

	label = memdup_user(ubuf, count);
	if (IS_ERR(label))
		return PTR_ERR(label);

	if (len && label[len - 1] == '\n')
		len--;
	if (len > SENSOR_TEST_LABEL_MAX) {
		kfree(label);
		return -EINVAL;
	}

	spin_lock_irqsave(&s->lock, flags);
	if (s->unplugged) {
		ret = -ENODEV;
	} else {
		memcpy(s->label, label, len);
		s->label_len = len;
		sensor_test_notify(s, SENSOR_TEST_ATTR_LABEL);
		ret = count;
	}
	spin_unlock_irqrestore(&s->lock, flags);

	kfree(label);

	return ret;
}

static const struct file_operations sensor_test_label_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sensor_test_label_write,
};

static ssize_t sensor_test_storm_write(struct file *file,
				       const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	unsigned long flags;
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &n);
	if (ret)
		return ret;

	if (!sensor_test_present(s))
		return -ENODEV;

	for (i = 0; i < n; i++) {
		spin_lock_irqsave(&s->lock, flags);
		if (s->unplugged) {
			spin_unlock_irqrestore(&s->lock, flags);
			return -ENODEV;
		}
		s->temperature++;
		sensor_test_notify(s, SENSOR_TEST_ATTR_TEMPERATURE);
		sensor_test_update_alarm(s);
		spin_unlock_irqrestore(&s->lock, flags);

		if (!(i % 1024)) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}

	return count;
}

static const struct file_operations sensor_test_storm_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sensor_test_storm_write,
};

static ssize_t sensor_test_unplug_write(struct file *file,
					const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	unsigned long flags;
	bool unplug;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &unplug);
	if (ret)
		return ret;
	if (!unplug)
		return -EINVAL;

	mutex_lock(&sensor_test_lock);
	if (!s->pdev) {
		mutex_unlock(&sensor_test_lock);
		return -ENODEV;
	}

	spin_lock_irqsave(&s->lock, flags);
	s->unplugged = true;
	sensor_test_notify(s, SENSOR_TEST_ATTR_TEMPERATURE);
	spin_unlock_irqrestore(&s->lock, flags);

	platform_device_unregister(s->pdev);
	s->pdev = NULL;
	mutex_unlock(&sensor_test_lock);

	return count;
}

static const struct file_operations sensor_test_unplug_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sensor_test_unplug_write,
};

static ssize_t sensor_test_failing_write(struct file *file,
					 const char __user *ubuf,
					 size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	unsigned long flags;
	bool failing;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &failing);
	if (ret)
		return ret;

	spin_lock_irqsave(&s->lock, flags);
	s->failing = failing;
	spin_unlock_irqrestore(&s->lock, flags);

	return count;
}

static const struct file_operations sensor_test_failing_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sensor_test_failing_write,
};

/* kevent_notify() an attribute of the sensor's hwmon device, if it has one */
static int sensor_test_notify_hwmon(struct sensor_test_sensor *s,
				    const char *name)
{
	struct device *hwmon;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&s->lock, flags);
	hwmon = get_device(s->hwmon);
	spin_unlock_irqrestore(&s->lock, flags);
	if (!hwmon)
		return -ENODEV;

	ret = kevent_notify(&hwmon->kobj, name);
	put_device(hwmon);

	return ret;
}

static ssize_t sensor_test_notify_write(struct file *file,
					const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	char name[SENSOR_TEST_NOTIFY_MAX + 1];
	size_t len = count;
	int ret;

	if (count > SENSOR_TEST_NOTIFY_MAX)
		return -EINVAL;
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	if (len && name[len - 1] == '\n')
		len--;
	name[len] = '\0';

	if (!strncmp(name, "hwmon:", 6))
		return sensor_test_notify_hwmon(s, name + 6) ?: count;

	mutex_lock(&sensor_test_lock);
	if (s->pdev)
		ret = kevent_notify(&s->pdev->dev.kobj, name);
	else
		ret = -ENODEV;
	mutex_unlock(&sensor_test_lock);

	return ret ?: count;
}

static const struct file_operations sensor_test_notify_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sensor_test_notify_write,
};

/* A churn thread: notify the temperature from atomic context until told */
static int sensor_test_churn_notify(void *data)
{
	struct sensor_test_sensor *s = data;
	unsigned long flags;

	while (!kthread_should_stop()) {
		spin_lock_irqsave(&s->lock, flags);
		if (s->src[SENSOR_TEST_ATTR_TEMPERATURE]) {
			kevent_source_notify(s->src[SENSOR_TEST_ATTR_TEMPERATURE]);
			atomic_long_inc(&sensor_test_churn_result.notifies);
		}
		spin_unlock_irqrestore(&s->lock, flags);
		cond_resched();
	}

	return 0;
}

/*
 * Remove the temperature source of @s and add it again, once, unless the
 * driver is detached (or detaching): a source added then would never be
 * removed. Return: 0, -ENODEV when detached, -ENOMEM when adding failed.
 */
static int sensor_test_churn_once(struct sensor_test_sensor *s)
{
	struct kobject *kobj = &s->pdev->dev.kobj;
	struct kevent_source *src;
	unsigned long flags;
	int ret = 0;

	mutex_lock(&s->src_lock);
	if (!s->bound) {
		ret = -ENODEV;
		goto out_unlock;
	}

	kevent_source_remove(sensor_test_take_temperature(s));

	src = kevent_source_add(kobj, sensor_test_attrs[SENSOR_TEST_ATTR_TEMPERATURE]);
	if (IS_ERR(src)) {
		sensor_test_churn_result.failures++;
		ret = -ENOMEM;
	} else {
		spin_lock_irqsave(&s->lock, flags);
		s->src[SENSOR_TEST_ATTR_TEMPERATURE] = src;
		spin_unlock_irqrestore(&s->lock, flags);
	}
	sensor_test_churn_result.cycles++;

out_unlock:
	mutex_unlock(&s->src_lock);

	return ret;
}

/*
 * Remove the temperature source of @s and add it again until @end, or
 * until the driver is detached from the sensor.
 * Return: 0 if the source is there at the end, -ENOMEM if adding it failed
 * the last time, -ENODEV if the driver was detached.
 */
static int sensor_test_churn_cycle(struct sensor_test_sensor *s,
				   unsigned long end)
{
	int ret = 0;

	while (time_before(jiffies, end) && !fatal_signal_pending(current)) {
		ret = sensor_test_churn_once(s);
		if (ret == -ENODEV)
			break;
		cond_resched();
	}

	return ret;
}

static ssize_t sensor_test_churn_write(struct file *file,
				       const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	struct task_struct *thread[2] = {};
	unsigned int secs, cpu, n = 0;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 10, &secs);
	if (ret)
		return ret;
	if (!secs || secs > 3600)
		return -EINVAL;

	/* Held throughout: the device cannot be unplugged meanwhile */
	mutex_lock(&sensor_test_lock);
	if (!s->pdev) {
		ret = -ENODEV;
		goto out_unlock;
	}

	sensor_test_churn_result.cycles = 0;
	sensor_test_churn_result.failures = 0;
	atomic_long_set(&sensor_test_churn_result.notifies, 0);

	for_each_online_cpu(cpu) {
		if (n == ARRAY_SIZE(thread))
			break;
		thread[n] = kthread_create_on_cpu(sensor_test_churn_notify, s,
						  cpu, "kevent-churn/%u");
		if (IS_ERR(thread[n])) {
			ret = PTR_ERR(thread[n]);
			thread[n] = NULL;
			goto out_stop;
		}
		wake_up_process(thread[n]);
		n++;
	}

	/* The source is back, unless adding it failed the last time */
	ret = sensor_test_churn_cycle(s, jiffies + secs * HZ);

out_stop:
	while (n--)
		kthread_stop(thread[n]);
out_unlock:
	mutex_unlock(&sensor_test_lock);

	return ret ?: count;
}

static ssize_t sensor_test_churn_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	char buf[96];
	int len;

	len = scnprintf(buf, sizeof(buf), "cycles %lu notifies %ld failures %lu\n",
			sensor_test_churn_result.cycles,
			atomic_long_read(&sensor_test_churn_result.notifies),
			sensor_test_churn_result.failures);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations sensor_test_churn_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sensor_test_churn_read,
	.write = sensor_test_churn_write,
};

/*
 * One bench notification of @s: increment the temperature, then announce
 * it with @method (on @hwmon, the sensor's hwmon device, for hwmon_notify).
 * Called with sensor_test_lock held and @s->pdev set.
 */
static void sensor_test_bench_one(struct sensor_test_sensor *s, int method,
				  struct device *hwmon)
{
	struct kobject *kobj = &s->pdev->dev.kobj;
	const char *name = sensor_test_attrs[SENSOR_TEST_ATTR_TEMPERATURE]->name;
	char event[SENSOR_TEST_NOTIFY_MAX];
	char *envp[2] = { event, NULL };
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	s->temperature++;
	sensor_test_update_alarm(s);
	/* Any context: called as a driver would, from atomic context */
	if (method == SENSOR_TEST_BENCH_SOURCE_NOTIFY)
		sensor_test_notify(s, SENSOR_TEST_ATTR_TEMPERATURE);
	spin_unlock_irqrestore(&s->lock, flags);

	switch (method) {
	case SENSOR_TEST_BENCH_NOTIFY:
		kevent_notify(kobj, name);
		break;
	case SENSOR_TEST_BENCH_UEVENT:
		/* As hwmon_notify_event() builds it, on each call */
		scnprintf(event, sizeof(event), "NAME=%s", name);
		kobject_uevent_env(kobj, KOBJ_CHANGE, envp);
		break;
	case SENSOR_TEST_BENCH_SYSFS_NOTIFY:
		sysfs_notify(kobj, NULL, name);
		break;
	case SENSOR_TEST_BENCH_HWMON_NOTIFY:
		hwmon_notify_event(hwmon, hwmon_temp, hwmon_temp_input, 0);
		break;
	}
}

/*
 * Time @n bench notifications of @s with @method, in chunks, yielding the
 * CPU between chunks outside the time measured.
 * Return: 0, -ENODEV if hwmon_notify is asked of a sensor without its hwmon
 * device, or -EINTR if a fatal signal interrupted the run.
 */
static int sensor_test_bench_run(struct sensor_test_sensor *s, int method,
				 unsigned int n, u64 *ret_ns)
{
	struct device *hwmon = NULL;
	unsigned int i = 0, end;
	u64 total = 0, start;
	unsigned long flags;
	int ret = 0;

	if (method == SENSOR_TEST_BENCH_HWMON_NOTIFY) {
		/* Held for the run: an unbind cannot free it meanwhile */
		spin_lock_irqsave(&s->lock, flags);
		hwmon = get_device(s->hwmon);
		spin_unlock_irqrestore(&s->lock, flags);
		if (!hwmon)
			return -ENODEV;
	}

	while (i < n) {
		end = min(n, i + 1024);
		start = ktime_get_ns();
		for (; i < end; i++)
			sensor_test_bench_one(s, method, hwmon);
		total += ktime_get_ns() - start;

		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	put_device(hwmon);
	*ret_ns = total;

	return ret;
}

static ssize_t sensor_test_bench_write(struct file *file,
				       const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	char cmd[SENSOR_TEST_BENCH_CMD_MAX + 1];
	char *args, *word;
	unsigned int n;
	int method, ret;
	u64 ns;

	if (count > SENSOR_TEST_BENCH_CMD_MAX)
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';

	args = strim(cmd);
	word = strsep(&args, " ");
	method = match_string(sensor_test_bench_names,
			      ARRAY_SIZE(sensor_test_bench_names), word);
	if (method < 0 || !args)
		return -EINVAL;
	ret = kstrtouint(skip_spaces(args), 10, &n);
	if (ret)
		return ret;
	if (!n || n > SENSOR_TEST_BENCH_MAX)
		return -EINVAL;

	/* Held throughout: the device cannot be unplugged meanwhile */
	mutex_lock(&sensor_test_lock);
	if (!s->pdev) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ret = sensor_test_bench_run(s, method, n, &ns);
	if (ret)
		goto out_unlock;
	s->bench.method = method;
	s->bench.n = n;
	s->bench.total_ns = ns;

out_unlock:
	mutex_unlock(&sensor_test_lock);

	return ret ?: count;
}

static ssize_t sensor_test_bench_read(struct file *file, char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	struct sensor_test_sensor *s = file->private_data;
	char buf[96];
	int len = 0;

	mutex_lock(&sensor_test_lock);
	if (s->bench.method >= 0)
		len = scnprintf(buf, sizeof(buf), "%s %u %llu %llu\n",
				sensor_test_bench_names[s->bench.method],
				s->bench.n, s->bench.total_ns,
				div_u64(s->bench.total_ns, s->bench.n));
	mutex_unlock(&sensor_test_lock);

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations sensor_test_bench_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = sensor_test_bench_read,
	.write = sensor_test_bench_write,
};

static void sensor_test_debugfs_init(void)
{
	struct dentry *dir;
	unsigned int i;

	sensor_test_debugfs = debugfs_create_dir("kevent_sensor_test", NULL);

	for (i = 0; i < sensor_test_count; i++) {
		struct sensor_test_sensor *s = &sensor_test_sensors[i];

		dir = debugfs_create_dir(dev_name(&s->pdev->dev),
					 sensor_test_debugfs);
		debugfs_create_file("temperature", 0200, dir, s,
				    &sensor_test_temperature_fops);
		debugfs_create_file("label", 0200, dir, s,
				    &sensor_test_label_fops);
		debugfs_create_file("storm", 0200, dir, s,
				    &sensor_test_storm_fops);
		debugfs_create_file("unplug", 0200, dir, s,
				    &sensor_test_unplug_fops);
		debugfs_create_file("failing", 0200, dir, s,
				    &sensor_test_failing_fops);
		debugfs_create_file("notify", 0200, dir, s,
				    &sensor_test_notify_fops);
		debugfs_create_file("churn", 0600, dir, s,
				    &sensor_test_churn_fops);
		debugfs_create_file("bench", 0600, dir, s,
				    &sensor_test_bench_fops);
	}
}

static void sensor_test_unregister_devices(void)
{
	unsigned int i;

	mutex_lock(&sensor_test_lock);
	for (i = 0; i < sensor_test_count; i++) {
		platform_device_unregister(sensor_test_sensors[i].pdev);
		sensor_test_sensors[i].pdev = NULL;
	}
	mutex_unlock(&sensor_test_lock);
}

static int __init sensor_test_init(void)
{
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	if (sensors < 1 || sensors > SENSOR_TEST_MAX_SENSORS) {
		pr_err("sensors=%u is out of range 1-%d\n", sensors,
		       SENSOR_TEST_MAX_SENSORS);
		return -EINVAL;
	}
	if (extra_sources > SENSOR_TEST_MAX_EXTRA) {
		pr_err("extra_sources=%u is out of range 0-%zu\n",
		       extra_sources, SENSOR_TEST_MAX_EXTRA);
		return -EINVAL;
	}

	sensor_test_sensors = kcalloc(sensors, sizeof(*sensor_test_sensors),
				      GFP_KERNEL);
	if (!sensor_test_sensors)
		return -ENOMEM;
	sensor_test_count = sensors;

	for (i = 0; i < sensor_test_count; i++) {
		struct sensor_test_sensor *s = &sensor_test_sensors[i];

		spin_lock_init(&s->lock);
		mutex_init(&s->src_lock);
		INIT_WORK(&s->alarm_work, sensor_test_alarm_work);
		s->temperature = SENSOR_TEST_TEMPERATURE;
		s->temp_max = SENSOR_TEST_TEMP_MAX;
		s->bench.method = -1;
		s->label_len = scnprintf(s->label, sizeof(s->label),
					 "sensor %u", i);
	}

	ret = platform_driver_register(&sensor_test_driver);
	if (ret)
		goto out_free_sensors;

	for (i = 0; i < sensor_test_count; i++) {
		pdev = platform_device_register_simple(SENSOR_TEST_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto out_unregister_devices;
		}
		sensor_test_sensors[i].pdev = pdev;
	}

	sensor_test_debugfs_init();

	return 0;

out_unregister_devices:
	sensor_test_unregister_devices();
	platform_driver_unregister(&sensor_test_driver);
out_free_sensors:
	kfree(sensor_test_sensors);

	return ret;
}

static void __exit sensor_test_exit(void)
{
	/* Waits for writers of the controls, which use the devices */
	debugfs_remove_recursive(sensor_test_debugfs);
	sensor_test_unregister_devices();
	platform_driver_unregister(&sensor_test_driver);
	kfree(sensor_test_sensors);
}

module_init(sensor_test_init);
module_exit(sensor_test_exit);

MODULE_DESCRIPTION("Simulated sensors that send kevent events");
MODULE_LICENSE("GPL");
