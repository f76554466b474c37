#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# What `make bench` relies on: the bench control of the test driver's
# sensors (kevent_sensor_test.ko), which times notifications in the kernel,
# its extra_sources parameter, and the memory kevent.ko reports in debugfs.

MEMORY=/sys/kernel/debug/kevent/memory

setup()
{
	load ../test_helper/kevent
}

teardown()
{
	watch_stop
	modules_unload
}

# memory KEY: a value of kevent/memory
memory()
{
	awk -v k="$1" '$1 == k { print $2 }' "$MEMORY"
}

@test "bench times N notifications of each method and reads back the result" {
	local method total per

	sensor_test_load
	for method in source_notify notify uevent sysfs_notify hwmon_notify; do
		sensor_test_set 0 bench "$method 100"
		read -r m n total per < "$SENSOR_TEST_DBG/kevent-sensor-test.0/bench"
		assert_equal "$m" "$method"
		assert_equal "$n" 100
		[ "$total" -gt 0 ]
		assert_equal "$per" "$((total / 100))"
	done
	# Each notification incremented the temperature
	run cat "$DEMO_SYS/kevent-sensor-test.0/temperature"
	assert_output 25500
}

@test "bench hwmon_notify sends the hwmon device's change uevent, one each, which --stock reports" {
	sensor_test_load
	watch_start --stock --json --attr temp1_input
	sensor_test_set 1 bench "hwmon_notify 5"
	watch_lines 5
	# One record a uevent, each with the value read when it came
	run jq -r '[.source, .subsystem, .attr] | @tsv' "$WATCH_OUT"
	assert_equal "${#lines[@]}" 5
	assert_equal "$(printf '%s\n' "${lines[@]}" | sort -u)" $'uevent\thwmon\ttemp1_input'
	run jq -r .value "$WATCH_OUT"
	assert_line --index 4 25005
	# A sensor unplugged has no hwmon device left to notify
	sensor_test_set 0 unplug 1
	run -1 bash -c "printf 'hwmon_notify 1' > $SENSOR_TEST_DBG/kevent-sensor-test.0/bench"
	assert_output --partial 'No such device'
}

@test "the notifications of bench reach a listener, one event for each kevent_notify()" {
	sensor_test_load
	watch_start --json --attr temperature --path /devices/platform/kevent-sensor-test.1
	sensor_test_set 1 bench "notify 5"
	watch_lines 5
	run jq -r .value "$WATCH_OUT"
	assert_line --index 4 25005
}

@test "bench refuses an unknown method, a count of 0 or above 10,000,000, and garbage" {
	local bad

	sensor_test_load
	for bad in "storm 10" "notify 0" "notify 10000001" "notify" "notify x" \
		"notify 10 20" " "; do
		run -1 bash -c "printf '%s' '$bad' > $SENSOR_TEST_DBG/kevent-sensor-test.0/bench"
		assert_output --partial 'Invalid argument'
	done
	# No run yet: nothing to read
	run cat "$SENSOR_TEST_DBG/kevent-sensor-test.0/bench"
	assert_output ''
}

@test "extra_sources annotates up to 7 more attributes per sensor; 8 is refused" {
	sensor_test_load sensors=2 extra_sources=7
	assert_equal "$(memory sources)" 20
	run cat "$DEMO_SYS/kevent-sensor-test.1/operstate"
	assert_output 0
	run "$KEVENT_WATCH" --list --attr capacity --format '%p %a=%v'
	assert_success
	assert_output "/devices/platform/kevent-sensor-test.0 capacity=0
/devices/platform/kevent-sensor-test.1 capacity=0"
	modules_unload
	insmod "$KEVENT_MODULE_DIR/kevent.ko"
	run -1 insmod "$KEVENT_SENSOR_TEST" extra_sources=8
}

@test "by default the test driver has its three sources per sensor and no extra attribute" {
	sensor_test_load
	assert_equal "$(memory sources)" 6
	[ ! -e "$DEMO_SYS/kevent-sensor-test.0/capacity" ]
}

@test "kevent/memory counts the bytes of the sources and of the replay ring" {
	sensor_test_load sensors=4
	assert_equal "$(memory sources)" 12
	# struct kevent_source and its path: at least 100 bytes a source
	[ "$(memory source_bytes)" -ge 1200 ]
	[ "$(memory replay_bytes)" -gt 0 ]
	sensor_test_set 0 temperature 1
	assert_equal "$(memory replay_events)" 1
}
