#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The kernel code passes the kernel's own checks.

setup()
{
	load ../test_helper/common
	cd "$KEVENT_TOP"
}

@test "kernel code passes checkpatch, kernel-doc and sparse without warnings" {
	run scripts/check-kernel-style
	assert_success
}

@test "a checkpatch that cannot run fails the check, with its status" {
	printf '#!/bin/sh\nexit 2\n' > "$BATS_TEST_TMPDIR/checkpatch.pl"
	chmod +x "$BATS_TEST_TMPDIR/checkpatch.pl"
	KEVENT_CHECKPATCH=$BATS_TEST_TMPDIR/checkpatch.pl run scripts/check-kernel-style
	assert_failure 1
	assert_line 'check-kernel-style: checkpatch failed (status 2) with no report:'
}
