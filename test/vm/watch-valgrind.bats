#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch under valgrind: no invalid access, no leak, on the paths a
# user takes (list, events, an unreadable value, the layer going away).

setup()
{
	load ../test_helper/kevent
	modules_load
	VG_LOG=$BATS_TEST_TMPDIR/valgrind.log
	wrapper=$BATS_TEST_TMPDIR/kevent-watch-vg
	printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --log-file=%s %s "$@"\n' \
		"$VG_LOG" "$KEVENT_WATCH" > "$wrapper"
	chmod +x "$wrapper"
	KEVENT_WATCH=$wrapper
	WATCH_START_SECS=60
}

teardown()
{
	watch_stop
	modules_unload
}

@test "--list --json runs clean under valgrind" {
	run --separate-stderr "$KEVENT_WATCH" --list --json
	assert_success
	assert_equal "${#lines[@]}" 6
	run cat "$VG_LOG"
	assert_output ""
}

@test "events, an unplugged device and --count run clean under valgrind" {
	watch_start --json --count 3
	demo_set 0 temperature 12345
	watch_lines 1 60
	demo_set 0 label $'tab\there \xc3\xa9'
	watch_lines 2 60
	demo_set 1 unplug 1
	watch_wait 60
	assert_equal "$WATCH_STATUS" 0
	run jq -r '.value' "$WATCH_OUT"
	assert_output $'12345\ntab\there \xc3\xa9\nnull'
	run cat "$VG_LOG"
	assert_output ""
}

@test "the layer going away under a listener runs clean under valgrind" {
	watch_start --json
	modules_unload
	watch_wait 60
	assert_equal "$WATCH_STATUS" 1
	run cat "$VG_LOG"
	assert_output ""
}

@test "--exec commands, one failing, and an unreadable value run clean under valgrind" {
	watch_start --json --count 2 --exec 'echo "cmd [$KEVENT_VALUE] [$KEVENT_ERROR]"; exit 2'
	demo_set 0 temperature 23456
	watch_lines 2 60
	demo_set 1 unplug 1
	watch_wait 60
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 4
	assert_line --index 1 'cmd [23456] []'
	assert_line --index 3 --regexp '^cmd \[\] \[(ENODEV|ENOENT)\]$'
	run grep -c 'exited with status 2$' "$WATCH_ERR"
	assert_output 2
	run cat "$VG_LOG"
	assert_output ""
}
