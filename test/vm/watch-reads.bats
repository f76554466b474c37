#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# What kevent-watch costs for each event: the attribute is opened once and
# kept open, and each event reads the current value with one pread(); the
# subsystem is looked up once; lines are written a buffer at a time, before
# the watcher waits again. A device created again at the same path is read
# through a new descriptor, and a low descriptor limit costs no value. An
# attribute that fails as soon as it is opened is reported whole.

setup_file()
{
	load ../test_helper/kevent
	sensor_test_load
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

setup()
{
	load ../test_helper/kevent
	SENSOR0=/devices/platform/kevent-sensor-test.0
	BURST=200
}

teardown()
{
	strace_stop
	if [ -n "${WATCH_PID:-}" ]; then
		kill -CONT "$WATCH_PID" 2>/dev/null || true
	fi
	watch_stop
}

# calls NAME [MATCH]: how many NAME calls the trace holds (containing MATCH),
# but those on the monitor's eventfd ($EVENTFD, when set): the library marks
# it readable while a batch of messages waits in it, and clears it again,
# once a batch
calls()
{
	grep -E "^$1\(" "$STRACE_OUT" | grep -vE "^$1\(${EVENTFD:-none}," |
		grep -cF -- "${2:-(}" || true
}

# eventfd_of PID: the descriptor number of the eventfd of process PID
eventfd_of()
{
	local f

	for f in "/proc/$1/fd/"*; do
		if [ "$(readlink "$f")" = 'anon_inode:[eventfd]' ]; then
			echo "${f##*/}"
			return 0
		fi
	done
	return 1
}

@test "a burst of 200 events: one open, one pread an event, a write per buffer" {
	local start final

	start=$(cat "$DEMO_SYS/kevent-sensor-test.0/temperature")
	watch_start --json --attr temperature --path "$SENSOR0"
	EVENTFD=$(eventfd_of "$WATCH_PID")
	strace_attach -e trace=openat,openat2,open,pread64,read,write,readlinkat,fstat,newfstatat,close
	# Stopped, the watcher finds the whole burst queued when it goes on.
	kill -STOP "$WATCH_PID"
	printf 'notify %s' "$BURST" > "$SENSOR_TEST_DBG/kevent-sensor-test.0/bench"
	kill -CONT "$WATCH_PID"
	watch_lines "$BURST" 60
	strace_detach

	final=$((start + BURST))
	run jq -r .value "$WATCH_OUT"
	assert_success
	assert_equal "${#lines[@]}" "$BURST"
	assert_equal "${lines[$((BURST - 1))]}" "$final"

	# The attribute is opened once, and the subsystem link read once.
	assert_equal "$(calls 'openat2?' /temperature)" 1
	assert_equal "$(calls readlinkat subsystem)" 1
	# One pread() an event reads the value; nothing else is read.
	assert_equal "$(calls pread64)" "$BURST"
	assert_equal "$(calls read)" 0
	# The closes: /sys, opened for the attribute's open and for the
	# subsystem lookup, and the directory opened to read the link
	assert_equal "$(calls close)" 3
	# Lines leave in buffers, not one write() each.
	run calls write
	echo "write() calls: $output" >&2
	assert [ "$output" -ge 1 ]
	assert [ "$output" -le $((BURST / 8)) ]
}

@test "a device created again at the same path is read through a new descriptor, without an error" {
	watch_start --json --count 2 --attr temperature --path "$SENSOR0"
	sensor_test_set 0 temperature 26500
	watch_lines 1
	# The watcher holds the old attribute open: reads of it fail ENODEV.
	rmmod kevent_sensor_test
	sensor_test_load
	sensor_test_set 0 temperature 27500
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.path, .value, .error]' "$WATCH_OUT"
	assert_line --index 0 '["/devices/platform/kevent-sensor-test.0","26500",null]'
	assert_line --index 1 '["/devices/platform/kevent-sensor-test.0","27500",null]'
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "with 16 descriptors allowed, --list reads every value it reads without a limit" {
	local n

	"$KEVENT_WATCH" --list --json > "$BATS_TEST_TMPDIR/all.json"
	n=$(wc -l < "$BATS_TEST_TMPDIR/all.json")
	assert [ "$n" -ge 6 ]
	run bash -c "ulimit -n 16 && exec '$KEVENT_WATCH' --list --json > '$BATS_TEST_TMPDIR/low.json'"
	assert_success
	assert_equal "$(wc -l < "$BATS_TEST_TMPDIR/low.json")" "$n"
	run grep -c EMFILE "$BATS_TEST_TMPDIR/low.json"
	assert_output 0
	assert_equal \
		"$(jq -c '[.path, .attr, .value, .error]' "$BATS_TEST_TMPDIR/low.json")" \
		"$(jq -c '[.path, .attr, .value, .error]' "$BATS_TEST_TMPDIR/all.json")"
}

@test "an attribute that reads ENODEV as soon as it is opened is reported with its error and its device's subsystem, under valgrind" {
	local vg_log=$BATS_TEST_TMPDIR/valgrind.log

	sensor_test_set 1 failing 1
	run --separate-stderr valgrind -q --error-exitcode=99 \
		--log-file="$vg_log" "$KEVENT_WATCH" --list --json \
		--path '*/kevent-sensor-test.1' --attr temperature
	sensor_test_set 1 failing 0
	assert_success
	run jq -c '[.path, .attr, .subsystem, .error, .value]' <<<"$output"
	assert_output '["/devices/platform/kevent-sensor-test.1","temperature","platform","ENODEV",null]'
	run cat "$vg_log"
	assert_output ''
}

@test "an attribute the user may not read: 20 events of it cost one open and one subsystem lookup, and each says EACCES" {
	local fd

	watch_start_as 65534 --json --attr calibration --path "$SENSOR0"
	strace_attach -e trace=openat,openat2,open,readlinkat
	# Stopped, the watcher finds the 20 events queued when it goes on.
	kill -STOP "$WATCH_PID"
	exec {fd}> "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	for _ in $(seq 20); do
		printf calibration >&"$fd"
	done
	exec {fd}>&-
	kill -CONT "$WATCH_PID"
	watch_lines 20 60
	strace_detach

	run jq -r '"\(.attr) \(.value) \(.error) \(.subsystem)"' "$WATCH_OUT"
	assert_equal "${#lines[@]}" 20
	run sort -u <<<"$output"
	assert_output 'calibration null EACCES platform'
	# The failed open is given again, not tried again, for a second
	# (ATTR_CACHE_FAILED_MS): one open, two if the second went by
	run calls 'openat2?' /calibration
	echo "opens: $output" >&2
	assert [ "$output" -ge 1 ]
	assert [ "$output" -le 2 ]
	run calls readlinkat subsystem
	assert [ "$output" -le 2 ]
}
