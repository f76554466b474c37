// SPDX-License-Identifier: GPL-2.0
/*
 * The registry's templates as libkevent reads them: the names of a channel
 * number ("temp1_alarm" of "temp*_alarm") take the template's id, unit and
 * class, matched as the kernel matches them (kernel/kevent_registry.c).
 */
#include <errno.h>

#include "kevent-private.h"
#include "unit.h"

UNIT_TEST(test_registry_template_names)
{
	CHECK(kevent_attribute_id("temp1_alarm") == 16);
	CHECK(kevent_attribute_id("temp999999999_alarm") == 16);
	CHECK(kevent_attribute_id("in0_alarm") == 12);
	CHECK(kevent_attribute_id("fan3_alarm") == 15);
	CHECK(kevent_attribute_id("temp12_max_alarm") == 17);
	CHECK(kevent_attribute_id("temp2_crit_alarm") == 18);
	CHECK(kevent_attribute_class("temp1_alarm") == KEVENT_CLASS_POWER);
	CHECK(kevent_attribute_class("curr4_alarm") == KEVENT_CLASS_POWER);
	CHECK(kevent_attribute_unit("temp1_alarm") == NULL);
	/* The names the registry lists itself are found as before */
	CHECK(kevent_attribute_id("size") == 11);
	CHECK(kevent_attribute_class("mtu") == KEVENT_CLASS_NET);
}

UNIT_TEST(test_registry_template_non_names)
{
	static const char *const bad[] = {
		"temp_alarm",		/* no channel */
		"temp01_alarm",		/* a leading zero */
		"temp00_alarm",
		"temp1234567890_alarm",	/* over 9 digits */
		"temp-1_alarm",
		"temp1a_alarm",
		"temp 1_alarm",
		"temp1_alarm_",
		"temp1_alarms",
		"xtemp1_alarm",
		"temp*_alarm",		/* the template's own text */
		"temp1_lcrit_alarm",	/* not in the registry */
		"temp1_input",
		"",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(kevent_attribute_id(bad[i]) == -ENOENT);
		CHECK(kevent_attribute_class(bad[i]) == KEVENT_CLASS_UNKNOWN);
	}
}

/*
 * The class of an attribute of a kobject: its subsystem's first, then the
 * registry's, the cases of the kernel's KUnit test of kevent_attr_class()
 */
UNIT_TEST(test_registry_path_class)
{
	static const struct {
		const char *path;
		const char *name;
		enum kevent_class cls;
	} cases[] = {
		{ "/devices/LNXSYSTM:00/power_supply/AC", "online",
		  KEVENT_CLASS_POWER },
		{ "/devices/system/cpu/cpu1", "online", KEVENT_CLASS_HOTPLUG },
		{ "/devices/platform/kevent-test.0", "online",
		  KEVENT_CLASS_HOTPLUG },
		{ "/devices/platform/kevent-demo.0", "temperature",
		  KEVENT_CLASS_POWER },
		{ "/devices/virtual/net/dummy0", "label", KEVENT_CLASS_NET },
		{ "/devices/virtual/block/md0/md", "array_state",
		  KEVENT_CLASS_STORAGE },
		{ "/devices/virtual/block/md0/md/dev-loop1", "state",
		  KEVENT_CLASS_STORAGE },
		{ "/fs/ext4/loop0", "errors_count", KEVENT_CLASS_FS },
		{ "/fs", "x", KEVENT_CLASS_FS },
		{ "/fsx/a", "x", KEVENT_CLASS_UNKNOWN },
		{ "/devices/platform/coretemp.0/hwmon/hwmon1", "temp1_lcrit_alarm",
		  KEVENT_CLASS_POWER },
		{ "/devices/virtual/thermal/thermal_zone0", "x",
		  KEVENT_CLASS_POWER },
		{ "/devices/virtual/net/dummy0/queues/rx-0", "x",
		  KEVENT_CLASS_NET },
		{ "/devices/pci0000:00/0000:00:14.0/usb1/1-1", "x",
		  KEVENT_CLASS_HOTPLUG },
		{ "/devices/pci0000:00/0000:00:14.0/usbx/1-1", "x",
		  KEVENT_CLASS_UNKNOWN },
		/* A USB bus's own attributes: usb1 is no directory above */
		{ "/devices/pci0000:00/0000:00:14.0/usb1", "x",
		  KEVENT_CLASS_UNKNOWN },
		{ "/devices/platform/typec/port0", "x", KEVENT_CLASS_HOTPLUG },
		/* The nearest wins: a network device below a USB device */
		{ "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/net/usb0",
		  "x", KEVENT_CLASS_NET },
		{ "/", "x", KEVENT_CLASS_UNKNOWN },
		{ "", "mtu", KEVENT_CLASS_NET },
		{ NULL, "mtu", KEVENT_CLASS_NET },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(kevent_path_class(cases[i].path, cases[i].name) ==
		      cases[i].cls);
}
