// SPDX-License-Identifier: GPL-2.0
/*
 * fail-nth - systematic fault injection into one kernel operation
 *
 * Usage: fail-nth load MODULE [PARAMS]
 *        fail-nth bind DRIVER DEVICE
 *        fail-nth write FILE DATA
 *        fail-nth request stats|sources|replay
 *
 * Runs the operation again and again; before run N it writes N to
 * /proc/thread-self/fail-nth, so that the N-th allocation the kernel makes
 * for this thread fails (failslab and fail_page_alloc, which must not
 * ignore sleeping allocations). It stops at the first run that made fewer
 * than N allocations: every allocation of the operation has failed once.
 *
 *   load     finit_module(MODULE) with PARAMS; a module that loaded is
 *            removed again (delete_module) before the next run
 *   bind     bind DEVICE to DRIVER, a directory of /sys/bus/X/drivers/:
 *            the driver's probe; a device bound is unbound again before the
 *            next run
 *   write    open FILE, write DATA to it, close it
 *   request  one kevent request: GET_STATS, or a dump of the sources or of
 *            the replay ring, read to its end
 *
 * Its memory is locked first (mlockall()), so that no page fault of its
 * own, which would allocate, takes an armed failure.
 *
 * Prints "runs R ok K failed F" and a line "errno E: C" per error seen.
 * Exit status 0 when each run ended with success or an error, 1 when the
 * operation misbehaved (a request without an end, a module that cannot be
 * removed), 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include <kevent.h>

/* More runs than any of the operations makes allocations */
#define FAIL_NTH_MAX_RUNS	5000

static int fail_nth_fd = -1;
static uint16_t kevent_family_id;
/* Set by op_load() and op_bind(), which look before they undo the op */
static int load_injected = -1;

/* Make the @n-th allocation from now on fail */
static int fail_nth_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		return -errno;
	return 0;
}

/* Whether the failure armed was injected; disarms it otherwise */
static bool fail_nth_injected(void)
{
	char buf[16] = "";
	bool injected;

	if (pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) < 0)
		return false;
	injected = atoi(buf) == 0;
	if (!injected)
		pwrite(fail_nth_fd, "0", 1, 0);
	return injected;
}

static int op_load(char **argv)
{
	const char *params = argv[1] ? argv[1] : "";
	const char *name = strrchr(argv[0], '/');
	char module[64];
	int fd, r = 0;

	snprintf(module, sizeof(module), "%s", name ? name + 1 : argv[0]);
	module[strcspn(module, ".")] = '\0';

	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params, 0) < 0)
		r = -errno;
	close(fd);
	/* Removing it is not under test: nothing fails then */
	load_injected = fail_nth_injected();
	if (r == 0 && syscall(SYS_delete_module, module, O_NONBLOCK) < 0) {
		fprintf(stderr, "fail-nth: cannot remove %s: %s\n", module,
			strerror(errno));
		exit(1);
	}
	return r;
}

/* Write @data to the file @dir/@name; 0 or a negative errno */
static int write_file(const char *dir, const char *name, const char *data)
{
	char path[4096];
	size_t len = strlen(data);
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, data, len) != (ssize_t)len)
		r = -errno;
	close(fd);
	return r;
}

static int op_bind(char **argv)
{
	int r = write_file(argv[0], "bind", argv[1]);

	/* Unbinding it is not under test: nothing fails then */
	load_injected = fail_nth_injected();
	if (r == 0 && write_file(argv[0], "unbind", argv[1]) < 0) {
		fprintf(stderr, "fail-nth: cannot unbind %s\n", argv[1]);
		exit(1);
	}
	return r;
}

static int op_write(char **argv)
{
	size_t len = strlen(argv[1]);
	int fd, r = 0;

	fd = open(argv[0], O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, argv[1], len) != (ssize_t)len)
		r = -errno;
	close(fd);
	return r;
}

/* Ask the controller for the kevent family's id, before any run */
static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *attr;

	(void)data;
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			kevent_family_id = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/* One request on a socket of its own, read to its end */
static int request(uint16_t type, uint8_t cmd, uint16_t flags,
		   const char *family_name, mnl_cb_t cb)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct genlmsghdr *genl;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	uint32_t seq = time(NULL);
	int n, r = 0;

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out;
	}

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = 1;
	if (family_name)
		mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family_name);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			r = -errno;
			break;
		}
		n = mnl_cb_run(buf, n, seq, mnl_socket_get_portid(nl), cb,
			       NULL);
		if (n <= MNL_CB_STOP) {
			r = n < 0 ? -errno : 0;
			break;
		}
	}
out:
	mnl_socket_close(nl);
	return r;
}

static int op_request(char **argv)
{
	if (strcmp(argv[0], "stats") == 0)
		return request(kevent_family_id, KEVENT_CMD_GET_STATS, 0, NULL,
			       count_cb);
	if (strcmp(argv[0], "sources") == 0)
		return request(kevent_family_id, KEVENT_CMD_GET_SOURCES,
			       NLM_F_DUMP, NULL, count_cb);
	return request(kevent_family_id, KEVENT_CMD_GET_REPLAY, NLM_F_DUMP,
		       NULL, count_cb);
}

static void usage(void)
{
	fprintf(stderr, "usage: fail-nth load MODULE [PARAMS]\n"
			"       fail-nth bind DRIVER DEVICE\n"
			"       fail-nth write FILE DATA\n"
			"       fail-nth request stats|sources|replay\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static unsigned int errors[4096];
	unsigned int n, ok = 0, failed = 0, e;
	int (*op)(char **argv);
	bool injected;
	int r;

	if (argc < 3)
		usage();
	if (strcmp(argv[1], "load") == 0 && argc <= 4) {
		op = op_load;
	} else if (strcmp(argv[1], "bind") == 0 && argc == 4) {
		op = op_bind;
	} else if (strcmp(argv[1], "write") == 0 && argc == 4) {
		op = op_write;
	} else if (strcmp(argv[1], "request") == 0 && argc == 3 &&
		   (strcmp(argv[2], "stats") == 0 ||
		    strcmp(argv[2], "sources") == 0 ||
		    strcmp(argv[2], "replay") == 0)) {
		op = op_request;
		r = request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0,
			    KEVENT_FAMILY_NAME, family_cb);
		if (r < 0 || !kevent_family_id) {
			fprintf(stderr, "fail-nth: no kevent family\n");
			return 1;
		}
	} else {
		usage();
	}

	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		perror("fail-nth: mlockall");
		return 1;
	}

	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0) {
		perror("fail-nth: /proc/thread-self/fail-nth");
		return 1;
	}

	for (n = 1; n <= FAIL_NTH_MAX_RUNS; n++) {
		r = fail_nth_arm(n);
		if (r < 0) {
			fprintf(stderr, "fail-nth: arm: %s\n", strerror(-r));
			return 1;
		}
		r = op(argv + 2);
		injected = load_injected >= 0 ? load_injected :
						fail_nth_injected();
		if (!injected) {
			/* Fewer than n allocations: all were tried */
			if (r < 0) {
				fprintf(stderr, "fail-nth: run %u fails without an injected failure: %s\n",
					n, strerror(-r));
				return 1;
			}
			break;
		}
		if (r == 0) {
			ok++;
		} else {
			failed++;
			e = -r;
			if (e < sizeof(errors) / sizeof(errors[0]))
				errors[e]++;
		}
	}
	if (n > FAIL_NTH_MAX_RUNS) {
		fprintf(stderr, "fail-nth: still failing after %u runs\n",
			FAIL_NTH_MAX_RUNS);
		return 1;
	}

	printf("runs %u ok %u failed %u\n", n - 1, ok, failed);
	for (e = 0; e < sizeof(errors) / sizeof(errors[0]); e++)
		if (errors[e])
			printf("errno %s: %u\n", strerrorname_np(e), errors[e]);
	return 0;
}
