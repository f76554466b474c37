#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# libkevent's combined monitor: the kevent layer's events, a poll monitor's
# and a sampler's through one descriptor, taken one per wakeup of poll() by
# test/tools/kevent-combined; the monitors taking turns; and kevent-watch,
# which uses it for every mode, mixing the kevent layer's events with
# sampled and stock ones in one watch.
# shellcheck disable=SC2154 # bats sets $output and $lines

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	insmod "$KEVENT_STOCK_HWMON"
	HW=$(echo /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	[ -f "$HW/temp1_input" ] || fail "no temp1_input in $HW"
	COMBINED=$KEVENT_TOP/test/tools/kevent-combined
	SENSOR=/sys/devices/platform/kevent-sensor-test.0
}

teardown()
{
	if [ -n "${WATCH_PID:-}" ]; then
		kill -CONT "$WATCH_PID" 2>/dev/null || true
	fi
	watch_stop
	ip link del kcm0 2>/dev/null || true
	if module_loaded kevent_stock_hwmon; then rmmod kevent_stock_hwmon; fi
	modules_unload
}

# notify_labels N: N kevent events of the test sensor's label, each sent
# before its write returns
notify_labels()
{
	local fd

	exec {fd}> "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	for _ in $(seq "$1"); do
		printf label >&"$fd"
	done
	exec {fd}>&-
}

@test "one descriptor: the kevent layer's, a poll monitor's and a sampler's events, one per poll() wakeup" {
	watch_spawn "$COMBINED" --kevent general --poll "$SENSOR/label" \
		--sample 100 "$HW/temp1_input" 2000
	notify_labels 1
	echo 51000 > "$HW/temp1_input"
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	# kevent_notify() wakes the file's poll()ers too: two records for it
	run grep -c '^kevent kevent [1-9][0-9]* /devices/platform/kevent-sensor-test.0 label$' "$WATCH_OUT"
	assert_output 1
	run grep -c '^poll poll 0 /devices/platform/kevent-sensor-test.0 label$' "$WATCH_OUT"
	assert_output 1
	run grep -c "^sample sample 0 ${HW#/sys} temp1_input\$" "$WATCH_OUT"
	assert_output 1
	run wc -l < "$WATCH_OUT"
	assert_output 3
}

@test "the monitors take turns: a sampled change comes out among the first of 200 queued kevent events, not after them" {
	watch_spawn "$COMBINED" --kevent general --sample 50 "$HW/temp1_input" 3000
	# Stopped: the kevent events queue up, and the sampler's timer expires
	kill -STOP "$WATCH_PID"
	notify_labels 200
	echo 52000 > "$HW/temp1_input"
	sleep 0.3
	kill -CONT "$WATCH_PID"
	watch_wait 60
	assert_equal "$WATCH_STATUS" 0
	run grep -c '^kevent ' "$WATCH_OUT"
	assert_output 200
	run grep -n '^sample ' "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	# Its line: at most the third (one kevent event may come before the
	# timer is looked at, one while the sampler reads)
	[ "${lines[0]%%:*}" -le 3 ] || fail "the sampled change came out at line ${lines[0]%%:*}"
}

@test "a stock monitor and the kevent layer's through one descriptor: a dummy device's mtu and a kevent event" {
	watch_spawn "$COMBINED" --stock --kevent general 2000
	ip link add kcm0 type dummy
	ip link set kcm0 mtu 1400
	notify_labels 1
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run grep -c '^stock rtnetlink 0 /devices/virtual/net/kcm0 mtu$' "$WATCH_OUT"
	assert_output 1
	run grep -c '^kevent kevent [1-9][0-9]* /devices/platform/kevent-sensor-test.0 label$' "$WATCH_OUT"
	assert_output 1
}

@test "a stock monitor's link event and its polled file's, ready at one wakeup: both come out, one per poll() wakeup" {
	ip link add kcm0 type dummy
	watch_spawn "$COMBINED" --stock-poll "$SENSOR/label" 2000
	# Stopped: the link's change is ready first, then the polled file
	kill -STOP "$WATCH_PID"
	ip link set kcm0 mtu 1400
	notify_labels 1
	sleep 0.3
	kill -CONT "$WATCH_PID"
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run grep -c '^stock rtnetlink 0 /devices/virtual/net/kcm0 mtu$' "$WATCH_OUT"
	assert_output 1
	run grep -c '^stock poll 0 /devices/platform/kevent-sensor-test.0 label$' "$WATCH_OUT"
	assert_output 1
}

@test "kevent-watch --kevent --sample: the kevent layer's events and sampled values in one watch" {
	watch_start --kevent --sample 100ms --json --count 2 "$HW/temp1_input"
	sensor_test_set 0 label combined
	echo 53000 > "$HW/temp1_input"
	watch_wait 30
	assert_equal "$WATCH_STATUS" 0
	run jq -c 'select(.source == "kevent") | [.path, .attr, .value]' "$WATCH_OUT"
	assert_output '["/devices/platform/kevent-sensor-test.0","label","combined"]'
	run jq -c 'select(.source == "sample") | [.path, .attr, .value]' "$WATCH_OUT"
	assert_output '["'"${HW#/sys}"'","temp1_input","53000"]'
}

@test "kevent-watch --sample alone takes no kevent event; with --kevent, --list lists both kinds of state, the kevent layer's first" {
	watch_start --sample 100ms --json "$HW/temp1_input"
	sensor_test_set 0 label unseen
	echo 54000 > "$HW/temp1_input"
	for _ in $(seq 100); do
		grep -q '"temp1_input","value":"54000"' "$WATCH_OUT" && break
		sleep 0.1
	done
	watch_stop
	run jq -r '.source' "$WATCH_OUT"
	assert_output sample

	run "$KEVENT_WATCH" --kevent --sample 1s --list --json "$HW/temp1_input"
	assert_success
	run jq -r 'select(.type == "state") | .source' <<< "$output"
	assert_line --index 0 kevent
	assert_line sample
	refute_line stock
}

@test "kevent-watch --kevent --stock --replay: replayed kevent events, then live kevent and stock events" {
	sensor_test_set 0 label before
	watch_start --kevent --stock --replay --json --class general,net
	ip link add kcm0 type dummy
	ip link set kcm0 mtu 1300
	sensor_test_set 0 label after
	for _ in $(seq 100); do
		[ "$(jq -s 'length' "$WATCH_OUT")" -ge 3 ] && break
		sleep 0.1
	done
	watch_stop
	# The replayed event is read at start, the live one after the change
	run jq -c 'select(.path == "/devices/platform/kevent-sensor-test.0") | [.source, .value]' "$WATCH_OUT"
	assert_line --index 0 '["kevent","before"]'
	assert_line '["kevent","after"]'
	run jq -c 'select(.attr == "mtu" and .path == "/devices/virtual/net/kcm0") | [.source, .value]' "$WATCH_OUT"
	assert_output '["rtnetlink","1300"]'
}

@test "kevent-watch --rcvbuf or --replay without the kevent layer's events is a usage error that names --kevent" {
	run --separate-stderr "$KEVENT_WATCH" --stock --replay
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "kevent-watch: --replay is for the kevent layer's events: add --kevent to --uevent, --poll, --stock or --sample"
	run --separate-stderr "$KEVENT_WATCH" --sample 1s --rcvbuf 1M "$HW/temp1_input"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "kevent-watch: --rcvbuf is for the kevent layer's events: add --kevent to --uevent, --poll, --stock or --sample"
}

@test "the combined monitor is clean under valgrind, with every kind of monitor" {
	local log=$BATS_TEST_TMPDIR/valgrind.log

	watch_spawn_valgrind "$log" "$COMBINED" --kevent general --uevent --stock \
		--poll "$SENSOR/label" --sample 50 "$HW/temp1_input" 3000
	notify_labels 3
	echo 55000 > "$HW/temp1_input"
	watch_wait 60
	run cat "$log"
	assert_output ''
	assert_equal "$WATCH_STATUS" 0
	run grep -c '^kevent ' "$WATCH_OUT"
	assert_output 3
}
