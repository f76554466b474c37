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

# render_without KEY: render the fixture without its line KEY=
render_without()
{
	grep -v "^$1=" "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
}

@test "the goals show the ratios measured, against their targets, with PASS or MISS" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial 'which the uevent does not | 1/2.2 (2000 ns against 4500 ns) | at most 1/2 | PASS |'
	assert_line --partial '`kevent_notify()` against `kobject_uevent_env()` with `NAME=` | 0.67x (10.0 µs against 15.0 µs) | at most 1/2 | MISS |'
	assert_line --partial 'median of 5 rounds | 1.20x (20000/s against 16667/s) | at least 1x | PASS |'
	assert_line --partial 'median of 5 rounds | 0.91x (18182/s against 20000/s) | at least 0.9x | PASS |'
	sed 's/^cost.notify.one.ns=10000$/cost.notify.one.ns=7400/; s/^cost.notify.none.ns=2000$/cost.notify.none.ns=2300/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_success
	assert_line --partial '| 1/2.0 (7400 ns against 15.0 µs) | at most 1/2 | PASS |'
	assert_line --partial '| 0.51x (2300 ns against 4500 ns) | at most 1/2 | MISS |'
}

@test "the end-to-end goals compare the medians of the rounds: the readers, then kevent-watch against the kevent reader" {
	sed 's/^e2e.watch.notify.elapsed_ns=110000000$/e2e.watch.notify.elapsed_ns=112000000/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_success
	assert_line --partial 'median of 5 rounds | 0.89x (17857/s against 20000/s) | at least 0.9x | MISS |'
	sed 's/^e2e.reader_uevent.uevent.elapsed_ns=120000000$/e2e.reader_uevent.uevent.elapsed_ns=90000000/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_line --partial 'median of 5 rounds | 0.90x (20000/s against 22222/s) | at least 1x | MISS |'
}

@test "a signal in a storm: the goal is the time beyond the floor's, and each round is listed" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial 'medians of 5 rounds | 65.0 ms (70.0 ms against 5.0 ms) | at most 100 ms | PASS |'
	assert_line '| `kevent-watch --json` | 70.0 ms | 60.0 ms, 250.0 ms, 70.0 ms, 65.0 ms, 80.0 ms |'
	assert_line '| `sleep` (the floor) | 5.0 ms | 5.0 ms, 6.0 ms, 4.0 ms, 5.0 ms, 7.0 ms |'
	sed 's/^stop.watch.ns=70000000$/stop.watch.ns=106000000/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_line --partial 'medians of 5 rounds | 101.0 ms (106.0 ms against 5.0 ms) | at most 100 ms | MISS |'
	sed 's/^stop.watch.ns=70000000$/stop.watch.ns=4932000/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_line --partial 'medians of 5 rounds | -68.0 µs (4.9 ms against 5.0 ms) | at most 100 ms | PASS |'
}

@test "the comparisons of different work are information, each with what it measures, and no verdict" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line '| No listener: `kevent_source_notify()` against `kobject_uevent_env()` | coalescing: the driver'"'"'s call only counts and queues a work item; the event is built and sent later, once a window | 1/15 (300 ns against 4500 ns) |'
	assert_line --partial '| output cost: `udevadm` reads no value and writes each property line apart | 3.64x (18182/s against 5000/s) |'
	assert_line --partial '| coalescing: one event a window against one a notification | 1/20 (100.0 ms against 2.00 s), final value seen: yes |'
	run sed -n '/^## Comparisons kept/,/^## 1\./p' <<< "$output"
	refute_output --partial PASS
	refute_output --partial MISS
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
	assert_line '| `kevent_source_notify()` | 20000 | 300 ns | 400 ns | 1/15 / 1/38 | 300 ns, 310 ns, 290 ns; 400 ns, 410 ns, 390 ns |'
	assert_line '| `kevent-watch --json` | `kevent_notify()` | 2000 of 2000 | 2000 | yes | 110.0 ms | 18182 |'
	assert_line '| kevent C reader (batched receive, one pread) | `kevent_notify()` | 2000 of 2000 | 2000 | yes | 100.0 ms | 20000 |'
	assert_line --partial '| `udevadm monitor --kernel --property` | `kobject_uevent_env(KOBJ_CHANGE)` with `NAME=temperature` | 2000 of 2000 | 0 | n/a (reads no value) |'
	assert_line --regexp '^\| `kevent-watch --json` \| `kevent_source_notify\(\)` \| 3 of 20000 \| 100.0 ms \| yes \|'
	assert_line '| memory of the sources | | 9 KiB (224 bytes a source) |'
	assert_line --regexp '^\| kevent C reader .* \| `kevent_notify\(\)` \| 1.1 \| pread64:100, write:2, recvmmsg:2, openat:1 \|'
	assert_line '| with `kevent.ko`, no listener | 1060 ns | 1050 ns, 1080 ns, 1060 ns |'
	assert_line '| `busctl monitor`, through kevent-dbus and the bus | 2000 | 5000 | 400.0 ms | 300.0 ms (150.0 µs an event) | 400.0 ms, 410.0 ms, 390.0 ms, 420.0 ms, 380.0 ms |'
	assert_line '| `kevent-watch --json` | 2000 | 20000 | 100.0 ms | | 100.0 ms, 110.0 ms, 90.0 ms, 105.0 ms, 95.0 ms |'
	run grep -c '^| ' <<< "$output"
	assert_output 79
}

@test "the system bus: a client of kevent-dbus against kevent-watch, the same burst, and the daemon's CPU an event" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --regexp '^\| The system bus: events per second of a client of `kevent-dbus` .* the same burst of 2000 `kevent_notify\(\)` events, median of 5 rounds; .* \| 1/4.0 \(5000/s against 20000/s\); kevent-dbus 150.0 µs of CPU an event \|$'
	render_without bus.bus.daemon_cpu_ns
	assert_failure 1
	assert_stderr_line "bench-render: no result for bus.bus.daemon_cpu_ns in raw.txt"
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

@test "the rounds are listed in the order they ran" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line 'reader 100.0 ms, 110.0 ms, 90.0 ms, 95.0 ms, 105.0 ms; the uevent C reader 120.0 ms, 125.0 ms, 115.0 ms, 118.0 ms, 122.0 ms;'
	assert_line '`kevent-watch --json` 110.0 ms, 112.0 ms, 108.0 ms, 111.0 ms, 109.0 ms; `udevadm monitor` 400.0 ms, 500.0 ms, 300.0 ms, 350.0 ms, 450.0 ms.'
	assert_line --partial '| `kevent_notify()` | 2000 | 2000 ns | 10.0 µs | 1/2.2 / 0.67x | 2100 ns, 2000 ns, 1900 ns; 9000 ns, 10.0 µs, 11.0 µs |'
	assert_line '`kevent-watch --json` and `udevadm monitor` ran 3 rounds each here,'
	assert_line 'each round, in the order they ran: `kevent-watch --json` 20.0 ms, 19.0 ms, 21.0 ms;'
	render_without lat.watch.notify.rounds
	assert_failure 1
	assert_stderr_line "bench-render: no result for lat.watch.notify.rounds in raw.txt"
}

@test "a result missing from the raw file fails the rendering" {
	render_without cost.uevent.one.ns
	assert_failure 1
	assert_output ''
	assert_stderr_line "bench-render: no result for cost.uevent.one.ns in raw.txt"
	render_without stop.floor.ns
	assert_failure 1
	assert_stderr_line "bench-render: no result for stop.floor.ns in raw.txt"
}

@test "the page says its numbers are this run's, points to the raw results, and links the notes without pasting them" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line 'are the result. Every number on this page was measured in this run; none'
	assert_line '[`bench/raw.txt`](bench/raw.txt). The sensor `kevent-sensor-test.0` of'
	assert_line 'is in [`performance-notes.md`](performance-notes.md); its figures come from'
	refute_line --partial 'What limits each result'
}

@test "a usage error is status 2" {
	run --separate-stderr "$render"
	assert_failure 2
	assert_stderr_line "usage: scripts/bench-render RAW-FILE"
	run --separate-stderr "$render" "$raw" "$KEVENT_TOP/docs/performance-notes.md"
	assert_failure 2
}

@test "sampling is a comparison for information: CPU time a second over many files and over one, each file's share, every round" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial 'over 1008 sysfs files (a glob, expanded again every interval) against over one file, median of 3 rounds |'
	assert_line --partial '| 25.0 ms against 1.1 ms a second, 23.7 µs a file an interval |'
	assert_line '| 1008 | 25.0 ms | 300.0 ms, 250.0 ms, 200.0 ms |'
	assert_line '| 1 | 1.1 ms | 10.0 ms, 12.0 ms, 11.0 ms |'
	run --separate-stderr grep -c 'Sampling' <<<"$(sed -n '/^## Goals/,/^## Comparisons/p' <<<"$("$render" "$raw")")"
	assert_output 0
	render_without sample.one.cpu_ns
	assert_failure
	assert_stderr_partial 'no result for sample.one.cpu_ns'
}

@test "kevent_notify() against hwmon_notify_event(), and the stock kernel's events against udevadm and ip, are comparisons for information" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial '| 1/2.9 (2000 ns against 5800 ns); one listener 0.61x (10.0 µs against 16.5 µs) |'
	assert_line --partial 'the same burst of 2000 `hwmon_notify_event()` change uevents, median of 5 rounds |'
	assert_line --partial '| 4.00x (20000/s against 5000/s) |'
	assert_line --partial 'the same burst of 1000 MTU changes of a dummy device (one `RTM_NEWLINK` each), median of 5 rounds |'
	assert_line --partial '| 0.50x (5000/s against 10000/s) |'
	# Each stock rate is its own consumer's: udevadm slower, the row follows
	sed 's/^stock.hwmon.udevadm_hwmon.elapsed_ns=400000000$/stock.hwmon.udevadm_hwmon.elapsed_ns=800000000/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_line --partial '| 8.00x (20000/s against 2500/s) |'
	# A stock result missing fails the page
	render_without stock.link.ip_link.elapsed_ns
	assert_failure
}

@test "sysfs_notify() with kevent.ko's probe against without it: a goal of at most 1.1x, with no listener; one listener for information" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial 'against without it, 5000 calls, median of 3 rounds | 1.06x (1060 ns against 1000 ns) | at most 1.1x | PASS |'
	assert_line --partial 'one a coalescing window; the listener takes CPU time beside the caller | 1.25x (1250 ns against 1000 ns) |'
	sed 's/^probe.quiet.ns=1060$/probe.quiet.ns=1110/' "$raw" > raw.txt
	run --separate-stderr "$render" raw.txt
	assert_success
	assert_line --partial '| 1.11x (1110 ns against 1000 ns) | at most 1.1x | MISS |'
	render_without probe.without.ns
	assert_failure 1
	assert_stderr_line "bench-render: no result for probe.without.ns in raw.txt"
}

@test "an md resync: events per second of kevent-watch against the wake-ups of mdadm --monitor, for information, with every round's time" {
	run --separate-stderr "$render" "$raw"
	assert_success
	assert_line --partial '| 10.0/s against 1.0/s (40 events, 16 values of `sync_completed`, against 4 wake-ups) |'
	assert_line '| `kevent-watch --json --class storage` | 40 | 10.0 | 16 values of `sync_completed` |'
	assert_line '| `mdadm --monitor` (`select()` on `/proc/mdstat`) | 4 | 1.0 | |'
	assert_line 'Time of every round, in order: 5.00 s, 4.00 s, 3.00 s.'
	render_without resync.mdadm_wakeups
	assert_failure 1
	assert_stderr_line "bench-render: no result for resync.mdadm_wakeups in raw.txt"
}
