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
