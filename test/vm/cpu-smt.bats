#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent_bridge.ko and SMT control: switching SMT off and on takes the
# second thread of each core offline and online without the CPU device's
# lock, and sets the online file only after the CPU went down or up. The
# events of those siblings must still end on the value the file shows.
# vm-options: --cpus 4,sockets=1,cores=2,threads=2 --cpu max,vendor=GenuineIntel --single-thread

SMT=/sys/devices/system/cpu/smt/control

setup()
{
	load ../test_helper/kevent
	bridge_load
}

teardown()
{
	watch_stop
	[ "$(cat "$SMT")" = on ] || echo on > "$SMT"
	bridge_unload
}

# siblings: the CPUs that are not the first thread of their core
siblings()
{
	local d first

	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		first=$(cat "$d/topology/thread_siblings_list")
		first=${first%%[,-]*}
		[ "${d##*/cpu}" = "$first" ] || echo "${d##*/}"
	done
}

# last_events: "CPU VALUE" of the last online event of each sibling so far
# (the watcher prints "PATH VALUE" lines), one awk for all: the rounds call
# it many times
last_events()
{
	awk -v sibs="$SIBLINGS" '
	BEGIN { n = split(sibs, cpu) }
	{ v[$1] = $2 }
	END {
		for (i = 1; i <= n; i++)
			print cpu[i], v["/devices/system/cpu/" cpu[i]]
	}' "$WATCH_OUT"
}

# expected VALUE: "CPU VALUE" for each sibling
expected()
{
	local cpu

	for cpu in $SIBLINGS; do
		echo "$cpu $1"
	done
}

# online_files: "CPU VALUE" of each sibling's online file (read, no cat)
online_files()
{
	local cpu v

	for cpu in $SIBLINGS; do
		read -r v < "/sys/devices/system/cpu/$cpu/online"
		echo "$cpu $v"
	done
}

# settled VALUE: wait up to 5 s until the last online event of each sibling
# reads VALUE, then check that its online file does too
settled()
{
	local want i

	want=$(expected "$1")
	for ((i = 0; i < 50; i++)); do
		[ "$(last_events)" = "$want" ] && break
		sleep 0.1
	done
	if [ "$(last_events)" != "$want" ] || [ "$(online_files)" != "$want" ]; then
		echo "round $round, SMT $2: online files: $(online_files | tr '\n' ' ')" >&2
		echo "last events: $(last_events | tr '\n' ' ')" >&2
		return 1
	fi
}

@test "SMT off and on 50 times: the last online event of each sibling reads what its online file does" {
	assert_equal "$(cat "$SMT")" on
	SIBLINGS=$(siblings)
	assert_equal "$(echo "$SIBLINGS" | wc -w)" 2

	watch_start --format '%p %v\n' --attr online
	for round in $(seq 50); do
		echo off > "$SMT"
		settled 0 off
		echo on > "$SMT"
		settled 1 on
	done
}
