#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The driver API safe by construction (kevent_test.ko, test/kernel/): a
# source notified while it is unregistered, the churn of
# kevent_sensor_test.ko racing an unbind. The debug kernel runs it too, with
# KASAN, lockdep and kmemleak watching. Its limits, which race nothing, are
# in source-limits.bats.

# Its CPUs race one another: a host thread for each (not run-bats' default
# of one for all)
# vm-options: --multi-thread

TEST_DRV=/sys/bus/platform/drivers/kevent-test
SENSOR_TEST_DRV=/sys/bus/platform/drivers/kevent-sensor-test
TEST_DEV=/devices/platform/kevent-test.0

setup()
{
	load ../test_helper/kevent
	sensor_test_load
}

teardown()
{
	watch_stop
	if module_loaded kevent_test; then rmmod kevent_test; fi
	modules_unload
}

@test "a timer notifying the driver's own source without a lock outlives its unregistration on each unbind" {
	local cycles=200 i sources

	[ -z "${KEVENT_DEBUG_KERNEL:-}" ] || cycles=1000
	sources=$(layer_stat sources)
	insmod "$KEVENT_TEST_DRIVER" notify_us=10

	for i in $(seq "$cycles"); do
		echo kevent-test.0 > "$TEST_DRV/unbind"
		echo kevent-test.0 > "$TEST_DRV/bind"
	done

	# Bound again, the source is there once and its events flow
	run "$KEVENT_WATCH" --list --path "$TEST_DEV" --format '%a=%v\n'
	assert_success
	assert_output temperature=25000
	watch_start --json --path "$TEST_DEV" --attr temperature
	watch_lines 2

	# Unbound, it is gone; the module goes with nothing left behind
	echo kevent-test.0 > "$TEST_DRV/unbind"
	run "$KEVENT_WATCH" --list --path "$TEST_DEV"
	assert_output ''
	rmmod kevent_test
	assert_equal "$(layer_stat sources)" "$sources"
}

@test "the test driver's churn racing unbind and bind every 50 ms leaves no source behind" {
	local churn=$SENSOR_TEST_DBG/kevent-sensor-test.0/churn end=$((SECONDS + 5))

	# Churn, again as soon as an unbind has ended it (ENODEV)
	(
		while [ "$SECONDS" -lt "$end" ]; do
			printf 1 > "$churn" || true
		done
	) 2> /dev/null &
	local churner=$!
	while [ "$SECONDS" -lt "$end" ]; do
		echo kevent-sensor-test.0 > "$SENSOR_TEST_DRV/unbind"
		sleep 0.05
		echo kevent-sensor-test.0 > "$SENSOR_TEST_DRV/bind"
		sleep 0.05
	done
	wait "$churner"
	# Unbound, the sensor has no source; without the test driver, none is left
	echo kevent-sensor-test.0 > "$SENSOR_TEST_DRV/unbind"
	run "$KEVENT_WATCH" --list --path /devices/platform/kevent-sensor-test.0
	assert_output ''
	rmmod kevent_sensor_test
	run "$KEVENT_TOP/test/tools/kevent-stats"
	assert_line 'sources 0'
	rmmod kevent
	run dmesg
	refute_output --partial 'still registered at exit'
}
