// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-bench-reader - the leanest consumer of attribute events, for the
 * benchmarks (scripts/bench): what a listener costs at the least
 *
 * Usage: kevent-bench-reader --kevent
 *        kevent-bench-reader --uevent
 *        kevent-bench-reader --poll FILE
 *
 * For each event it reads the attribute's value and prints it, one line
 * each: "PATH ATTR=VALUE" for kevent and uevent, "VALUE" for --poll.
 *
 * --kevent  joins every multicast group of the kevent family; receives
 *           up to 64 messages a call with recvmmsg()
 * --uevent  the kernel's uevent broadcast (NETLINK_KOBJECT_UEVENT), change
 *           uevents that carry NAME=<attr>, batched the same way
 * --poll    waits with poll() for POLLPRI on FILE, a sysfs attribute
 *
 * An attribute file is opened once and read with pread() after: one receive
 * for a batch of events, and one read per event, is the least a listener
 * that resolves values can do. The lines of a batch leave in one write().
 * Runs until killed. Exit status 1 with a message on a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <kevent.h>

#define PROG "kevent-bench-reader"
#define BATCH 64
#define MSG_SIZE 8192
#define VALUE_MAX 4096
#define CACHE_SIZE 64
#define RCVBUF (128 * 1024 * 1024)

struct open_attr {
	char *file;
	int fd;
};

static struct open_attr cache[CACHE_SIZE];
static size_t cache_next;
static char out[BATCH * (VALUE_MAX + 512)];
static size_t out_len;

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The descriptor of /sys/@path/@attr, opened at its first use */
static int attr_fd(const char *path, const char *attr)
{
	char file[4096];
	size_t i;
	int fd;

	snprintf(file, sizeof(file), "/sys%s/%s", path, attr);
	for (i = 0; i < CACHE_SIZE; i++)
		if (cache[i].file && strcmp(cache[i].file, file) == 0)
			return cache[i].fd;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	i = cache_next++ % CACHE_SIZE;
	if (cache[i].file) {
		close(cache[i].fd);
		free(cache[i].file);
	}
	cache[i].file = strdup(file);
	cache[i].fd = fd;
	return fd;
}

static void flush_out(void)
{
	size_t off = 0;
	ssize_t n;

	while (off < out_len) {
		n = write(STDOUT_FILENO, out + off, out_len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("write");
		}
		off += n;
	}
	out_len = 0;
}

/* Read the value and add "PATH ATTR=VALUE" (or "VALUE") to the output */
static void report(int fd, const char *path, const char *attr)
{
	char value[VALUE_MAX];
	ssize_t n;

	n = fd < 0 ? -1 : pread(fd, value, sizeof(value) - 1, 0);
	if (n < 0)
		n = snprintf(value, sizeof(value), "<error: %s>",
			     strerror(errno));
	while (n > 0 && value[n - 1] == '\n')
		n--;
	value[n] = '\0';
	if (path)
		out_len += snprintf(out + out_len, sizeof(out) - out_len,
				    "%s %s=%s\n", path, attr, value);
	else
		out_len += snprintf(out + out_len, sizeof(out) - out_len,
				    "%s\n", value);
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	uint32_t *groups = data;
	struct nlattr *attr, *grp, *a;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
			groups[0] = mnl_attr_get_u16(attr);
		if (mnl_attr_get_type(attr) != CTRL_ATTR_MCAST_GROUPS)
			continue;
		mnl_attr_for_each_nested(grp, attr)
			mnl_attr_for_each_nested(a, grp)
				if (mnl_attr_get_type(a) == CTRL_ATTR_MCAST_GRP_ID &&
				    groups[1] < 16)
					groups[2 + groups[1]++] =
						mnl_attr_get_u32(a);
	}
	return MNL_CB_OK;
}

/*
 * A socket joined to every group of the kevent family.
 * groups[0] the family id, groups[1] the number of groups, then the groups.
 */
static int kevent_socket(uint16_t *ret_family)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t groups[18] = { 0 };
	struct genlmsghdr *genl;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	int n, fd, size = RCVBUF;
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
				family_cb, groups) < 0 || !groups[0]) {
		fprintf(stderr, PROG ": no kevent family\n");
		exit(1);
	}
	fd = mnl_socket_get_fd(nl);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		die("SO_RCVBUFFORCE");
	for (i = 0; i < groups[1]; i++)
		if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP,
					  &groups[2 + i], sizeof(uint32_t)))
			die("join");
	*ret_family = groups[0];
	return fd;
}

static void kevent_message(const struct nlmsghdr *nlh, uint16_t family)
{
	const char *path = NULL, *attr = NULL;
	struct nlattr *a;

	if (nlh->nlmsg_type != family)
		return;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		if (mnl_attr_get_type(a) == KEVENT_A_PATH)
			path = mnl_attr_get_str(a);
		else if (mnl_attr_get_type(a) == KEVENT_A_ATTR_NAME)
			attr = mnl_attr_get_str(a);
	}
	if (path && attr)
		report(attr_fd(path, attr), path, attr);
}

static void uevent_message(const char *buf, size_t len)
{
	const char *p, *end = buf + len, *path = NULL, *attr = NULL;
	bool change = false;

	for (p = buf; p < end; p += strlen(p) + 1) {
		if (strcmp(p, "ACTION=change") == 0)
			change = true;
		else if (strncmp(p, "DEVPATH=", 8) == 0)
			path = p + 8;
		else if (strncmp(p, "NAME=", 5) == 0)
			attr = p + 5;
	}
	if (change && path && attr && !strchr(attr, '/'))
		report(attr_fd(path, attr), path, attr);
}

static int uevent_socket(void)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd, size = RCVBUF;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		die("uevent socket");
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		die("SO_RCVBUFFORCE");
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		die("bind");
	return fd;
}

static char bufs[BATCH][MSG_SIZE];

static void __attribute__((noreturn)) netlink_loop(bool kevent)
{
	struct sockaddr_nl addrs[BATCH];
	struct mmsghdr msgs[BATCH];
	struct iovec iovs[BATCH];
	const struct nlmsghdr *nlh;
	uint16_t family = 0;
	int fd, n, i, len;

	fd = kevent ? kevent_socket(&family) : uevent_socket();
	for (i = 0; i < BATCH; i++) {
		iovs[i] = (struct iovec){ bufs[i], MSG_SIZE };
		msgs[i].msg_hdr = (struct msghdr){
			.msg_name = &addrs[i],
			.msg_iov = &iovs[i],
			.msg_iovlen = 1,
		};
	}
	for (;;) {
		for (i = 0; i < BATCH; i++)
			msgs[i].msg_hdr.msg_namelen = sizeof(addrs[i]);
		/* Blocks for the first message, takes what else is queued */
		n = recvmmsg(fd, msgs, BATCH, MSG_WAITFORONE, NULL);
		if (n < 0) {
			if (errno == EINTR || errno == ENOBUFS)
				continue;
			die("recvmmsg");
		}
		for (i = 0; i < n; i++) {
			/* Only what the kernel sent */
			if (addrs[i].nl_pid != 0)
				continue;
			len = msgs[i].msg_len;
			if (!kevent) {
				uevent_message(bufs[i], len);
				continue;
			}
			nlh = (const struct nlmsghdr *)bufs[i];
			while (mnl_nlmsg_ok(nlh, len)) {
				kevent_message(nlh, family);
				nlh = mnl_nlmsg_next(nlh, &len);
			}
		}
		flush_out();
	}
}

static void __attribute__((noreturn)) poll_loop(const char *file)
{
	struct pollfd pfd = { .events = POLLPRI | POLLERR };
	char value[VALUE_MAX];

	pfd.fd = open(file, O_RDONLY | O_CLOEXEC);
	if (pfd.fd < 0)
		die(file);
	/* A first read arms the notification */
	if (pread(pfd.fd, value, sizeof(value), 0) < 0)
		die(file);
	for (;;) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll");
		}
		report(pfd.fd, NULL, NULL);
		flush_out();
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--kevent") == 0)
		netlink_loop(true);
	if (argc == 2 && strcmp(argv[1], "--uevent") == 0)
		netlink_loop(false);
	if (argc == 3 && strcmp(argv[1], "--poll") == 0)
		poll_loop(argv[2]);
	fprintf(stderr,
		"usage: " PROG " --kevent | --uevent | --poll FILE\n");
	return 2;
}
