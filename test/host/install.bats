#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# make install: a staged installation (DESTDIR, PREFIX=/usr) installs the
# files README.md lists, and what it installs works from where it is: the
# library through pkg-config, kevent-watch without an rpath, the completion
# with the installed attributes.txt. The host is not touched.

setup_file()
{
	load ../test_helper/common

	root=$BATS_FILE_TMPDIR/root
	kver=$("$KEVENT_TOP/scripts/kernel-version")
	# The host's module tree, to show that the staged install leaves it
	host_mods=$(ls -la --time-style=full-iso "/lib/modules/$kver" 2>&1)
	make -C "$KEVENT_TOP" install DESTDIR="$root" PREFIX=/usr \
		> "$BATS_FILE_TMPDIR/install.log" 2>&1
	echo $? > "$BATS_FILE_TMPDIR/install.status"
	export root kver host_mods
}

setup()
{
	load ../test_helper/common
	cd "$BATS_TEST_TMPDIR"
	# pkg-config finds the staged library, with paths into the stage
	export PKG_CONFIG_PATH=$root/usr/lib/pkgconfig
}

# installed_files DIR: every file and symbolic link below DIR, as an
# absolute path of the installation, links as "PATH -> TARGET"
installed_files()
{
	local f

	(cd "$1" && find . \( -type f -o -type l \) | sort) | while read -r f; do
		f=${f#.}
		if [ -L "$1$f" ]; then
			echo "$f -> $(readlink "$1$f")"
		else
			echo "$f"
		fi
	done
}

@test "make install DESTDIR=... PREFIX=/usr succeeds" {
	run cat "$BATS_FILE_TMPDIR/install.log"
	echo "$output"
	[ "$(cat "$BATS_FILE_TMPDIR/install.status")" -eq 0 ]
}

@test "make install installs exactly the files README.md lists, no more, no fewer" {
	# The indented lines between the install-manifest markers
	sed -n '/^<!-- install-manifest -->$/,/^<!-- \/install-manifest -->$/p' \
		"$KEVENT_TOP/README.md" | sed -n 's/^    //p' |
		sed "s|<release>|$kver|; s|\.ko$|$(module_ext "$kver")|" | sort > expected
	[ "$(wc -l < expected)" -ge 10 ]
	installed_files "$root" | sort > installed
	run diff -u expected installed
	assert_success
}

@test "the modules are installed for the kernel they were built for, without depmod on the host" {
	for m in kevent kevent_bridge kevent_demo; do
		run modinfo -F vermagic "$root/lib/modules/$kver/extra/$m$(module_ext "$kver")"
		assert_success
		assert_equal "${output%% *}" "$kver"
	done
	# No depmod output in the stage, and the host's tree is as it was
	run ls "$root/lib/modules/$kver"
	assert_output extra
	run ls -la --time-style=full-iso "/lib/modules/$kver"
	assert_output "$host_mods"
}

@test "the installed kevent-watch has no rpath and runs with the installed library" {
	run readelf -d "$root/usr/bin/kevent-watch"
	assert_success
	assert_output --partial '(NEEDED)'
	refute_output --partial 'RPATH'
	refute_output --partial 'RUNPATH'
	run env LD_LIBRARY_PATH="$root/usr/lib" ldd "$root/usr/bin/kevent-watch"
	assert_line --regexp "^[[:space:]]libkevent\.so\.1 => $root/usr/lib/libkevent\.so\.1 "
	run -0 env LD_LIBRARY_PATH="$root/usr/lib" "$root/usr/bin/kevent-watch" --version
	assert_output --regexp '^kevent-watch [0-9]'
}

@test "the installed library has soname libkevent.so.1 and exports kevent_ functions only" {
	run readelf -d "$root/usr/lib/libkevent.so.1.0.0"
	assert_line --regexp 'Library soname: \[libkevent\.so\.1\]'
	# Defined symbols but the version node: kevent_ functions only
	run nm -D --defined-only "$root/usr/lib/libkevent.so.1.0.0"
	assert_success
	assert_line --regexp ' T kevent_monitor_new@@LIBKEVENT_1$'
	assert_line --regexp ' T kevent_stock_monitor_new@@LIBKEVENT_1$'
	assert_line --regexp ' T kevent_sample_monitor_new@@LIBKEVENT_1$'
	syms=$output
	run awk '$2 != "A" && $3 !~ /^kevent_/' <<<"$syms"
	assert_output ''
	# One version node, the first release's
	run awk '$2 == "A" { print $3 }' <<<"$syms"
	assert_output LIBKEVENT_1
	# The static library holds the same functions, and no other global
	# name but kevent_ ones, its private functions' included
	run nm "$root/usr/lib/libkevent.a"
	assert_line --regexp ' T kevent_monitor_new$'
	run nm -g --defined-only "$root/usr/lib/libkevent.a"
	assert_success
	run awk 'NF == 3 && $3 !~ /^kevent_/' <<<"$output"
	assert_output ''
}

@test "the library has one version: the installed file's, its newest symbol version's and libkevent.pc's" {
	local node version

	# The newest version node of the exported symbols, such as 1 or 1.2:
	# the version 1.0.0 or 1.2.0
	node=$(nm -D --defined-only "$root"/usr/lib/libkevent.so.1.*.* |
		sed -n 's/.*@@LIBKEVENT_//p' | sort -V | tail -n 1)
	case $node in
	*.*) version=$node.0 ;;
	*) version=$node.0.0 ;;
	esac
	run ls "$root/usr/lib"
	assert_line "libkevent.so.$version"
	run -0 pkg-config --modversion libkevent
	assert_output "$version"
}

@test "the public headers include nothing of libmnl or libudev, only the uAPI header" {
	run grep -h '^#include' "$root/usr/include/kevent/kevent.h" \
		"$root/usr/include/kevent/uapi/kevent.h"
	assert_success
	refute_output --partial mnl
	refute_output --partial udev
	# The uAPI header by its own path: no other kevent.h can be taken
	assert_line '#include <kevent/uapi/kevent.h>'
	refute_line '#include <kevent.h>'
	run cmp "$KEVENT_TOP/kernel/uapi/kevent.h" "$root/usr/include/kevent/uapi/kevent.h"
	assert_success
}

@test "libkevent.pc gives the installed directories, -lkevent, and libmnl and libudev for static links" {
	run -0 pkg-config --modversion libkevent
	assert_output --regexp '^1\.[0-9]+\.[0-9]+$'
	run -0 pkg-config --variable=libdir libkevent
	assert_output /usr/lib
	run -0 pkg-config --variable=includedir libkevent
	assert_output /usr/include
	# pkg-config ends its lines with a space
	run -0 pkg-config --define-prefix --libs libkevent
	assert_equal "${output% }" "-L$root/usr/lib -lkevent"
	# (--define-prefix moves the prefix of libmnl's and libudev's too)
	run -0 pkg-config --define-prefix --cflags libkevent
	assert_output --regexp "^-I$root/usr/include( |$)"
	refute_output --partial kevent/uapi
	run -0 pkg-config --static --libs libkevent
	assert_output --partial -lmnl
	assert_output --partial -ludev
}

@test "the example program compiles against the installed library with pkg-config alone, and runs" {
	cp "$KEVENT_TOP/userspace/examples/kevent-monitor.c" .
	# shellcheck disable=SC2046 # pkg-config's words are the flags
	run cc -Wall -Wextra -Werror -o kevent-monitor kevent-monitor.c \
		$(pkg-config --define-prefix --cflags --libs libkevent)
	assert_success
	run env LD_LIBRARY_PATH="$root/usr/lib" ldd ./kevent-monitor
	assert_line --regexp "^[[:space:]]libkevent\.so\.1 => $root/usr/lib/libkevent\.so\.1 "
	run -0 env LD_LIBRARY_PATH="$root/usr/lib" ./kevent-monitor --help
	assert_output --partial usage

	# Statically linked with libkevent.a: the flags of --static
	# shellcheck disable=SC2046
	run cc -Wall -Werror -o kevent-monitor-static kevent-monitor.c \
		$(pkg-config --define-prefix --cflags libkevent) \
		"$root/usr/lib/libkevent.a" \
		$(pkg-config --static --libs-only-l libkevent | sed 's/-lkevent//')
	assert_success
	run ldd ./kevent-monitor-static
	refute_output --partial libkevent
	run -0 ./kevent-monitor-static --help
}

@test "the installed completion completes attribute names from the installed attributes.txt" {
	run bash -c '
		. "$1/usr/share/bash-completion/completions/kevent-watch"
		echo "$_kevent_watch_attributes"
		COMP_WORDS=(kevent-watch --attr temp) COMP_CWORD=2
		_kevent_watch
		echo "${COMPREPLY[*]}"' bash "$root"
	assert_success
	assert_line --index 0 "$root/usr/share/bash-completion/completions/../../kevent/attributes.txt"
	assert_line --index 1 temperature
}

@test "LIBDIR, MANDIR and the other directories can be moved; PREFIX is /usr/local by default" {
	run make -s -C "$KEVENT_TOP/userspace" install DESTDIR="$PWD/stage" \
		LIBDIR=/usr/local/lib/x86_64-linux-gnu MANDIR=/usr/local/man \
		BINDIR=/opt/kevent/bin
	assert_success
	[ -x stage/opt/kevent/bin/kevent-watch ]
	[ -f stage/usr/local/lib/x86_64-linux-gnu/libkevent.so.1.0.0 ]
	[ -f stage/usr/local/man/man7/kevent.7 ]
	[ -f stage/usr/local/include/kevent/kevent.h ]
	[ -f stage/usr/local/share/kevent/attributes.txt ]
	run grep -x 'libdir=${prefix}/lib/x86_64-linux-gnu' \
		stage/usr/local/lib/x86_64-linux-gnu/pkgconfig/libkevent.pc
	assert_success
	run grep -x 'prefix=/usr/local' \
		stage/usr/local/lib/x86_64-linux-gnu/pkgconfig/libkevent.pc
	assert_success
}

@test "make uninstall removes every file make install installed" {
	cp -a "$root" stage
	run make -C "$KEVENT_TOP" uninstall DESTDIR="$PWD/stage" PREFIX=/usr
	assert_success
	run find stage \( -type f -o -type l \)
	assert_output ''
}
