/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kevent-watch: building output lines.
 */
#ifndef KEVENT_WATCH_OUTPUT_H
#define KEVENT_WATCH_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A growing byte buffer; @oom is set (and data dropped) when out of memory. */
struct sbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;
};

bool sbuf_reserve(struct sbuf *sb, size_t more);

/*
 * The appends are inline: a line is built of a few dozen of them, most of a
 * few bytes, and a call each would cost more than the copy.
 */
static inline void sbuf_add(struct sbuf *sb, const char *data, size_t len)
{
	if ((sb->oom || sb->len + len + 1 > sb->cap) && !sbuf_reserve(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

static inline void sbuf_adds(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

static inline void sbuf_addc(struct sbuf *sb, char c)
{
	sbuf_add(sb, &c, 1);
}

void sbuf_add_u64(struct sbuf *sb, uint64_t v, unsigned int width);
void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* NUL-terminated contents ("" when empty), or NULL after a failed allocation. */
const char *sbuf_str(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
void sbuf_free(struct sbuf *sb);

enum record_type {
	RECORD_EVENT,
	RECORD_STATE,
};

/* One line of output: an event, or the current state of a source. */
struct record {
	enum record_type type;
	const char *source; /* "kevent", "uevent", "poll", or NULL */
	uint64_t seq; /* events only */
	bool no_seq; /* the event has no sequence number (poll) */
	uint64_t time_ns; /* CLOCK_BOOTTIME, or CLOCK_REALTIME if @realtime */
	bool realtime; /* --realtime: text lines show the local date and time */
	const char *cls; /* or NULL */
	const char *path;
	const char *attr;
	const char *value; /* NULL when @error is set */
	size_t value_len;
	int error; /* positive errno from reading the value, or 0 */
	const char *unit; /* or NULL */
	const char *subsystem; /* or NULL */
	uint32_t coalesced; /* events only */
};

/* Name of a positive errno value ("EACCES"), or "E<num>" written to @buf. */
const char *errno_name(int err, char buf[static 16]);

/* Drop one trailing newline: returns the new length. */
size_t value_trim(const char *value, size_t len);

/*
 * JSON string contents per RFC 8259 (without the quotes): '"' and '\\'
 * escaped, control bytes as \b \f \n \r \t or \u00XX (DEL as \u007f),
 * valid UTF-8 passed through but for the characters a terminal acts on
 * (C1 controls U+0080 to U+009F, bidi overrides and isolates U+202A to
 * U+202E and U+2066 to U+2069), written \uXXXX, which decodes to the same
 * string; and each byte that is not part of valid UTF-8 as \u00XX of its
 * value (so invalid input still gives valid JSON, at the cost of reading
 * such a byte as the Latin-1 character of that value).
 */
void json_escape(struct sbuf *sb, const char *s, size_t len);

/*
 * C-style escaping for text output: '\\' as \\, tab and newline as \t and
 * \n, carriage return as \r, other control bytes and bytes that are not
 * part of valid UTF-8 as \xHH, and so each UTF-8 byte of the characters a
 * terminal acts on (C1 controls, bidi overrides and isolates, as for
 * json_escape()); printable bytes and other valid UTF-8 as they are.
 */
void c_escape(struct sbuf *sb, const char *s, size_t len);

/* Seconds with six decimals: "123.456789". */
void format_time(struct sbuf *sb, uint64_t ns);

/* The JSON line for @r, newline included. */
void record_json(struct sbuf *sb, const struct record *r);

/* {"type":"overrun","lost":N} (N < 0: null), newline included. */
void overrun_json(struct sbuf *sb, long long lost);

/* How record_text() and overrun_text() dress the default text lines. */
struct text_style {
	bool units; /* the readable form after a value with a unit */
	bool utf8; /* which may use UTF-8 symbols (°C rather than degC) */
	bool colour; /* SGR escape sequences around some parts (colour.h) */
};

/* Set the style of the text lines; all false (the default): plain lines. */
void text_style_set(const struct text_style *style);

/*
 * Decide the style once, at start, for the user's standard output: readable
 * units, UTF-8 symbols if the locale has them (units.h), colour if
 * colour_wanted() (colour.h) says so. @json_or_format: no text lines, so
 * neither colour nor the locale is looked at.
 */
void text_style_init(bool json_or_format);

/*
 * The default text line for @r, newline included:
 *   KEVENT[TIME] SEQ CLASS PATH ATTR=VALUE[ UNIT][ (SUBSYSTEM)][ coalesced=N]
 *   STATE[TIME] CLASS PATH ATTR=VALUE[ UNIT][ (SUBSYSTEM)]
 * an unreadable value shows as ATTR=<error: ENAME>. Events of the uevent
 * and poll sources start with UEVENT[ and POLL[; a missing sequence number
 * or class shows as -. With the style's units, UNIT is followed by the
 * readable form of the value when there is one (units.h), in parentheses:
 * "temperature=25000 mdegC (25.0 °C)".
 * With the style's colour, escape sequences are added around the kind of
 * the record, the attribute's name and the error; without them, the line
 * is the same byte for byte.
 */
void record_text(struct sbuf *sb, const struct record *r);

/* OVERRUN lost=N (or lost=unknown), newline included; yellow in colour. */
void overrun_text(struct sbuf *sb, long long lost);

/*
 * Check a --format string. Return: 0, or -1 with a message in @err.
 */
int format_check(const char *fmt, char *err, size_t errlen);

/*
 * Expand a checked --format string for @r, and add a newline. A field is
 * C-escaped (c_escape()); %qX quotes field X for the shell on top: a
 * backslash before each byte but letters, digits, "-_./:,+@%=" and
 * non-ASCII UTF-8, '' for an empty field, so that read (without -r) and
 * eval give it back as one word.
 */
void format_expand(struct sbuf *sb, const char *fmt, const struct record *r);

#endif /* KEVENT_WATCH_OUTPUT_H */
