// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-hog - a listener that never reads, as a hostile or stuck program
 * would be
 *
 * Usage: kevent-hog
 *
 * Joins every multicast group of the kevent family with the smallest
 * receive buffer the kernel allows and NETLINK_BROADCAST_ERROR set, so that
 * each event that finds its buffer full is reported to the sender as a
 * delivery failure. Prints "ready" once joined, then sleeps until killed,
 * reading nothing. Any user may run it. Exit status 1 when the family or
 * its groups cannot be joined.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <kevent.h>

#define PROG "kevent-hog"
#define GROUPS_MAX 16

/* The groups of the family: ids[0] how many, then the group ids */
static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	uint32_t *ids = data;
	struct nlattr *attr, *grp, *a;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(attr) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		mnl_attr_for_each_nested(grp, attr)
			mnl_attr_for_each_nested(a, grp)
				if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
				    ids[0] < GROUPS_MAX)
					ids[1 + ids[0]++] = mnl_attr_get_u32(a);
	}
	return MNL_CB_OK;
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, PROG ": ");
	perror(what);
	exit(1);
}

int main(void)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t ids[1 + GROUPS_MAX] = { 0 };
	struct genlmsghdr *genl;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	int n, on = 1, size = 0;
	uint32_t i;

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		die("netlink");

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 1;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, KEVENT_FAMILY_NAME);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		die("netlink request");
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0 || mnl_cb_run(buf, n, 1, mnl_socket_get_portid(nl),
				family_cb, ids) < 0 || !ids[0]) {
		fprintf(stderr, PROG ": no kevent family\n");
		return 1;
	}

	/* The kernel rounds a size of 0 up to its minimum */
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &size,
		       sizeof(size)))
		die("SO_RCVBUF");
	if (mnl_socket_setsockopt(nl, NETLINK_BROADCAST_ERROR, &on,
				  sizeof(on)))
		die("NETLINK_BROADCAST_ERROR");
	for (i = 0; i < ids[0]; i++)
		if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP,
					  &ids[1 + i], sizeof(uint32_t)))
			die("join");

	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
