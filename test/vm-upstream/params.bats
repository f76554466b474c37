#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The built-in layer's parameters from the kernel's command line, where a
# built-in layer takes what kevent.ko takes at load: kevent.replay= sizes
# the replay ring at boot, kevent.coalesce_ms= sets the coalescing window.
# This file runs in a boot of its own, with both on the command line.
# vm-options: --append kevent.replay=4 --append kevent.coalesce_ms=20

setup()
{
	load ../test_helper/kevent
	[ -n "${KEVENT_UPSTREAM_KERNEL:-}" ] ||
		skip "not the kernel of check-upstream (scripts/vm/run-bats --upstream)"
}

teardown()
{
	modules_unload
}

@test "kevent.replay=4 and kevent.coalesce_ms=20 of the command line are the layer's parameters" {
	run cat /proc/cmdline
	assert_output --partial 'kevent.replay=4'
	run cat /sys/module/kevent/parameters/replay
	assert_output 4
	run cat /sys/module/kevent/parameters/coalesce_ms
	assert_output 20
}

@test "the replay ring of kevent.replay=4 holds the last 4 events" {
	local i last

	sensor_test_load
	for i in $(seq 6); do
		# Farther apart than the coalescing window: an event each
		sensor_test_set 0 temperature $((30000 + i))
		sleep 0.2
	done
	last=$(layer_stat sent)
	[ -n "$last" ]
	# The newest event, the sensor's last: its sequence number is the
	# number of events sent since boot
	run -0 --separate-stderr "$KEVENT_WATCH" --replay --timeout 0 \
		--format '%s %p %a'
	assert_equal "${#lines[@]}" 4
	for i in 0 1 2 3; do
		assert_equal "${lines[$i]}" \
			"$((last - 3 + i)) /devices/platform/kevent-sensor-test.0 temperature"
	done
}
