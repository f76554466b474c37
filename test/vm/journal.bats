#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch --journal: each record an entry of the systemd journal, found
# by its KEVENT_* fields with journalctl, values kept byte for byte; and the
# same entries in a second journal, sent over loopback by
# systemd-journal-upload to systemd-journal-remote (many machines, one
# place). The guest has no systemd as PID 1: systemd-journald runs as a
# plain process, on cgroup2 mounted for it.
# shellcheck disable=SC2154 # stderr is set by bats' run --separate-stderr

JOURNAL_SOCKET=/run/systemd/journal/socket
REMOTE_PORT=19532

setup_file()
{
	load ../test_helper/kevent

	# journald reads the cgroup of each client
	CGROUP_MOUNTED=
	if ! mountpoint -q /sys/fs/cgroup; then
		mount -t cgroup2 none /sys/fs/cgroup
		CGROUP_MOUNTED=1
	fi
	ip link set lo up
	/lib/systemd/systemd-journald \
		> "$BATS_FILE_TMPDIR/journald.log" 2>&1 3>&- &
	JOURNALD_PID=$!
	export CGROUP_MOUNTED JOURNALD_PID
	for _ in $(seq 100); do
		[ -S "$JOURNAL_SOCKET" ] && return 0
		sleep 0.1
	done
	echo "systemd-journald did not create $JOURNAL_SOCKET:" >&2
	cat "$BATS_FILE_TMPDIR/journald.log" >&2
	return 1
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
	kill "$JOURNALD_PID" 2>/dev/null || true
	wait "$JOURNALD_PID" 2>/dev/null || true
	# Leave the guest as it was: no socket that a journald would own
	rm -rf /run/systemd/journal /run/log/journal
	if [ -n "$CGROUP_MOUNTED" ]; then
		umount /sys/fs/cgroup
	fi
}

setup()
{
	load ../test_helper/kevent
	sensor_test_load
	SENSOR0=/devices/platform/kevent-sensor-test.0
}

teardown()
{
	watch_stop
	if [ -n "${REMOTE_PID:-}" ]; then
		kill "$REMOTE_PID" 2>/dev/null || true
		wait "$REMOTE_PID" 2>/dev/null || true
	fi
	modules_unload
}

# entries [JOURNALCTL-ARGS...] MATCHES...: the matching entries, as JSON,
# one a line, oldest first
entries()
{
	journalctl --no-pager -o json "$@"
}

# entries_wait N MATCHES...: wait until at least N entries match (journald
# takes the datagrams in its own time), then print them as entries does
entries_wait()
{
	local n=$1

	shift
	for _ in $(seq 100); do
		if [ "$(entries "$@" | wc -l)" -ge "$n" ]; then
			entries "$@"
			return 0
		fi
		sleep 0.1
	done
	echo "fewer than $n entries match $*:" >&2
	entries "$@" >&2
	return 1
}

# kevent_fields: of each entry on stdin, the fields kevent-watch wrote
kevent_fields()
{
	jq -S -c 'with_entries(select(.key | test("^(KEVENT_|MESSAGE$|PRIORITY$|SYSLOG_IDENTIFIER$)")))'
}

# set_raw N CONTROL FILE: write the bytes of FILE to the test driver's
# CONTROL of sensor N in one write, as the driver takes a value
set_raw()
{
	dd if="$3" of="$SENSOR_TEST_DBG/kevent-sensor-test.$1/$2" bs=4096 \
		status=none
}

# bytes FILE: the bytes of FILE less one trailing newline, as a JSON array
# of numbers (how journalctl -o json shows a binary field)
bytes()
{
	local -a b

	read -r -a b < <(od -An -v -tu1 "$1" | tr '\n' ' ' && echo)
	if [ "${b[-1]}" = 10 ]; then
		unset 'b[-1]'
	fi
	local IFS=,
	echo "[${b[*]}]"
}

@test "an event written with --journal is found by KEVENT_ATTR, with each field of the record" {
	watch_start --journal --json --attr temperature --count 1
	# Filtered out by --attr: no entry
	sensor_test_set 0 label 'not this'
	sensor_test_set 0 temperature 47000
	watch_wait
	assert_equal "$WATCH_STATUS" 0
	seq=$(jq -r .seq "$WATCH_OUT")
	time=$(jq -r .time "$WATCH_OUT")

	run -0 entries_wait 1 KEVENT_ATTR=temperature _PID="$WATCH_PID"
	assert_equal "${#lines[@]}" 1
	entry=$output
	run jq -r .KEVENT_SEQ <<<"$entry"
	assert_output "$seq"
	run jq -r .KEVENT_CLASS <<<"$entry"
	assert_output power
	run jq -r .KEVENT_PATH <<<"$entry"
	assert_output "$SENSOR0"
	run jq -r .KEVENT_ATTR <<<"$entry"
	assert_output temperature
	run jq -r .KEVENT_VALUE <<<"$entry"
	assert_output 47000
	run jq -r .KEVENT_UNIT <<<"$entry"
	assert_output mdegC
	run jq -r .KEVENT_SUBSYSTEM <<<"$entry"
	assert_output platform
	run jq -r .KEVENT_SOURCE <<<"$entry"
	assert_output kevent
	run jq -r .KEVENT_TYPE <<<"$entry"
	assert_output event
	run jq -r .KEVENT_COALESCED <<<"$entry"
	assert_output 0
	# The same time as the JSON line (whose number drops trailing zeros)
	run jq -r '.KEVENT_TIME | tonumber' <<<"$entry"
	assert_output "$time"
	run jq -r .MESSAGE <<<"$entry"
	assert_output "temperature of $SENSOR0 changed: 47000 mdegC"
	# notice
	run jq -r .PRIORITY <<<"$entry"
	assert_output 5
	run jq -r .SYSLOG_IDENTIFIER <<<"$entry"
	assert_output kevent-watch
	run jq -r 'has("KEVENT_ERROR")' <<<"$entry"
	assert_output false

	run -0 entries KEVENT_ATTR=label _PID="$WATCH_PID"
	assert_output ''
}

@test "--journal alone prints no line; --list sends each state, at info priority, with no sequence number" {
	run -0 --separate-stderr "$KEVENT_WATCH" --journal --list --attr label
	assert_output ''
	assert_equal "$stderr" ''
	# The pid of the run is not known: the label it read is
	sensor_test_set 1 label 'listed now'
	run -0 "$KEVENT_WATCH" --journal --list --attr label --path '*.1'
	run -0 entries_wait 1 KEVENT_ATTR=label KEVENT_VALUE='listed now'
	assert_equal "${#lines[@]}" 1
	run jq -c '[.KEVENT_TYPE, .PRIORITY, .KEVENT_PATH, .KEVENT_CLASS, has("KEVENT_SEQ"), has("KEVENT_COALESCED"), .MESSAGE]' <<<"$output"
	assert_output '["state","6","/devices/platform/kevent-sensor-test.1","general",false,false,"label of /devices/platform/kevent-sensor-test.1 is listed now"]'
}

@test "a value with newlines and bytes that are not UTF-8 is kept byte for byte" {
	printf 'two\nlines \xff\xfe end \x01\n' > "$BATS_TEST_TMPDIR/value"
	want=$(bytes "$BATS_TEST_TMPDIR/value")
	# 19 bytes less the trailing newline, which a value loses
	run jq length <<<"$want"
	assert_output 18
	watch_start --journal --attr label --count 1
	set_raw 0 label "$BATS_TEST_TMPDIR/value"
	watch_wait
	assert_equal "$WATCH_STATUS" 0

	run -0 entries_wait 1 KEVENT_ATTR=label _PID="$WATCH_PID"
	assert_equal "${#lines[@]}" 1
	entry=$output
	run jq -c .KEVENT_VALUE <<<"$entry"
	assert_output "$want"
	# The message stays one line, escaped as the text output is
	run jq -r .MESSAGE <<<"$entry"
	assert_output "label of $SENSOR0 changed: two\\nlines \\xff\\xfe end \\x01"
}

@test "a value that cannot be read is an entry with KEVENT_ERROR and no KEVENT_VALUE" {
	watch_start --journal --attr temperature --path '*.1' --count 1
	sensor_test_set 1 unplug 1
	watch_wait
	assert_equal "$WATCH_STATUS" 0

	run -0 entries_wait 1 KEVENT_ATTR=temperature _PID="$WATCH_PID"
	assert_equal "${#lines[@]}" 1
	# ENODEV while the device's files are still there, ENOENT once its
	# removal took them: which one races with kevent-watch's read
	run jq -c '[.KEVENT_ERROR, has("KEVENT_VALUE"), .KEVENT_PATH, .PRIORITY, .MESSAGE]' <<<"$output"
	assert_output --regexp '^\["(ENODEV|ENOENT)",false,"/devices/platform/kevent-sensor-test\.1","5","temperature of /devices/platform/kevent-sensor-test\.1 changed: unreadable \((ENODEV|ENOENT)\)"\]$'
}

@test "an overrun is an entry at warning priority, and the states re-read follow it in the journal" {
	# No coalescing window: each notification is an event
	echo 0 > /sys/module/kevent/parameters/coalesce_ms
	watch_start --journal --rcvbuf 4096
	kill -STOP "$WATCH_PID"
	for _ in $(seq 40); do
		sensor_test_set 0 notify label
	done
	kill -CONT "$WATCH_PID"

	run -0 entries_wait 1 KEVENT_TYPE=overrun _PID="$WATCH_PID"
	run jq -c -s '.[0] | [.PRIORITY, .KEVENT_LOST, .MESSAGE]' <<<"$output"
	assert_output '["4",null,"events were lost (receive buffer overrun), re-reading state"]'
	# The states of every source after it: 2 sensors, 3 sources each
	run -0 entries_wait 6 KEVENT_TYPE=state _PID="$WATCH_PID"
	# No line on stderr: the journal has it
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "--journal combines with --stock: the stock kernel's states, source rtnetlink" {
	run -0 --separate-stderr "$KEVENT_WATCH" --journal --stock --list \
		--path /devices/virtual/net/lo --attr mtu
	assert_output ''
	run -0 entries_wait 1 KEVENT_SOURCE=rtnetlink KEVENT_PATH=/devices/virtual/net/lo KEVENT_ATTR=mtu
	run jq -c -s '.[-1] | [.KEVENT_TYPE, .KEVENT_VALUE, .KEVENT_CLASS, .KEVENT_UNIT, .KEVENT_SUBSYSTEM]' <<<"$output"
	assert_output '["state","65536","net","bytes","net"]'
}

@test "without journald, --journal fails at start with a line that names the socket" {
	# The socket hidden by an empty directory over it, for this run alone
	# shellcheck disable=SC2016 # for the shell of unshare
	run -1 --separate-stderr unshare -m sh -c \
		'mount -t tmpfs none /run/systemd/journal && exec "$0" --journal --list' \
		"$KEVENT_WATCH"
	assert_output ''
	assert_equal "$stderr" "kevent-watch: cannot write to the journal: $JOURNAL_SOCKET: No such file or directory"
}

@test "--journal --list runs clean under valgrind" {
	run -0 valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect \
		--log-file="$BATS_TEST_TMPDIR/valgrind.log" \
		"$KEVENT_WATCH" --journal --list
	assert_output ''
	run cat "$BATS_TEST_TMPDIR/valgrind.log"
	assert_output ''
}

@test "systemd-journal-upload sends the entries to systemd-journal-remote: the same records, queried by field there" {
	local remote=$BATS_TEST_TMPDIR/remote

	printf 'fleet\n\xc0\xaf value\n' > "$BATS_TEST_TMPDIR/value"
	watch_start --journal --attr temperature --attr label --count 3
	sensor_test_set 0 temperature 51000
	sensor_test_set 1 temperature 52000
	set_raw 0 label "$BATS_TEST_TMPDIR/value"
	watch_wait
	assert_equal "$WATCH_STATUS" 0
	run -0 entries_wait 3 _PID="$WATCH_PID"
	kevent_fields <<<"$output" > "$BATS_TEST_TMPDIR/local"

	mkdir "$remote"
	/lib/systemd/systemd-journal-remote \
		--listen-http="127.0.0.1:$REMOTE_PORT" --output="$remote/" \
		> "$BATS_TEST_TMPDIR/remote.log" 2>&1 3>&- &
	REMOTE_PID=$!
	# Sent once it listens
	for _ in $(seq 100); do
		ss -Htln "sport = :$REMOTE_PORT" | grep -q . && break
		sleep 0.1
	done
	run -0 timeout 60 /lib/systemd/systemd-journal-upload \
		--url="http://127.0.0.1:$REMOTE_PORT" --follow=no \
		--save-state="$BATS_TEST_TMPDIR/upload.state"
	kill "$REMOTE_PID"
	wait "$REMOTE_PID" || true
	REMOTE_PID=

	# Queried by field in the remote journal: the same three records
	run -0 entries -D "$remote" KEVENT_ATTR=temperature _PID="$WATCH_PID"
	assert_equal "${#lines[@]}" 2
	run jq -r '"\(.KEVENT_PATH) \(.KEVENT_VALUE) \(._HOSTNAME)"' <<<"$output"
	assert_output "$SENSOR0 51000 $(hostname)
/devices/platform/kevent-sensor-test.1 52000 $(hostname)"
	run -0 entries -D "$remote" KEVENT_ATTR=label _PID="$WATCH_PID"
	run jq -c .KEVENT_VALUE <<<"$output"
	assert_output "$(bytes "$BATS_TEST_TMPDIR/value")"
	# Every field kevent-watch wrote, as the local journal has it
	run -0 entries -D "$remote" _PID="$WATCH_PID"
	kevent_fields <<<"$output" > "$BATS_TEST_TMPDIR/remote-fields"
	run diff -u "$BATS_TEST_TMPDIR/local" "$BATS_TEST_TMPDIR/remote-fields"
	assert_success
	run wc -l < "$BATS_TEST_TMPDIR/local"
	assert_output 3
}

@test "as the service runs it: a user of its own, no capability, no new privileges, /sys read-only" {
	# The unit's DynamicUser=, CapabilityBoundingSet= (empty),
	# NoNewPrivileges= and ProtectKernelTunables=, as far as they can be
	# had without systemd as PID 1
	chmod 0777 "$BATS_TEST_TMPDIR"
	# shellcheck disable=SC2016 # for the shell of unshare
	watch_spawn unshare -m sh -c 'mount -o remount,bind,ro /sys &&
		exec setpriv --reuid=61234 --regid=61234 --clear-groups \
			--no-new-privs --inh-caps=-all --bounding-set=-all \
			"$0" --journal --coldplug --count 1' "$KEVENT_WATCH"
	run -0 grep -E '^(NoNewPrivs|CapEff|CapBnd|Uid):' "/proc/$WATCH_PID/status"
	assert_output "$(printf 'Uid:\t61234\t61234\t61234\t61234\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1')"
	sensor_test_set 0 temperature 61000
	watch_wait
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT" "$WATCH_ERR"
	assert_output ''

	run -0 entries_wait 1 KEVENT_TYPE=event _PID="$WATCH_PID"
	run jq -c '[._UID, .KEVENT_ATTR, .KEVENT_VALUE]' <<<"$output"
	assert_output '["61234","temperature","61000"]'
	# The states of the sources it may read; calibration, root's alone, is
	# not listed to it
	run -0 entries_wait 4 KEVENT_TYPE=state _PID="$WATCH_PID"
	states=$(jq -r '"\(.KEVENT_PATH) \(.KEVENT_ATTR)"' <<<"$output" | sort)
	assert_equal "$states" "$SENSOR0 label
$SENSOR0 temperature
/devices/platform/kevent-sensor-test.1 label
/devices/platform/kevent-sensor-test.1 temperature"
}
