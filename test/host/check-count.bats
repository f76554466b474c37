#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# scripts/check counts tests as tests: a unit test function is one test,
# whatever the number of checks (assertions) inside it, which the summary
# gives apart; a unit test that cannot run here counts as skipped.

setup()
{
	load ../test_helper/common
	cd "$KEVENT_TOP" || return
	export KEVENT_CHECK_LOG_DIR=$BATS_TEST_TMPDIR
}

# unit_tests: the test functions of test/unit/, each run once per run
unit_tests()
{
	cat test/unit/*.c | grep -cE '^[[:space:]]*UNIT_RUN\(test_|^UNIT_TEST\('
}

@test "the unit stage counts each test function once, and its assertions apart" {
	local re='^check: ([0-9]+) tests passed, 0 failed, ([0-9]+) skipped; ([0-9]+) unit assertions passed$'

	# Two valgrind runs rather than make check's twenty: the count is the
	# same, from the plain run
	VALGRIND_RUNS=2 run scripts/check unit
	assert_success
	assert_line 'valgrind run 2 of 2'
	assert_regex "${lines[-1]}" "$re"
	[[ ${lines[-1]} =~ $re ]] || fail "no summary line"
	assert_equal $((BASH_REMATCH[1] + BASH_REMATCH[2])) "$(unit_tests)"
	# Far more assertions than tests: they are not what is counted
	assert [ "${BASH_REMATCH[3]}" -gt $((2 * BASH_REMATCH[1])) ]
}

@test "the unit binary reports tests, skips and checks apart, and names a skipped test" {
	cd userspace || return
	run ../test/unit/kevent-unit
	assert_success
	assert_line --regexp '^unit: [0-9]+ tests passed, 0 failed, [0-9]+ skipped; [0-9]+ checks passed, 0 failed$'
	# Under valgrind openat2() is unknown: the two tests of it say they
	# are skipped, and why
	run valgrind -q ../test/unit/kevent-unit
	assert_success
	assert_line 'skip: no openat2() here: kevent_device_get_subsystem_at()'
	assert_line 'skip: openat2() is not used here (valgrind, or an old kernel)'
	assert_line --regexp '^unit: [0-9]+ tests passed, 0 failed, 2 skipped; '
}

@test "without valgrind the unit tests fail, rather than skip their valgrind run" {
	run make -s -C userspace check VALGRIND=kevent-no-such-valgrind
	assert_failure
	assert_line 'kevent-no-such-valgrind not found (scripts/deps installs it)'
}

# line_of REGEX: the number of the first line of $output that matches REGEX
line_of()
{
	grep -nE -m 1 -- "$1" <<< "$output" | cut -d: -f1
}

@test "the unit stage runs beside the host stage, its report shown after the host stage's, both counted" {
	local host_file=$BATS_TEST_TMPDIR/one.bats
	local re='^check: ([0-9]+) tests passed, 0 failed, ([0-9]+) skipped; [0-9]+ unit assertions passed$'

	printf '%s\n' '@test "one host test" { true; }' > "$host_file"
	KEVENT_CHECK_HOST_FILES=$host_file VALGRIND_RUNS=1 \
		run scripts/check host unit
	assert_success
	# The unit stage starts first, in the background; its report comes
	# whole once the host stage has ended
	assert [ "$(line_of '^check: stage unit at .*, beside the next')" -lt "$(line_of '^check: stage host at ')" ]
	assert [ "$(line_of '^check: stage host at ')" -lt "$(line_of '^ok 1 one host test')" ]
	assert [ "$(line_of '^ok 1 one host test')" -lt "$(line_of '^check: stage host took ')" ]
	assert [ "$(line_of '^check: stage host took ')" -lt "$(line_of '^valgrind run 1 of 1$')" ]
	assert [ "$(line_of '^valgrind run 1 of 1$')" -lt "$(line_of '^check: stage unit took .* beside the one before$')" ]
	# Both counted: the unit test functions and the one host test
	assert_regex "${lines[-1]}" "$re"
	[[ ${lines[-1]} =~ $re ]] || fail "no summary line"
	assert_equal $((BASH_REMATCH[1] + BASH_REMATCH[2])) $(($(unit_tests) + 1))
}
