// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the stock sources' state: synthetic uevents and rtnetlink
 * link messages become one event per attribute that changed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/rtnetlink.h>

#include "kevent-private.h"
#include "unit.h"

/* Feed a uevent written with '|' for its NULs */
static int feed_uevent(struct kevent_stock_state *st, const char *text)
{
	size_t len = strlen(text) + 1, i;
	char *buf = malloc(len);
	int r;

	for (i = 0; i < len; i++)
		buf[i] = text[i] == '|' ? '\0' : text[i];
	r = kevent_stock_state_uevent(st, buf, len);
	free(buf);
	return r;
}

/*
 * The queued events as "source class path attr seq subsystem" lines, each
 * ended by '\n', emptying the queue; in a static buffer.
 */
static const char *take_events(struct kevent_stock_state *st)
{
	static char out[4096];
	struct kevent_event *ev;
	size_t n = 0;

	out[0] = '\0';
	while ((ev = kevent_stock_state_pop(st))) {
		const char *cls = kevent_class_to_string(
			kevent_event_get_class(ev));

		n += snprintf(out + n, sizeof(out) - n, "%s %s %s %s %llu %s\n",
			      kevent_event_source_to_string(
				      kevent_event_get_source(ev)),
			      cls ? cls : "-", kevent_event_get_path(ev),
			      kevent_event_get_attr(ev),
			      (unsigned long long)kevent_event_get_seq(ev),
			      kevent_event_get_subsystem(ev) ?
				      kevent_event_get_subsystem(ev) :
				      "-");
		kevent_event_unref(ev);
	}
	return out;
}

#define BAT "/devices/virtual/power_supply/test_battery"

#define BAT_UEVENT(action, seq, status, capacity)                   \
	action "@" BAT "|ACTION=" action "|DEVPATH=" BAT                \
	       "|SUBSYSTEM=power_supply|POWER_SUPPLY_NAME=test_battery" \
	       "|POWER_SUPPLY_STATUS=" status                           \
	       "|POWER_SUPPLY_PRESENT=1|POWER_SUPPLY_CAPACITY=" capacity \
	       "|POWER_SUPPLY_VOLTAGE_NOW=3300000|SEQNUM=" seq

UNIT_TEST(test_stock_power_supply_changes)
{
	struct kevent_stock_state *st = kevent_stock_state_new();

	/* The add seeds the device: no event */
	CHECK(feed_uevent(st, BAT_UEVENT("add", "10", "Charging", "50")) == 0);
	CHECK_STR(take_events(st), "");
	/* The same values again: nothing changed */
	CHECK(feed_uevent(st, BAT_UEVENT("change", "11", "Charging", "50")) ==
	      0);
	CHECK_STR(take_events(st), "");
	/* One event per registered attribute that changed, in order */
	CHECK(feed_uevent(st, BAT_UEVENT("change", "12", "Charging", "42")) ==
	      0);
	CHECK_STR(take_events(st), "uevent power " BAT
				   " capacity 12 power_supply\n");
	CHECK(feed_uevent(st, BAT_UEVENT("change", "13", "Discharging",
					 "41")) == 0);
	CHECK_STR(take_events(st),
		  "uevent power " BAT " status 13 power_supply\n"
		  "uevent power " BAT " capacity 13 power_supply\n");
	/* Once removed, the device is new again: seeded, no event */
	CHECK(feed_uevent(st, "remove@" BAT "|ACTION=remove|DEVPATH=" BAT
			      "|SUBSYSTEM=power_supply|SEQNUM=14") == 0);
	CHECK(feed_uevent(st, BAT_UEVENT("change", "15", "Full", "100")) == 0);
	CHECK_STR(take_events(st), "");
	CHECK(feed_uevent(st, BAT_UEVENT("change", "16", "Full", "99")) == 0);
	CHECK_STR(take_events(st), "uevent power " BAT
				   " capacity 16 power_supply\n");
	kevent_stock_state_free(st);
}

UNIT_TEST(test_stock_power_supply_seed_online)
{
	struct kevent_stock_state *st = kevent_stock_state_new();
	static const char file[] = "DEVTYPE=power_supply\n"
				   "POWER_SUPPLY_NAME=test_ac\n"
				   "POWER_SUPPLY_TYPE=Mains\n"
				   "POWER_SUPPLY_ONLINE=1\n";
	const char *ac = "/devices/virtual/power_supply/test_ac";

	/* The sysfs uevent file seeds it: the first change is compared */
	CHECK(kevent_stock_state_psy_seed(st, ac, file, strlen(file)) == 0);
	CHECK_STR(take_events(st), "");
	CHECK(feed_uevent(st, "change@/devices/virtual/power_supply/test_ac"
			      "|ACTION=change"
			      "|DEVPATH=/devices/virtual/power_supply/test_ac"
			      "|SUBSYSTEM=power_supply"
			      "|POWER_SUPPLY_NAME=test_ac"
			      "|POWER_SUPPLY_TYPE=Mains"
			      "|POWER_SUPPLY_ONLINE=0|SEQNUM=7") == 0);
	/* online is class hotplug in the registry, class power here */
	CHECK_STR(take_events(st), "uevent power "
				   "/devices/virtual/power_supply/test_ac "
				   "online 7 power_supply\n");
	kevent_stock_state_free(st);
}

UNIT_TEST(test_stock_uevents_that_name_attributes)
{
	struct kevent_stock_state *st = kevent_stock_state_new();

	CHECK(feed_uevent(st, "change@/devices/platform/x/hwmon/hwmon0"
			      "|ACTION=change"
			      "|DEVPATH=/devices/platform/x/hwmon/hwmon0"
			      "|SUBSYSTEM=hwmon|NAME=temp1_alarm|SEQNUM=3") ==
	      0);
	CHECK(feed_uevent(st, "offline@/devices/system/cpu/cpu1"
			      "|ACTION=offline|DEVPATH=/devices/system/cpu/cpu1"
			      "|SUBSYSTEM=cpu|SEQNUM=4") == 0);
	CHECK(feed_uevent(st, "online@/devices/system/cpu/cpu1"
			      "|ACTION=online|DEVPATH=/devices/system/cpu/cpu1"
			      "|SUBSYSTEM=cpu|SEQNUM=5") == 0);
	CHECK(feed_uevent(st, "change@/devices/virtual/block/loop0"
			      "|ACTION=change"
			      "|DEVPATH=/devices/virtual/block/loop0"
			      "|SUBSYSTEM=block|RESIZE=1|DEVNAME=loop0"
			      "|DEVTYPE=disk|SEQNUM=6") == 0);
	CHECK_STR(take_events(st),
		  "uevent power /devices/platform/x/hwmon/hwmon0 temp1_alarm "
		  "3 hwmon\n"
		  "uevent hotplug /devices/system/cpu/cpu1 online 4 cpu\n"
		  "uevent hotplug /devices/system/cpu/cpu1 online 5 cpu\n"
		  "uevent storage /devices/virtual/block/loop0 size 6 block\n");

	/* Uevents that name no attribute */
	CHECK(feed_uevent(st, "change@/devices/virtual/block/loop0"
			      "|ACTION=change"
			      "|DEVPATH=/devices/virtual/block/loop0"
			      "|SUBSYSTEM=block|DISK_MEDIA_CHANGE=1"
			      "|SEQNUM=7") == 0);
	CHECK(feed_uevent(st, "add@/devices/system/cpu/cpu2|ACTION=add"
			      "|DEVPATH=/devices/system/cpu/cpu2"
			      "|SUBSYSTEM=cpu|SEQNUM=8") == 0);
	CHECK(feed_uevent(st, "change@/devices/platform/i8042/serio0/input/"
			      "input0|ACTION=change|DEVPATH=/devices/platform/"
			      "i8042/serio0/input/input0|SUBSYSTEM=input"
			      "|NAME=\"AT Translated Set 2 keyboard\""
			      "|SEQNUM=9") == 0);
	CHECK(feed_uevent(st, "add@/devices/platform/x/hwmon/hwmon0"
			      "|ACTION=add"
			      "|DEVPATH=/devices/platform/x/hwmon/hwmon0"
			      "|SUBSYSTEM=hwmon|NAME=temp1_alarm|SEQNUM=10") ==
	      0);
	/* A path that would leave /sys */
	CHECK(feed_uevent(st, "online@/devices/../../etc|ACTION=online"
			      "|DEVPATH=/devices/../../etc|SUBSYSTEM=cpu") ==
	      0);
	/* libudev's messages, and what has no header */
	CHECK(feed_uevent(st, "libudev|ACTION=online"
			      "|DEVPATH=/devices/system/cpu/cpu1"
			      "|SUBSYSTEM=cpu") == 0);
	CHECK(kevent_stock_state_uevent(st, "online@/devices/system/cpu/cpu1",
					31) == 0);
	CHECK_STR(take_events(st), "");
	kevent_stock_state_free(st);
}

/* A link message in @buf: RTM_NEWLINK or RTM_DELLINK of @ifindex */
static struct nlmsghdr *link_msg(char *buf, uint16_t type, int ifindex,
				 const char *name, int operstate, int carrier,
				 uint32_t mtu, const uint8_t *addr)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = type;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	if (name)
		mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (operstate >= 0)
		mnl_attr_put_u8(nlh, IFLA_OPERSTATE, operstate);
	if (carrier >= 0)
		mnl_attr_put_u8(nlh, IFLA_CARRIER, carrier);
	if (mtu)
		mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	if (addr)
		mnl_attr_put(nlh, IFLA_ADDRESS, 6, addr);
	return nlh;
}

/* Paths without sysfs: virtual devices, and one that is not */
static int test_net_path(const char *name, char **ret_path)
{
	if (strcmp(name, "eth9") != 0)
		return -ENOENT;
	*ret_path = strdup("/devices/pci0000:00/net/eth9");
	return *ret_path ? 0 : -ENOMEM;
}

static int feed_link(struct kevent_stock_state *st, struct nlmsghdr *nlh,
		     bool seed)
{
	return kevent_stock_state_link(st, nlh, nlh->nlmsg_len, seed);
}

UNIT_TEST(test_stock_link_changes)
{
	static const uint8_t a1[6] = { 0x02, 0, 0, 0x6b, 0x65, 0x76 };
	static const uint8_t a2[6] = { 0x02, 0xab, 0xcd, 0xef, 0x01, 0x0f };
	struct kevent_stock_state *st = kevent_stock_state_new();
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	kevent_stock_state_set_net_path(st, test_net_path);
	/* The dump seeds, and a new device's first message too */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 1, "lo", IF_OPER_UNKNOWN,
				     1, 65536, NULL), true) == 0);
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt0", IF_OPER_DOWN,
				     0, 1500, a1), false) == 0);
	CHECK_STR(take_events(st), "");
	/* Up: operstate and carrier changed, mtu and address did not */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt0",
				     IF_OPER_UNKNOWN, 1, 1500, a1), false) == 0);
	CHECK_STR(take_events(st),
		  "rtnetlink net /devices/virtual/net/kt0 operstate 0 net\n"
		  "rtnetlink net /devices/virtual/net/kt0 carrier 0 net\n");
	/* The same message again: nothing */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt0",
				     IF_OPER_UNKNOWN, 1, 1500, a1), false) == 0);
	CHECK_STR(take_events(st), "");
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt0",
				     IF_OPER_UNKNOWN, 1, 1400, a2), false) == 0);
	CHECK_STR(take_events(st),
		  "rtnetlink net /devices/virtual/net/kt0 mtu 0 net\n"
		  "rtnetlink net /devices/virtual/net/kt0 address 0 net\n");
	/* Renamed: the next change is on the new path, the rename no event */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt1",
				     IF_OPER_UNKNOWN, 1, 1400, a2), false) == 0);
	CHECK_STR(take_events(st), "");
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt1", IF_OPER_DOWN,
				     0, 1400, a2), false) == 0);
	CHECK_STR(take_events(st),
		  "rtnetlink net /devices/virtual/net/kt1 operstate 0 net\n"
		  "rtnetlink net /devices/virtual/net/kt1 carrier 0 net\n");
	/* Deleted: forgotten, so the next device of that index is new */
	CHECK(feed_link(st, link_msg(buf, RTM_DELLINK, 7, "kt1", IF_OPER_DOWN,
				     0, 1400, a2), false) == 0);
	CHECK_STR(take_events(st), "");
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 7, "kt2", IF_OPER_UP, 1,
				     9000, a1), false) == 0);
	CHECK_STR(take_events(st), "");
	/* A device with a path of its own in sysfs */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 8, "eth9", IF_OPER_DOWN,
				     0, 1500, a1), false) == 0);
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 8, "eth9", IF_OPER_UP, 0,
				     1500, a1), false) == 0);
	CHECK_STR(take_events(st),
		  "rtnetlink net /devices/pci0000:00/net/eth9 operstate 0 net\n");

	/* Not about the device: a bridge port's message, another type */
	nlh = link_msg(buf, RTM_NEWLINK, 8, "eth9", IF_OPER_DOWN, 0, 1500, a1);
	((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_family = AF_BRIDGE;
	CHECK(feed_link(st, nlh, false) == 0);
	nlh = link_msg(buf, RTM_DELLINK, 8, "eth9", IF_OPER_DOWN, 0, 1500, a1);
	((struct ifinfomsg *)mnl_nlmsg_get_payload(nlh))->ifi_family = AF_BRIDGE;
	CHECK(feed_link(st, nlh, false) == 0);
	CHECK(feed_link(st, link_msg(buf, RTM_NEWADDR, 8, "eth9", IF_OPER_DOWN,
				     0, 1500, a1), false) == 0);
	CHECK_STR(take_events(st), "");
	/* eth9 survived the bridge's RTM_DELLINK: its change is an event */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 8, "eth9", IF_OPER_UP, 0,
				     1280, a1), false) == 0);
	CHECK_STR(take_events(st),
		  "rtnetlink net /devices/pci0000:00/net/eth9 mtu 0 net\n");

	/* Truncated: no event, no read past the end */
	nlh = link_msg(buf, RTM_NEWLINK, 8, "eth9", IF_OPER_DOWN, 0, 1280, a1);
	CHECK(kevent_stock_state_link(st, nlh, 20, false) == 0);
	CHECK_STR(take_events(st), "");
	kevent_stock_state_free(st);
}

UNIT_TEST(test_stock_resync_forgets_what_is_gone)
{
	static const uint8_t a1[6] = { 0x02, 0, 0, 0, 0, 1 };
	struct kevent_stock_state *st = kevent_stock_state_new();
	char buf[MNL_SOCKET_BUFFER_SIZE];

	kevent_stock_state_set_net_path(st, test_net_path);
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 3, "kt3", IF_OPER_DOWN,
				     0, 1500, a1), true) == 0);
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 4, "kt4", IF_OPER_DOWN,
				     0, 1500, a1), true) == 0);
	/* The re-reading finds kt4 alone, changed: seeded, no event */
	kevent_stock_state_resync_begin(st);
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 4, "kt4", IF_OPER_UP, 1,
				     1500, a1), true) == 0);
	kevent_stock_state_resync_end(st);
	CHECK_STR(take_events(st), "");
	/* kt3 is forgotten: its next message is a new device's */
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 3, "kt3", IF_OPER_UP, 1,
				     1500, a1), false) == 0);
	CHECK_STR(take_events(st), "");
	CHECK(feed_link(st, link_msg(buf, RTM_NEWLINK, 4, "kt4", IF_OPER_DOWN,
				     1, 1500, a1), false) == 0);
	CHECK_STR(take_events(st),
		  "rtnetlink net /devices/virtual/net/kt4 operstate 0 net\n");
	kevent_stock_state_free(st);
}

UNIT_TEST(test_stock_operstate_names)
{
	CHECK_STR(kevent_operstate_name(IF_OPER_UP), "up");
	CHECK_STR(kevent_operstate_name(IF_OPER_DOWN), "down");
	CHECK_STR(kevent_operstate_name(IF_OPER_LOWERLAYERDOWN),
		  "lowerlayerdown");
	CHECK_STR(kevent_operstate_name(IF_OPER_DORMANT), "dormant");
	CHECK_STR(kevent_operstate_name(200), "unknown");
	CHECK_STR(kevent_event_source_to_string(KEVENT_EVENT_SOURCE_RTNETLINK),
		  "rtnetlink");
}

UNIT_TEST(test_stock_queue_grows_in_order)
{
	struct kevent_stock_state *st = kevent_stock_state_new();
	char text[256], want[64];
	struct kevent_event *ev;
	unsigned int i, bad = 0;

	/* More than the first allocation, so that the ring is copied */
	for (i = 0; i < 40; i++) {
		snprintf(text, sizeof(text),
			 "online@/devices/system/cpu/cpu%u|ACTION=online"
			 "|DEVPATH=/devices/system/cpu/cpu%u|SUBSYSTEM=cpu"
			 "|SEQNUM=%u",
			 i, i, i + 1);
		CHECK(feed_uevent(st, text) == 0);
		if (i % 3 == 2) /* take one now and then: the head moves */
			kevent_event_unref(kevent_stock_state_pop(st));
	}
	CHECK(kevent_stock_state_pending(st) == 40 - 13);
	for (i = 13; (ev = kevent_stock_state_pop(st)); i++) {
		snprintf(want, sizeof(want), "/devices/system/cpu/cpu%u", i);
		if (strcmp(kevent_event_get_path(ev), want) != 0)
			bad++;
		kevent_event_unref(ev);
	}
	CHECK(bad == 0);
	CHECK(i == 40);
	/* Events still queued are freed with the state (valgrind checks) */
	CHECK(feed_uevent(st, "online@/devices/system/cpu/cpu1|ACTION=online"
			      "|DEVPATH=/devices/system/cpu/cpu1"
			      "|SUBSYSTEM=cpu|SEQNUM=1") == 0);
	kevent_stock_state_free(st);
}
