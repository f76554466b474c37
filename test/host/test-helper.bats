#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The VM suites' helpers that need no kernel of ours, checked on the host.
# is_waiting decides when a test may make its first event: a false yes
# sends the event before kevent-watch has joined its groups.

setup()
{
	load ../test_helper/kevent
}

teardown()
{
	[ -z "${PID:-}" ] || kill "$PID" 2>/dev/null || true
}

# until_syscall PID NR: wait (up to 10 s) until PID sleeps in syscall NR
until_syscall()
{
	local nr i

	for ((i = 0; i < 100; i++)); do
		read -r nr _ < "/proc/$1/syscall" && [ "$nr" = "$2" ] && return 0
		sleep 0.1
	done
	echo "process $1 is not in syscall $2" >&2
	return 1
}

@test "is_waiting: a process asleep in poll() waits for events" {
	python3 -c 'import select; select.poll().poll()' &
	PID=$!
	until_syscall "$PID" 7
	run -0 is_waiting "$PID"
}

@test "is_waiting: a process asleep in read(), as the dynamic loader reads a library, does not" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	cat <> "$BATS_TEST_TMPDIR/fifo" &
	PID=$!
	until_syscall "$PID" 0
	run -1 is_waiting "$PID"
}

@test "load_bats_library defines what bats_load_library does for bats-support and bats-assert, with no dirname started" {
	local lib log=$BATS_TEST_TMPDIR/ran ours theirs

	fake_commands "$BATS_TEST_TMPDIR/bin" "$log" dirname
	for lib in bats-support bats-assert; do
		# The functions each way defines, from none of them
		unset -f $(declare -F | awk '$3 ~ /^(assert|refute|batslib_|fail)/ { print $3 }')
		PATH="$BATS_TEST_TMPDIR/bin:$PATH" load_bats_library "$lib"
		ours=$(declare -F | awk '$3 ~ /^(assert|refute|batslib_|fail)/')
		[ ! -e "$log" ] || fail "load_bats_library $lib started dirname $(wc -l <"$log") times"
		unset -f $(declare -F | awk '$3 ~ /^(assert|refute|batslib_|fail)/ { print $3 }')
		PATH="$BATS_TEST_TMPDIR/bin:$PATH" bats_load_library "$lib"
		theirs=$(declare -F | awk '$3 ~ /^(assert|refute|batslib_|fail)/')
		# The fake dirname is the one bats_load_library finds
		[ -s "$log" ] || fail "bats_load_library $lib started no dirname of the fake's"
		rm -f "$log"
		[ -n "$ours" ] || fail "load_bats_library $lib defined nothing"
		[ "$ours" = "$theirs" ] || fail "load_bats_library $lib: $ours; bats_load_library: $theirs"
	done
}
