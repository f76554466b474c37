#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# scripts/run-host-tests: the host stage's files that boot the VM run in a
# bats of their own beside the others; both reports are whole, and a
# failure on either side fails the run.
# shellcheck disable=SC2016 # test lines written for the inner bats

setup()
{
	load ../test_helper/common
	cd "$KEVENT_TOP" || return
}

# fixture NAME LINE...: a bats file BATS_TEST_TMPDIR/NAME.bats with one
# test, NAME, whose body is the LINEs
fixture()
{
	local name=$1

	shift
	# Not a heredoc: bats would rewrite a line starting with @test here
	printf '%s\n' "@test \"$name\" {" "$@" '}' > "$BATS_TEST_TMPDIR/$name.bats"
}

@test "the VM's files run beside the others, at the same time, and their report follows the others' whole" {
	local d=$BATS_TEST_TMPDIR

	# Each waits until the other has started: one after the other, the
	# first would wait for ever (and fail after 20 s)
	fixture beside "touch $d/beside.started" \
		"for ((i = 0; i < 200; i++)); do [ -e $d/other.started ] && break; sleep 0.1; done" \
		"[ -e $d/other.started ]"
	fixture other "touch $d/other.started" \
		"for ((i = 0; i < 200; i++)); do [ -e $d/beside.started ] && break; sleep 0.1; done" \
		"[ -e $d/beside.started ]"
	run env KEVENT_HOST_BESIDE="$d/beside.bats" scripts/run-host-tests "$d/beside.bats" "$d/other.bats"
	assert_success
	assert_equal "${lines[0]}" 1..1
	assert_regex "${lines[1]}" '^ok 1 other in [0-9]+ms$'
	assert_equal "${lines[2]}" 1..1
	assert_regex "${lines[3]}" '^ok 1 beside in [0-9]+ms$'
	assert_equal "${#lines[@]}" 4
}

@test "a failing test on either side fails the run, and both reports are shown" {
	local d=$BATS_TEST_TMPDIR

	fixture passes true
	fixture fails false
	run env KEVENT_HOST_BESIDE="$d/fails.bats" scripts/run-host-tests "$d/passes.bats" "$d/fails.bats"
	assert_failure 1
	assert_line --regexp '^ok 1 passes in [0-9]+ms$'
	assert_line --regexp '^not ok 1 fails in [0-9]+ms$'
	run env KEVENT_HOST_BESIDE="$d/passes.bats" scripts/run-host-tests "$d/passes.bats" "$d/fails.bats"
	assert_failure 1
	assert_line --regexp '^ok 1 passes in [0-9]+ms$'
	assert_line --regexp '^not ok 1 fails in [0-9]+ms$'
}
