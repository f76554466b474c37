// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of kevent-watch's human output: readable units, the colour
 * decision, and coloured lines that are the plain ones plus escapes.
 */
#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "output.h"
#include "unit.h"
#include "units.h"

/* The readable form, or "-" when there is none; valid until the next call */
static const char *readable_utf8(const char *unit, const char *value, bool utf8)
{
	static char buf[UNIT_READABLE_MAX];
	size_t n;

	memset(buf, 'x', sizeof(buf));
	n = unit_readable(unit, value, value ? strlen(value) : 0, utf8, buf);
	if (n != strlen(buf))
		return "(length differs)";
	return n ? buf : "-";
}

static const char *readable(const char *unit, const char *value)
{
	return readable_utf8(unit, value, true);
}

static bool int64_of(const char *s, size_t len, int64_t want)
{
	int64_t v = 12345;

	return value_to_int64(s, len, &v) && v == want;
}

static bool not_int64(const char *s, size_t len)
{
	int64_t v = 12345;

	return !value_to_int64(s, len, &v) && v == 12345;
}

UNIT_TEST(test_value_to_int64)
{
	CHECK(int64_of("0", 1, 0));
	CHECK(int64_of("-0", 2, 0));
	CHECK(int64_of("42", 2, 42));
	CHECK(int64_of("-42", 3, -42));
	CHECK(int64_of("007", 3, 7));
	CHECK(int64_of("9223372036854775807", 19, INT64_MAX));
	CHECK(int64_of("-9223372036854775808", 20, INT64_MIN));
	/* The length counts, not a NUL */
	CHECK(int64_of("12345", 2, 12));
	CHECK(not_int64("9223372036854775808", 19));
	CHECK(not_int64("-9223372036854775809", 20));
	CHECK(not_int64("99999999999999999999", 20));
	CHECK(not_int64("", 0));
	CHECK(not_int64("-", 1));
	CHECK(not_int64("--1", 3));
	CHECK(not_int64("+5", 2));
	CHECK(not_int64(" 5", 2));
	CHECK(not_int64("5 ", 2));
	CHECK(not_int64("5\n", 2));
	CHECK(not_int64("1.5", 3));
	CHECK(not_int64("0x10", 4));
	CHECK(not_int64("1e3", 3));
	CHECK(not_int64("12abc", 5));
	CHECK(not_int64("1\0002", 3));
}

UNIT_TEST(test_units)
{
	char buf[UNIT_READABLE_MAX];

	/* mdegC: one decimal, rounded half away from zero */
	CHECK_STR(readable("mdegC", "25000"), "25.0 °C");
	CHECK_STR(readable("mdegC", "47500"), "47.5 °C");
	CHECK_STR(readable("mdegC", "-500"), "-0.5 °C");
	CHECK_STR(readable("mdegC", "0"), "0.0 °C");
	CHECK_STR(readable("mdegC", "-0"), "0.0 °C");
	CHECK_STR(readable("mdegC", "47549"), "47.5 °C");
	CHECK_STR(readable("mdegC", "47550"), "47.6 °C");
	CHECK_STR(readable("mdegC", "-47549"), "-47.5 °C");
	CHECK_STR(readable("mdegC", "-47550"), "-47.6 °C");
	CHECK_STR(readable("mdegC", "999"), "1.0 °C");
	CHECK_STR(readable("mdegC", "-999"), "-1.0 °C");
	CHECK_STR(readable("mdegC", "-50"), "-0.1 °C");
	/* Rounds to zero: no minus sign */
	CHECK_STR(readable("mdegC", "-49"), "0.0 °C");
	CHECK_STR(readable("mdegC", "9223372036854775807"),
		  "9223372036854775.8 °C");
	CHECK_STR(readable("mdegC", "-9223372036854775808"),
		  "-9223372036854775.8 °C");
	CHECK_STR(readable_utf8("mdegC", "25000", false), "25.0 degC");
	CHECK_STR(readable_utf8("mdegC", "-500", false), "-0.5 degC");
	/* Only integers */
	CHECK_STR(readable("mdegC", "9223372036854775808"), "-");
	CHECK_STR(readable("mdegC", "25.5"), "-");
	CHECK_STR(readable("mdegC", "25000 "), "-");
	CHECK_STR(readable("mdegC", "hot"), "-");
	CHECK_STR(readable("mdegC", ""), "-");
	CHECK_STR(readable("mdegC", NULL), "-");

	/* sectors: 512 bytes each, shown as bytes are */
	CHECK_STR(readable("sectors", "16"), "-");
	CHECK_STR(readable("sectors", "20"), "10.0 KiB");
	CHECK_STR(readable("sectors", "2048"), "1.0 MiB");
	CHECK_STR(readable("sectors", "41943040"), "20.0 GiB");
	CHECK_STR(readable("sectors", "36028797018963968"), "-");

	/* bytes: from 10 KiB on, one decimal; an MTU stays as it is */
	CHECK_STR(readable("bytes", "1500"), "-");
	CHECK_STR(readable("bytes", "9000"), "-");
	CHECK_STR(readable("bytes", "0"), "-");
	CHECK_STR(readable("bytes", "10239"), "-");
	CHECK_STR(readable("bytes", "-10239"), "-");
	CHECK_STR(readable("bytes", "10240"), "10.0 KiB");
	CHECK_STR(readable("bytes", "-20480"), "-20.0 KiB");
	CHECK_STR(readable("bytes", "65535"), "64.0 KiB");
	CHECK_STR(readable("bytes", "15411"), "15.0 KiB");
	CHECK_STR(readable("bytes", "15412"), "15.1 KiB");
	CHECK_STR(readable("bytes", "1048524"), "1023.9 KiB");
	CHECK_STR(readable("bytes", "1048575"), "1.0 MiB");
	CHECK_STR(readable("bytes", "1048576"), "1.0 MiB");
	CHECK_STR(readable("bytes", "8388608"), "8.0 MiB");
	CHECK_STR(readable("bytes", "1610612736"), "1.5 GiB");
	CHECK_STR(readable("bytes", "1099511627775"), "1.0 TiB");
	CHECK_STR(readable("bytes", "9223372036854775807"), "8.0 EiB");
	CHECK_STR(readable("bytes", "-9223372036854775808"), "-8.0 EiB");
	CHECK_STR(readable("bytes", "1.5"), "-");

	/* percent */
	CHECK_STR(readable("percent", "85"), "85%");
	CHECK_STR(readable("percent", "0"), "0%");
	CHECK_STR(readable("percent", "-5"), "-5%");
	CHECK_STR(readable("percent", "-9223372036854775808"),
		  "-9223372036854775808%");
	CHECK_STR(readable("percent", "100.0"), "-");

	/* SI: the largest prefix that keeps at least 1, three decimals */
	CHECK_STR(readable("mV", "12345"), "12.345 V");
	CHECK_STR(readable("mV", "-12345"), "-12.345 V");
	CHECK_STR(readable("mV", "1000"), "1.000 V");
	CHECK_STR(readable("mV", "999"), "-");
	CHECK_STR(readable("mV", "500"), "-");
	CHECK_STR(readable("mV", "-500"), "-");
	CHECK_STR(readable("mV", "0"), "-");
	CHECK_STR(readable("mV", "1000000"), "1.000 kV");
	CHECK_STR(readable("mA", "1500"), "1.500 A");
	CHECK_STR(readable("uA", "-1500"), "-1.500 mA");
	CHECK_STR(readable("uV", "3700000"), "3.700 V");
	CHECK_STR(readable("uW", "1500000"), "1.500 W");
	CHECK_STR(readable("uW", "1234567"), "1.235 W");
	CHECK_STR(readable("uW", "-1234567"), "-1.235 W");
	CHECK_STR(readable("uW", "1234499"), "1.234 W");
	CHECK_STR(readable("uW", "999999499"), "999.999 W");
	CHECK_STR(readable("uW", "999999500"), "1.000 kW");
	CHECK_STR(readable("uW", "-999999500"), "-1.000 kW");
	CHECK_STR(readable("uW", "9223372036854775807"), "9.223 TW");
	CHECK_STR(readable("uW", "-9223372036854775808"), "-9.223 TW");
	CHECK_STR(readable("mW", "2500"), "2.500 W");
	CHECK_STR(readable("uJ", "123456789"), "123.457 J");
	CHECK_STR(readable("mJ", "1"), "-");
	CHECK_STR(readable("uAh", "4400000"), "4.400 Ah");
	CHECK_STR(readable("uAh", "440000"), "440.000 mAh");
	CHECK_STR(readable("mAh", "4400"), "4.400 Ah");
	CHECK_STR(readable("uWh", "57000000"), "57.000 Wh");
	CHECK_STR(readable("mWh", "57000"), "57.000 Wh");
	CHECK_STR(readable("Hz", "50"), "-");
	CHECK_STR(readable("Hz", "2400000000"), "2.400 GHz");
	CHECK_STR(readable("kHz", "2400000"), "2.400 GHz");
	CHECK_STR(readable("kHz", "800"), "-");
	CHECK_STR(readable("kHz", "9223372036854775807"), "9223.372 EHz");
	CHECK_STR(readable("MHz", "3200"), "3.200 GHz");
	CHECK_STR(readable("ms", "1500"), "1.500 s");
	CHECK_STR(readable("ms", "3600000"), "3600.000 s");
	CHECK_STR(readable("ms", "999"), "-");
	CHECK_STR(readable("us", "1500"), "1.500 ms");
	CHECK_STR(readable("us", "2500000"), "2.500 s");
	CHECK_STR(readable("mV", "12.5"), "-");

	/* Units not in the table, or none: no readable form */
	CHECK_STR(readable("RPM", "1200"), "-");
	CHECK_STR(readable("mdegc", "25000"), "-");
	CHECK_STR(readable("MDEGC", "25000"), "-");
	CHECK_STR(readable("", "25000"), "-");
	CHECK_STR(readable(NULL, "25000"), "-");
	CHECK_STR(readable("kelvin", "-1"), "-");
	memset(buf, 'x', sizeof(buf));
	CHECK(unit_readable("RPM", "1200", 4, true, buf) == 0 && !buf[0]);
	/* Only @len bytes count */
	CHECK(unit_readable("mdegC", "25000 mdegC", 5, true, buf) ==
	      strlen("25.0 °C"));
	CHECK_STR(buf, "25.0 °C");
}

/* Each unit of attributes.txt has a readable form */
UNIT_TEST(test_units_of_registry)
{
	char path[4096], line[1024], unit[64], buf[UNIT_READABLE_MAX];
	const char *slash = strrchr(__FILE__, '/');
	unsigned int checked = 0;
	FILE *f;

	/* This file is test/unit/human.c: the registry is two levels up */
	snprintf(path, sizeof(path), "%.*s/../../attributes.txt",
		 slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".");
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (!f) {
		printf("  cannot open %s\n", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%*s %*s %63s", unit) != 1 ||
		    strcmp(unit, "-") == 0)
			continue;
		CHECK(unit_readable(unit, "123456789", 9, true, buf) > 0);
		if (!unit_readable(unit, "123456789", 9, true, buf))
			printf("  unit %s of attributes.txt is not in units.c\n",
			       unit);
		checked++;
	}
	fclose(f);
	/* temperature, mtu and capacity at least */
	CHECK(checked >= 3);
}

UNIT_TEST(test_codeset)
{
	const char *saved = getenv("LC_ALL");
	char *lc_all = saved ? strdup(saved) : NULL;

	CHECK(codeset_is_utf8("UTF-8"));
	CHECK(codeset_is_utf8("utf-8"));
	CHECK(codeset_is_utf8("utf8"));
	CHECK(!codeset_is_utf8("ANSI_X3.4-1968"));
	CHECK(!codeset_is_utf8("ISO-8859-1"));
	CHECK(!codeset_is_utf8("UTF-16"));
	CHECK(!codeset_is_utf8(""));
	CHECK(!codeset_is_utf8(NULL));

	/* LC_ALL wins over LANG; the program's locale is C again after */
	setenv("LC_ALL", "C", 1);
	CHECK(!locale_is_utf8());
	CHECK_STR(setlocale(LC_CTYPE, NULL), "C");
	setenv("LC_ALL", "C.UTF-8", 1);
	CHECK(locale_is_utf8());
	CHECK_STR(setlocale(LC_CTYPE, NULL), "C");
	/* A locale that is not installed: ASCII */
	setenv("LC_ALL", "xx_NO.UTF-8", 1);
	CHECK(!locale_is_utf8());
	CHECK_STR(setlocale(LC_CTYPE, NULL), "C");
	if (lc_all)
		setenv("LC_ALL", lc_all, 1);
	else
		unsetenv("LC_ALL");
	free(lc_all);
}

UNIT_TEST(test_colour_decision)
{
	static const char *const no_colors[] = { NULL, "", "1", "0" };
	static const char *const terms[] = { NULL, "", "dumb", "xterm",
					     "xterm-256color" };
	unsigned int tty, json, n, t, on = 0;

	CHECK(colour_wanted(true, NULL, "xterm-256color", false));
	CHECK(colour_wanted(true, "", "linux", false));
	/* Not a terminal: a pipe, a file */
	CHECK(!colour_wanted(false, NULL, "xterm-256color", false));
	/* NO_COLOR set to anything but the empty string, even "0" */
	CHECK(!colour_wanted(true, "1", "xterm-256color", false));
	CHECK(!colour_wanted(true, "0", "xterm-256color", false));
	CHECK(!colour_wanted(true, "no", "xterm-256color", false));
	/* A dumb terminal, or none */
	CHECK(!colour_wanted(true, NULL, "dumb", false));
	CHECK(!colour_wanted(true, NULL, NULL, false));
	CHECK(!colour_wanted(true, NULL, "", false));
	/* --json and --format */
	CHECK(!colour_wanted(true, NULL, "xterm-256color", true));

	/* The whole matrix: colour in 2 (NO_COLOR) x 2 (TERM) cases only */
	for (tty = 0; tty < 2; tty++)
		for (json = 0; json < 2; json++)
			for (n = 0; n < 4; n++)
				for (t = 0; t < 5; t++)
					on += colour_wanted(tty, no_colors[n],
							    terms[t], json);
	CHECK(on == 4);
}

/* @s without its SGR escape sequences (ESC [ digits and ; m) */
static const char *strip_sgr(const char *s)
{
	static char buf[1024];
	size_t i = 0, n;

	while (*s && i + 1 < sizeof(buf)) {
		if (s[0] == '\033' && s[1] == '[') {
			n = 2 + strspn(s + 2, "0123456789;");
			if (s[n] == 'm') {
				s += n + 1;
				continue;
			}
		}
		buf[i++] = *s++;
	}
	buf[i] = '\0';
	return buf;
}

static unsigned int count_esc(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\033';
	return n;
}

static struct sbuf line_sb;

/* The text line of @r in @style; valid until the next call */
static const char *line(const struct record *r, struct text_style style)
{
	sbuf_reset(&line_sb);
	text_style_set(&style);
	record_text(&line_sb, r);
	return sbuf_str(&line_sb);
}

static const char *overrun_line(long long lost, struct text_style style)
{
	sbuf_reset(&line_sb);
	text_style_set(&style);
	overrun_text(&line_sb, lost);
	return sbuf_str(&line_sb);
}

/* The coloured line of @r, without its escapes, is the plain one */
static bool same_without_colour(const struct record *r)
{
	struct text_style plain = { .units = true, .utf8 = true };
	struct text_style colour = plain;
	char want[1024];

	colour.colour = true;
	snprintf(want, sizeof(want), "%s", line(r, plain));
	if (count_esc(want) != 0)
		return false;
	return strcmp(strip_sgr(line(r, colour)), want) == 0 &&
	       count_esc(line(r, colour)) >= 4;
}

UNIT_TEST(test_human_lines)
{
	const struct text_style zero = { 0 };
	const struct text_style plain = { .units = true, .utf8 = true };
	const struct text_style ascii = { .units = true };
	const struct text_style colour = { .units = true,
					   .utf8 = true,
					   .colour = true };
	struct record r = unit_event_record;
	char plain_line[256];

	CHECK_STR(line(&r, plain),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=47000 mdegC (47.0 °C) (platform) coalesced=3\n");
	CHECK_STR(
		line(&r, ascii),
		"KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		"temperature=47000 mdegC (47.0 degC) (platform) coalesced=3\n");
	/* The default style: the line without readable units */
	CHECK_STR(line(&r, zero),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=47000 mdegC (platform) coalesced=3\n");
	CHECK_STR(line(&r, colour),
		  "\033[1mKEVENT\033[0m[123.456789] 42 power "
		  "/devices/platform/kevent-demo.0 "
		  "\033[36mtemperature\033[0m=47000 mdegC (47.0 °C) "
		  "(platform) coalesced=3\n");
	CHECK(same_without_colour(&r));

	/* Not an integer: the raw value alone */
	r.value = "47.5";
	r.value_len = 4;
	CHECK_STR(line(&r, plain),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=47.5 mdegC (platform) coalesced=3\n");
	/* A trimmed value: only value_len bytes count */
	r.value = "-500\n";
	r.value_len = 4;
	r.coalesced = 0;
	CHECK_STR(line(&r, plain),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=-500 mdegC (-0.5 °C) (platform)\n");
	/* No unit, or a unit not in the table: none */
	r.unit = NULL;
	r.subsystem = NULL;
	CHECK_STR(line(&r, plain),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=-500\n");
	r.unit = "RPM";
	CHECK_STR(line(&r, plain),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=-500 RPM\n");

	/* A state of a battery, in a capacity of percent */
	r = unit_event_record;
	r.type = RECORD_STATE;
	r.path = "/devices/platform/test_power/power_supply/test_battery";
	r.attr = "capacity";
	r.value = "85";
	r.value_len = 2;
	r.unit = "percent";
	r.subsystem = "power_supply";
	CHECK_STR(line(&r, plain),
		  "STATE[123.456789] power "
		  "/devices/platform/test_power/power_supply/test_battery "
		  "capacity=85 percent (85%) (power_supply)\n");
	CHECK(same_without_colour(&r));

	/* An unreadable value: red, and no readable form */
	r = unit_event_record;
	r.value = NULL;
	r.value_len = 0;
	r.error = ENODEV;
	r.subsystem = NULL;
	r.coalesced = 0;
	CHECK_STR(line(&r, plain),
		  "KEVENT[123.456789] 42 power /devices/platform/kevent-demo.0 "
		  "temperature=<error: ENODEV>\n");
	CHECK_STR(
		line(&r, colour),
		"\033[1mKEVENT\033[0m[123.456789] 42 power "
		"/devices/platform/kevent-demo.0 "
		"\033[36mtemperature\033[0m=\033[31m<error: ENODEV>\033[0m\n");
	CHECK(same_without_colour(&r));

	/* Stock sources */
	r = unit_event_record;
	r.source = "uevent";
	r.cls = NULL;
	r.attr = "temp1_alarm";
	r.value = "1";
	r.value_len = 1;
	r.unit = NULL;
	CHECK(same_without_colour(&r));
	CHECK_STR(strip_sgr(line(&r, colour)),
		  "UEVENT[123.456789] 42 - /devices/platform/kevent-demo.0 "
		  "temp1_alarm=1 (platform) coalesced=3\n");
	r.source = "poll";
	r.no_seq = true;
	CHECK(same_without_colour(&r));
	CHECK_STR(line(&r, colour),
		  "\033[1mPOLL\033[0m[123.456789] - - "
		  "/devices/platform/kevent-demo.0 "
		  "\033[36mtemp1_alarm\033[0m=1 (platform) coalesced=3\n");

	/*
	 * Escape bytes in a value, path or attribute are written \x1b: the
	 * only escape sequences of a coloured line are the colours.
	 */
	r = unit_event_record;
	r.path = "/devices/\033[31mred";
	r.attr = "label";
	r.value = "\033[0m\033[2Jx";
	r.value_len = strlen(r.value);
	r.unit = NULL;
	snprintf(plain_line, sizeof(plain_line), "%s", line(&r, plain));
	CHECK_STR(plain_line,
		  "KEVENT[123.456789] 42 power /devices/\\x1b[31mred "
		  "label=\\x1b[0m\\x1b[2Jx (platform) coalesced=3\n");
	CHECK(count_esc(line(&r, colour)) == 4);
	CHECK(same_without_colour(&r));

	/* Overruns: yellow */
	CHECK_STR(overrun_line(3, colour), "\033[33mOVERRUN lost=3\033[0m\n");
	CHECK_STR(overrun_line(-1, colour),
		  "\033[33mOVERRUN lost=unknown\033[0m\n");
	CHECK_STR(strip_sgr(overrun_line(-1, colour)),
		  "OVERRUN lost=unknown\n");
	CHECK_STR(overrun_line(7, plain), "OVERRUN lost=7\n");

	/* --json and --format: no colour, whatever the terminal says */
	setenv("TERM", "xterm-256color", 1);
	unsetenv("NO_COLOR");
	text_style_init(true);
	sbuf_reset(&line_sb);
	record_text(&line_sb, &unit_event_record);
	CHECK(sbuf_str(&line_sb) && count_esc(sbuf_str(&line_sb)) == 0);

	text_style_set(&zero);
	sbuf_free(&line_sb);
}
