/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: records as entries of the systemd journal (--journal).
 */
#ifndef KEVENT_WATCH_JOURNAL_H
#define KEVENT_WATCH_JOURNAL_H

#include <stddef.h>
#include <sys/uio.h>

#include "output.h"

/* The most fields an entry has. */
#define JOURNAL_FIELDS_MAX 16

/* Priorities of the entries, as syslog(3)'s LOG_*. */
#define JOURNAL_PRIORITY_EVENT 5 /* LOG_NOTICE */
#define JOURNAL_PRIORITY_STATE 6 /* LOG_INFO */
#define JOURNAL_PRIORITY_OVERRUN 4 /* LOG_WARNING */

/*
 * The fields of one journal entry, each "NAME=value" with its length, as
 * sd_journal_sendv() takes them: the bytes of the value as read, newlines,
 * NUL and bytes that are not UTF-8 included, go out as they are. @iov
 * points into @buf, and is valid until the entry is built again or freed.
 */
struct journal_entry {
	struct iovec iov[JOURNAL_FIELDS_MAX];
	size_t n;
	struct sbuf buf;
	size_t off[JOURNAL_FIELDS_MAX]; /* where each field starts in @buf */
};

/*
 * Build the entry of @r: MESSAGE (a readable line, C-escaped as the text
 * output is), PRIORITY, SYSLOG_IDENTIFIER=kevent-watch, KEVENT_TYPE
 * ("event" or "state"), KEVENT_SOURCE, KEVENT_SEQ, KEVENT_TIME,
 * KEVENT_CLASS, KEVENT_PATH, KEVENT_ATTR, KEVENT_VALUE (without its
 * trailing newline) or KEVENT_ERROR (such as "ENOENT"), KEVENT_UNIT,
 * KEVENT_SUBSYSTEM and KEVENT_COALESCED (events). A field the record does
 * not have (a unit, a class, the sequence number of a poll event) is left
 * out. Return: 0, or -ENOMEM.
 */
int journal_entry_record(struct journal_entry *e, const struct record *r);

/*
 * Build the entry of an overrun: MESSAGE, PRIORITY warning,
 * SYSLOG_IDENTIFIER, KEVENT_TYPE=overrun and KEVENT_LOST (@lost < 0:
 * unknown, left out). Return: 0, or -ENOMEM.
 */
int journal_entry_overrun(struct journal_entry *e, long long lost);

/* Free what the entry holds; it may be built again after. */
void journal_entry_free(struct journal_entry *e);

/* The socket of systemd-journald that sd_journal_sendv() writes to. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/*
 * Is the journal there? sd_journal_sendv() drops entries without a word
 * when its socket is missing. Return: 0, or a negative errno.
 */
int journal_check(void);

/* Send the entry to the journal. Return: 0, or a negative errno. */
int journal_entry_send(const struct journal_entry *e);

#endif /* KEVENT_WATCH_JOURNAL_H */
