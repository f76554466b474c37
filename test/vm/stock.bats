#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch --stock: the attribute events of a stock kernel, from its
# uevents and rtnetlink link messages, with kevent.ko never loaded.

setup()
{
	load ../test_helper/kevent
	NETDEVS="ks0 ks1 ks2 ks3"
	FORGE=$KEVENT_TOP/test/tools/kevent-stock-forge
	# kevent.ko is never loaded in this file
	if module_loaded kevent; then rmmod kevent_demo 2>/dev/null || true; rmmod kevent; fi
}

teardown()
{
	watch_stop
	for dev in $NETDEVS; do
		ip link del "$dev" 2>/dev/null || true
	done
	cpu_set 1 1 2>/dev/null || true
	if [ -n "${LOOPDEV:-}" ]; then losetup -d "$LOOPDEV" 2>/dev/null || true; fi
	if module_loaded test_power; then rmmod test_power; fi
	if module_loaded kevent_stock_hwmon; then rmmod kevent_stock_hwmon; fi
}

# cpu_set N 0|1: take CPU N offline or online, unless it already is
cpu_set()
{
	local f=/sys/devices/system/cpu/cpu$1/online

	[ "$(cat "$f")" = "$2" ] || echo "$2" > "$f"
}

# psy_path NAME: the kobject path of power supply NAME
psy_path()
{
	readlink -f "/sys/class/power_supply/$1" | sed 's|^/sys||'
}

# records: "path attr value" of every event so far, one a line
records()
{
	jq -r 'select(.type == "event") | "\(.path) \(.attr) \(.value)"' \
		"$WATCH_OUT"
}

# loop_attach FILE: attach FILE to a loop device, in LOOPDEV
loop_attach()
{
	[ -e /dev/loop-control ] || modprobe loop
	LOOPDEV=$(losetup -f --show "$1")
}

@test "without kevent.ko and without --stock, the error says that --stock exists" {
	run lsmod
	refute_line --regexp '^kevent '
	run --separate-stderr "$KEVENT_WATCH" --timeout 1
	assert_equal "$status" 1
	assert_stderr_partial "the kevent layer is not loaded"
	assert_stderr_partial "--stock"
	run --separate-stderr "$KEVENT_WATCH" --list
	assert_equal "$status" 1
	assert_stderr_partial "--stock"
}

@test "a dummy device: operstate, carrier, mtu and address changes are one event each, class net, source rtnetlink, under its new name once renamed" {
	d=/devices/virtual/net/ks0
	watch_start --stock --json --path '/devices/virtual/net/ks*'
	ip link add ks0 type dummy
	ip link set ks0 up
	up=$(cat /sys/class/net/ks0/operstate)
	refute [ "$up" = down ]
	event_wait "$d" operstate "$up"

	ip link set ks0 carrier off
	event_wait "$d" carrier 0
	ip link set ks0 mtu 1400
	event_wait "$d" mtu 1400
	ip link set ks0 address 02:00:00:6b:73:30
	event_wait "$d" address 02:00:00:6b:73:30

	# Renamed (down first, as the kernel wants): the path follows
	ip link set ks0 down
	ip link set ks0 name ks1
	ip link set ks1 mtu 1300
	event_wait /devices/virtual/net/ks1 mtu 1300
	ip link del ks1
	ip link add ks2 type dummy
	ip link set ks2 mtu 1280
	event_wait /devices/virtual/net/ks2 mtu 1280

	# Once per change; the add, rename and delete were no event
	run events "$d" mtu
	assert_output 1400
	run events "$d" address
	assert_output 02:00:00:6b:73:30
	run events "$d" carrier
	assert_output 0
	run events /devices/virtual/net/ks1 mtu
	assert_output 1300
	run jq -r 'select(.path | endswith("/ks1")) | .attr' "$WATCH_OUT"
	assert_output mtu
	run jq -c -s 'map([.type, .source, .class, .subsystem, .seq]) | unique' \
		"$WATCH_OUT"
	assert_output '[["event","rtnetlink","net","net",null]]'
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "test_power: capacity, status and online changes are one event each with the values set, class power, source uevent" {
	[ -e "$KEVENT_TEST_POWER" ] || fail "no $KEVENT_TEST_POWER: run make test-modules"
	params=/sys/module/test_power/parameters
	insmod "$KEVENT_TEST_POWER"
	bat=$(psy_path test_battery)
	ac=$(psy_path test_ac)

	# Loaded before the watch: its first change is one already
	watch_start --stock --json --class power --count 3
	echo 42 > "$params/battery_capacity"
	event_wait "$bat" capacity 42
	echo charging > "$params/battery_status"
	event_wait "$bat" status Charging
	echo off > "$params/ac_online"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run records
	assert_output "$bat capacity 42
$bat status Charging
$ac online 0"
	run jq -c -s 'map([.source, .class, .subsystem, (.seq | type)]) | unique' \
		"$WATCH_OUT"
	assert_output '[["uevent","power","power_supply","number"]]'
}

@test "cpu1 offline and online: attribute online, class hotplug, values 0 then 1" {
	[ -e /sys/devices/system/cpu/cpu1/online ] || fail "the VM has no cpu1 that can go offline"
	cpu_set 1 1
	watch_start --stock --json --class hotplug --count 2
	echo 0 > /sys/devices/system/cpu/cpu1/online
	event_wait /devices/system/cpu/cpu1 online 0
	echo 1 > /sys/devices/system/cpu/cpu1/online
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run records
	assert_output $'/devices/system/cpu/cpu1 online 0\n/devices/system/cpu/cpu1 online 1'
	run jq -c -s 'map([.source, .class, .subsystem]) | unique' "$WATCH_OUT"
	assert_output '[["uevent","hotplug","cpu"]]'
}

@test "a loop device resized with losetup -c after its file grew: attribute size in sectors, class storage" {
	img=$BATS_TEST_TMPDIR/disk.img
	truncate -s 1M "$img"
	loop_attach "$img"
	dev=$(readlink -f "/sys/class/block/${LOOPDEV#/dev/}" | sed 's|^/sys||')
	watch_start --stock --json --attr size --count 1
	truncate -s 3M "$img"
	losetup -c "$LOOPDEV"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .class, .path, .attr, .value, .unit, .subsystem]' \
		"$WATCH_OUT"
	assert_output '["uevent","storage","'"$dev"'","size","6144","sectors","block"]'
}

@test "a stock hwmon driver's alarm uevent: attribute NAME, class power, and its alarms are listed" {
	insmod "$KEVENT_STOCK_HWMON"
	hw=$(echo /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	dev=${hw#/sys}
	watch_start --stock --json --class power --count 1
	echo 81000 > "$hw/temp1_input"
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .class, .path, .attr, .value, .subsystem]' \
		"$WATCH_OUT"
	assert_output '["uevent","power","'"$dev"'","temp1_alarm","1","hwmon"]'

	run --separate-stderr "$KEVENT_WATCH" --stock --list --json
	assert_success
	run jq -r --arg p "$dev" 'select(.path == $p) | "\(.type) \(.source) \(.class) \(.attr)=\(.value)"' <<<"$output"
	assert_output 'state uevent power temp1_alarm=1'
}

@test "--attr, --path, --subsystem and --class filter the stock events" {
	[ -e /sys/devices/system/cpu/cpu1/online ] || fail "the VM has no cpu1"
	cpu_set 1 1
	ip link add ks2 type dummy
	ip link add ks3 type dummy
	watch_start --stock --json --attr mtu --path '*/ks2' --subsystem net \
		--count 1
	ip link set ks3 mtu 1400            # another path
	ip link set ks2 address 02:00:00:00:00:02  # another attribute
	echo 0 > /sys/devices/system/cpu/cpu1/online  # another subsystem
	echo 1 > /sys/devices/system/cpu/cpu1/online
	ip link set ks2 mtu 1380
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run records
	assert_output '/devices/virtual/net/ks2 mtu 1380'

	watch_start --stock --json --class hotplug --count 1
	ip link set ks2 mtu 1390            # class net
	echo 0 > /sys/devices/system/cpu/cpu1/online
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run records
	assert_output '/devices/system/cpu/cpu1 online 0'
}

@test "--list --stock: each attribute of the devices present with its value, and --coldplug lists before it watches" {
	[ -e "$KEVENT_TEST_POWER" ] || fail "no $KEVENT_TEST_POWER: run make test-modules"
	insmod "$KEVENT_TEST_POWER"
	bat=$(psy_path test_battery)
	truncate -s 2M "$BATS_TEST_TMPDIR/disk.img"
	loop_attach "$BATS_TEST_TMPDIR/disk.img"
	loop=$(readlink -f "/sys/class/block/${LOOPDEV#/dev/}" | sed 's|^/sys||')
	ip link add ks0 type dummy
	ip link set ks0 mtu 1420
	ip link set ks0 address 02:00:00:00:00:0a
	run --separate-stderr "$KEVENT_WATCH" --stock --list \
		--format '%c %p %a=%v %S'
	assert_success
	assert_line "net /devices/virtual/net/ks0 mtu=1420 net"
	assert_line "net /devices/virtual/net/ks0 address=02:00:00:00:00:0a net"
	assert_line "net /devices/virtual/net/ks0 operstate=down net"
	assert_line "net /devices/virtual/net/lo mtu=$(cat /sys/class/net/lo/mtu) net"
	assert_line "power $bat capacity=$(cat "/sys$bat/capacity") power_supply"
	assert_line "power $bat status=$(cat "/sys$bat/status") power_supply"
	assert_line "power $(psy_path test_ac) online=1 power_supply"
	assert_line "hotplug /devices/system/cpu/cpu1 online=1 cpu"
	assert_line "storage $loop size=4096 block"
	# The carrier of a device that is down cannot be read: listed, with it
	assert_line "net /devices/virtual/net/ks0 carrier= net"
	run --separate-stderr "$KEVENT_WATCH" --stock --list --json \
		--subsystem power_supply
	run jq -r '"\(.type) \(.source)"' <<<"$output"
	assert_line 'state uevent'
	refute_line --regexp '^event |rtnetlink$'

	watch_start --stock --coldplug --json --path /devices/virtual/net/ks0 \
		--attr mtu
	ip link set ks0 mtu 1440
	event_wait /devices/virtual/net/ks0 mtu 1440
	run jq -r '"\(.type) \(.value)"' "$WATCH_OUT"
	assert_output $'state 1420\nevent 1440'
}

@test "a forged uevent and a forged rtnetlink message from a root process are never reported" {
	[ -e /sys/devices/system/cpu/cpu1/online ] || fail "the VM has no cpu1"
	ip link add ks0 type dummy
	ifindex=$(cat /sys/class/net/ks0/ifindex)
	watch_start --stock --json --count 1
	# Each would be an event if taken: an mtu that is not ks0's, a CPU
	# that did not go offline
	run "$FORGE" link "$ifindex" ks0 1234
	assert_success
	run "$FORGE" uevent offline /devices/system/cpu/cpu1 cpu
	assert_success
	run "$FORGE" uevent change /devices/virtual/net/ks0 net
	assert_success
	ip link set ks0 mtu 1400
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run records
	assert_output '/devices/virtual/net/ks0 mtu 1400'
	run cat "$WATCH_ERR"
	assert_line 'kevent-watch: ignoring messages not sent by the kernel'
	assert_line 'kevent-watch: ignored 3 messages not sent by the kernel'
}
