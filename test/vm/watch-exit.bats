#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# How kevent-watch ends: --count, --timeout, a closed pipe, bad usage, and
# a layer that is not loaded.

setup()
{
	load ../test_helper/kevent
	modules_load
}

teardown()
{
	watch_stop
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

@test "--count 2 ends with status 0 after two events" {
	watch_start --count 2
	demo_set 0 temperature 1000
	demo_set 0 temperature 2000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run wc -l < "$WATCH_OUT"
	assert_output 2
}

@test "--timeout 1, or 500ms, ends with status 0 when nothing happens" {
	run --separate-stderr timeout 20 "$KEVENT_WATCH" --timeout 1
	assert_success
	assert_output ""
	run --separate-stderr timeout 20 "$KEVENT_WATCH" --timeout 500ms
	assert_success
	assert_output ""
}

@test "--timeout that runs out before --count ends with status 3, the events printed before it" {
	watch_start --count 2 --timeout 2
	demo_set 0 temperature 3000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 3
	run wc -l < "$WATCH_OUT"
	assert_output 1
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "kevent-watch --json | head -n 1 ends promptly with status 0" {
	out=$BATS_TEST_TMPDIR/pipe.out
	bash -c '"$1" --json | head -n 1; echo "status ${PIPESTATUS[0]}"' \
		_ "$KEVENT_WATCH" > "$out" 2>&1 3>&- &
	pipeline=$!
	pid=
	for i in $(seq 100); do
		pid=$(pgrep -f -n "^$KEVENT_WATCH --json\$" || true)
		[ -n "$pid" ] && is_waiting "$pid" && break
		sleep 0.1
	done
	assert [ -n "$pid" ]
	demo_set 0 temperature 4242
	for i in $(seq 100); do
		kill -0 "$pipeline" 2>/dev/null || break
		sleep 0.1
	done
	run kill -0 "$pipeline"
	assert_failure
	run cat "$out"
	assert_line --index 0 --partial '"value":"4242"'
	assert_line --index 1 'status 0'
	assert_equal "${#lines[@]}" 2
}

@test "an unknown option is a usage error: status 2 and a pointer to --help on stderr" {
	run --separate-stderr "$KEVENT_WATCH" --no-such-option
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_stderr_partial 'no-such-option'
	assert_stderr_partial "Try 'kevent-watch --help'"
}

@test "bad --count and --timeout values are usage errors naming the option" {
	run --separate-stderr "$KEVENT_WATCH" --count -1
	assert_equal "$status" 2
	assert_stderr_partial '--count'
	run --separate-stderr "$KEVENT_WATCH" --timeout x
	assert_equal "$status" 2
	assert_stderr_partial '--timeout'
}

@test "--help fits one screen on stdout with status 0" {
	run --separate-stderr "$KEVENT_WATCH" --help
	assert_success
	assert_output --partial '--json'
	assert [ "${#lines[@]}" -le 24 ]
	run --separate-stderr "$KEVENT_WATCH" --version
	assert_success
	assert_output --regexp '^kevent-watch [0-9]'
}

@test "without the layer loaded: status 1 and one line that says so" {
	modules_unload
	run --separate-stderr "$KEVENT_WATCH" --json
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	assert_stderr_partial 'not loaded'
}
