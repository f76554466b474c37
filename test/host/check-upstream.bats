#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# make check-upstream (scripts/check-upstream, scripts/vm/run-bats
# --upstream): the arguments they take and refuse, and what they say when
# the upstream kernel is not built, without building or booting anything.
# Building and booting it is make check-upstream itself.
# shellcheck disable=SC2154 # bats sets $stderr

setup()
{
	load ../test_helper/common
}

@test "check-upstream refuses an unknown option, and files with --build-only, with its usage (status 2)" {
	run --separate-stderr "$KEVENT_TOP/scripts/check-upstream" --bogus
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "check-upstream: unknown option --bogus"
	assert_equal "${stderr_lines[1]}" "usage: scripts/check-upstream [--build-only] [BATS_FILE...]"
	run --separate-stderr "$KEVENT_TOP/scripts/check-upstream" --build-only test/vm-upstream/builtin.bats
	assert_failure 2
	assert_equal "$stderr" "usage: scripts/check-upstream [--build-only] [BATS_FILE...]"
	run --separate-stderr "$KEVENT_TOP/scripts/check-upstream" --help
	assert_success
	assert_output "usage: scripts/check-upstream [--build-only] [BATS_FILE...]"
}

@test "run-bats --upstream without the upstream kernel built names what is missing and how to build it (status 2)" {
	local tree=$BATS_TEST_TMPDIR/tree

	# A tree of its own, where nothing is built
	mkdir -p "$tree/scripts/vm" "$tree/test/vm-upstream"
	cp "$KEVENT_TOP/scripts/vm/run-bats" "$tree/scripts/vm/"
	cp "$KEVENT_TOP/test/vm-upstream/builtin.bats" "$tree/test/vm-upstream/"
	cd "$tree" || return
	run --separate-stderr scripts/vm/run-bats --upstream test/vm-upstream/builtin.bats
	assert_failure 2
	assert_equal "$stderr" "vm/run-bats: no $tree/build/upstream-kernel/bzImage (run scripts/check-upstream --build-only)"
}

@test "run-bats --upstream runs test/vm-upstream/ and kernel suites of test/vm/ that exist, by default" {
	local suites f

	suites=$(sed -n '/^UPSTREAM_SUITES="/,/"$/p' "$KEVENT_TOP/scripts/vm/run-bats" |
		sed 's/^UPSTREAM_SUITES="//; s/"$//')
	[ "$(wc -w <<< "$suites")" -ge 4 ]
	for f in $suites; do
		[ -f "$KEVENT_TOP/$f" ] || fail "$f of UPSTREAM_SUITES does not exist"
	done
	[ -f "$KEVENT_TOP/test/vm-upstream/builtin.bats" ]
}
