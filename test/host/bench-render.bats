#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# scripts/bench-render: the raw results of `make bench` become the tables of
# docs/PERFORMANCE.md, each goal with its ratio and PASS or MISS; a result
# that is missing fails it rather than leave a gap.

setup()
{
	load ../test_helper/common
	render=$KEVENT_TOP/scripts/bench-render
	raw=$KEVENT_TOP/test/fixtures/bench/raw.txt
	cd "$BATS_TEST_TMPDIR"
}

@test "the goals show the ratios measured, against their targets, with PASS or MISS" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line '| No listener: `kevent_source_notify()` against `kobject_uevent_env()` | 1/50 (300 ns against 15.0 µs) | at most 1/20 | PASS |'
	assert_line '| One listener: `kevent_source_notify()` against `kobject_uevent_env()` | 1/2.5 (400 ns against 1000 ns) | at most 1/3 | MISS |'
	assert_line '| End to end: events per second of `kevent-watch --json` against `udevadm monitor --kernel --property`, 2000 events each, median of 3 rounds | 2.00x (2000/s against 1000/s) | at least 2x | PASS |'
	assert_line --partial '(`kevent_notify()` and the uevent, both sent before the call returns), 119 and 120 notifications in 3 rounds | 20.0 ms against 30.0 ms | lower | PASS |'
	assert_line --partial '| 1/20 (100.0 ms against 2.00 s), final value seen: yes | at most 1/10, seen | PASS |'
}

@test "the page names the date, the guest kernel, the host and the emulator" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial 'on 2026-12-03 13:00 UTC'
	assert_line --partial 'guest kernel 6.1.0-57-amd64'
	assert_line --partial 'AMD EPYC, 2 cores'
	assert_line --partial 'QEMU 7.2.22'
}

@test "every measurement has its table row" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line '| `kevent_source_notify()` | 2000 | 300 ns | 400 ns | 1/50 / 1/2.5 |'
	assert_line '| `kevent-watch --json` | `kevent_notify()` | 2000 of 2000 | 100 | yes | 1.00 s | 2000 |'
	assert_line --partial '| `udevadm monitor --kernel --property` | `kobject_uevent_env(KOBJ_CHANGE)` with `NAME=temperature` | 2000 of 2000 | 0 | n/a (reads no value) |'
	assert_line --regexp '^\| `kevent-watch --json` \| `kevent_source_notify\(\)` \| 3 of 20000 \| 100.0 ms \| yes \|'
	assert_line '| memory of the sources | | 9 KiB (224 bytes a source) |'
	assert_line --regexp '^\| kevent C reader .* \| `kevent_notify\(\)` \| 1.1 \| pread64:100, write:2, recvmmsg:2, openat:1 \|'
	run grep -c '^| ' <<< "$output"
	assert_output 51
}

@test "a listener that never reads: the goal holds its cost against none, and a failed event misses it" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial '| 1.25x (2500 ns against 2000 ns), 0 failed | at most 2x, none failed | PASS |'
	assert_line '| with the listener | 2500 ns | 0 | 2600 ns, 2500 ns, 2400 ns |'
	sed 's/^hog.with.failed=0$/hog.with.failed=3/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_success
	assert_line --partial '| 1.25x (2500 ns against 2000 ns), 3 failed | at most 2x, none failed | MISS |'
	sed 's/^hog.with.ns=2500$/hog.with.ns=4100/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_line --partial '| 2.05x (4100 ns against 2000 ns), 0 failed | at most 2x, none failed | MISS |'
}

@test "the rounds of the two end-to-end goals are listed in the order they ran" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line '1.10 s, 1.00 s, 900.0 ms; `udevadm monitor` 2.00 s, 2.50 s, 1.50 s.'
	assert_line '`kevent-watch --json` and `udevadm monitor` ran 3 rounds each here'
	assert_line 'too, taking turns, of 40 notifications each (a 99th'
	assert_line 'each round, in the order they ran: `kevent-watch --json` 20.0 ms, 19.0 ms, 21.0 ms;'
	assert_line '`udevadm monitor` 30.0 ms, 40.0 ms, 25.0 ms.'
	grep -v '^lat.watch.notify.rounds=' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_failure 1
	assert_stderr_line "bench-render: no result for lat.watch.notify.rounds in raw.txt"
}

@test "a result missing from the raw file fails the rendering" {
	grep -v '^cost.uevent.one=' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_failure 1
	assert_output ''
	assert_stderr_line "bench-render: no result for cost.uevent.one in raw.txt"
}

@test "the notes file follows the tables; a missing one fails" {
	printf '## What limits each result\n\nThe listener.\n' > notes.md
	run --separate-stderr "$render" "$raw" notes.md
	assert_success
	assert_equal "${lines[-1]}" 'The listener.'
	run --separate-stderr "$render" "$raw" missing.md
	assert_failure 1
	assert_stderr_line "bench-render: cannot read missing.md"
}

@test "a usage error is status 2" {
	run --separate-stderr "$render"
	assert_failure 2
	assert_stderr_line "usage: scripts/bench-render RAW-FILE [NOTES-FILE]"
}
