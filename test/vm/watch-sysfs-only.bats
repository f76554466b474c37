#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Values are read from sysfs only: a file system mounted below /sys (a
# tmpfs here, as container managers put on /sys/fs/cgroup) is not read,
# and a FIFO on it fails at once with EXDEV rather than block the watcher.

setup()
{
	load ../test_helper/kevent
	modules_load
	SENSOR0=/devices/platform/kevent-demo.0
	MNT=/sys$SENSOR0
	# A tmpfs in place of sensor 0's directory, with a FIFO where its
	# temperature was: an open() for reading waits for a writer.
	mount -t tmpfs kevent-test "$MNT"
	mkfifo "$MNT/temperature"
	echo 99999 > "$MNT/label"
}

teardown()
{
	# A reader blocked in open() of the FIFO (SIGTERM does not end it)
	# goes on once a writer opens it.
	timeout 2 sh -c "echo > '$MNT/temperature'" 2>/dev/null || true
	watch_stop
	umount "$MNT" 2>/dev/null || true
	modules_unload
}

@test "--list reports a FIFO on a tmpfs below /sys with error EXDEV at once, and reads the other sensor" {
	run -0 timeout -k 2 10 "$KEVENT_WATCH" --list --json
	run jq -c --arg p "$SENSOR0" \
		'select(.path == $p and (.attr == "temperature" or .attr == "label")) | [.attr, .value, .error]' \
		<<< "$output"
	assert_success
	assert_line '["temperature",null,"EXDEV"]'
	assert_line '["label",null,"EXDEV"]'
	assert_equal "${#lines[@]}" 2
	# Sensor 1 is read as usual
	run -0 timeout -k 2 10 "$KEVENT_WATCH" --list --json --path /devices/platform/kevent-demo.1 --attr temperature
	run jq -r -e .value <<< "$output"
	assert_output --regexp '^[0-9]+$'
}

@test "an event of an attribute that is a FIFO on a tmpfs below /sys is reported with error EXDEV, and the watch goes on" {
	watch_start --json --count 2 --attr temperature
	demo_set 0 temperature 31000
	demo_set 1 temperature 32000
	watch_wait 10
	assert_equal "$WATCH_STATUS" 0
	run jq -c -e '[.path, .value, .error]' "$WATCH_OUT"
	assert_success
	assert_line "[\"$SENSOR0\",null,\"EXDEV\"]"
	assert_line '["/devices/platform/kevent-demo.1","32000",null]'
}
