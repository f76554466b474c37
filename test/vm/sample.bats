#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch --sample: attributes that no notification announces, read
# every interval and reported when they changed, with kevent.ko never
# loaded: the statistics of the loopback device, the temperature of an
# hwmon driver that never notifies it (kevent_stock_hwmon.ko), and the
# files of dummy network devices that come and go.
# shellcheck disable=SC2154,SC2034 # bats sets $stderr and $stderr_lines; loop counters

setup()
{
	load ../test_helper/kevent
	NETDEVS="kss0 kss1 kss2 kss3"
	# kevent.ko is never loaded in this file
	if module_loaded kevent; then
		rmmod kevent_demo 2>/dev/null || true
		rmmod kevent_sensor_test 2>/dev/null || true
		rmmod kevent
	fi
	ip link set lo up
}

teardown()
{
	watch_stop
	for dev in $NETDEVS; do
		ip link del "$dev" 2>/dev/null || true
	done
	if module_loaded kevent_stock_hwmon; then rmmod kevent_stock_hwmon; fi
	if module_loaded test_power; then rmmod test_power; fi
}

# values PATH ATTR: the values of the sample records of PATH's ATTR so far
values()
{
	jq -r --arg p "$1" --arg a "$2" \
		'select(.type == "event" and .source == "sample" and
			.path == $p and .attr == $a) | .value' "$WATCH_OUT"
}

# value_wait PATH ATTR VALUE: wait for a sample record of PATH's ATTR with
# VALUE
value_wait()
{
	for _ in $(seq 200); do
		values "$1" "$2" | grep -qxF -- "$3" && return 0
		sleep 0.1
	done
	echo "no sample record of $1 $2 with value '$3':" >&2
	cat "$WATCH_OUT" "$WATCH_ERR" >&2
	return 1
}

# udp_burst N: send N datagrams to 127.0.0.1 through the loopback device
udp_burst()
{
	for _ in $(seq "$1"); do
		echo kevent > /dev/udp/127.0.0.1/9 || true
		sleep 0.1
	done
}

# stock_hwmon: load kevent_stock_hwmon.ko; its hwmon directory in HW
stock_hwmon()
{
	insmod "$KEVENT_STOCK_HWMON"
	HW=$(echo /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	[ -f "$HW/temp1_input" ] || fail "no temp1_input in $HW"
}

# settle: let a few intervals of 100 ms pass
settle()
{
	sleep 0.6
}

@test "lo's rx_bytes, while datagrams go to 127.0.0.1, is reported as sample records whose values increase, without kevent.ko" {
	run lsmod
	refute_line --regexp '^kevent '
	f=/sys/class/net/lo/statistics/rx_bytes
	watch_start --sample 200ms --json "$f"
	udp_burst 30
	watch_lines 3
	watch_stop
	run jq -c -s 'map([.type, .source, .seq, .path, .attr]) | unique' \
		"$WATCH_OUT"
	assert_output '[["event","sample",null,"/devices/virtual/net/lo/statistics","rx_bytes"]]'
	# Strictly increasing: sorted, and no value twice
	run jq -s -e 'map(.value | tonumber) as $v | $v == ($v | unique)' \
		"$WATCH_OUT"
	assert_success
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "the first read is the baseline: a value that does not change is never reported" {
	watch_start --sample 100ms --json --timeout 2 \
		/sys/class/net/lo/mtu /sys/class/net/lo/address
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT" "$WATCH_ERR"
	assert_output ''
}

@test "the temperature of an hwmon driver that never notifies it is reported with its new value" {
	stock_hwmon
	watch_start --sample 100ms --json --count 1 "$HW/temp1_input"
	echo 47000 > "$HW/temp1_input"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c '[.type, .source, .path, .attr, .value, .subsystem]' \
		"$WATCH_OUT"
	assert_output '["event","sample","'"${HW#/sys}"'","temp1_input","47000","hwmon"]'
}

@test "--delta N reports a number that moved by N or more from the value last reported, and not smaller changes" {
	stock_hwmon
	watch_start --sample 100ms --delta 1000 --json "$HW/temp1_input"
	for t in 25500 25900 26000 26999 25001 24000; do
		echo "$t" > "$HW/temp1_input"
		settle
	done
	value_wait "${HW#/sys}" temp1_input 24000
	run values "${HW#/sys}" temp1_input
	assert_output $'26000\n24000'
}

@test "--delta: a value that is not a number is reported at any change" {
	ip link add kss0 type dummy
	watch_start --sample 100ms --delta 1000000 --json \
		/sys/class/net/kss0/ifalias
	ip link set kss0 alias abc
	value_wait /devices/virtual/net/kss0 ifalias abc
	ip link set kss0 alias abd
	value_wait /devices/virtual/net/kss0 ifalias abd
}

@test "a glob follows a device that appears later, lets it go without a record or an error when it is deleted, and follows it again when it comes back" {
	watch_start --sample 100ms --json '/sys/class/net/kss*/mtu'
	ip link add kss1 type dummy
	settle
	ip link set kss1 mtu 1400
	value_wait /devices/virtual/net/kss1 mtu 1400
	ip link del kss1
	settle
	# Still running, nothing said
	run kill -0 "$WATCH_PID"
	assert_success
	ip link add kss1 type dummy
	settle
	ip link set kss1 mtu 1300
	value_wait /devices/virtual/net/kss1 mtu 1300
	watch_stop
	# The deletion and the new device's first value are no record
	run jq -r '"\(.path) \(.attr) \(.value) \(.error)"' "$WATCH_OUT"
	assert_output $'/devices/virtual/net/kss1 mtu 1400 null\n/devices/virtual/net/kss1 mtu 1300 null'
	# Said once, at the start, when the glob matched nothing
	run cat "$WATCH_ERR"
	assert_output "kevent-watch: --sample: no file to sample matches '/sys/class/net/kss*/mtu' yet"
}

@test "a matched file whose open failed (EACCES) is opened at a later interval, once it can be" {
	ip link add kss2 type dummy
	chmod 0400 /sys/class/net/kss2/mtu
	watch_start_as 65534 --sample 100ms --json '/sys/class/net/kss*/mtu'
	settle
	chmod 0444 /sys/class/net/kss2/mtu
	settle
	ip link set kss2 mtu 1300
	value_wait /devices/virtual/net/kss2 mtu 1300
	# Its first value read is its baseline, no record
	run values /devices/virtual/net/kss2 mtu
	assert_output 1300
}

@test "a read that fails for good (carrier of a device set down) is one record with its error; the value again is one more" {
	ip link add kss3 type dummy
	ip link set kss3 up
	watch_start --sample 100ms --json /sys/class/net/kss3/carrier
	settle
	# Down, a dummy device's carrier reads EINVAL: no longer a value
	ip link set kss3 down
	settle
	settle
	ip link set kss3 up
	value_wait /devices/virtual/net/kss3 carrier 1
	watch_stop
	run jq -c '[.attr, .value, .error]' "$WATCH_OUT"
	assert_output $'["carrier",null,"EINVAL"]\n["carrier","1",null]'
}

@test "a read that fails for less than an interval (carrier of a device set down and up) is no record, as when a device goes" {
	local i

	ip link add kss3 type dummy
	ip link set kss3 up
	watch_start --sample 2s --json /sys/class/net/kss3/carrier
	settle
	# Down for a fraction of an interval: at most one read fails, which
	# the next one, a value again, takes back (were a failed read
	# reported at once, a fourth of these would give two records)
	for i in 1 2 3 4 5 6; do
		ip link set kss3 down
		sleep 0.3
		ip link set kss3 up
		sleep 2
	done
	watch_stop
	run cat "$WATCH_OUT"
	assert_output ''
}

@test "--attr and --path filter the sample records, --format prints them and --count ends the watch" {
	ip link add kss0 type dummy
	ip link add kss1 type dummy
	watch_start --sample 100ms --attr mtu --path '*/kss1' \
		--format '%a=%v %p' --count 1 \
		'/sys/class/net/kss[01]/mtu' '/sys/class/net/kss[01]/ifalias'
	ip link set kss0 mtu 1400         # another path
	ip link set kss1 alias other      # another attribute
	settle
	ip link set kss1 mtu 1380
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output 'mtu=1380 /devices/virtual/net/kss1'
}

@test "text lines of sample records start with SAMPLE and have no sequence number" {
	stock_hwmon
	watch_start --sample 100ms --count 1 "$HW/temp1_input"
	echo 51000 > "$HW/temp1_input"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output --regexp "^SAMPLE\[[0-9]+\.[0-9]{6}\] - power ${HW#/sys} temp1_input=51000"
}

@test "--list prints the state of each file sampled, --coldplug prints it and then watches" {
	run -0 --separate-stderr "$KEVENT_WATCH" --list --json --sample 1s \
		/sys/class/net/lo/mtu '/sys/class/net/lo/statistics/rx_p*'
	run jq -r '"\(.type) \(.source) \(.attr) \(.value | type)"' <<<"$output"
	assert_output $'state sample mtu string\nstate sample rx_packets string'

	stock_hwmon
	watch_start --coldplug --sample 100ms --json --count 1 \
		"$HW/temp1_input"
	echo 52000 > "$HW/temp1_input"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -r '"\(.type) \(.attr) \(.value)"' "$WATCH_OUT"
	assert_output $'state temp1_input 25000\nevent temp1_input 52000'
}

@test "online is class power on a power supply and hotplug on a CPU, as the kernel gives it" {
	[ -e "$KEVENT_TEST_POWER" ] || fail "no $KEVENT_TEST_POWER: run make test-modules"
	[ -f /sys/devices/system/cpu/cpu1/online ] || fail "the guest has no cpu1 online file"
	insmod "$KEVENT_TEST_POWER"
	run -0 --separate-stderr "$KEVENT_WATCH" --list --json --sample 1s \
		/sys/class/power_supply/test_ac/online \
		/sys/devices/system/cpu/cpu1/online
	run jq -r '"\(.path | sub(".*/"; "")) \(.attr) \(.class)"' <<<"$output"
	assert_output $'test_ac online power\ncpu1 online hotplug'
}

@test "--sample beside --poll: the polled alarm and the sampled temperature come in one watch" {
	stock_hwmon
	watch_start --poll "$HW/temp1_alarm" --sample 100ms --json --count 2 \
		"$HW/temp1_input"
	echo 81000 > "$HW/temp1_input"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -r '"\(.source) \(.attr) \(.value)"' "$WATCH_OUT"
	assert_line 'poll temp1_alarm 1'
	assert_line 'sample temp1_input 81000'
}

@test "--stock --sample without files samples the stock attributes of the classes chosen" {
	ip link add kss2 type dummy
	watch_start --stock --sample 100ms --class net --path '*/kss2' \
		--json
	ip link set kss2 mtu 1400
	value_wait /devices/virtual/net/kss2 mtu 1400
	run jq -r 'select(.attr == "mtu") | .source' "$WATCH_OUT"
	assert_line rtnetlink
	assert_line sample
}

@test "a bad INTERVAL or --delta is one line on stderr and the usage status" {
	run -2 --separate-stderr "$KEVENT_WATCH" --sample 10x /sys/class/net/lo/mtu
	assert_output ''
	assert_equal "${stderr_lines[0]}" "kevent-watch: --sample: invalid interval '10x' (expected such as 500ms, 1s, 2 or 1.5m, from 1ms)"
	run -2 --separate-stderr "$KEVENT_WATCH" --sample 1s --delta -3 /sys/class/net/lo/mtu
	assert_equal "${stderr_lines[0]}" "kevent-watch: --delta: invalid value '-3' (expected a positive integer)"
	run -2 --separate-stderr "$KEVENT_WATCH" --sample 1s /tmp
	assert_equal "${stderr_lines[0]}" "kevent-watch: --sample: '/tmp' is not a sysfs file below /sys"
	run -1 --separate-stderr "$KEVENT_WATCH" --sample 1s /sys/class/net/kss-none/mtu
	assert_equal "$stderr" "kevent-watch: cannot sample /sys/class/net/kss-none/mtu: No such file or directory"
}

@test "sampling a glob whose files come and go, with --count, runs clean under valgrind" {
	log=$BATS_TEST_TMPDIR/valgrind.log
	watch_spawn_valgrind "$log" "$KEVENT_WATCH" --sample 100ms --json \
		--count 2 '/sys/class/net/kss*/mtu' /sys/class/net/lo/mtu
	ip link add kss0 type dummy
	ip link add kss1 type dummy
	# Each change once the sampler has the file open and its baseline
	# read (one call), and the next once the last one is reported: under
	# valgrind on a busy host an interval can take seconds
	watched_wait /sys/devices/virtual/net/kss0/mtu 60
	watched_wait /sys/devices/virtual/net/kss1/mtu 60
	sleep 0.5
	ip link set kss0 mtu 1400
	watch_lines 1 60
	ip link del kss0
	ip link set kss1 mtu 1300
	watch_wait 60
	assert_equal "$WATCH_STATUS" 0
	run jq -r '"\(.path) \(.value)"' "$WATCH_OUT"
	assert_output $'/devices/virtual/net/kss0 1400\n/devices/virtual/net/kss1 1300'
	run cat "$log"
	assert_output ''
}
