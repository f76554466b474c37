// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-fuzz - send random requests to the kevent generic netlink family
 * and check that each one is answered
 *
 * Usage: kevent-fuzz [--seed N] [--count N] [--timeout MS] [--verbose]
 *
 *   --seed N      seed of the random requests (default 1): a seed always
 *                 gives the same requests
 *   --count N     number of requests (default 1000)
 *   --timeout MS  wait at most MS milliseconds for each answer (default 5000)
 *   --verbose     print a line for each request and its outcome
 *
 * Requests have a random command (0-255; one of the family's, sent as the
 * dump or do it is, in half of them so that its policy checks them), random
 * nlmsg_flags (dump, ack, echo, sometimes any), a random genetlink header
 * now and then (version, reserved field, cut short), and up to six
 * attributes of random types (0-40, the valid ones often, sometimes any
 * 16-bit type with its flag bits), random lengths (0-4100 bytes), sometimes
 * a wrong nla_len (too short, beyond the message) or NLA_F_NESTED. One
 * request in five is a valid one, so that the family also answers.
 *
 * Every answer is read to its end: a dump's messages up to NLMSG_DONE, an
 * error, a reply and then the ack when one was asked for. The summary
 * counts the outcomes by error; "(N with a message)" counts the errors that
 * came with an extended ack message.
 *
 * Exit status: 0 every request was answered; 1 a request got no answer, a
 * message came that answered none, an EINVAL came without an extended ack
 * message for a request with a whole genetlink header (the policies give
 * one for every attribute they refuse), or a local or socket failure;
 * 2 usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kevent.h"

#define PROG "kevent-fuzz"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define MAX_ATTRS		6
#define MAX_ATTR_LEN		4100
#define MAX_ERRNO		4095
/* Give up after that many requests without an answer: the rest would wait */
#define MAX_UNANSWERED		10

/* Larger than the largest request: MAX_ATTRS attributes of MAX_ATTR_LEN */
#define REQUEST_BUF_SIZE	(32 * 1024)
/* Larger than any message the kernel sends in one part of a dump */
#define ANSWER_BUF_SIZE		(64 * 1024)

/* splitmix64: small, fast, and the same sequence everywhere for a seed */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n) */
static unsigned int below(unsigned int n)
{
	return rnd() % n;
}

/* True in @percent cases out of 100 */
static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

static void fill_random(unsigned char *p, size_t len)
{
	uint64_t r = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 8 == 0)
			r = rnd();
		p[i] = r;
		r >>= 8;
	}
}

/* What a request was, for the verbose lines and the messages of failures */
struct request {
	uint32_t seq;
	uint8_t cmd;
	uint16_t flags;
	unsigned int n_attrs;
	uint32_t len;
};

/*
 * Append an attribute of @type with @len payload bytes at the tail of @nlh,
 * the payload random, zero or a small number, and its nla_len now and then
 * wrong.
 */
static void put_random_attr(struct nlmsghdr *nlh, uint16_t type, size_t len)
{
	struct nlattr *nla = mnl_nlmsg_get_payload_tail(nlh);
	unsigned char *payload = (unsigned char *)nla + MNL_ATTR_HDRLEN;
	uint64_t small;
	unsigned int roll = below(100);

	if (roll < 50) {
		fill_random(payload, len);
	} else if (roll < 75 || len > sizeof(small)) {
		memset(payload, 0, len);
	} else {
		/* A class, a sequence number near those the kernel holds */
		small = below(16);
		memset(payload, 0, len);
		memcpy(payload, &small, len);
	}
	memset(payload + len, 0, MNL_ALIGN(len) - len);

	nla->nla_type = type;
	nla->nla_len = MNL_ATTR_HDRLEN + len;
	if (chance(10)) {
		roll = below(3);
		if (roll == 0)		/* shorter than its own header */
			nla->nla_len = below(MNL_ATTR_HDRLEN);
		else if (roll == 1)	/* beyond the end of the message */
			nla->nla_len = MNL_ATTR_HDRLEN + len + 1 + below(64);
		else
			nla->nla_len = rnd();
	}
	nlh->nlmsg_len += MNL_ALIGN(MNL_ATTR_HDRLEN + len);
}

/* A valid request of the family, with a valid attribute or none */
static void build_valid(struct nlmsghdr *nlh, struct genlmsghdr *genl,
			struct request *req)
{
	static const uint8_t cmds[] = {
		KEVENT_CMD_GET_SOURCES,
		KEVENT_CMD_GET_REPLAY,
		KEVENT_CMD_GET_STATS,
	};

	genl->cmd = cmds[below(ARRAY_SIZE(cmds))];
	nlh->nlmsg_flags = NLM_F_REQUEST;
	if (chance(30))
		nlh->nlmsg_flags |= NLM_F_ACK;

	switch (genl->cmd) {
	case KEVENT_CMD_GET_SOURCES:
		nlh->nlmsg_flags |= NLM_F_DUMP;
		if (chance(50)) {
			mnl_attr_put_u32(nlh, KEVENT_A_CLASS,
					 below(KEVENT_CLASS_MAX + 1));
			req->n_attrs = 1;
		}
		break;
	case KEVENT_CMD_GET_REPLAY:
		nlh->nlmsg_flags |= NLM_F_DUMP;
		if (chance(50)) {
			mnl_attr_put_u64(nlh, KEVENT_A_SEQ, below(64));
			req->n_attrs = 1;
		}
		break;
	}
}

/* A request of random command, flags, header and attributes */
static void build_random(struct nlmsghdr *nlh, struct genlmsghdr *genl,
			 struct request *req)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 16 };
	unsigned int i, n, roll = below(100);

	nlh->nlmsg_flags = NLM_F_REQUEST;
	if (roll < 50) {
		/* A request of the family, which its policy then checks */
		genl->cmd = KEVENT_CMD_GET_SOURCES + below(3);
		if (genl->cmd != KEVENT_CMD_GET_STATS)
			nlh->nlmsg_flags |= NLM_F_DUMP;
	} else {
		genl->cmd = roll < 75 ? below(KEVENT_CMD_MAX + 3) : below(256);
		if (chance(50))
			nlh->nlmsg_flags |= NLM_F_DUMP;
	}
	if (chance(10))
		genl->version = rnd();
	if (chance(3))
		genl->reserved = 1 + below(UINT16_MAX);

	if (chance(50))
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (chance(10))
		nlh->nlmsg_flags |= NLM_F_ECHO;
	if (chance(5))
		nlh->nlmsg_flags |= rnd();
	/* Not a request: the kernel only acks it, when asked to */
	if (chance(2))
		nlh->nlmsg_flags = NLM_F_ACK;

	/* A genetlink header cut short: no room for attributes either */
	if (chance(2)) {
		nlh->nlmsg_len = MNL_NLMSG_HDRLEN + below(GENL_HDRLEN);
		return;
	}

	n = below(MAX_ATTRS + 1);
	for (i = 0; i < n; i++) {
		uint16_t type;
		size_t len;

		/* 70% 0-40, 20% the two valid ones, 10% any with flags */
		if (chance(70))
			type = below(41);
		else if (chance(67))
			type = chance(50) ? KEVENT_A_SEQ : KEVENT_A_CLASS;
		else
			type = rnd();
		if (chance(5))
			type |= NLA_F_NESTED;

		/* 30% a few bytes, 20% a u32's or a u64's, 50% any */
		if (chance(30))
			len = sizes[below(ARRAY_SIZE(sizes))];
		else if (chance(29))
			len = chance(50) ? sizeof(uint32_t) : sizeof(uint64_t);
		else
			len = below(MAX_ATTR_LEN + 1);

		put_random_attr(nlh, type, len);
	}
	req->n_attrs = n;
}

static void build_request(struct nlmsghdr *nlh, uint16_t family_id,
			  struct request *req)
{
	struct genlmsghdr *genl;

	memset(nlh, 0, MNL_NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN;
	nlh->nlmsg_type = family_id;
	nlh->nlmsg_seq = req->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->version = KEVENT_FAMILY_VERSION;
	req->n_attrs = 0;

	if (chance(20))
		build_valid(nlh, genl, req);
	else
		build_random(nlh, genl, req);

	req->cmd = genl->cmd;
	req->flags = nlh->nlmsg_flags;
	req->len = nlh->nlmsg_len;
}

struct genl_id {
	uint16_t id;
	bool found;
};

static int ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	struct genl_id *family = data;

	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(attr, MNL_TYPE_U16) == 0) {
		family->id = mnl_attr_get_u16(attr);
		family->found = true;
	}
	return MNL_CB_OK;
}

static int ctrl_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, GENL_HDRLEN, ctrl_attr_cb, data);
}

/* The id of the kevent family: 0, -ENOENT when not registered, -errno */
static int family_resolve(struct mnl_socket *nl, uint16_t *ret_id)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(nl);
	struct genl_id family = { 0 };
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	int ret;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = 0;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, KEVENT_FAMILY_NAME);

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (ret < 0)
			return -errno;
		ret = mnl_cb_run(buf, ret, 0, portid, ctrl_msg_cb, &family);
	} while (ret > 0);
	if (ret < 0)
		return -errno;
	if (!family.found)
		return -ENOENT;
	*ret_id = family.id;
	return 0;
}

static const char *errno_name(int err)
{
	static char unknown[32];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(unknown, sizeof(unknown), "E%d", err);
	return unknown;
}

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	bool *has_msg = data;

	if (mnl_attr_get_type(attr) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_get_payload_len(attr) > 0 &&
	    *(const char *)mnl_attr_get_payload(attr))
		*has_msg = true;
	return MNL_CB_OK;
}

/*
 * The error of an NLMSG_ERROR or NLMSG_DONE message (0 for an ack or a
 * dump's good end); @has_msg tells whether an extended ack message came
 * with it. -EBADMSG when the message is too short to hold one.
 */
static int answer_error(const struct nlmsghdr *nlh, bool *has_msg)
{
	size_t len = mnl_nlmsg_get_payload_len(nlh);
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t offset;
	int error;

	*has_msg = false;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		if (len < sizeof(int))
			return len ? -EBADMSG : 0;
		memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
		offset = sizeof(int);
	} else {
		if (len < sizeof(*err))
			return -EBADMSG;
		error = err->error;
		offset = sizeof(*err);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			offset += MNL_ALIGN(err->msg.nlmsg_len) -
				  sizeof(struct nlmsghdr);
	}
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && offset <= len)
		mnl_attr_parse(nlh, offset, extack_attr_cb, has_msg);
	return error;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* The outcomes so far */
struct tally {
	unsigned long answered;
	unsigned long unanswered;
	unsigned long stray;		/* messages that answered no request */
	unsigned long messages;		/* reply messages, acks and ends aside */
	unsigned long errors[MAX_ERRNO + 1];	/* [0]: no error */
	unsigned long with_msg[MAX_ERRNO + 1];
	/* EINVAL without a message, for a request with a whole header */
	unsigned long einval_bare;
};

/*
 * Wait for the whole answer to @req and count it in @t. Return 1 when it
 * arrived, 0 when it did not within @timeout_ms, -errno on a socket error.
 * Messages of earlier requests (that came late or were too many) are
 * strays.
 */
static int read_answer(struct mnl_socket *nl, const struct request *req,
		       int timeout_ms, struct tally *t, char *buf,
		       int *ret_error, bool *ret_has_msg)
{
	unsigned int portid = mnl_socket_get_portid(nl);
	bool dump = (req->flags & NLM_F_DUMP) == NLM_F_DUMP &&
		    (req->flags & NLM_F_REQUEST);
	bool ack = req->flags & NLM_F_ACK;
	long long deadline = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd pfd = { mnl_socket_get_fd(nl), POLLIN, 0 };
		long long left = deadline - now_ms();
		const struct nlmsghdr *msg;
		int len, ret;

		if (left <= 0)
			return 0;
		ret = poll(&pfd, 1, left);
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return 0;
		len = mnl_socket_recvfrom(nl, buf, ANSWER_BUF_SIZE);
		if (len < 0)
			return -errno;

		/* A datagram holds whole messages, and only one request's */
		for (msg = (struct nlmsghdr *)buf; mnl_nlmsg_ok(msg, len);
		     msg = mnl_nlmsg_next(msg, &len)) {
			if (msg->nlmsg_seq != req->seq ||
			    msg->nlmsg_pid != portid) {
				t->stray++;
				continue;
			}
			if (msg->nlmsg_type == NLMSG_NOOP)
				continue;
			if (msg->nlmsg_type != NLMSG_ERROR &&
			    msg->nlmsg_type != NLMSG_DONE) {
				t->messages++;
				if (!dump && !ack) {
					*ret_error = 0;
					*ret_has_msg = false;
					return 1;
				}
				continue;
			}
			*ret_error = answer_error(msg, ret_has_msg);
			return 1;
		}
		if (len > 0)
			return -EBADMSG;
	}
}

/* Read what still comes for a while: any message now is a stray */
static int drain(struct mnl_socket *nl, struct tally *t, char *buf)
{
	struct pollfd pfd = { mnl_socket_get_fd(nl), POLLIN, 0 };
	const struct nlmsghdr *msg;
	int len;

	while (poll(&pfd, 1, 200) > 0) {
		len = mnl_socket_recvfrom(nl, buf, ANSWER_BUF_SIZE);
		if (len < 0)
			return -errno;
		for (msg = (struct nlmsghdr *)buf; mnl_nlmsg_ok(msg, len);
		     msg = mnl_nlmsg_next(msg, &len))
			t->stray++;
	}
	return 0;
}

static void print_summary(const struct tally *t, unsigned long count,
			  unsigned long long seed, long long elapsed_ms)
{
	int e;

	printf("kevent-fuzz: seed %llu, %lu requests in %lld.%03lld s\n",
	       seed, count, elapsed_ms / 1000, elapsed_ms % 1000);
	printf("answered %lu, unanswered %lu, stray messages %lu, reply messages %lu\n",
	       t->answered, t->unanswered, t->stray, t->messages);
	printf("EINVAL without a message (a whole header): %lu\n",
	       t->einval_bare);
	printf("  %-16s %lu\n", "ok", t->errors[0]);
	for (e = 1; e <= MAX_ERRNO; e++)
		if (t->errors[e])
			printf("  %-16s %lu (%lu with a message)\n",
			       errno_name(e), t->errors[e], t->with_msg[e]);
}

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [--seed N] [--count N] [--timeout MS] [--verbose]\n",
	      f);
}

static bool parse_number(const char *s, unsigned long long max,
			 unsigned long long *ret)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*ret = v;
	return true;
}

int main(int argc, char **argv)
{
	unsigned long long seed = 1, count = 1000, timeout_ms = 5000;
	static char req_buf[REQUEST_BUF_SIZE] __attribute__((aligned(8)));
	static char buf[ANSWER_BUF_SIZE] __attribute__((aligned(8)));
	static struct tally t;
	struct nlmsghdr *nlh = (struct nlmsghdr *)req_buf;
	uint16_t family_id = 0;
	struct mnl_socket *nl;
	bool verbose = false;
	long long start, elapsed;
	unsigned long n;
	int one = 1, i, ret;

	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], *arg = argv[i + 1];

		if (!strcmp(opt, "--verbose")) {
			verbose = true;
		} else if (!strcmp(opt, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(opt, "--seed") &&
			   parse_number(arg, UINT64_MAX, &seed)) {
			i++;
		} else if (!strcmp(opt, "--count") &&
			   parse_number(arg, UINT32_MAX - 1, &count)) {
			i++;
		} else if (!strcmp(opt, "--timeout") &&
			   parse_number(arg, 3600 * 1000, &timeout_ms) &&
			   timeout_ms) {
			i++;
		} else {
			fprintf(stderr, PROG ": bad argument '%s'%s%s\n", opt,
				arg ? " " : "", arg ? arg : "");
			usage(stderr);
			return 2;
		}
	}
	rng_state = seed;

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror(PROG ": netlink socket");
		return 1;
	}
	/* Error messages, and no copies of requests of many KiB */
	if (mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one))) {
		perror(PROG ": extended acks");
		return 1;
	}
	ret = family_resolve(nl, &family_id);
	if (ret == -ENOENT) {
		fprintf(stderr, PROG ": no kevent family (is kevent.ko loaded?)\n");
		return 1;
	} else if (ret < 0) {
		fprintf(stderr, PROG ": cannot resolve the kevent family: %s\n",
			strerror(-ret));
		return 1;
	}

	start = now_ms();
	for (n = 0; n < count; n++) {
		struct request req = { .seq = n + 1 };
		bool has_msg = false;
		int error = 0;

		build_request(nlh, family_id, &req);
		if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
			fprintf(stderr, PROG ": request %lu: send: %s\n",
				n + 1, strerror(errno));
			goto out_failed;
		}
		ret = read_answer(nl, &req, timeout_ms, &t, buf, &error,
				  &has_msg);
		if (ret < 0) {
			fprintf(stderr, PROG ": request %lu: receive: %s\n",
				n + 1, strerror(-ret));
			goto out_failed;
		}
		if (ret == 0) {
			fprintf(stderr,
				PROG ": request %lu (cmd %u flags 0x%x, %u attributes, %u bytes): no answer within %llu ms\n",
				n + 1, req.cmd, req.flags, req.n_attrs,
				req.len, timeout_ms);
			if (++t.unanswered >= MAX_UNANSWERED) {
				fprintf(stderr, PROG ": giving up\n");
				goto out_failed;
			}
			continue;
		}
		t.answered++;
		if (error > 0 || error < -MAX_ERRNO)
			error = -EBADMSG;
		t.errors[-error]++;
		if (has_msg)
			t.with_msg[-error]++;
		/*
		 * Attributes that the policies refuse come with a message: only
		 * a request without room for a genetlink header may have none.
		 */
		if (error == -EINVAL && !has_msg &&
		    req.len >= MNL_NLMSG_HDRLEN + GENL_HDRLEN &&
		    ++t.einval_bare <= 10)
			fprintf(stderr,
				PROG ": request %lu (cmd %u flags 0x%x, %u attributes, %u bytes): EINVAL without a message\n",
				n + 1, req.cmd, req.flags, req.n_attrs,
				req.len);
		if (verbose)
			printf("%lu: cmd %u flags 0x%x, %u attributes, %u bytes: %s%s\n",
			       n + 1, req.cmd, req.flags, req.n_attrs, req.len,
			       error ? errno_name(-error) : "ok",
			       has_msg ? " with a message" : "");
	}
	elapsed = now_ms() - start;
	ret = drain(nl, &t, buf);
	if (ret < 0) {
		fprintf(stderr, PROG ": receive: %s\n", strerror(-ret));
		goto out_failed;
	}
	print_summary(&t, count, seed, elapsed);
	mnl_socket_close(nl);
	if (t.unanswered || t.stray || t.einval_bare) {
		fprintf(stderr,
			PROG ": %lu requests unanswered, %lu stray messages, %lu EINVAL without a message\n",
			t.unanswered, t.stray, t.einval_bare);
		return 1;
	}
	return 0;

out_failed:
	print_summary(&t, n, seed, now_ms() - start);
	mnl_socket_close(nl);
	return 1;
}
