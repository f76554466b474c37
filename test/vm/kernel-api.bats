#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent_notify() refuses bad names and missing attributes with an error
# and sends nothing (driven through the test driver's debugfs "notify" hook).

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

# notify_hook N NAME: write NAME to sensor N's notify hook; the write's
# error message (from the shell) in $output, status in $status
notify_hook()
{
	run bash -c 'printf "%s" "$2" > "$1"' _ "$SENSOR_TEST_DBG/kevent-sensor-test.$1/notify" "$2"
}

@test "kevent_notify with a name not in the registry is -EINVAL and sends nothing" {
	watch_start --json --timeout 3
	notify_hook 0 no_such_attribute
	assert_failure
	assert_output --partial 'Invalid argument'
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output ""
}

@test "kevent_notify with a name containing / is -EINVAL and sends nothing" {
	watch_start --json --timeout 3
	notify_hook 0 ../temperature
	assert_failure
	assert_output --partial 'Invalid argument'
	notify_hook 0 power/temperature
	assert_failure
	assert_output --partial 'Invalid argument'
	watch_wait 20
	run cat "$WATCH_OUT"
	assert_output ""
}

@test "kevent_notify with a registered attribute the kobject lacks is -ENOENT and sends nothing" {
	watch_start --json --timeout 3
	notify_hook 0 media_change
	assert_failure
	assert_output --partial 'No such file or directory'
	watch_wait 20
	run cat "$WATCH_OUT"
	assert_output ""
}

@test "kevent_notify with a valid attribute sends one event" {
	watch_start --json --timeout 3
	notify_hook 1 label
	assert_success
	watch_wait 20
	run jq -r '"\(.path) \(.attr) \(.value)"' "$WATCH_OUT"
	assert_output '/devices/platform/kevent-sensor-test.1 label sensor 1'
}

@test "a storm of notifications from atomic context ends with the final value reported" {
	sensor_test_set 0 temperature 0
	watch_start --json --timeout 6
	sensor_test_set 0 storm 5000
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -s -e '(.[-1].value == "5000") and
		      ([.[] | .coalesced + 1] | add) == 5000' "$WATCH_OUT"
	assert_success
}

@test "a notification wakes poll() on the sysfs attribute (kernfs_notify)" {
	run timeout 20 bash -c '
		f=$1/kevent-sensor-test.0/temperature
		exec 4< "$f"; cat <&4 > /dev/null
		( sleep 1; printf 777 > "$2/kevent-sensor-test.0/temperature" ) &
		python3 -c "
import select, sys
p = select.poll(); p.register(4, select.POLLPRI | select.POLLERR)
sys.exit(0 if p.poll(15000) else 1)"' _ "$DEMO_SYS" "$SENSOR_TEST_DBG"
	assert_success
}
