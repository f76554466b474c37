#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Allocation failures injected into kevent one at a time (failslab and
# fail_page_alloc, driven by /proc/thread-self/fail-nth through
# test/tools/fail-nth, and fail_function), with the sensors of the test
# driver kevent_sensor_test.ko, whose notify control sends an event, and
# those of the demo: while it sends events, answers requests and loads,
# each failure is returned as an error or counted, listeners still get the
# final value, nothing crashes, and the harness's kmemleak scan at the end
# of the run finds nothing left behind.

FI=/sys/kernel/debug
SENSOR0=/devices/platform/kevent-sensor-test.0

setup()
{
	load ../test_helper/kevent
	FAIL_NTH=$KEVENT_TOP/test/tools/fail-nth
	STATS=$KEVENT_TOP/test/tools/kevent-stats
	sensor_test_load
}

teardown()
{
	inject_off failslab
	inject_off fail_page_alloc
	[ ! -e "$FI/fail_function/inject" ] || echo > "$FI/fail_function/inject"
	watch_stop
	modules_unload
}

# inject_on KIND: let fail-nth make allocations of KIND (failslab or
# fail_page_alloc) fail, sleeping ones and single pages too, quietly; no
# random failures. The kernel log is told: the kernel's own reports of the
# failed allocations (vmalloc's) are then expected, not problems (see
# scripts/vm/scan-kernel-log).
inject_on()
{
	local d=$FI/$1

	echo "kevent-test: fault injection begins" > /dev/kmsg
	echo 0 > "$d/probability"
	echo N > "$d/task-filter"
	echo N > "$d/ignore-gfp-wait"
	[ ! -e "$d/min-order" ] || echo 0 > "$d/min-order"
	[ ! -e "$d/ignore-gfp-highmem" ] || echo N > "$d/ignore-gfp-highmem"
	echo 0 > "$d/verbose"
}

# inject_off KIND: back to the defaults, which leave sleeping allocations be
inject_off()
{
	local d=$FI/$1

	[ -d "$d" ] || return 0
	echo Y > "$d/ignore-gfp-wait"
	echo "kevent-test: fault injection ends" > /dev/kmsg
}

# module_copy NAME: a copy of kevent's module NAME.ko in this test's
# directory, on the guest's tmpfs: reading it while allocations fail must
# not go through the 9p root, whose error paths are not under test
module_copy()
{
	cp "$KEVENT_MODULE_DIR/$1.ko" "$BATS_TEST_TMPDIR/$1.ko"
	echo "$BATS_TEST_TMPDIR/$1.ko"
}

# stat NAME: one counter of the layer
stat()
{
	"$STATS" | awk -v n="$1" '$1 == n { print $2 }'
}

# sweep_ok MIN: fail-nth's output says it made more than MIN runs, each
# with one allocation failing, and some of them failed with an error
sweep_ok()
{
	local min=$1

	echo "$output" >&2
	[[ ${lines[0]} =~ ^runs\ ([0-9]+)\ ok\ ([0-9]+)\ failed\ ([0-9]+)$ ]]
	[ "${BASH_REMATCH[1]}" -gt "$min" ]
	[ "${BASH_REMATCH[3]}" -gt 0 ]
}

@test "the debug kernel injects allocation failures on demand" {
	[ -d "$FI/failslab" ]
	[ -d "$FI/fail_page_alloc" ]
	[ -w /proc/thread-self/fail-nth ]
}

@test "every allocation of a kevent_notify() fails once: an error returned, or the event counted, and recorded; the listener recovers" {
	local failed unrecorded

	inject_on failslab
	inject_on fail_page_alloc
	watch_start --json --class general
	failed=$(stat failed)
	unrecorded=$(stat unrecorded)

	# The debug kernel's own allocations (KASAN's stack depot, kmemleak's
	# objects) can come and go between runs and shift the count by one, so
	# a sweep may step over an allocation: sweep up to three times.
	for _ in 1 2 3; do
		run "$FAIL_NTH" write "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify" label
		assert_success
		sweep_ok 5
		assert_line --regexp '^errno ENOMEM: [0-9]+$'
		[ "$(stat failed)" -gt "$failed" ] && break
	done

	# Events that could not be built are counted; every event numbered is
	# recorded, as the replay ring allocates nothing
	echo "failed $failed -> $(stat failed), unrecorded $unrecorded -> $(stat unrecorded)" >&2
	[ "$(stat failed)" -gt "$failed" ]
	assert_equal "$(stat unrecorded)" "$unrecorded"

	# The listener saw the loss: at the latest with the next event, an
	# overrun record, the state of every source, and the event
	sensor_test_set 0 label final
	for _ in $(seq 100); do
		grep -q '"value":"final"' "$WATCH_OUT" && break
		sleep 0.2
	done
	run jq -s -e '(map(select(.type == "overrun")) | length) > 0 and
		      (map(select(.path == "'"$SENSOR0"'" and .attr == "label")) |
		       .[-1].value) == "final"' "$WATCH_OUT"
	assert_success
	kill -0 "$WATCH_PID"
}

@test "every allocation of the stats request and of the dumps fails once: each ends with an answer or an error" {
	sensor_test_set 0 temperature 1
	sensor_test_set 1 label x
	inject_on failslab
	inject_on fail_page_alloc

	run "$FAIL_NTH" request stats
	assert_success
	sweep_ok 2
	run "$FAIL_NTH" request sources
	assert_success
	sweep_ok 2
	run "$FAIL_NTH" request replay
	assert_success
	sweep_ok 2

	# The layer is intact: the sources are all there
	inject_off failslab
	inject_off fail_page_alloc
	run "$KEVENT_WATCH" --list --format '%p %a\n'
	assert_success
	assert_line '/devices/platform/kevent-sensor-test.0 temperature'
	assert_line '/devices/platform/kevent-sensor-test.1 label'
}

@test "every allocation of loading kevent.ko fails once: the load fails cleanly or works" {
	modules_unload
	inject_on failslab
	inject_on fail_page_alloc

	module=$(module_copy kevent)
	run "$FAIL_NTH" load "$module" replay=64
	assert_success
	sweep_ok 10

	# Afterwards it loads and works
	inject_off failslab
	inject_off fail_page_alloc
	sensor_test_load
	watch_start --json --path "$SENSOR0" --attr temperature
	sensor_test_set 0 temperature 4321
	watch_lines 1 20
	run jq -r .value "$WATCH_OUT"
	assert_output 4321
}

# Binding, not loading, kevent_demo, the example driver: the failures go to
# its probe, which registers the sources, and not to the module loader,
# whose error paths are not under test.
@test "every allocation of the demo's probe, which adds its sources, fails once: nothing is left behind" {
	local drv=/sys/bus/platform/drivers/kevent-demo

	modules_unload
	modules_load
	echo kevent-demo.0 > "$drv/unbind"
	echo kevent-demo.1 > "$drv/unbind"
	run "$KEVENT_WATCH" --list --format '%p %a\n'
	assert_output ''

	inject_on failslab
	inject_on fail_page_alloc
	run "$FAIL_NTH" bind "$drv" kevent-demo.0
	assert_success
	sweep_ok 10
	inject_off failslab
	inject_off fail_page_alloc

	# No source is left behind by the failed probes, and the layer still
	# answers; bound again, the sensor works
	run "$KEVENT_WATCH" --list --format '%p %a\n'
	assert_success
	assert_output ''
	run "$STATS"
	assert_success
	assert_line 'sources 0'
	echo kevent-demo.0 > "$drv/bind"
	run "$KEVENT_WATCH" --list --format '%a=%v\n' \
		--path /devices/platform/kevent-demo.0 --attr temperature
	assert_output temperature=25000
}

# Every other event's message cannot be built (fail_function on its
# allocation, a listener joined): those events count as failed, yet the
# replay ring, which allocates nothing, records each event, and a dump of
# it in several parts has every sequence number.
@test "events that could not be sent are in the replay ring all the same, with no gap" {
	local fail=$FI/fail_function unrecorded failed i

	[ -d "$fail" ]
	watch_start --json --class general
	unrecorded=$(stat unrecorded)
	failed=$(stat failed)
	echo kevent_event_msg_new > "$fail/inject"
	echo 100 > "$fail/probability"
	echo 2 > "$fail/interval"
	echo -1 > "$fail/times"
	echo 0 > "$fail/verbose"
	for i in $(seq 300); do
		echo label > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	done
	echo > "$fail/inject"

	[ "$(stat failed)" -ge $((failed + 150)) ]
	assert_equal "$(stat unrecorded)" "$unrecorded"
	# 256 events of about 130 bytes: more than one part of a dump
	run "$KEVENT_TOP/test/tools/kevent-request" --dump get-replay
	assert_success
	assert_output 'ok: 256 messages'
	run sh -c '"$1" --replay --json --timeout 0 | jq -s -c "[.[].type] - [\"event\"], (map(.seq) | .[-1] - .[0] + 1)"' sh "$KEVENT_WATCH"
	assert_success
	assert_output "$(printf '[]\n256')"
}

# Three events in a row cannot be sent (fail_function on the allocation of
# their message): they count as failed, and the next event of the class is
# three past the last one the listener saw, which kevent-watch reports as
# an overrun of exactly three before that event.
@test "three events that could not be sent: failed counts them, and the listener is told lost:3" {
	local fail=$FI/fail_function failed i

	[ -d "$fail" ]
	watch_start --json --class general
	echo label > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	watch_lines 1
	failed=$(stat failed)
	echo kevent_event_msg_new > "$fail/inject"
	echo 100 > "$fail/probability"
	echo 1 > "$fail/interval"
	echo 3 > "$fail/times"
	echo 0 > "$fail/verbose"
	for i in 1 2 3; do
		echo label > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	done
	echo > "$fail/inject"
	assert_equal "$(stat failed)" $((failed + 3))

	echo label > "$SENSOR_TEST_DBG/kevent-sensor-test.0/notify"
	wait_json 'map(select(.type == "event")) | length == 2'
	run jq -c -s 'map(select(.type != "state")) | map(.type + ":" + (.lost // "" | tostring))' "$WATCH_OUT"
	assert_output '["event:","overrun:3","event:"]'
}
