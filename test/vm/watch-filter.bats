#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Filters applied in the kernel: exact --attr names become a socket filter
# on kevent-watch's socket, and --class joins only the classes asked for, so
# events the watcher would discard do not wake it. The numbers: the
# watcher's voluntary context switches (each wakeup from poll is one) and
# its receive calls (recvmsg, and recvmmsg, which takes up to 16 queued
# messages at once), counted by strace, while 500 label events are sent.

setup_file()
{
	load ../test_helper/kevent
	sensor_test_load
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

setup()
{
	load ../test_helper/kevent
	STORM=500
	SENSOR0=/devices/platform/kevent-sensor-test.0
}

teardown()
{
	strace_stop
	watch_stop
}

# wakeups PID: how many times PID has gone to sleep and been woken
wakeups()
{
	awk '/^voluntary_ctxt_switches:/ { print $2 }' "/proc/$1/status"
}

# strace_receives: detach and print the number of receive calls counted
strace_receives()
{
	strace_detach
	awk '$NF == "recvmsg" || $NF == "recvmmsg" { n += $4 }
	     END { print n + 0 }' "$STRACE_OUT"
}

# label_storm: STORM events of sensor 0's label, each sent (kevent_notify())
# before its write returns; prints how many events the kernel sent
label_storm()
{
	local before after i fd

	before=$(layer_stat sent)
	exec {fd}> "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	for ((i = 0; i < STORM; i++)); do
		printf label >&"$fd"
	done
	exec {fd}>&-
	after=$(layer_stat sent)
	echo $((after - before))
}

# storm_while_watching: attach strace, count the watcher's wakeups over a
# label storm, then end with one temperature event and wait for it. Sets
# SENT, WAKEUPS and RECEIVES.
storm_while_watching()
{
	local w0

	strace_attach -c -e trace=recvmsg,recvmmsg
	w0=$(wakeups "$WATCH_PID")
	SENT=$(label_storm)
	# The last events reach the socket before the last write returns;
	# let the watcher take them before counting
	sleep 1
	WAKEUPS=$(($(wakeups "$WATCH_PID") - w0))
	RECEIVES=$(strace_receives)
	echo "# sent $SENT, watcher woken $WAKEUPS times, $RECEIVES receive calls" >&3
	sensor_test_set 0 temperature 31500
	watch_lines 1
}

@test "--attr temperature: a storm of label events does not wake the watcher" {
	watch_start --json --attr temperature
	storm_while_watching
	assert_equal "$SENT" "$STORM"
	[ "$WAKEUPS" -le 1 ] || fail "woken $WAKEUPS times by $SENT label events"
	[ "$RECEIVES" -le 1 ] || fail "$RECEIVES receive calls for $SENT label events"

	# Only the temperature, and the filtered events are no loss: no overrun
	run jq -c '[.type, .attr, .value]' "$WATCH_OUT"
	assert_output '["event","temperature","31500"]'
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "--attr with a glob filters in kevent-watch only: the same storm wakes it (the count can tell)" {
	watch_start --json --attr 'temperatur[e]'
	storm_while_watching
	assert_equal "$SENT" "$STORM"
	# Each event is queued to the socket: at most 16 are taken a call
	[ "$RECEIVES" -ge $((STORM / 16)) ] ||
		fail "only $RECEIVES receive calls for $SENT events"
	[ "$WAKEUPS" -ge 1 ] || fail "not woken by $SENT events"

	run jq -c '[.type, .attr, .value]' "$WATCH_OUT"
	assert_output '["event","temperature","31500"]'
}

@test "--class power: a storm of label events (class general) does not wake the watcher" {
	watch_start --json --class power
	storm_while_watching
	assert_equal "$SENT" "$STORM"
	[ "$WAKEUPS" -le 1 ] || fail "woken $WAKEUPS times by $SENT label events"
	[ "$RECEIVES" -le 1 ] || fail "$RECEIVES receive calls for $SENT label events"
	run jq -c '[.type, .attr, .value]' "$WATCH_OUT"
	assert_output '["event","temperature","31500"]'
}

@test "two exact --attr names let both attributes through, and no other" {
	watch_start --json --attr label --attr temperature
	sensor_test_set 1 notify calibration
	sensor_test_set 1 label "second"
	sensor_test_set 1 temperature 26500
	watch_lines 2
	# Nothing more arrives: calibration was filtered, not late
	sleep 1
	run jq -c '[.attr, .value]' "$WATCH_OUT"
	assert_output - <<-'EOF2'
	["label","second"]
	["temperature","26500"]
	EOF2
}

@test "an exact --attr name that the registry does not know filters in kevent-watch, and matches nothing" {
	watch_start --json --attr nosuch --count 1 --timeout 3
	sensor_test_set 0 label "not this"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 3
	run cat "$WATCH_OUT"
	assert_output ''
}
