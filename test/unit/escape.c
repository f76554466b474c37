// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kevent-watch's escaping of hostile strings: characters a
 * terminal acts on (C1 controls, bidi overrides) in text, --format and
 * JSON output, and the shell-quoted fields of --format (%q).
 */
#include <errno.h>
#include <string.h>

#include "output.h"
#include "unit.h"

/*
 * Results of the helpers below, valid until the next call of the same one;
 * each test frees them at its end (free_results()).
 */
static struct sbuf text_sb, json_sb, line_sb;

static void free_results(void)
{
	sbuf_free(&text_sb);
	sbuf_free(&json_sb);
	sbuf_free(&line_sb);
}

static const char *text(const char *s)
{
	sbuf_free(&text_sb);
	c_escape(&text_sb, s, strlen(s));
	return sbuf_str(&text_sb);
}

static const char *json(const char *s)
{
	sbuf_free(&json_sb);
	json_escape(&json_sb, s, strlen(s));
	return sbuf_str(&json_sb);
}

static const char *expand(const char *fmt, const struct record *r)
{
	sbuf_free(&line_sb);
	format_expand(&line_sb, fmt, r);
	return sbuf_str(&line_sb);
}

static const char *line(const struct record *r)
{
	sbuf_free(&line_sb);
	record_text(&line_sb, r);
	return sbuf_str(&line_sb);
}

/* format_check() of @fmt fails with a message that contains @want_err */
static bool format_refused(const char *fmt, const char *want_err)
{
	char err[256] = "";

	return format_check(fmt, err, sizeof(err)) == -1 &&
	       strstr(err, want_err) && strstr(err, "--format");
}

/*
 * UTF-8 of U+009B (CSI on the Linux console), U+202E (right-to-left
 * override) and U+2066 (left-to-right isolate).
 */
#define CSI "\xc2\x9b"
#define RLO "\xe2\x80\xae"
#define LRI "\xe2\x81\xa6"

UNIT_TEST(test_c_escape_c1_and_bidi)
{
	/* C1 controls, U+0080 to U+009F: each UTF-8 byte as \xHH */
	CHECK_STR(text("\xc2\x80"), "\\xc2\\x80");
	CHECK_STR(text(CSI "31m"), "\\xc2\\x9b31m");
	CHECK_STR(text("a\xc2\x85z"), "a\\xc2\\x85z");
	CHECK_STR(text("\xc2\x9f"), "\\xc2\\x9f");
	/* Bidi embeddings, overrides and isolates */
	CHECK_STR(text("\xe2\x80\xaa"), "\\xe2\\x80\\xaa");
	CHECK_STR(text("evil" RLO "gpj.exe"), "evil\\xe2\\x80\\xaegpj.exe");
	CHECK_STR(text(LRI), "\\xe2\\x81\\xa6");
	CHECK_STR(text("\xe2\x81\xa9"), "\\xe2\\x81\\xa9");
	/* Their neighbours are printable, and pass */
	CHECK_STR(text("\xc2\xa0"), "\xc2\xa0"); /* U+00A0 */
	CHECK_STR(text("\xc2\xa9"), "\xc2\xa9"); /* U+00A9 */
	CHECK_STR(text("\xe2\x80\xa9"), "\xe2\x80\xa9"); /* U+2029 */
	CHECK_STR(text("\xe2\x80\xaf"), "\xe2\x80\xaf"); /* U+202F */
	CHECK_STR(text("\xe2\x81\xa5"), "\xe2\x81\xa5"); /* U+2065 */
	CHECK_STR(text("\xe2\x81\xaa"), "\xe2\x81\xaa"); /* U+206A */
	CHECK_STR(text("t\xc3\xa9 \xe2\x84\x83"), "t\xc3\xa9 \xe2\x84\x83");
	free_results();
}

UNIT_TEST(test_json_escape_c1_and_bidi)
{
	/* Valid RFC 8259 either way; escaped, a terminal shows them */
	CHECK_STR(json("\xc2\x80"), "\\u0080");
	CHECK_STR(json(CSI "31m"), "\\u009b31m");
	CHECK_STR(json("\xc2\x9f"), "\\u009f");
	CHECK_STR(json("\xe2\x80\xaa"), "\\u202a");
	CHECK_STR(json("evil" RLO "gpj.exe"), "evil\\u202egpj.exe");
	CHECK_STR(json(LRI "x\xe2\x81\xa9"), "\\u2066x\\u2069");
	CHECK_STR(json("\xc2\xa0"), "\xc2\xa0");
	CHECK_STR(json("\xe2\x80\xa9"), "\xe2\x80\xa9");
	CHECK_STR(json("\xe2\x80\xaf"), "\xe2\x80\xaf");
	CHECK_STR(json("\xe2\x81\xa5"), "\xe2\x81\xa5");
	CHECK_STR(json("\xe2\x81\xaa"), "\xe2\x81\xaa");
	free_results();
}

UNIT_TEST(test_lines_escape_c1_and_bidi)
{
	struct record r = unit_event_record;

	r.path = "/devices/pci0000:00/usb1/1-1/power_supply/hid-" CSI
		 "2J" RLO "-battery";
	r.attr = "label";
	r.value = "sensor " LRI "0\n";
	r.value_len = strlen(r.value);
	r.unit = NULL;
	r.coalesced = 0;
	CHECK_STR(line(&r),
		  "KEVENT[123.456789] 42 power /devices/pci0000:00/usb1/1-1/"
		  "power_supply/hid-\\xc2\\x9b2J\\xe2\\x80\\xae-battery "
		  "label=sensor \\xe2\\x81\\xa60\\n (platform)\n");
	CHECK_STR(expand("%p %a=%v", &r),
		  "/devices/pci0000:00/usb1/1-1/power_supply/hid-\\xc2\\x9b2J"
		  "\\xe2\\x80\\xae-battery label=sensor \\xe2\\x81\\xa60\\n\n");
	free_results();
}

UNIT_TEST(test_format_quoted_check)
{
	char err[256];

	CHECK(format_check("%qs %qt %qc %qp %qa %qv %qu %qS %qe", err,
			   sizeof(err)) == 0);
	CHECK(format_check("%qp%%q", err, sizeof(err)) == 0);
	CHECK(format_refused("%q", "'%q' at the end"));
	CHECK(format_refused("a %q%", "unknown placeholder '%q%'"));
	CHECK(format_refused("%qq", "unknown placeholder '%qq'"));
	CHECK(format_refused("%qx %p", "unknown placeholder '%qx'"));
	free_results();
}

UNIT_TEST(test_format_quoted_fields)
{
	struct record r = unit_event_record;

	/* Nothing to quote: the same as without q */
	CHECK_STR(expand("%qs %qt %qc %qp %qa %qv %qu %qS", &r),
		  "42 123.456789 power /devices/platform/kevent-demo.0 "
		  "temperature 47000 mdegC platform\n");

	/* A space, as in a real platform device's name: one word */
	r.path = "/devices/platform/Fixed MDIO bus.0";
	CHECK_STR(expand("%qp %v", &r),
		  "/devices/platform/Fixed\\ MDIO\\ bus.0 47000\n");
	CHECK_STR(expand("%p %v", &r), "/devices/platform/Fixed MDIO bus.0 47000\n");

	/* What the shell would act on has a backslash before it */
	r.value = "a'b\"c$d`e;f&g|h*i?j[k]l(m)n<o>p{q}r#s!t^u~v w";
	r.value_len = strlen(r.value);
	CHECK_STR(expand("%qv", &r),
		  "a\\'b\\\"c\\$d\\`e\\;f\\&g\\|h\\*i\\?j\\[k\\]l\\(m\\)n\\<o"
		  "\\>p\\{q\\}r\\#s\\!t\\^u\\~v\\ w\n");
	/* and what is safe has none */
	r.value = "-_./:,+@%=09AZaz";
	r.value_len = strlen(r.value);
	CHECK_STR(expand("%qv", &r), "-_./:,+@%=09AZaz\n");

	/*
	 * The C-style escapes of %v come first, then their backslashes are
	 * quoted: the shell's reading gives back the text of %v.
	 */
	r.value = "tab\there\\" CSI "\x01";
	r.value_len = strlen(r.value);
	CHECK_STR(expand("%v", &r), "tab\\there\\\\\\xc2\\x9b\\x01\n");
	CHECK_STR(expand("%qv", &r),
		  "tab\\\\there\\\\\\\\\\\\xc2\\\\x9b\\\\x01\n");
	/* Non-ASCII text passes */
	r.value = "t\xc3\xa9 \xe6\x97\xa5";
	r.value_len = strlen(r.value);
	CHECK_STR(expand("%qv", &r), "t\xc3\xa9\\ \xe6\x97\xa5\n");

	/* An empty field stays empty: read would keep '' as two characters */
	r.value = NULL;
	r.value_len = 0;
	r.error = ENODEV;
	r.unit = NULL;
	CHECK_STR(expand("%qv|%qe|%qu|%e", &r), "|ENODEV||ENODEV\n");
	r.type = RECORD_STATE;
	CHECK_STR(expand("[%qs]", &r), "[]\n");
	free_results();
}
