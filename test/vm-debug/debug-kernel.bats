#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The debug kernel of `make check-debug` is what it claims to be: built with
# KASAN, lockdep, kmemleak, failslab and KUnit, each of them working at the
# time this file runs, and the tests load the modules built for it.

setup()
{
	load ../test_helper/kevent
}

# config_has LINE: the kernel's configuration, read from /proc/config.gz
# once into KCONFIG (each process started takes a second or more on this
# kernel), has LINE
config_has()
{
	[ -n "${KCONFIG:-}" ] || KCONFIG=$'\n'$(zcat /proc/config.gz)$'\n'
	[[ $KCONFIG == *$'\n'"$1"$'\n'* ]] ||
		fail "the kernel's config has no $1"
}

@test "the debug run boots the debug kernel and loads the modules built for it" {
	assert_equal "${KEVENT_DEBUG_KERNEL:-}" 1
	run uname -r
	assert_output --regexp '-kevent-debug$'
	assert_equal "$KEVENT_MODULE_DIR" "$KEVENT_TOP/build/debug-kernel/kevent"
	run modinfo -F vermagic "$KEVENT_MODULE_DIR/kevent.ko"
	assert_output --regexp "^$(uname -r) "
	run modinfo -F vermagic "$KEVENT_TEST_POWER"
	assert_output --regexp "^$(uname -r) "
}

@test "the debug kernel is the newest kernel source Debian ships, newer than every stock kernel installed" {
	run -0 ls "$KEVENT_TOP"/build/kernel-source/
	src=$(printf '%s\n' "${lines[@]}" | sed -n 's/^linux-source-\([0-9.]*\)\.tar\.xz$/\1/p')
	[ -n "$src" ] || fail "no linux-source-X.Y.tar.xz in build/kernel-source/: $output"
	run uname -r
	assert_output --regexp "^${src//./\\.}(\.[0-9]+)?-kevent-debug$"
	run -0 "$KEVENT_TOP/scripts/kernel-version" --all
	for stock in "${lines[@]}"; do
		stock=$(cut -d. -f1,2 <<<"$stock")
		newest=$(printf '%s\n' "$stock" "$src" | sort -V | tail -n 1)
		if [ "$newest" != "$src" ] || [ "$stock" = "$src" ]; then
			fail "linux-source-$src is not newer than the stock $stock"
		fi
	done
}

@test "the kernel is built with KASAN, lockdep, RCU and sleep checks, kmemleak, fault injection and KUnit" {
	[ -e /proc/config.gz ] || fail "no /proc/config.gz"
	config_has CONFIG_KASAN=y
	config_has CONFIG_KASAN_GENERIC=y
	config_has CONFIG_PROVE_LOCKING=y
	config_has CONFIG_PROVE_RCU=y
	config_has CONFIG_DEBUG_ATOMIC_SLEEP=y
	config_has CONFIG_DEBUG_KMEMLEAK=y
	config_has CONFIG_FAILSLAB=y
	config_has CONFIG_FAIL_PAGE_ALLOC=y
	config_has CONFIG_FAULT_INJECTION_DEBUG_FS=y
	config_has CONFIG_KUNIT=y
	config_has CONFIG_KUNIT_DEBUGFS=y
}

@test "KASAN initialized at boot" {
	run dmesg
	assert_output --partial 'KernelAddressSanitizer initialized'
}

@test "lockdep runs and has not turned itself off" {
	[ -e /proc/lockdep ] || fail "no /proc/lockdep"
	# All of lockdep_stats shown when it fails: what ran out, if anything
	run cat /proc/lockdep_stats
	assert_success
	assert_line --regexp '^ *debug_locks: +1$'
}

@test "the guest pages with four levels, where KASAN knows its direct map from the first interrupt" {
	local flags

	# With five, KASAN took an early interrupt's access to the direct
	# map for a wild one in some boots: scripts/vm/run-bats boots no5lvl
	run -0 cat /proc/cmdline
	assert_output --regexp '(^| )no5lvl( |$)'
	while read -r key _ flags; do
		[ "$key" != flags ] || break
	done < /proc/cpuinfo
	assert [ -n "$flags" ]
	[[ " $flags " != *" la57 "* ]] || fail "the kernel uses five-level paging (la57)"
}

@test "kmemleak is enabled and can scan" {
	# Reading fails (EBUSY) once kmemleak has disabled itself.
	run cat /sys/kernel/debug/kmemleak
	assert_success
	echo scan > /sys/kernel/debug/kmemleak
}

@test "failslab and fail_page_alloc have their debugfs controls, aimed per task" {
	for f in failslab fail_page_alloc; do
		for a in probability interval times verbose task-filter; do
			[ -e "/sys/kernel/debug/$f/$a" ] ||
				fail "no /sys/kernel/debug/$f/$a"
		done
	done
	[ -e /sys/kernel/debug/failslab/ignore-gfp-wait ]
	[ -e /proc/self/make-it-fail ]
}

@test "KUnit has its debugfs directory" {
	[ -d /sys/kernel/debug/kunit ]
}
