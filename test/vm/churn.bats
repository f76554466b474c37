#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# A source removed and added again, over and over, while threads on two
# CPUs notify it from atomic context: every notification made is reported,
# the layer stays consistent, and the kernel complains of nothing (the
# harness fails the run on any report in the kernel log). The debug kernel
# runs it for 60 seconds, with KASAN, lockdep and kmemleak watching.

setup()
{
	load ../test_helper/kevent
	modules_load
	CHURN=$DEMO_DBG/kevent-demo.0/churn
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

	watch_start --json --path /devices/platform/kevent-demo.0 \
		--attr temperature
	printf '%s' "$secs" > "$CHURN"
	read -r _ cycles _ notifies _ failures < "$CHURN"
	echo "$secs s: $cycles cycles, $notifies notifies" >&2
	[ "$cycles" -gt 10 ]
	[ "$notifies" -gt 100 ]
	assert_equal "$failures" 0

	# Every notification made reached the listener, folded or not
	local end=$((SECONDS + 60))
	while [ "$SECONDS" -lt "$end" ]; do
		[ "$(jq -s '[.[] | select(.type == "event") | .coalesced + 1] |
			    add // 0' "$WATCH_OUT")" -ge "$notifies" ] && break
		sleep 0.1
	done
	run jq -s -e --argjson n "$notifies" \
		'[.[] | select(.type == "overrun")] == [] and
		 ([.[] | select(.type == "event") | .coalesced + 1] | add) == $n' \
		"$WATCH_OUT"
	assert_success

	# The source is back, once, and still works
	run "$KEVENT_WATCH" --list --path /devices/platform/kevent-demo.0 \
		--attr temperature --format '%a\n'
	assert_output temperature
	demo_set 0 temperature 4242
	for _ in $(seq 100); do
		grep -q '"4242"' "$WATCH_OUT" && break
		sleep 0.1
	done
	run grep -c '"value":"4242"' "$WATCH_OUT"
	assert_output 1
}

@test "churn takes a number of seconds from 1 to 3600" {
	run bash -c "printf 0 > $CHURN"
	assert_failure
	run bash -c "printf 3601 > $CHURN"
	assert_failure
	run bash -c "printf x > $CHURN"
	assert_failure
}
