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
	sed "s|^ExecStart=/usr/bin/|ExecStart=$root/usr/bin/|" \
		"$root$unitdir/kevent-dbus.service" > kevent-dbus.service
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
	run -0 grep -h '^Exec' stage/usr/lib/systemd/system/kevent-dbus.service \
		stage/usr/share/dbus-1/system-services/org.kevent1.service
	assert_output $'ExecStart=/opt/kevent/bin/kevent-dbus\nExec=/opt/kevent/bin/kevent-dbus'
	run -0 find stage -name '*.service'
	output=$(sort <<<"$output")
	assert_output "$(printf '%s\n' \
		stage/usr/lib/systemd/system/kevent-dbus.service \
		stage/usr/lib/systemd/system/kevent-watch.service \
		stage/usr/share/dbus-1/system-services/org.kevent1.service |
		sort)"
	# The tree's units are for the default BINDIR again
	run -0 make -C "$KEVENT_TOP/userspace" kevent-watch.service \
		dbus/kevent-dbus.service dbus/org.kevent1.service
}

@test "systemd-analyze verify finds nothing wrong with the units" {
	# The man pages of Documentation= from the stage
	run -0 --separate-stderr env MANPATH="$root/usr/share/man" \
		systemd-analyze verify kevent-watch.service kevent-dbus.service
	assert_output ''
	assert_equal "$stderr" ''
}

@test "kevent-dbus.service is org.kevent1's, which the bus starts through it, and the policy lets only root own the name" {
	run -0 grep -E '^(Type|BusName|ExecStart|Alias)=' "$root$unitdir/kevent-dbus.service"
	assert_output $'Type=dbus\nBusName=org.kevent1\nExecStart=/usr/bin/kevent-dbus\nAlias=dbus-org.kevent1.service'
	run -0 grep -v '^#' "$root/usr/share/dbus-1/system-services/org.kevent1.service"
	assert_output $'[D-BUS Service]\nName=org.kevent1\nExec=/usr/bin/kevent-dbus\nUser=root\nSystemdService=kevent-dbus.service'
	run -0 grep -o '<policy [^>]*>\|<allow own="[^"]*"/>' \
		"$root/usr/share/dbus-1/system.d/org.kevent1.conf"
	assert_output $'<policy user="root">\n<allow own="org.kevent1"/>\n<policy context="default">'
}

@test "kevent-dbus.service is sandboxed as kevent-watch.service is, but for its user: root, with no capability" {
	local name

	run -0 systemd-analyze security --offline=yes --json=short \
		kevent-dbus.service
	report=$output
	for name in NoNewPrivileges= ProtectSystem= ProtectKernelTunables= \
		ProtectKernelModules= ProtectHome= PrivateTmp= PrivateDevices= \
		MemoryDenyWriteExecute= LockPersonality= RestrictRealtime= \
		AmbientCapabilities= 'CapabilityBoundingSet=~CAP_SYS_ADMIN' \
		'CapabilityBoundingSet=~CAP_NET_ADMIN' \
		'CapabilityBoundingSet=~CAP_(DAC_*|FOWNER|IPC_OWNER)' \
		'RestrictAddressFamilies=~AF_(INET|INET6)' \
		'RestrictNamespaces=~user' 'SystemCallFilter=~@privileged'; do
		run jq -r --arg n "$name" '.[] | select(.name == $n) | "\(.name) \(.set)"' \
			<<<"$report"
		assert_output "$name true"
	done
	run jq -r '.[] | select(.name == "User=/DynamicUser=") | "\(.name) \(.set)"' \
		<<<"$report"
	assert_output 'User=/DynamicUser= false'
	# README states its exposure level
	measured=$(systemd-analyze security --offline=yes kevent-dbus.service |
		sed -n 's/^→ Overall exposure level for kevent-dbus\.service: \([0-9.]* [A-Z]*\).*/\1/p')
	[ -n "$measured" ]
	# shellcheck disable=SC2016 # the backquotes are README's
	run -0 grep -o 'kevent-dbus.service `[0-9.]* [A-Z]*` as its exposure' \
		"$KEVENT_TOP/README.md"
	assert_output "kevent-dbus.service \`$measured\` as its exposure"
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
