#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch.service: installed into the unit directory systemd's
# pkg-config file names, running the installed kevent-watch with --journal
# --coldplug; systemd-analyze verify finds nothing wrong with it, and its
# exposure level by systemd-analyze security is the one README.md states.
# shellcheck disable=SC2154 # stderr is set by bats' run --separate-stderr

setup_file()
{
	load ../test_helper/common

	root=$BATS_FILE_TMPDIR/root
	unitdir=$(pkg-config --variable=systemdsystemunitdir systemd)
	make -C "$KEVENT_TOP/userspace" install DESTDIR="$root" PREFIX=/usr \
		> "$BATS_FILE_TMPDIR/install.log" 2>&1
	echo $? > "$BATS_FILE_TMPDIR/install.status"
	export root unitdir
}

setup()
{
	load ../test_helper/common
	cd "$BATS_TEST_TMPDIR" || return
	unit=$root$unitdir/kevent-watch.service
	# The staged unit, run from the stage: verify looks for the program
	sed "s|^ExecStart=/usr/bin/|ExecStart=$root/usr/bin/|" "$unit" \
		> kevent-watch.service
}

@test "make install puts kevent-watch.service in systemd's unit directory, running the installed kevent-watch" {
	run cat "$BATS_FILE_TMPDIR/install.log"
	echo "$output"
	assert_equal "$(cat "$BATS_FILE_TMPDIR/install.status")" 0
	[ -n "$unitdir" ]
	run -0 grep '^ExecStart=' "$unit"
	assert_output 'ExecStart=/usr/bin/kevent-watch --journal --coldplug'
	run -0 stat -c %a "$unit"
	assert_output 644
}

@test "SYSTEMDSYSTEMUNITDIR moves the unit, and BINDIR its ExecStart" {
	run -0 make -C "$KEVENT_TOP/userspace" install DESTDIR="$PWD/stage" \
		PREFIX=/usr BINDIR=/opt/kevent/bin \
		SYSTEMDSYSTEMUNITDIR=/usr/lib/systemd/system
	run -0 grep '^ExecStart=' stage/usr/lib/systemd/system/kevent-watch.service
	assert_output 'ExecStart=/opt/kevent/bin/kevent-watch --journal --coldplug'
	run find stage -name '*.service'
	assert_output stage/usr/lib/systemd/system/kevent-watch.service
	# The tree's unit is for the default BINDIR again
	run -0 make -C "$KEVENT_TOP/userspace" kevent-watch.service
}

@test "systemd-analyze verify finds nothing wrong with the unit" {
	# The man pages of Documentation= from the stage
	run -0 --separate-stderr env MANPATH="$root/usr/share/man" \
		systemd-analyze verify kevent-watch.service
	assert_output ''
	assert_equal "$stderr" ''
}

@test "the unit is sandboxed: no capability, no new privileges, read-only /sys, netlink and local sockets only" {
	local name

	run -0 systemd-analyze security --offline=yes --json=short \
		kevent-watch.service
	report=$output
	# Each setting by the name systemd-analyze gives it: all are set
	for name in NoNewPrivileges= User=/DynamicUser= ProtectSystem= \
		ProtectKernelTunables= ProtectKernelModules= ProtectHome= \
		PrivateTmp= PrivateDevices= MemoryDenyWriteExecute= \
		LockPersonality= RestrictRealtime= SystemCallArchitectures= \
		AmbientCapabilities= 'CapabilityBoundingSet=~CAP_SYS_ADMIN' \
		'CapabilityBoundingSet=~CAP_NET_ADMIN' \
		'CapabilityBoundingSet=~CAP_(DAC_*|FOWNER|IPC_OWNER)' \
		'RestrictAddressFamilies=~AF_(INET|INET6)' \
		'RestrictAddressFamilies=~AF_PACKET' \
		'RestrictAddressFamilies=~…' \
		'RestrictNamespaces=~user' 'SystemCallFilter=~@privileged'; do
		run jq -r --arg n "$name" '.[] | select(.name == $n) | "\(.name) \(.set)"' \
			<<<"$report"
		assert_output "$name true"
	done
	# What it keeps: netlink (the kevent family, uevents) and local
	# sockets (the journal), and the host's network namespace
	for name in 'RestrictAddressFamilies=~AF_NETLINK' \
		'RestrictAddressFamilies=~AF_UNIX' PrivateNetwork=; do
		run jq -r --arg n "$name" '.[] | select(.name == $n) | "\(.name) \(.set)"' \
			<<<"$report"
		assert_output "$name false"
	done
}

@test "README.md states the exposure level systemd-analyze security measures" {
	run -0 systemd-analyze security --offline=yes kevent-watch.service
	measured=$(sed -n 's/^→ Overall exposure level for kevent-watch\.service: \([0-9.]* [A-Z]*\).*/\1/p' <<<"$output")
	[ -n "$measured" ]
	# shellcheck disable=SC2016 # the backquotes are README's
	run -0 grep -o 'exposure level of `[0-9.]* [A-Z]*`' "$KEVENT_TOP/README.md"
	assert_output "exposure level of \`$measured\`"
}
