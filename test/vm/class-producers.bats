#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Every class's multicast group has a producer the kernel already has, with
# no kevent driver of ours: kevent.ko's probe on kernfs_notify() carries
# md (storage), ext4 (fs), an hwmon alarm (power) and a file of no
# subsystem (general); kevent_bridge.ko a CPU's online (hotplug) and a
# network device's mtu (net).

setup_file()
{
	load ../test_helper/storage
	storage_setup_file
}

setup()
{
	load ../test_helper/kevent
	load ../test_helper/storage
}

teardown()
{
	watch_stop
	echo 1 > /sys/devices/system/cpu/cpu1/online 2>/dev/null || true
	ip link del kcp0 2>/dev/null || true
	storage_teardown
	if module_loaded kevent_stock_hwmon; then rmmod kevent_stock_hwmon; fi
	if module_loaded kevent_notify_storm; then rmmod kevent_notify_storm; fi
	bridge_unload
}

@test "each class's group has a real producer: md, ext4, hwmon, a plain sysfs file, a CPU and a network device" {
	local hw storm=/kernel/kevent_notify_storm class

	[ -f /sys/devices/system/cpu/cpu1/online ] || fail "the guest has no cpu1 online file"
	bridge_load
	insmod "$KEVENT_STOCK_HWMON"
	hw=$(readlink -f /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	insmod "$KEVENT_NOTIFY_STORM" files=1
	ip link add kcp0 type dummy
	md_create
	ext4_mount
	watch_start --json
	mdadm /dev/md127 --fail "$MD_B" >/dev/null 2>&1
	echo 1 > "/sys$FS/trigger_fs_error"
	echo 81000 > "$hw/temp1_input"
	echo 1 > "/sys$storm/notify"
	echo 0 > /sys/devices/system/cpu/cpu1/online
	ip link set kcp0 mtu 1400
	event_wait "$MD" degraded 1
	event_wait "$FS" errors_count 1
	event_wait "${hw#/sys}" temp1_alarm 1
	event_wait "$storm" f0 0
	event_wait /devices/system/cpu/cpu1 online 0
	event_wait /devices/virtual/net/kcp0 mtu 1400
	# Each producer's event in its class's group
	run jq -r --arg md "$MD" --arg fs "$FS" --arg hw "${hw#/sys}" \
		--arg storm "$storm" 'select(.type == "event") |
		select((.path == $md and .attr == "degraded") or
		       (.path == $fs and .attr == "errors_count") or
		       (.path == $hw and .attr == "temp1_alarm") or
		       (.path == $storm and .attr == "f0") or
		       (.path == "/devices/system/cpu/cpu1" and .attr == "online") or
		       (.path == "/devices/virtual/net/kcp0" and .attr == "mtu")) |
		"\(.attr) \(.class)"' "$WATCH_OUT"
	assert_success
	for class in "degraded storage" "errors_count fs" "temp1_alarm power" \
		"f0 general" "online hotplug" "mtu net"; do
		assert_line "$class"
	done
	# All six groups, none missing
	run jq -r 'select(.type == "event") | .class' "$WATCH_OUT"
	run sort -u <<< "$output"
	assert_output $'fs\ngeneral\nhotplug\nnet\npower\nstorage'
}
