/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/kevent.yaml */
/* YNL-GEN uapi header */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _UAPI_LINUX_KEVENT_H
#define _UAPI_LINUX_KEVENT_H

#define KEVENT_FAMILY_NAME	"kevent"
#define KEVENT_FAMILY_VERSION	1

#define KEVENT_PATH_MAX		3072
#define KEVENT_ATTR_NAME_MAX	64
#define KEVENT_ATTR_ID_NONE	4294967295

/*
 * The class of an attribute, from the registry; each class is a multicast
 * group of its own.
 */
enum kevent_class {
	KEVENT_CLASS_GENERAL,
	KEVENT_CLASS_STORAGE,
	KEVENT_CLASS_POWER,
	KEVENT_CLASS_FS,
	KEVENT_CLASS_HOTPLUG,
	KEVENT_CLASS_NET,

	/* private: */
	__KEVENT_CLASS_MAX,
	KEVENT_CLASS_MAX = (__KEVENT_CLASS_MAX - 1)
};

enum kevent_attr {
	KEVENT_A_SEQ = 1,
	KEVENT_A_TIMESTAMP,
	KEVENT_A_CLASS,
	KEVENT_A_PATH,
	KEVENT_A_ATTR_NAME,
	KEVENT_A_ATTR_ID,
	KEVENT_A_COALESCED,
	KEVENT_A_STAT_SENT,
	KEVENT_A_STAT_COALESCED,
	KEVENT_A_STAT_FAILED,
	KEVENT_A_STAT_SOURCES,
	KEVENT_A_PAD,
	KEVENT_A_CLASS_SEQ,
	KEVENT_A_STAT_UNRECORDED,
	KEVENT_A_UNIT,

	__KEVENT_A_MAX,
	KEVENT_A_MAX = (__KEVENT_A_MAX - 1)
};

enum kevent_cmd {
	KEVENT_CMD_EVENT = 1,
	KEVENT_CMD_GET_SOURCES,
	KEVENT_CMD_GET_REPLAY,
	KEVENT_CMD_GET_STATS,
	KEVENT_CMD_GET_ATTRIBUTES,

	__KEVENT_CMD_MAX,
	KEVENT_CMD_MAX = (__KEVENT_CMD_MAX - 1)
};

#define KEVENT_MCGRP_GENERAL	"general"
#define KEVENT_MCGRP_STORAGE	"storage"
#define KEVENT_MCGRP_POWER	"power"
#define KEVENT_MCGRP_FS		"fs"
#define KEVENT_MCGRP_HOTPLUG	"hotplug"
#define KEVENT_MCGRP_NET	"net"

#endif /* _UAPI_LINUX_KEVENT_H */
