// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/kevent.yaml */
/* YNL-GEN kernel source */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "kevent_nl_gen.h"

#include <uapi/linux/kevent.h>

/* KEVENT_CMD_GET_SOURCES - dump */
static const struct nla_policy kevent_get_sources_nl_policy[KEVENT_A_CLASS + 1] = {
	[KEVENT_A_CLASS] = NLA_POLICY_MAX(NLA_U32, 5),
};

/* KEVENT_CMD_GET_REPLAY - dump */
static const struct nla_policy kevent_get_replay_nl_policy[KEVENT_A_SEQ + 1] = {
	[KEVENT_A_SEQ] = { .type = NLA_U64, },
};

/* Ops table for kevent */
static const struct genl_split_ops kevent_nl_ops[] = {
	{
		.cmd		= KEVENT_CMD_GET_SOURCES,
		.dumpit		= kevent_nl_get_sources_dumpit,
		.policy		= kevent_get_sources_nl_policy,
		.maxattr	= KEVENT_A_CLASS,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= KEVENT_CMD_GET_REPLAY,
		.start		= kevent_nl_get_replay_start,
		.dumpit		= kevent_nl_get_replay_dumpit,
		.policy		= kevent_get_replay_nl_policy,
		.maxattr	= KEVENT_A_SEQ,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= KEVENT_CMD_GET_STATS,
		.doit	= kevent_nl_get_stats_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= KEVENT_CMD_GET_ATTRIBUTES,
		.dumpit	= kevent_nl_get_attributes_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
};

static const struct genl_multicast_group kevent_nl_mcgrps[] = {
	[KEVENT_NLGRP_GENERAL] = { "general", },
	[KEVENT_NLGRP_STORAGE] = { "storage", },
	[KEVENT_NLGRP_POWER] = { "power", },
	[KEVENT_NLGRP_FS] = { "fs", },
	[KEVENT_NLGRP_HOTPLUG] = { "hotplug", },
	[KEVENT_NLGRP_NET] = { "net", },
};

struct genl_family kevent_nl_family __ro_after_init = {
	.name		= KEVENT_FAMILY_NAME,
	.version	= KEVENT_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= kevent_nl_ops,
	.n_split_ops	= ARRAY_SIZE(kevent_nl_ops),
	.mcgrps		= kevent_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(kevent_nl_mcgrps),
};
