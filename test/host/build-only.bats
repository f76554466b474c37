#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Plain make only compiles: it never installs packages or fetches a kernel
# source (scripts/deps), and a missing package or kernel headers are named
# in one message. The targets that test call scripts/deps first.

setup()
{
	load ../test_helper/common
	cd "$KEVENT_TOP" || return
}

@test "make, make modules and make userspace do not run scripts/deps" {
	local target

	# The top level's commands only (MAKE=: prints the sub-makes' lines
	# without running them); kernel/ and userspace/ never call it
	for target in all modules userspace; do
		run -0 env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -n MAKE=: "$target"
		assert_line --regexp '^: -C (kernel|userspace)$'
		refute_line scripts/deps
		refute_output --partial fetch-kernel-source
	done
	run grep -l 'scripts/deps$' kernel/Makefile userspace/Makefile
	assert_output ''
}

@test "make check, make demo and make check-debug run scripts/deps before they build" {
	local target

	for target in check demo check-debug check-kernels vm-test; do
		run -0 env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -n MAKE=: "$target"
		assert_equal "${lines[0]}" scripts/deps
	done
}

@test "make -C userspace names the Debian packages it lacks, and builds nothing" {
	mkdir "$BATS_TEST_TMPDIR/pc"
	# No pkg-config file at all: every library is missing
	PKG_CONFIG_LIBDIR=$BATS_TEST_TMPDIR/pc run make -C userspace
	assert_failure
	assert_output --partial 'missing Debian packages: libmnl-dev libudev-dev libsystemd-dev'
	refute_output --partial 'cc '
	# With one of them: the other two
	ln -s /usr/lib/x86_64-linux-gnu/pkgconfig/libmnl.pc "$BATS_TEST_TMPDIR/pc/"
	PKG_CONFIG_LIBDIR=$BATS_TEST_TMPDIR/pc run make -C userspace
	assert_failure
	assert_output --partial 'missing Debian packages: libudev-dev libsystemd-dev'
}

@test "make -C kernel names the missing kernel headers" {
	run make -C kernel KDIR="$BATS_TEST_TMPDIR/no-such-kernel"
	assert_failure
	assert_line "kevent: $BATS_TEST_TMPDIR/no-such-kernel is no kernel build tree: install the kernel's headers"
	assert_line "kevent: (linux-headers-<release>; scripts/deps installs Debian's), or set KDIR or KVER"
}
