// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of sampling: the interval and --delta of kevent-watch's
 * --sample, and the sampler's decision that a value changed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kevent-private.h"
#include "options.h"
#include "unit.h"

/* The interval @s in milliseconds, or -1 when it is refused. */
static int64_t interval(const char *s)
{
	char err[256] = "";
	int64_t ms = 0;

	if (parse_interval(s, &ms, err, sizeof(err)) < 0) {
		if (!strstr(err, "--sample: invalid interval"))
			printf("  (message was \"%s\")\n", err);
		return -1;
	}
	return ms;
}

UNIT_TEST(test_sample_interval)
{
	CHECK(interval("2") == 2000);
	CHECK(interval("1s") == 1000);
	CHECK(interval("500ms") == 500);
	CHECK(interval("1ms") == 1);
	CHECK(interval("0.5") == 500);
	CHECK(interval("1.5s") == 1500);
	CHECK(interval("0.25s") == 250);
	CHECK(interval("1.5m") == 90000);
	CHECK(interval("2m") == 120000);
	CHECK(interval("1h") == 3600000);
	CHECK(interval("2000000") == 2000000000);
	CHECK(interval("2000000s") == 2000000000);
	/* Nothing, zero, below a millisecond, too long, other units */
	CHECK(interval("") == -1);
	CHECK(interval("0") == -1);
	CHECK(interval("0ms") == -1);
	CHECK(interval("0.0001") == -1);
	CHECK(interval("0.5ms") == -1);
	CHECK(interval("2000001") == -1);
	CHECK(interval("600h") == -1);
	CHECK(interval("99999999999999999999") == -1);
	CHECK(interval("1S") == -1);
	CHECK(interval("1 s") == -1);
	CHECK(interval("1sec") == -1);
	CHECK(interval("1d") == -1);
	CHECK(interval("s") == -1);
	CHECK(interval("-1") == -1);
	CHECK(interval("1.") == -1);
	CHECK(interval(".5") == -1);
	CHECK(interval("1.2345") == -1);
}

UNIT_TEST(test_sample_delta)
{
	char err[256] = "";
	uint64_t d = 0;

	CHECK(parse_delta("1", &d, err, sizeof(err)) == 0 && d == 1);
	CHECK(parse_delta("500", &d, err, sizeof(err)) == 0 && d == 500);
	CHECK(parse_delta("1000000000000", &d, err, sizeof(err)) == 0 &&
	      d == 1000000000000ULL);
	CHECK(parse_delta("0", &d, err, sizeof(err)) == -1);
	CHECK(strstr(err, "--delta: invalid value '0'") != NULL);
	CHECK(parse_delta("-5", &d, err, sizeof(err)) == -1);
	CHECK(parse_delta("1.5", &d, err, sizeof(err)) == -1);
	CHECK(parse_delta("", &d, err, sizeof(err)) == -1);
	CHECK(parse_delta("5k", &d, err, sizeof(err)) == -1);
	CHECK(parse_delta("18446744073709551616", &d, err, sizeof(err)) == -1);
}

/* The arguments are refused, with a message that contains @want. */
static bool refused(const char *want, const char *const *args)
{
	struct watch_options o;
	char err[256] = "";
	bool ok = unit_parse_args(&o, err, sizeof(err), args) == -1 && strstr(err, want);

	if (!ok)
		printf("  (message was \"%s\")\n", err);
	watch_options_free(&o);
	return ok;
}

UNIT_TEST(test_sample_options)
{
	struct watch_options o;
	char err[256];

	/* The arguments after the options are the files sampled */
	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--sample", "500ms", "--delta", "100", "/sys/a",
			 "/sys/b*")) == 0);
	CHECK(o.sample_ms == 500 && o.delta == 100 && o.n_sample_files == 2 &&
	      o.n_poll_files == 0);
	CHECK_STR(o.sample_files[1], "/sys/b*");
	watch_options_free(&o);

	/* ... and not polled, even beside --poll */
	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--poll", "/sys/p", "--sample", "1", "/sys/s")) == 0);
	CHECK(o.n_poll_files == 1 && o.n_sample_files == 1 &&
	      o.sample_ms == 1000 && o.delta == 0);
	watch_options_free(&o);

	/* --stock without files samples its own attributes */
	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--stock", "--sample", "2s", "--coldplug")) == 0);
	CHECK(o.stock && o.sample_ms == 2000 && o.n_sample_files == 0);
	watch_options_free(&o);

	CHECK(unit_parse_args(&o, err, sizeof(err),
		    ARGS("--list", "--sample", "1s", "/sys/a")) == 0);
	watch_options_free(&o);

	CHECK(refused("--sample: invalid interval 'soon'",
		      ARGS("--sample", "soon", "/sys/a")));
	CHECK(refused("--sample: invalid interval '0'",
		      ARGS("--sample", "0", "/sys/a")));
	CHECK(refused("--sample: missing value", ARGS("--sample")));
	CHECK(refused("--delta: invalid value 'x'",
		      ARGS("--sample", "1", "--delta", "x", "/sys/a")));
	CHECK(refused("--delta needs --sample", ARGS("--delta", "5")));
	CHECK(refused("--sample needs files",
		      ARGS("--sample", "1s", "--json")));
	CHECK(refused("--replay is for the kevent layer's events",
		      ARGS("--replay", "--sample", "1", "/sys/a")));
	CHECK(refused("--rcvbuf is for the kevent layer's events",
		      ARGS("--rcvbuf", "1M", "--sample", "1", "/sys/a")));
}

static bool changed(const char *old, const char *cur, uint64_t delta)
{
	return kevent_sample_changed(0, old, strlen(old), 0, cur, strlen(cur),
				     delta);
}

UNIT_TEST(test_sample_numbers)
{
	int64_t n = 0;

#define NUMBER(s) kevent_sample_parse_number(s, strlen(s), &n)
	CHECK(NUMBER("25000\n") && n == 25000);
	CHECK(NUMBER("-5\n") && n == -5);
	CHECK(NUMBER("+7") && n == 7);
	CHECK(NUMBER("  42 \n") && n == 42);
	CHECK(NUMBER("9223372036854775807") && n == INT64_MAX);
	CHECK(NUMBER("-9223372036854775808") && n == INT64_MIN);
	CHECK(!NUMBER("9223372036854775808"));
	CHECK(!NUMBER("-9223372036854775809"));
	CHECK(!NUMBER(""));
	CHECK(!NUMBER("\n"));
	CHECK(!NUMBER("-"));
	CHECK(!NUMBER("1.5\n"));
	CHECK(!NUMBER("0x10"));
	CHECK(!NUMBER("12 34"));
	CHECK(!NUMBER("up\n"));
	/* Only the bytes given count: "12" of "123" */
	CHECK(kevent_sample_parse_number("123", 2, &n) && n == 12);
#undef NUMBER
}

UNIT_TEST(test_sample_changed)
{
	/* Without a delta: any change of the bytes */
	CHECK(!changed("25000\n", "25000\n", 0));
	CHECK(changed("25000\n", "25001\n", 0));
	CHECK(changed("25000\n", "25000", 0));
	CHECK(changed("", "0", 0));
	CHECK(!changed("", "", 0));
	CHECK(changed("up\n", "down\n", 0));
	/* A value with a NUL inside: its bytes, not its string */
	CHECK(kevent_sample_changed(0, "a\0b", 3, 0, "a\0c", 3, 0));

	/* With a delta: integers that moved by delta or more, either way */
	CHECK(!changed("25000\n", "25499\n", 500));
	CHECK(changed("25000\n", "25500\n", 500));
	CHECK(!changed("25000\n", "24501\n", 500));
	CHECK(changed("25000\n", "24500\n", 500));
	CHECK(changed("-100\n", "100\n", 200));
	CHECK(!changed("-100\n", "99\n", 200));
	CHECK(!changed("7\n", "7\n", 1));
	CHECK(changed("7\n", "8\n", 1));
	/* The widest distance there is, no overflow */
	CHECK(changed("-9223372036854775808", "9223372036854775807",
		      UINT64_MAX));
	CHECK(!changed("-9223372036854775808", "9223372036854775806",
		       UINT64_MAX));
	/* Same number, other bytes: no change with a delta */
	CHECK(!changed("42\n", " 42", 1));
	/* Not both integers: any change of the bytes, whatever the delta */
	CHECK(changed("1.5\n", "1.6\n", 1000));
	CHECK(!changed("1.5\n", "1.5\n", 1000));
	CHECK(changed("42\n", "n/a\n", 1000));
	CHECK(changed("n/a\n", "42\n", 1000));

	/* Read errors: a change when the error starts, stops or differs */
	CHECK(!kevent_sample_changed(EIO, NULL, 0, EIO, NULL, 0, 0));
	CHECK(kevent_sample_changed(0, "1", 1, EIO, NULL, 0, 0));
	CHECK(kevent_sample_changed(EIO, NULL, 0, 0, "1", 1, 1000));
	CHECK(kevent_sample_changed(EIO, NULL, 0, EACCES, NULL, 0, 0));
}

UNIT_TEST(test_sample_source)
{
	struct kevent_sample_monitor *m = NULL;

	CHECK_STR(kevent_event_source_to_string(KEVENT_EVENT_SOURCE_SAMPLE),
		  "sample");
	CHECK(kevent_sample_monitor_new(NULL, 1000) == -EINVAL);
	CHECK(kevent_sample_monitor_new(&m, 0) == -EINVAL);
	CHECK(kevent_sample_monitor_new(&m, 1000000) == 0);
	CHECK(kevent_sample_monitor_get_fd(m) >= 0);
	CHECK(kevent_sample_monitor_add(m, "/tmp/x") == -EXDEV);
	CHECK(kevent_sample_monitor_add(m, "") == -EINVAL);
	CHECK(kevent_sample_monitor_add(m, NULL) == -EINVAL);
	CHECK(kevent_sample_monitor_set_delta(NULL, 1) == -EINVAL);
	CHECK(kevent_sample_monitor_get_count(m) == 0);
	CHECK(kevent_sample_monitor_foreach(m, NULL, NULL) == -EINVAL);
	/* A glob that matches nothing yet is no error */
	CHECK(kevent_sample_monitor_add(m, "/sys/kevent-none-*/x") == 0);
	CHECK(kevent_sample_monitor_add(m, "/sys/kevent-none-*/x") == -EEXIST);
	CHECK(kevent_sample_monitor_get_count(m) == 0);
	CHECK(kevent_sample_monitor_unref(m) == NULL);
	CHECK(kevent_sample_monitor_unref(NULL) == NULL);
}
