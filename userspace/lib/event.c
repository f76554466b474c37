// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events: parsing and validation of kernel messages, accessors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "kevent-private.h"

bool kevent_path_is_valid(const char *path)
{
	const char *p, *end;
	size_t len;

	if (!path || path[0] != '/')
		return false;
	len = strnlen(path, KEVENT_PATH_MAX);
	if (len >= KEVENT_PATH_MAX)
		return false;

	/* Each component starts after a '/' and must be a real name. */
	for (p = path; *p; p = end) {
		p++;
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		len = end - p;
		if (len == 0)
			return false;
		if (len == 1 && p[0] == '.')
			return false;
		if (len == 2 && p[0] == '.' && p[1] == '.')
			return false;
	}
	return true;
}

bool kevent_attr_name_is_valid(const char *name)
{
	size_t len;

	if (!name)
		return false;
	len = strnlen(name, KEVENT_ATTR_NAME_MAX);
	if (len == 0 || len >= KEVENT_ATTR_NAME_MAX)
		return false;
	if (strchr(name, '/'))
		return false;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return false;
	return true;
}

bool kevent_attr_has_size(const struct nlattr *attr, size_t size)
{
	return !attr || mnl_attr_get_payload_len(attr) == size;
}

const char *kevent_attr_get_string(const struct nlattr *attr, size_t max)
{
	const char *s = mnl_attr_get_payload(attr);
	size_t len = mnl_attr_get_payload_len(attr);

	if (len == 0 || len > max || s[len - 1] != '\0')
		return NULL;
	if (strlen(s) != len - 1)
		return NULL;
	return s;
}

enum kevent_msg_kind kevent_message_kind(const struct nlmsghdr *nlh,
					 size_t len)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);

	if (len < NLMSG_HDRLEN + GENL_HDRLEN ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return KEVENT_MSG_MALFORMED;
	/* A newer kernel may send other commands on the groups: not ours. */
	if (genl->cmd != KEVENT_CMD_EVENT)
		return KEVENT_MSG_OTHER;
	return KEVENT_MSG_EVENT;
}

int kevent_event_parse(const struct nlmsghdr *nlh, size_t len, bool need_seq,
		       struct kevent_event **ret_event)
{
	const struct nlattr *tb[KEVENT_A_MAX + 1] = { NULL };
	const struct nlattr *attr;
	const char *tail, *path, *name;
	struct kevent_event *ev;
	size_t path_len, name_len;
	uint32_t cls;
	int type;

	if (len < NLMSG_HDRLEN + GENL_HDRLEN || nlh->nlmsg_len > len ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EBADMSG;

	/* The end as received, not rounded up past it. */
	tail = (const char *)nlh + nlh->nlmsg_len;
	for (attr = mnl_nlmsg_get_payload_offset(nlh, GENL_HDRLEN);
	     mnl_attr_ok(attr, tail - (const char *)attr);
	     attr = mnl_attr_next(attr)) {
		type = mnl_attr_get_type(attr);
		/* Attributes from a newer kernel are ignored. */
		if (type > KEVENT_A_MAX)
			continue;
		tb[type] = attr;
	}
	/* Trailing bytes that do not form an attribute. */
	if ((const char *)attr < tail &&
	    tail - (const char *)attr >= (long)NLA_ALIGNTO)
		return -EBADMSG;

	if ((need_seq && !tb[KEVENT_A_SEQ]) || !tb[KEVENT_A_CLASS] ||
	    !tb[KEVENT_A_PATH] || !tb[KEVENT_A_ATTR_NAME])
		return -EBADMSG;
	if (!kevent_attr_has_size(tb[KEVENT_A_SEQ], sizeof(uint64_t)) ||
	    !kevent_attr_has_size(tb[KEVENT_A_TIMESTAMP], sizeof(uint64_t)) ||
	    !kevent_attr_has_size(tb[KEVENT_A_CLASS], sizeof(uint32_t)) ||
	    !kevent_attr_has_size(tb[KEVENT_A_ATTR_ID], sizeof(uint32_t)) ||
	    !kevent_attr_has_size(tb[KEVENT_A_COALESCED], sizeof(uint32_t)) ||
	    !kevent_attr_has_size(tb[KEVENT_A_CLASS_SEQ], sizeof(uint64_t)))
		return -EBADMSG;

	cls = mnl_attr_get_u32(tb[KEVENT_A_CLASS]);
	if (cls > KEVENT_CLASS_MAX)
		return -EBADMSG;
	path = kevent_attr_get_string(tb[KEVENT_A_PATH], KEVENT_PATH_MAX);
	name = kevent_attr_get_string(tb[KEVENT_A_ATTR_NAME], KEVENT_ATTR_NAME_MAX);
	if (!path || !name || !kevent_path_is_valid(path) ||
	    !kevent_attr_name_is_valid(name))
		return -EBADMSG;

	path_len = strlen(path) + 1;
	name_len = strlen(name) + 1;
	/*
	 * malloc(), not calloc(): one event a message, freed before the next
	 * is parsed, is what malloc()'s per-thread cache serves at once, and
	 * calloc() bypasses that cache in the C libraries of today.
	 */
	ev = malloc(sizeof(*ev) + path_len + name_len);
	if (!ev)
		return -ENOMEM;
	*ev = (struct kevent_event){ .refcount = 1 };
	if (tb[KEVENT_A_SEQ])
		ev->seq = mnl_attr_get_u64(tb[KEVENT_A_SEQ]);
	if (tb[KEVENT_A_TIMESTAMP])
		ev->timestamp = mnl_attr_get_u64(tb[KEVENT_A_TIMESTAMP]);
	ev->cls = cls;
	ev->attr_id = tb[KEVENT_A_ATTR_ID] ?
			      mnl_attr_get_u32(tb[KEVENT_A_ATTR_ID]) :
			      UINT32_MAX;
	if (tb[KEVENT_A_COALESCED])
		ev->coalesced = mnl_attr_get_u32(tb[KEVENT_A_COALESCED]);
	/* A kernel without per-class numbers: no gap information (0). */
	if (tb[KEVENT_A_CLASS_SEQ])
		ev->class_seq = mnl_attr_get_u64(tb[KEVENT_A_CLASS_SEQ]);
	memcpy(ev->strings, path, path_len);
	memcpy(ev->strings + path_len, name, name_len);
	ev->path = ev->strings;
	ev->attr = ev->strings + path_len;

	*ret_event = ev;
	return 0;
}

KEVENT_EXPORT struct kevent_event *kevent_event_ref(struct kevent_event *event)
{
	if (event)
		event->refcount++;
	return event;
}

KEVENT_EXPORT struct kevent_event *
kevent_event_unref(struct kevent_event *event)
{
	if (event && --event->refcount == 0)
		free(event);
	return NULL;
}

KEVENT_EXPORT uint64_t kevent_event_get_seq(const struct kevent_event *event)
{
	return event->seq;
}

KEVENT_EXPORT uint64_t
kevent_event_get_timestamp(const struct kevent_event *event)
{
	return event->timestamp;
}

KEVENT_EXPORT enum kevent_class
kevent_event_get_class(const struct kevent_event *event)
{
	return event->cls;
}

KEVENT_EXPORT const char *
kevent_event_get_path(const struct kevent_event *event)
{
	return event->path;
}

KEVENT_EXPORT const char *
kevent_event_get_attr(const struct kevent_event *event)
{
	return event->attr;
}

KEVENT_EXPORT uint32_t kevent_event_get_attr_id(const struct kevent_event *event)
{
	return event->attr_id;
}

KEVENT_EXPORT uint32_t
kevent_event_get_coalesced(const struct kevent_event *event)
{
	return event->coalesced;
}

KEVENT_EXPORT uint64_t
kevent_event_get_class_seq(const struct kevent_event *event)
{
	return event->class_seq;
}

KEVENT_EXPORT uint64_t kevent_event_get_lost(const struct kevent_event *event)
{
	return event->lost;
}
