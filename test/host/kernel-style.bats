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
