// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-stats - print the counters of the kevent layer (KEVENT_CMD_GET_STATS)
 *
 * Usage: kevent-stats
 *
 * Prints one "name value" line per counter the kernel sent: sent,
 * coalesced, failed, unrecorded, sources. Exit status 0, or 1 with a message
 * on stderr when the family is missing or the request fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include <kevent.h>

static const char *const stat_names[KEVENT_A_MAX + 1] = {
	[KEVENT_A_STAT_SENT] = "sent",
	[KEVENT_A_STAT_COALESCED] = "coalesced",
	[KEVENT_A_STAT_FAILED] = "failed",
	[KEVENT_A_STAT_UNRECORDED] = "unrecorded",
	[KEVENT_A_STAT_SOURCES] = "sources",
};

/* The family id from the controller's reply */
static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			*(uint16_t *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

/* Print each counter of the reply */
static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;
	uint16_t type;

	(void)data;
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		type = mnl_attr_get_type(attr);
		if (type > KEVENT_A_MAX || !stat_names[type])
			continue;
		if (mnl_attr_get_payload_len(attr) == sizeof(uint64_t))
			printf("%s %" PRIu64 "\n", stat_names[type],
			       mnl_attr_get_u64(attr));
		else if (mnl_attr_get_payload_len(attr) == sizeof(uint32_t))
			printf("%s %" PRIu32 "\n", stat_names[type],
			       mnl_attr_get_u32(attr));
	}
	return MNL_CB_OK;
}

/*
 * Send a request of @cmd to @family and hand every answer to @cb.
 * Return: 0 once it ended well, or the negative error it ended with.
 */
static int request(struct mnl_socket *nl, uint16_t family, uint8_t cmd,
		   const char *name, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	uint32_t seq = time(NULL);
	int n;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	if (name)
		mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		n = mnl_cb_run(buf, n, seq, mnl_socket_get_portid(nl), cb,
			       data);
		if (n <= MNL_CB_STOP)
			return n < 0 ? -errno : 0;
	}
}

int main(int argc, char **argv)
{
	struct mnl_socket *nl;
	uint16_t family = 0;
	int r;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: kevent-stats\n");
		return 2;
	}

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("kevent-stats: netlink");
		return 1;
	}

	r = request(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, KEVENT_FAMILY_NAME,
		    family_cb, &family);
	if (r < 0 || !family) {
		fprintf(stderr, "kevent-stats: no kevent family: %s\n",
			strerror(r < 0 ? -r : ENOENT));
		mnl_socket_close(nl);
		return 1;
	}

	r = request(nl, family, KEVENT_CMD_GET_STATS, NULL, stats_cb, NULL);
	mnl_socket_close(nl);
	if (r < 0) {
		fprintf(stderr, "kevent-stats: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}
