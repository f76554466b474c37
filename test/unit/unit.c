// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of libkevent internals and kevent-watch's output and options.
 * Prints one line per failed check and per failed or skipped test, and ends
 * with "unit: N tests passed, N failed, N skipped; N checks passed, N failed".
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libmnl/libmnl.h>

#include "kevent-private.h"
#include "options.h"
#include "output.h"
#include "unit.h"

unsigned int unit_passed, unit_failed;

/* Tests passed, failed and skipped; the test running skipped itself */
static unsigned int tests_passed, tests_failed, tests_skipped;
static bool test_skipped;

static struct unit_test *registered, **registered_tail = &registered;

/* Run the test @fn, called @name, and count it by its checks' results. */
void unit_run(const char *name, void (*fn)(void))
{
	unsigned int failed = unit_failed;

	test_skipped = false;
	fn();
	if (unit_failed != failed) {
		tests_failed++;
		printf("FAIL test %s\n", name);
	} else if (test_skipped) {
		tests_skipped++;
	} else {
		tests_passed++;
	}
}

/* The test running cannot run here, for @reason: it counts as skipped. */
void unit_skip(const char *reason)
{
	test_skipped = true;
	printf("skip: %s\n", reason);
}

/* Called before main(): keep the tests in the order the linker ran them. */
void unit_register(struct unit_test *test)
{
	*registered_tail = test;
	registered_tail = &test->next;
}

void unit_run_registered(void)
{
	struct unit_test *t;

	for (t = registered; t; t = t->next)
		unit_run(t->name, t->run);
}

/* Results of the helpers below, valid until the next call. */
static struct sbuf json_sb, cesc_sb, expand_sb;

static const char *json(const char *s, size_t len)
{
	struct sbuf *sb = &json_sb;

	sbuf_free(sb);
	json_escape(sb, s, len);
	return sbuf_str(sb);
}

static const char *cesc(const char *s, size_t len)
{
	struct sbuf *sb = &cesc_sb;

	sbuf_free(sb);
	c_escape(sb, s, len);
	return sbuf_str(sb);
}

#define J(lit) json(lit, sizeof(lit) - 1)
#define C(lit) cesc(lit, sizeof(lit) - 1)

static void test_json_escape(void)
{
	CHECK_STR(J(""), "");
	CHECK_STR(J("47000"), "47000");
	CHECK_STR(J("say \"hi\""), "say \\\"hi\\\"");
	CHECK_STR(J("a\\b"), "a\\\\b");
	CHECK_STR(J("a\tb\nc\rd"), "a\\tb\\nc\\rd");
	CHECK_STR(J("\b\f"), "\\b\\f");
	CHECK_STR(J("\x01\x1f"), "\\u0001\\u001f");
	CHECK_STR(J("a\0b"), "a\\u0000b");
	CHECK_STR(J("\x7f"), "\\u007f");
	CHECK_STR(J("/"), "/");
	/* Valid UTF-8 passes through: 2, 3 and 4 byte sequences. */
	CHECK_STR(J("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* Invalid bytes become \u00XX of the byte. */
	CHECK_STR(J("\xff"), "\\u00ff");
	CHECK_STR(J("a\x80z"), "a\\u0080z");
	CHECK_STR(J("\xc0\x80"), "\\u00c0\\u0080"); /* overlong NUL */
	CHECK_STR(J("\xe2\x82"), "\\u00e2\\u0082"); /* truncated */
	CHECK_STR(J("\xed\xa0\x80"), "\\u00ed\\u00a0\\u0080"); /* surrogate */
	CHECK_STR(J("\xf4\x90\x80\x80"),
		  "\\u00f4\\u0090\\u0080\\u0080"); /* above U+10FFFF */
	CHECK_STR(J("\xc3("), "\\u00c3("); /* bad continuation */
}

static void test_c_escape(void)
{
	CHECK_STR(C(""), "");
	CHECK_STR(C("sensor 0"), "sensor 0");
	CHECK_STR(C("a\tb\nc"), "a\\tb\\nc");
	CHECK_STR(C("back\\slash"), "back\\\\slash");
	CHECK_STR(C("cr\r"), "cr\\r");
	CHECK_STR(C("\x01\x1b[31m"), "\\x01\\x1b[31m");
	CHECK_STR(C("a\0b"), "a\\x00b");
	CHECK_STR(C("\x7f"), "\\x7f");
	CHECK_STR(C("\"quoted\""), "\"quoted\"");
	CHECK_STR(C("caf\xc3\xa9 \xe2\x82\xac"), "caf\xc3\xa9 \xe2\x82\xac");
	CHECK_STR(C("\xff\xfe"), "\\xff\\xfe");
	CHECK_STR(C("\xc0\xaf"), "\\xc0\\xaf");
}

static void test_errno_name(void)
{
	char buf[16];

	CHECK_STR(errno_name(EACCES, buf), "EACCES");
	CHECK_STR(errno_name(ENOENT, buf), "ENOENT");
	CHECK_STR(errno_name(ENODEV, buf), "ENODEV");
	CHECK_STR(errno_name(EXDEV, buf), "EXDEV");
	CHECK_STR(errno_name(EPERM, buf), "EPERM");
	CHECK_STR(errno_name(ENXIO, buf), "ENXIO");
	CHECK_STR(errno_name(EIO, buf), "EIO");
	CHECK_STR(errno_name(ENODATA, buf), "ENODATA");
	CHECK_STR(errno_name(EOPNOTSUPP, buf), "EOPNOTSUPP");
	CHECK_STR(errno_name(ETIMEDOUT, buf), "ETIMEDOUT");
	CHECK_STR(errno_name(ELOOP, buf), "ELOOP");
	CHECK_STR(errno_name(ENAMETOOLONG, buf), "ENAMETOOLONG");
	CHECK_STR(errno_name(EFBIG, buf), "EFBIG");
	/* Every errno the C library knows, not a list kept by hand */
	CHECK_STR(errno_name(ENOTEMPTY, buf), "ENOTEMPTY");
	CHECK_STR(errno_name(EHWPOISON, buf), "EHWPOISON");
	CHECK_STR(errno_name(EAGAIN, buf), "EAGAIN");
	CHECK_STR(errno_name(4242, buf), "E4242");
	CHECK_STR(errno_name(-5, buf), "E-5");
	CHECK_STR(errno_name(0, buf), "E0");
}

/* The event record the tests of the output start from */
const struct record unit_event_record = {
	.type = RECORD_EVENT,
	.source = "kevent",
	.seq = 42,
	.time_ns = 123456789012ULL,
	.cls = "power",
	.path = "/devices/platform/kevent-demo.0",
	.attr = "temperature",
	.value = "47000",
	.value_len = 5,
	.unit = "mdegC",
	.subsystem = "platform",
	.coalesced = 3,
};

static void test_records(void)
{
	struct record r = unit_event_record;
	struct sbuf sb = { 0 };

	format_time(&sb, 0);
	CHECK_STR(sbuf_str(&sb), "0.000000");
	sbuf_reset(&sb);
	format_time(&sb, 5000000999ULL);
	CHECK_STR(sbuf_str(&sb), "5.000000");
	sbuf_reset(&sb);
	format_time(&sb, 18446744073709551615ULL);
	CHECK_STR(sbuf_str(&sb), "18446744073.709551");
	sbuf_reset(&sb);
	format_time(&sb, 1234567000ULL);
	CHECK_STR(sbuf_str(&sb), "1.234567");
	sbuf_reset(&sb);
	sbuf_add_u64(&sb, 0, 1);
	sbuf_addc(&sb, ' ');
	sbuf_add_u64(&sb, 18446744073709551615ULL, 1);
	sbuf_addc(&sb, ' ');
	sbuf_add_u64(&sb, 42, 6);
	sbuf_addc(&sb, ' ');
	sbuf_add_u64(&sb, 1234567, 3);
	CHECK_STR(sbuf_str(&sb), "0 18446744073709551615 000042 1234567");
	sbuf_reset(&sb);

	record_json(&sb, &r);
	CHECK_STR(
		sbuf_str(&sb),
		"{\"type\":\"event\",\"source\":\"kevent\",\"seq\":42,"
		"\"time\":123.456789,"
		"\"class\":\"power\",\"path\":\"/devices/platform/kevent-demo.0\","
		"\"attr\":\"temperature\",\"value\":\"47000\",\"unit\":\"mdegC\","
		"\"subsystem\":\"platform\",\"coalesced\":3}\n");
	sbuf_reset(&sb);

	record_text(&sb, &r);
	CHECK_STR(sbuf_str(&sb),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=47000 mdegC (platform) coalesced=3\n");
	sbuf_reset(&sb);

	r.value = NULL;
	r.value_len = 0;
	r.error = EACCES;
	r.unit = NULL;
	r.subsystem = NULL;
	r.coalesced = 0;
	record_json(&sb, &r);
	CHECK_STR(
		sbuf_str(&sb),
		"{\"type\":\"event\",\"source\":\"kevent\",\"seq\":42,"
		"\"time\":123.456789,"
		"\"class\":\"power\",\"path\":\"/devices/platform/kevent-demo.0\","
		"\"attr\":\"temperature\",\"value\":null,\"error\":\"EACCES\","
		"\"unit\":null,\"subsystem\":null,\"coalesced\":0}\n");
	sbuf_reset(&sb);

	record_text(&sb, &r);
	CHECK_STR(sbuf_str(&sb),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=<error: EACCES>\n");
	sbuf_reset(&sb);

	r = unit_event_record;
	r.type = RECORD_STATE;
	r.attr = "label";
	r.value = "line\n\"two\"";
	r.value_len = strlen(r.value);
	r.unit = NULL;
	record_json(&sb, &r);
	CHECK_STR(
		sbuf_str(&sb),
		"{\"type\":\"state\",\"source\":\"kevent\",\"time\":123.456789,"
		"\"class\":\"power\",\"path\":\"/devices/platform/kevent-demo.0\","
		"\"attr\":\"label\",\"value\":\"line\\n\\\"two\\\"\",\"unit\":null,"
		"\"subsystem\":\"platform\"}\n");
	sbuf_reset(&sb);

	record_text(&sb, &r);
	CHECK_STR(sbuf_str(&sb),
		  "STATE[123.456789] power /devices/platform/kevent-demo.0 "
		  "label=line\\n\"two\" (platform)\n");
	sbuf_reset(&sb);

	/* Stock sources: their own text prefix; no class; poll: no seq */
	r = unit_event_record;
	r.source = "uevent";
	r.cls = NULL;
	r.path = "/devices/platform/kevent-demo.0/hwmon/hwmon1";
	r.attr = "temp1_alarm";
	r.value = "1";
	r.value_len = 1;
	r.unit = NULL;
	r.subsystem = "hwmon";
	r.coalesced = 0;
	record_json(&sb, &r);
	CHECK_STR(
		sbuf_str(&sb),
		"{\"type\":\"event\",\"source\":\"uevent\",\"seq\":42,"
		"\"time\":123.456789,\"class\":null,"
		"\"path\":\"/devices/platform/kevent-demo.0/hwmon/hwmon1\","
		"\"attr\":\"temp1_alarm\",\"value\":\"1\",\"unit\":null,"
		"\"subsystem\":\"hwmon\",\"coalesced\":0}\n");
	sbuf_reset(&sb);
	record_text(&sb, &r);
	CHECK_STR(sbuf_str(&sb),
		  "UEVENT[123.456789] 42 - "
		  "/devices/platform/kevent-demo.0/hwmon/hwmon1 "
		  "temp1_alarm=1 (hwmon)\n");
	sbuf_reset(&sb);
	r.source = "poll";
	r.no_seq = true;
	r.seq = 0;
	r.subsystem = NULL;
	record_json(&sb, &r);
	CHECK_STR(
		sbuf_str(&sb),
		"{\"type\":\"event\",\"source\":\"poll\",\"seq\":null,"
		"\"time\":123.456789,\"class\":null,"
		"\"path\":\"/devices/platform/kevent-demo.0/hwmon/hwmon1\","
		"\"attr\":\"temp1_alarm\",\"value\":\"1\",\"unit\":null,"
		"\"subsystem\":null,\"coalesced\":0}\n");
	sbuf_reset(&sb);
	record_text(&sb, &r);
	CHECK_STR(sbuf_str(&sb),
		  "POLL[123.456789] - - "
		  "/devices/platform/kevent-demo.0/hwmon/hwmon1 "
		  "temp1_alarm=1\n");
	sbuf_reset(&sb);
	format_expand(&sb, "[%s|%c|%a]", &r);
	CHECK_STR(sbuf_str(&sb), "[||temp1_alarm]\n");
	sbuf_reset(&sb);

	overrun_json(&sb, -1);
	CHECK_STR(sbuf_str(&sb), "{\"type\":\"overrun\",\"lost\":null}\n");
	sbuf_reset(&sb);
	overrun_json(&sb, 7);
	CHECK_STR(sbuf_str(&sb), "{\"type\":\"overrun\",\"lost\":7}\n");
	sbuf_reset(&sb);
	overrun_text(&sb, -1);
	CHECK_STR(sbuf_str(&sb), "OVERRUN lost=unknown\n");
	sbuf_reset(&sb);
	overrun_text(&sb, 3);
	CHECK_STR(sbuf_str(&sb), "OVERRUN lost=3\n");

	sbuf_free(&sb);
}

static void test_value_trim(void)
{
	CHECK(value_trim("25000\n", 6) == 5);
	CHECK(value_trim("25000", 5) == 5);
	CHECK(value_trim("a\n\n", 3) == 2);
	CHECK(value_trim("\n", 1) == 0);
	CHECK(value_trim("", 0) == 0);
}

static const char *expand(const char *fmt, const struct record *r)
{
	struct sbuf *sb = &expand_sb;

	sbuf_free(sb);
	format_expand(sb, fmt, r);
	return sbuf_str(sb);
}

static bool format_ok(const char *fmt, const char *want_err)
{
	char err[256] = "";
	int r = format_check(fmt, err, sizeof(err));

	if (!want_err)
		return r == 0;
	return r == -1 && strstr(err, want_err) && strstr(err, "--format");
}

static void test_format(void)
{
	struct record r = unit_event_record;

	CHECK(format_ok("%s %t %c %p %a %v %u %S %e %%", NULL));
	CHECK(format_ok("plain text", NULL));
	CHECK(format_ok("", NULL));
	CHECK(format_ok("\\n\\t\\\\", NULL));
	CHECK(format_ok("%x", "unknown placeholder '%x'"));
	CHECK(format_ok("value %V", "unknown placeholder '%V'"));
	CHECK(format_ok("100%", "'%' at the end"));
	CHECK(format_ok("a\\q", "unknown escape '\\q'"));
	CHECK(format_ok("a\\", "'\\' at the end"));

	CHECK_STR(expand("%s %t %c %p %a=%v %u %S [%e]", &r),
		  "42 123.456789 power /devices/platform/kevent-demo.0 "
		  "temperature=47000 mdegC platform []\n");
	CHECK_STR(expand("100%% %a\\t%v\\n", &r),
		  "100% temperature\t47000\n\n");
	CHECK_STR(expand("a\\\\b", &r), "a\\b\n");
	CHECK_STR(expand("", &r), "\n");

	r.value = "tab\there\x01";
	r.value_len = strlen(r.value);
	CHECK_STR(expand("%v", &r), "tab\\there\\x01\n");

	r.value = NULL;
	r.value_len = 0;
	r.error = ENODEV;
	r.unit = NULL;
	r.subsystem = NULL;
	CHECK_STR(expand("%a=%v|%e|%u|%S", &r), "temperature=|ENODEV||\n");

	r.type = RECORD_STATE;
	CHECK_STR(expand("[%s]", &r), "[]\n");
}

static void test_parse_values(void)
{
	char err[256];
	uint64_t n = 0;
	int64_t ms = 0;
	unsigned int mask = 0;
	size_t size = 0;

	CHECK(parse_count("1", &n, err, sizeof(err)) == 0 && n == 1);
	CHECK(parse_count("250", &n, err, sizeof(err)) == 0 && n == 250);
	CHECK(parse_count("0", &n, err, sizeof(err)) == -1);
	CHECK(parse_count("-1", &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--count") && strstr(err, "'-1'"));
	CHECK(parse_count("x", &n, err, sizeof(err)) == -1);
	CHECK(parse_count("", &n, err, sizeof(err)) == -1);
	CHECK(parse_count("3x", &n, err, sizeof(err)) == -1);
	CHECK(parse_count(" 3", &n, err, sizeof(err)) == -1);
	CHECK(parse_count("+3", &n, err, sizeof(err)) == -1);
	CHECK(parse_count("99999999999999999999999", &n, err, sizeof(err)) ==
	      -1);

	CHECK(parse_timeout("0", &ms, err, sizeof(err)) == 0 && ms == 0);
	CHECK(parse_timeout("2", &ms, err, sizeof(err)) == 0 && ms == 2000);
	CHECK(parse_timeout("0.5", &ms, err, sizeof(err)) == 0 && ms == 500);
	CHECK(parse_timeout("1.25", &ms, err, sizeof(err)) == 0 && ms == 1250);
	/* The durations of --sample: a unit after the number */
	CHECK(parse_timeout("500ms", &ms, err, sizeof(err)) == 0 && ms == 500);
	CHECK(parse_timeout("2s", &ms, err, sizeof(err)) == 0 && ms == 2000);
	CHECK(parse_timeout("1.5m", &ms, err, sizeof(err)) == 0 &&
	      ms == 90000);
	CHECK(parse_timeout("1h", &ms, err, sizeof(err)) == 0 &&
	      ms == 3600000);
	CHECK(parse_timeout("0ms", &ms, err, sizeof(err)) == 0 && ms == 0);
	CHECK(parse_timeout("0.5ms", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("2 s", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("2sec", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("-1", &ms, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--timeout") && strstr(err, "'-1'"));
	CHECK(parse_timeout("x", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("1.", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout(".5", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("1.2345", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("1e3", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("nan", &ms, err, sizeof(err)) == -1);
	CHECK(parse_timeout("99999999999", &ms, err, sizeof(err)) == -1);

	CHECK(parse_rcvbuf("4096", &size, err, sizeof(err)) == 0 &&
	      size == 4096);
	CHECK(parse_rcvbuf("1", &size, err, sizeof(err)) == 0 && size == 1);
	CHECK(parse_rcvbuf("256K", &size, err, sizeof(err)) == 0 &&
	      size == 256 * 1024);
	CHECK(parse_rcvbuf("8m", &size, err, sizeof(err)) == 0 &&
	      size == 8 * 1024 * 1024);
	CHECK(parse_rcvbuf("2147483647", &size, err, sizeof(err)) == 0 &&
	      size == 2147483647);
	CHECK(parse_rcvbuf("2047M", &size, err, sizeof(err)) == 0 &&
	      size == 2047ul * 1024 * 1024);
	CHECK(parse_rcvbuf("0", &size, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--rcvbuf") && strstr(err, "'0'"));
	CHECK(parse_rcvbuf("-1", &size, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--rcvbuf") && strstr(err, "'-1'"));
	CHECK(parse_rcvbuf("x", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("", &size, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--rcvbuf") && strstr(err, "''"));
	CHECK(parse_rcvbuf("0K", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("K", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("4KB", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("4G", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf(" 4", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("+4", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("1.5M", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("2147483648", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("2048M", &size, err, sizeof(err)) == -1);
	CHECK(parse_rcvbuf("99999999999999999999999", &size, err,
			   sizeof(err)) == -1);

	CHECK(parse_classes("power", &mask, err, sizeof(err)) == 0 &&
	      mask == 1u << KEVENT_CLASS_POWER);
	CHECK(parse_classes("power,net", &mask, err, sizeof(err)) == 0 &&
	      mask == (1u << KEVENT_CLASS_POWER | 1u << KEVENT_CLASS_NET));
	CHECK(parse_classes("general,storage,power,fs,hotplug,net", &mask, err,
			    sizeof(err)) == 0 &&
	      mask == 0x3f);
	CHECK(parse_classes("bogus", &mask, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--class") && strstr(err, "'bogus'"));
	CHECK(parse_classes("power,", &mask, err, sizeof(err)) == -1);
	CHECK(parse_classes("", &mask, err, sizeof(err)) == -1);
	CHECK(parse_classes("Power", &mask, err, sizeof(err)) == -1);
}

int unit_parse_args(struct watch_options *o, char *err, size_t errlen,
		    const char *const *args)
{
	char *argv[16];
	int argc = 0, r;

	argv[argc++] = "kevent-watch";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	r = watch_options_parse(o, argc, argv, err, errlen);
	return r;
}

/* The arguments are refused, with a message that contains @want. */
static bool refused(const char *want, const char *const *args)
{
	struct watch_options o;
	char err[256] = "";
	int r = unit_parse_args(&o, err, sizeof(err), args);
	bool ok = r == -1 && strstr(err, want);

	if (!ok)
		printf("  (message was \"%s\")\n", err);
	watch_options_free(&o);
	return ok;
}

static void test_options(void)
{
	struct watch_options o;
	char err[256];

	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--json")) == 0 && o.json &&
	      !o.format && o.count == 0 && o.timeout_ms == -1 &&
	      o.classes == 0);
	watch_options_free(&o);

	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("--class", "power,net", "--count", "3",
			      "--timeout", "1.5", "--attr", "temp*", "--attr",
			      "label", "--path", "/devices/*", "--subsystem",
			      "platform")) == 0 &&
	      o.classes ==
		      (1u << KEVENT_CLASS_POWER | 1u << KEVENT_CLASS_NET) &&
	      o.count == 3 && o.timeout_ms == 1500 && o.n_attr_globs == 2 &&
	      o.n_path_globs == 1 && o.n_subsystems == 1 &&
	      strcmp(o.attr_globs[1], "label") == 0);
	watch_options_free(&o);

	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("-j", "-n", "1", "-t", "2", "-c", "power")) ==
		      0 &&
	      o.json && o.count == 1 && o.timeout_ms == 2000);
	watch_options_free(&o);

	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--format=%p %v")) == 0 &&
	      o.format && strcmp(o.format, "%p %v") == 0);
	watch_options_free(&o);

	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--list")) == 0 && o.list);
	watch_options_free(&o);

	CHECK(refused("--count", ARGS("--count", "-1")));
	CHECK(refused("--count", ARGS("--count", "x")));
	CHECK(refused("--count", ARGS("--count=0")));
	CHECK(refused("--count: missing value", ARGS("--count")));
	CHECK(refused("--timeout", ARGS("--timeout", "-1")));
	CHECK(refused("--timeout", ARGS("--timeout", "x")));
	CHECK(refused("--timeout: missing value", ARGS("--timeout")));
	CHECK(refused("--class: unknown class 'bogus'",
		      ARGS("--class", "power,bogus")));
	CHECK(refused("--format: unknown placeholder '%x'",
		      ARGS("--format", "%x")));
	CHECK(refused("cannot be used together",
		      ARGS("--json", "--format", "%v")));
	CHECK(refused("unknown option '--bogus'", ARGS("--bogus")));
	CHECK(refused("unknown option '-q'", ARGS("-q")));
	CHECK(refused("--json: takes no value", ARGS("--json=yes")));
	CHECK(refused("unexpected argument 'extra'", ARGS("--json", "extra")));
	CHECK(refused("cannot be used together", ARGS("--list", "--coldplug")));

	/* --poll FILE... takes the file arguments after it, in their order */
	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("--poll", "/sys/a", "/sys/b", "--json",
			      "--poll", "/sys/c", "--uevent")) == 0 &&
	      o.uevent && o.json && o.n_poll_files == 3 &&
	      strcmp(o.poll_files[0], "/sys/a") == 0 &&
	      strcmp(o.poll_files[1], "/sys/b") == 0 &&
	      strcmp(o.poll_files[2], "/sys/c") == 0);
	watch_options_free(&o);
	/* A file is the --poll's or --sample's written last before it */
	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("--poll", "/sys/a", "/sys/b", "--sample", "1s",
			      "/sys/c", "--json", "/sys/d")) == 0 &&
	      o.n_poll_files == 2 && o.n_sample_files == 2 &&
	      strcmp(o.poll_files[1], "/sys/b") == 0 &&
	      strcmp(o.sample_files[0], "/sys/c") == 0 &&
	      strcmp(o.sample_files[1], "/sys/d") == 0);
	watch_options_free(&o);
	/* Before both: the first's */
	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("/sys/a", "--sample", "1s", "--poll",
			      "/sys/b")) == 0 &&
	      o.n_poll_files == 1 && o.n_sample_files == 1 &&
	      strcmp(o.sample_files[0], "/sys/a") == 0 &&
	      strcmp(o.poll_files[0], "/sys/b") == 0);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--uevent")) == 0 &&
	      o.uevent && o.n_poll_files == 0);
	watch_options_free(&o);
	CHECK(refused("--poll: missing value", ARGS("--poll")));
	CHECK(refused("--uevent: takes no value", ARGS("--uevent=1")));
	CHECK(refused("cannot be used with --list",
		      ARGS("--uevent", "--list")));
	CHECK(refused("cannot be used with --list",
		      ARGS("--poll", "/sys/a", "--coldplug")));

	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("--rcvbuf", "4096", "--json")) == 0 &&
	      o.rcvbuf == 4096 && o.json);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--rcvbuf=1M")) == 0 &&
	      o.rcvbuf == 1024 * 1024);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--json")) == 0 &&
	      o.rcvbuf == 0);
	watch_options_free(&o);
	CHECK(refused("--rcvbuf: invalid value '0'", ARGS("--rcvbuf", "0")));
	CHECK(refused("--rcvbuf: invalid value '-1'", ARGS("--rcvbuf", "-1")));
	CHECK(refused("--rcvbuf: invalid value 'x'", ARGS("--rcvbuf", "x")));
	CHECK(refused("--rcvbuf: invalid value ''", ARGS("--rcvbuf", "")));
	CHECK(refused("--rcvbuf: missing value", ARGS("--rcvbuf")));
	CHECK(refused("--rcvbuf is for the kevent layer's events",
		      ARGS("--rcvbuf", "4K", "--uevent")));
	CHECK(refused("--rcvbuf cannot be used with --list",
		      ARGS("--rcvbuf", "4K", "--list")));
	/* --stock lists and watches; --poll adds files to its watch only */
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--stock", "--list")) ==
		      0 &&
	      o.stock && o.list);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("--stock", "--coldplug", "--poll", "/sys/a")) ==
		      0 &&
	      o.stock && o.coldplug && o.n_poll_files == 1);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--json")) == 0 &&
	      !o.stock);
	watch_options_free(&o);
	CHECK(refused("--poll cannot be used with --list",
		      ARGS("--stock", "--list", "--poll", "/sys/a")));
	CHECK(refused("--rcvbuf is for the kevent layer's events: add --kevent",
		      ARGS("--stock", "--rcvbuf", "4K")));
	CHECK(refused("--replay is for the kevent layer's events: add --kevent",
		      ARGS("--stock", "--replay")));
	CHECK(refused("--stock: takes no value", ARGS("--stock=1")));
}

/* --replay[=SEQ] and parse_seq() */
static void test_replay_options(void)
{
	struct watch_options o;
	char err[256];
	uint64_t n = 1;

	CHECK(parse_seq("0", &n, err, sizeof(err)) == 0 && n == 0);
	CHECK(parse_seq("42", &n, err, sizeof(err)) == 0 && n == 42);
	CHECK(parse_seq("18446744073709551615", &n, err, sizeof(err)) == 0 &&
	      n == UINT64_MAX);
	CHECK(parse_seq("18446744073709551616", &n, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--replay") && strstr(err, "'18446744073709551616'"));
	CHECK(parse_seq("", &n, err, sizeof(err)) == -1);
	CHECK(parse_seq("-1", &n, err, sizeof(err)) == -1);
	CHECK(parse_seq("+1", &n, err, sizeof(err)) == -1);
	CHECK(parse_seq("1x", &n, err, sizeof(err)) == -1);
	CHECK(parse_seq(" 1", &n, err, sizeof(err)) == -1);

	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--replay")) == 0 &&
	      o.replay && o.replay_after == 0);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--replay=17", "--json")) ==
		      0 &&
	      o.replay && o.replay_after == 17 && o.json);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err),
			 ARGS("--coldplug", "--replay", "--count", "3")) == 0 &&
	      o.replay && o.coldplug && o.count == 3);
	watch_options_free(&o);
	CHECK(unit_parse_args(&o, err, sizeof(err), ARGS("--json")) == 0 &&
	      !o.replay);
	watch_options_free(&o);

	CHECK(refused("--replay: invalid value 'x'", ARGS("--replay=x")));
	CHECK(refused("--replay: invalid value ''", ARGS("--replay=")));
	/* The value is optional, so it must be attached with '=' */
	CHECK(refused("unexpected argument '5'", ARGS("--replay", "5")));
	CHECK(refused("--replay cannot be used with --list",
		      ARGS("--list", "--replay")));

	/* Checked before the kernel is asked */
	CHECK(kevent_replay_foreach(0, NULL, NULL) == -EINVAL);
}

static void test_path_validation(void)
{
	char *long_path;

	CHECK(kevent_path_is_valid("/devices/platform/kevent-demo.0"));
	CHECK(kevent_path_is_valid("/a"));
	CHECK(kevent_path_is_valid("/devices/.hidden/x..y/..z"));
	CHECK(!kevent_path_is_valid(NULL));
	CHECK(!kevent_path_is_valid(""));
	CHECK(!kevent_path_is_valid("/"));
	CHECK(!kevent_path_is_valid("devices/platform"));
	CHECK(!kevent_path_is_valid("/devices/../etc"));
	CHECK(!kevent_path_is_valid("/.."));
	CHECK(!kevent_path_is_valid("/devices/.."));
	CHECK(!kevent_path_is_valid("/devices/./platform"));
	CHECK(!kevent_path_is_valid("/."));
	CHECK(!kevent_path_is_valid("/devices//platform"));
	CHECK(!kevent_path_is_valid("//devices"));
	CHECK(!kevent_path_is_valid("/devices/"));

	long_path = malloc(KEVENT_PATH_MAX + 1);
	memset(long_path, 'a', KEVENT_PATH_MAX);
	long_path[0] = '/';
	long_path[KEVENT_PATH_MAX - 1] = '\0'; /* KEVENT_PATH_MAX - 1 bytes: fits */
	CHECK(kevent_path_is_valid(long_path));
	long_path[KEVENT_PATH_MAX - 1] = 'a';
	long_path[KEVENT_PATH_MAX] = '\0'; /* KEVENT_PATH_MAX bytes: too long */
	CHECK(!kevent_path_is_valid(long_path));
	free(long_path);

	CHECK(kevent_attr_name_is_valid("temperature"));
	CHECK(!kevent_attr_name_is_valid(NULL));
	CHECK(!kevent_attr_name_is_valid(""));
	CHECK(!kevent_attr_name_is_valid("a/b"));
	CHECK(!kevent_attr_name_is_valid("."));
	CHECK(!kevent_attr_name_is_valid(".."));
	CHECK(kevent_attr_name_is_valid(
		"a23456789012345678901234567890123456789012345678901234567890123"));
	CHECK(!kevent_attr_name_is_valid(
		"a234567890123456789012345678901234567890123456789012345678901234"));
}

static void test_names(void)
{
	CHECK_STR(kevent_class_to_string(KEVENT_CLASS_GENERAL), "general");
	CHECK_STR(kevent_class_to_string(KEVENT_CLASS_NET), "net");
	CHECK(kevent_class_to_string(__KEVENT_CLASS_MAX) == NULL);
	CHECK(kevent_class_from_string("power") == KEVENT_CLASS_POWER);
	CHECK(kevent_class_from_string("hotplug") == KEVENT_CLASS_HOTPLUG);
	CHECK(kevent_class_from_string("nope") == -EINVAL);
	CHECK(kevent_class_from_string(NULL) == -EINVAL);
	CHECK_STR(kevent_attribute_unit("temperature"), "mdegC");
	CHECK_STR(kevent_attribute_unit("mtu"), "bytes");
	CHECK(kevent_attribute_unit("label") == NULL);
	CHECK(kevent_attribute_unit("no_such_attribute") == NULL);
	CHECK(kevent_attribute_unit(NULL) == NULL);
}

/* Build a KEVENT_CMD_EVENT message in @buf. */
static struct nlmsghdr *msg_start(char *buf)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = 0x20;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = KEVENT_CMD_EVENT;
	genl->version = KEVENT_FAMILY_VERSION;
	return nlh;
}

static struct nlmsghdr *msg_event(char *buf, const char *path, const char *attr)
{
	struct nlmsghdr *nlh = msg_start(buf);

	mnl_attr_put_u64(nlh, KEVENT_A_SEQ, 7);
	mnl_attr_put_u64(nlh, KEVENT_A_TIMESTAMP, 1500000000);
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS, KEVENT_CLASS_POWER);
	if (path)
		mnl_attr_put_strz(nlh, KEVENT_A_PATH, path);
	if (attr)
		mnl_attr_put_strz(nlh, KEVENT_A_ATTR_NAME, attr);
	return nlh;
}

static int parse(const struct nlmsghdr *nlh, bool need_seq)
{
	struct kevent_event *ev = NULL;
	int r = kevent_event_parse(nlh, nlh->nlmsg_len, need_seq, &ev);

	kevent_event_unref(ev);
	return r;
}

static void test_event_parse(void)
{
	char buf[8192] __attribute__((aligned(8)));
	struct kevent_event *ev = NULL;
	struct nlmsghdr *nlh;

	nlh = msg_event(buf, "/devices/platform/kevent-demo.0", "temperature");
	mnl_attr_put_u32(nlh, KEVENT_A_ATTR_ID, 0);
	mnl_attr_put_u32(nlh, KEVENT_A_COALESCED, 2);
	mnl_attr_put_u32(nlh, KEVENT_A_MAX + 5, 1); /* unknown: ignored */
	CHECK(kevent_event_parse(nlh, nlh->nlmsg_len, true, &ev) == 0);
	if (ev) {
		CHECK(kevent_event_get_seq(ev) == 7);
		CHECK(kevent_event_get_timestamp(ev) == 1500000000);
		CHECK(kevent_event_get_class(ev) == KEVENT_CLASS_POWER);
		CHECK_STR(kevent_event_get_path(ev),
			  "/devices/platform/kevent-demo.0");
		CHECK_STR(kevent_event_get_attr(ev), "temperature");
		CHECK(kevent_event_get_attr_id(ev) == 0);
		CHECK(kevent_event_get_coalesced(ev) == 2);
		CHECK(kevent_event_ref(ev) == ev);
		CHECK(kevent_event_unref(ev) == NULL);
		CHECK(kevent_event_unref(ev) == NULL);
	}
	CHECK(kevent_event_unref(NULL) == NULL);

	/* Without attribute id: UINT32_MAX. */
	nlh = msg_event(buf, "/devices/x", "label");
	ev = NULL;
	CHECK(kevent_event_parse(nlh, nlh->nlmsg_len, true, &ev) == 0);
	CHECK(ev && kevent_event_get_attr_id(ev) == UINT32_MAX &&
	      kevent_event_get_coalesced(ev) == 0);
	kevent_event_unref(ev);

	/* Missing required attributes. */
	CHECK(parse(msg_event(buf, NULL, "temperature"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", NULL), true) == -EBADMSG);
	nlh = msg_start(buf);
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS, 0);
	mnl_attr_put_strz(nlh, KEVENT_A_PATH, "/devices/x");
	mnl_attr_put_strz(nlh, KEVENT_A_ATTR_NAME, "label");
	CHECK(parse(nlh, true) == -EBADMSG); /* no seq */
	CHECK(parse(nlh, false) == 0); /* a sources record needs none */

	/* Bad paths and names. */
	CHECK(parse(msg_event(buf, "/devices/../../etc", "passwd"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "devices/x", "label"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices//x", "label"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/./x", "label"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", "../label"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", ".."), true) == -EBADMSG);

	/* A string that is not NUL-terminated. */
	nlh = msg_event(buf, NULL, "label");
	mnl_attr_put(nlh, KEVENT_A_PATH, 4, "/abc");
	CHECK(parse(nlh, true) == -EBADMSG);
	/* An embedded NUL. */
	nlh = msg_event(buf, NULL, "label");
	mnl_attr_put(nlh, KEVENT_A_PATH, 6, "/a\0b\0");
	CHECK(parse(nlh, true) == -EBADMSG);
	/* An empty string attribute. */
	nlh = msg_event(buf, NULL, "label");
	mnl_attr_put(nlh, KEVENT_A_PATH, 0, "");
	CHECK(parse(nlh, true) == -EBADMSG);
	/* Oversized attribute name. */
	{
		char name[KEVENT_ATTR_NAME_MAX + 1];

		memset(name, 'a', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		CHECK(parse(msg_event(buf, "/devices/x", name), true) ==
		      -EBADMSG);
	}

	/* Integers of the wrong size, a class out of range. */
	nlh = msg_start(buf);
	mnl_attr_put_u32(nlh, KEVENT_A_SEQ, 7);
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS, 0);
	mnl_attr_put_strz(nlh, KEVENT_A_PATH, "/devices/x");
	mnl_attr_put_strz(nlh, KEVENT_A_ATTR_NAME, "label");
	CHECK(parse(nlh, true) == -EBADMSG);
	nlh = msg_event(buf, "/devices/x", "label");
	mnl_attr_put_u64(nlh, KEVENT_A_COALESCED, 1);
	CHECK(parse(nlh, true) == -EBADMSG);
	nlh = msg_start(buf);
	mnl_attr_put_u64(nlh, KEVENT_A_SEQ, 7);
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS, __KEVENT_CLASS_MAX);
	mnl_attr_put_strz(nlh, KEVENT_A_PATH, "/devices/x");
	mnl_attr_put_strz(nlh, KEVENT_A_ATTR_NAME, "label");
	CHECK(parse(nlh, true) == -EBADMSG);

	/* The per-class sequence number: taken when sent, 0 when not. */
	nlh = msg_event(buf, "/devices/x", "label");
	mnl_attr_put_u64(nlh, KEVENT_A_CLASS_SEQ, 12345678901ULL);
	ev = NULL;
	CHECK(kevent_event_parse(nlh, nlh->nlmsg_len, true, &ev) == 0);
	CHECK(ev && kevent_event_get_class_seq(ev) == 12345678901ULL &&
	      kevent_event_get_lost(ev) == 0);
	kevent_event_unref(ev);
	nlh = msg_event(buf, "/devices/x", "label");
	ev = NULL;
	CHECK(kevent_event_parse(nlh, nlh->nlmsg_len, true, &ev) == 0);
	CHECK(ev && kevent_event_get_class_seq(ev) == 0);
	kevent_event_unref(ev);
	nlh = msg_event(buf, "/devices/x", "label");
	mnl_attr_put_u32(nlh, KEVENT_A_CLASS_SEQ, 3);
	CHECK(parse(nlh, true) == -EBADMSG);

	/* A length that claims more than was received; trailing garbage. */
	nlh = msg_event(buf, "/devices/x", "label");
	CHECK(kevent_event_parse(nlh, nlh->nlmsg_len - 4, true, &ev) ==
	      -EBADMSG);
	nlh = msg_event(buf, "/devices/x", "label");
	memset((char *)nlh + nlh->nlmsg_len, 0xff, 8);
	nlh->nlmsg_len += 8;
	CHECK(parse(nlh, true) == -EBADMSG);
	/* Too short for a generic netlink header. */
	nlh = mnl_nlmsg_put_header(buf);
	CHECK(parse(nlh, true) == -EBADMSG);
	/* Truncated in the middle of the last attribute. */
	nlh = msg_event(buf, "/devices/x", "temperature");
	nlh->nlmsg_len -= 8;
	CHECK(parse(nlh, true) == -EBADMSG);
	/* An attribute header that claims less than a header. */
	nlh = msg_event(buf, "/devices/x", "label");
	mnl_attr_put(nlh, KEVENT_A_COALESCED, 0, NULL);
	((struct nlattr *)((char *)nlh + nlh->nlmsg_len - 4))->nla_len = 2;
	CHECK(parse(nlh, true) == -EBADMSG);
}

/*
 * Messages that come from the kernel (sender port id 0: the monitor hands
 * such datagrams to kevent_event_parse()) but name something that is not a
 * kobject attribute below /sys: each is refused, so nothing is ever read.
 */
static void test_hostile_paths(void)
{
	char buf[3 * KEVENT_PATH_MAX] __attribute__((aligned(8)));
	char *long_path;

	CHECK(parse(msg_event(buf, "/../../etc", "passwd"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "/..", "passwd"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/platform/..", "uevent"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "/.", "uevent"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/.", "uevent"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "//devices", "uevent"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices//platform", "uevent"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/platform/", "uevent"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "/", "uevent"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "etc", "passwd"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "../etc", "passwd"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", "a/b"), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", "/passwd"), true) ==
	      -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", "."), true) == -EBADMSG);
	CHECK(parse(msg_event(buf, "/devices/x", ""), true) == -EBADMSG);
	/* As a sources record too. */
	CHECK(parse(msg_event(buf, "/../../etc", "passwd"), false) ==
	      -EBADMSG);

	/* Paths of KEVENT_PATH_MAX bytes and more, NUL included: refused. */
	long_path = malloc(2 * KEVENT_PATH_MAX);
	memset(long_path, 'a', 2 * KEVENT_PATH_MAX - 1);
	long_path[0] = '/';
	long_path[2 * KEVENT_PATH_MAX - 1] = '\0';
	CHECK(parse(msg_event(buf, long_path, "label"), true) == -EBADMSG);
	long_path[KEVENT_PATH_MAX] = '\0';
	CHECK(parse(msg_event(buf, long_path, "label"), true) == -EBADMSG);
	long_path[KEVENT_PATH_MAX - 1] = '\0'; /* the longest allowed */
	CHECK(parse(msg_event(buf, long_path, "label"), true) == 0);
	free(long_path);

	/* Even if one got through: the reader refuses it as well. */
	{
		char *value = NULL;

		CHECK(kevent_attr_read("/../../etc", "passwd", &value, NULL) ==
		      -EINVAL);
		CHECK(kevent_attr_read("/devices/", "uevent", &value, NULL) ==
		      -EINVAL);
		CHECK(kevent_attr_read("//devices", "uevent", &value, NULL) ==
		      -EINVAL);
		CHECK(value == NULL);
	}
}

/* Loss detection over the per-class sequence numbers. */
static void test_gaps(void)
{
	struct kevent_gaps g = { 0 };
	const enum kevent_class P = KEVENT_CLASS_POWER, N = KEVENT_CLASS_NET;

	/* The first event of a class sets the baseline: nothing lost. */
	CHECK(kevent_gaps_account(&g, P, 5) == 0);
	CHECK(kevent_gaps_account(&g, P, 6) == 0);
	/* 7, 8 and 9 missing. */
	CHECK(kevent_gaps_account(&g, P, 10) == 3);
	CHECK(kevent_gaps_account(&g, P, 11) == 0);
	/* Older or equal (replayed, duplicate): no gap, baseline kept. */
	CHECK(kevent_gaps_account(&g, P, 11) == 0);
	CHECK(kevent_gaps_account(&g, P, 2) == 0);
	CHECK(kevent_gaps_account(&g, P, 12) == 0);
	/* No class sequence number: no gap information, baseline kept. */
	CHECK(kevent_gaps_account(&g, P, 0) == 0);
	CHECK(kevent_gaps_account(&g, P, 14) == 1);
	/* Classes are counted apart. */
	CHECK(kevent_gaps_account(&g, N, 100) == 0);
	CHECK(kevent_gaps_account(&g, N, 101) == 0);
	CHECK(kevent_gaps_account(&g, P, 15) == 0);
	CHECK(kevent_gaps_account(&g, N, 103) == 1);
	/* A class out of range is ignored. */
	CHECK(kevent_gaps_account(&g, __KEVENT_CLASS_MAX, 7) == 0);
	CHECK(kevent_gaps_account(&g, KEVENT_CLASS_UNKNOWN, 7) == 0);
	/* Large numbers. */
	CHECK(kevent_gaps_account(&g, KEVENT_CLASS_FS, 1) == 0);
	CHECK(kevent_gaps_account(&g, KEVENT_CLASS_FS, UINT64_MAX) ==
	      UINT64_MAX - 2);

	/*
	 * An overflow (-ENOBUFS) is reported by itself: the messages queued
	 * before it (16, 17) and the first one after the loss (40) show no
	 * gap; once the queue ran dry, a new baseline is taken (41) and gaps
	 * count again.
	 */
	kevent_gaps_overflow(&g);
	CHECK(kevent_gaps_account(&g, P, 16) == 0);
	CHECK(kevent_gaps_account(&g, P, 17) == 0);
	CHECK(kevent_gaps_account(&g, P, 40) == 0);
	kevent_gaps_idle(&g);
	CHECK(kevent_gaps_account(&g, P, 41) == 0);
	CHECK(kevent_gaps_account(&g, P, 42) == 0);
	CHECK(kevent_gaps_account(&g, P, 45) == 2);
	/* The other classes' baselines went too. */
	CHECK(kevent_gaps_account(&g, N, 200) == 0);
	CHECK(kevent_gaps_account(&g, N, 201) == 0);
	/* An overflow while the queue drains: still one report. */
	kevent_gaps_overflow(&g);
	CHECK(kevent_gaps_account(&g, P, 50) == 0);
	kevent_gaps_overflow(&g);
	CHECK(kevent_gaps_account(&g, P, 60) == 0);
	kevent_gaps_idle(&g);
	CHECK(kevent_gaps_account(&g, P, 70) == 0);
	CHECK(kevent_gaps_account(&g, P, 71) == 0);
	kevent_gaps_idle(&g);
	CHECK(kevent_gaps_account(&g, P, 73) == 1);
}

static char tmpdir[] = "/tmp/kevent-unit.XXXXXX";

static void put_file(const char *rel, const char *data, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		printf("setup: cannot write %s\n", path);
	if (fd >= 0)
		close(fd);
}

static void run(const char *cmd)
{
	if (system(cmd) != 0)
		printf("setup: '%s' failed\n", cmd);
}

static int read_at(int root, const char *path, const char *attr,
		   char **ret_value, size_t *ret_len)
{
	*ret_value = NULL;
	return kevent_attr_read_at(root, path, attr, ret_value, ret_len);
}

/* The reads of test_attr_read() below @root, whichever way paths resolve. */
static void check_reads(int root)
{
	char *value = NULL;
	size_t len = 0;

	CHECK(read_at(root, "/devices/platform/demo.0", "temperature", &value,
		      &len) == 0);
	CHECK(value && len == 6 && strcmp(value, "25000\n") == 0);
	free(value);
	CHECK(read_at(root, "/devices/platform/demo.0", "raw", &value, &len) ==
	      0);
	CHECK(value && len == 3 && memcmp(value, "a\0b", 4) == 0);
	free(value);
	CHECK(read_at(root, "/devices/platform/demo.0", "max", &value, &len) ==
		      0 &&
	      len == KEVENT_VALUE_MAX);
	free(value);
	CHECK(read_at(root, "/devices/platform/demo.0", "big", &value, &len) ==
	      -EFBIG);
	CHECK(read_at(root, "/devices/platform/demo.0", "missing", &value,
		      &len) == -ENOENT);
	CHECK(read_at(root, "/devices/platform/gone.1", "temperature", &value,
		      &len) == -ENODEV);
	CHECK(read_at(root, "/devices/platform/demo.0", "sub", &value, &len) ==
	      -EISDIR);
	CHECK(read_at(root, "/devices/platform/demo.0", "evil", &value, &len) ==
	      -ELOOP);
	CHECK(read_at(root, "/devices/platform/link", "temperature", &value,
		      &len) == -ELOOP);
	CHECK(read_at(root, "/devices/platform/demo.0/temperature", "x", &value,
		      &len) == -ENOTDIR);
	CHECK(read_at(root, "/devices/platform/demo.0/up/demo.0", "temperature",
		      &value, &len) == -ELOOP);
	CHECK(read_at(root, "/devices/platform/demo.0", "up", &value, &len) ==
	      -ELOOP);
	CHECK(read_at(root, "/devices/platform/demo.0/gone", "temperature",
		      &value, &len) == -ENODEV);
	CHECK(read_at(root, "/devices/../../outside", "secret", &value, &len) ==
	      -EINVAL);
	CHECK(read_at(root, "/devices/platform/demo.0", "../../../../outside",
		      &value, &len) == -EINVAL);
	CHECK(read_at(root, "relative", "temperature", &value, &len) ==
	      -EINVAL);
	CHECK(value == NULL);
}

/* The subsystem link of the test tree below @root, read through openat2(). */
static void check_subsystem_at(int root)
{
	char *value = NULL;
	int r;

	r = kevent_device_get_subsystem_at(root, "/devices/platform/demo.0",
					   &value);
	if (r == -ENOSYS) {
		unit_skip("no openat2() here: kevent_device_get_subsystem_at()");
		return;
	}
	CHECK(r == 0 && value && strcmp(value, "platform") == 0);
	free(value);
	value = NULL;
	CHECK(kevent_device_get_subsystem_at(root, "/devices/platform/demo.0/sub",
					     &value) == -ENOENT);
	CHECK(kevent_device_get_subsystem_at(root, "/devices/platform/gone",
					     &value) == -ENOENT);
	CHECK(kevent_device_get_subsystem_at(root, "/devices/platform/link",
					     &value) < 0);
	CHECK(kevent_device_get_subsystem_at(root, "/devices/platform/demo.0/up",
					     &value) < 0);
	CHECK(kevent_device_get_subsystem_at(
		      root, "/devices/platform/demo.0/up/demo.0", &value) ==
	      -ELOOP);
	CHECK(value == NULL);
}

/* kevent_attr_open() and kevent_attr_read_fd() of the test tree below @root */
static void check_open_read_fd(int root)
{
	const char *dir = "/devices/platform/demo.0";
	char *value = NULL, *page;
	size_t len = 0;
	int fd;

	fd = kevent_attr_open_at(root, dir, "temperature");
	CHECK(fd >= 0);
	CHECK(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
	CHECK(kevent_attr_read_fd(fd, &value, &len) == 0);
	CHECK(value && len == 6 && strcmp(value, "25000\n") == 0);
	free(value);
	value = NULL;
	/* Each read starts at offset 0 and sees what the file holds now. */
	put_file("sys/devices/platform/demo.0/temperature", "7\n", 2);
	CHECK(kevent_attr_read_fd(fd, &value, &len) == 0);
	CHECK(value && len == 2 && strcmp(value, "7\n") == 0);
	free(value);
	value = NULL;
	CHECK(fd >= 0 && lseek(fd, 0, SEEK_CUR) == 0);
	put_file("sys/devices/platform/demo.0/temperature", "25000\n", 6);
	if (fd >= 0)
		close(fd);

	/* Values of a page, and just over, need the loop to go on. */
	page = malloc(4098);
	memset(page, 'p', 4097);
	put_file("sys/devices/platform/demo.0/page", page, 4096);
	put_file("sys/devices/platform/demo.0/page1", page, 4097);
	free(page);
	fd = kevent_attr_open_at(root, dir, "page");
	CHECK(kevent_attr_read_fd(fd, &value, &len) == 0 && len == 4096);
	free(value);
	if (fd >= 0)
		close(fd);
	fd = kevent_attr_open_at(root, dir, "page1");
	CHECK(kevent_attr_read_fd(fd, &value, &len) == 0 && len == 4097);
	free(value);
	value = NULL;
	if (fd >= 0)
		close(fd);

	CHECK(kevent_attr_open_at(root, dir, "sub") == -EISDIR);
	CHECK(kevent_attr_open_at(root, dir, "missing") == -ENOENT);
	CHECK(kevent_attr_open_at(root, dir, "evil") == -ELOOP);
	CHECK(kevent_attr_open_at(root, "/devices/platform/gone.1",
				  "temperature") == -ENODEV);
	CHECK(kevent_attr_open_at(root, dir, "../../x") == -EINVAL);
	CHECK(kevent_attr_read_fd(-1, &value, &len) == -EINVAL);
	CHECK(kevent_attr_read_fd(0, NULL, &len) == -EINVAL);
	CHECK(value == NULL);
}

/* kevent_device_get_subsystem() of @path: the same through openat2() or not. */
static void check_subsystem_same(const char *path)
{
	char *fast = NULL, *slow = NULL;
	int r_fast, r_slow;

	r_fast = kevent_device_get_subsystem(path, &fast);
	kevent_sysfs_force_walk(true);
	r_slow = kevent_device_get_subsystem(path, &slow);
	kevent_sysfs_force_walk(false);
	CHECK(r_fast == r_slow);
	CHECK((!fast && !slow) || (fast && slow && strcmp(fast, slow) == 0));
	free(fast);
	free(slow);
}

/*
 * A binary attribute is read a page at a time: one of more than 64 KiB is
 * -EFBIG, not cut at the first short read. The kernel's BTF is one, where
 * the kernel has it.
 */
static void test_big_binary_attribute(void)
{
	struct stat st;
	char *value = NULL;
	size_t len = 0;

	if (stat("/sys/kernel/btf/vmlinux", &st) != 0 ||
	    st.st_size <= KEVENT_VALUE_MAX) {
		unit_skip("no /sys/kernel/btf/vmlinux above 64 KiB here");
		return;
	}
	CHECK(kevent_attr_read("/kernel/btf", "vmlinux", &value, &len) ==
	      -EFBIG);
	CHECK(value == NULL);
}

/*
 * An attribute of mode 0 below @root reads -EACCES, both ways paths resolve.
 * Root reads it all the same: as root, the reads are made as nobody (the
 * effective user, which the kernel checks access against, and back).
 */
static void check_unreadable(int root)
{
	bool as_root = geteuid() == 0;
	char *value = NULL;
	size_t len = 0;

	if (as_root && seteuid(65534) != 0) {
		CHECK(!"seteuid(65534)");
		return;
	}
	/* A readable neighbour: what is refused is the file, not the way */
	CHECK(read_at(root, "/devices/platform/demo.0", "raw", &value, &len) ==
	      0);
	free(value);
	value = NULL;
	CHECK(read_at(root, "/devices/platform/demo.0", "temperature", &value,
		      &len) == -EACCES);
	kevent_sysfs_force_walk(true);
	CHECK(read_at(root, "/devices/platform/demo.0", "temperature", &value,
		      &len) == -EACCES);
	kevent_sysfs_force_walk(false);
	if (as_root)
		CHECK(seteuid(0) == 0);
}

static void test_attr_read(void)
{
	char cmd[1024], *value = NULL, *big;
	int root;

	if (!mkdtemp(tmpdir)) {
		CHECK(!"mkdtemp");
		return;
	}
	snprintf(
		cmd, sizeof(cmd),
		"cd %s && mkdir -p sys/devices/platform/demo.0/sub outside && "
		"ln -s ../outside sys/devices/platform/link && "
		"ln -s ../../../outside/secret sys/devices/platform/demo.0/evil && "
		"ln -s .. sys/devices/platform/demo.0/up && "
		"mkdir -p sys/bus/platform && "
		"ln -s ../../../bus/platform sys/devices/platform/demo.0/subsystem",
		tmpdir);
	run(cmd);
	put_file("sys/devices/platform/demo.0/temperature", "25000\n", 6);
	put_file("sys/devices/platform/demo.0/raw", "a\0b", 3);
	put_file("outside/secret", "secret\n", 7);
	put_file("outside/temperature", "1\n", 2);
	big = calloc(1, KEVENT_VALUE_MAX + 10);
	memset(big, 'x', KEVENT_VALUE_MAX + 1);
	put_file("sys/devices/platform/demo.0/big", big, KEVENT_VALUE_MAX + 1);
	put_file("sys/devices/platform/demo.0/max", big, KEVENT_VALUE_MAX);
	free(big);

	snprintf(cmd, sizeof(cmd), "%s/sys", tmpdir);
	root = open(cmd, O_PATH | O_DIRECTORY);
	CHECK(root >= 0);

	check_reads(root);
	check_open_read_fd(root);
	kevent_sysfs_force_walk(true);
	check_reads(root);
	check_open_read_fd(root);
	kevent_sysfs_force_walk(false);
	snprintf(cmd, sizeof(cmd),
		 "chmod 0 %s/sys/devices/platform/demo.0/temperature", tmpdir);
	run(cmd);
	check_unreadable(root);
	check_subsystem_at(root);
	close(root);

	CHECK(kevent_attr_read("/devices/../etc", "passwd", &value, NULL) ==
	      -EINVAL);
	CHECK(kevent_attr_read("/devices", "a/b", &value, NULL) == -EINVAL);
	CHECK(kevent_attr_read("/devices/no-such-device-kevent", "x", &value,
			       NULL) == -ENODEV);
	CHECK(kevent_attr_open("/devices/no-such-device-kevent", "x") ==
	      -ENODEV);
	CHECK(kevent_attr_open("/devices/../etc", "passwd") == -EINVAL);
	CHECK(kevent_device_get_subsystem("/devices/../x", &value) == -EINVAL);
	CHECK(kevent_device_get_subsystem("/devices/no-such-device-kevent",
					  &value) == -ENODEV);
	check_subsystem_same("/devices/virtual/mem/null");
	check_subsystem_same("/devices/virtual/net/lo");
	check_subsystem_same("/devices/platform");
	check_subsystem_same("/devices/system/cpu/cpu0");
	check_subsystem_same("/module/kernel");
	check_subsystem_same("/class/net");
	check_subsystem_same("/bus/platform/drivers");
	check_subsystem_same("/class/net/lo");
	check_subsystem_same("/devices/no-such-device-kevent");

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	run(cmd);
}

/* Events of the stock sources, and their monitors' arguments. */
static void test_stock(void)
{
	struct kevent_poll_monitor *pm = NULL;
	struct kevent_event *ev = NULL;

	CHECK(kevent_attribute_class("temperature") == KEVENT_CLASS_POWER);
	CHECK(kevent_attribute_class("mtu") == KEVENT_CLASS_NET);
	CHECK(kevent_attribute_class("temp1_input") == KEVENT_CLASS_UNKNOWN);
	CHECK(kevent_attribute_class(NULL) == KEVENT_CLASS_UNKNOWN);
	CHECK(kevent_class_to_string(KEVENT_CLASS_UNKNOWN) == NULL);
	CHECK_STR(kevent_event_source_to_string(KEVENT_EVENT_SOURCE_KEVENT),
		  "kevent");
	CHECK_STR(kevent_event_source_to_string(KEVENT_EVENT_SOURCE_UEVENT),
		  "uevent");
	CHECK_STR(kevent_event_source_to_string(KEVENT_EVENT_SOURCE_POLL),
		  "poll");
	CHECK(kevent_event_source_to_string(99) == NULL);

	CHECK(kevent_event_new_stock(KEVENT_EVENT_SOURCE_UEVENT, 7,
				     "/devices/x/hwmon/hwmon0", "temperature",
				     "hwmon", &ev) == 0);
	if (ev) {
		CHECK(kevent_event_get_source(ev) == KEVENT_EVENT_SOURCE_UEVENT);
		CHECK(kevent_event_get_seq(ev) == 7);
		CHECK(kevent_event_get_class(ev) == KEVENT_CLASS_POWER);
		CHECK(kevent_event_get_attr_id(ev) == UINT32_MAX);
		CHECK(kevent_event_get_timestamp(ev) > 0);
		CHECK_STR(kevent_event_get_path(ev), "/devices/x/hwmon/hwmon0");
		CHECK_STR(kevent_event_get_attr(ev), "temperature");
		CHECK_STR(kevent_event_get_subsystem(ev), "hwmon");
		ev = kevent_event_unref(ev);
	}
	CHECK(kevent_event_new_stock(KEVENT_EVENT_SOURCE_POLL, 0, "/devices/x",
				     "temp1_input", NULL, &ev) == 0);
	if (ev) {
		CHECK(kevent_event_get_class(ev) == KEVENT_CLASS_UNKNOWN);
		CHECK(kevent_event_get_subsystem(ev) == NULL);
		ev = kevent_event_unref(ev);
	}
	CHECK(kevent_event_new_stock(KEVENT_EVENT_SOURCE_UEVENT, 1,
				     "/devices/../etc", "x", NULL, &ev) ==
	      -EINVAL);
	CHECK(kevent_event_new_stock(KEVENT_EVENT_SOURCE_UEVENT, 1, "/devices",
				     "a/b", NULL, &ev) == -EINVAL);
	CHECK(ev == NULL);

	CHECK(kevent_uevent_monitor_unref(NULL) == NULL);
	CHECK(kevent_uevent_monitor_get_fd(NULL) == -EINVAL);
	CHECK(kevent_uevent_monitor_receive(NULL, &ev) == -EINVAL);
	CHECK(kevent_uevent_monitor_new(NULL) == -EINVAL);
	CHECK(kevent_poll_monitor_unref(NULL) == NULL);
	CHECK(kevent_poll_monitor_get_fd(NULL) == -EINVAL);
	CHECK(kevent_poll_monitor_receive(NULL, &ev) == -EINVAL);
	CHECK(kevent_poll_monitor_new(NULL) == -EINVAL);
	CHECK(kevent_poll_monitor_add(NULL, "/sys/x") == -EINVAL);

	CHECK(kevent_poll_monitor_new(&pm) == 0);
	if (pm) {
		CHECK(kevent_poll_monitor_get_fd(pm) >= 0);
		CHECK(kevent_poll_monitor_add(pm, NULL) == -EINVAL);
		CHECK(kevent_poll_monitor_add(pm, "/etc/passwd") == -EXDEV);
		CHECK(kevent_poll_monitor_add(pm, "/sys") == -EXDEV);
		CHECK(kevent_poll_monitor_add(pm, "/sys/../etc/passwd") ==
		      -EXDEV);
		CHECK(kevent_poll_monitor_add(pm, "/sys/kevent-no-such") ==
		      -ENOENT);
		if (access("/sys/kernel/uevent_seqnum", R_OK) == 0) {
			CHECK(kevent_poll_monitor_add(
				      pm, "/sys/kernel/uevent_seqnum") == 0);
			CHECK(kevent_poll_monitor_add(
				      pm, "/sys/kernel/../kernel/uevent_seqnum") ==
			      -EEXIST);
			CHECK(kevent_poll_monitor_add(pm, "/sys/kernel/mm") ==
			      -EISDIR);
		}
		CHECK(kevent_poll_monitor_receive(pm, &ev) == -EAGAIN);
		pm = kevent_poll_monitor_unref(pm);
	}

}

/* A uevent monitor, where the machine lets one listen to uevents. */
static void test_uevent_monitor(void)
{
	struct kevent_uevent_monitor *um = NULL;
	struct kevent_event *ev = NULL;
	int r;

	r = kevent_uevent_monitor_new(&um);
	if (r < 0) {
		unit_skip("no uevent socket here: uevent monitor");
		return;
	}
	CHECK(kevent_uevent_monitor_get_fd(um) >= 0);
	CHECK(kevent_uevent_monitor_receive(um, &ev) == -EAGAIN);
	CHECK(ev == NULL);
	kevent_uevent_monitor_unref(um);
}

static void test_monitor_args(void)
{
	CHECK(kevent_monitor_unref(NULL) == NULL);
	CHECK(kevent_monitor_ref(NULL) == NULL);
	CHECK(kevent_monitor_get_fd(NULL) == -EINVAL);
	CHECK(kevent_monitor_join(NULL, KEVENT_CLASS_POWER) == -EINVAL);
	CHECK(kevent_monitor_receive(NULL, NULL) == -EINVAL);
	CHECK(kevent_monitor_get_dropped(NULL) == 0);
	CHECK(kevent_monitor_get_forged(NULL) == 0);
	CHECK(kevent_monitor_mark_seen(NULL, NULL) == -EINVAL);
	CHECK(kevent_monitor_new(NULL) == -EINVAL);
	CHECK(kevent_sources_foreach(NULL, NULL) == -EINVAL);
	CHECK(kevent_stats_get(NULL) == -EINVAL);
}

int main(void)
{
	UNIT_RUN(test_json_escape);
	UNIT_RUN(test_c_escape);
	UNIT_RUN(test_errno_name);
	UNIT_RUN(test_records);
	UNIT_RUN(test_value_trim);
	UNIT_RUN(test_format);
	UNIT_RUN(test_parse_values);
	UNIT_RUN(test_options);
	UNIT_RUN(test_replay_options);
	UNIT_RUN(test_path_validation);
	UNIT_RUN(test_names);
	UNIT_RUN(test_event_parse);
	UNIT_RUN(test_hostile_paths);
	UNIT_RUN(test_gaps);
	UNIT_RUN(test_attr_read);
	UNIT_RUN(test_big_binary_attribute);
	UNIT_RUN(test_stock);
	UNIT_RUN(test_uevent_monitor);
	UNIT_RUN(test_monitor_args);

	sbuf_free(&json_sb);
	sbuf_free(&cesc_sb);
	sbuf_free(&expand_sb);

	unit_run_registered();

	printf("unit: %u tests passed, %u failed, %u skipped; %u checks passed, %u failed\n",
	       tests_passed, tests_failed, tests_skipped, unit_passed,
	       unit_failed);
	return unit_failed ? 1 : 0;
}
