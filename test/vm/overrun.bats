#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Overruns: when kevent-watch cannot keep up and its receive buffer
# overflows, it says so with an overrun record, re-reads the state of every
# source, and goes on. --rcvbuf sets the size of that buffer.

setup()
{
	load ../test_helper/kevent
	modules_unload
	sensor_test_load
	COALESCE=/sys/module/kevent/parameters/coalesce_ms
	SENSOR0=/devices/platform/kevent-sensor-test.0
}

teardown()
{
	if [ -n "${WATCH_PID:-}" ]; then
		kill -CONT "$WATCH_PID" 2>/dev/null || true
	fi
	watch_stop
	modules_unload
}

# burst N: N events of sensor 0's label, each sent before the write returns
burst()
{
	local i

	for i in $(seq "$1"); do
		sensor_test_set 0 notify label
	done
}

@test "a storm of 100,000 notifications while kevent-watch is stopped: an overrun record, then the final temperature; the watcher keeps going" {
	# No coalescing window: the storm becomes as many events as it can
	echo 0 > "$COALESCE"
	assert_equal "$(cat "$COALESCE")" 0

	watch_start --json --rcvbuf 4096
	kill -STOP "$WATCH_PID"
	sensor_test_set 0 storm 100000
	# The last of the storm's events goes out from a work item
	sleep 2
	# Even without a window, the notifications made while an event is
	# queued are folded: the storm may become as few as ten events, which
	# could fit the buffer. 40 events of kevent_notify(), sent one by one
	# before each write returns, make the overflow certain.
	burst 40
	kill -CONT "$WATCH_PID"

	final=$(cat "$DEMO_SYS/kevent-sensor-test.0/temperature")
	assert_equal "$final" $((25000 + 100000))

	# An overrun record, and after it sensor 0's temperature at its final
	# value, as a state (the re-read) or as an event
	wait_json '
		(map(.type) | index("overrun")) as $i
		| $i != null and (.[$i + 1:] | any(
			(.type == "state" or .type == "event") and
			.path == "'"$SENSOR0"'" and .attr == "temperature" and
			.value == "'"$final"'"))'

	# The count of an overflow is unknown, and the loss it reports is not
	# reported again as a gap in the class sequence numbers
	run jq -c -s '[.[] | select(.type == "overrun")]
		| (length > 0) and all(. == {"type":"overrun","lost":null})' "$WATCH_OUT"
	assert_output true

	# It keeps going
	sensor_test_set 0 temperature 42000
	wait_json 'any(.type == "event" and .path == "'"$SENSOR0"'" and
			.attr == "temperature" and .value == "42000")'
	run kill -0 "$WATCH_PID"
	assert_success
	run jq -c -s '[.[] | select(.type == "overrun")]
		| (length > 0) and all(. == {"type":"overrun","lost":null})' "$WATCH_OUT"
	assert_output true
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "the human output of an overrun: OVERRUN lost=unknown, then STATE lines" {
	echo 0 > "$COALESCE"
	watch_start --rcvbuf 4096
	kill -STOP "$WATCH_PID"
	burst 60
	kill -CONT "$WATCH_PID"
	watch_lines 2
	run cat "$WATCH_OUT"
	assert_line --index 0 'OVERRUN lost=unknown'
	assert_line --index 1 --regexp '^STATE\[[0-9.]+\] '
}

@test "--rcvbuf BYTES is the size asked of the socket: K and M suffixes" {
	local trace=$BATS_TEST_TMPDIR/trace

	strace -qq -e trace=setsockopt -o "$trace" \
		"$KEVENT_WATCH" --json --rcvbuf 4096 --timeout 0
	run grep -E 'SO_RCVBUF(FORCE)?, \[4096\], 4\) = 0' "$trace"
	assert_success
	strace -qq -e trace=setsockopt -o "$trace" \
		"$KEVENT_WATCH" --json --rcvbuf 256K --timeout 0
	run grep -E 'SO_RCVBUF(FORCE)?, \[262144\], 4\) = 0' "$trace"
	assert_success
	strace -qq -e trace=setsockopt -o "$trace" \
		"$KEVENT_WATCH" --json --rcvbuf 2M --timeout 0
	run grep -E 'SO_RCVBUF(FORCE)?, \[2097152\], 4\) = 0' "$trace"
	assert_success
	# By default, 8 MiB
	strace -qq -e trace=setsockopt -o "$trace" \
		"$KEVENT_WATCH" --json --timeout 0
	run grep -E 'SO_RCVBUF(FORCE)?, \[8388608\], 4\) = 0' "$trace"
	assert_success
}

@test "--rcvbuf 4096 overflows on a burst of 60 events that the default buffer holds" {
	echo 0 > "$COALESCE"

	# The default buffer: all 60 events, no overrun
	watch_start --json
	kill -STOP "$WATCH_PID"
	burst 60
	kill -CONT "$WATCH_PID"
	watch_lines 60
	run jq -c -s '[.[].type] | unique' "$WATCH_OUT"
	assert_output '["event"]'
	run jq -s 'length' "$WATCH_OUT"
	assert_output 60
	watch_stop

	# A small one: the same burst overflows it
	watch_start --json --rcvbuf 4096
	kill -STOP "$WATCH_PID"
	burst 60
	kill -CONT "$WATCH_PID"
	wait_json 'any(.type == "overrun")'
	run jq -c -s 'first' "$WATCH_OUT"
	assert_output '{"type":"overrun","lost":null}'
}

@test "bad --rcvbuf values are usage errors: status 2 and a line naming the option" {
	local v

	for v in 0 -1 x '' 4G 1.5M 2048M; do
		run --separate-stderr "$KEVENT_WATCH" --rcvbuf "$v"
		assert_equal "$status" 2
		assert_equal "$output" ''
		assert_equal "${stderr_lines[0]}" \
			"kevent-watch: --rcvbuf: invalid value '$v' (expected bytes, such as 65536, 256K or 8M, at most 2047M)"
	done
	run --separate-stderr "$KEVENT_WATCH" --rcvbuf
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" 'kevent-watch: --rcvbuf: missing value'
	run --separate-stderr "$KEVENT_WATCH" --rcvbuf 4K --uevent
	assert_equal "$status" 2
	assert_stderr_partial "--rcvbuf is for the kevent layer's events: add --kevent"
}

@test "--help stays within 24 lines and mentions --rcvbuf" {
	run --separate-stderr "$KEVENT_WATCH" --help
	assert_success
	assert_output --partial '--rcvbuf BYTES'
	assert [ "${#lines[@]}" -le 24 ]
}
