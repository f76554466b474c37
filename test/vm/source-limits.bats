#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The driver API's limits (kevent_test.ko, test/kernel/): paths too long for
# a message, a listener that never reads, a coalescing window shortened
# while open. The debug kernel runs it too, with KASAN, lockdep and
# kmemleak watching. The races of the API are in source-safety.bats.

setup()
{
	load ../test_helper/kevent
	HOG=$KEVENT_TOP/test/tools/kevent-hog
	sensor_test_load
}

teardown()
{
	watch_stop
	[ -z "${HOG_PID:-}" ] || kill "$HOG_PID" 2>/dev/null || true
	if module_loaded kevent_test; then rmmod kevent_test; fi
	echo 10 > /sys/module/kevent/parameters/coalesce_ms
	modules_unload
}

# deep_path LEN: sets DEEP to the path below /sys of the deep control's
# chain of LEN bytes. Neither it nor test_write starts a process: each start
# takes seconds on the debug kernel.
deep_path()
{
	local len=$1 seg run

	DEEP=/kernel/kevent_test
	while [ $((len - ${#DEEP})) -gt 0 ]; do
		seg=$((len - ${#DEEP} - 1))
		[ "$seg" -le 200 ] || seg=200
		[ $((len - ${#DEEP} - 1 - seg)) -ne 1 ] || seg=$((seg - 1))
		printf -v run '%*s' "$seg" ''
		DEEP=$DEEP/${run// /d}
	done
}

# test_write CONTROL VALUE: writes VALUE to the test driver's CONTROL, its
# error on stderr
test_write()
{
	echo "$2" > "$TEST_DBG/$1"
}

@test "a source whose kobject path is KEVENT_PATH_MAX bytes or longer is refused with ENAMETOOLONG" {
	insmod "$KEVENT_TEST_DRIVER"

	run test_write deep 3072
	assert_failure
	assert_output --partial 'File name too long'
	run test_write deep 8000
	assert_failure
	assert_output --partial 'File name too long'

	run "$KEVENT_WATCH" --list --format '%p %a\n'
	assert_success
	refute_output --partial /kernel/kevent_test/
	assert_line '/devices/platform/kevent-sensor-test.1 label'
}

@test "a source of the longest path allowed is listed with every other source, and its events and replay carry it" {
	local deep

	insmod "$KEVENT_TEST_DRIVER"
	deep_path 3071
	deep=$DEEP
	echo 3071 > "$TEST_DBG/deep"
	watch_start --json --attr label

	echo x > "$TEST_DBG/notify"
	watch_lines 1
	run jq -r '.path + " " + .value' "$WATCH_OUT"
	assert_output "$deep deep"

	# The sources before and after it in the dump are all listed
	run "$KEVENT_WATCH" --list --format '%p %a\n'
	assert_success
	assert_line "$deep label"
	assert_line '/devices/platform/kevent-sensor-test.0 temperature'
	assert_line '/devices/platform/kevent-test.0 temperature'
	run "$KEVENT_WATCH" --replay --timeout 1 --json --attr label
	assert_success
	assert_line --partial "\"path\":\"$deep\""
}

@test "kevent_notify() of a path too long fails with ENAMETOOLONG, sends nothing, and wakes the attribute's poll()ers" {
	local file

	insmod "$KEVENT_TEST_DRIVER"
	run test_write deep 3500
	assert_failure
	deep_path 3500
	file=/sys$DEEP/label
	assert [ -r "$file" ]

	watch_start --json
	# One wake-up of a poll() for POLLPRI, as sysfs gives it: a change
	# after the read counts, even before poll() is called
	python3 - "$file" > "$BATS_TEST_TMPDIR/poll.out" <<-'EOF' &
		import select, sys
		f = open(sys.argv[1])
		f.read()
		print("ready", flush=True)
		p = select.poll()
		p.register(f, select.POLLPRI | select.POLLERR)
		print("woken" if p.poll(60000) else "timeout", flush=True)
	EOF
	local poller=$!
	for _ in $(seq 100); do
		grep -q ready "$BATS_TEST_TMPDIR/poll.out" && break
		sleep 0.2
	done
	run test_write notify x
	assert_failure
	assert_output --partial 'File name too long'
	wait "$poller"
	run cat "$BATS_TEST_TMPDIR/poll.out"
	assert_output "$(printf 'ready\nwoken')"
	sleep 0.5
	run cat "$WATCH_OUT"
	assert_output ''
}

# The sender hands events to listeners without sleeping (GFP_NOWAIT), so a
# full listener cannot make it yield while it holds its locks; the times of
# both runs are printed, not compared: they depend on the machine's load.
# socket_drops PID: the Drops column of /proc/net/netlink for PID's netlink
# socket, found by its inode
socket_drops()
{
	local inode

	inode=$(readlink /proc/"$1"/fd/* | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p' | head -1)
	awk -v ino="$inode" '$10 == ino { print $9 }' /proc/net/netlink
}

@test "a listener that never reads and asked for broadcast errors: no event counts as failed, the others get all" {
	# The hog's buffer, the smallest there is, holds a few events: 100
	# overflow it many times over
	local n=100 failed t_without t_with

	# notify_n: N events of label, one kevent_notify() each, timed in ms
	notify_n()
	{
		local start=$EPOCHREALTIME i

		for i in $(seq "$n"); do
			echo label > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
		done
		echo $(( (${EPOCHREALTIME/./} - ${start/./}) / 1000 ))
	}

	watch_start --json --class general --attr label
	t_without=$(notify_n)
	watch_lines "$n" 60

	failed=$(layer_stat failed)
	chmod 0755 "$BATS_TEST_TMPDIR"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$HOG" \
		> "$BATS_TEST_TMPDIR/hog.out" &
	HOG_PID=$!
	for _ in $(seq 50); do
		grep -q ready "$BATS_TEST_TMPDIR/hog.out" && break
		sleep 0.1
	done
	run cat "$BATS_TEST_TMPDIR/hog.out"
	assert_output ready
	assert_equal "$(socket_drops "$HOG_PID")" 0

	t_with=$(notify_n)
	watch_lines $((2 * n)) 60
	echo "$n events: ${t_without} ms without the listener, ${t_with} ms with it" >&2

	# The hog's buffer overflowed: most events found it full
	assert [ "$(socket_drops "$HOG_PID")" -gt $((n / 2)) ]
	assert_equal "$(layer_stat failed)" "$failed"
	run jq -s '[.[] | select(.type == "event")] | length' "$WATCH_OUT"
	assert_output $((2 * n))
	run jq -s '[.[] | select(.type == "overrun")] | length' "$WATCH_OUT"
	assert_output 0
}

@test "a shorter coalesce_ms ends a coalescing window already open" {
	echo 10000 > /sys/module/kevent/parameters/coalesce_ms
	watch_start --json --path /devices/platform/kevent-sensor-test.0 \
		--attr temperature
	# The first goes out at once and opens a 10 s window; the second waits
	sensor_test_set 0 temperature 1
	watch_lines 1
	sensor_test_set 0 temperature 2
	echo 10 > /sys/module/kevent/parameters/coalesce_ms

	# The trailing event went out once the window was shortened, not 10 s
	# after the first, as the events' own timestamps say
	watch_lines 2 30
	run jq -r .value "$WATCH_OUT"
	assert_line --index 1 2
	run jq -rs '.[1].time - .[0].time' "$WATCH_OUT"
	echo "trailing event $output s after the first" >&2
	run jq -es '.[1].time - .[0].time < 5' "$WATCH_OUT"
	assert_success
}
