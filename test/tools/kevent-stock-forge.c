// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-stock-forge: send a forged uevent or rtnetlink link message, as a
 * hostile root process could, to the groups a stock monitor listens to.
 *
 * Usage: kevent-stock-forge uevent ACTION DEVPATH SUBSYSTEM [KEY=VALUE...]
 *        kevent-stock-forge link IFINDEX IFNAME MTU
 *
 *   uevent  "ACTION@DEVPATH" and ACTION=, DEVPATH=, SUBSYSTEM=, SEQNUM=1
 *           and the KEY=VALUE given, to the kernel's uevent group (1) of
 *           NETLINK_KOBJECT_UEVENT
 *   link    an RTM_NEWLINK of AF_UNSPEC for IFINDEX, with IFLA_IFNAME,
 *           IFLA_MTU and IFLA_OPERSTATE up, to RTNLGRP_LINK; without
 *           NLM_F_REQUEST, so the kernel's own copy of it is ignored
 *
 * The messages carry this process's port id as sender, which listeners
 * must refuse. Sending to a group needs CAP_NET_ADMIN.
 *
 * Exit status: 0 sent, 1 failure (a message on stderr), 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#define PROG "kevent-stock-forge"

static int usage(void)
{
	fprintf(stderr,
		"Usage: " PROG " uevent ACTION DEVPATH SUBSYSTEM [KEY=VALUE...]\n"
		"       " PROG " link IFINDEX IFNAME MTU\n");
	return 2;
}

static int send_group(int protocol, unsigned int group, const void *buf,
		      size_t len)
{
	struct sockaddr_nl dst = { .nl_family = AF_NETLINK,
				   .nl_groups = 1u << (group - 1) };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);

	if (fd < 0 || sendto(fd, buf, len, 0, (struct sockaddr *)&dst,
			     sizeof(dst)) < 0) {
		fprintf(stderr, PROG ": cannot send: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

static int forge_uevent(int argc, char **argv)
{
	char buf[4096];
	size_t len;
	int i, n;

	if (argc < 3)
		return usage();
	n = snprintf(buf, sizeof(buf), "%s@%s", argv[0], argv[1]);
	len = n + 1;
	n = snprintf(buf + len, sizeof(buf) - len, "ACTION=%s", argv[0]);
	len += n + 1;
	n = snprintf(buf + len, sizeof(buf) - len, "DEVPATH=%s", argv[1]);
	len += n + 1;
	n = snprintf(buf + len, sizeof(buf) - len, "SUBSYSTEM=%s", argv[2]);
	len += n + 1;
	for (i = 3; i < argc && len < sizeof(buf) - 256; i++) {
		n = snprintf(buf + len, sizeof(buf) - len, "%.200s", argv[i]);
		len += n + 1;
	}
	n = snprintf(buf + len, sizeof(buf) - len, "SEQNUM=1");
	len += n + 1;
	return send_group(NETLINK_KOBJECT_UEVENT, 1, buf, len);
}

static int forge_link(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	if (argc != 3)
		return usage();
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWLINK;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = atoi(argv[0]);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, argv[1]);
	mnl_attr_put_u32(nlh, IFLA_MTU, strtoul(argv[2], NULL, 10));
	mnl_attr_put_u8(nlh, IFLA_OPERSTATE, IF_OPER_UP);
	return send_group(NETLINK_ROUTE, RTNLGRP_LINK, nlh, nlh->nlmsg_len);
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "uevent") == 0)
		return forge_uevent(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "link") == 0)
		return forge_link(argc - 2, argv + 2);
	return usage();
}
