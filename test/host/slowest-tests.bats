#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# scripts/slowest-tests, which scripts/check runs on its stages' logs: the
# ten slowest tests of bats' TAP output, the slowest first, with their stage.

setup()
{
	load ../test_helper/common
	cd "$BATS_TEST_TMPDIR" || return
	{
		echo '1..8'
		for i in 1 2 3 4 5 6 7; do
			echo "ok $i host test $i in $((i * 1000))ms"
		done
		echo 'ok 8 a skipped test # skip not here'
	} > host.log
	{
		echo '1..5'
		echo 'ok 1 a slow VM test in 95000ms'
		echo 'not ok 2 a failing VM test in 4500ms'
		echo '# (in test file test/vm/x.bats, line 3)'
		echo 'ok 3 a quick VM test in 12ms'
		echo 'ok 4 the VM test that took 1 s in 999ms'
		echo 'ok 5 a VM test in 6000ms'
	} > vm.log
}

@test "the ten slowest tests of all the logs, the slowest first, each with its stage and time" {
	run -0 "$KEVENT_TOP/scripts/slowest-tests" host.log vm.log
	assert_equal "${#lines[@]}" 10
	assert_equal "${lines[0]}" '   95.0 s vm: a slow VM test'
	assert_equal "${lines[1]}" '    7.0 s host: host test 7'
	# Equal times in the order of the logs
	assert_equal "${lines[2]}" '    6.0 s host: host test 6'
	assert_equal "${lines[3]}" '    6.0 s vm: a VM test'
	assert_equal "${lines[5]}" '    4.5 s vm: a failing VM test'
	assert_equal "${lines[9]}" '    1.0 s host: host test 1'
	refute_output --partial skipped
	refute_output --partial 'quick VM test'
}

@test "-n N gives N tests; a log with no timed test prints nothing" {
	run -0 "$KEVENT_TOP/scripts/slowest-tests" -n 2 vm.log host.log
	assert_output "$(printf '%s\n' '   95.0 s vm: a slow VM test' '    7.0 s host: host test 7')"
	printf '1..1\nok 1 no time\n' > unit.log
	run -0 "$KEVENT_TOP/scripts/slowest-tests" unit.log
	assert_output ''
	run "$KEVENT_TOP/scripts/slowest-tests" -n x vm.log
	assert_failure 2
	assert_output "slowest-tests: not a number: 'x'"
}
