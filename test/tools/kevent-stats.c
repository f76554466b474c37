// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-stats - print the counters of the kevent layer (KEVENT_CMD_GET_STATS)
 *
 * Usage: kevent-stats
 *        kevent-stats --faults ROUNDS
 *
 * Prints one "name value" line per counter the kernel sent: sent,
 * coalesced, failed, unrecorded, sources. Exit status 0, or 1 with a message
 * on stderr when the family is missing or the request fails.
 *
 * With --faults, it first marks itself for fault injection
 * (/proc/self/make-it-fail, for failslab and fail_page_alloc with their
 * task-filter set), then makes ROUNDS rounds of the three requests, GET_STATS,
 * a GET_SOURCES dump and a GET_REPLAY dump, and prints for each how many were
 * answered and how many failed: "stats answered A failed F". Every request
 * must end, with its answer or an error; exit status 1 if one does not.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <unistd.h>
#include <stdbool.h>
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

/* Answers of the fault mode are only counted */
static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	++*(unsigned int *)data;
	return MNL_CB_OK;
}

/*
 * Send a request of @cmd to @family (a dump if @dump) and hand every answer
 * to @cb. Return: 0 once it ended well, or the negative error it ended with.
 */
static int request_flags(struct mnl_socket *nl, uint16_t family, uint8_t cmd,
			 bool dump, const char *name, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	uint32_t seq = time(NULL);
	int n;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (dump ? NLM_F_DUMP : 0);
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

static int request(struct mnl_socket *nl, uint16_t family, uint8_t cmd,
		   const char *name, mnl_cb_t cb, void *data)
{
	return request_flags(nl, family, cmd, false, name, cb, data);
}

/* Mark this process for fault injection; its allocations may now fail */
static int make_it_fail(void)
{
	int fd = open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, "1", 1) == 1;
	close(fd);
	return ok ? 0 : -EIO;
}

/* The requests of the fault mode */
static const struct {
	const char *name;
	uint8_t cmd;
	bool dump;
} fault_requests[] = {
	{ "stats", KEVENT_CMD_GET_STATS, false },
	{ "sources", KEVENT_CMD_GET_SOURCES, true },
	{ "replay", KEVENT_CMD_GET_REPLAY, true },
};

#define NR_FAULT_REQUESTS (sizeof(fault_requests) / sizeof(fault_requests[0]))

/*
 * One request of the fault mode, on a socket of its own: a dump cut short by
 * an error leaves nothing behind for the next one.
 */
static int fault_request(uint16_t family, uint8_t cmd, bool dump)
{
	struct mnl_socket *nl;
	unsigned int msgs = 0;
	int r;

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		r = -errno;
	else
		r = request_flags(nl, family, cmd, dump, NULL, count_cb, &msgs);
	mnl_socket_close(nl);
	return r;
}

/* ROUNDS rounds of every request; a request that gets no end fails it all */
static int faults(uint16_t family, unsigned long rounds)
{
	unsigned long answered[NR_FAULT_REQUESTS] = { 0 };
	unsigned long failed[NR_FAULT_REQUESTS] = { 0 };
	unsigned long i;
	size_t k;
	int r;

	r = make_it_fail();
	if (r < 0) {
		fprintf(stderr, "kevent-stats: make-it-fail: %s\n",
			strerror(-r));
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		for (k = 0; k < NR_FAULT_REQUESTS; k++) {
			r = fault_request(family, fault_requests[k].cmd,
					  fault_requests[k].dump);
			if (r == 0)
				answered[k]++;
			else if (r == -ENOMEM || r == -ENOBUFS)
				failed[k]++;
			else {
				fprintf(stderr, "kevent-stats: %s: %s\n",
					fault_requests[k].name, strerror(-r));
				return 1;
			}
		}
	}
	for (k = 0; k < NR_FAULT_REQUESTS; k++)
		printf("%s answered %lu failed %lu\n", fault_requests[k].name,
		       answered[k], failed[k]);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long rounds = 0;
	struct mnl_socket *nl;
	uint16_t family = 0;
	char *end;
	int r;

	if (argc == 3 && strcmp(argv[1], "--faults") == 0) {
		errno = 0;
		rounds = strtoul(argv[2], &end, 10);
		if (errno || end == argv[2] || *end || !rounds)
			argc = 0;
	}
	if (argc != 1 && !rounds) {
		fprintf(stderr, "usage: kevent-stats [--faults ROUNDS]\n");
		return 2;
	}

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("kevent-stats: netlink");
		return 1;
	}

	r = request(nl, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, KEVENT_GENL_NAME,
		    family_cb, &family);
	if (r < 0 || !family) {
		fprintf(stderr, "kevent-stats: no kevent family: %s\n",
			strerror(r < 0 ? -r : ENOENT));
		mnl_socket_close(nl);
		return 1;
	}

	if (rounds) {
		mnl_socket_close(nl);
		return faults(family, rounds);
	}

	r = request(nl, family, KEVENT_CMD_GET_STATS, NULL, stats_cb, NULL);
	mnl_socket_close(nl);
	if (r < 0) {
		fprintf(stderr, "kevent-stats: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}
