// SPDX-License-Identifier: GPL-2.0
/*
 * The attribute filter's BPF program, run by the kernel of the machine that
 * runs the tests: crafted messages go from one netlink socket to another
 * that carries the filter, and only the expected ones arrive.
 */
#include <errno.h>
#include <linux/filter.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "kevent-private.h"
#include "unit.h"

#define FAMILY 0x1234

/*
 * Send a message of type @type and command @cmd from @tx to port @port, with
 * sequence number @seq. @id < 0: no KEVENT_A_ATTR_ID; @long_path puts a
 * long path before the id, so the program must walk to find it.
 */
static void send_msg(int tx, uint32_t port, uint16_t type, uint8_t cmd,
		     uint32_t seq, int id, bool long_path)
{
	char buf[1024] = { 0 }, path[300];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK, .nl_pid = port };
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS, KEVENT_CLASS_POWER);
	mnl_attr_put_strz(nlh, KEVENT_A_PATH, long_path ? path : "/devices/x");
	mnl_attr_put_strz(nlh, KEVENT_A_ATTR_NAME, "temperature");
	if (id >= 0)
		mnl_attr_put_u32(nlh, KEVENT_A_ATTR_ID, id);
	CHECK(sendto(tx, nlh, nlh->nlmsg_len, 0, (struct sockaddr *)&to,
		     sizeof(to)) == (ssize_t)nlh->nlmsg_len);
}

/* The sequence numbers of the messages queued on @rx, in order. */
static void received(int rx, char *out, size_t len)
{
	char buf[2048];
	size_t off = 0;
	ssize_t n;

	out[0] = '\0';
	while ((n = recv(rx, buf, sizeof(buf), MSG_DONTWAIT)) > 0 &&
	       off < len - 8) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;

		off += snprintf(out + off, len - off, "%s%u", off ? " " : "",
				nlh->nlmsg_seq);
	}
}

static int open_bound(uint32_t *ret_port)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	socklen_t alen = sizeof(addr);
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&addr, &alen) < 0) {
		close(fd);
		return -1;
	}
	*ret_port = addr.nl_pid;
	return fd;
}

UNIT_TEST(test_attr_filter)
{
	struct sock_filter prog[KEVENT_FILTER_LEN(KEVENT_FILTER_MAX_IDS)];
	const uint32_t ids[] = { 0, 9 };
	struct sock_fprog fprog = { .filter = prog };
	uint32_t rx_port, tx_port;
	char got[256];
	int rx, tx, len;

	CHECK(kevent_attribute_id("temperature") == 0);
	CHECK(kevent_attribute_id("capacity") == 9);
	CHECK(kevent_attribute_id("nosuch") == -ENOENT);
	CHECK(kevent_attribute_id(NULL) == -ENOENT);
	CHECK(kevent_filter_build(FAMILY, ids, 0, prog, 100) == -EINVAL);
	CHECK(kevent_filter_build(FAMILY, ids, 2, prog, 13) == -EINVAL);
	CHECK(kevent_filter_build(FAMILY, ids, KEVENT_FILTER_MAX_IDS + 1, prog,
				  1000) == -EINVAL);
	CHECK(kevent_monitor_filter_add_attr(NULL, "temperature") == -EINVAL);

	len = kevent_filter_build(FAMILY, ids, 2, prog, KEVENT_FILTER_LEN(2));
	CHECK(len == KEVENT_FILTER_LEN(2));
	if (len < 0)
		return;
	fprog.len = len;

	rx = open_bound(&rx_port);
	tx = open_bound(&tx_port);
	CHECK(rx >= 0 && tx >= 0);
	if (rx < 0 || tx < 0)
		goto out;
	CHECK(setsockopt(rx, SOL_SOCKET, SO_ATTACH_FILTER, &fprog,
			 sizeof(fprog)) == 0);

	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 1, 0, false);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 2, 1, false);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 3, 9, false);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 4, 9, true);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 5, 2, true);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 6, 0x09000000, false);
	/* Not an event, another family, no id: the library decides. */
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_GET_STATS, 7, 1, false);
	send_msg(tx, rx_port, GENL_ID_CTRL, KEVENT_CMD_EVENT, 8, 1, false);
	send_msg(tx, rx_port, FAMILY + 1, KEVENT_CMD_EVENT, 9, 1, false);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 10, -1, false);
	received(rx, got, sizeof(got));
	CHECK_STR(got, "1 3 4 7 8 9 10");

	/* Without the filter, everything arrives: the test can tell. */
	CHECK(setsockopt(rx, SOL_SOCKET, SO_DETACH_FILTER, &len, sizeof(len)) ==
	      0);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 11, 1, false);
	send_msg(tx, rx_port, FAMILY, KEVENT_CMD_EVENT, 12, 2, true);
	received(rx, got, sizeof(got));
	CHECK_STR(got, "11 12");
out:
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
}
