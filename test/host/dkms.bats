#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kernel/dkms.conf: the sources make install-dkms installs are added to DKMS
# and built for every kernel with headers on the machine (scripts/kernel-version
# --all: Debian 12's 6.1 and 6.12), in a DKMS tree of the test's own. The
# machine's DKMS tree, signing key and modules are not touched.

setup_file()
{
	load ../test_helper/common

	command -v dkms >/dev/null || return 0
	kvers=$("$KEVENT_TOP/scripts/kernel-version" --all | tr '\n' ' ')
	version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$KEVENT_TOP/kernel/dkms.conf")
	stage=$BATS_FILE_TMPDIR/stage
	tree=$BATS_FILE_TMPDIR/dkms
	export kvers version stage tree

	# The machine's state, compared after the builds
	machine_state > "$BATS_FILE_TMPDIR/before"

	mkdir -p "$tree"
	# dkms signs the modules it builds, with a key it creates when there
	# is none (in /var/lib/dkms by default): keep it in the private tree.
	{
		make -C "$KEVENT_TOP" install-dkms DESTDIR="$stage" &&
		dkms add --dkmstree "$tree" --sourcetree "$stage/usr/src" \
			-m kevent -v "$version"
	} > "$BATS_FILE_TMPDIR/dkms.log" 2>&1
	echo $? > "$BATS_FILE_TMPDIR/dkms.status"
	for kver in $kvers; do
		mok_signing_key=$tree/mok.key mok_certificate=$tree/mok.pub \
		dkms build --dkmstree "$tree" --sourcetree "$stage/usr/src" \
			-m kevent -v "$version" -k "$kver" \
			> "$BATS_FILE_TMPDIR/dkms-$kver.log" 2>&1
		echo $? > "$BATS_FILE_TMPDIR/dkms-$kver.status"
	done
}

# machine_state: what the builds must leave as it was
machine_state()
{
	local kver

	ls -la --time-style=full-iso /var/lib/dkms 2>&1
	for kver in $kvers; do
		ls -la --time-style=full-iso "/lib/modules/$kver" 2>&1
	done
}

setup()
{
	load ../test_helper/common
	command -v dkms >/dev/null || fail "dkms is not installed (scripts/deps installs it)"
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

@test "dkms add, then dkms build for each installed kernel: every module, for that kernel" {
	run cat "$BATS_FILE_TMPDIR/dkms.log"
	assert_equal "$(cat "$BATS_FILE_TMPDIR/dkms.status")" 0
	# scripts/deps installs two kernels with headers
	run wc -w <<<"$kvers"
	assert_output 2
	for kver in $kvers; do
		run cat "$BATS_FILE_TMPDIR/dkms-$kver.log"
		assert_equal "$kver: $(cat "$BATS_FILE_TMPDIR/dkms-$kver.status")" "$kver: 0"
		built=$tree/kevent/$version/$kver/$(uname -m)/module
		# Compressed as the kernel's own modules are (6.12: xz)
		ext=$(module_ext "$kver")
		for m in kevent kevent_bridge kevent_demo; do
			[ -f "$built/$m$ext" ] || fail "$built/$m$ext was not built"
			run -0 modinfo -F vermagic "$built/$m$ext"
			assert_equal "${output%% *}" "$kver"
			run -0 modinfo -F name "$built/$m$ext"
			assert_output "$m"
		done
		run ls "$built"
		assert_output "$(printf "%s$ext\\n" kevent kevent_bridge kevent_demo)"
	done
	run -0 dkms status --dkmstree "$tree" --sourcetree "$stage/usr/src"
	for kver in $kvers; do
		assert_line "kevent/$version, $kver, $(uname -m): built"
	done
}

@test "the DKMS source tree builds on its own: attributes.txt and gen-attributes beside Kbuild" {
	src=$stage/usr/src/kevent-$version
	for f in attributes.txt uapi/kevent.h include/kevent.h kevent_compat.h \
		include/uapi/linux/kevent.h kevent_nl_gen.c kevent_nl_gen.h; do
		[ -f "$src/$f" ] || fail "no $src/$f"
	done
	for f in gen-attributes kbuild-failure; do
		[ -x "$src/$f" ] || fail "$src/$f is not executable"
	done
	# Nothing of the build tree came along
	run find "$src" \( -name '*.o' -o -name '*.ko' -o -name '*.cmd' \
		-o -name kevent_attrs.h -o -name '*.mod.c' \)
	assert_output ''
	run cmp "$src/attributes.txt" "$KEVENT_TOP/attributes.txt"
	assert_success
}

@test "the builds leave the machine's DKMS tree, signing key and modules as they were" {
	run machine_state
	assert_output "$(cat "$BATS_FILE_TMPDIR/before")"
	[ -f "$tree/mok.key" ] || fail "no $tree/mok.key"
	for kver in $kvers; do
		run modinfo -F signer "$tree/kevent/$version/$kver/$(uname -m)/module/kevent$(module_ext "$kver")"
		assert_output 'DKMS module signing key'
	done
}

@test "build-dkms-tarball packs the modules DKMS builds for the VM's kernel, binaries only, and does not build them again while they are up to date" {
	local release tarball

	release=$("$KEVENT_TOP/scripts/kernel-version")
	tarball=$KEVENT_TOP/build/dkms/kevent-$version-$release.dkms.tar.gz
	run -0 "$KEVENT_TOP/scripts/build-dkms-tarball"
	assert_output "$tarball"
	run -0 tar -tzf "$tarball"
	assert_line ./dkms_binaries_only/dkms.conf
	for m in kevent kevent_bridge kevent_demo; do
		assert_line "./dkms_main_tree/$release/$(uname -m)/module/$m$(module_ext "$release")"
	done
	refute_line --regexp '\.[ch]$'
	# Up to date: the same tarball, not built again
	touch -d '2001-01-01' "$tarball"
	run -0 "$KEVENT_TOP/scripts/build-dkms-tarball"
	assert_equal "$(stat -c %Y "$tarball")" "$(date -d 2001-01-01 +%s)"
	run machine_state
	assert_output "$(cat "$BATS_FILE_TMPDIR/before")"
}
