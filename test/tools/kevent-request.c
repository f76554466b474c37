// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-request - send one request, as built on the command line, to the
 * kevent generic netlink family and print what the kernel answered
 *
 * Usage: kevent-request [OPTIONS] CMD [ATTR...]
 *
 *   CMD    get-sources, get-replay, get-stats, get-attributes, event, unspec,
 *          or a command number 0-255
 *   ATTR   TYPE[+nested][+len=N]:KIND[:VALUE]
 *          TYPE   an attribute number 0-65535 (flag bits included) or a
 *                 name: seq, timestamp, class, path, attr-name, attr-id,
 *                 coalesced, stat-sent, stat-coalesced, stat-failed,
 *                 stat-sources, pad, class-seq, stat-unrecorded, unit
 *          +nested  set NLA_F_NESTED in the type
 *          +len=N   write N as nla_len, whatever the payload: a truncated
 *                   attribute, or one that claims more than the message has
 *          KIND   u8, u16, u32, u64   VALUE is a number (C notation)
 *                 str                 VALUE and a NUL byte
 *                 strn                VALUE without a NUL byte
 *                 hex                 VALUE is hex digits, two a byte
 *                 fill                VALUE is a count of 'x' bytes
 *                 empty               no payload
 *
 *   --dump         set NLM_F_DUMP in the request
 *   --ack          set NLM_F_ACK
 *   --echo         set NLM_F_ECHO
 *   --no-request   clear NLM_F_REQUEST (the kernel then only acks)
 *   --flags N      nlmsg_flags are N, replacing the options above
 *   --version N    genlmsghdr.version (default: the family's version)
 *   --reserved N   genlmsghdr.reserved (default 0)
 *   --timeout SEC  wait at most SEC seconds for the answer (default 5)
 *   --verbose      first print a line for each message of the answer
 *
 * The request asks for extended acks (NETLINK_EXT_ACK, NETLINK_CAP_ACK).
 * The last line printed says what the answer was:
 *
 *   error ENAME: MESSAGE   the kernel refused the request, MESSAGE being the
 *                          extended ack's text (NLMSGERR_ATTR_MSG)
 *   error ENAME            the same, without a message
 *   ok: N messages         N reply messages (a dump's, or a do's), then the
 *                          end of the dump, or the ack when one was asked for;
 *                          "ok: N messages, interrupted" when a message of
 *                          the dump carried NLM_F_DUMP_INTR
 *
 * Exit status: 0 an answer arrived (error or not), 1 no answer or a local
 * failure (e.g. kevent.ko not loaded), 2 usage error.
 *
 * Examples:
 *   kevent-request --dump get-sources class:u32:2
 *   kevent-request get-stats seq:hex:0102
 *   kevent-request --dump get-replay seq+len=200:u64:1
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

#define PROG "kevent-request"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Requests may be far larger than any valid one: nla_len tops at 64 KiB */
#define REQUEST_BUF_SIZE	(256 * 1024)
/* Larger than any message the kernel sends in one part of a dump */
#define ANSWER_BUF_SIZE		(64 * 1024)

static const char *const attr_names[] = {
	[0]				= "unspec",
	[KEVENT_A_SEQ]			= "seq",
	[KEVENT_A_TIMESTAMP]		= "timestamp",
	[KEVENT_A_CLASS]		= "class",
	[KEVENT_A_PATH]			= "path",
	[KEVENT_A_ATTR_NAME]		= "attr-name",
	[KEVENT_A_ATTR_ID]		= "attr-id",
	[KEVENT_A_COALESCED]		= "coalesced",
	[KEVENT_A_STAT_SENT]		= "stat-sent",
	[KEVENT_A_STAT_COALESCED]	= "stat-coalesced",
	[KEVENT_A_STAT_FAILED]		= "stat-failed",
	[KEVENT_A_STAT_SOURCES]		= "stat-sources",
	[KEVENT_A_PAD]			= "pad",
	[KEVENT_A_CLASS_SEQ]		= "class-seq",
	[KEVENT_A_STAT_UNRECORDED]	= "stat-unrecorded",
	[KEVENT_A_UNIT]			= "unit",
};

static const char *const cmd_names[] = {
	[0]				= "unspec",
	[KEVENT_CMD_EVENT]		= "event",
	[KEVENT_CMD_GET_SOURCES]	= "get-sources",
	[KEVENT_CMD_GET_REPLAY]		= "get-replay",
	[KEVENT_CMD_GET_STATS]		= "get-stats",
	[KEVENT_CMD_GET_ATTRIBUTES]	= "get-attributes",
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [OPTIONS] CMD [ATTR...]\n"
	      "  CMD   get-sources | get-replay | get-stats | get-attributes | event |\n"
	      "        unspec | 0-255\n"
	      "  ATTR  TYPE[+nested][+len=N]:KIND[:VALUE]\n"
	      "        TYPE  a number 0-65535 or an attribute name (seq, class, path, ...)\n"
	      "        KIND  u8 u16 u32 u64 (a number), str (with NUL), strn (without),\n"
	      "              hex (hex digits), fill (a count of 'x' bytes), empty\n"
	      "Options: --dump --ack --echo --no-request --flags N --version N\n"
	      "         --reserved N --timeout SEC --verbose --help\n"
	      "Prints 'ok: N messages' or 'error ENAME[: extack message]'.\n",
	      f);
}

static void __attribute__((noreturn)) usage_error(const char *what,
						  const char *arg)
{
	fprintf(stderr, PROG ": %s: '%s'\n", what, arg);
	usage(stderr);
	exit(2);
}

/* A number in C notation within [0, max], or false */
static bool parse_number(const char *s, unsigned long long max,
			 unsigned long long *ret)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return false;
	*ret = v;
	return true;
}

/* An entry of @names, or a number within [0, max]; -1 when neither */
static long parse_name_or_number(const char *s, const char *const *names,
				 size_t n_names, unsigned long long max)
{
	unsigned long long v;
	size_t i;

	for (i = 0; i < n_names; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	if (!parse_number(s, max, &v))
		return -1;
	return v;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Append the attribute that @spec describes (see the usage above) at the
 * tail of @nlh, padded to NLA_ALIGNTO. Exits with status 2 when @spec is
 * malformed or the request would not fit.
 */
static void put_attr_spec(struct nlmsghdr *nlh, const char *spec)
{
	char *copy = strdup(spec), *type_s, *kind, *value, *mod, *next;
	unsigned long long v, nla_len = 0;
	bool nested = false, set_len = false;
	unsigned char *payload;
	struct nlattr *nla;
	size_t len = 0, i;
	long type;

	if (!copy) {
		perror(PROG);
		exit(1);
	}
	type_s = copy;
	kind = strchr(copy, ':');
	if (!kind)
		usage_error("attribute without KIND", spec);
	*kind++ = '\0';
	value = strchr(kind, ':');
	if (value)
		*value++ = '\0';

	/* Modifiers of the type: +nested, +len=N */
	mod = strchr(type_s, '+');
	if (mod)
		*mod++ = '\0';
	for (; mod; mod = next) {
		next = strchr(mod, '+');
		if (next)
			*next++ = '\0';
		if (!strcmp(mod, "nested")) {
			nested = true;
		} else if (!strncmp(mod, "len=", 4) &&
			   parse_number(mod + 4, UINT16_MAX, &nla_len)) {
			set_len = true;
		} else {
			usage_error("unknown attribute modifier", spec);
		}
	}
	type = parse_name_or_number(type_s, attr_names,
				    ARRAY_SIZE(attr_names),
				    UINT16_MAX);
	if (type < 0)
		usage_error("bad attribute type", spec);

	nla = mnl_nlmsg_get_payload_tail(nlh);
	payload = (unsigned char *)nla + MNL_ATTR_HDRLEN;

	if (!strcmp(kind, "empty")) {
		if (value)
			usage_error("an empty attribute takes no VALUE", spec);
	} else if (!value) {
		usage_error("attribute without VALUE", spec);
	} else if (!strcmp(kind, "u8") || !strcmp(kind, "u16") ||
		   !strcmp(kind, "u32") || !strcmp(kind, "u64")) {
		unsigned int bits = atoi(kind + 1);
		unsigned long long max = bits == 64 ? UINT64_MAX :
					 (1ULL << bits) - 1;
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;

		if (!parse_number(value, max, &v))
			usage_error("bad number", spec);
		len = bits / 8;
		u8 = v;
		u16 = v;
		u32 = v;
		u64 = v;
		memcpy(payload, bits == 8 ? (void *)&u8 :
				bits == 16 ? (void *)&u16 :
				bits == 32 ? (void *)&u32 : (void *)&u64, len);
	} else if (!strcmp(kind, "str") || !strcmp(kind, "strn")) {
		len = strlen(value) + (kind[3] ? 0 : 1);
		if (len > UINT16_MAX)
			usage_error("string too long", spec);
		memcpy(payload, value, len);
	} else if (!strcmp(kind, "hex")) {
		len = strlen(value);
		if (len % 2 || len / 2 > UINT16_MAX)
			usage_error("bad hex bytes", spec);
		len /= 2;
		for (i = 0; i < len; i++) {
			int hi = hex_digit(value[2 * i]);
			int lo = hex_digit(value[2 * i + 1]);

			if (hi < 0 || lo < 0)
				usage_error("bad hex bytes", spec);
			payload[i] = hi << 4 | lo;
		}
	} else if (!strcmp(kind, "fill")) {
		if (!parse_number(value, UINT16_MAX, &v))
			usage_error("bad byte count", spec);
		len = v;
		memset(payload, 'x', len);
	} else {
		usage_error("unknown attribute KIND", spec);
	}

	if (nlh->nlmsg_len + MNL_ALIGN(MNL_ATTR_HDRLEN + len) >
	    REQUEST_BUF_SIZE)
		usage_error("request too large", spec);
	/* Padding bytes are zero, as the kernel's own are */
	memset(payload + len, 0, MNL_ALIGN(len) - len);
	nla->nla_type = type | (nested ? NLA_F_NESTED : 0);
	nla->nla_len = set_len ? nla_len : MNL_ATTR_HDRLEN + len;
	nlh->nlmsg_len += MNL_ALIGN(MNL_ATTR_HDRLEN + len);
	free(copy);
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
	nlh->nlmsg_seq = 1;
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
		ret = mnl_cb_run(buf, ret, 1, portid, ctrl_msg_cb, &family);
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

struct extack {
	const char *msg;
	int msg_len;
	long offset;		/* NLMSGERR_ATTR_OFFS, -1 when absent */
};

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	struct extack *ext = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		/* Printed up to its NUL, or its end when it has none */
		ext->msg = mnl_attr_get_payload(attr);
		ext->msg_len = strnlen(ext->msg, mnl_attr_get_payload_len(attr));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
			ext->offset = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

/*
 * The error of an NLMSG_ERROR or NLMSG_DONE message, and its extended ack
 * in @ext; -EBADMSG when the message is too short to hold one.
 */
static int answer_error(const struct nlmsghdr *nlh, struct extack *ext)
{
	size_t len = mnl_nlmsg_get_payload_len(nlh);
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t offset;
	int error;

	ext->msg = NULL;
	ext->msg_len = 0;
	ext->offset = -1;

	if (nlh->nlmsg_type == NLMSG_DONE) {
		/* A dump's end: its status, which a failure made negative */
		if (len < sizeof(int))
			return len ? -EBADMSG : 0;
		memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
		offset = sizeof(int);
	} else {
		if (len < sizeof(*err))
			return -EBADMSG;
		error = err->error;
		offset = sizeof(*err);
		/* The request follows, unless the kernel capped it */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			offset += MNL_ALIGN(err->msg.nlmsg_len) -
				  sizeof(struct nlmsghdr);
	}
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && offset <= len)
		mnl_attr_parse(nlh, offset, extack_attr_cb, ext);
	return error;
}

/* One line for a reply message: its command and its attributes */
static void print_message(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *attr;

	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN) {
		printf("message type %u, too short\n", nlh->nlmsg_type);
		return;
	}
	printf("message cmd %u flags 0x%x:", genl->cmd, nlh->nlmsg_flags);
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
		printf(" %u/%u", mnl_attr_get_type(attr),
		       mnl_attr_get_payload_len(attr));
	printf("\n");
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	uint16_t flags = NLM_F_REQUEST, family_id = 0;
	bool verbose = false;
	bool interrupted = false;
	unsigned long long v, version = KEVENT_FAMILY_VERSION, reserved = 0;
	unsigned long long timeout = 5;
	static char req[REQUEST_BUF_SIZE];
	static char buf[ANSWER_BUF_SIZE];
	unsigned int seq = time(NULL), portid, messages = 0;
	struct genlmsghdr *genl;
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	long long deadline;
	int one = 1, i, ret;
	long cmd;
	bool dump;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *opt = argv[i];
		const char *arg = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--")) {
			i++;
			break;
		} else if (!strcmp(opt, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(opt, "--dump")) {
			flags |= NLM_F_DUMP;
		} else if (!strcmp(opt, "--ack")) {
			flags |= NLM_F_ACK;
		} else if (!strcmp(opt, "--echo")) {
			flags |= NLM_F_ECHO;
		} else if (!strcmp(opt, "--no-request")) {
			flags &= ~NLM_F_REQUEST;
		} else if (!strcmp(opt, "--verbose")) {
			verbose = true;
		} else if (strcmp(opt, "--flags") && strcmp(opt, "--version") &&
			   strcmp(opt, "--reserved") &&
			   strcmp(opt, "--timeout")) {
			usage_error("unknown option", opt);
		} else if (!arg) {
			usage_error("option needs a value", opt);
		} else if (!strcmp(opt, "--flags")) {
			if (!parse_number(arg, UINT16_MAX, &v))
				usage_error("bad flags", arg);
			flags = v;
			i++;
		} else if (!strcmp(opt, "--version")) {
			if (!parse_number(arg, UINT8_MAX, &version))
				usage_error("bad version", arg);
			i++;
		} else if (!strcmp(opt, "--reserved")) {
			if (!parse_number(arg, UINT16_MAX, &reserved))
				usage_error("bad reserved value", arg);
			i++;
		} else {
			/* --timeout */
			if (!parse_number(arg, 3600, &timeout) || !timeout)
				usage_error("bad timeout", arg);
			i++;
		}
	}
	if (i >= argc) {
		fprintf(stderr, PROG ": no command given\n");
		usage(stderr);
		return 2;
	}
	cmd = parse_name_or_number(argv[i], cmd_names,
				   ARRAY_SIZE(cmd_names),
				   UINT8_MAX);
	if (cmd < 0)
		usage_error("bad command", argv[i]);

	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	genl->reserved = reserved;
	for (i++; i < argc; i++)
		put_attr_spec(nlh, argv[i]);

	nl = mnl_socket_open(NETLINK_GENERIC);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror(PROG ": netlink socket");
		return 1;
	}
	portid = mnl_socket_get_portid(nl);
	/* Error messages, and no copy of a request that may be 64 KiB */
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
	nlh->nlmsg_type = family_id;

	if (mnl_socket_sendto(nl, req, nlh->nlmsg_len) < 0) {
		perror(PROG ": send");
		return 1;
	}

	/*
	 * What ends the answer: a dump ends with NLMSG_DONE, or an error; a
	 * request with NLM_F_ACK with the ack (or an error); any other with
	 * its first message, reply or error.
	 */
	dump = (flags & NLM_F_DUMP) == NLM_F_DUMP && (flags & NLM_F_REQUEST);
	deadline = now_ms() + timeout * 1000;
	for (;;) {
		struct pollfd pfd = { mnl_socket_get_fd(nl), POLLIN, 0 };
		long long left = deadline - now_ms();
		const struct nlmsghdr *msg;
		struct extack ext;
		int len;

		if (left <= 0 || poll(&pfd, 1, left) == 0) {
			fprintf(stderr, PROG ": no answer within %llu s\n",
				timeout);
			return 1;
		}
		len = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (len < 0) {
			perror(PROG ": receive");
			return 1;
		}
		for (msg = (struct nlmsghdr *)buf; mnl_nlmsg_ok(msg, len);
		     msg = mnl_nlmsg_next(msg, &len)) {
			/* Not the answer to this request */
			if (msg->nlmsg_seq != seq || msg->nlmsg_pid != portid)
				continue;
			if (msg->nlmsg_type == NLMSG_NOOP)
				continue;
			if (dump && (msg->nlmsg_flags & NLM_F_DUMP_INTR))
				interrupted = true;
			if (msg->nlmsg_type != NLMSG_ERROR &&
			    msg->nlmsg_type != NLMSG_DONE) {
				if (verbose)
					print_message(msg);
				messages++;
				if (!dump && !(flags & NLM_F_ACK))
					goto answered;
				continue;
			}
			ret = answer_error(msg, &ext);
			if (verbose && ext.offset >= 0)
				printf("extack offset %ld\n", ext.offset);
			if (ret < 0 && ext.msg_len)
				printf("error %s: %.*s\n", errno_name(-ret),
				       ext.msg_len, ext.msg);
			else if (ret < 0)
				printf("error %s\n", errno_name(-ret));
			else
				printf("ok: %u messages%s\n", messages,
				       interrupted ? ", interrupted" : "");
			goto out;
		}
		if (len > 0) {
			fprintf(stderr, PROG ": %d bytes of a truncated message\n",
				len);
			return 1;
		}
	}

answered:
	printf("ok: %u messages\n", messages);
out:
	mnl_socket_close(nl);
	return 0;
}
