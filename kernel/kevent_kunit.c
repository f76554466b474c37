// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of kevent's core: the registry of attribute names, the
 * coalescing arithmetic, the building of event messages, the refusal of
 * a second source of one attribute or of a source registered twice, and a
 * layer that did not start.
 *
 * Built as kevent_kunit.ko for kernels with KUnit; the suite runs when the
 * module is loaded, its results in /sys/kernel/debug/kunit/kevent/results.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <net/netlink.h>

#include <kevent.h>

#include "kevent_internal.h"
#include "kevent_attrs.h"

MODULE_IMPORT_NS(KEVENT_KUNIT_NS);

/*
 * Every name of attributes.txt maps to its id and back, in its class; for a
 * template, the names of a few channels do, and the template's own text
 * is no name
 */
static void kevent_test_registry_roundtrip(struct kunit *test)
{
	static const u32 channels[] = { 0, 1, 7, 42, 999999999 };
	char name[KEVENT_ATTR_NAME_MAX], buf[KEVENT_ATTR_NAME_MAX];
	static const struct {
		const char *name;
		enum kevent_class class;
	} registry[] = {
#define KEVENT_TEST_ENTRY(_id, _name, _class, _unit, _desc) \
		[_id] = { .name = _name, .class = _class },
		KEVENT_ATTRIBUTES(KEVENT_TEST_ENTRY)
#undef KEVENT_TEST_ENTRY
	};
	const char *star;
	u32 channel;
	int i, c;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(registry), KEVENT_ATTRIBUTE_COUNT);

	for (i = 0; i < ARRAY_SIZE(registry); i++) {
		KUNIT_EXPECT_EQ(test, kevent_registry_class(i),
				registry[i].class);
		star = strchr(registry[i].name, '*');
		if (!star) {
			channel = 0;
			KUNIT_EXPECT_EQ(test,
					kevent_registry_lookup(registry[i].name,
							       &channel), i);
			KUNIT_EXPECT_EQ(test, channel, KEVENT_NO_CHANNEL);
			KUNIT_EXPECT_STREQ(test,
					   kevent_registry_name(i, channel, buf),
					   registry[i].name);
			continue;
		}
		KUNIT_EXPECT_EQ(test, kevent_registry_lookup(registry[i].name,
							     &channel),
				-EINVAL);
		for (c = 0; c < ARRAY_SIZE(channels); c++) {
			snprintf(name, sizeof(name), "%.*s%u%s",
				 (int)(star - registry[i].name),
				 registry[i].name, channels[c], star + 1);
			channel = KEVENT_NO_CHANNEL;
			KUNIT_EXPECT_EQ_MSG(test,
					    kevent_registry_lookup(name, &channel),
					    i, "name %s", name);
			KUNIT_EXPECT_EQ(test, channel, channels[c]);
			KUNIT_EXPECT_STREQ(test,
					   kevent_registry_name(i, channels[c],
								buf),
					   name);
		}
	}
}

/* hwmon's names: a channel number of one of the templates, or none */
static void kevent_test_registry_templates(struct kunit *test)
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
		"temp*_alarm",
		"temp1_lcrit_alarm",	/* not in the registry */
		"temp1_input",
	};
	char buf[KEVENT_ATTR_NAME_MAX];
	u32 channel = 0;
	int id, i;

	id = kevent_registry_lookup("temp1_alarm", &channel);
	KUNIT_EXPECT_EQ(test, id, 16);
	KUNIT_EXPECT_EQ(test, channel, 1U);
	KUNIT_EXPECT_EQ(test, kevent_registry_class(id), KEVENT_CLASS_POWER);
	KUNIT_EXPECT_STREQ(test, kevent_registry_name(id, 12, buf),
			   "temp12_alarm");

	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("in0_alarm", &channel),
			12);
	KUNIT_EXPECT_EQ(test, channel, 0U);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("temp12_max_alarm",
						     &channel), 17);
	KUNIT_EXPECT_EQ(test, channel, 12U);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("temp999999999_alarm",
						     &channel), 16);
	KUNIT_EXPECT_EQ(test, channel, 999999999U);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, kevent_registry_lookup(bad[i],
								 &channel),
				    -EINVAL, "name %s", bad[i]);
}

/* The ids are an ABI: the first names keep their positions */
static void kevent_test_registry_stable_ids(struct kunit *test)
{
	u32 channel;

	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("temperature", &channel),
			0);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("label", &channel), 1);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("calibration", &channel),
			2);
	KUNIT_EXPECT_EQ(test, kevent_registry_class(0), KEVENT_CLASS_POWER);
	KUNIT_EXPECT_EQ(test, kevent_registry_class(1), KEVENT_CLASS_GENERAL);
}

/* Names that are not in the registry, or cannot be attribute names */
static void kevent_test_registry_bad_names(struct kunit *test)
{
	char long_name[KEVENT_ATTR_NAME_MAX + 1];
	u32 channel;

	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';

	KUNIT_EXPECT_EQ(test, kevent_registry_lookup(NULL, &channel), -EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("", &channel), -EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("no_such_attribute",
						     &channel), -EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("temperature/",
						     &channel), -EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("../temperature",
						     &channel), -EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("Temperature", &channel),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup("temperature ",
						     &channel), -EINVAL);
	KUNIT_EXPECT_EQ(test, kevent_registry_lookup(long_name, &channel),
			-EINVAL);
}

#define MS(n)	((u64)(n) * NSEC_PER_MSEC)

/* The first event of a source, or any event without a window: at once */
static void kevent_test_coalesce_immediate(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(5), 0, false, MS(10)),
			0ULL);
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(5), MS(4), true, 0),
			0ULL);
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(0, 0, false, 0), 0ULL);
}

/* Within the window: what is left of it; at or past its end: nothing */
static void kevent_test_coalesce_window(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(100), MS(100), true,
						   MS(10)), MS(10));
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(103), MS(100), true,
						   MS(10)), MS(7));
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(110) - 1, MS(100), true,
						   MS(10)), 1ULL);
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(110), MS(100), true,
						   MS(10)), 0ULL);
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(5000), MS(100), true,
						   MS(10)), 0ULL);
}

/* A clock behind the last event counts as no time elapsed; no overflow */
static void kevent_test_coalesce_edges(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(MS(90), MS(100), true,
						   MS(10)), MS(10));
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(U64_MAX, 0, true, MS(10)),
			0ULL);
	KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(U64_MAX - 1, U64_MAX - 2,
						   true, MS(10)),
			MS(10) - 1);
	KUNIT_EXPECT_EQ(test,
			kevent_coalesce_wait(MS(100), MS(100), true,
					     MS(KEVENT_COALESCE_MS_MAX)),
			MS(KEVENT_COALESCE_MS_MAX));
}

/*
 * Any number of notifications within one window gives one trailing event:
 * replay a storm on a simulated clock, the way the work does it, and count.
 */
static void kevent_test_coalesce_storm(struct kunit *test)
{
	const u64 window = MS(10), step = 1000, duration = MS(1000);
	u64 now, last_sent = 0, events = 0, folded = 0, pending = 0;
	u64 notifications = 0;
	bool sent = false;

	for (now = 0; now < duration; now += step) {
		pending++;
		notifications++;
		if (kevent_coalesce_wait(now, last_sent, sent, window))
			continue;
		events++;
		folded += pending - 1;
		pending = 0;
		last_sent = now;
		sent = true;
	}
	/* The trailing event, when the last window ends */
	if (pending) {
		now += kevent_coalesce_wait(now, last_sent, sent, window);
		KUNIT_EXPECT_EQ(test, kevent_coalesce_wait(now, last_sent,
							   sent, window),
				0ULL);
		events++;
		folded += pending - 1;
	}

	KUNIT_EXPECT_EQ(test, events + folded, notifications);
	KUNIT_EXPECT_LE(test, events, duration / window + 2);
	KUNIT_EXPECT_GE(test, events, duration / window);
}

static void kevent_test_path_release(void *path)
{
	kevent_path_put(path);
}

/*
 * A path for a test's event, and the name of an attribute the registry
 * does not list, or NULL; released at the test's end.
 */
static struct kevent_path *kevent_test_path(struct kunit *test,
					    const char *path, const char *name)
{
	struct kevent_path *kp = kevent_path_new(path, name);

	KUNIT_ASSERT_NOT_NULL(test, kp);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							kevent_test_path_release,
							kp), 0);
	return kp;
}

/*
 * The attributes of @rec's event put in a message sized for them (@name is
 * the attribute's name), and parsed into @tb. Return: the message, to be
 * freed with kfree_skb().
 */
static struct sk_buff *kevent_test_put_parse(struct kunit *test,
					     const struct kevent_record *rec,
					     const char *name,
					     struct nlattr **tb)
{
	size_t size = kevent_event_size(rec->path->path, name);
	struct sk_buff *skb = alloc_skb(size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, kevent_put_event(skb, rec), 0);
	KUNIT_EXPECT_LE(test, skb->len, size);
	KUNIT_ASSERT_EQ(test, nla_parse(tb, KEVENT_A_MAX,
					(struct nlattr *)skb->data, skb->len,
					NULL, NULL), 0);
	return skb;
}

/* An event message holds exactly the attributes kevent_event_size() counts */
static void kevent_test_message_build(struct kunit *test)
{
	static const char path[] = "/devices/platform/kevent-demo.0";
	const struct kevent_record rec = {
		.seq = 42,
		.class_seq = 7,
		.timestamp = 123456789,
		.path = kevent_test_path(test, path, NULL),
		.attr_id = 0,
		.class = KEVENT_CLASS_POWER,
		.coalesced = 3,
	};
	struct nlattr *tb[KEVENT_A_MAX + 1];
	struct sk_buff *skb;

	skb = kevent_test_put_parse(test, &rec, "temperature", tb);

	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_SEQ]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[KEVENT_A_SEQ]), 42ULL);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_CLASS_SEQ]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[KEVENT_A_CLASS_SEQ]), 7ULL);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_TIMESTAMP]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[KEVENT_A_TIMESTAMP]),
			123456789ULL);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_CLASS]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[KEVENT_A_CLASS]),
			(u32)KEVENT_CLASS_POWER);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_PATH]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[KEVENT_A_PATH]), path);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_ATTR_NAME]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[KEVENT_A_ATTR_NAME]),
			   "temperature");
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_ATTR_ID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[KEVENT_A_ATTR_ID]), 0U);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_COALESCED]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[KEVENT_A_COALESCED]), 3U);

	kfree_skb(skb);
}

/* An event of a template's name carries that name and the template's id */
static void kevent_test_message_template_name(struct kunit *test)
{
	static const char path[] = "/devices/platform/x/hwmon/hwmon3";
	const struct kevent_record rec = {
		.path = kevent_test_path(test, path, NULL),
		.attr_id = 16,
		.channel = 3,
		.class = KEVENT_CLASS_POWER,
	};
	struct nlattr *tb[KEVENT_A_MAX + 1];
	struct sk_buff *skb;

	skb = kevent_test_put_parse(test, &rec, "temp3_alarm", tb);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_ATTR_NAME]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[KEVENT_A_ATTR_NAME]),
			   "temp3_alarm");
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_ATTR_ID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[KEVENT_A_ATTR_ID]), 16U);

	kfree_skb(skb);
}

/* An event of a name the registry lacks carries the name and no id */
static void kevent_test_message_unlisted_name(struct kunit *test)
{
	static const char path[] = "/devices/virtual/block/md0/md";
	const struct kevent_record rec = {
		.path = kevent_test_path(test, path, "array_state_x"),
		.attr_id = KEVENT_ATTR_ID_NONE,
		.channel = KEVENT_NO_CHANNEL,
		.class = KEVENT_CLASS_STORAGE,
	};
	struct nlattr *tb[KEVENT_A_MAX + 1];
	struct sk_buff *skb;

	skb = kevent_test_put_parse(test, &rec, rec.path->name, tb);
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_ATTR_NAME]);
	KUNIT_EXPECT_STREQ(test, (char *)nla_data(tb[KEVENT_A_ATTR_NAME]),
			   "array_state_x");
	KUNIT_ASSERT_NOT_NULL(test, tb[KEVENT_A_ATTR_ID]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[KEVENT_A_ATTR_ID]),
			(u32)KEVENT_ATTR_ID_NONE);

	kfree_skb(skb);
}

/*
 * The class of a name the registry lacks: that of the subsystem nearest the
 * attribute on its path, fs below /fs, else general
 */
static void kevent_test_attr_class_unlisted(struct kunit *test)
{
	static const struct {
		const char *path;
		enum kevent_class class;
	} cases[] = {
		{ "/devices/virtual/block/md0/md", KEVENT_CLASS_STORAGE },
		{ "/devices/virtual/block/md0/md/dev-loop1",
		  KEVENT_CLASS_STORAGE },
		{ "/fs/ext4/loop0", KEVENT_CLASS_FS },
		{ "/fs", KEVENT_CLASS_FS },
		{ "/fsx/a", KEVENT_CLASS_GENERAL },
		{ "/devices/platform/coretemp.0/hwmon/hwmon1",
		  KEVENT_CLASS_POWER },
		{ "/devices/virtual/thermal/thermal_zone0", KEVENT_CLASS_POWER },
		{ "/devices/LNXSYSTM:00/power_supply/BAT0", KEVENT_CLASS_POWER },
		{ "/devices/virtual/net/dummy0", KEVENT_CLASS_NET },
		{ "/devices/virtual/net/dummy0/queues/rx-0", KEVENT_CLASS_NET },
		{ "/devices/system/cpu/cpu1", KEVENT_CLASS_HOTPLUG },
		{ "/devices/pci0000:00/0000:00:14.0/usb1/1-1",
		  KEVENT_CLASS_HOTPLUG },
		{ "/devices/pci0000:00/0000:00:14.0/usbx/1-1",
		  KEVENT_CLASS_GENERAL },
		/* A USB bus's own attributes: usb1 is no directory above */
		{ "/devices/pci0000:00/0000:00:14.0/usb1", KEVENT_CLASS_GENERAL },
		{ "/devices/platform/typec/port0", KEVENT_CLASS_HOTPLUG },
		/* The nearest wins: a network device below a USB device */
		{ "/devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/net/usb0",
		  KEVENT_CLASS_NET },
		{ "/devices/platform/leds/leds/input0::capslock",
		  KEVENT_CLASS_GENERAL },
		{ "/kernel/mm/transparent_hugepage", KEVENT_CLASS_GENERAL },
		{ "/", KEVENT_CLASS_GENERAL },
		{ "", KEVENT_CLASS_GENERAL },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, kevent_attr_class(cases[i].path, -1),
				    cases[i].class, "path %s", cases[i].path);
}

/*
 * The class of a name the registry lists: its subsystem's first, so that
 * one name has one class on one kind of device (online: a power supply's is
 * power, a CPU's hotplug), then the registry's
 */
static void kevent_test_attr_class_listed(struct kunit *test)
{
	static const struct {
		const char *path;
		const char *name;
		enum kevent_class class;
	} cases[] = {
		{ "/devices/LNXSYSTM:00/power_supply/AC", "online",
		  KEVENT_CLASS_POWER },
		{ "/devices/system/cpu/cpu1", "online", KEVENT_CLASS_HOTPLUG },
		/* No subsystem on the path: the registry's */
		{ "/devices/platform/kevent-test.0", "online",
		  KEVENT_CLASS_HOTPLUG },
		{ "/devices/platform/kevent-demo.0", "temperature",
		  KEVENT_CLASS_POWER },
		{ "/devices/platform/kevent-demo.0", "label",
		  KEVENT_CLASS_GENERAL },
		{ "/devices/virtual/net/dummy0", "label", KEVENT_CLASS_NET },
		{ "/devices/virtual/block/md0/md", "array_state",
		  KEVENT_CLASS_STORAGE },
		{ "/fs/ext4/loop0", "errors_count", KEVENT_CLASS_FS },
	};
	u32 channel;
	int i, id;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		id = kevent_registry_lookup(cases[i].name, &channel);
		KUNIT_ASSERT_GE(test, id, 0);
		KUNIT_EXPECT_EQ_MSG(test, kevent_attr_class(cases[i].path, id),
				    cases[i].class, "%s of %s", cases[i].name,
				    cases[i].path);
	}
}

/* A message without room for all the attributes: -EMSGSIZE */
static void kevent_test_message_no_room(struct kunit *test)
{
	static const char path[] = "/devices/platform/kevent-demo.0";
	const struct kevent_record rec = {
		.path = kevent_test_path(test, path, NULL),
		.class = KEVENT_CLASS_POWER,
	};
	size_t size;
	struct sk_buff *skb;

	size = kevent_event_size(path, "temperature");
	skb = alloc_skb(size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);

	/* Leave one byte less than the attributes need */
	skb_reserve(skb, skb_tailroom(skb) - (size - 1));
	KUNIT_EXPECT_EQ(test, kevent_put_event(skb, &rec), -EMSGSIZE);

	kfree_skb(skb);
}

static ssize_t kevent_test_attr_show(struct kobject *kobj,
				     struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "25000\n");
}

static struct kobj_attribute kevent_test_attr =
	__ATTR(temperature, 0444, kevent_test_attr_show, NULL);

static struct kobj_attribute kevent_test_label_attr =
	__ATTR(label, 0444, kevent_test_attr_show, NULL);

/*
 * A kobject below /sys/kernel with the temperature and label attributes,
 * put by the test's end; NULL, and the test failed, if it cannot be made.
 */
static struct kobject *kevent_test_kobject(struct kunit *test,
					   const char *name)
{
	struct kobject *kobj;

	kobj = kobject_create_and_add(name, kernel_kobj);
	if (!kobj) {
		KUNIT_FAIL(test, "cannot create the kobject %s", name);
		return NULL;
	}
	if (sysfs_create_file(kobj, &kevent_test_attr.attr) ||
	    sysfs_create_file(kobj, &kevent_test_label_attr.attr)) {
		KUNIT_FAIL(test, "cannot create the attribute files");
		kobject_put(kobj);
		return NULL;
	}

	return kobj;
}

/*
 * A second source of one attribute file is -EEXIST; the same name on
 * another kobject is a source of its own; once removed, an attribute can
 * be a source again (the table of sources by file forgets it).
 */
static void kevent_test_source_duplicate(struct kunit *test)
{
	struct kevent_source *a, *b, *again, *dup;
	struct kobject *ka, *kb;

	ka = kevent_test_kobject(test, "kevent_kunit_a");
	kb = kevent_test_kobject(test, "kevent_kunit_b");
	if (!ka || !kb)
		goto out_put;

	a = kevent_source_add(ka, &kevent_test_attr.attr);
	KUNIT_EXPECT_FALSE(test, IS_ERR(a));
	dup = kevent_source_add(ka, &kevent_test_attr.attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(dup), -EEXIST);
	b = kevent_source_add(kb, &kevent_test_attr.attr);
	KUNIT_EXPECT_FALSE(test, IS_ERR(b));

	kevent_source_remove(a);
	again = kevent_source_add(ka, &kevent_test_attr.attr);
	KUNIT_EXPECT_FALSE(test, IS_ERR(again));
	dup = kevent_source_add(kb, &kevent_test_attr.attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(dup), -EEXIST);

	kevent_source_remove(again);
	kevent_source_remove(b);
out_put:
	/* Removes the directories and their attribute files */
	kobject_put(kb);
	kobject_put(ka);
}

static struct kobj_attribute kevent_test_alarm_attr =
	__ATTR(temp3_alarm, 0444, kevent_test_attr_show, NULL);

/* A source of a template's name keeps its channel beside the id */
static void kevent_test_source_template(struct kunit *test)
{
	struct kevent_source *src;
	struct kobject *kobj;

	kobj = kobject_create_and_add("kevent_kunit_hwmon", kernel_kobj);
	KUNIT_ASSERT_NOT_NULL(test, kobj);
	if (sysfs_create_file(kobj, &kevent_test_alarm_attr.attr)) {
		KUNIT_FAIL(test, "cannot create the attribute file");
		goto out_put;
	}

	src = kevent_source_add(kobj, &kevent_test_alarm_attr.attr);
	if (IS_ERR(src)) {
		KUNIT_FAIL(test, "kevent_source_add: %ld", PTR_ERR(src));
		goto out_put;
	}
	KUNIT_EXPECT_EQ(test, src->attr_id, 16U);
	KUNIT_EXPECT_EQ(test, src->channel, 3U);
	KUNIT_EXPECT_EQ(test, src->class, KEVENT_CLASS_POWER);
	kevent_source_remove(src);
out_put:
	kobject_put(kobj);
}

/*
 * Registering a source that is registered already, for its attribute or
 * another, is -EBUSY and leaves it whole: listed once, its file and path
 * its own, notified as before. Unregistered, it registers again.
 */
static void kevent_test_source_register_twice(struct kunit *test)
{
	struct kevent_source *src;
	struct kernfs_node *kn;
	unsigned int count;
	struct kobject *kobj;
	struct kevent_path *path;

	src = kunit_kzalloc(test, sizeof(*src), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	kobj = kevent_test_kobject(test, "kevent_kunit_twice");
	if (!kobj)
		return;

	count = READ_ONCE(kevent_sources_count);
	if (kevent_source_register(src, kobj, &kevent_test_attr.attr)) {
		KUNIT_FAIL(test, "the first registration failed");
		goto out_put;
	}
	kn = src->kn;
	path = src->path;

	KUNIT_EXPECT_EQ(test,
			kevent_source_register(src, kobj,
					       &kevent_test_attr.attr),
			-EBUSY);
	KUNIT_EXPECT_EQ(test,
			kevent_source_register(src, kobj,
					       &kevent_test_label_attr.attr),
			-EBUSY);
	KUNIT_EXPECT_PTR_EQ(test, src->kn, kn);
	KUNIT_EXPECT_PTR_EQ(test, src->path, path);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kevent_sources_count), count + 1);
	KUNIT_EXPECT_EQ(test, kevent_source_notify(src), 0);

	kevent_source_unregister(src);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kevent_sources_count), count);
	KUNIT_EXPECT_EQ(test,
			kevent_source_register(src, kobj,
					       &kevent_test_label_attr.attr),
			0);
	kevent_source_unregister(src);
out_put:
	kobject_put(kobj);
}

/*
 * kevent_source_move() of a source no longer registered is -ENOENT and
 * gives it no path: unregistering frees the path, unlocked, so a move that
 * took one then would leak it or race with that free.
 */
static void kevent_test_source_move_unregistered(struct kunit *test)
{
	struct kevent_source *src;
	struct kobject *kobj;

	src = kunit_kzalloc(test, sizeof(*src), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	kobj = kevent_test_kobject(test, "kevent_kunit_move");
	if (!kobj)
		return;

	KUNIT_EXPECT_EQ(test, kevent_source_move(src, kobj), -ENOENT);
	KUNIT_EXPECT_NULL(test, src->path);
	if (kevent_source_register(src, kobj, &kevent_test_attr.attr)) {
		KUNIT_FAIL(test, "the registration failed");
		goto out_put;
	}
	KUNIT_EXPECT_EQ(test, kevent_source_move(src, kobj), 0);
	KUNIT_EXPECT_NOT_NULL(test, src->path);
	kevent_source_unregister(src);

	KUNIT_EXPECT_EQ(test, kevent_source_move(src, kobj), -ENOENT);
	KUNIT_EXPECT_NULL(test, src->path);
out_put:
	kobject_put(kobj);
}

/*
 * A layer that is not up (built in, its init failed: its workqueue and
 * family are gone) makes no source and sends nothing: each entry point is
 * -ENODEV. The test takes the layer down for its span.
 */
static void kevent_test_layer_down(struct kunit *test)
{
	struct kevent_source *src, *added;
	struct kobject *kobj;
	s64 sent;

	src = kunit_kzalloc(test, sizeof(*src), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	kobj = kevent_test_kobject(test, "kevent_kunit_down");
	if (!kobj)
		return;

	sent = atomic64_read(&kevent_stat_sent) +
	       atomic64_read(&kevent_stat_failed);
	WRITE_ONCE(kevent_up, false);
	KUNIT_EXPECT_EQ(test,
			kevent_source_register(src, kobj,
					       &kevent_test_attr.attr),
			-ENODEV);
	added = kevent_source_add(kobj, &kevent_test_label_attr.attr);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(added), -ENODEV);
	KUNIT_EXPECT_EQ(test, kevent_notify(kobj, "temperature"), -ENODEV);
	KUNIT_EXPECT_EQ(test, kevent_source_notify(src), -ENODEV);
	WRITE_ONCE(kevent_up, true);

	KUNIT_EXPECT_EQ(test,
			atomic64_read(&kevent_stat_sent) +
			atomic64_read(&kevent_stat_failed),
			sent);
	/* Whatever a broken layer let through is not left behind */
	if (!IS_ERR_OR_NULL(added))
		kevent_source_remove(added);
	if (READ_ONCE(src->path))
		kevent_source_unregister(src);
	kobject_put(kobj);
}

/* What the unregistering task of kevent_test_source_last_use() works on */
struct kevent_test_unregister {
	struct kevent_source *src;
	struct completion done;
};

/* Whether @task sleeps, uninterruptibly, as a task waiting in the kernel */
static bool kevent_test_task_waits(struct task_struct *task)
{
	return READ_ONCE(task->__state) & TASK_UNINTERRUPTIBLE;
}

static int kevent_test_unregister_fn(void *data)
{
	struct kevent_test_unregister *unreg = data;

	kevent_source_unregister(unreg->src);
	complete(&unreg->done);
	return 0;
}

/*
 * The last notifier in flight while a source is unregistered wakes the
 * unregistering task, holding a raw spinlock here, as a hard interrupt
 * handler of PREEMPT_RT does. Lockdep's raw lock nesting check
 * (CONFIG_PROVE_RAW_LOCK_NESTING) reports an invalid wait context if the
 * wake-up takes a spinlock_t, which sleeps on PREEMPT_RT.
 */
static void kevent_test_source_last_use(struct kunit *test)
{
	static DEFINE_RAW_SPINLOCK(lock);
	struct kevent_test_unregister unreg;
	struct task_struct *task;
	struct kobject *kobj;
	unsigned long flags;
	int i;

	unreg.src = kunit_kzalloc(test, sizeof(*unreg.src), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, unreg.src);
	init_completion(&unreg.done);
	kobj = kevent_test_kobject(test, "kevent_kunit_last_use");
	if (!kobj)
		return;
	if (kevent_source_register(unreg.src, kobj, &kevent_test_attr.attr)) {
		KUNIT_FAIL(test, "the registration failed");
		goto out_put;
	}

	/*
	 * A notifier in flight holds a use. The unregistering task cannot
	 * end before that use is dropped, so @task stays valid until then.
	 */
	atomic_inc(&unreg.src->users);
	task = kthread_run(kevent_test_unregister_fn, &unreg,
			   "kevent_kunit_unreg");
	if (IS_ERR(task)) {
		KUNIT_FAIL(test, "cannot start the unregistering task");
		kevent_source_put_use(unreg.src);
		kevent_source_unregister(unreg.src);
		goto out_put;
	}
	/* Unregistering dropped the registration's use, and waits for it */
	for (i = 0; i < 500 && !kevent_test_task_waits(task); i++)
		msleep(20);
	KUNIT_EXPECT_TRUE(test, kevent_test_task_waits(task));
	KUNIT_EXPECT_EQ(test, atomic_read(&unreg.src->users), 1);
	KUNIT_EXPECT_FALSE(test, completion_done(&unreg.done));

	raw_spin_lock_irqsave(&lock, flags);
	kevent_source_put_use(unreg.src);
	raw_spin_unlock_irqrestore(&lock, flags);

	/* Woken, it ends: the harness's timeout catches a task never woken */
	wait_for_completion(&unreg.done);
	KUNIT_EXPECT_NULL(test, unreg.src->path);
out_put:
	kobject_put(kobj);
}

static struct kunit_case kevent_test_cases[] = {
	KUNIT_CASE(kevent_test_registry_roundtrip),
	KUNIT_CASE(kevent_test_registry_stable_ids),
	KUNIT_CASE(kevent_test_registry_bad_names),
	KUNIT_CASE(kevent_test_registry_templates),
	KUNIT_CASE(kevent_test_coalesce_immediate),
	KUNIT_CASE(kevent_test_coalesce_window),
	KUNIT_CASE(kevent_test_coalesce_edges),
	KUNIT_CASE(kevent_test_coalesce_storm),
	KUNIT_CASE(kevent_test_message_build),
	KUNIT_CASE(kevent_test_message_template_name),
	KUNIT_CASE(kevent_test_message_unlisted_name),
	KUNIT_CASE(kevent_test_attr_class_unlisted),
	KUNIT_CASE(kevent_test_attr_class_listed),
	KUNIT_CASE(kevent_test_message_no_room),
	KUNIT_CASE(kevent_test_source_duplicate),
	KUNIT_CASE(kevent_test_source_template),
	KUNIT_CASE(kevent_test_source_register_twice),
	KUNIT_CASE(kevent_test_source_move_unregistered),
	KUNIT_CASE(kevent_test_layer_down),
	KUNIT_CASE(kevent_test_source_last_use),
	{}
};

static struct kunit_suite kevent_test_suite = {
	.name = "kevent",
	.test_cases = kevent_test_cases,
};

kunit_test_suite(kevent_test_suite);

MODULE_DESCRIPTION("KUnit tests of kevent's core");
MODULE_LICENSE("GPL");
