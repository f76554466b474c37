// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events of the stock sources (uevents, rtnetlink, poll): construction and accessors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kevent-private.h"

int kevent_event_new_stock(enum kevent_event_source source, uint64_t seq,
			   const char *path, const char *attr,
			   const char *subsystem,
			   struct kevent_event **ret_event)
{
	return kevent_event_new_stock_class(source, seq, path, attr,
					    kevent_path_class(path, attr),
					    subsystem, ret_event);
}

int kevent_event_new_stock_class(enum kevent_event_source source,
				 uint64_t seq, const char *path,
				 const char *attr, enum kevent_class cls,
				 const char *subsystem,
				 struct kevent_event **ret_event)
{
	size_t path_len, attr_len, subsystem_len;
	struct kevent_event *ev;
	struct timespec ts;

	if (!ret_event || !kevent_path_is_valid(path) ||
	    !kevent_attr_name_is_valid(attr))
		return -EINVAL;
	path_len = strlen(path) + 1;
	attr_len = strlen(attr) + 1;
	subsystem_len = subsystem ? strlen(subsystem) + 1 : 0;
	/* malloc(): its per-thread cache serves it, as in kevent_event_parse() */
	ev = malloc(sizeof(*ev) + path_len + attr_len + subsystem_len);
	if (!ev)
		return -ENOMEM;
	*ev = (struct kevent_event){ .refcount = 1 };
	ev->source = source;
	ev->seq = seq;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	ev->timestamp = (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	ev->cls = cls;
	ev->attr_id = UINT32_MAX;
	memcpy(ev->strings, path, path_len);
	memcpy(ev->strings + path_len, attr, attr_len);
	ev->path = ev->strings;
	ev->attr = ev->strings + path_len;
	if (subsystem) {
		memcpy(ev->strings + path_len + attr_len, subsystem,
		       subsystem_len);
		ev->subsystem = ev->strings + path_len + attr_len;
	}
	*ret_event = ev;
	return 0;
}

KEVENT_EXPORT const char *
kevent_event_source_to_string(enum kevent_event_source source)
{
	switch (source) {
	case KEVENT_EVENT_SOURCE_KEVENT:
		return "kevent";
	case KEVENT_EVENT_SOURCE_UEVENT:
		return "uevent";
	case KEVENT_EVENT_SOURCE_POLL:
		return "poll";
	case KEVENT_EVENT_SOURCE_RTNETLINK:
		return "rtnetlink";
	case KEVENT_EVENT_SOURCE_SAMPLE:
		return "sample";
	}
	return NULL;
}

KEVENT_EXPORT enum kevent_event_source
kevent_event_get_source(const struct kevent_event *event)
{
	return event->source;
}

KEVENT_EXPORT const char *
kevent_event_get_subsystem(const struct kevent_event *event)
{
	return event->subsystem;
}
