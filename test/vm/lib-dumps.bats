#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The sources dump of libkevent while the list of sources changes: a dump
# that the kernel marks interrupted (NLM_F_DUMP_INTR) is asked for again
# inside the library, so --list, --coldplug and the re-read after an
# overrun never fail of it, and each lists every source once.

# Its CPUs race one another: a host thread for each (not run-bats' default
# of one for all)
# vm-options: --multi-thread

setup()
{
	load ../test_helper/kevent
	modules_unload
	# 160 sensors of three sources each, and the test driver's one: a
	# dump of several messages
	modules_load sensors=160
	insmod "$KEVENT_TEST_DRIVER"
	CHURN_PID=
}

teardown()
{
	churn_stop
	watch_stop
	if module_loaded kevent_test; then rmmod kevent_test; fi
	modules_unload
}

# churn_start: add a source and remove it again, over and over, in the
# background until churn_stop (the test driver's chain of kobjects below
# /sys/kernel/kevent_test); the count of cycles goes to $CHURN_COUNT
churn_start()
{
	CHURN_COUNT=$BATS_TEST_TMPDIR/churn.count
	(
		n=0
		while :; do
			echo 40 > "$TEST_DBG/deep"
			echo 0 > "$TEST_DBG/deep"
			n=$((n + 1))
			echo "$n" > "$CHURN_COUNT"
		done
	) 3>&- &
	CHURN_PID=$!
	until [ -s "$CHURN_COUNT" ]; do sleep 0.05; done
}

# churn_count: the count of cycles so far; the writer truncates the file
# before it writes the new count, so an empty read is read again
churn_count()
{
	local n=

	while [ -z "$n" ]; do
		n=$(cat "$CHURN_COUNT")
	done
	echo "$n"
}

# churn_stop: end the churn
churn_stop()
{
	if [ -n "${CHURN_PID:-}" ]; then
		kill "$CHURN_PID" 2>/dev/null || true
		wait "$CHURN_PID" 2>/dev/null || true
	fi
	CHURN_PID=
}

# check_list FILE: FILE, lines "PATH ATTR", lists each source once: the
# 481 that stay, and maybe the one that comes and goes. One awk, as the
# tests call it hundreds of times: it prints the lines listed twice, then
# the count of the others.
check_list()
{
	run awk 'seen[$0]++ { print "listed twice: " $0 }
		!/^\/kernel\/kevent_test\// { n++ } END { print n + 0 }' "$1"
	assert_output 481
}

@test "--list runs over and over (50 times, 20 on the KASAN kernel of check-upstream) while sources change: it never fails, and lists each source once" {
	local i list=$BATS_TEST_TMPDIR/list before runs=50

	# About one dump in three is interrupted by the churn here: a library
	# that fails an interrupted dump fails 61 of 200 runs, so 50 runs
	# miss it with a chance of about 0.7^50. The kernel of check-upstream
	# has KASAN and lockdep: a --list takes about ten times as long there,
	# and 20 race the churn as long
	[ -z "${KEVENT_UPSTREAM_KERNEL:-}" ] || runs=20
	assert_equal "$(sources | wc -l)" 481
	churn_start
	for i in $(seq "$runs"); do
		run --separate-stderr "$KEVENT_WATCH" --list --format '%p %a'
		if [ "$status" -ne 0 ]; then
			echo "run $i: status $status: $stderr" >&2
			assert_success
		fi
		printf '%s\n' "$output" > "$list"
		check_list "$list"
	done
	# The sources changed all along
	before=$(churn_count)
	sleep 0.5
	kill -0 "$CHURN_PID"
	after=$(churn_count)
	[ "$after" -gt "$before" ]
	echo "# $after churn cycles" >&3
}

@test "--coldplug lists every source once while sources change, then watches" {
	local i

	churn_start
	for i in $(seq 20); do
		run --separate-stderr "$KEVENT_WATCH" --coldplug --timeout 0 \
			--json
		assert_success
		printf '%s\n' "$output" |
			jq -r 'select(.type == "state") | "\(.path) \(.attr)"' \
			> "$BATS_TEST_TMPDIR/list"
		check_list "$BATS_TEST_TMPDIR/list"
	done
}
