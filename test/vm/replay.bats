#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Coldplug and replay: kevent.ko keeps its last events (module parameter
# "replay"), kevent-watch --replay prints them before the live ones, with
# no gap and no duplicate; --coldplug prints every source once, then
# streams. Each test loads kevent.ko afresh, so sequence numbers start at 1.

setup()
{
	load ../test_helper/kevent
	modules_unload
}

teardown()
{
	watch_stop
	if module_loaded kevent_test; then rmmod kevent_test; fi
	modules_unload
}

# load_kevent [PARAMS...]: insert kevent.ko with PARAMS, then the test driver
# kevent_sensor_test.ko, whose notify control the tests use
load_kevent()
{
	insmod "$KEVENT_MODULE_DIR/kevent.ko" "$@"
	sensor_test_load
}

# replay_last_seq: sequence number of the newest event the kernel holds, or
# nothing if it holds none
replay_last_seq()
{
	"$KEVENT_WATCH" --replay --json --timeout 0 | tail -n 1 | jq -r .seq
}

# wait_seq N: wait until the kernel has recorded event N (events are sent
# by a work item after the write, and writes in a row could be folded)
wait_seq()
{
	local i

	for i in $(seq 200); do
		[ "$(replay_last_seq)" = "$1" ] && return 0
		sleep 0.05
	done
	echo "event $1 was not recorded (last: $(replay_last_seq))" >&2
	return 1
}

# notify N ATTR: kevent_notify() attribute ATTR of sensor N; the event is
# sent (and recorded) before the write returns
notify()
{
	sensor_test_set "$1" notify "$2"
}

# test_notify N: N events, each sent (and recorded) before its write
# returns: kevent_notify() of the label of kevent_test.ko's chain of
# kobjects, made at the first call
test_notify()
{
	module_loaded kevent_test || insmod "$KEVENT_TEST_DRIVER"
	[ "$(cat "$TEST_DBG/deep")" != 0 ] || echo 40 > "$TEST_DBG/deep"
	# In a shell of its own: bats traces each command of its own shells,
	# which would make the loop minutes long under emulation
	bash -c 'exec {fd}> "$1"
		for ((i = 0; i < $2; i++)); do
			printf x >&"$fd"
		done' _ "$TEST_DBG/notify" "$1"
}

# genl_replay [ATTR_TYPE PAYLOAD_HEX]: send KEVENT_CMD_GET_REPLAY as a dump
# request, with one attribute if given; print "error ERRNO" or "done N"
genl_replay()
{
	/usr/bin/python3 - "$@" <<'EOF'
import socket, struct, sys

def attr(t, payload):
    n = 4 + len(payload)
    return struct.pack('HH', n, t) + payload + b'\0' * (-n % 4)

def msg(typ, flags, cmd, attrs, seq):
    body = struct.pack('BBH', cmd, 1, 0) + attrs
    return struct.pack('IHHII', 16 + len(body), typ, flags, seq, 0) + body

def messages(data):
    while len(data) >= 16:
        n, typ, flags, seq, pid = struct.unpack_from('IHHII', data)
        yield typ, data[16:n]
        data = data[(n + 3) & ~3:]

s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)  # NETLINK_GENERIC
s.bind((0, 0))
s.settimeout(5)
# CTRL_CMD_GETFAMILY (3), CTRL_ATTR_FAMILY_NAME (2) to GENL_ID_CTRL (0x10)
s.send(msg(0x10, 1, 3, attr(2, b'kevent\0'), 1))
family = None
for typ, body in messages(s.recv(65536)):
    a = body[4:]
    while len(a) >= 4:
        n, t = struct.unpack_from('HH', a)
        if t == 1:  # CTRL_ATTR_FAMILY_ID
            family = struct.unpack_from('H', a, 4)[0]
        a = a[(n + 3) & ~3:]
if family is None:
    sys.exit("no kevent family")

extra = attr(int(sys.argv[1]), bytes.fromhex(sys.argv[2])) if len(sys.argv) > 2 else b''
# KEVENT_CMD_GET_REPLAY (3), NLM_F_REQUEST | NLM_F_DUMP
s.send(msg(family, 0x301, 3, extra, 2))
count = 0
while True:
    for typ, body in messages(s.recv(65536)):
        if typ == 2:  # NLMSG_ERROR
            print('error', struct.unpack_from('i', body)[0])
            sys.exit(0)
        if typ == 3:  # NLMSG_DONE
            print('done', count)
            sys.exit(0)
        count += 1
EOF
}

@test "--replay after 10 events with no listener prints them in order, then streams a live one once" {
	load_kevent
	for i in $(seq 10); do
		sensor_test_set 0 temperature $((30000 + i))
		wait_seq "$i"
	done

	watch_start --replay --json --count 11
	watch_lines 10
	sensor_test_set 1 temperature 31000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -c -s '[.[] | .seq]' "$WATCH_OUT"
	assert_output '[1,2,3,4,5,6,7,8,9,10,11]'
	# Replayed events are reported like live ones, with the value now
	run jq -r -s '.[:10][] | [.type, .path, .attr, .value] | join(" ")' "$WATCH_OUT"
	assert_equal "$(sort -u <<< "$output")" "event /devices/platform/kevent-sensor-test.0 temperature 30010"
	assert_equal "${#lines[@]}" 10
	run jq -r -s '.[10] | [.type, .path, .value] | join(" ")' "$WATCH_OUT"
	assert_output "event /devices/platform/kevent-sensor-test.1 31000"

	# The same in the text format, as the first lines
	run "$KEVENT_WATCH" --replay --timeout 0 --format '%s %a'
	assert_success
	assert_equal "${lines[0]}" "1 temperature"
	assert_equal "${lines[9]}" "10 temperature"
	assert_equal "${lines[10]}" "11 temperature"
	assert_equal "${#lines[@]}" 11
}

@test "--replay=SEQ prints only the events after SEQ, and --count counts them" {
	load_kevent
	for i in $(seq 6); do
		notify $((i % 2)) label
	done
	run "$KEVENT_WATCH" --replay=4 --timeout 0 --format '%s'
	assert_success
	assert_output $'5\n6'
	run "$KEVENT_WATCH" --replay=6 --timeout 0 --format '%s'
	assert_success
	assert_output ''
	run "$KEVENT_WATCH" --replay --count 2 --format '%s'
	assert_success
	assert_output $'1\n2'
}

@test "--replay while events flow: replayed and live events together have every sequence number once" {
	load_kevent replay=4096
	(
		i=0
		while ! [ -e "$BATS_TEST_TMPDIR/stop" ]; do
			i=$((i + 1))
			sensor_test_set $((i % 2)) temperature $((30000 + i))
		done
	) &
	writer=$!
	sleep 0.5
	watch_start --replay --json
	sleep 0.5
	touch "$BATS_TEST_TMPDIR/stop"
	wait "$writer"
	# The last notification may still be on its way
	sleep 0.5
	last=$(replay_last_seq)
	[ "$last" -ge 2 ]
	watch_lines "$last"
	sleep 0.5
	run jq -s -e --argjson last "$last" \
		'[.[] | .seq] == [range(1; $last + 1)]' "$WATCH_OUT"
	assert_success
}

@test "events sent after the groups are joined and before the replay are printed once" {
	load_kevent
	WATCH_OUT=$BATS_TEST_TMPDIR/watch.out
	WATCH_ERR=$BATS_TEST_TMPDIR/watch.err
	fifo=$BATS_TEST_TMPDIR/fifo
	mkfifo "$fifo"
	exec 5<> "$fifo"
	# A full pipe (64 KiB): the state records block kevent-watch after it
	# joined the groups and before it asks for the replay, in a ppoll() of
	# standard output alone (1 descriptor) for room to write them
	timeout 5 head -c 65536 /dev/zero >&5
	"$KEVENT_WATCH" --coldplug --replay --count 4 --format '%s %a' \
		>&5 2> "$WATCH_ERR" &
	WATCH_PID=$!
	for i in $(seq 100); do
		read -r nr _ nfds _ < "/proc/$WATCH_PID/syscall" || break
		[ "$nr $nfds" = "271 0x1" ] && break
		sleep 0.1
	done
	assert_equal "$nr $nfds" "271 0x1"
	# Events 1 to 3 reach the joined socket and the replay ring
	notify 0 temperature
	notify 0 label
	notify 1 temperature
	cat <&5 > "$BATS_TEST_TMPDIR/raw" &
	reader=$!
	for i in $(seq 100); do
		is_waiting "$WATCH_PID" && break
		kill -0 "$WATCH_PID" 2>/dev/null || break
		sleep 0.1
	done
	notify 1 label
	watch_wait 20
	sleep 0.5
	kill "$reader"
	exec 5>&-
	assert_equal "$WATCH_STATUS" 0
	tr -d '\0' < "$BATS_TEST_TMPDIR/raw" > "$WATCH_OUT"
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 10
	assert_equal "${lines[6]}" "1 temperature"
	assert_equal "${lines[7]}" "2 label"
	assert_equal "${lines[8]}" "3 temperature"
	assert_equal "${lines[9]}" "4 label"
}

@test "replay=4 keeps only the last 4 events, replay=0 none, and the bound is enforced" {
	load_kevent replay=4
	run cat /sys/module/kevent/parameters/replay
	assert_output 4
	for i in $(seq 10); do
		notify 0 temperature
	done
	run "$KEVENT_WATCH" --replay --timeout 0 --format '%s %a'
	assert_success
	assert_output $'7 temperature\n8 temperature\n9 temperature\n10 temperature'

	modules_unload
	load_kevent replay=0
	notify 0 temperature
	run "$KEVENT_WATCH" --replay --timeout 0 --json
	assert_success
	assert_output ''

	modules_unload
	run insmod "$KEVENT_MODULE_DIR/kevent.ko" replay=65537
	assert_failure
	run lsmod
	refute_output --regexp '^kevent '
}

@test "by default kevent.ko keeps the last 256 events" {
	load_kevent
	run cat /sys/module/kevent/parameters/replay
	assert_output 256
	test_notify 300
	run -0 "$KEVENT_WATCH" --replay --timeout 0 --format '%s'
	assert_equal "${#lines[@]}" 256
	assert_output "$(seq 45 300)"
	# All 300 were sent: the ring let the 44 oldest go
	run "$KEVENT_TOP/test/tools/kevent-stats"
	assert_line 'sent 300'
}

@test "replay=65536, the largest ring, keeps the last 65536 events" {
	load_kevent replay=65536
	run cat /sys/module/kevent/parameters/replay
	assert_output 65536
	test_notify 65546
	"$KEVENT_WATCH" --replay --timeout 0 --format '%s' > "$BATS_TEST_TMPDIR/replay"
	run wc -l < "$BATS_TEST_TMPDIR/replay"
	assert_output 65536
	run diff <(seq 11 65546) "$BATS_TEST_TMPDIR/replay"
	assert_success
	# --replay=SEQ from the middle of the ring
	run -0 "$KEVENT_WATCH" --replay=65540 --timeout 0 --format '%s %a'
	assert_output "$(seq 65541 65546 | sed 's/$/ label/')"
}

@test "--coldplug prints every source once as a state record, then streams a live event" {
	load_kevent
	watch_start --coldplug --json --count 1
	watch_lines 6
	sensor_test_set 1 temperature 42000
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -r -s 'length' "$WATCH_OUT"
	assert_output 7
	run jq -r -s '.[:6][] | [.type, .path, .attr] | join(" ")' "$WATCH_OUT"
	assert_equal "$(sort -u <<< "$output" | wc -l)" 6
	assert_equal "$(grep -c '^state /devices/platform/kevent-sensor-test\.[01] \(temperature\|label\|calibration\)$' <<< "$output")" 6
	run jq -r -s '.[6] | [.type, .path, .attr, .value] | join(" ")' "$WATCH_OUT"
	assert_output "event /devices/platform/kevent-sensor-test.1 temperature 42000"
}

@test "--coldplug --replay prints the states, then the replayed events, then live ones" {
	load_kevent
	sensor_test_set 0 temperature 30001
	wait_seq 1
	sensor_test_set 1 label hello
	wait_seq 2
	watch_start --coldplug --replay --format '%s %a %v'
	watch_lines 8
	sensor_test_set 0 temperature 30002
	watch_lines 9
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 9
	# State records have no sequence number
	for i in 0 1 2 3 4 5; do
		assert_regex "${lines[$i]}" '^ (temperature|label|calibration) '
	done
	assert_equal "${lines[6]}" "1 temperature 30001"
	assert_equal "${lines[7]}" "2 label hello"
	assert_equal "${lines[8]}" "3 temperature 30002"
}

@test "GET_REPLAY takes an optional u64 sequence number and rejects other attributes" {
	load_kevent
	for i in $(seq 3); do
		notify 0 temperature
	done
	run genl_replay
	assert_output 'done 3'
	# KEVENT_A_SEQ (1) = 1: the events after it
	run genl_replay 1 0100000000000000
	assert_output 'done 2'
	# KEVENT_A_CLASS (3), an attribute GET_REPLAY does not take
	run genl_replay 3 02000000
	assert_output 'error -22'
	# An attribute type beyond every known one
	run genl_replay 99 02000000
	assert_output 'error -22'
	# KEVENT_A_SEQ with 4 bytes instead of 8
	run genl_replay 1 01000000
	assert_output --regexp '^error -(22|34)$'
}
