#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The stock-kernel sources of kevent-watch: change uevents with NAME=<attr>
# (--uevent) and sysfs files woken by sysfs_notify() (--poll), exercised by
# the hwmon device of a sensor of the test driver, kevent_sensor_test.ko,
# whose temp1_alarm flips when the temperature crosses temp1_max.

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	HWMON=$(hwmon_dir 0)
}

teardown()
{
	watch_stop
	if module_loaded kevent_stock_hwmon; then rmmod kevent_stock_hwmon; fi
	modules_unload
}

# hwmon_dir N: the hwmon directory of the test driver's sensor N below /sys
hwmon_dir()
{
	local d

	for d in "$DEMO_SYS/kevent-sensor-test.$1"/hwmon/hwmon*; do
		[ -d "$d" ] && echo "$d" && return 0
	done
	echo "sensor $1 has no hwmon device" >&2
	return 1
}

@test "the test driver's hwmon device shows the temperature, temp1_max and temp1_alarm" {
	run cat "$HWMON/name" "$HWMON/temp1_input" "$HWMON/temp1_max" \
		"$HWMON/temp1_alarm"
	assert_success
	assert_output $'kevent_sensor_test\n25000\n80000\n0'
	sensor_test_set 0 temperature 81000
	run cat "$HWMON/temp1_input" "$HWMON/temp1_alarm"
	assert_output $'81000\n1'
	echo 90000 > "$HWMON/temp1_max"
	run cat "$HWMON/temp1_max" "$HWMON/temp1_alarm"
	assert_output $'90000\n0'
}

@test "--uevent reports temp1_alarm with value 1 when the temperature goes above temp1_max" {
	watch_start --uevent --json --count 1 --timeout 20
	sensor_test_set 0 temperature 81000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	run jq -c -e '[.type, .source, .path, .attr, .value, .subsystem,
		       .class, .unit, (.seq | type)]' "$WATCH_OUT"
	assert_success
	# In the class the registry gives temp*_alarm
	assert_output "[\"event\",\"uevent\",\"${HWMON#/sys}\",\"temp1_alarm\",\"1\",\"hwmon\",\"power\",null,\"number\"]"
	run jq -e '.seq > 0' "$WATCH_OUT"
	assert_success
}

@test "--poll on temp1_alarm reports it with value 1 when the temperature goes above temp1_max" {
	watch_start --poll "$HWMON/temp1_alarm" --json --count 1 --timeout 20
	sensor_test_set 0 temperature 81000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	run jq -c -e '[.type, .source, .path, .attr, .value, .seq, .class,
		       .subsystem]' "$WATCH_OUT"
	assert_success
	# No sequence number; the class the registry gives temp*_alarm
	assert_output "[\"event\",\"poll\",\"${HWMON#/sys}\",\"temp1_alarm\",\"1\",null,\"power\",\"hwmon\"]"
}

@test "--poll resolves /sys/class links to the kobject path, and text lines start with POLL" {
	watch_start --poll "/sys/class/hwmon/${HWMON##*/}/temp1_alarm" \
		--count 1 --timeout 20
	sensor_test_set 0 temperature 81000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^POLL\\[[0-9]+\\.[0-9]+\\] - power ${HWMON#/sys} temp1_alarm=1 \\(hwmon\\)\$"
}

@test "--poll with several files reports each file's changes with its own path and value" {
	local h1 a0 a1

	h1=$(hwmon_dir 1)
	a0=${HWMON#/sys} a1=${h1#/sys}
	# After the options, as --poll A B
	watch_start --json --count 3 --timeout 30 \
		--poll "$HWMON/temp1_alarm" "$h1/temp1_alarm"
	sensor_test_set 1 temperature 81000
	watch_lines 1
	sensor_test_set 0 temperature 82000
	watch_lines 2
	sensor_test_set 1 temperature 30000
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -r '[.source, .path, .attr, .value] | join(" ")' "$WATCH_OUT"
	assert_output - <<-EOF
	poll $a1 temp1_alarm 1
	poll $a0 temp1_alarm 1
	poll $a1 temp1_alarm 0
	EOF

	# As --poll A --poll B, with a third file, of another attribute
	sensor_test_set 0 temperature 30000
	watch_start --format '%p %a=%v' --count 3 --timeout 30 \
		--poll "$h1/temp1_alarm" --poll "$HWMON/temp1_alarm" \
		--poll "$HWMON/temp1_max"
	sensor_test_set 0 temperature 85000
	watch_lines 1
	sensor_test_set 1 temperature 86000
	watch_lines 2
	sensor_test_set 0 temperature 20000
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output - <<-EOF
	$a0 temp1_alarm=1
	$a1 temp1_alarm=1
	$a0 temp1_alarm=0
	EOF
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "lowering the temperature below temp1_max reports temp1_alarm 0 from both stock sources" {
	sensor_test_set 0 temperature 81000
	watch_start --uevent --json --count 1 --timeout 20
	uevent_out=$WATCH_OUT uevent_pid=$WATCH_PID
	WATCH_OUT=$BATS_TEST_TMPDIR/poll.out
	"$KEVENT_WATCH" --poll "$HWMON/temp1_alarm" --json --count 1 \
		--timeout 20 > "$WATCH_OUT" 2>&1 3>&- &
	poll_pid=$!
	for i in $(seq 100); do is_waiting "$poll_pid" && break; sleep 0.1; done
	sensor_test_set 0 temperature 30000
	wait "$poll_pid"
	WATCH_PID=$uevent_pid
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .attr, .value]' "$uevent_out" "$WATCH_OUT"
	assert_output $'["uevent","temp1_alarm","0"]\n["poll","temp1_alarm","0"]'
}

@test "a write to temp1_max that flips the alarm is reported too" {
	sensor_test_set 0 temperature 50000
	watch_start --uevent --attr temp1_alarm --json --count 1 --timeout 20
	echo 40000 > "$HWMON/temp1_max"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .attr, .value]' "$WATCH_OUT"
	assert_output '["uevent","temp1_alarm","1"]'
}

@test "a storm crossing temp1_max from atomic context gives the alarm uevent" {
	sensor_test_set 0 temperature 79990
	watch_start --uevent --json --count 1 --timeout 20
	sensor_test_set 0 storm 100
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .attr, .value]' "$WATCH_OUT"
	assert_output '["uevent","temp1_alarm","1"]'
	run cat "$HWMON/temp1_input"
	assert_output 80090
}

@test "temperature changes that do not cross temp1_max send no uevent" {
	watch_start --uevent --json --timeout 2
	sensor_test_set 0 temperature 30000
	sensor_test_set 0 temperature 79000
	sensor_test_set 1 temperature 40000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output ''
}

# input_named: the input device whose name has a space, such as the VM's
# PS/2 keyboard ("AT Translated Set 2 keyboard"), in $input. The keyboard is
# probed in the background at boot: wait for it, up to 20 s.
input_named()
{
	local i dev name

	for ((i = 0; i < 200; i++)); do
		for dev in /sys/class/input/input*; do
			[ -e "$dev/name" ] || continue
			read -r name < "$dev/name" || continue
			if [[ $name == *" "* ]]; then
				input=$dev
				return 0
			fi
		done
		sleep 0.1
	done
	echo "no input device whose name has a space in /sys/class/input" >&2
	return 1
}

@test "--uevent ignores the change uevent of an input device, whose NAME= is its product name" {
	local input

	input_named
	run cat "$input/uevent"
	assert_success
	assert_line --regexp '^NAME=".* .*"$'
	watch_start --uevent --json --count 1 --timeout 20
	echo change > "$input/uevent"
	# then an hwmon alarm, whose NAME= is an attribute
	sensor_test_set 0 temperature 81000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .attr, .subsystem]' "$WATCH_OUT"
	assert_output '["uevent","temp1_alarm","hwmon"]'

	watch_start --uevent --timeout 1
	echo change > "$input/uevent"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT" "$WATCH_ERR"
	assert_output ''
}

@test "kevent events and --list states carry source kevent" {
	watch_start --json --count 1
	sensor_test_set 0 temperature 43210
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.type, .source, .attr, .value]' "$WATCH_OUT"
	assert_output '["event","kevent","temperature","43210"]'
	run --separate-stderr "$KEVENT_WATCH" --list --json
	assert_success
	run jq -r '.source' <<<"$output"
	assert_output $'kevent\nkevent\nkevent\nkevent\nkevent\nkevent'
}

@test "--poll on a file outside /sys is a usage error" {
	run --separate-stderr "$KEVENT_WATCH" --poll /etc/hostname --timeout 1
	assert_equal "$status" 2
	assert_stderr_partial "is not a sysfs file below /sys"
	run --separate-stderr "$KEVENT_WATCH" --poll /sys/../etc/hostname \
		--timeout 1
	assert_equal "$status" 2
	run --separate-stderr "$KEVENT_WATCH" --poll "$HWMON/temp1_alarm" \
		/proc/uptime --timeout 1
	assert_equal "$status" 2
	run --separate-stderr "$KEVENT_WATCH" --poll "$HWMON/no_such_file" \
		--timeout 1
	assert_equal "$status" 1
	assert_stderr_partial "No such file"
}

# kevent_stock_hwmon.ko uses no kevent: its alarm is announced as stock
# hwmon drivers do, a change uevent with NAME=temp1_alarm and a
# sysfs_notify() of the file, and kevent.ko is never loaded.
@test "--uevent and --poll report a real hwmon alarm with kevent.ko never loaded" {
	local hw dev

	modules_unload
	insmod "$KEVENT_STOCK_HWMON"
	run lsmod
	refute_line --partial 'kevent '
	hw=$(echo /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	dev=${hw#/sys}
	run --separate-stderr "$KEVENT_WATCH" --timeout 0.5
	assert_equal "$status" 1

	# Above temp1_max: the alarm goes to 1, as a uevent
	watch_start --uevent --json --count 1 --timeout 30
	echo 81000 > "$hw/temp1_input"
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .path, .attr, .value, .subsystem]' "$WATCH_OUT"
	assert_output '["uevent","'"$dev"'","temp1_alarm","1","hwmon"]'
	run cat "$WATCH_ERR"
	assert_output ''

	# Below it again: back to 0, as a wakeup of the file's pollers
	watch_start --poll "$hw/temp1_alarm" --json --count 1 --timeout 30
	echo 25000 > "$hw/temp1_input"
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.source, .path, .attr, .value]' "$WATCH_OUT"
	assert_output '["poll","'"$dev"'","temp1_alarm","0"]'
	run cat "$WATCH_ERR"
	assert_output ''
	rmmod kevent_stock_hwmon
}
