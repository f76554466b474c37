#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A value that cannot be read is reported with its error, never dropped,
# and the watch goes on.

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

@test "calibration read by an unprivileged user is an event with error EACCES and no value" {
	watch_start_as 65534 --json --count 1
	sensor_test_set 0 notify calibration
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c -e '[.attr, .value, .error]' "$WATCH_OUT"
	assert_success
	assert_output '["calibration",null,"EACCES"]'
}

@test "calibration read by root is an event with its value" {
	watch_start --json --count 1
	sensor_test_set 1 notify calibration
	watch_wait 20
	run jq -c -e '[.attr, (.value | type), has("error")]' "$WATCH_OUT"
	assert_output '["calibration","string",false]'
}

@test "an unplugged device is reported with error ENODEV or ENOENT, and the watch goes on" {
	watch_start --json --count 2
	sensor_test_set 1 unplug 1
	watch_lines 1
	run kill -0 "$WATCH_PID"
	assert_success
	sensor_test_set 0 temperature 26500
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.path, .attr, .value, .error]' "$WATCH_OUT"
	assert_line --index 0 --regexp '^\["/devices/platform/kevent-sensor-test\.1","temperature",null,"(ENODEV|ENOENT)"\]$'
	assert_line --index 1 '["/devices/platform/kevent-sensor-test.0","temperature","26500",null]'
	assert [ ! -e "$DEMO_SYS/kevent-sensor-test.1" ]
}

@test "the human output shows an unreadable value's error" {
	watch_start --count 1
	sensor_test_set 1 unplug 1
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output --regexp 'kevent-sensor-test\.1 .*temperature.*(ENODEV|ENOENT)'
}
