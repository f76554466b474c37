#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# scripts/gen-attributes: attributes.txt becomes the C table, or the build
# fails with "attributes.txt:LINE: reason" and writes nothing.

setup()
{
	load ../test_helper/common
	cd "$BATS_TEST_TMPDIR"
	gen=$KEVENT_TOP/scripts/gen-attributes
}

# gen_from TEXT: write TEXT as attributes.txt here and run the generator
gen_from()
{
	printf '%b' "$1" > attributes.txt
	run --separate-stderr "$gen" attributes.txt out.h
}

@test "the project's attributes.txt generates a table with every name in order" {
	run --separate-stderr "$gen" "$KEVENT_TOP/attributes.txt" out.h
	assert_success
	names=$(grep -cvE '^[[:space:]]*(#|$)' "$KEVENT_TOP/attributes.txt")
	run grep -c '^	X(' out.h
	assert_output "$names"
	run grep -F 'X(0, "temperature", KEVENT_CLASS_POWER, "mdegC",' out.h
	assert_success
	run grep -F "#define KEVENT_ATTRIBUTE_COUNT $names" out.h
	assert_success
}

@test "the registry holds the demo, seed and real-device attributes" {
	for name in temperature label calibration media_change operstate \
		    carrier mtu online capacity status; do
		run grep -qE "^$name[[:space:]]" "$KEVENT_TOP/attributes.txt"
		assert_success
	done
}

@test "the generated table compiles against the uapi header" {
	run --separate-stderr "$gen" "$KEVENT_TOP/attributes.txt" out.h
	assert_success
	cat > t.c <<'C'
#include <stdio.h>
#include "kevent.h"
#include "out.h"
#define ROW(id, name, class, unit, desc) { id, name, class },
static const struct { int id; const char *name; int class; } t[] = {
	KEVENT_ATTRIBUTES(ROW)
};
int main(void)
{
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].id != (int)i || t[i].class > KEVENT_CLASS_MAX)
			return 1;
	printf("%s %d\n", t[0].name, KEVENT_ATTRIBUTE_COUNT);
	return 0;
}
C
	run cc -Wall -Wextra -Werror -I"$KEVENT_TOP/kernel/uapi" -I. t.c -o t
	assert_success
	run ./t
	assert_success
	assert_output --regexp '^temperature [0-9]+$'
}

@test "comments, blank lines and extra spaces are accepted" {
	gen_from '# header\n\n  \nfoo\tgeneral\t-\tA thing  with  words\n  bar  net  bytes  Bytes\n'
	assert_success
	run cat out.h
	assert_line --partial 'X(0, "foo", KEVENT_CLASS_GENERAL, NULL, "A thing  with  words")'
	assert_line --partial 'X(1, "bar", KEVENT_CLASS_NET, "bytes", "Bytes")'
}

@test "a duplicate name fails with its line number and the first one's" {
	gen_from 'foo general - one\n# c\nfoo power - two\n'
	assert_failure
	assert_stderr_line 'attributes.txt:3: duplicate name "foo" (first on line 1)'
	[ ! -e out.h ]
}

@test "a bad name fails with its line number" {
	gen_from 'ok general - fine\nBad-Name general - no\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:2: bad name "Bad-Name"'
	[ ! -e out.h ]
}

@test "a name with a slash or a leading digit is a bad name" {
	gen_from 'a/b general - no\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:1: bad name "a/b"'
	gen_from '9lives general - no\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:1: bad name "9lives"'
}

@test "a template with one * for the channel is an entry like any other" {
	gen_from 'foo general - one\ntemp*_alarm power - Alarm\nfan* power - Fan\n'
	assert_success
	run cat out.h
	assert_line --partial 'X(1, "temp*_alarm", KEVENT_CLASS_POWER, NULL, "Alarm")'
	assert_line --partial 'X(2, "fan*", KEVENT_CLASS_POWER, NULL, "Fan")'
	# Names that a template does not take: another suffix, no digits
	gen_from 'temp*_alarm power - a\ntemp*_max_alarm power - b\ntemp_alarm power - c\n'
	assert_success
}

@test "a template with two *, a * first or beside a digit, or too long for its names fails" {
	local t

	for t in 'temp*_a*' '*_alarm' 't1*' 'in*2' 'temp**'; do
		gen_from "ok general - fine\n$t power - no\n"
		assert_failure
		assert_stderr_partial "attributes.txt:2: bad template \"$t\""
		[ ! -e out.h ]
	done
	# 55 characters and the *: a name of 9 digits would have 64
	t=$(printf 'a%.0s' $(seq 55))
	gen_from "$t* general - no\n"
	assert_failure
	assert_stderr_partial 'its names can be longer than 63 characters'
	gen_from "${t%a}* general - fits\n"
	assert_success
}

@test "a name that a template takes too, before or after it, fails naming both" {
	gen_from 'temp*_alarm power - a\n# c\ntemp1_alarm power - b\n'
	assert_failure
	assert_stderr_line 'attributes.txt:3: name "temp1_alarm" overlaps "temp*_alarm" (line 1)'
	[ ! -e out.h ]
	gen_from 'temp0_alarm power - a\ntemp*_alarm power - b\n'
	assert_failure
	assert_stderr_line 'attributes.txt:2: name "temp*_alarm" overlaps "temp0_alarm" (line 1)'
	gen_from 'a*_b power - a\na1*_b power - b\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:2: bad template "a1*_b"'
	gen_from 'ab*c power - a\nab*c general - b\n'
	assert_failure
	assert_stderr_partial 'duplicate name "ab*c"'
}

@test "two templates that share a name only at channels other than 0, 1 and 10 fail, naming both" {
	gen_from 'a*b2c power - a\na7b*c power - b\n'
	assert_failure
	assert_stderr_line 'attributes.txt:2: name "a7b*c" overlaps "a*b2c" (line 1)'
	[ ! -e out.h ]
	gen_from 'x42y* power - a\nx*y3 power - b\n'
	assert_failure
	assert_stderr_line 'attributes.txt:2: name "x*y3" overlaps "x42y*" (line 1)'
	# x*y names x42y and x42y* names x42y0: no name is both
	gen_from 'x*y power - a\nx42y* power - b\n'
	assert_success
}

# For every pair of templates from a few prefixes and suffixes, the
# generator accepts the pair exactly when no channel from 0 to 999 gives
# both one name; their digits are short enough for those channels to tell.
@test "every pair of templates fails exactly when they share a name" {
	local a b want got wrong= pairs=0 shared=0

	while read -r a b want; do
		printf '%s power - a\n%s power - b\n' "$a" "$b" > attributes.txt
		got=apart
		"$gen" attributes.txt out.h 2>/dev/null || got=shared
		[ "$want" = "$got" ] || wrong+=" $a/$b:$want,$got"
		pairs=$((pairs + 1))
		[ "$want" = apart ] || shared=$((shared + 1))
	done < <(awk 'BEGIN {
		np = split("a a12b a0b", p, " ")
		ns = split(": b b12 c1", s, " ")
		for (i = 1; i <= np; i++)
			for (j = 1; j <= ns; j++)
				t[++n] = p[i] "*" substr(s[j], s[j] == ":" ? 2 : 1)
		for (i = 1; i <= n; i++) {
			delete names
			for (c = 0; c < 1000; c++) {
				x = t[i]; sub(/\*/, c, x); names[x] = 1
			}
			for (j = i + 1; j <= n; j++) {
				v = "apart"
				for (c = 0; c < 1000 && v == "apart"; c++) {
					y = t[j]; sub(/\*/, c, y)
					if (y in names)
						v = "shared"
				}
				print t[i], t[j], v
			}
		}
	}')
	[ -z "$wrong" ] || fail "wrong verdicts (pair:want,got):$wrong"
	# 12 templates, and pairs of both kinds
	[ "$pairs" -eq 66 ]
	[ "$shared" -gt 0 ]
}

@test "an unknown class fails with its line number" {
	gen_from 'foo general - ok\nbar thermal - no\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:2: unknown class "thermal"'
	[ ! -e out.h ]
}

@test "missing fields fail with their line number" {
	gen_from 'foo general - ok\nbar power mV\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:2: missing fields'
	gen_from 'lonely\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:1: missing fields'
}

@test "a unit that is not a plain ASCII token fails" {
	gen_from 'foo power 50% no\n'
	assert_failure
	assert_stderr_partial 'attributes.txt:1: bad unit "50%"'
}

@test "a failed run leaves an existing output untouched" {
	echo keep > out.h
	gen_from 'foo nope - x\n'
	assert_failure
	run cat out.h
	assert_output keep
}
