#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# --class joins only the multicast groups of the classes asked for.

setup_file()
{
	load ../test_helper/kevent
	modules_load
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

setup()
{
	load ../test_helper/kevent
}

teardown()
{
	watch_stop
}

# group_id NAME: the id of the kevent multicast group NAME, from nlctrl
group_id()
{
	genl ctrl get name kevent |
		sed -nE "s/.*ID-(0x[0-9a-f]+) +name: $1 *$/\\1/p"
}

# joined_groups PID: the union of the group bitmaps (first 32 groups, as
# /proc/net/netlink shows them) of the generic netlink sockets of PID
joined_groups()
{
	local inodes sum=0 groups

	inodes=$(find "/proc/$1/fd" -lname 'socket:*' -printf '%l\n' |
		sed -E 's/socket:\[([0-9]+)\]/\1/')
	for ino in $inodes; do
		groups=$(awk -v ino="$ino" '$2 == 16 && $NF == ino { print $4 }' /proc/net/netlink)
		[ -n "$groups" ] && sum=$((sum | 0x$groups))
	done
	echo "$sum"
}

@test "--class power reports temperature (power) and not label (general)" {
	watch_start --json --class power --timeout 4
	demo_set 0 label "not power"
	demo_set 0 temperature 30500
	demo_set 1 label "nor this"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -r '"\(.class) \(.attr) \(.value)"' "$WATCH_OUT"
	assert_output 'power temperature 30500'
}

@test "--class general reports label and not temperature" {
	watch_start --json --class general --timeout 4
	demo_set 0 temperature 30600
	demo_set 0 label "general one"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -r '"\(.class) \(.attr) \(.value)"' "$WATCH_OUT"
	assert_output 'general label general one'
}

@test "the listener of --class power is a member of the power group only" {
	power=$(group_id power)
	assert [ -n "$power" ]
	for class in general storage fs hotplug net; do
		id=$(group_id "$class")
		assert [ -n "$id" ]
		assert [ $((id)) -lt 32 ]
	done
	assert [ $((power)) -lt 32 ]

	watch_start --class power
	joined=$(joined_groups "$WATCH_PID")
	assert [ $((joined & (1 << (power - 1)))) -ne 0 ]
	for class in general storage fs hotplug net; do
		id=$(group_id "$class")
		assert_equal "$((joined & (1 << (id - 1))))" 0
	done
}

@test "an unknown class is a usage error naming the option" {
	run --separate-stderr "$KEVENT_WATCH" --class power,thermal
	assert_equal "$status" 2
	assert_stderr_partial '--class'
	assert_stderr_partial 'thermal'
	assert_equal "$output" ""
}
