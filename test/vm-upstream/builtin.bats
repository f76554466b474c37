#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The layer built into the kernel: the kernel of `make check-upstream`, the
# newest kernel with the patch series applied (CONFIG_KEVENT=y, its KUnit
# tests built in). No kevent.ko and no kevent_bridge.ko is loaded: the
# family is there from boot, power supply devices notify it from
# power_supply_changed(), and every sysfs_notify() (hwmon's among them)
# reaches it through kernfs_notify() while a socket listens.

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
	if [ -n "${KEVENT_PID:-}" ]; then kill "$KEVENT_PID" 2>/dev/null || true; fi
	if module_loaded kevent_stock_hwmon; then
		rmmod kevent_stock_hwmon
	fi
	if module_loaded kevent_sensor_test; then
		rmmod kevent_sensor_test
	fi
}

# test_power_load: insert test_power.ko once, and leave it loaded: the
# test_power_exit() of this kernel does not unregister the battery's
# extension, whose registration kmemleak then reports as leaked
test_power_load()
{
	module_loaded test_power || insmod "$KEVENT_TEST_POWER"
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
	test_power_load
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

@test "test_power status and online changes are kevent events too, in power, the class of a power supply's attributes" {
	test_power_load
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
	assert_equal "$(sort -u <<< "$output")" $'kevent power online\nkevent power status'
	# Sequence numbers strictly increase
	run jq -s -e '[.[] | .seq] as $s | $s == ($s | sort | unique)' "$WATCH_OUT"
	assert_success
}

# kevent_watch_bg OUT ARGS...: kevent-watch ARGS in the background, its
# output in OUT, its pid in KEVENT_PID, once it waits for events
kevent_watch_bg()
{
	local out=$1

	shift
	"$KEVENT_WATCH" "$@" > "$out" 3>&- &
	KEVENT_PID=$!
	for _ in $(seq 100); do
		is_waiting "$KEVENT_PID" && return 0
		sleep 0.1
	done
	echo "kevent-watch $* did not start waiting" >&2
	return 1
}

@test "an hwmon alarm is a kevent event: hwmon_notify_event() of temp1_alarm sends it through kernfs_notify(), with its uevent and poll wakeup as before" {
	insmod "$KEVENT_STOCK_HWMON"
	hw=$(echo /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	[ -e "$hw/temp1_alarm" ]
	sent=$(stat_of sent)
	# The uevent, read by kevent-watch's stock source
	watch_start --stock --json --class power --count 1
	stock_pid=$WATCH_PID
	# kevent's own events, of every class
	kevent_out=$BATS_TEST_TMPDIR/kevent.out
	kevent_watch_bg "$kevent_out" --json --attr temp1_alarm --count 1 --timeout 30
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
	# The kevent event: the attribute's own name, in the class of
	# temp*_alarm, sent by the layer
	wait "$KEVENT_PID"
	run jq -c '[.type, .source, .class, .path, .attr, .value, (.seq | type)]' \
		"$kevent_out"
	assert_output '["event","kevent","power","'"${hw#/sys}"'","temp1_alarm","1","number"]'
	[ "$(stat_of sent)" -gt "$sent" ]
}

@test "hwmon_notify_event() of a name not in the registry (temp1_input) is a kevent event too, by its own name, in hwmon's class" {
	sensor_test_load
	kevent_out=$BATS_TEST_TMPDIR/kevent.out
	kevent_watch_bg "$kevent_out" --json --attr temp1_input --count 1 --timeout 30
	watch_start --stock --json --attr temp1_input
	# Five hwmon_notify_event() of temp1_input on the sensor's hwmon device
	sensor_test_set 0 bench "hwmon_notify 5"
	watch_lines 5
	run jq -r '[.source, .attr] | @tsv' "$WATCH_OUT"
	assert_equal "$(sort -u <<< "$output")" $'uevent\ttemp1_input'
	# Its sysfs_notify() reached the layer through kernfs_notify()
	wait "$KEVENT_PID"
	run jq -c '[.type, .source, .class, .attr]' "$kevent_out"
	assert_output '["event","kevent","power","temp1_input"]'
}

@test "kernfs_notify() calls the layer only while a socket listens: the static key is off with no listener, on once kevent-watch waits, off again within two seconds of its leaving" {
	# The listeners of earlier tests are gone
	probe_armed_wait no
	kevent_out=$BATS_TEST_TMPDIR/kevent.out
	kevent_watch_bg "$kevent_out" --json --timeout 30
	run probe_stat armed
	assert_output yes
	kill "$KEVENT_PID"
	wait "$KEVENT_PID" || true
	KEVENT_PID=
	probe_armed_wait no
}
