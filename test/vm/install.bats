#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Real installations, in the guest, whose root is an overlay that goes away
# with it: make install (PREFIX=/usr/local, no DESTDIR) runs depmod and
# ldconfig, so that modprobe finds the modules and the dynamic linker the
# library without LD_LIBRARY_PATH; dkms install builds the modules for the
# running kernel and installs them where modprobe finds them. Each test
# removes what it installed, for the suites that run after it in the same
# boot. (test/host/install.bats and test/host/dkms.bats check the staged
# installation and the DKMS builds on the host, which they leave untouched.)

setup()
{
	load ../test_helper/kevent
	KREL=$(uname -r)
	# The debug kernel has no headers installed: there is nothing to
	# build or install for it
	[ -e "/lib/modules/$KREL/build" ] ||
		skip "the running kernel $KREL has no headers in /lib/modules/$KREL/build"
	EXT=$(module_ext "$KREL")
	DKMS_VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$KEVENT_TOP/kernel/dkms.conf")
	modules_unload
}

teardown()
{
	# Nothing to undo after the skip
	[ -n "${EXT:-}" ] || return 0
	bridge_unload
	# Only when a failed test left something installed (any module, or
	# kevent-watch, the first file of the userspace half): make uninstall
	# runs depmod, a minute under emulation
	if compgen -G "/lib/modules/$KREL/extra/kevent*" > /dev/null ||
		[ -e /usr/local/bin/kevent-watch ]; then
		make -C "$KEVENT_TOP" uninstall > /dev/null 2>&1 || true
	fi
	if [ -d "/var/lib/dkms/kevent/$DKMS_VERSION" ]; then
		dkms remove "kevent/$DKMS_VERSION" --all > /dev/null 2>&1 || true
	fi
	rm -rf "/usr/src/kevent-$DKMS_VERSION"
}

@test "make install runs depmod and ldconfig: modprobe loads the modules, and kevent-watch finds libkevent without LD_LIBRARY_PATH" {
	# Nothing of kevent's is installed yet
	run modinfo -n kevent
	assert_failure
	run -0 ldconfig -p
	refute_output --partial libkevent

	run -0 make -C "$KEVENT_TOP" install
	run -0 modinfo -n kevent
	assert_output "/lib/modules/$KREL/extra/kevent$EXT"
	# kevent_demo needs kevent: depmod recorded it, modprobe loads both
	run -0 modprobe kevent_demo
	run lsmod
	assert_line --regexp '^kevent_demo '
	assert_line --regexp '^kevent .* kevent_demo$'
	run -0 modprobe kevent_bridge

	run -0 ldconfig -p
	assert_line --regexp '^[[:space:]]libkevent\.so\.1 \(.*\) => /usr/local/lib/libkevent\.so\.1$'
	run -0 env -u LD_LIBRARY_PATH ldd /usr/local/bin/kevent-watch
	assert_line --regexp '^[[:space:]]libkevent\.so\.1 => /usr/local/lib/libkevent\.so\.1 '
	# The installed kevent-watch, by its name on PATH, with the modules
	# modprobe loaded
	run -0 env -u LD_LIBRARY_PATH PATH=/usr/local/bin:/usr/bin:/bin \
		kevent-watch --list --format '%p %a=%v'
	assert_line '/devices/platform/kevent-demo.0 temperature=25000'
	assert_line '/devices/virtual/net/lo mtu=65536'

	# make uninstall runs them again: neither is found any more
	bridge_unload
	run -0 make -C "$KEVENT_TOP" uninstall
	run modinfo -n kevent
	assert_failure
	run -0 ldconfig -p
	refute_output --partial libkevent
}

@test "dkms add and dkms install build the modules for the running kernel, which modprobe then loads" {
	run -0 make -C "$KEVENT_TOP" install-dkms
	run -0 dkms add "kevent/$DKMS_VERSION"
	# Built in the guest, for its kernel, and installed (about two
	# minutes under emulation)
	run -0 dkms install "kevent/$DKMS_VERSION" -k "$KREL"
	run -0 dkms status kevent
	assert_line "kevent/$DKMS_VERSION, $KREL, $(uname -m): installed"
	for m in kevent kevent_bridge kevent_demo; do
		run -0 modinfo -n "$m"
		assert_output "/lib/modules/$KREL/updates/dkms/$m$EXT"
		run -0 modinfo -F vermagic "$m"
		assert_equal "${output%% *}" "$KREL"
	done
	run -0 modprobe kevent_demo
	run -0 modprobe kevent_bridge
	run lsmod
	assert_line --regexp '^kevent .* kevent_(demo,kevent_bridge|bridge,kevent_demo)$'
	run -0 "$KEVENT_WATCH" --list --format '%p %a=%v'
	assert_line '/devices/platform/kevent-demo.1 label=sensor 1'
	assert_line '/devices/virtual/net/lo mtu=65536'

	bridge_unload
	run -0 dkms remove "kevent/$DKMS_VERSION" --all
	run modinfo -n kevent
	assert_failure
}
