#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Who may see what: the dumps of the sources and of the replay ring list an
# attribute that others cannot read (a sensor's calibration, 0400) only to
# CAP_SYS_ADMIN; its live events go to every listener, as its uevents do,
# and none carries a value (kevent(7), "Who may see what").

SENSOR0=/devices/platform/kevent-sensor-test.0

setup()
{
	load ../test_helper/kevent
	sensor_test_load
}

teardown()
{
	watch_stop
	modules_unload
}

# as_nobody CMD...: run CMD as the unprivileged user nobody
as_nobody()
{
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

@test "as nobody, the sources dump leaves out an attribute others cannot read; root sees it" {
	run "$KEVENT_WATCH" --list --path "$SENSOR0" --format '%a\n'
	assert_success
	assert_line calibration

	run as_nobody "$KEVENT_WATCH" --list --path "$SENSOR0" --format '%a\n'
	assert_success
	refute_line calibration
	assert_line label
	assert_line temperature
}

@test "as nobody, the replay leaves out the events of an attribute others cannot read; root sees them" {
	echo calibration > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	echo label > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"

	run "$KEVENT_WATCH" --replay --timeout 1 --path "$SENSOR0" --format '%a\n'
	assert_success
	assert_line calibration
	assert_line label

	run as_nobody "$KEVENT_WATCH" --replay --timeout 1 --path "$SENSOR0" \
		--format '%a\n'
	assert_success
	refute_line calibration
	assert_line label
}

@test "as nobody, a live event of an attribute others cannot read arrives without its value" {
	watch_start_as 65534 --json --path "$SENSOR0" --attr calibration
	echo calibration > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	watch_lines 1
	run jq -r '"\(.attr) \(.value) \(.error)"' "$WATCH_OUT"
	assert_output 'calibration null EACCES'
}
