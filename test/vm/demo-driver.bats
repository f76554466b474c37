#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The demo driver alone, kevent.ko and kevent_demo.ko without any test
# driver, does what README and its own comment promise a person trying it:
# sensors kevent-demo.N with annotated attributes and an hwmon device, and
# debugfs controls temperature, label and unplug whose changes kevent-watch
# reports.

SENSOR0=/devices/platform/kevent-demo.0
SENSOR1=/devices/platform/kevent-demo.1

setup()
{
	load ../test_helper/kevent
	modules_unload
	modules_load
}

teardown()
{
	watch_stop
	modules_unload
}

@test "the demo loads without the test drivers: two sensors, their attributes and hwmon device" {
	run lsmod
	refute_output --regexp '^kevent_(sensor_)?test '
	run cat "/sys$SENSOR0/temperature" "/sys$SENSOR0/label" \
		"/sys$SENSOR1/label" "/sys$SENSOR0/calibration"
	assert_success
	assert_output $'25000\nsensor 0\nsensor 1\n0'
	run stat -c %a "/sys$SENSOR0/temperature" "/sys$SENSOR0/label" \
		"/sys$SENSOR0/calibration"
	assert_output $'444\n444\n400'
	run cat "/sys$SENSOR0"/hwmon/hwmon*/name "/sys$SENSOR0"/hwmon/hwmon*/temp1_input
	assert_output $'kevent_demo\n25000'
	run ls "$DEMO_DBG/kevent-demo.0"
	assert_output $'label\ntemperature\nunplug'
	run "$KEVENT_WATCH" --list --format '%p %a=%v\n'
	assert_success
	assert_equal "${#lines[@]}" 6
	assert_line "$SENSOR1 temperature=25000"
	assert_line "$SENSOR0 calibration=0"
}

@test "a temperature written in the demo's debugfs is reported by kevent-watch with its value" {
	watch_start --json --path "$SENSOR0" --attr temperature
	demo_set 0 temperature 43210
	event_wait "$SENSOR0" temperature 43210
	run jq -r -s 'map(select(.type == "event")) | .[0] | [.class, .unit] | @tsv' "$WATCH_OUT"
	assert_output $'power\tmdegC'
	run cat "/sys$SENSOR0"/hwmon/hwmon*/temp1_input
	assert_output 43210
	demo_set 0 temperature -500
	event_wait "$SENSOR0" temperature -500
}

@test "a label written in the demo's debugfs is reported, less one trailing newline" {
	watch_start --json --attr label
	echo 'CPU package' > "$DEMO_DBG/kevent-demo.1/label"
	event_wait "$SENSOR1" label 'CPU package'
	run cat "/sys$SENSOR1/label"
	assert_output 'CPU package'
}

@test "unplug reports the temperature, unreadable, then the device and its sources are gone" {
	watch_start --json
	demo_set 1 unplug 1
	wait_json 'map(select(.type == "event" and .path == "'"$SENSOR1"'")) | length == 1'
	run jq -c -s 'map(select(.type == "event")) | .[0] | [.path, .attr, .value, .error]' "$WATCH_OUT"
	assert_output --regexp '^\["/devices/platform/kevent-demo\.1","temperature",null,"(ENODEV|ENOENT)"\]$'
	assert [ ! -e "/sys$SENSOR1" ]
	run "$KEVENT_WATCH" --list --format '%p %a\n'
	assert_success
	refute_output --partial "$SENSOR1"
	assert_line "$SENSOR0 temperature"
	# Unplugged once: a second time fails; the other sensor still works
	run -1 bash -c 'printf 1 > "$1"' _ "$DEMO_DBG/kevent-demo.1/unplug"
	demo_set 0 temperature 30000
	event_wait "$SENSOR0" temperature 30000
}
