#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Coalescing in the kernel: the first notification of a source goes out at
# once, the ones within coalesce_ms after it are folded into one trailing
# event; no notification is lost and the last change is always reported.

COALESCE=/sys/module/kevent/parameters/coalesce_ms
SENSOR0=/devices/platform/kevent-sensor-test.0

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	ORIG_WINDOW=$(cat "$COALESCE")
}

teardown()
{
	watch_stop
	[ -z "${ORIG_WINDOW:-}" ] || echo "$ORIG_WINDOW" > "$COALESCE"
	modules_unload
}

# folded_sum: notifications the events printed so far stand for
folded_sum()
{
	jq -s '[.[] | select(.type == "event") | .coalesced + 1] | add // 0' \
		"$WATCH_OUT"
}

# wait_folded N SECS: wait until the events printed stand for N notifications
wait_folded()
{
	local end=$((SECONDS + $2))

	while [ "$SECONDS" -lt "$end" ]; do
		[ "$(folded_sum)" -ge "$1" ] && return 0
		sleep 0.2
	done
	echo "events stand for $(folded_sum) notifications, not $1" >&2
	return 1
}

@test "coalesce_ms is a module parameter from 0 to 10000 ms" {
	run cat "$COALESCE"
	assert_output 10
	echo 0 > "$COALESCE"
	echo 10000 > "$COALESCE"
	run cat "$COALESCE"
	assert_output 10000
	run bash -c "echo 10001 > $COALESCE"
	assert_failure
	run bash -c "echo -1 > $COALESCE"
	assert_failure
	run bash -c "echo x > $COALESCE"
	assert_failure
	run cat "$COALESCE"
	assert_output 10000
}

@test "1,000,000 notifications (100,000 on the debug kernel): events bounded by the window, none lost, the last value reported" {
	local window=100 n=1000000 events span final

	# Each notification takes the debug kernel's lock and memory checks
	[ -z "${KEVENT_DEBUG_KERNEL:-}" ] || n=100000

	echo "$window" > "$COALESCE"
	sensor_test_set 0 temperature 0
	watch_start --json --path "$SENSOR0" --attr temperature
	sensor_test_set 0 storm "$n"
	wait_folded "$n" 120
	final=$(cat "/sys$SENSOR0/temperature")
	assert_equal "$final" "$n"

	run jq -s -e --argjson n "$n" \
		'[.[] | select(.type == "event")] |
		 (map(.coalesced + 1) | add) == $n and
		 .[-1].value == ($n | tostring)' "$WATCH_OUT"
	assert_success

	# Each event of the storm is at least a window after the one before:
	# at most one event per window over the storm's span, plus the first
	events=$(jq -s '[.[] | select(.type == "event")] | length' \
		"$WATCH_OUT")
	span=$(jq -s '[.[] | select(.type == "event")] |
		      ((.[-1].time - .[0].time) * 1000 | floor)' "$WATCH_OUT")
	echo "events $events over $span ms, window $window ms" >&2
	[ "$events" -ge 2 ]
	[ "$events" -le $((span / window + 2)) ]
	run jq -s -e --argjson w "$window" \
		'[.[] | select(.type == "event")] |
		 [range(1; length) as $i | (.[$i].time - .[$i - 1].time)] |
		 all(. * 1000 >= $w - 1)' "$WATCH_OUT"
	assert_success
}

@test "a notification after a quiet time goes out at once, later ones trail the window" {
	echo 3000 > "$COALESCE"
	watch_start --json --path "$SENSOR0" --attr temperature
	sensor_test_set 0 temperature 30001
	watch_lines 1 20
	sensor_test_set 0 temperature 30002
	sensor_test_set 0 temperature 30003
	watch_lines 2 20
	run jq -s -c '[.[] | [.value, .coalesced]]' "$WATCH_OUT"
	assert_output '[["30001",0],["30003",1]]'
	# The trailing event left when the window ended, not before
	run jq -s -e '(.[1].time - .[0].time) >= 3' "$WATCH_OUT"
	assert_success
}

# A trailing-only window would send the first event coalesce_ms (3 s) after
# the notification; the leading edge sends it at once. The event's timestamp
# is taken when it is sent, on CLOCK_BOOTTIME as /proc/uptime is. The time
# is printed; the bound, a third of the window, leaves room for a debug
# kernel under emulation on a busy host (80 ms seen there).
@test "the first notification after a quiet time is sent at once, not when the window ends" {
	local before

	echo 3000 > "$COALESCE"
	watch_start --json --path "$SENSOR0" --attr temperature
	read -r before _ < /proc/uptime
	sensor_test_set 0 temperature 30001
	watch_lines 1 20
	run jq -r '.time - '"$before" "$WATCH_OUT"
	echo "sent $output s after the notification" >&2
	run jq -e '.time - '"$before"' < 1' "$WATCH_OUT"
	assert_success
	run jq -r .value "$WATCH_OUT"
	assert_output 30001
}

@test "removing a source sends its folded notifications at once" {
	echo 10000 > "$COALESCE"
	watch_start --json --path "$SENSOR0" --attr temperature
	sensor_test_set 0 temperature 1
	watch_lines 1 20
	sensor_test_set 0 temperature 2
	sensor_test_set 0 temperature 3
	# Within the 10 s window: unplugging removes the source, which sends
	sensor_test_set 0 unplug 1
	watch_lines 2 5
	# The value cannot be read any more: ENODEV while the files are
	# still there, ENOENT once the device's removal took them, which
	# races with kevent-watch's read
	run jq -s -c '[.[] | [.coalesced, .error]]' "$WATCH_OUT"
	assert_output --regexp '^\[\[0,null\],\[2,"(ENODEV|ENOENT)"\]\]$'
}

@test "with a window of 0, notifications fold only while an event is queued" {
	echo 0 > "$COALESCE"
	sensor_test_set 0 temperature 0
	watch_start --json --path "$SENSOR0" --attr temperature
	sensor_test_set 0 storm 20000
	wait_folded 20000 60
	run jq -s -e '.[-1].value == "20000"' "$WATCH_OUT"
	assert_success
}
