#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The descriptor of a libkevent monitor: readable while an event waits,
# in the socket or among the messages the library took from it in one
# batch, so that a caller that takes one event per wakeup of poll() (as
# libudev users do) gets every event.

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	ONCE=$KEVENT_TOP/test/tools/kevent-once
}

teardown()
{
	if [ -n "${WATCH_PID:-}" ]; then
		kill -CONT "$WATCH_PID" 2>/dev/null || true
	fi
	watch_stop
	modules_unload
}

@test "a caller that takes one event per poll() wakeup gets all of 100 events queued at once" {
	local fd i

	# Ends once poll() has waited 3 s without a wakeup
	watch_spawn "$ONCE" general 3000
	# Stopped, so that the events queue up and are taken in batches
	kill -STOP "$WATCH_PID"
	exec {fd}> "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	for i in $(seq 100); do
		# One event, sent before the write returns
		printf label >&"$fd"
	done
	exec {fd}>&-
	kill -CONT "$WATCH_PID"
	watch_wait 60
	assert_equal "$WATCH_STATUS" 0
	run awk '$2 == "/devices/platform/kevent-sensor-test.0" && $3 == "label" { print $1 }' "$WATCH_OUT"
	assert_equal "${#lines[@]}" 100
	run bash -c "awk '{ print \$1 }' '$WATCH_OUT' | sort -u | wc -l"
	assert_output 100
}
