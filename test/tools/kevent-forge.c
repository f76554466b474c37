// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-forge: send a forged kevent event, as a hostile process could.
 *
 * Usage: kevent-forge [-c CLASS] [-s SEQ] [-S CLASS_SEQ] [-p PORTID] PATH ATTR
 *
 *   PATH          kobject path of the event (KEVENT_A_PATH), sent as given:
 *                 "/../../etc" is fine
 *   ATTR          attribute name (KEVENT_A_ATTR_NAME), sent as given
 *   -c CLASS      class of the event and multicast group it is sent to
 *                 (general, storage, power, fs, hotplug, net; default power)
 *   -s SEQ        sequence number (KEVENT_A_SEQ), default 1
 *   -S CLASS_SEQ  class sequence number (KEVENT_A_CLASS_SEQ); none if not
 *                 given
 *   -p PORTID     send to the socket of this netlink port id instead of the
 *                 class's multicast group
 *
 * Resolves the generic netlink family "kevent" and its group for CLASS, then
 * sends one KEVENT_CMD_EVENT message, built like the kernel's, to the group
 * (which needs CAP_NET_ADMIN) or to PORTID. The message carries this
 * process's port id as sender, which listeners must refuse. It has no
 * NLM_F_REQUEST flag, so the kernel's own copy of it is ignored.
 *
 * Exit status: 0 sent, 1 failure (a message on stderr), 2 usage error.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <kevent.h>

#define PROG "kevent-forge"

static const char *const class_names[] = {
	[KEVENT_CLASS_GENERAL] = KEVENT_MCGRP_GENERAL,
	[KEVENT_CLASS_STORAGE] = KEVENT_MCGRP_STORAGE,
	[KEVENT_CLASS_POWER] = KEVENT_MCGRP_POWER,
	[KEVENT_CLASS_FS] = KEVENT_MCGRP_FS,
	[KEVENT_CLASS_HOTPLUG] = KEVENT_MCGRP_HOTPLUG,
	[KEVENT_CLASS_NET] = KEVENT_MCGRP_NET,
};

struct family {
	const char *group_name; /* the group wanted */
	uint16_t id;
	uint32_t group; /* its id, 0 until found */
};

static void usage(void)
{
	fprintf(stderr,
		"Usage: " PROG
		" [-c CLASS] [-s SEQ] [-S CLASS_SEQ] [-p PORTID] PATH ATTR\n");
	exit(2);
}

static uint64_t parse_u64(const char *s)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-')
		usage();
	return n;
}

static int group_cb(const struct nlattr *nested, struct family *f)
{
	const struct nlattr *attr;
	const char *name = NULL;
	uint32_t id = 0;

	mnl_attr_for_each_nested(attr, nested) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_MCAST_GRP_NAME:
			if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
				name = mnl_attr_get_str(attr);
			break;
		case CTRL_ATTR_MCAST_GRP_ID:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
				id = mnl_attr_get_u32(attr);
			break;
		}
	}
	if (name && strcmp(name, f->group_name) == 0)
		f->group = id;
	return 0;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct family *f = data;
	const struct nlattr *attr, *grp;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_FAMILY_ID:
			if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
				f->id = mnl_attr_get_u16(attr);
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			mnl_attr_for_each_nested(grp, attr)
				group_cb(grp, f);
			break;
		}
	}
	return MNL_CB_OK;
}

/* CTRL_CMD_GETFAMILY "kevent": its id and the id of @f->group_name. */
static int resolve(struct mnl_socket *nl, struct family *f)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = time(NULL), portid = mnl_socket_get_portid(nl);
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	ssize_t n;
	int r;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, KEVENT_FAMILY_NAME);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		r = mnl_cb_run(buf, n, seq, portid, family_cb, f);
	} while (r > MNL_CB_STOP);
	return r < 0 ? -errno : 0;
}

int main(int argc, char **argv)
{
	char buf[2 * KEVENT_PATH_MAX + 256];
	struct sockaddr_nl dst = { .nl_family = AF_NETLINK };
	struct family f = { .group_name = KEVENT_MCGRP_POWER };
	enum kevent_class cls = KEVENT_CLASS_POWER;
	uint64_t seq = 1, class_seq = 0;
	bool have_class_seq = false, to_port = false;
	struct genlmsghdr *genl;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	uint32_t portid = 0;
	unsigned int i;
	int opt, r;

	while ((opt = getopt(argc, argv, "c:s:S:p:")) != -1) {
		switch (opt) {
		case 'c':
			for (i = 0; i <= KEVENT_CLASS_MAX; i++)
				if (strcmp(optarg, class_names[i]) == 0)
					break;
			if (i > KEVENT_CLASS_MAX)
				usage();
			cls = i;
			f.group_name = class_names[i];
			break;
		case 's':
			seq = parse_u64(optarg);
			break;
		case 'S':
			class_seq = parse_u64(optarg);
			have_class_seq = true;
			break;
		case 'p':
			portid = parse_u64(optarg);
			to_port = true;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || strlen(argv[optind]) > KEVENT_PATH_MAX ||
	    strlen(argv[optind + 1]) > KEVENT_PATH_MAX)
		usage();

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr, PROG ": cannot open a netlink socket: %s\n",
			strerror(errno));
		return 1;
	}
	r = resolve(nl, &f);
	if (r < 0 || !f.id) {
		fprintf(stderr, PROG ": cannot resolve the kevent family: %s\n",
			r < 0 ? strerror(-r) : "no id");
		return 1;
	}
	if (!to_port && !f.group) {
		fprintf(stderr, PROG ": the kevent family has no group %s\n",
			f.group_name);
		return 1;
	}
	/* sendto() addresses groups as a bit mask: only 1 to 32 fit. */
	if (!to_port && f.group > 32) {
		fprintf(stderr,
			PROG ": group %s has id %u, beyond the 32 that sendto() can address\n",
			f.group_name, f.group);
		return 1;
	}

	/* As the kernel's kevent_emit() builds it; no NLM_F_REQUEST. */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = f.id;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = KEVENT_CMD_EVENT;
	genl->version = KEVENT_FAMILY_VERSION;
	mnl_attr_put_u64(nlh, KEVENT_A_SEQ, seq);
	mnl_attr_put_u64(nlh, KEVENT_A_TIMESTAMP, 1);
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS, cls);
	mnl_attr_put_strz(nlh, KEVENT_A_PATH, argv[optind]);
	mnl_attr_put_strz(nlh, KEVENT_A_ATTR_NAME, argv[optind + 1]);
	mnl_attr_put_u32(nlh, KEVENT_A_COALESCED, 0);
	if (have_class_seq)
		mnl_attr_put_u64(nlh, KEVENT_A_CLASS_SEQ, class_seq);

	if (to_port)
		dst.nl_pid = portid;
	else
		dst.nl_groups = 1u << (f.group - 1);
	if (sendto(mnl_socket_get_fd(nl), nlh, nlh->nlmsg_len, 0,
		   (struct sockaddr *)&dst, sizeof(dst)) < 0) {
		fprintf(stderr, PROG ": cannot send: %s\n", strerror(errno));
		return 1;
	}
	mnl_socket_close(nl);
	return 0;
}
