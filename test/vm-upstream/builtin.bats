#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The layer built into the kernel: the kernel of `make check-upstream`, the
# newest kernel with the patch series applied (CONFIG_KEVENT=y, its KUnit
# tests built in). No kevent.ko and no kevent_bridge.ko is loaded: the
# family is there from boot, and power supply and hwmon devices notify it
# from power_supply_changed() and hwmon_notify_event() themselves.

setup()
{
	load ../test_helper/kevent
	[ -n "${KEVENT_UPSTREAM_KERNEL:-}" ] ||
		skip "not the kernel of check-upstream (scripts/vm/run-bats --upstream)"
	STATS=$KEVENT_TOP/test/tools/kevent-stats
	PARAMS=/sys/module/test_power/parameters
}

teardown()
{
	watch_stop
	if lsmod | grep -q '^test_power '; then rmmod test_power; fi
	if lsmod | grep -q '^kevent_stock_hwmon '; then
		rmmod kevent_stock_hwmon
	fi
}

# psy_path NAME: the kobject path of power supply NAME
psy_path()
{
	readlink -f "/sys/class/power_supply/$1" | sed 's|^/sys||'
}

# stat_of NAME: the layer's counter NAME (sent, coalesced, failed, ...)
stat_of()
{
	"$STATS" | awk -v n="$1" '$1 == n { print $2 }'
}

@test "the layer is built in: the family answers, /sys/module/kevent has no initstate, no kevent module is loaded" {
	run zcat /proc/config.gz
	assert_line CONFIG_KEVENT=y
	[ -d /sys/module/kevent ]
	[ ! -e /sys/module/kevent/initstate ]
	assert_equal "$KEVENT_BUILTIN" 1
	run lsmod
	refute_line --regexp '^kevent(_bridge)? '
	# Its module parameters, as kevent.replay= and kevent.coalesce_ms= of
	# the kernel's command line
	run cat /sys/module/kevent/parameters/replay
	assert_output 256
	[ -e /sys/module/kevent/parameters/coalesce_ms ]
	run -0 --separate-stderr "$KEVENT_WATCH" --list --json
	run -0 "$STATS"
	assert_line --regexp '^sent [0-9]+$'
}

@test "the built-in KUnit tests of kevent ran at boot and passed, every case" {
	local cases

	cases=$(grep -c '^[[:space:]]*KUNIT_CASE' "$KEVENT_TOP/kernel/kevent_kunit.c")
	[ "$cases" -gt 0 ]
	run cat /sys/kernel/debug/kunit/kevent/results
	echo "$output" >&2
	refute_output --partial 'not ok'
	assert_equal "$(grep -cE '^[[:space:]]+ok [0-9]+ kevent_test_' <<< "$output")" "$cases"
	assert_line --regexp '^ok [0-9]+ kevent$'
	# The boot's KTAP report in the kernel log says so too
	run dmesg
	assert_line --regexp '\] +ok [0-9]+ kevent$'
	refute_line --regexp '\] +not ok [0-9]+ kevent'
}

@test "a test_power capacity change is a kevent event of class power, with its value, from power_supply_changed()" {
	insmod "$KEVENT_TEST_POWER"
	bat=$(psy_path test_battery)
	sent=$(stat_of sent)
	watch_start --class power --json
	echo 42 > "$PARAMS/battery_capacity"
	event_wait "$bat" capacity 42
	echo 17 > "$PARAMS/battery_capacity"
	event_wait "$bat" capacity 17
	run jq -c -s 'map(select(.path == "'"$bat"'" and .attr == "capacity") |
		[.type, .source, .class, .subsystem, .unit, (.seq | type)]) | unique' \
		"$WATCH_OUT"
	assert_output '[["event","kevent","power","power_supply","percent","number"]]'
	# Sent by the layer: its counter moved
	[ "$(stat_of sent)" -gt "$sent" ]
}

@test "test_power status and online changes are kevent events too, in the classes the registry gives them" {
	insmod "$KEVENT_TEST_POWER"
	bat=$(psy_path test_battery)
	ac=$(psy_path test_ac)
	watch_start --class power,hotplug --json
	echo charging > "$PARAMS/battery_status"
	event_wait "$bat" status Charging
	echo discharging > "$PARAMS/battery_status"
	event_wait "$bat" status Discharging
	echo off > "$PARAMS/ac_online"
	event_wait "$ac" online 0
	echo on > "$PARAMS/ac_online"
	event_wait "$ac" online 1
	run jq -r 'select(.attr == "status" or .attr == "online") |
		"\(.source) \(.class) \(.attr)"' "$WATCH_OUT"
	assert_equal "$(sort -u <<< "$output")" $'kevent hotplug online\nkevent power status'
	# Sequence numbers strictly increase
	run jq -s -e '[.[] | .seq] as $s | $s == ($s | sort | unique)' "$WATCH_OUT"
	assert_success
}

@test "hwmon_notify_event() of a name not in the registry sends its uevent and wakes poll(), and nothing over kevent" {
	insmod "$KEVENT_STOCK_HWMON"
	hw=$(echo /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	[ -e "$hw/temp1_alarm" ]
	before=$("$STATS")
	# The uevent, read by kevent-watch's stock source
	watch_start --stock --json --class power --count 1
	stock_pid=$WATCH_PID
	# kevent's own events, of every class
	kevent_out=$BATS_TEST_TMPDIR/kevent.out
	"$KEVENT_WATCH" --json --timeout 10 > "$kevent_out" 3>&- &
	kevent_pid=$!
	for _ in $(seq 100); do
		is_waiting "$kevent_pid" && break
		sleep 0.1
	done
	is_waiting "$kevent_pid"
	# sysfs_notify(): a poller of temp1_alarm wakes
	run timeout 20 bash -c '
		exec 4< "$1/temp1_alarm"; cat <&4 > /dev/null
		( sleep 1; echo 81000 > "$1/temp1_input" ) &
		python3 -c "
import select, sys
p = select.poll(); p.register(4, select.POLLPRI | select.POLLERR)
sys.exit(0 if p.poll(15000) else 1)"' _ "$hw"
	assert_success
	WATCH_PID=$stock_pid
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .path, .attr, .value]' "$WATCH_OUT"
	assert_output '["uevent","'"${hw#/sys}"'","temp1_alarm","1"]'
	# kevent refused the name: no event, no counter moved
	wait "$kevent_pid"
	run cat "$kevent_out"
	assert_output ''
	assert_equal "$("$STATS")" "$before"
}
