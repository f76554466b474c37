#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Every installed kernel: scripts/kernel-version picks one and only pairs a
# module with it, kevent's modules build for each with W=1 and no warning,
# a failed build names the kernel and its errors, and the newest kernel
# source comes through apt state of the tree's own.

setup()
{
	load ../test_helper/common
	cd "$KEVENT_TOP"
}

# build_copy DIR ARGS...: kevent's sources copied into DIR, built there with
# make ARGS; the output and status as `run` leaves them
build_copy()
{
	local dir=$1

	shift
	scripts/copy-kernel-sources "$dir"
	run make -s -C "$dir" "$@" modules
}

@test "kernel-version --all lists the installed kernels with image, modules and headers, oldest first" {
	run -0 scripts/kernel-version --all
	# scripts/deps installs Debian 12's 6.1 and its 6.12
	assert_line --regexp '^6\.1\.[0-9]+-[0-9]+-amd64$'
	assert_line --regexp '^6\.12\.[0-9]+\+deb12-amd64$'
	assert_equal "$output" "$(printf '%s\n' "${lines[@]}" | sort -V)"
	for r in "${lines[@]}"; do
		[ -e "/boot/vmlinuz-$r" ] || fail "no /boot/vmlinuz-$r"
		[ -d "/lib/modules/$r/build" ] || fail "no /lib/modules/$r/build"
	done
}

@test "kernel-version picks the newest kernel when the running one has no headers, KVER= and KDIR= another" {
	run -0 scripts/kernel-version --all
	oldest=${lines[0]}
	newest=${lines[-1]}
	[ "$oldest" != "$newest" ] || fail "one kernel installed: $newest (scripts/deps installs two)"
	run -0 env -u KVER -u KDIR KEVENT_VM_ONLY=1 scripts/kernel-version
	assert_output "$newest"
	run -0 env -u KDIR KVER="$oldest" scripts/kernel-version
	assert_output "$oldest"
	run -0 env -u KVER KDIR="/lib/modules/$oldest/build" scripts/kernel-version
	assert_output "$oldest"
}

@test "kernel-version: a KVER or KDIR that is not an installed kernel fails with one line naming it" {
	run --separate-stderr env -u KDIR KVER=0.0-none scripts/kernel-version
	assert_failure 1
	assert_output ''
	assert_equal "${#stderr_lines[@]}" 1
	assert_stderr_partial 'KVER=0.0-none: no /lib/modules/0.0-none/build'
	run --separate-stderr env -u KVER KDIR="$BATS_TEST_TMPDIR" scripts/kernel-version
	assert_failure 1
	assert_equal "${#stderr_lines[@]}" 1
	assert_stderr_partial "KDIR=$BATS_TEST_TMPDIR: no "
}

@test "make -C kernel KDIR=<each installed kernel> W=1: every module builds, for that kernel, without a warning" {
	run -0 scripts/kernel-version --all
	releases=("${lines[@]}")
	for r in "${releases[@]}"; do
		dir=$BATS_TEST_TMPDIR/$r
		build_copy "$dir" KDIR="/lib/modules/$r/build" W=1
		assert_success
		assert_line "kevent: building for $r (/lib/modules/$r/build)"
		refute_output --partial 'warning:'
		for m in kevent kevent_bridge kevent_demo; do
			run -0 modinfo -F vermagic "$dir/$m.ko"
			assert_equal "${output%% *}" "$r"
		done
	done
}

@test "a build that fails names the kernel and its errors in a few lines, not the compiler's whole output" {
	run -0 scripts/kernel-version --all
	r=${lines[-1]}
	dir=$BATS_TEST_TMPDIR/broken
	scripts/copy-kernel-sources "$dir"
	# The dump attributes as they were before 6.6, without the shim
	sed -i 's/kevent_dumpit_attrs(info)/info->attrs/' "$dir/kevent_netlink.c"
	run make -s -C "$dir" KDIR="/lib/modules/$r/build" modules
	assert_failure
	assert_line "kevent: the modules do not build for kernel $r (/lib/modules/$r/build):"
	assert_line --regexp "^  kevent_netlink\.c:[0-9]+:[0-9]+: error: .*has no member named .attrs.$"
	assert_line --partial "(whole output: $dir/kbuild.log)"
	refute_output --partial 'CC [M]'
	refute_output --partial 'In function'
	# The kernel's line, the errors (two, one per dump), the two closing
	# lines and make's own
	[ "${#lines[@]}" -le 8 ] || fail "${#lines[@]} lines"
	run grep -c 'error:' "$dir/kbuild.log"
	assert_output 2
}

@test "a build without a prepared kernel says which kernel directory is missing" {
	dir=$BATS_TEST_TMPDIR/nokdir
	build_copy "$dir" KDIR="$BATS_TEST_TMPDIR/no-such-kernel"
	assert_failure
	assert_line "kevent: the modules do not build for kernel of unknown release ($BATS_TEST_TMPDIR/no-such-kernel):"
	[ "${#lines[@]}" -le 9 ] || fail "${#lines[@]} lines"
}

@test "build-test-power builds test_power.ko whose exit waits 100 ms, not 10 s, and refuses a source without that wait" {
	local copy=$BATS_TEST_TMPDIR/tree

	run -0 scripts/build-test-power
	run diff build/test_power/test_power.c.orig build/test_power/test_power.c
	assert_failure 1
	assert_line '< 	ssleep(10);'
	assert_line '> 	msleep(100);'
	run -0 grep -c 'sleeping for 100 ms' build/test_power/test_power.ko
	# A source whose exit has no such wait is not built as it is
	mkdir -p "$copy/scripts" "$copy/build/test_power"
	cp scripts/build-test-power scripts/kernel-version "$copy/scripts/"
	grep -v 'ssleep(10);' build/test_power/test_power.c.orig \
		> "$copy/build/test_power/test_power.c.orig"
	run "$copy/scripts/build-test-power"
	assert_failure 1
	assert_output --regexp "^build-test-power: no 'ssleep\(10\);' in the exit of .*test_power.c to shorten$"
	refute [ -e "$copy/build/test_power/test_power.ko" ]
}

@test "the VM refuses modules built for another kernel than the one it boots" {
	run -0 scripts/kernel-version --all
	[ "${#lines[@]}" -ge 2 ] || fail "one kernel installed: ${lines[*]}"
	built=$(modinfo -F vermagic kernel/kevent.ko | cut -d' ' -f1)
	other=
	for r in "${lines[@]}"; do
		[ "$r" = "$built" ] || other=$r
	done
	run --separate-stderr env KVER="$other" scripts/vm/run-bats test/fixtures/vm/passing.bats
	assert_failure 2
	assert_stderr_line "vm/run-bats: $KEVENT_TOP/kernel/kevent.ko is built for $built, the VM boots $other (make KVER=$other, or KVER=$built make ...)"
}

@test "the newest linux-source comes through a private apt state; the system's is untouched, and no host is named in the tree" {
	before=$(ls -la --time-style=full-iso /etc/apt /etc/apt/sources.list.d \
		/var/lib/apt/lists /var/cache/apt/archives 2>&1)
	rm -f build/kernel-source/apt/stamp
	run -0 scripts/fetch-kernel-source --print
	assert_output --regexp "^$KEVENT_TOP/build/kernel-source/linux-source-[0-9]+\.[0-9]+\.tar\.xz$"
	tarball=$output
	assert_equal "$(ls -la --time-style=full-iso /etc/apt /etc/apt/sources.list.d \
		/var/lib/apt/lists /var/cache/apt/archives 2>&1)" "$before"
	# The newest of those offered, newer than the stock kernels
	run -0 scripts/kernel-version --all
	newest_stock=${lines[-1]%%-*}
	src=$(basename "$tarball" .tar.xz)
	assert_equal "$(printf '%s\n' "${newest_stock%.*}" "${src#linux-source-}" | sort -V | tail -n 1)" \
		"${src#linux-source-}"
	# The archive is the machine's own, named only in the private list
	run -0 cat build/kernel-source/apt/sources.list
	assert_line --regexp '^deb \[signed-by=[^]]+\] [a-z]+://[^ ]+ trixie-backports main$'
	run git grep -nE '(deb|ftp|security)\.debian\.org|snapshot\.debian' -- .
	assert_output ''
}
