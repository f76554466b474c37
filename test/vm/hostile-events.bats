#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Forged events: a process with CAP_NET_ADMIN can send messages to kevent's
# multicast groups (test/tools/kevent-forge). kevent-watch reports only what
# the kernel sent, never reads a file a forged message names, says once
# that it ignores such messages and, when it ends, how many it ignored.

setup()
{
	load ../test_helper/kevent
	modules_load
	FORGE=$KEVENT_TOP/test/tools/kevent-forge
	TRACE=$BATS_TEST_TMPDIR/trace
}

teardown()
{
	watch_stop
	modules_unload
}

# traced_watch_start ARGS...: kevent-watch ARGS under strace, which logs its
# open calls to $TRACE; WATCH_PID is strace's, WATCH_CHILD kevent-watch's.
# Return once kevent-watch waits for events.
traced_watch_start()
{
	local i

	WATCH_OUT=$BATS_TEST_TMPDIR/watch.out
	WATCH_ERR=$BATS_TEST_TMPDIR/watch.err
	WATCH_CHILD=
	strace -f -qq -e trace=open,openat,openat2 -o "$TRACE" \
		"$KEVENT_WATCH" "$@" > "$WATCH_OUT" 2> "$WATCH_ERR" 3>&- &
	WATCH_PID=$!
	for i in $(seq 200); do
		[ -n "$WATCH_CHILD" ] ||
			WATCH_CHILD=$(pgrep -P "$WATCH_PID" -x kevent-watch) ||
			true
		[ -n "$WATCH_CHILD" ] && is_waiting "$WATCH_CHILD" && return 0
		kill -0 "$WATCH_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "kevent-watch under strace did not start waiting for events" >&2
	cat "$WATCH_ERR" >&2
	return 1
}

# wait_stderr TEXT: wait until kevent-watch's stderr has a line with TEXT
wait_stderr()
{
	local i

	for i in $(seq 100); do
		grep -qF -- "$1" "$WATCH_ERR" && return 0
		sleep 0.1
	done
	echo "kevent-watch did not print '$1' on stderr:" >&2
	cat "$WATCH_ERR" >&2
	return 1
}

@test "kevent-forge sends a forged event: status 0, and a usage error is status 2" {
	run "$FORGE" -c power /devices/platform/kevent-demo.0 temperature
	assert_success
	run "$FORGE" -S 5 -s 9 /../../etc passwd
	assert_success
	run "$FORGE" -c nosuchclass /devices x
	assert_failure 2
	run "$FORGE" /devices
	assert_failure 2
}

@test "forged events for /../../etc/passwd and a real sensor are not reported, /etc/passwd is never opened, the count is reported" {
	traced_watch_start --json --count 1
	run "$FORGE" -S 1 /../../etc passwd
	assert_success
	run "$FORGE" -S 2 /devices/platform/kevent-demo.0 temperature
	assert_success
	wait_stderr 'ignoring messages not sent by the kernel'

	# A real event afterwards is reported, and ends the watch (--count 1)
	demo_set 0 temperature 31234
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0

	run jq -c '[.type, .path, .attr, .value]' "$WATCH_OUT"
	assert_success
	assert_output '["event","/devices/platform/kevent-demo.0","temperature","31234"]'

	run cat "$WATCH_ERR"
	assert_line --index 0 'kevent-watch: ignoring messages not sent by the kernel'
	assert_line --index 1 'kevent-watch: ignored 2 messages not sent by the kernel'
	assert_equal "${#lines[@]}" 2

	# Nothing named passwd was opened, in whatever directory
	run grep -F passwd "$TRACE"
	assert_failure
	# The real event's value was read: the trace does show sysfs reads, and
	# the forged event of the real sensor was not read (once, not twice)
	# (one openat2 below /sys, or the last openat of the walk without it)
	run grep -cE '^[0-9]+ +(openat\([0-9]+, "temperature", O_RDONLY|openat2\([0-9]+, "devices/platform/kevent-demo\.0/temperature", \{flags=O_RDONLY)' "$TRACE"
	assert_output 1
	run grep -E '^[0-9]+ +openat\(AT_FDCWD, "/sys", ' "$TRACE"
	assert_success
}

@test "forged events in the human output: nothing printed for them, the count on exit" {
	watch_start --count 1
	run "$FORGE" /../../etc passwd
	assert_success
	run "$FORGE" -c general /devices/platform/kevent-demo.1 label
	assert_success
	run "$FORGE" -c general /devices/platform/kevent-demo.1 label
	assert_success
	wait_stderr 'ignoring messages not sent by the kernel'
	demo_set 1 label 'real one'
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output --regexp '^KEVENT\[[0-9.]+\] [0-9]+ general /devices/platform/kevent-demo\.1 label=real one \(platform\)$'
	run cat "$WATCH_ERR"
	assert_line --index 0 'kevent-watch: ignoring messages not sent by the kernel'
	assert_line --index 1 'kevent-watch: ignored 3 messages not sent by the kernel'
	assert_equal "${#lines[@]}" 2
}

@test "a forged event to a class the watcher did not join is not even delivered" {
	watch_start --json --class power --count 1
	run "$FORGE" -c general /devices/platform/kevent-demo.1 label
	assert_success
	demo_set 0 temperature 30500
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.attr, .value]' "$WATCH_OUT"
	assert_output '["temperature","30500"]'
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "a forged class sequence number does not make kevent-watch report a gap" {
	watch_start --json --count 2
	demo_set 0 temperature 30001
	watch_lines 1
	run "$FORGE" -S 1000000 /devices/platform/kevent-demo.0 temperature
	assert_success
	wait_stderr 'ignoring messages not sent by the kernel'
	demo_set 0 temperature 30002
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.type, .value]' "$WATCH_OUT"
	assert_output - <<'EOF'
["event","30001"]
["event","30002"]
EOF
}
