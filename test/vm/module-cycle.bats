#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Loading and unloading the modules under a listener: the listener is told
# the layer went away, and the kernel stays clean (the VM runner fails on
# any BUG, WARNING or Oops in dmesg).

setup()
{
	load ../test_helper/kevent
}

teardown()
{
	watch_stop
	if module_loaded kevent_test; then rmmod kevent_test; fi
	modules_unload
}

@test "insmod/rmmod of both modules 20 times (5 on the debug kernel) under a listener: it says the layer went away and exits 1" {
	local rounds=20 round

	# Each round starts seven processes, a second or more each on the
	# debug kernel: there, five rounds
	[ -z "${KEVENT_DEBUG_KERNEL:-}" ] || rounds=5
	for round in $(seq "$rounds"); do
		modules_load sensors=3
		watch_start --json
		demo_set 2 temperature "$round"
		watch_lines 1
		modules_unload
		watch_wait 20
		assert_equal "$WATCH_STATUS" 1
		run cat "$WATCH_ERR"
		assert_equal "${#lines[@]}" 1
		assert_output --partial 'went away'
		run jq -r .value "$WATCH_OUT"
		assert_output "$round"
	done
	run lsmod
	refute_output --partial kevent
}

# The storm comes from the test driver's timer, which notifies its source
# every 10 µs and holds no reference to the module: rmmod runs while it
# fires (a storm from a debugfs write would pin the module until it ends).
# With a window of a second, the source's window is open when the driver
# goes: unregistering sends the notifications counted at once and leaves no
# timer armed in the freed source, which would fire after kevent.ko itself is
# gone (the test waits a window longer, for the kernel log to show it).
@test "rmmod while a storm is in flight leaves no work behind" {
	local dev=/devices/platform/kevent-test.0

	for round in $(seq 5); do
		insmod "$KEVENT_MODULE_DIR/kevent.ko" coalesce_ms=1000
		insmod "$KEVENT_TEST_DRIVER" notify_us=10
		watch_start --json --path "$dev" --attr temperature
		watch_lines 2
		rmmod kevent_test
		run "$KEVENT_WATCH" --list --path "$dev"
		assert_output ''
		modules_unload
		watch_wait 20
		assert_equal "$WATCH_STATUS" 1
		run jq -s '[.[] | select(.type == "event")] | length > 1' "$WATCH_OUT"
		assert_output true
	done
	sleep 1.5
	run dmesg
	refute_output --partial 'still registered at exit'
}
