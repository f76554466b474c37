#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent_bridge.ko: sources for the attributes of network devices, CPUs and
# power supplies that the kernel already has, appearing and disappearing
# with the devices, and events whose values are those sysfs shows then.

setup()
{
	load ../test_helper/kevent
	NETDEVS="d0 d1 d2 v0 kbr0 kbr1 kbr2 kbr3"
	bridge_load
}

teardown()
{
	watch_stop
	if [ -n "${CHURN_PIDS:-}" ]; then
		touch "$BATS_TEST_TMPDIR/stop"
		# shellcheck disable=SC2086 # a list of pids
		wait $CHURN_PIDS 2>/dev/null || true
	fi
	for dev in $NETDEVS; do
		ip link del "$dev" 2>/dev/null || true
	done
	ip netns del kbr 2>/dev/null || true
	cpu_set 1 1 2>/dev/null || true
	if module_loaded test_power; then rmmod test_power; fi
	[ ! -w /sys/module/kevent/parameters/coalesce_ms ] ||
		echo 10 > /sys/module/kevent/parameters/coalesce_ms
	bridge_unload
}

# bridge_sources: those of sources that the bridge would add
bridge_sources()
{
	sources | grep -E '^/devices/(virtual/net/|system/cpu/)|/power_supply/' ||
		true
}

# event_classes PATH ATTR: the classes of the events of PATH's ATTR so far,
# each once
event_classes()
{
	jq -r --arg p "$1" --arg a "$2" \
		'select(.type == "event" and .path == $p and .attr == $a) | .class' \
		"$WATCH_OUT" | sort -u
}

# source_classes PATH: "ATTR CLASS" of every source of PATH, from --list
# (--path: only PATH's values are read)
source_classes()
{
	"$KEVENT_WATCH" --list --json --path "$1" |
		jq -r --arg p "$1" \
			'select(.type == "state" and .path == $p) | "\(.attr) \(.class)"'
}

# last_event_wait PATH ATTR VALUE: wait until the last event of PATH's ATTR
# so far has the value VALUE
last_event_wait()
{
	for _ in $(seq 200); do
		[ "$(events "$1" "$2" | tail -n 1)" = "$3" ] && return 0
		sleep 0.1
	done
	echo "the last event of $1 $2 is not '$3':" >&2
	cat "$WATCH_OUT" "$WATCH_ERR" >&2
	return 1
}

# cpu_set N 0|1: take CPU N offline or online, unless it already is
cpu_set()
{
	local f=/sys/devices/system/cpu/cpu$1/online

	[ "$(cat "$f")" = "$2" ] || echo "$2" > "$f"
}

@test "sources for the present network devices and CPUs appear at load, and all go at unload" {
	run sources
	assert_line '/devices/virtual/net/lo operstate'
	assert_line '/devices/virtual/net/lo carrier'
	assert_line '/devices/virtual/net/lo mtu'
	assert_line '/devices/virtual/net/lo address'
	if [ -e /sys/devices/system/cpu/cpu1/online ]; then
		assert_line '/devices/system/cpu/cpu1 online'
	fi
	rmmod kevent_bridge
	run bridge_sources
	assert_output ""
}

@test "a dummy device: sources come and go with it, operstate/mtu/address events carry the values sysfs shows" {
	d=/devices/virtual/net/d0
	watch_start --json --path "$d"
	ip link add d0 type dummy
	run sources
	assert_line "$d operstate"
	assert_line "$d carrier"
	assert_line "$d mtu"
	assert_line "$d address"

	ip link set d0 up
	up=$(cat /sys/class/net/d0/operstate)
	refute [ "$up" = down ]
	event_wait "$d" operstate "$up"
	event_wait "$d" carrier 1

	ip link set d0 mtu 1400
	assert_equal "$(cat /sys/class/net/d0/mtu)" 1400
	event_wait "$d" mtu 1400

	ip link set d0 address 02:00:00:6b:65:76
	event_wait "$d" address 02:00:00:6b:65:76

	ip link set d0 down
	assert_equal "$(cat /sys/class/net/d0/operstate)" down
	event_wait "$d" operstate down

	ip link del d0
	run sources
	refute_output --partial "$d "

	# Once per change, each with the value of its moment, in order
	assert_equal "$(events "$d" operstate)" "$(printf '%s\n%s' "$up" down)"
	run events "$d" mtu
	assert_output 1400
}

# net_wait DEV FILE VALUE: wait until /sys/class/net/DEV/FILE reads VALUE
net_wait()
{
	local i

	for i in $(seq 200); do
		[ "$(cat "/sys/class/net/$1/$2" 2>/dev/null)" = "$3" ] && return 0
		sleep 0.1
	done
	echo "$1's $2 is '$(cat "/sys/class/net/$1/$2" 2>&1)', not $3" >&2
	return 1
}

@test "a veth whose peer goes down loses its carrier: carrier events read 0, then 1 again, all of class net" {
	local v=/devices/virtual/net/v0 classes

	ip link add v0 type veth peer name v1
	ip link set v1 up
	ip link set v0 up
	net_wait v0 carrier 1
	watch_start --json --class net --path "$v"

	ip link set v1 down
	net_wait v0 carrier 0
	event_wait "$v" carrier 0
	# A device up without a carrier: its operational state says so
	down=$(cat /sys/class/net/v0/operstate)
	assert_regex "$down" '^(down|lowerlayerdown)$'
	event_wait "$v" operstate "$down"

	ip link set v1 up
	net_wait v0 carrier 1
	last_event_wait "$v" carrier 1
	net_wait v0 operstate up
	last_event_wait "$v" operstate up
	ip link set v0 mtu 1400
	event_wait "$v" mtu 1400

	# The carrier's last event reads 1, and it read 0 before
	run events "$v" carrier
	assert_line 0
	assert_equal "${lines[-1]}" 1
	# Every event of the device, of each attribute, is of class net
	run jq -r 'select(.type == "event") | "\(.attr) \(.class)"' "$WATCH_OUT"
	classes=$(sort -u <<<"$output" | xargs)
	assert_equal "$classes" "carrier net mtu net operstate net"
	run source_classes "$v"
	assert_equal "$(sort <<<"$output" | xargs)" \
		"address net carrier net mtu net operstate net"
	# The kernel sends them to the net group alone: a listener of every
	# other class gets none of them (the replay ring still holds them)
	run -0 "$KEVENT_WATCH" --replay --timeout 0 --json --path "$v" \
		--class general,storage,power,fs,hotplug
	assert_output ''
	run -0 "$KEVENT_WATCH" --replay --timeout 0 --format '%c %a' --path "$v"
	assert_line 'net carrier'
	assert_equal "$(cut -d' ' -f1 <<<"$output" | sort -u)" net
}

@test "a dummy device's carrier switched off while it is up reads 0 in its event, and 1 when switched on" {
	local d=/devices/virtual/net/d0

	ip link add d0 type dummy
	ip link set d0 up
	net_wait d0 carrier 1
	watch_start --json --path "$d" --attr carrier
	ip link set d0 carrier off
	net_wait d0 carrier 0
	event_wait "$d" carrier 0
	ip link set d0 carrier on
	net_wait d0 carrier 1
	last_event_wait "$d" carrier 1
	# (an event of the "up" may come first, with value 1)
	run jq -r '"\(.class) \(.value)"' "$WATCH_OUT"
	assert_equal "$(tail -n 2 <<<"$output")" $'net 0\nnet 1'
	assert_equal "$(cut -d' ' -f1 <<<"$output" | sort -u)" net
}

@test "a renamed device is annotated under its new path only" {
	ip link add d0 type dummy
	ip link set d0 name d1
	run sources
	refute_output --partial '/devices/virtual/net/d0 '
	assert_line '/devices/virtual/net/d1 mtu'

	watch_start --json --path /devices/virtual/net/d1
	ip link set d1 mtu 1300
	event_wait /devices/virtual/net/d1 mtu 1300
}

@test "a change not yet reported when a device is renamed goes out with the new path, none with the old" {
	local old=/devices/virtual/net/d0 new=/devices/virtual/net/d1

	ip link add d0 type dummy
	echo 5000 > /sys/module/kevent/parameters/coalesce_ms
	watch_start --json --class net --attr mtu
	# The first goes out at once; the second waits for the 5 s window
	ip link set d0 mtu 1400
	event_wait "$old" mtu 1400
	ip link set d0 mtu 1300
	ip link set d0 name d1

	event_wait "$new" mtu 1300
	run events "$old" mtu
	assert_output 1400
}

@test "a device moved to another network namespace loses its sources, and regains them back home" {
	ip netns add kbr
	ip link add d2 type dummy
	run sources
	assert_line '/devices/virtual/net/d2 mtu'

	ip link set d2 netns kbr
	run sources
	refute_output --partial '/devices/virtual/net/d2 '

	ip -n kbr link set d2 netns 1
	run sources
	assert_line '/devices/virtual/net/d2 mtu'
}

@test "cpu1 offline then online: online events read 0, then 1" {
	# The test VM has 2 CPUs: cpu1 must be hotpluggable there.
	assert [ -e /sys/devices/system/cpu/cpu1/online ]
	c=/devices/system/cpu/cpu1
	watch_start --json --attr online
	echo 0 > /sys/devices/system/cpu/cpu1/online
	event_wait "$c" online 0
	echo 1 > /sys/devices/system/cpu/cpu1/online
	event_wait "$c" online 1
	# One event each, never one with a stale value
	run events "$c" online
	assert_output "$(printf '0\n1')"
	# A CPU's online keeps the registry's class, unlike a power supply's
	run event_classes "$c" online
	assert_output hotplug
	run source_classes "$c"
	assert_output "online hotplug"
}

# churn_net N: add, change and delete dummy device kbrN until $BATS_TEST_TMPDIR/stop
churn_net()
{
	while ! [ -e "$BATS_TEST_TMPDIR/stop" ]; do
		ip link add "kbr$1" type dummy
		ip link set "kbr$1" up
		ip link set "kbr$1" mtu 1280
		ip link set "kbr$1" name "kbr$(($1 + 2))"
		ip link del "kbr$(($1 + 2))"
	done 2>/dev/null
}

# churn_cpu: take cpu1 offline and online until $BATS_TEST_TMPDIR/stop
churn_cpu()
{
	while ! [ -e "$BATS_TEST_TMPDIR/stop" ]; do
		cpu_set 1 0
		cpu_set 1 1
	done 2>/dev/null
}

@test "rmmod kevent_bridge under a listener while devices and CPUs change leaves no source behind" {
	watch_start --json
	for _ in 1 2; do
		rm -f "$BATS_TEST_TMPDIR/stop"
		bridge_load
		churn_net 0 3>&- &
		CHURN_PIDS=$!
		churn_net 1 3>&- &
		CHURN_PIDS="$CHURN_PIDS $!"
		if [ -e /sys/devices/system/cpu/cpu1/online ]; then
			churn_cpu 3>&- &
			CHURN_PIDS="$CHURN_PIDS $!"
		fi
		sleep 1
		rmmod kevent_bridge
		run bridge_sources
		assert_output ""
		sleep 0.3
		touch "$BATS_TEST_TMPDIR/stop"
		# shellcheck disable=SC2086 # a list of pids
		wait $CHURN_PIDS || true
		CHURN_PIDS=
		run bridge_sources
		assert_output ""
	done
	# The listener saw bridge events and still runs
	assert kill -0 "$WATCH_PID"
	run jq -r 'select(.type == "event") | .path' "$WATCH_OUT"
	assert_output --partial /devices/virtual/net/kbr
}

# psy_path NAME: the kobject path of power supply NAME
psy_path()
{
	readlink -f "/sys/class/power_supply/$1" | sed 's|^/sys||'
}

@test "power supplies: the bridge loads and unloads cleanly, with a source per supply attribute" {
	local checked=0

	# The guest has no supply of its own: test_power.ko gives it three
	[ -e "$KEVENT_TEST_POWER" ] || fail "no $KEVENT_TEST_POWER: run make test-modules"
	insmod "$KEVENT_TEST_POWER"
	supplies=$(ls /sys/class/power_supply)
	refute [ -z "$supplies" ]
	run sources
	for s in $supplies; do
		for attr in capacity status online; do
			[ -e "/sys/class/power_supply/$s/$attr" ] || continue
			assert_line "$(psy_path "$s") $attr"
			checked=$((checked + 1))
		done
	done
	# test_ac's online, test_battery's capacity and status at least
	assert [ "$checked" -ge 3 ]
	rmmod test_power
	run sources
	refute_output --partial /power_supply/
	rmmod kevent_bridge
	run bridge_sources
	assert_output ""
	bridge_load
	rmmod kevent_bridge
	run lsmod
	refute_output --partial kevent_bridge
}

@test "test_power.ko: supplies' capacity, status and online are class power, with events carrying the values set" {
	tp=$KEVENT_TEST_POWER
	[ -e "$tp" ] || fail "no $tp: run make test-modules"
	params=/sys/module/test_power/parameters
	insmod "$tp"
	bat=$(psy_path test_battery)
	ac=$(psy_path test_ac)

	# test_battery has no online file, test_ac only online
	run source_classes "$bat"
	assert_line "capacity power"
	assert_line "status power"
	refute_line --partial online
	run source_classes "$ac"
	assert_output "online power"

	watch_start --json --class power
	echo 42 > "$params/battery_capacity"
	event_wait "$bat" capacity 42
	run event_classes "$bat" capacity
	assert_output power

	echo off > "$params/ac_online"
	event_wait "$ac" online 0
	run event_classes "$ac" online
	assert_output power

	rmmod test_power
	run bridge_sources
	refute_output --partial /power_supply/test_
}

@test "test_power.ko loaded before the bridge: its supplies get sources at load, notified, and removed when they go" {
	tp=$KEVENT_TEST_POWER
	[ -e "$tp" ] || fail "no $tp: run make test-modules"
	params=/sys/module/test_power/parameters
	rmmod kevent_bridge
	insmod "$tp"
	bridge_load
	bat=$(psy_path test_battery)
	ac=$(psy_path test_ac)
	usb=$(psy_path test_usb)

	run source_classes "$bat"
	assert_line "capacity power"
	assert_line "status power"
	run source_classes "$ac"
	assert_output "online power"
	run source_classes "$usb"
	assert_output "online power"

	watch_start --json --class power
	echo 17 > "$params/battery_capacity"
	event_wait "$bat" capacity 17
	echo discharging > "$params/battery_status"
	event_wait "$bat" status Discharging

	# Removed with their supplies, while the bridge stays
	rmmod test_power
	run bridge_sources
	refute_output --partial /power_supply/
	# A supply that appears later is followed with the same class
	insmod "$tp"
	run source_classes "$ac"
	assert_output "online power"
	echo off > "$params/ac_online"
	event_wait "$ac" online 0
}

@test "test_power.ko: the battery's status goes through each value, reported in order as sysfs shows it, of class power" {
	tp=$KEVENT_TEST_POWER
	[ -e "$tp" ] || fail "no $tp: run make test-modules"
	params=/sys/module/test_power/parameters
	insmod "$tp"
	bat=$(psy_path test_battery)
	run -0 "$KEVENT_WATCH" --list --format '%c %a=%v' --path "$bat" --attr status
	assert_output "power status=$(cat /sys/class/power_supply/test_battery/status)"

	watch_start --json --path "$bat" --attr status
	for s in charging full not-charging discharging full; do
		echo "$s" > "$params/battery_status"
		value=$(cat /sys/class/power_supply/test_battery/status)
		last_event_wait "$bat" status "$value"
	done
	# (an event of test_power's registration may come first, and a
	# value is the one of its report: the same value twice in a row
	# counts as one)
	assert_equal "$(events "$bat" status | uniq | tail -n 5)" \
		$'Charging\nFull\nNot charging\nDischarging\nFull'
	run event_classes "$bat" status
	assert_output power
	# No unit, and the battery's subsystem
	run jq -r -s 'map("\(.unit) \(.subsystem)") | unique | .[]' "$WATCH_OUT"
	assert_output 'null power_supply'
}
