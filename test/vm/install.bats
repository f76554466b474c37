#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Real installations, in the guest, whose root is an overlay that goes away
# with it: make install (PREFIX=/usr/local, no DESTDIR) runs depmod and
# ldconfig, so that modprobe finds the modules and the dynamic linker the
# library without LD_LIBRARY_PATH; dkms install puts the modules DKMS built
# for the running kernel where modprobe finds them. Each test removes what
# it installed, for the suites that run after it in the same boot.
# (test/host/install.bats and test/host/dkms.bats check the staged
# installation and the DKMS builds for every installed kernel on the host,
# which they leave untouched.)
#
# The DKMS build itself is the host's (scripts/build-dkms-tarball, run by
# make test-modules): the same dkms, sources and headers, packed with dkms
# mktarball --binaries-only, and loaded here with dkms ldtarball, which
# adds the sources make install-dkms installed (test/host/dkms.bats runs
# dkms add). Compiled in the guest, it took two minutes under emulation.
#
# Each test installs into a module tree of its own, a tmpfs over
# /lib/modules/KREL that holds the kernel's lists of built-in modules, the
# links to its headers and one of its modules (how they are compressed),
# but not the other 4,000: depmod then reads kevent's modules and that one.
# Over the whole tree it reads every module of the kernel through 9p under
# emulation, over a minute a run, and each test runs it twice. What matters
# here is that make install and dkms install run depmod, so that modprobe
# finds the modules they put there; kevent's modules depend on no module of
# the kernel's.

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
	module_tree_mount
}

# module_tree_mount: the tmpfs module tree over /lib/modules/KREL, with the
# kernel's modules.builtin* and modules.order, its build and source links,
# and the first module of its modules.order: dkms compresses the modules it
# installs as the kernel's are, which it reads in modules.dep
module_tree_mount()
{
	local tree=/lib/modules/$KREL saved first

	saved=$(mktemp -d)
	first=$(head -n 1 "$tree/modules.order")
	first=$first${EXT#.ko}
	mkdir -p "$saved/${first%/*}"
	cp "$tree/$first" "$saved/$first"
	cp -P "$tree"/modules.builtin* "$tree/modules.order" "$tree/build" "$tree/source" "$saved"
	mount -t tmpfs kevent-modules "$tree"
	MODULE_TREE=$tree
	cp -RP "$saved/." "$tree"
	rm -rf "$saved"
	# The links still lead to the headers
	[ -e "$tree/build/Makefile" ]
	depmod -a
}

teardown()
{
	# Nothing to undo after the skip
	[ -n "${EXT:-}" ] || return 0
	bridge_unload
	# Only when a failed test left something installed (kevent-watch is the
	# first file of the userspace half)
	if [ -e /usr/local/bin/kevent-watch ]; then
		make -C "$KEVENT_TOP" uninstall > /dev/null 2>&1 || true
	fi
	if [ -d "/var/lib/dkms/kevent/$DKMS_VERSION" ]; then
		dkms remove "kevent/$DKMS_VERSION" --all > /dev/null 2>&1 || true
	fi
	rm -rf "/usr/src/kevent-$DKMS_VERSION"
	# The kernel's own tree again, as it was: what was installed into the
	# tmpfs goes with it
	if [ -n "${MODULE_TREE:-}" ]; then
		umount "$MODULE_TREE"
	fi
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

@test "the modules DKMS built for the running kernel, loaded with dkms ldtarball: dkms install puts them where modprobe loads them" {
	local tarball=$KEVENT_TOP/build/dkms/kevent-$DKMS_VERSION-$KREL.dkms.tar.gz

	[ -f "$tarball" ] || fail "no $tarball: make test-modules builds it"
	# The sources, which the binaries-only tarball does not carry;
	# ldtarball adds them to DKMS with the modules built from them
	run -0 make -C "$KEVENT_TOP" install-dkms
	run -0 dkms ldtarball "$tarball"
	run -0 dkms status kevent
	assert_line "kevent/$DKMS_VERSION, $KREL, $(uname -m): built"
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
