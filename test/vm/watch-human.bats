#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The human text output: a value with a unit is followed by its readable
# form (text lines only), and colour appears only on a terminal that wants
# it. Terminals are pseudo-terminals of script(1).

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
	SENSOR0=/devices/platform/kevent-sensor-test.0
	ESC=$'\e'
	# kevent-watch --list of sensor 0's temperature
	LIST0=("$KEVENT_WATCH" --list --path "$SENSOR0" --attr temperature)
}

teardown()
{
	watch_stop
}

# wait_for SECS CMD...: run CMD every 0.1 s until it succeeds, at most SECS
wait_for()
{
	local deadline=$((SECONDS + $1))

	shift
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}

# has_lines N: kevent-watch printed at least N lines
has_lines()
{
	[ "$(wc -l < "$WATCH_OUT")" -ge "$1" ]
}

# has_exited: kevent-watch has ended; its status in WATCH_STATUS
has_exited()
{
	kill -0 "$WATCH_PID" 2>/dev/null && return 1
	wait "$WATCH_PID" && WATCH_STATUS=0 || WATCH_STATUS=$?
	WATCH_PID=
}

# on_pty CMDLINE: run the shell command line with standard output (and
# error) on a pseudo-terminal; its status and output, without the \r the
# terminal adds, in $status, $output and $lines
on_pty()
{
	local i

	run script -qec "$1" /dev/null < /dev/null
	output=${output//$'\r'/}
	lines=()
	while IFS= read -r i; do
		lines+=("$i")
	done <<< "$output"
}

# no_time: the lines of stdin, the time of KEVENT and STATE lines as TIME
no_time()
{
	sed -E 's/^(KEVENT|STATE)\[[0-9]+\.[0-9]{6}\]/\1[TIME]/'
}

@test "temperature events show degrees Celsius after the raw value and unit, negative ones too" {
	watch_spawn env LC_ALL=C.UTF-8 "$KEVENT_WATCH" --count 2 --timeout 30 \
		--path "$SENSOR0" --attr temperature
	sensor_test_set 0 temperature 47500
	wait_for 20 has_lines 1
	sensor_test_set 0 temperature -47550
	wait_for 20 has_exited
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp '^KEVENT\[[0-9]+\.[0-9]{6}\] [0-9]+ power /devices/platform/kevent-sensor-test\.0 temperature=47500 mdegC \(47\.5 °C\) \(platform\)( coalesced=[0-9]+)?$'
	assert_line --index 1 --regexp '^KEVENT\[[0-9]+\.[0-9]{6}\] [0-9]+ power /devices/platform/kevent-sensor-test\.0 temperature=-47550 mdegC \(-47\.6 °C\) \(platform\)( coalesced=[0-9]+)?$'
}

@test "STATE lines show -0.5 °C, and degC in a locale that is not UTF-8" {
	sensor_test_set 0 temperature -500
	run --separate-stderr env LC_ALL=C.UTF-8 "${LIST0[@]}"
	assert_success
	assert_output --regexp '^STATE\[[0-9.]+\] power /devices/platform/kevent-sensor-test\.0 temperature=-500 mdegC \(-0\.5 °C\) \(platform\)$'
	run --separate-stderr env -u LC_ALL LANG=C.UTF-8 "${LIST0[@]}"
	assert_output --regexp ' temperature=-500 mdegC \(-0\.5 °C\) \(platform\)$'

	sensor_test_set 0 temperature 47500
	run --separate-stderr env LC_ALL=C "${LIST0[@]}"
	assert_success
	assert_output --regexp ' temperature=47500 mdegC \(47\.5 degC\) \(platform\)$'
	# LC_CTYPE decides, whatever LANG says
	run --separate-stderr env -u LC_ALL LANG=C.UTF-8 LC_CTYPE=POSIX \
		"${LIST0[@]}"
	assert_output --regexp ' temperature=47500 mdegC \(47\.5 degC\) \(platform\)$'
}

@test "JSON and --format carry the raw value and unit only" {
	sensor_test_set 0 temperature 47500
	run --separate-stderr env LC_ALL=C.UTF-8 "${LIST0[@]}" --json
	assert_success
	refute_output --partial '°'
	refute_output --partial ' degC'
	refute_output --partial '(47.5'
	run jq -c -e '[keys_unsorted, .value, .unit]' <<< "$output"
	assert_success
	assert_output '[["type","source","time","class","path","attr","value","unit","subsystem"],"47500","mdegC"]'
	run --separate-stderr env LC_ALL=C.UTF-8 \
		"${LIST0[@]}" --format '%v|%u|%a'
	assert_output '47500|mdegC|temperature'
}

@test "on a terminal, kind and attribute are coloured and errors red; without the escapes, the line is the piped one" {
	sensor_test_set 0 temperature 47500
	# An empty NO_COLOR is no NO_COLOR
	on_pty "NO_COLOR= TERM=xterm-256color ${LIST0[*]}"
	assert_success
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^${ESC}\\[1mSTATE${ESC}\\[0m\\[[0-9.]+\\] power /devices/platform/kevent-sensor-test\\.0 ${ESC}\\[36mtemperature${ESC}\\[0m=47500 mdegC \\(47\\.5 °C\\) \\(platform\\)$"
	coloured=$(sed "s/${ESC}\\[[0-9;]*m//g" <<< "$output" | no_time)
	run --separate-stderr "${LIST0[@]}"
	assert_success
	refute_output --partial "$ESC"
	assert_equal "$coloured" "$(no_time <<< "$output")"

	# An event, replayed: only the one written now
	last=$("$KEVENT_WATCH" --replay --timeout 0.2 --format '%s' | tail -n 1)
	sensor_test_set 0 temperature 47500
	on_pty "env -u NO_COLOR TERM=xterm $KEVENT_WATCH --replay=${last:-0} --count 1 --timeout 20 --path $SENSOR0 --attr temperature"
	assert_success
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^${ESC}\\[1mKEVENT${ESC}\\[0m\\[[0-9.]+\\] [0-9]+ power /devices/platform/kevent-sensor-test\\.0 ${ESC}\\[36mtemperature${ESC}\\[0m=47500 mdegC \\(47\\.5 °C\\) \\(platform\\)( coalesced=[0-9]+)?$"

	# calibration is for root only: nobody gets its live events (the
	# dumps leave it out), and the value cannot be read. A notification
	# every 0.2 s, as root, until kevent-watch has reported one.
	on_pty "sh -c 'while :; do echo calibration > $SENSOR_TEST_DBG/kevent-sensor-test.0/notify; sleep 0.2; done & setpriv --reuid=65534 --regid=65534 --clear-groups env -u NO_COLOR TERM=xterm $KEVENT_WATCH --count 1 --timeout 20 --path $SENSOR0 --attr calibration; status=\$?; kill \$!; exit \$status'"
	assert_success
	assert_equal "${#lines[@]}" 1
	assert_output --regexp "^${ESC}\\[1mKEVENT${ESC}\\[0m\\[[0-9.]+\\] [0-9]+ general /devices/platform/kevent-sensor-test\\.0 ${ESC}\\[36mcalibration${ESC}\\[0m=${ESC}\\[31m<error: EACCES>${ESC}\\[0m \\(platform\\)( coalesced=[0-9]+)?$"
}

@test "no colour with NO_COLOR, with TERM=dumb, through a pipe, or with --json or --format" {
	local cmd

	sensor_test_set 0 temperature 47500
	for cmd in \
		"NO_COLOR=1 TERM=xterm ${LIST0[*]}" \
		"env -u NO_COLOR TERM=dumb ${LIST0[*]}" \
		"env -u NO_COLOR TERM=xterm ${LIST0[*]} | cat" \
		"env -u NO_COLOR TERM=xterm ${LIST0[*]} --json" \
		"env -u NO_COLOR TERM=xterm ${LIST0[*]} --format %a=%v"
	do
		on_pty "$cmd"
		assert_success
		assert_output --partial 'temperature'
		assert_output --partial '47500'
		refute_output --partial "$ESC"
	done
}
