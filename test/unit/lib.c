// SPDX-License-Identifier: GPL-2.0
/*
 * libkevent's handling of the kernel's answers and messages, without a
 * kernel: messages built here as the kernel would send them.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "kevent-private.h"
#include "unit.h"

/* Put an NLMSG_DONE (or NLMSG_ERROR) carrying @err into @buf. */
static struct nlmsghdr *put_status(char *buf, uint16_t type, int err)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	int *payload;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_MULTI;
	if (type == NLMSG_ERROR) {
		struct nlmsgerr *e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));

		e->error = err;
		return nlh;
	}
	payload = mnl_nlmsg_put_extra_header(nlh, sizeof(*payload));
	*payload = err;
	return nlh;
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(unsigned int *)data)++;
	return MNL_CB_OK;
}

UNIT_TEST(test_reply_done_error)
{
	char buf[256] = { 0 };
	struct nlmsghdr *nlh;
	unsigned int n = 0;

	/* A dump that ends well */
	nlh = put_status(buf, NLMSG_DONE, 0);
	CHECK(kevent_reply_run(buf, nlh->nlmsg_len, 0, 0, count_cb, &n) == 0);

	/* A dump the kernel ended with an error, put in NLMSG_DONE */
	nlh = put_status(buf, NLMSG_DONE, -EMSGSIZE);
	CHECK(kevent_reply_run(buf, nlh->nlmsg_len, 0, 0, count_cb, &n) ==
	      -EMSGSIZE);

	/* An acknowledgement, and an error */
	nlh = put_status(buf, NLMSG_ERROR, 0);
	CHECK(kevent_reply_run(buf, nlh->nlmsg_len, 0, 0, count_cb, &n) == 0);
	nlh = put_status(buf, NLMSG_ERROR, -EPERM);
	CHECK(kevent_reply_run(buf, nlh->nlmsg_len, 0, 0, count_cb, &n) ==
	      -EPERM);

	/* A record: more to come */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = 0x20;
	nlh->nlmsg_flags = NLM_F_MULTI;
	CHECK(kevent_reply_run(buf, nlh->nlmsg_len, 0, 0, count_cb, &n) == 1);
	CHECK(n == 1);
}

/* Put a message of the kevent family with command @cmd into @buf. */
static struct nlmsghdr *put_genl(char *buf, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = 0x20;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = KEVENT_FAMILY_VERSION;
	return nlh;
}

UNIT_TEST(test_message_kind)
{
	char buf[256] = { 0 };
	struct nlmsghdr *nlh;

	nlh = put_genl(buf, KEVENT_CMD_EVENT);
	CHECK(kevent_message_kind(nlh, nlh->nlmsg_len) == KEVENT_MSG_EVENT);

	/* A command a newer kernel may send on the groups is no fault */
	nlh = put_genl(buf, KEVENT_CMD_MAX + 1);
	CHECK(kevent_message_kind(nlh, nlh->nlmsg_len) == KEVENT_MSG_OTHER);
	nlh = put_genl(buf, 0xff);
	CHECK(kevent_message_kind(nlh, nlh->nlmsg_len) == KEVENT_MSG_OTHER);

	/* Too short for its generic netlink header */
	nlh = put_genl(buf, KEVENT_CMD_EVENT);
	CHECK(kevent_message_kind(nlh, NLMSG_HDRLEN) == KEVENT_MSG_MALFORMED);
	nlh->nlmsg_len = NLMSG_HDRLEN;
	CHECK(kevent_message_kind(nlh, 64) == KEVENT_MSG_MALFORMED);
}

UNIT_TEST(test_family_version)
{
	struct genl_family family = { .id = 0x20 };

	family.version = KEVENT_FAMILY_VERSION;
	CHECK(kevent_family_check(&family) == 0);
	/* Another version is another ABI; none sent is none known */
	family.version = KEVENT_FAMILY_VERSION + 1;
	CHECK(kevent_family_check(&family) == -EPROTONOSUPPORT);
	family.version = 0;
	CHECK(kevent_family_check(&family) == -EPROTONOSUPPORT);
}

UNIT_TEST(test_stats_parse)
{
	uint64_t values[KEVENT_STAT_COUNT] = { 0 };
	char buf[256] = { 0 };
	struct nlmsghdr *nlh;

	nlh = put_genl(buf, KEVENT_CMD_GET_STATS);
	mnl_attr_put_u64(nlh, KEVENT_A_STAT_SENT, 5);
	mnl_attr_put_u64(nlh, KEVENT_A_STAT_UNRECORDED, 7);
	mnl_attr_put_u32(nlh, KEVENT_A_STAT_SOURCES, 3);
	/* A counter of a newer kernel */
	mnl_attr_put_u64(nlh, KEVENT_A_MAX + 1, 9);
	CHECK(kevent_stats_parse(nlh, values) == 0);
	CHECK(values[KEVENT_STAT_SENT] == 5);
	CHECK(values[KEVENT_STAT_COALESCED] == 0);
	CHECK(values[KEVENT_STAT_FAILED] == 0);
	CHECK(values[KEVENT_STAT_SOURCES] == 3);
	CHECK(values[KEVENT_STAT_UNRECORDED] == 7);

	/* A counter of the wrong size */
	nlh = put_genl(buf, KEVENT_CMD_GET_STATS);
	mnl_attr_put_u32(nlh, KEVENT_A_STAT_UNRECORDED, 7);
	CHECK(kevent_stats_parse(nlh, values) == -EPROTO);

	CHECK(kevent_stats_read(NULL, 1) == -EINVAL);
}
