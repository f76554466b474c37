#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The registry's templates: hwmon's names carry a channel number
# (temp1_alarm, in0_alarm), and attributes.txt lists them as templates
# (temp*_alarm). kevent_notify() of such a name, on the test driver's hwmon
# device as hwmon_notify_event() does once the layer is built in (the
# driver's "hwmon:NAME" notify hook), sends an event with the attribute's
# own name and the template's id; names no entry matches are refused.

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	HWMON=$(readlink -f "$DEMO_SYS"/kevent-sensor-test.0/hwmon/hwmon*)
	HWMON_PATH=${HWMON#/sys}
	STATS=$KEVENT_TOP/test/tools/kevent-stats
	ynl=$KEVENT_TOP/scripts/ynl
}

teardown()
{
	watch_stop
	modules_unload
}

# notify_hook NAME: write NAME to sensor 0's notify hook; the write's error
# message (from the shell) in $output, status in $status
notify_hook()
{
	run bash -c 'printf "%s" "$2" > "$1"' _ \
		"$SENSOR_TEST_DBG/kevent-sensor-test.0/notify" "$1"
}

@test "kevent_notify of an hwmon device's temp1_alarm sends one event of class power, named temp1_alarm, with its value" {
	[ -e "$HWMON/temp1_alarm" ]
	# Above temp1_max (80000): the alarm reads 1
	sensor_test_set 0 temperature 81000
	watch_start --json --count 1 --timeout 20
	notify_hook hwmon:temp1_alarm
	assert_success
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.type, .source, .class, .path, .attr, .value, .unit]' "$WATCH_OUT"
	assert_output '["event","kevent","power","'"$HWMON_PATH"'","temp1_alarm","1",null]'
}

@test "the event carries the template's id, and the replay ring keeps the attribute's own name" {
	local base

	run --separate-stderr "$ynl" --no-schema --dump get-replay --output-json
	assert_success
	base=$(jq 'map(.seq) | max // 0' <<< "$output")
	notify_hook hwmon:temp1_alarm
	assert_success
	run --separate-stderr "$ynl" --no-schema --dump get-replay \
		--json "{\"seq\": $base}" --output-json
	assert_success
	# temp*_alarm is entry 16 of attributes.txt
	run jq -c 'map([.path, ."attr-name", ."attr-id", .class])' <<< "$output"
	assert_output '[["'"$HWMON_PATH"'","temp1_alarm",16,"power"]]'
	# kevent-watch --replay reports it, re-read, by its name
	run -0 --separate-stderr "$KEVENT_WATCH" --replay="$base" --timeout 0 \
		--format '%a %v'
	assert_output 'temp1_alarm 0'
}

@test "names no template matches are -EINVAL, a name of a template the device lacks -ENOENT; nothing is sent" {
	local name before

	before=$("$STATS")
	watch_start --json --timeout 3
	for name in temp1_input temp01_alarm temp_alarm temp1_lcrit_alarm \
		'temp*_alarm' temp1234567890_alarm; do
		notify_hook "hwmon:$name"
		assert_failure
		assert_output --partial 'Invalid argument'
	done
	# temp2_alarm is a name of temp*_alarm; the device has one channel
	notify_hook hwmon:temp2_alarm
	assert_failure
	assert_output --partial 'No such file or directory'
	watch_wait 20
	run cat "$WATCH_OUT"
	assert_output ""
	assert_equal "$("$STATS")" "$before"
}

@test "--attr temp1_alarm takes the template's events of that name; --attr 'temp*_alarm' too, as a glob" {
	local glob temp=30000

	for glob in temp1_alarm 'temp*_alarm'; do
		# The temperature's event comes first, and is not taken
		watch_start --json --attr "$glob" --count 1 --timeout 20
		sensor_test_set 0 temperature $((temp += 1000))
		notify_hook hwmon:temp1_alarm
		assert_success
		watch_wait 20
		assert_equal "$WATCH_STATUS" 0
		run jq -r '.attr' "$WATCH_OUT"
		assert_output temp1_alarm
	done
}
