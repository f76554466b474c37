#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A source removed and added again, over and over, while threads on two
# CPUs notify it from atomic context: every notification made is accounted
# for in an event, the layer stays consistent, and the kernel complains of nothing (the
# harness fails the run on any report in the kernel log). The debug kernel
# runs it for 60 seconds, with KASAN, lockdep and kmemleak watching.

# Its CPUs race one another: a host thread for each (not run-bats' default
# of one for all)
# vm-options: --multi-thread

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	CHURN=$SENSOR_TEST_DBG/kevent-sensor-test.0/churn
	STATS=$KEVENT_TOP/test/tools/kevent-stats
}

teardown()
{
	watch_stop
	modules_unload
}

@test "notifies from two CPUs while the source is removed and re-added" {
	local secs=5 cycles notifies failures

	[ -z "${KEVENT_DEBUG_KERNEL:-}" ] || secs=60
	[ "$(nproc)" -ge 2 ]

	stats_before=$("$STATS")
	watch_start --json --path /devices/platform/kevent-sensor-test.0 \
		--attr temperature
	printf '%s' "$secs" > "$CHURN"
	read -r _ cycles _ notifies _ failures < "$CHURN"
	echo "$secs s: $cycles cycles, $notifies notifies" >&2
	[ "$cycles" -gt 10 ]
	[ "$notifies" -gt 100 ]
	assert_equal "$failures" 0

	# Every notification made became an event or was folded into one: the
	# kernel's counters of events (sent or failed) and folds add up to it,
	# once the last events, which trail their window, are out
	local end=$((SECONDS + 60)) accounted
	while :; do
		accounted=$(awk '
			NR == FNR { before[$1] = $2; next }
			{ d[$1] = $2 - before[$1] }
			END { print d["sent"] + d["failed"] + d["coalesced"] }' \
			<(echo "$stats_before") <("$STATS"))
		[ "$accounted" -lt "$notifies" ] && [ "$SECONDS" -lt "$end" ] ||
			break
		sleep 0.5
	done
	assert_equal "$accounted" "$notifies"

	# The source is back, once, and still works; the listener, which may
	# have overrun meanwhile, goes on and reports its current value
	run "$KEVENT_WATCH" --list --path /devices/platform/kevent-sensor-test.0 \
		--attr temperature --format '%a\n'
	assert_output temperature
	sensor_test_set 0 temperature 4242
	end=$((SECONDS + 60))
	while [ "$SECONDS" -lt "$end" ]; do
		[ "$(jq -rs 'map(select(.attr == "temperature")) | .[-1].value' \
			"$WATCH_OUT")" = 4242 ] && break
		sleep 0.2
	done
	run jq -rs 'map(select(.attr == "temperature")) | .[-1].value' \
		"$WATCH_OUT"
	assert_output 4242
	kill -0 "$WATCH_PID"
}

@test "churn takes a number of seconds from 1 to 3600" {
	run bash -c "printf 0 > $CHURN"
	assert_failure
	run bash -c "printf 3601 > $CHURN"
	assert_failure
	run bash -c "printf x > $CHURN"
	assert_failure
}
