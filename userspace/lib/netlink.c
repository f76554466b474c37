// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Requests to the kernel: family resolution, the sources and replay dumps,
 * counters; and the raw netlink sockets that hear its broadcasts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "kevent-private.h"

/* A large buffer, as the kevent monitor asks for; a failure is no error. */
static void set_rcvbuf(int fd)
{
	int size = KEVENT_SOCKET_RCVBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

int kevent_netlink_open(int protocol, uint32_t groups)
{
	struct sockaddr_nl snl = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd, one = 1, r;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    protocol);
	if (fd < 0)
		return -errno;
	set_rcvbuf(fd);
	if (protocol == NETLINK_KOBJECT_UEVENT &&
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0)
		goto out_close;
	if (bind(fd, (struct sockaddr *)&snl, sizeof(snl)) < 0)
		goto out_close;
	return fd;

out_close:
	r = -errno;
	close(fd);
	return r;
}

int kevent_request_socket_open(struct mnl_socket **ret_nl)
{
	struct timeval tv = { .tv_sec = KEVENT_REQUEST_TIMEOUT_SEC };
	struct mnl_socket *nl;
	int r;

	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto out_close;
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		       sizeof(tv)) < 0)
		goto out_close;
	*ret_nl = nl;
	return 0;

out_close:
	r = -errno;
	mnl_socket_close(nl);
	return r;
}

/*
 * A request socket (kevent_request_socket_open()) and the id of the kevent
 * family on it, for one request. Returns 0, or a negative errno with no
 * socket left open (-ENOENT: the layer is not loaded, or this is not the
 * initial network namespace).
 */
static int kevent_request_open(struct mnl_socket **ret_nl,
			       uint16_t *ret_family_id)
{
	struct genl_family family;
	struct mnl_socket *nl;
	int r;

	r = kevent_request_socket_open(&nl);
	if (r < 0)
		return r;
	r = kevent_genl_family_resolve(nl, KEVENT_FAMILY_NAME, &family);
	if (r == 0)
		r = kevent_family_check(&family);
	if (r == 0)
		r = kevent_family_answers(nl, family.id);
	if (r < 0) {
		mnl_socket_close(nl);
		return r;
	}
	*ret_nl = nl;
	*ret_family_id = family.id;
	return 0;
}

/*
 * Clear the interrupted mark (NLM_F_DUMP_INTR) of the messages in the @len
 * bytes at @buf, on which libmnl would stop. Return: whether one had it.
 */
static bool dump_intr_clear(void *buf, size_t len)
{
	struct nlmsghdr *nlh = buf;
	int left = len;
	bool intr = false;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
			nlh->nlmsg_flags &= ~NLM_F_DUMP_INTR;
			intr = true;
		}
	}
	return intr;
}

static int reply_noop(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/* NLMSG_ERROR: an acknowledgement (error 0) ends the answer, as an error. */
static int reply_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

	(void)data;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	errno = err->error < 0 ? -err->error : err->error;
	return MNL_CB_ERROR;
}

/*
 * NLMSG_DONE ends a dump; its payload is the dump's status, an error when
 * the kernel could not complete it (libmnl's own handler ignores that).
 */
static int reply_done(const struct nlmsghdr *nlh, void *data)
{
	int err;

	(void)data;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (!err)
		return MNL_CB_STOP;
	errno = err < 0 ? -err : err;
	return MNL_CB_ERROR;
}

/* Not const: mnl_cb_run2() takes a pointer to non-const */
static mnl_cb_t reply_ctl_cb[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = reply_noop,
	[NLMSG_ERROR] = reply_error,
	[NLMSG_DONE] = reply_done,
	[NLMSG_OVERRUN] = reply_noop,
};

int kevent_reply_run(const void *buf, size_t len, unsigned int seq,
		     unsigned int portid, mnl_cb_t cb, void *data)
{
	int r;

	errno = 0;
	r = mnl_cb_run2(buf, len, seq, portid, cb, data, reply_ctl_cb,
			MNL_ARRAY_SIZE(reply_ctl_cb));
	if (r == MNL_CB_ERROR)
		return errno ? -errno : -EPROTO;
	return r == MNL_CB_STOP ? 0 : 1;
}

/*
 * Send @nlh and feed the answers to @cb until the kernel says done (or acks),
 * @cb stops, or an error arrives. Only messages from the kernel are looked
 * at. A dump the kernel marks interrupted stops at the first message so
 * marked, unless @ret_intr is given: then it is read to its end, and
 * *@ret_intr says whether it was interrupted.
 * Return: 0, or a negative errno (the kernel's, -EINTR for an interrupted
 * dump, or -ETIMEDOUT).
 */
static int request_run(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb,
		       void *data, bool *ret_intr)
{
	unsigned int portid = mnl_socket_get_portid(nl);
	unsigned int seq = nlh->nlmsg_seq;
	struct sockaddr_nl addr;
	struct iovec iov;
	struct msghdr msg = {
		.msg_name = &addr,
		.msg_namelen = sizeof(addr),
		.msg_iov = &iov,
		.msg_iovlen = 1,
	};
	char *buf;
	ssize_t n;
	int r;

	buf = malloc(KEVENT_RECV_BUF_SIZE);
	if (!buf)
		return -ENOMEM;
	iov.iov_base = buf;
	iov.iov_len = KEVENT_RECV_BUF_SIZE;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out_free;
	}
	for (;;) {
		msg.msg_namelen = sizeof(addr);
		n = recvmsg(mnl_socket_get_fd(nl), &msg, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = (errno == EAGAIN || errno == EWOULDBLOCK) ?
				    -ETIMEDOUT :
				    -errno;
			goto out_free;
		}
		if (msg.msg_flags & MSG_TRUNC) {
			r = -EMSGSIZE;
			goto out_free;
		}
		if (msg.msg_namelen != sizeof(addr) || addr.nl_pid != 0)
			continue;
		if (ret_intr && dump_intr_clear(buf, n))
			*ret_intr = true;
		r = kevent_reply_run(buf, n, seq, portid, cb, data);
		if (r <= 0)
			goto out_free;
	}

out_free:
	free(buf);
	return r;
}

static struct nlmsghdr *genl_put_header(char *buf, uint16_t type,
					uint16_t flags, uint8_t cmd,
					uint8_t version)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = time(NULL);
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

static int parse_group(const struct nlattr *nested, struct genl_family *family)
{
	const struct nlattr *attr, *name = NULL, *id = NULL;
	struct genl_group *g;

	mnl_attr_for_each_nested(attr, nested) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_MCAST_GRP_NAME:
			if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
				return -EPROTO;
			name = attr;
			break;
		case CTRL_ATTR_MCAST_GRP_ID:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
				return -EPROTO;
			id = attr;
			break;
		}
	}
	if (!name || !id)
		return -EPROTO;
	if (family->n_groups >= KEVENT_MAX_GROUPS)
		return 0;
	g = &family->groups[family->n_groups++];
	strncpy(g->name, mnl_attr_get_str(name), sizeof(g->name) - 1);
	g->name[sizeof(g->name) - 1] = '\0';
	g->id = mnl_attr_get_u32(id);
	return 0;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct genl_family *family = data;
	const struct nlattr *attr, *grp;
	bool have_id = false;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		switch (mnl_attr_get_type(attr)) {
		case CTRL_ATTR_FAMILY_ID:
			if (mnl_attr_validate(attr, MNL_TYPE_U16) < 0)
				goto out_proto;
			family->id = mnl_attr_get_u16(attr);
			have_id = true;
			break;
		case CTRL_ATTR_VERSION:
			if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
				goto out_proto;
			family->version = mnl_attr_get_u32(attr);
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			mnl_attr_for_each_nested(grp, attr) {
				if (parse_group(grp, family) < 0)
					goto out_proto;
			}
			break;
		}
	}
	if (!have_id)
		goto out_proto;
	return MNL_CB_OK;

out_proto:
	errno = EPROTO;
	return MNL_CB_ERROR;
}

int kevent_genl_family_resolve(struct mnl_socket *nl, const char *name,
			       struct genl_family *ret_family)
{
	char buf[KEVENT_REQUEST_BUF_SIZE] = { 0 };
	struct nlmsghdr *nlh;

	memset(ret_family, 0, sizeof(*ret_family));
	nlh = genl_put_header(buf, GENL_ID_CTRL, NLM_F_ACK, CTRL_CMD_GETFAMILY,
			      1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return request_run(nl, nlh, family_cb, ret_family, NULL);
}

/*
 * The version of a generic netlink family changes only with an incompatible
 * ABI: what a newer kernel adds comes as new attributes and commands, which
 * the library ignores.
 */
int kevent_family_check(const struct genl_family *family)
{
	if (family->version != KEVENT_FAMILY_VERSION)
		return -EPROTONOSUPPORT;
	return 0;
}

/*
 * The kernel answers the family's requests in the initial network namespace
 * only (and sends its events there alone); elsewhere it answers EOPNOTSUPP.
 * A GET_STATS on @nl tells which: 0, -ENOENT in another namespace, as if the
 * family were not there, or another negative errno.
 */
int kevent_family_answers(struct mnl_socket *nl, uint16_t family_id)
{
	char buf[KEVENT_REQUEST_BUF_SIZE] = { 0 };
	struct nlmsghdr *nlh;
	int r;

	nlh = genl_put_header(buf, family_id, NLM_F_ACK, KEVENT_CMD_GET_STATS,
			      KEVENT_FAMILY_VERSION);
	r = request_run(nl, nlh, reply_noop, NULL, NULL);
	return r == -EOPNOTSUPP ? -ENOENT : r;
}

uint32_t kevent_genl_family_group(const struct genl_family *family,
				  const char *name)
{
	unsigned int i;

	for (i = 0; i < family->n_groups; i++)
		if (strcmp(family->groups[i].name, name) == 0)
			return family->groups[i].id;
	return 0;
}

struct dump_data {
	kevent_event_cb cb;
	void *userdata;
	bool need_seq;
	int stopped;
	/* Keep the records, to visit them once the dump is complete */
	bool collect;
	struct kevent_event **records;
	size_t n_records;
	size_t max_records;
};

/* Keep @ev (a reference is taken) for dump_visit(). */
static int dump_keep(struct dump_data *d, struct kevent_event *ev)
{
	struct kevent_event **records;
	size_t max;

	if (d->n_records == d->max_records) {
		max = d->max_records ? 2 * d->max_records : 64;
		records = realloc(d->records, max * sizeof(*records));
		if (!records)
			return -ENOMEM;
		d->records = records;
		d->max_records = max;
	}
	d->records[d->n_records++] = kevent_event_ref(ev);
	return 0;
}

/* Drop the records kept so far. */
static void dump_forget(struct dump_data *d)
{
	while (d->n_records)
		kevent_event_unref(d->records[--d->n_records]);
}

/* Order of records by path and attribute name, then by position. */
static int dump_record_cmp(const void *a, const void *b, void *data)
{
	struct kevent_event *const *records = data;
	const struct kevent_event *x = records[*(const size_t *)a];
	const struct kevent_event *y = records[*(const size_t *)b];
	int r;

	r = strcmp(x->path, y->path);
	if (!r)
		r = strcmp(x->attr, y->attr);
	if (!r)
		r = (*(const size_t *)a > *(const size_t *)b) -
		    (*(const size_t *)a < *(const size_t *)b);
	return r;
}

/*
 * Drop the later records of a source listed twice: an interrupted dump lists
 * a source removed and added again meanwhile once under each of its ids.
 * The others keep their order.
 */
static int dump_dedup(struct dump_data *d)
{
	size_t *order, i, n = 0;
	bool *dup;

	if (d->n_records < 2)
		return 0;
	order = calloc(d->n_records, sizeof(*order));
	dup = calloc(d->n_records, sizeof(*dup));
	if (!order || !dup) {
		free(order);
		free(dup);
		return -ENOMEM;
	}
	for (i = 0; i < d->n_records; i++)
		order[i] = i;
	qsort_r(order, d->n_records, sizeof(*order), dump_record_cmp,
		d->records);
	for (i = 1; i < d->n_records; i++) {
		const struct kevent_event *x = d->records[order[i - 1]];
		const struct kevent_event *y = d->records[order[i]];

		if (!strcmp(x->path, y->path) && !strcmp(x->attr, y->attr))
			dup[order[i]] = true;
	}
	for (i = 0; i < d->n_records; i++) {
		if (dup[i])
			kevent_event_unref(d->records[i]);
		else
			d->records[n++] = d->records[i];
	}
	d->n_records = n;
	free(order);
	free(dup);
	return 0;
}

/* Feed the records kept to the caller's callback. */
static int dump_visit(struct dump_data *d)
{
	size_t i;
	int r;

	for (i = 0; i < d->n_records; i++) {
		r = d->cb(d->records[i], d->userdata);
		if (r)
			return r;
	}
	return 0;
}

static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_data *d = data;
	struct kevent_event *ev;
	int r;

	r = kevent_event_parse(nlh, nlh->nlmsg_len, d->need_seq, &ev);
	if (r == -EBADMSG)
		return MNL_CB_OK;
	if (r < 0) {
		errno = -r;
		return MNL_CB_ERROR;
	}
	if (d->collect)
		r = dump_keep(d, ev);
	else
		r = d->cb(ev, d->userdata);
	kevent_event_unref(ev);
	if (d->collect && r < 0) {
		errno = -r;
		return MNL_CB_ERROR;
	}
	if (r) {
		d->stopped = r;
		return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

/*
 * Dump @cmd (with the sequence number @after if not 0) on a socket of its
 * own and feed each record to @d->cb, or keep it if @d->collect.
 * Return: 0, the value @d->cb stopped with, -EINTR if the kernel marked the
 * dump interrupted (NLM_F_DUMP_INTR; with @d->collect, once every record is
 * kept), or another negative errno.
 */
static int dump_run(uint8_t cmd, uint64_t after, struct dump_data *d)
{
	char buf[KEVENT_REQUEST_BUF_SIZE] = { 0 };
	struct mnl_socket *nl;
	uint16_t family_id;
	struct nlmsghdr *nlh;
	bool intr = false;
	int r;

	r = kevent_request_open(&nl, &family_id);
	if (r < 0)
		return r;
	nlh = genl_put_header(buf, family_id, NLM_F_DUMP, cmd,
			      KEVENT_FAMILY_VERSION);
	if (after)
		mnl_attr_put_u64(nlh, KEVENT_A_SEQ, after);
	r = request_run(nl, nlh, dump_cb, d, d->collect ? &intr : NULL);
	if (r == 0 && d->stopped)
		r = d->stopped;
	if (r == 0 && intr)
		r = -EINTR;

	mnl_socket_close(nl);
	return r;
}

/*
 * The kernel marks the sources dump interrupted (NLM_F_DUMP_INTR) when
 * sources were added or removed between two of its messages. Its records
 * are kept until it completes, and an interrupted dump is asked for again,
 * up to KEVENT_DUMP_ATTEMPTS times in all. When the list changes all along,
 * the last dump is visited nevertheless: the kernel resumes each part after
 * the id of the last source sent, so it lists every source present
 * throughout once, a source added or removed meanwhile maybe, and one
 * removed and added again maybe twice (kept once here).
 */
KEVENT_EXPORT int kevent_sources_foreach(kevent_event_cb cb, void *userdata)
{
	struct dump_data d = { .cb = cb, .userdata = userdata, .collect = true };
	unsigned int attempt;
	int r = -EINTR;

	if (!cb)
		return -EINVAL;
	for (attempt = 0; attempt < KEVENT_DUMP_ATTEMPTS && r == -EINTR;
	     attempt++) {
		dump_forget(&d);
		r = dump_run(KEVENT_CMD_GET_SOURCES, 0, &d);
	}
	if (r == -EINTR)
		r = dump_dedup(&d);
	if (r == 0)
		r = dump_visit(&d);

	dump_forget(&d);
	free(d.records);
	return r;
}

KEVENT_EXPORT int kevent_replay_foreach(uint64_t after, kevent_event_cb cb,
					void *userdata)
{
	struct dump_data d = {
		.cb = cb,
		.userdata = userdata,
		.need_seq = true,
	};

	if (!cb)
		return -EINVAL;
	return dump_run(KEVENT_CMD_GET_REPLAY, after, &d);
}

/* The counter of attribute @type, or -1; its size in *@ret_size. */
static int stat_of_attr(unsigned int type, size_t *ret_size)
{
	*ret_size = sizeof(uint64_t);
	switch (type) {
	case KEVENT_A_STAT_SENT:
		return KEVENT_STAT_SENT;
	case KEVENT_A_STAT_COALESCED:
		return KEVENT_STAT_COALESCED;
	case KEVENT_A_STAT_FAILED:
		return KEVENT_STAT_FAILED;
	case KEVENT_A_STAT_UNRECORDED:
		return KEVENT_STAT_UNRECORDED;
	case KEVENT_A_STAT_SOURCES:
		*ret_size = sizeof(uint32_t);
		return KEVENT_STAT_SOURCES;
	}
	return -1;
}

int kevent_stats_parse(const struct nlmsghdr *nlh,
		       uint64_t values[KEVENT_STAT_COUNT])
{
	const struct nlattr *attr;
	size_t size;
	int stat;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN) {
		stat = stat_of_attr(mnl_attr_get_type(attr), &size);
		/* Counters of a newer kernel are ignored */
		if (stat < 0)
			continue;
		if (mnl_attr_get_payload_len(attr) != size)
			return -EPROTO;
		values[stat] = size == sizeof(uint32_t) ?
				       mnl_attr_get_u32(attr) :
				       mnl_attr_get_u64(attr);
	}
	return 0;
}

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	int r;

	r = kevent_stats_parse(nlh, data);
	if (r < 0) {
		errno = -r;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

/* Ask the kernel for its counters, into @values (0 for those not sent). */
static int stats_request(uint64_t values[KEVENT_STAT_COUNT])
{
	char buf[KEVENT_REQUEST_BUF_SIZE] = { 0 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	uint16_t family_id;
	int r;

	memset(values, 0, KEVENT_STAT_COUNT * sizeof(*values));
	r = kevent_request_open(&nl, &family_id);
	if (r < 0)
		return r;
	nlh = genl_put_header(buf, family_id, NLM_F_ACK, KEVENT_CMD_GET_STATS,
			      KEVENT_FAMILY_VERSION);
	r = request_run(nl, nlh, stats_cb, values, NULL);

	mnl_socket_close(nl);
	return r;
}

int kevent_registry_request(int (*cb)(const struct nlmsghdr *nlh, void *data),
			    void *data)
{
	char buf[KEVENT_REQUEST_BUF_SIZE] = { 0 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	uint16_t family_id;
	int r;

	r = kevent_request_open(&nl, &family_id);
	if (r < 0)
		return r;
	nlh = genl_put_header(buf, family_id, NLM_F_DUMP,
			      KEVENT_CMD_GET_ATTRIBUTES, KEVENT_FAMILY_VERSION);
	r = request_run(nl, nlh, cb, data, NULL);

	mnl_socket_close(nl);
	return r;
}

KEVENT_EXPORT int kevent_stats_read(uint64_t *ret_values, size_t n)
{
	uint64_t values[KEVENT_STAT_COUNT];
	size_t i;
	int r;

	if (!ret_values && n)
		return -EINVAL;
	r = stats_request(values);
	if (r < 0)
		return r;
	for (i = 0; i < n; i++)
		ret_values[i] = i < KEVENT_STAT_COUNT ? values[i] : 0;
	return KEVENT_STAT_COUNT;
}

KEVENT_EXPORT int kevent_stats_get(struct kevent_stats *ret_stats)
{
	uint64_t values[KEVENT_STAT_COUNT];
	int r;

	if (!ret_stats)
		return -EINVAL;
	r = stats_request(values);
	if (r < 0)
		return r;
	*ret_stats = (struct kevent_stats){
		.sent = values[KEVENT_STAT_SENT],
		.coalesced = values[KEVENT_STAT_COALESCED],
		.failed = values[KEVENT_STAT_FAILED],
		.sources = values[KEVENT_STAT_SOURCES],
	};
	return 0;
}
