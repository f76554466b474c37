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
	modules_unload
}

@test "insmod/rmmod of both modules 20 times under a listener: it says the layer went away and exits 1" {
	for round in $(seq 20); do
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

@test "rmmod while a storm is in flight leaves no work behind" {
	for round in $(seq 5); do
		modules_load
		watch_start --json
		demo_set 0 storm 2000 &
		storm=$!
		sleep 0.2
		wait "$storm"
		modules_unload
		watch_wait 20
		assert_equal "$WATCH_STATUS" 1
	done
}
