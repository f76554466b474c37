// SPDX-License-Identifier: GPL-2.0
/*
 * kevent_stock_hwmon: an hwmon sensor that announces its alarm the way the
 * stock kernel does, with no use of kevent, so that kevent-watch's stock
 * sources (--uevent, --poll) are tested with kevent.ko never loaded.
 *
 * It registers the platform device kevent-stock-hwmon.0 and, below it, the
 * hwmon device "kevent_stock_hwmon": temp1_input (writable here, to set
 * the temperature, in millidegrees Celsius), temp1_max (80000) and
 * temp1_alarm (temp1_input > temp1_max), and temp1_fault (temp1_input at
 * or below absolute zero: the sensor is broken). A write that flips the
 * alarm or the fault calls hwmon_notify_event(), which sends a change
 * uevent with NAME=temp1_alarm (temp1_fault) and wakes the pollers of that
 * attribute (sysfs_notify()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/hwmon.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>

#define KEVENT_STOCK_HWMON_MAX	80000
#define KEVENT_STOCK_HWMON_ZERO	(-273150)

static struct platform_device *kevent_stock_hwmon_pdev;
static struct device *kevent_stock_hwmon_dev;

/* The temperature set, millidegrees Celsius */
static long kevent_stock_hwmon_temp = 25000;
static DEFINE_MUTEX(kevent_stock_hwmon_lock);	/* protects the temperature */

static bool kevent_stock_hwmon_alarm(long temp)
{
	return temp > KEVENT_STOCK_HWMON_MAX;
}

static bool kevent_stock_hwmon_fault(long temp)
{
	return temp <= KEVENT_STOCK_HWMON_ZERO;
}

static umode_t kevent_stock_hwmon_is_visible(const void *data,
					     enum hwmon_sensor_types type,
					     u32 attr, int channel)
{
	if (type != hwmon_temp)
		return 0;

	switch (attr) {
	case hwmon_temp_input:
		return 0644;
	case hwmon_temp_max:
	case hwmon_temp_alarm:
	case hwmon_temp_fault:
		return 0444;
	default:
		return 0;
	}
}

static int kevent_stock_hwmon_read(struct device *dev,
				   enum hwmon_sensor_types type, u32 attr,
				   int channel, long *val)
{
	if (type != hwmon_temp)
		return -EOPNOTSUPP;

	mutex_lock(&kevent_stock_hwmon_lock);
	switch (attr) {
	case hwmon_temp_input:
		*val = kevent_stock_hwmon_temp;
		break;
	case hwmon_temp_max:
		*val = KEVENT_STOCK_HWMON_MAX;
		break;
	case hwmon_temp_alarm:
		*val = kevent_stock_hwmon_alarm(kevent_stock_hwmon_temp);
		break;
	case hwmon_temp_fault:
		*val = kevent_stock_hwmon_fault(kevent_stock_hwmon_temp);
		break;
	default:
		mutex_unlock(&kevent_stock_hwmon_lock);
		return -EOPNOTSUPP;
	}
	mutex_unlock(&kevent_stock_hwmon_lock);

	return 0;
}

/*
 * Set the temperature; announce the alarm and the fault when they flip, as
 * drivers do
 */
static int kevent_stock_hwmon_write(struct device *dev,
				    enum hwmon_sensor_types type, u32 attr,
				    int channel, long val)
{
	bool flipped, faulted;

	if (type != hwmon_temp || attr != hwmon_temp_input)
		return -EOPNOTSUPP;

	mutex_lock(&kevent_stock_hwmon_lock);
	flipped = kevent_stock_hwmon_alarm(val) !=
		  kevent_stock_hwmon_alarm(kevent_stock_hwmon_temp);
	faulted = kevent_stock_hwmon_fault(val) !=
		  kevent_stock_hwmon_fault(kevent_stock_hwmon_temp);
	kevent_stock_hwmon_temp = val;
	mutex_unlock(&kevent_stock_hwmon_lock);

	if (flipped)
		hwmon_notify_event(dev, hwmon_temp, hwmon_temp_alarm, 0);
	if (faulted)
		hwmon_notify_event(dev, hwmon_temp, hwmon_temp_fault, 0);

	return 0;
}

static const struct hwmon_ops kevent_stock_hwmon_ops = {
	.is_visible = kevent_stock_hwmon_is_visible,
	.read = kevent_stock_hwmon_read,
	.write = kevent_stock_hwmon_write,
};

static const struct hwmon_channel_info *kevent_stock_hwmon_info[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_ALARM |
			   HWMON_T_FAULT),
	NULL
};

static const struct hwmon_chip_info kevent_stock_hwmon_chip = {
	.ops = &kevent_stock_hwmon_ops,
	.info = kevent_stock_hwmon_info,
};

static int __init kevent_stock_hwmon_init(void)
{
	struct device *hwmon;

	kevent_stock_hwmon_pdev =
		platform_device_register_simple("kevent-stock-hwmon", 0, NULL, 0);
	if (IS_ERR(kevent_stock_hwmon_pdev))
		return PTR_ERR(kevent_stock_hwmon_pdev);

	hwmon = hwmon_device_register_with_info(&kevent_stock_hwmon_pdev->dev,
						"kevent_stock_hwmon", NULL,
						&kevent_stock_hwmon_chip, NULL);
	if (IS_ERR(hwmon)) {
		platform_device_unregister(kevent_stock_hwmon_pdev);
		return PTR_ERR(hwmon);
	}
	kevent_stock_hwmon_dev = hwmon;

	return 0;
}
module_init(kevent_stock_hwmon_init);

static void __exit kevent_stock_hwmon_exit(void)
{
	hwmon_device_unregister(kevent_stock_hwmon_dev);
	platform_device_unregister(kevent_stock_hwmon_pdev);
}
module_exit(kevent_stock_hwmon_exit);

MODULE_DESCRIPTION("An hwmon sensor announcing its alarm as stock drivers do, for kevent's tests");
MODULE_LICENSE("GPL");
