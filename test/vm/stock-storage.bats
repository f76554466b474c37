#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch --stock with no kevent module: the attributes the kernel
# announces with sysfs_notify() alone, md arrays' and ext4 filesystems',
# which the stock monitor poll()s. It finds the arrays and filesystems there
# are when it starts, follows those that come and go (an array made later,
# one assembled again, a filesystem mounted later), and lists their states.
# A file given with --poll is followed as well when it is created again.
# shellcheck disable=SC2154 # bats sets $lines

# No code of kevent's runs in the kernel here: on the debug kernel KASAN and
# lockdep watch md's and ext4's announcements, kmemleak, which would only
# watch md's and ext4's allocations and doubles the cost of every process
# start, is off. A boot of its own (a kernel without kmemleak passes the
# parameter to init, which ignores it).
# vm-options: --append kmemleak=off

setup_file()
{
	load ../test_helper/storage
	storage_setup_file
}

setup()
{
	load ../test_helper/kevent
	load ../test_helper/storage
	# No kevent module in this file
	bridge_unload
}

teardown()
{
	watch_stop
	storage_teardown
}

# records_of PATH ATTR: the events of PATH's ATTR so far, "source class
# value" a line
records_of()
{
	jq -r --arg p "$1" --arg a "$2" \
		'select(.type == "event" and .path == $p and .attr == $a) |
		 "\(.source) \(.class) \(.value)"' "$WATCH_OUT"
}

@test "--stock, no module: md RAID1 made after the start, a member failed, removed and re-added: degraded, array_state and sync_action, class storage" {
	watch_start --stock --json
	md_create
	# The array's uevents make the monitor look for its attributes
	watched_wait "/sys$MD/array_state"
	watched_wait "/sys$MD/sync_action"
	dd if=/dev/zero of=/dev/md127 bs=4k count=1 oflag=direct status=none
	event_wait "$MD" array_state clean
	mdadm /dev/md127 --fail "$MD_B" >/dev/null 2>&1
	event_wait "$MD" degraded 1
	mdadm /dev/md127 --remove "$MD_B" >/dev/null 2>&1
	mdadm /dev/md127 --add "$MD_B" >/dev/null 2>&1
	event_wait "$MD" sync_action recover 60
	event_wait "$MD" degraded 0 60
	# The recovery ends idle: the last sync_action event says so
	run records_of "$MD" sync_action
	assert_equal "${lines[-1]}" "poll storage idle"
	run records_of "$MD" degraded
	assert_line "poll storage 1"
	run module_loaded kevent
	assert_failure
}

@test "--stock, no module: an array there at the start, stopped and assembled again, is followed again" {
	local a

	md_create
	a=${LOOPS[0]}
	watch_start --stock --json
	md_stop
	mdadm --assemble /dev/md127 "$a" "$MD_B" >/dev/null 2>&1
	# The new file at the same path, which the monitor watches instead
	watched_wait "/sys$MD/degraded"
	mdadm /dev/md127 --fail "$MD_B" >/dev/null 2>&1
	event_wait "$MD" degraded 1
}

@test "--poll, no module: an md file removed and created again (the array stopped and assembled) is watched again" {
	local a

	md_create
	a=${LOOPS[0]}
	watch_start --poll "/sys$MD/degraded" --json
	watched_wait "/sys$MD/degraded"
	md_stop
	mdadm --assemble /dev/md127 "$a" "$MD_B" >/dev/null 2>&1
	# The new file at the same path, opened by its name again
	watched_wait "/sys$MD/degraded"
	mdadm /dev/md127 --fail "$MD_B" >/dev/null 2>&1
	event_wait "$MD" degraded 1
}

@test "--stock, no module: ext4 mounted before the start: trigger_fs_error gives errors_count, class fs" {
	ext4_mount
	watch_start --stock --json
	watched_wait "/sys$FS/errors_count"
	echo 1 > "/sys$FS/trigger_fs_error"
	event_wait "$FS" errors_count 1
	run records_of "$FS" errors_count
	assert_output "poll fs 1"
}

@test "--stock, no module: ext4 mounted after the start is followed: errors_count, class fs" {
	watch_start --stock --json
	ext4_mount
	# The change of the mounts makes the monitor look for the file
	watched_wait "/sys$FS/errors_count"
	echo 1 > "/sys$FS/trigger_fs_error"
	event_wait "$FS" errors_count 1
	run records_of "$FS" errors_count
	assert_output "poll fs 1"
}

@test "--stock --list, no module: md's and ext4's attributes, with their values and classes" {
	md_create
	ext4_mount
	run -0 --separate-stderr "$KEVENT_WATCH" --stock --list --json
	run jq -r --arg md "$MD" --arg fs "$FS" \
		'select(.path == $md or .path == $fs) |
		 "\(.source) \(.class) \(.attr)=\(.value)"' <<< "$output"
	assert_output "poll storage array_state=clean
poll storage sync_action=idle
poll storage degraded=0
poll storage sync_completed=none
poll fs errors_count=0"
}

@test "--stock following an array assembled again and a filesystem mounted later, with --count, runs clean under valgrind" {
	local a vg_log=$BATS_TEST_TMPDIR/valgrind.log

	md_create
	a=${LOOPS[0]}
	watch_spawn_valgrind "$vg_log" "$KEVENT_WATCH" --stock --json \
		--attr errors_count --count 1
	md_stop
	mdadm --assemble /dev/md127 "$a" "$MD_B" >/dev/null 2>&1
	watched_wait "/sys$MD/degraded" 60
	ext4_mount
	watched_wait "/sys$FS/errors_count" 60
	echo 1 > "/sys$FS/trigger_fs_error"
	watch_wait 60
	assert_equal "$WATCH_STATUS" 0
	run records_of "$FS" errors_count
	assert_output "poll fs 1"
	run cat "$vg_log"
	assert_output ""
}
