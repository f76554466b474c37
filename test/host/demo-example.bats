#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kernel/kevent_demo.c stays an example a driver author reads in one sitting:
# short, with the controls a person tries it with (temperature, label,
# unplug) and none of those that exist only for tests and benchmarks, which
# live in the test driver test/kernel/kevent_sensor_test.c, never installed.

DEMO=kernel/kevent_demo.c
SENSOR_TEST=test/kernel/kevent_sensor_test.c

setup()
{
	load ../test_helper/common
	cd "$KEVENT_TOP" || return
}

# controls FILE: the names of the debugfs files FILE creates, sorted
controls()
{
	grep -oE 'debugfs_create_file(_unsafe)?\("[a-z_]+"' "$1" |
		sed 's/.*("//; s/"$//' | sort
}

@test "the demo is at most 250 lines" {
	run wc -l < "$DEMO"
	assert_success
	echo "$DEMO: $output lines" >&2
	assert [ "$output" -le 250 ]
}

@test "the demo's debugfs controls are temperature, label and unplug, no other" {
	run controls "$DEMO"
	assert_success
	assert_output $'label\ntemperature\nunplug'
}

@test "the demo has no test control, parameter or hook: storm, churn, bench, notify, extra_sources" {
	run grep -nwiE 'storm|churn|bench|extra_sources|kevent_notify|kthread[a-z_]*|fault[a-z_]*' "$DEMO"
	assert_failure 1
	assert_output ''
}

@test "the demo registers its sources with the driver API and notifies them" {
	run grep -c 'devm_kevent_source_register(' "$DEMO"
	assert_output 1
	run grep -c 'kevent_source_notify(' "$DEMO"
	assert [ "$output" -ge 2 ]
}

@test "the test driver has the demo's controls and those of tests, under its own name" {
	run controls "$SENSOR_TEST"
	assert_success
	assert_output $'bench\nchurn\nfailing\nlabel\nnotify\nstorm\ntemperature\nunplug'
	run grep -c '"kevent_sensor_test"' "$SENSOR_TEST"
	assert [ "$output" -ge 2 ]
	run grep -c '"kevent-sensor-test"' "$SENSOR_TEST"
	assert_output 1
}

@test "the test driver is built with the test drivers, never with the modules installed" {
	run grep -E '^obj-m' kernel/Kbuild
	refute_output --partial kevent_sensor_test
	run grep -E '^obj-m' test/kernel/Kbuild
	assert_output --partial kevent_sensor_test.o
}
