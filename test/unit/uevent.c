// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the uevent source: which change uevents name an attribute.
 */
#include "kevent-private.h"
#include "unit.h"

UNIT_TEST(test_uevent_names_attr)
{
	/* hwmon_notify_event(): NAME=<attribute> */
	CHECK(kevent_uevent_names_attr("hwmon", "temp1_alarm"));
	CHECK(kevent_uevent_names_attr("hwmon", "in0_alarm"));
	CHECK(kevent_uevent_names_attr("hwmon", "fan1_fault"));
	CHECK(kevent_uevent_names_attr("hwmon", "intrusion0_alarm"));

	/* An input device's NAME= is its product name, quotes included */
	CHECK(!kevent_uevent_names_attr("input",
					"\"AT Translated Set 2 keyboard\""));
	/* and it stays so when it looks like an attribute */
	CHECK(!kevent_uevent_names_attr("input", "temp1_alarm"));
	/* A thermal zone's is its type */
	CHECK(!kevent_uevent_names_attr("thermal", "acpitz"));
	CHECK(!kevent_uevent_names_attr("hwmonx", "temp1_alarm"));
	CHECK(!kevent_uevent_names_attr("", "temp1_alarm"));
	CHECK(!kevent_uevent_names_attr(NULL, "temp1_alarm"));

	/* Only attribute-shaped names, even from hwmon */
	CHECK(!kevent_uevent_names_attr("hwmon",
					"\"AT Translated Set 2 keyboard\""));
	CHECK(!kevent_uevent_names_attr("hwmon", "temp1 alarm"));
	CHECK(!kevent_uevent_names_attr("hwmon", "Temp1_alarm"));
	CHECK(!kevent_uevent_names_attr("hwmon", "temp1-alarm"));
	CHECK(!kevent_uevent_names_attr("hwmon", "temp1_alarm\n"));
	CHECK(!kevent_uevent_names_attr("hwmon", "temp1_alarm\xc2\x9b"));
	CHECK(!kevent_uevent_names_attr("hwmon", "../../etc/passwd"));
	CHECK(!kevent_uevent_names_attr("hwmon", ".."));
	CHECK(!kevent_uevent_names_attr("hwmon", ""));
	CHECK(!kevent_uevent_names_attr("hwmon", NULL));
}
