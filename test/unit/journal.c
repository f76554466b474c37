// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the journal entries of --journal: the fields of events,
 * states and overruns, and values that keep every byte.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "journal.h"
#include "output.h"
#include "unit.h"

/*
 * The value of field @name of @e ("NAME=value"), its length in @ret_len;
 * NULL when the entry has no such field, or has it more than once.
 */
static const char *field(const struct journal_entry *e, const char *name,
			 size_t *ret_len)
{
	size_t i, len = strlen(name);
	const char *found = NULL;
	unsigned int n = 0;

	for (i = 0; i < e->n; i++) {
		const char *f = e->iov[i].iov_base;

		if (e->iov[i].iov_len > len && memcmp(f, name, len) == 0 &&
		    f[len] == '=') {
			found = f + len + 1;
			*ret_len = e->iov[i].iov_len - len - 1;
			n++;
		}
	}
	return n == 1 ? found : NULL;
}

/* Field @name has the value @want, every byte of it and no more. */
static bool field_is(const struct journal_entry *e, const char *name,
		     const char *want)
{
	size_t len = 0;
	const char *v = field(e, name, &len);

	if (v && len == strlen(want) && memcmp(v, want, len) == 0)
		return true;
	printf("  %s: got \"%.*s\", want \"%s\"\n", name, v ? (int)len : 6,
	       v ? v : "(none)", want);
	return false;
}

/* The entry has no field @name. */
static bool no_field(const struct journal_entry *e, const char *name)
{
	size_t len = strlen(name), i;

	for (i = 0; i < e->n; i++)
		if (e->iov[i].iov_len > len &&
		    memcmp(e->iov[i].iov_base, name, len) == 0 &&
		    ((const char *)e->iov[i].iov_base)[len] == '=')
			return false;
	return true;
}

UNIT_TEST(test_journal_event)
{
	struct journal_entry e = { 0 };

	CHECK(journal_entry_record(&e, &unit_event_record) == 0);
	CHECK(e.n == 14);
	CHECK(field_is(
		&e, "MESSAGE",
		"temperature of /devices/platform/kevent-demo.0 changed: 47000 mdegC"));
	CHECK(field_is(&e, "PRIORITY", "5"));
	CHECK(field_is(&e, "SYSLOG_IDENTIFIER", "kevent-watch"));
	CHECK(field_is(&e, "KEVENT_TYPE", "event"));
	CHECK(field_is(&e, "KEVENT_SOURCE", "kevent"));
	CHECK(field_is(&e, "KEVENT_SEQ", "42"));
	CHECK(field_is(&e, "KEVENT_TIME", "123.456789"));
	CHECK(field_is(&e, "KEVENT_CLASS", "power"));
	CHECK(field_is(&e, "KEVENT_PATH", "/devices/platform/kevent-demo.0"));
	CHECK(field_is(&e, "KEVENT_ATTR", "temperature"));
	CHECK(field_is(&e, "KEVENT_VALUE", "47000"));
	CHECK(field_is(&e, "KEVENT_UNIT", "mdegC"));
	CHECK(field_is(&e, "KEVENT_SUBSYSTEM", "platform"));
	CHECK(field_is(&e, "KEVENT_COALESCED", "3"));
	CHECK(no_field(&e, "KEVENT_ERROR"));
	journal_entry_free(&e);
}

UNIT_TEST(test_journal_binary_value)
{
	static const char value[] = "line one\nline\0two \xff\xfe\x80";
	struct journal_entry e = { 0 };
	struct record r = unit_event_record;
	size_t len = 0;
	const char *v;

	r.value = value;
	r.value_len = sizeof(value) - 1;
	r.unit = NULL;
	CHECK(journal_entry_record(&e, &r) == 0);
	/* Every byte, NUL included, and nothing after */
	v = field(&e, "KEVENT_VALUE", &len);
	CHECK(v && len == sizeof(value) - 1 && memcmp(v, value, len) == 0);
	/* The message is one line, escaped as the text output is */
	CHECK(field_is(&e, "MESSAGE",
		       "temperature of /devices/platform/kevent-demo.0 changed: "
		       "line one\\nline\\x00two \\xff\\xfe\\x80"));
	CHECK(no_field(&e, "KEVENT_UNIT"));
	journal_entry_free(&e);
}

UNIT_TEST(test_journal_state_and_error)
{
	struct journal_entry e = { 0 };
	struct record r = unit_event_record;

	r.type = RECORD_STATE;
	r.value = NULL;
	r.value_len = 0;
	r.error = 2; /* ENOENT */
	r.cls = NULL;
	r.subsystem = NULL;
	CHECK(journal_entry_record(&e, &r) == 0);
	CHECK(field_is(
		&e, "MESSAGE",
		"temperature of /devices/platform/kevent-demo.0 is unreadable (ENOENT)"));
	CHECK(field_is(&e, "PRIORITY", "6"));
	CHECK(field_is(&e, "KEVENT_TYPE", "state"));
	CHECK(field_is(&e, "KEVENT_ERROR", "ENOENT"));
	CHECK(no_field(&e, "KEVENT_VALUE"));
	/* A state has no sequence number, coalescing, and here no class */
	CHECK(no_field(&e, "KEVENT_SEQ"));
	CHECK(no_field(&e, "KEVENT_COALESCED"));
	CHECK(no_field(&e, "KEVENT_CLASS"));
	CHECK(no_field(&e, "KEVENT_SUBSYSTEM"));
	CHECK(field_is(&e, "KEVENT_UNIT", "mdegC"));

	/* A poll event has no sequence number either */
	r = unit_event_record;
	r.no_seq = true;
	r.source = "poll";
	CHECK(journal_entry_record(&e, &r) == 0);
	CHECK(no_field(&e, "KEVENT_SEQ"));
	CHECK(field_is(&e, "KEVENT_SOURCE", "poll"));
	CHECK(field_is(&e, "PRIORITY", "5"));
	journal_entry_free(&e);
}

UNIT_TEST(test_journal_overrun)
{
	struct journal_entry e = { 0 };

	CHECK(journal_entry_overrun(&e, 7) == 0);
	CHECK(field_is(&e, "PRIORITY", "4"));
	CHECK(field_is(&e, "KEVENT_TYPE", "overrun"));
	CHECK(field_is(&e, "KEVENT_LOST", "7"));
	CHECK(field_is(&e, "MESSAGE", "7 events were lost, re-reading state"));
	CHECK(field_is(&e, "SYSLOG_IDENTIFIER", "kevent-watch"));
	CHECK(journal_entry_overrun(&e, -1) == 0);
	CHECK(e.n == 4);
	CHECK(no_field(&e, "KEVENT_LOST"));
	CHECK(field_is(&e, "PRIORITY", "4"));
	CHECK(field_is(
		&e, "MESSAGE",
		"events were lost (receive buffer overrun), re-reading state"));
	journal_entry_free(&e);
}
