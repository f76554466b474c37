// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: records as entries of the systemd journal (--journal).
 *
 * Each field is built into one buffer, its start remembered, and the
 * iovecs are pointed into the buffer once it is whole (it may move while
 * it grows). sd_journal_sendv() sends a field with a newline in its value
 * in the journal's binary form, so values keep every byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* No CODE_FILE, CODE_LINE and CODE_FUNC of this file in every entry */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "journal.h"

/* Start field @name: "NAME=". The value is added to e->buf after it. */
static void field_start(struct journal_entry *e, const char *name)
{
	if (e->n >= JOURNAL_FIELDS_MAX) {
		/* Cannot happen: the builders add fewer fields. */
		e->buf.oom = true;
		return;
	}
	e->off[e->n++] = e->buf.len;
	sbuf_adds(&e->buf, name);
	sbuf_addc(&e->buf, '=');
}

static void field_str(struct journal_entry *e, const char *name,
		      const char *value)
{
	if (!value)
		return;
	field_start(e, name);
	sbuf_adds(&e->buf, value);
}

static void field_u64(struct journal_entry *e, const char *name, uint64_t v)
{
	field_start(e, name);
	sbuf_add_u64(&e->buf, v, 1);
}

static void entry_reset(struct journal_entry *e)
{
	sbuf_reset(&e->buf);
	e->n = 0;
}

/* Point the iovecs at the fields. Return: 0, or -ENOMEM. */
static int entry_finish(struct journal_entry *e)
{
	size_t i, end;

	if (!sbuf_str(&e->buf)) {
		e->n = 0;
		return -ENOMEM;
	}
	for (i = 0; i < e->n; i++) {
		end = i + 1 < e->n ? e->off[i + 1] : e->buf.len;
		e->iov[i].iov_base = e->buf.buf + e->off[i];
		e->iov[i].iov_len = end - e->off[i];
	}
	return 0;
}

/* The readable line: "temperature of /devices/... changed: 47000 mdegC". */
static void record_message(struct sbuf *sb, const struct record *r)
{
	char buf[16];

	c_escape(sb, r->attr, strlen(r->attr));
	sbuf_adds(sb, " of ");
	c_escape(sb, r->path, strlen(r->path));
	sbuf_adds(sb, r->type == RECORD_EVENT ? " changed: " : " is ");
	if (r->error) {
		sbuf_printf(sb, "unreadable (%s)", errno_name(r->error, buf));
		return;
	}
	c_escape(sb, r->value, r->value_len);
	if (r->unit) {
		sbuf_addc(sb, ' ');
		c_escape(sb, r->unit, strlen(r->unit));
	}
}

int journal_entry_record(struct journal_entry *e, const struct record *r)
{
	bool event = r->type == RECORD_EVENT;
	char buf[16];

	entry_reset(e);
	field_start(e, "MESSAGE");
	record_message(&e->buf, r);
	field_u64(e, "PRIORITY",
		  event ? JOURNAL_PRIORITY_EVENT : JOURNAL_PRIORITY_STATE);
	field_str(e, "SYSLOG_IDENTIFIER", "kevent-watch");
	field_str(e, "KEVENT_TYPE", event ? "event" : "state");
	field_str(e, "KEVENT_SOURCE", r->source);
	if (event && !r->no_seq)
		field_u64(e, "KEVENT_SEQ", r->seq);
	field_start(e, "KEVENT_TIME");
	format_time(&e->buf, r->time_ns);
	field_str(e, "KEVENT_CLASS", r->cls);
	field_str(e, "KEVENT_PATH", r->path);
	field_str(e, "KEVENT_ATTR", r->attr);
	if (r->error) {
		field_str(e, "KEVENT_ERROR", errno_name(r->error, buf));
	} else {
		field_start(e, "KEVENT_VALUE");
		sbuf_add(&e->buf, r->value, r->value_len);
	}
	field_str(e, "KEVENT_UNIT", r->unit);
	field_str(e, "KEVENT_SUBSYSTEM", r->subsystem);
	if (event)
		field_u64(e, "KEVENT_COALESCED", r->coalesced);
	return entry_finish(e);
}

int journal_entry_overrun(struct journal_entry *e, long long lost)
{
	entry_reset(e);
	field_start(e, "MESSAGE");
	if (lost < 0)
		sbuf_adds(
			&e->buf,
			"events were lost (receive buffer overrun), re-reading state");
	else
		sbuf_printf(&e->buf, "%lld events were lost, re-reading state",
			    lost);
	field_u64(e, "PRIORITY", JOURNAL_PRIORITY_OVERRUN);
	field_str(e, "SYSLOG_IDENTIFIER", "kevent-watch");
	field_str(e, "KEVENT_TYPE", "overrun");
	if (lost >= 0)
		field_u64(e, "KEVENT_LOST", lost);
	return entry_finish(e);
}

void journal_entry_free(struct journal_entry *e)
{
	sbuf_free(&e->buf);
	e->n = 0;
}

int journal_check(void)
{
	struct stat st;

	if (stat(JOURNAL_SOCKET, &st) < 0)
		return -errno;
	return S_ISSOCK(st.st_mode) ? 0 : -ENOTSOCK;
}

int journal_entry_send(const struct journal_entry *e)
{
	return sd_journal_sendv(e->iov, e->n);
}
