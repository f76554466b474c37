#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kernel/dkms.conf: the sources make install-dkms installs are added to DKMS
# and built for Debian's kernel (scripts/kernel-version), in a DKMS tree of
# the test's own. The machine's DKMS tree, signing key and modules are not
# touched.

setup_file()
{
	load ../test_helper/common

	command -v dkms >/dev/null || return 0
	kver=$("$KEVENT_TOP/scripts/kernel-version")
	version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$KEVENT_TOP/kernel/dkms.conf")
	stage=$BATS_FILE_TMPDIR/stage
	tree=$BATS_FILE_TMPDIR/dkms
	export kver version stage tree

	# The machine's state, compared after the build
	ls -la --time-style=full-iso /var/lib/dkms "/lib/modules/$kver" \
		> "$BATS_FILE_TMPDIR/before" 2>&1

	mkdir -p "$tree"
	# dkms signs the modules it builds, with a key it creates when there
	# is none (in /var/lib/dkms by default): keep it in the private tree.
	{
		make -C "$KEVENT_TOP" install-dkms DESTDIR="$stage" &&
		dkms add --dkmstree "$tree" --sourcetree "$stage/usr/src" \
			-m kevent -v "$version" &&
		mok_signing_key=$tree/mok.key mok_certificate=$tree/mok.pub \
		dkms build --dkmstree "$tree" --sourcetree "$stage/usr/src" \
			-m kevent -v "$version" -k "$kver"
	} > "$BATS_FILE_TMPDIR/dkms.log" 2>&1
	echo $? > "$BATS_FILE_TMPDIR/dkms.status"
}

setup()
{
	load ../test_helper/common
	command -v dkms >/dev/null || skip "dkms is not installed (scripts/deps installs it)"
	built=$tree/kevent/$version/$kver/$(uname -m)/module
}

@test "dkms.conf ships the modules Kbuild builds but the KUnit tests, at the project's version" {
	run -0 "$KEVENT_TOP/userspace/cli/kevent-watch" --version
	assert_output "kevent-watch $version"
	run sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"$/\1/p' "$KEVENT_TOP/kernel/dkms.conf"
	assert_output "$(printf '%s\n' kevent kevent_bridge kevent_demo)"
	# The same as Kbuild's obj-m
	run sed -n 's/^obj-m := //p' "$KEVENT_TOP/kernel/Kbuild"
	assert_output 'kevent.o kevent_demo.o kevent_bridge.o'
	# Each has a place, and the build is for the kernel DKMS names
	run grep -c '^DEST_MODULE_LOCATION\[[0-2]\]="/updates/dkms"$' "$KEVENT_TOP/kernel/dkms.conf"
	assert_output 3
	run grep -F 'KDIR=${kernel_source_dir}' "$KEVENT_TOP/kernel/dkms.conf"
	assert_success
}

@test "dkms add and dkms build build every module for the kernel's version" {
	run cat "$BATS_FILE_TMPDIR/dkms.log"
	echo "$output"
	[ "$(cat "$BATS_FILE_TMPDIR/dkms.status")" -eq 0 ]
	run -0 dkms status --dkmstree "$tree" --sourcetree "$stage/usr/src"
	assert_output "kevent/$version, $kver, $(uname -m): built"
	for m in kevent kevent_bridge kevent_demo; do
		[ -f "$built/$m.ko" ] || fail "$built/$m.ko was not built"
		run -0 modinfo -F vermagic "$built/$m.ko"
		assert_output --regexp "^$kver SMP "
		run -0 modinfo -F name "$built/$m.ko"
		assert_output "$m"
	done
	run ls "$built"
	assert_output "$(printf '%s\n' kevent.ko kevent_bridge.ko kevent_demo.ko)"
}

@test "the DKMS source tree builds on its own: attributes.txt and gen-attributes beside Kbuild" {
	src=$stage/usr/src/kevent-$version
	[ -f "$src/attributes.txt" ] && [ -x "$src/gen-attributes" ]
	[ -f "$src/uapi/kevent.h" ] && [ -f "$src/include/kevent.h" ]
	# Nothing of the build tree came along
	run find "$src" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' \
		-o -name kevent_attrs.h -o -name '*.mod.c' \)
	assert_output ''
	run cmp "$src/attributes.txt" "$KEVENT_TOP/attributes.txt"
	assert_success
}

@test "the build leaves the machine's DKMS tree, signing key and modules as they were" {
	run ls -la --time-style=full-iso /var/lib/dkms "/lib/modules/$kver"
	assert_output "$(cat "$BATS_FILE_TMPDIR/before")"
	[ -f "$tree/mok.key" ]
	run modinfo -F signer "$built/kevent.ko"
	assert_output 'DKMS module signing key'
}
