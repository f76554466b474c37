/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/kevent.yaml */
/* YNL-GEN kernel header */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _LINUX_KEVENT_GEN_H
#define _LINUX_KEVENT_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/kevent.h>

int kevent_nl_get_replay_start(struct netlink_callback *cb);

int kevent_nl_get_sources_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int kevent_nl_get_replay_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb);
int kevent_nl_get_stats_doit(struct sk_buff *skb, struct genl_info *info);
int kevent_nl_get_attributes_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb);

enum {
	KEVENT_NLGRP_GENERAL,
	KEVENT_NLGRP_STORAGE,
	KEVENT_NLGRP_POWER,
	KEVENT_NLGRP_FS,
	KEVENT_NLGRP_HOTPLUG,
	KEVENT_NLGRP_NET,
};

extern struct genl_family kevent_nl_family;

#endif /* _LINUX_KEVENT_GEN_H */
