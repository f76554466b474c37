#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The examples of userspace/examples/ run against the demo sensor and do
# what their comments say. They call kevent-watch by its installed name:
# the build tree's userspace/cli comes first in PATH.

setup_file()
{
	load ../test_helper/kevent
	modules_load
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

setup()
{
	load ../test_helper/kevent
	modules_load
	EXAMPLES=$KEVENT_TOP/userspace/examples
	MONITOR=$EXAMPLES/kevent-monitor
	PATH=$KEVENT_TOP/userspace/cli:$PATH
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
	SPAWN_PID=
	SYSLOGD_PID=
	demo_set 0 temperature 25000
	demo_set 1 temperature 25000
}

teardown()
{
	if [ -n "$SPAWN_PID" ]; then
		kill -TERM -- "-$SPAWN_PID" 2>/dev/null || true
		wait "$SPAWN_PID" 2>/dev/null || true
	fi
	if [ -n "$SYSLOGD_PID" ]; then
		kill "$SYSLOGD_PID" 2>/dev/null || true
		wait "$SYSLOGD_PID" 2>/dev/null || true
		rm -f /dev/log
	fi
	if module_loaded kevent_test; then rmmod kevent_test; fi
	# A sensor was unplugged: start the next test with fresh modules.
	[ -e "$DEMO_SYS/kevent-demo.1" ] || modules_unload
}

# spawn CMD...: run CMD in the background, in a process group of its own
# (the whole pipeline of a script ends with it), stdout in $OUT and stderr
# in $ERR; its pid in SPAWN_PID
spawn()
{
	setsid "$@" > "$OUT" 2> "$ERR" 3>&- &
	SPAWN_PID=$!
}

# wait_for SECS CMD...: run CMD until it succeeds, for SECS seconds at most
wait_for()
{
	local secs=$1 deadline=$((SECONDS + $1))

	shift
	until "$@"; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "still failing after $secs s: $*" >&2
			return 1
		fi
		sleep 0.1
	done
}

# expect_line LINE [SECS]: wait until the spawned command printed LINE
expect_line()
{
	wait_for "${2:-20}" grep -qxF -- "$1" "$OUT" && return 0
	echo "no line '$1' in the output:" >&2
	cat "$OUT" "$ERR" >&2
	return 1
}

# wait_exit SECS: wait until the spawned command ends; its status in STATUS
wait_exit()
{
	local deadline=$((SECONDS + $1))

	while kill -0 "$SPAWN_PID" 2>/dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "$SPAWN_PID still runs after $1 s" >&2
			return 1
		fi
		sleep 0.1
	done
	STATUS=0
	wait "$SPAWN_PID" || STATUS=$?
	SPAWN_PID=
}

# need_monitor: kevent-monitor is built (by make), else the test fails
need_monitor()
{
	[ -x "$MONITOR" ] || fail "no $MONITOR: build it with make"
}

@test "threshold-alert.sh alerts once above the threshold and once back below it, per device" {
	# Above the threshold before the start: alerts at once (coldplug),
	# which also says the watch has started.
	demo_set 1 temperature 60000
	spawn "$EXAMPLES/threshold-alert.sh" 45
	expect_line 'ALERT /devices/platform/kevent-demo.1 temperature=60000' 30

	demo_set 0 temperature 50000
	expect_line 'ALERT /devices/platform/kevent-demo.0 temperature=50000'
	# Still above: no second alert. Each value is given time to be read.
	demo_set 0 temperature 55000
	sleep 0.5
	# Below 45 degrees, not below 45 - 2: no clear yet (hysteresis).
	demo_set 0 temperature 44000
	sleep 0.5
	demo_set 0 temperature 40000
	expect_line 'CLEAR /devices/platform/kevent-demo.0 temperature=40000'
	# Below already: no second clear.
	demo_set 0 temperature 30000
	sleep 0.5
	demo_set 1 temperature 20000
	expect_line 'CLEAR /devices/platform/kevent-demo.1 temperature=20000'
	# An unreadable value (the device goes away) is skipped, and the
	# script goes on.
	demo_set 1 unplug 1
	sleep 0.5
	demo_set 0 temperature 47000
	expect_line 'ALERT /devices/platform/kevent-demo.0 temperature=47000'

	run cat "$OUT"
	assert_output "ALERT /devices/platform/kevent-demo.1 temperature=60000
ALERT /devices/platform/kevent-demo.0 temperature=50000
CLEAR /devices/platform/kevent-demo.0 temperature=40000
CLEAR /devices/platform/kevent-demo.1 temperature=20000
ALERT /devices/platform/kevent-demo.0 temperature=47000"
	run cat "$ERR"
	assert_output ""
	kill -0 "$SPAWN_PID"
}

@test "threshold-alert.sh reports a device whose path has a space by its whole path" {
	# kevent_test's temperature is 25000, named as real platform devices
	# are ("Fixed MDIO bus.0"); the demo sensors start below the threshold
	insmod "$KEVENT_TEST_DRIVER" 'name="kevent test"'
	demo_set 0 temperature 20000
	demo_set 1 temperature 20000
	spawn "$EXAMPLES/threshold-alert.sh" 24
	expect_line 'ALERT /devices/platform/kevent test.0 temperature=25000' 30
	demo_set 0 temperature 30000
	expect_line 'ALERT /devices/platform/kevent-demo.0 temperature=30000'
	demo_set 0 temperature 20000
	expect_line 'CLEAR /devices/platform/kevent-demo.0 temperature=20000'

	run cat "$OUT"
	assert_output "ALERT /devices/platform/kevent test.0 temperature=25000
ALERT /devices/platform/kevent-demo.0 temperature=30000
CLEAR /devices/platform/kevent-demo.0 temperature=20000"
	run cat "$ERR"
	assert_output ""
}

@test "threshold-alert.sh refuses a threshold that is not a whole number of degrees" {
	run -2 --separate-stderr "$EXAMPLES/threshold-alert.sh" 45.5
	assert_output ""
	assert_stderr_partial "not a whole number of degrees"
	run -2 --separate-stderr "$EXAMPLES/threshold-alert.sh"
	assert_stderr_partial "Usage:"
}

@test "kevent-to-syslog.sh delivers each record to syslog, as it happens, as one JSON message" {
	local syslog=$BATS_TEST_TMPDIR/syslog json=$BATS_TEST_TMPDIR/json

	command -v busybox || fail "no busybox: install busybox-static"
	rm -f /dev/log
	busybox syslogd -n -O "$syslog" 3>&- &
	SYSLOGD_PID=$!
	wait_for 10 test -S /dev/log

	spawn "$EXAMPLES/kevent-to-syslog.sh" --coldplug --attr temperature \
		--path /devices/platform/kevent-demo.0 --count 1
	# The state record reaches syslog while kevent-watch still runs: the
	# pipeline forwards line by line, it does not wait for the end.
	wait_for 30 grep -q 'kevent: {"type":"state"' "$syslog"
	kill -0 "$SPAWN_PID"
	demo_set 0 temperature 47000
	wait_exit 20
	assert_equal "$STATUS" 0

	sed -n 's/^.* daemon\.info kevent: //p' "$syslog" > "$json"
	run jq -e -c '[.type, .class, .path, .attr, .value, .unit]' "$json"
	assert_success
	assert_output '["state","power","/devices/platform/kevent-demo.0","temperature","25000","mdegC"]
["event","power","/devices/platform/kevent-demo.0","temperature","47000","mdegC"]'
	run jq -e -s '.[1].seq | type == "number"' "$json"
	assert_success
}

@test "kevent-monitor prints the values, then PATH ATTR=VALUE per event, and exits 0 on SIGTERM, valgrind-clean" {
	local vglog=$BATS_TEST_TMPDIR/valgrind.log

	need_monitor
	spawn valgrind -q --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		--log-file="$vglog" "$MONITOR" power
	# Printed after joining the class: from now on no event is missed.
	expect_line '/devices/platform/kevent-demo.0 temperature=25000' 90
	expect_line '/devices/platform/kevent-demo.1 temperature=25000'

	demo_set 0 temperature 43210
	expect_line '/devices/platform/kevent-demo.0 temperature=43210'
	# A label is of class general, not joined: not reported.
	demo_set 0 label 'not joined'
	demo_set 1 unplug 1
	expect_line '/devices/platform/kevent-demo.1 temperature=<error: No such device>'

	kill -TERM "$SPAWN_PID"
	wait_exit 30
	assert_equal "$STATUS" 0
	run cat "$OUT"
	assert_equal "${#lines[@]}" 4
	assert_line --index 2 '/devices/platform/kevent-demo.0 temperature=43210'
	assert_line --index 3 '/devices/platform/kevent-demo.1 temperature=<error: No such device>'
	run cat "$ERR" "$vglog"
	assert_output ""
}

@test "kevent-monitor joins every class by default, exits 1 when the kevent layer goes away, and cannot start without it" {
	need_monitor
	spawn "$MONITOR"
	expect_line '/devices/platform/kevent-demo.0 label=sensor 0' 30
	expect_line '/devices/platform/kevent-demo.1 temperature=25000'
	demo_set 1 label 'hot spot'
	expect_line '/devices/platform/kevent-demo.1 label=hot spot'
	modules_unload
	wait_exit 20
	assert_equal "$STATUS" 1
	run cat "$ERR"
	assert_output "kevent-monitor: the kevent layer was unloaded"

	run -1 --separate-stderr "$MONITOR"
	assert_output ""
	assert_stderr_line "kevent-monitor: the kevent layer is not loaded (modprobe kevent)"
}

@test "kevent-monitor: --help prints the usage, an unknown class is a usage error" {
	need_monitor
	run -0 "$MONITOR" --help
	assert_line --index 0 "Usage: kevent-monitor [CLASS...]"
	run -2 --separate-stderr "$MONITOR" power nosuchclass
	assert_output ""
	assert_stderr_partial "kevent-monitor: unknown class 'nosuchclass'"
}
