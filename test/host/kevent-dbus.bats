#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-dbus's command line, on the host: a usage error is one line and
# status 2, a failure before it serves (no kevent layer, no system bus) one
# line and status 1. What it serves is tested in the VM (test/vm/dbus.bats).
# shellcheck disable=SC2154 # bats' run --separate-stderr sets $stderr

setup()
{
	load ../test_helper/common
	KDBUS=$KEVENT_TOP/userspace/dbus/kevent-dbus
}

@test "kevent-dbus --help names its options and exit statuses; --version its version" {
	run -0 --separate-stderr "$KDBUS" --help
	assert_line --regexp '^Usage: kevent-dbus \[--kevent\] \[--stock\] \[--rcvbuf BYTES\]$'
	assert_line --regexp '^ +--stock '
	assert_line --regexp '^ +--rcvbuf BYTES '
	assert_line --partial 'Exit status: 0 on SIGTERM or SIGINT, 1 on a failure, 2 on a usage error.'
	assert_equal "$stderr" ''
	# The package's version, as kevent-watch gives it
	run -0 "$KEVENT_TOP/userspace/cli/kevent-watch" --version
	version=${output##* }
	run -0 "$KDBUS" -V
	assert_output "kevent-dbus $version"
}

@test "kevent-dbus usage errors: one line on stderr, status 2, nothing on stdout" {
	local args

	for args in --bogus -x extra --rcvbuf --rcvbuf=0 --rcvbuf=-5 \
		--rcvbuf=2147483648 --rcvbuf=12k '--stock --rcvbuf 4096'; do
		# shellcheck disable=SC2086 # the words of one command line
		run -2 --separate-stderr "$KDBUS" $args
		assert_equal "$output" ''
		[ "${#stderr_lines[@]}" -eq 1 ] ||
			fail "kevent-dbus $args: ${#stderr_lines[@]} lines: $stderr"
		assert_regex "$stderr" '^kevent-dbus: '
	done
	run -2 --separate-stderr "$KDBUS" --rcvbuf 12k
	assert_equal "$stderr" "kevent-dbus: --rcvbuf takes a number of bytes from 1 to 2147483647, not '12k'"
}

@test "kevent-dbus without a system bus to connect to: one line, status 1" {
	DBUS_SYSTEM_BUS_ADDRESS=unix:path=$BATS_TEST_TMPDIR/no-bus \
		run -1 --separate-stderr "$KDBUS" --stock
	assert_equal "$stderr" 'kevent-dbus: cannot connect to the system bus: No such file or directory'
}
