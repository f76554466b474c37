// SPDX-License-Identifier: GPL-2.0
/*
 * kevent-watch: building output lines.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "colour.h"
#include "output.h"
#include "utf8.h"
#include "units.h"

static struct text_style text_style;

void text_style_set(const struct text_style *style)
{
	text_style = *style;
}

void text_style_init(bool json_or_format)
{
	struct text_style style = { .units = true };

	if (!json_or_format) {
		style.utf8 = locale_is_utf8();
		style.colour = colour_wanted(isatty(STDOUT_FILENO),
					     getenv("NO_COLOR"), getenv("TERM"),
					     json_or_format);
	}
	text_style_set(&style);
}

/* Start a coloured part of a text line, or end it (SGR_RESET). */
static void sgr(struct sbuf *sb, const char *seq)
{
	if (text_style.colour)
		sbuf_adds(sb, seq);
}

/* Room for @more bytes and a NUL; false (and @sb->oom set) without it */
bool sbuf_reserve(struct sbuf *sb, size_t more)
{
	size_t cap;
	char *p;

	if (sb->oom)
		return false;
	if (sb->len + more + 1 <= sb->cap)
		return true;
	cap = sb->cap ? sb->cap : 256;
	while (cap < sb->len + more + 1)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

/*
 * @v in decimal, at least @width digits (zero-padded). Every record has a
 * few numbers: printf() would cost more than the rest of its line.
 */
void sbuf_add_u64(struct sbuf *sb, uint64_t v, unsigned int width)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = '0' + v % 10;
		v /= 10;
	} while (v || n < width);
	sbuf_add(sb, digits + sizeof(digits) - n, n);
}

/*
 * Formatted into the room the buffer has, which is most often enough; only
 * a line that outgrows it is formatted a second time, after growing it.
 */
void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (sb->oom)
		return;
	room = sb->cap - sb->len;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= room) {
		if (!sbuf_reserve(sb, n))
			return;
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
		va_end(ap);
	}
	sb->len += n;
}

const char *sbuf_str(struct sbuf *sb)
{
	if (sb->oom)
		return NULL;
	return sb->buf ? sb->buf : "";
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	sb->oom = false;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sbuf_free(struct sbuf *sb)
{
	free(sb->buf);
	*sb = (struct sbuf){ 0 };
}

/* The C library knows every errno's name (glibc 2.32 and later). */
const char *errno_name(int err, char buf[static 16])
{
	const char *name = err > 0 ? strerrorname_np(err) : NULL;

	if (name)
		return name;
	snprintf(buf, 16, "E%d", err);
	return buf;
}

size_t value_trim(const char *value, size_t len)
{
	if (len > 0 && value[len - 1] == '\n')
		len--;
	return len;
}

/*
 * A character that a terminal acts on rather than shows, though valid
 * UTF-8: a C1 control (U+0080 to U+009F; U+009B is CSI on the Linux
 * console, as ESC [ is), or a bidi embedding, override or isolate
 * (U+202A to U+202E, U+2066 to U+2069), which reorders the rest of the
 * line as it is displayed. Kobject names come from device strings, such
 * as a USB serial number, so they may hold any of these.
 */
static bool utf8_acts_on_terminal(unsigned int cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* Printable ASCII that a JSON string carries as it is, by byte */
static const bool json_plain_byte[256] = {
	[0x20 ... 0x21] = true,		/* 0x22 is '"' */
	[0x23 ... 0x5b] = true,		/* 0x5c is '\\' */
	[0x5d ... 0x7e] = true,
};

static bool json_plain(unsigned char c)
{
	return json_plain_byte[c];
}

void json_escape(struct sbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = p[i];

		/* The common case, a run that needs no escape: one copy */
		for (n = i; n < len && json_plain(p[n]); n++)
			;
		if (n > i) {
			sbuf_add(sb, s + i, n - i);
			i = n;
			continue;
		}
		switch (c) {
		case '"':
			sbuf_adds(sb, "\\\"");
			break;
		case '\\':
			sbuf_adds(sb, "\\\\");
			break;
		case '\b':
			sbuf_adds(sb, "\\b");
			break;
		case '\f':
			sbuf_adds(sb, "\\f");
			break;
		case '\n':
			sbuf_adds(sb, "\\n");
			break;
		case '\r':
			sbuf_adds(sb, "\\r");
			break;
		case '\t':
			sbuf_adds(sb, "\\t");
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				sbuf_printf(sb, "\\u%04x", c);
				break;
			}
			n = utf8_decode(p + i, len - i, &cp);
			if (n == 0) {
				sbuf_printf(sb, "\\u%04x", c);
				break;
			}
			if (utf8_acts_on_terminal(cp))
				sbuf_printf(sb, "\\u%04x", cp);
			else
				sbuf_add(sb, s + i, n);
			i += n;
			continue;
		}
		i++;
	}
}

/* Printable ASCII that a text line carries as it is */
static bool c_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/* Each of @n bytes as \xHH */
static void c_escape_bytes(struct sbuf *sb, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sbuf_printf(sb, "\\x%02x", p[i]);
}

void c_escape(struct sbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int cp;
	size_t i = 0, n;

	while (i < len) {
		unsigned char c = p[i];

		for (n = i; n < len && c_plain(p[n]); n++)
			;
		if (n > i) {
			sbuf_add(sb, s + i, n - i);
			i = n;
			continue;
		}
		switch (c) {
		case '\\':
			sbuf_adds(sb, "\\\\");
			break;
		case '\n':
			sbuf_adds(sb, "\\n");
			break;
		case '\t':
			sbuf_adds(sb, "\\t");
			break;
		case '\r':
			sbuf_adds(sb, "\\r");
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				sbuf_printf(sb, "\\x%02x", c);
				break;
			}
			n = utf8_decode(p + i, len - i, &cp);
			if (n == 0) {
				sbuf_printf(sb, "\\x%02x", c);
				break;
			}
			if (utf8_acts_on_terminal(cp))
				c_escape_bytes(sb, p + i, n);
			else
				sbuf_add(sb, s + i, n);
			i += n;
			continue;
		}
		i++;
	}
}

static void c_escape_str(struct sbuf *sb, const char *s)
{
	c_escape(sb, s, strlen(s));
}

void format_time(struct sbuf *sb, uint64_t ns)
{
	sbuf_add_u64(sb, ns / 1000000000, 1);
	sbuf_addc(sb, '.');
	sbuf_add_u64(sb, ns % 1000000000 / 1000, 6);
}

/*
 * A time of the wall clock for people: the local date and time to the
 * microsecond, and the offset from UTC (ISO 8601, as date --iso-8601=ns
 * writes it, to the microsecond).
 */
static void format_time_local(struct sbuf *sb, uint64_t ns)
{
	time_t sec = ns / 1000000000;
	char buf[64], zone[8];
	struct tm tm;

	if (!localtime_r(&sec, &tm) ||
	    !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm) ||
	    !strftime(zone, sizeof(zone), "%z", &tm)) {
		format_time(sb, ns);
		return;
	}
	sbuf_adds(sb, buf);
	sbuf_addc(sb, '.');
	sbuf_add_u64(sb, ns % 1000000000 / 1000, 6);
	/* +0100 as +01:00 */
	sbuf_printf(sb, "%.3s:%s", zone, zone + 3);
}

static void json_string(struct sbuf *sb, const char *key, const char *s)
{
	sbuf_adds(sb, ",\"");
	sbuf_adds(sb, key);
	sbuf_adds(sb, "\":");
	if (!s) {
		sbuf_adds(sb, "null");
		return;
	}
	sbuf_addc(sb, '"');
	json_escape(sb, s, strlen(s));
	sbuf_addc(sb, '"');
}

void record_json(struct sbuf *sb, const struct record *r)
{
	char buf[16];

	sbuf_adds(sb, r->type == RECORD_EVENT ? "{\"type\":\"event\"" :
						"{\"type\":\"state\"");
	json_string(sb, "source", r->source);
	if (r->type == RECORD_EVENT && r->no_seq) {
		sbuf_adds(sb, ",\"seq\":null");
	} else if (r->type == RECORD_EVENT) {
		sbuf_adds(sb, ",\"seq\":");
		sbuf_add_u64(sb, r->seq, 1);
	}
	sbuf_adds(sb, ",\"time\":");
	format_time(sb, r->time_ns);
	json_string(sb, "class", r->cls);
	json_string(sb, "path", r->path);
	json_string(sb, "attr", r->attr);
	if (r->error) {
		sbuf_adds(sb, ",\"value\":null");
		json_string(sb, "error", errno_name(r->error, buf));
	} else {
		sbuf_adds(sb, ",\"value\":\"");
		json_escape(sb, r->value, r->value_len);
		sbuf_addc(sb, '"');
	}
	json_string(sb, "unit", r->unit);
	json_string(sb, "subsystem", r->subsystem);
	if (r->type == RECORD_EVENT) {
		sbuf_adds(sb, ",\"coalesced\":");
		sbuf_add_u64(sb, r->coalesced, 1);
	}
	sbuf_adds(sb, "}\n");
}

void overrun_json(struct sbuf *sb, long long lost)
{
	if (lost < 0)
		sbuf_adds(sb, "{\"type\":\"overrun\",\"lost\":null}\n");
	else
		sbuf_printf(sb, "{\"type\":\"overrun\",\"lost\":%lld}\n", lost);
}

void record_text(struct sbuf *sb, const struct record *r)
{
	char readable[UNIT_READABLE_MAX];
	const char *kind = "KEVENT";
	char buf[16];

	if (r->type != RECORD_EVENT)
		kind = "STATE";
	else if (r->source && strcmp(r->source, "uevent") == 0)
		kind = "UEVENT";
	else if (r->source && strcmp(r->source, "poll") == 0)
		kind = "POLL";
	else if (r->source && strcmp(r->source, "rtnetlink") == 0)
		kind = "RTNL";
	else if (r->source && strcmp(r->source, "sample") == 0)
		kind = "SAMPLE";
	sgr(sb, SGR_KIND);
	sbuf_adds(sb, kind);
	sgr(sb, SGR_RESET);
	sbuf_addc(sb, '[');
	if (r->realtime)
		format_time_local(sb, r->time_ns);
	else
		format_time(sb, r->time_ns);
	sbuf_adds(sb, "] ");
	if (r->type == RECORD_EVENT && r->no_seq)
		sbuf_adds(sb, "- ");
	else if (r->type == RECORD_EVENT)
		sbuf_printf(sb, "%llu ", (unsigned long long)r->seq);
	c_escape_str(sb, r->cls ? r->cls : "-");
	sbuf_addc(sb, ' ');
	c_escape_str(sb, r->path);
	sbuf_addc(sb, ' ');
	sgr(sb, SGR_ATTR);
	c_escape_str(sb, r->attr);
	sgr(sb, SGR_RESET);
	sbuf_addc(sb, '=');
	if (r->error) {
		sgr(sb, SGR_ERROR);
		sbuf_printf(sb, "<error: %s>", errno_name(r->error, buf));
		sgr(sb, SGR_RESET);
	} else {
		c_escape(sb, r->value, r->value_len);
		if (r->unit) {
			sbuf_addc(sb, ' ');
			c_escape_str(sb, r->unit);
		}
		if (r->unit && text_style.units &&
		    unit_readable(r->unit, r->value, r->value_len,
				  text_style.utf8, readable))
			sbuf_printf(sb, " (%s)", readable);
	}
	if (r->subsystem) {
		sbuf_adds(sb, " (");
		c_escape_str(sb, r->subsystem);
		sbuf_addc(sb, ')');
	}
	if (r->type == RECORD_EVENT && r->coalesced)
		sbuf_printf(sb, " coalesced=%u", r->coalesced);
	sbuf_addc(sb, '\n');
}

void overrun_text(struct sbuf *sb, long long lost)
{
	sgr(sb, SGR_OVERRUN);
	if (lost < 0)
		sbuf_adds(sb, "OVERRUN lost=unknown");
	else
		sbuf_printf(sb, "OVERRUN lost=%lld", lost);
	sgr(sb, SGR_RESET);
	sbuf_addc(sb, '\n');
}

/* The placeholders of a field, which %q may quote; and all of them */
#define FORMAT_FIELDS "stcpavuSe"
static const char format_fields[] = FORMAT_FIELDS;
static const char format_placeholders[] = FORMAT_FIELDS "%";
static const char format_escapes[] = "nt\\";

/* The placeholder at @p, just after a '%'. Return: 0, or -1 with @err set. */
static int format_check_placeholder(const char *p, char *err, size_t errlen)
{
	if (!p[0]) {
		snprintf(err, errlen,
			 "--format: '%%' at the end (write %%%% for a percent sign)");
		return -1;
	}
	if (p[0] == 'q') {
		if (!p[1]) {
			snprintf(err, errlen,
				 "--format: '%%q' at the end (write %%qp for the path, quoted)");
			return -1;
		}
		if (!strchr(format_fields, p[1])) {
			snprintf(err, errlen,
				 "--format: unknown placeholder '%%q%c'", p[1]);
			return -1;
		}
		return 0;
	}
	if (!strchr(format_placeholders, p[0])) {
		snprintf(err, errlen, "--format: unknown placeholder '%%%c'",
			 p[0]);
		return -1;
	}
	return 0;
}

int format_check(const char *fmt, char *err, size_t errlen)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p == '%') {
			if (format_check_placeholder(p + 1, err, errlen) < 0)
				return -1;
			p += p[1] == 'q' ? 2 : 1;
		} else if (*p == '\\') {
			if (!p[1]) {
				snprintf(
					err, errlen,
					"--format: '\\' at the end (write \\\\ for a backslash)");
				return -1;
			}
			if (!strchr(format_escapes, p[1])) {
				snprintf(err, errlen,
					 "--format: unknown escape '\\%c'",
					 p[1]);
				return -1;
			}
			p++;
		}
	}
	return 0;
}

static void c_escape_opt(struct sbuf *sb, const char *s)
{
	if (s)
		c_escape_str(sb, s);
}

/*
 * Bytes that a shell word carries as they are: letters, digits, a few
 * punctuation marks no shell acts on, and the bytes of non-ASCII UTF-8
 * (c_escape() leaves only printable characters there, and the shell splits
 * words at ASCII blanks only).
 */
static bool shell_plain(unsigned char c)
{
	return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("-_./:,+@%=", c));
}

/*
 * Quote for the shell the field that fills the buffer from @start: a
 * backslash before each byte that is not shell_plain(), in place. Both read
 * (without -r) and eval then give back the field, as one word. An empty
 * field stays empty: read would keep '' as two characters, and gives the
 * last variable an empty value anyway, as eval does to an assignment.
 */
static void shell_quote_from(struct sbuf *sb, size_t start)
{
	size_t extra = 0, i, j;
	char c;

	if (sb->oom)
		return;
	for (i = start; i < sb->len; i++)
		if (!shell_plain(sb->buf[i]))
			extra++;
	if (!extra || !sbuf_reserve(sb, extra))
		return;
	/* From the end, so that each byte moves once */
	i = sb->len;
	sb->len += extra;
	sb->buf[sb->len] = '\0';
	for (j = sb->len; i > start;) {
		c = sb->buf[--i];
		sb->buf[--j] = c;
		if (!shell_plain(c))
			sb->buf[--j] = '\\';
	}
}

/* Expand field placeholder @c (one of FORMAT_FIELDS) for @r. */
static void format_field(struct sbuf *sb, char c, const struct record *r)
{
	char buf[16];

	switch (c) {
	case 's':
		if (r->type == RECORD_EVENT && !r->no_seq)
			sbuf_printf(sb, "%llu", (unsigned long long)r->seq);
		break;
	case 't':
		format_time(sb, r->time_ns);
		break;
	case 'c':
		c_escape_opt(sb, r->cls);
		break;
	case 'p':
		c_escape_opt(sb, r->path);
		break;
	case 'a':
		c_escape_opt(sb, r->attr);
		break;
	case 'v':
		if (!r->error)
			c_escape(sb, r->value, r->value_len);
		break;
	case 'u':
		c_escape_opt(sb, r->unit);
		break;
	case 'S':
		c_escape_opt(sb, r->subsystem);
		break;
	case 'e':
		if (r->error)
			sbuf_adds(sb, errno_name(r->error, buf));
		break;
	default:
		sbuf_addc(sb, '%');
		sbuf_addc(sb, c);
		break;
	}
}

void format_expand(struct sbuf *sb, const char *fmt, const struct record *r)
{
	const char *p;
	size_t start;

	for (p = fmt; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			sbuf_addc(sb, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
			continue;
		}
		if (*p != '%' || !p[1]) {
			sbuf_addc(sb, *p);
			continue;
		}
		p++;
		if (*p == '%') {
			sbuf_addc(sb, '%');
		} else if (*p == 'q' && p[1] && strchr(format_fields, p[1])) {
			p++;
			start = sb->len;
			format_field(sb, *p, r);
			shell_quote_from(sb, start);
		} else {
			format_field(sb, *p, r);
		}
	}
	sbuf_addc(sb, '\n');
}
