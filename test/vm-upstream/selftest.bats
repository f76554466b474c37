#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The series' selftest of the family (patch 5,
# tools/testing/selftests/net/nl_kevent.py), run from the patched tree as
# the net selftests run it, on the kernel that tree built: each of its cases
# passes, none skipped. The layer is built in; test_power, which the
# selftests' config asks for as a module, is the one built for that kernel.

setup()
{
	load ../test_helper/kevent
	[ -n "${KEVENT_UPSTREAM_KERNEL:-}" ] ||
		skip "not the kernel of check-upstream (scripts/vm/run-bats --upstream)"
	SELFTEST=$KEVENT_UPSTREAM_SRC/tools/testing/selftests/net/nl_kevent.py
}

@test "the series' YNL selftest nl_kevent.py passes each case on the kernel it built: requests, dumps and a power supply's event" {
	assert [ -x "$SELFTEST" ]
	# Left loaded, as builtin.bats leaves it (its exit leaks on this kernel)
	module_loaded test_power || insmod "$KEVENT_TEST_POWER"
	run python3 "$SELFTEST"
	echo "$output" >&2
	assert_success
	assert_line 'ok 1 nl_kevent.stats'
	assert_line 'ok 2 nl_kevent.sources_dump'
	assert_line 'ok 3 nl_kevent.replay_dump'
	assert_line 'ok 4 nl_kevent.power_supply_event'
	assert_line '# Totals: pass:4 fail:0 xfail:0 xpass:0 skip:0 error:0'
}
