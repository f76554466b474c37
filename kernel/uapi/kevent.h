/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kevent: attribute-based kernel events over generic netlink.
 *
 * An event names a kobject (by its sysfs path) and one of its attributes;
 * it never carries the attribute's value. User space reads the value from
 * /sys<path>/<attr> when it handles the event.
 */
#ifndef _UAPI_LINUX_KEVENT_H
#define _UAPI_LINUX_KEVENT_H

#define KEVENT_GENL_NAME		"kevent"
#define KEVENT_GENL_VERSION		1

/* Multicast groups, one per class, in enum kevent_class order */
#define KEVENT_GENL_MCGRP_GENERAL	"general"
#define KEVENT_GENL_MCGRP_STORAGE	"storage"
#define KEVENT_GENL_MCGRP_POWER		"power"
#define KEVENT_GENL_MCGRP_FS		"fs"
#define KEVENT_GENL_MCGRP_HOTPLUG	"hotplug"
#define KEVENT_GENL_MCGRP_NET		"net"

/*
 * Longest kobject path (relative to /sys) and attribute name carried, each
 * with its NUL byte. Sources and events of longer paths are refused: every
 * event message, and every entry of a dump, then fits in one page.
 */
#define KEVENT_PATH_MAX			3072
#define KEVENT_ATTR_NAME_MAX		64

enum kevent_class {
	KEVENT_CLASS_GENERAL,
	KEVENT_CLASS_STORAGE,
	KEVENT_CLASS_POWER,
	KEVENT_CLASS_FS,
	KEVENT_CLASS_HOTPLUG,
	KEVENT_CLASS_NET,

	__KEVENT_CLASS_MAX,
};
#define KEVENT_CLASS_MAX (__KEVENT_CLASS_MAX - 1)

enum kevent_attr {
	KEVENT_A_UNSPEC,
	KEVENT_A_SEQ,			/* u64: sequence number, from 1 at module load */
	KEVENT_A_TIMESTAMP,		/* u64: CLOCK_BOOTTIME, nanoseconds */
	KEVENT_A_CLASS,			/* u32: enum kevent_class */
	KEVENT_A_PATH,			/* string: kobject path below /sys */
	KEVENT_A_ATTR_NAME,		/* string: attribute name */
	KEVENT_A_ATTR_ID,		/* u32: index in attributes.txt */
	KEVENT_A_COALESCED,		/* u32: notifications folded in */
	KEVENT_A_STAT_SENT,		/* u64: events sent */
	KEVENT_A_STAT_COALESCED,	/* u64: notifications folded */
	KEVENT_A_STAT_FAILED,		/* u64: events that could not be sent */
	KEVENT_A_STAT_SOURCES,		/* u32: annotated sources now */
	KEVENT_A_PAD,
	KEVENT_A_CLASS_SEQ,		/* u64: number in the class; gap: loss */
	KEVENT_A_STAT_UNRECORDED,	/* u64: events left out of the replay */

	__KEVENT_A_MAX,
};
#define KEVENT_A_MAX (__KEVENT_A_MAX - 1)

enum kevent_cmd {
	KEVENT_CMD_UNSPEC,
	KEVENT_CMD_EVENT,		/* multicast: an attribute changed */
	KEVENT_CMD_GET_SOURCES,		/* dump: annotated sources */
	KEVENT_CMD_GET_REPLAY,		/* dump: recent events still held */
	KEVENT_CMD_GET_STATS,		/* do: counters */

	__KEVENT_CMD_MAX,
};
#define KEVENT_CMD_MAX (__KEVENT_CMD_MAX - 1)

#endif /* _UAPI_LINUX_KEVENT_H */
