// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kevent-dbus's names and values: a kobject path as an object
 * path, an attribute name as a property name and back, a sysfs value as a
 * D-Bus string (UTF-8, no NUL).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-bus.h>

#include "names.h"
#include "unit.h"

/* The property name of @attr, or "(error N)"; valid until the next call */
static const char *prop(const char *attr)
{
	static char buf[1100];
	char *name;
	int r;

	r = kdbus_property_name(attr, &name);
	if (r < 0) {
		snprintf(buf, sizeof(buf), "(error %d)", r);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s", name);
	free(name);
	return buf;
}

/* The attribute name of property @name, or "(error N)" */
static const char *attr(const char *name)
{
	static char buf[300];
	char *a;
	int r;

	r = kdbus_property_attr(name, &a);
	if (r < 0) {
		snprintf(buf, sizeof(buf), "(error %d)", r);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s", a);
	free(a);
	return buf;
}

UNIT_TEST(dbus_property_names_keep_plain_attribute_names)
{
	CHECK_STR(prop("temperature"), "temperature");
	CHECK_STR(prop("sync_action"), "sync_action");
	CHECK_STR(prop("temp1_crit_alarm"), "temp1_crit_alarm");
	CHECK_STR(prop("Capacity"), "Capacity");
}

UNIT_TEST(dbus_property_names_escape_what_a_member_name_cannot_hold)
{
	CHECK_STR(prop("data-role"), "data_x2drole");
	CHECK_STR(prop("a.b"), "a_x2eb");
	CHECK_STR(prop("2x"), "_x32x");
	CHECK_STR(prop("max_x"), "max_x5fx");
	CHECK_STR(prop("\xff"), "_xff");
	CHECK_STR(prop(""), "(error -22)");
}

UNIT_TEST(dbus_property_names_of_more_than_255_bytes_are_refused)
{
	char a[256];

	memset(a, 'a', 255);
	a[255] = '\0';
	CHECK(strlen(prop(a)) == 255);
	memset(a, '-', 70);
	a[70] = '\0';
	/* 70 escaped bytes are 280 */
	CHECK_STR(prop(a), "(error -36)");
}

UNIT_TEST(dbus_property_names_give_their_attribute_names_back)
{
	static const char *const names[] = {
		"temperature", "data-role", "2x", "max_x", "_x", "__x__",
		"a b\tc", "\x01\x7f\x80\xff", "x_", "_", "9", NULL,
	};
	const char *const *n;
	char p[1100];

	for (n = names; *n; n++) {
		snprintf(p, sizeof(p), "%s", prop(*n));
		CHECK_STR(attr(p), *n);
	}
}

UNIT_TEST(dbus_property_names_never_made_are_refused)
{
	CHECK_STR(attr("_x2"), "(error -22)");
	CHECK_STR(attr("_xzz"), "(error -22)");
	CHECK_STR(attr("_xAB"), "(error -22)");
	CHECK_STR(attr("a-b"), "(error -22)");
	CHECK_STR(attr("1abc"), "(error -22)");
	/* Escapes of what is never escaped: "a", "_" not before "x", NUL */
	CHECK_STR(attr("_x61"), "(error -22)");
	CHECK_STR(attr("_x5fa"), "(error -22)");
	CHECK_STR(attr("a_x00"), "(error -22)");
	CHECK_STR(attr(""), "(error -22)");
}

UNIT_TEST(dbus_object_paths_escape_the_kobject_path_reversibly)
{
	const char *path = "/devices/platform/kevent-demo.0";
	char *op = NULL, *back = NULL;

	CHECK(kdbus_object_path(path, &op) == 0);
	CHECK_STR(op, KDBUS_SOURCES "/_2fdevices_2fplatform_2fkevent_2ddemo_2e0");
	CHECK(op && sd_bus_object_path_is_valid(op));
	CHECK(op && sd_bus_path_decode(op, KDBUS_SOURCES, &back) > 0);
	CHECK_STR(back, path);
	free(op);
	free(back);
	CHECK(kdbus_object_path("", &op) == -EINVAL);
}

/* kdbus_value_string() of @len bytes of @v, compared with @want */
static void value_is(const char *v, size_t len, const char *want)
{
	char *s = kdbus_value_string(v, len);

	CHECK_STR(s, want);
	free(s);
}

UNIT_TEST(dbus_values_lose_one_trailing_newline)
{
	value_is("42\n", 3, "42");
	value_is("x\n\n", 3, "x\n");
	value_is("", 0, "");
	value_is("idle", 4, "idle");
}

UNIT_TEST(dbus_values_that_are_not_utf8_get_replacement_characters)
{
	value_is("caf\xc3\xa9", 5, "caf\xc3\xa9");
	value_is("\xe2\x80\xae", 3, "\xe2\x80\xae");
	value_is("a\xff" "b", 3, "a\xef\xbf\xbd" "b");
	/* An overlong NUL, a surrogate, past U+10FFFF, cut short, a NUL */
	value_is("\xc0\x80", 2, "\xef\xbf\xbd\xef\xbf\xbd");
	value_is("\xed\xa0\x80", 3, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	value_is("\xf4\x90\x80\x80", 4,
		 "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	value_is("\xe2\x82", 2, "\xef\xbf\xbd\xef\xbf\xbd");
	value_is("a\0b", 3, "a\xef\xbf\xbd" "b");
}
