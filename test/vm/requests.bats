#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Hostile requests: the dumps of the kevent family have a policy (generated
# from its YNL spec) and GET_STATS refuses any attribute, so unknown
# attributes, attributes of the wrong size or kind, truncated ones
# and unknown commands are refused with an error, and with an extended ack
# message where the kernel's netlink code gives one; thousands of random
# requests are each answered, and the family works as before afterwards.

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
	REQUEST=$KEVENT_TOP/test/tools/kevent-request
	FUZZ=$KEVENT_TOP/test/tools/kevent-fuzz
	# The seed of the random requests: a failure can be replayed with it
	FUZZ_SEED=20261203
}

# The three requests as they are meant to be sent: the command, as a dump
# or not
SOURCES=(--dump get-sources)
REPLAY=(--dump get-replay)
STATS=(get-stats)
ATTRIBUTES=(--dump get-attributes)

# request REQUEST...: kevent-request REQUEST, its answer in $output; fails
# when no answer came. (Plain command substitution, not bats' run: under
# software emulation every process and every line of bash counts.)
request()
{
	local status=0

	output=$("$REQUEST" "$@") || status=$?
	[ "$status" -eq 0 ] ||
		fail "kevent-request $*: status $status, output '$output'"
}

# refused ERRNO MESSAGE REQUEST...: REQUEST is answered with error ERRNO and
# a non-empty extended ack message, MESSAGE itself unless it is empty
refused()
{
	local errno=$1 message=$2

	shift 2
	request "$@"
	if [[ $output =~ ^error\ $errno:\ .+$ ]] &&
		{ [ -z "$message" ] || [ "$output" = "error $errno: $message" ]; }; then
		return 0
	fi
	fail "kevent-request $*: '$output', not 'error $errno: ${message:-<a message>}'"
}

# refused_stats ATTRIBUTE...: GET_STATS with ATTRIBUTE is refused, EINVAL
# with a message: its own, or, on 6.1 and from 7.x on, that of the
# reject-all policy the core gives an operation without one, which it
# applies first
refused_stats()
{
	request "${STATS[@]}" "$@"
	[[ $output == "error EINVAL: GET_STATS takes no attribute" ||
		$output =~ ^error\ EINVAL:\ (Unknown\ attribute\ type|bytes\ leftover\ after\ parsing\ attributes|invalid\ attribute\ length|Attribute\ failed\ policy\ validation)$ ]] ||
		fail "kevent-request get-stats $*: '$output', not 'error EINVAL: <a message>'"
}

# unsupported REQUEST...: REQUEST is answered with error EOPNOTSUPP (the
# kernel's genetlink code gives no message for it)
unsupported()
{
	request "$@"
	[[ $output =~ ^error\ EOPNOTSUPP(:\ .+)?$ ]] ||
		fail "kevent-request $*: '$output', not 'error EOPNOTSUPP'"
}

# answered REQUEST...: REQUEST is answered without error; the number of
# reply messages in $ANSWERED
answered()
{
	request "$@"
	[[ $output =~ ^ok:\ ([0-9]+)\ messages$ ]] ||
		fail "kevent-request $*: '$output', not 'ok: N messages'"
	ANSWERED=${BASH_REMATCH[1]}
}

@test "valid requests are answered: sources, sources of a class, replay, stats, the registry" {
	answered "${SOURCES[@]}"
	# temperature, label and calibration of the two sensors
	[ "$ANSWERED" -ge 6 ]
	sources=$ANSWERED
	answered "${SOURCES[@]}" class:u32:2
	[ "$ANSWERED" -ge 2 ]
	[ "$ANSWERED" -lt "$sources" ]
	answered "${SOURCES[@]}" class:u32:0
	[ "$ANSWERED" -ge 4 ]
	[ "$ANSWERED" -lt "$sources" ]

	sensor_test_set 0 temperature 30000
	answered "${REPLAY[@]}"
	[ "$ANSWERED" -ge 1 ]
	answered "${REPLAY[@]}" seq:u64:0
	[ "$ANSWERED" -ge 1 ]
	answered "${REPLAY[@]}" seq:u64:18446744073709551615
	assert_equal "$ANSWERED" 0

	answered "${STATS[@]}"
	assert_equal "$ANSWERED" 1
	answered --ack "${STATS[@]}"
	assert_equal "$ANSWERED" 1

	# One message an entry of the registry, in parts of a dump
	answered "${ATTRIBUTES[@]}"
	assert_equal "$ANSWERED" "$(grep -cvE '^(#|[[:space:]]*$)' "$KEVENT_TOP/attributes.txt")"
}

@test "an attribute the request does not take is refused: EINVAL with a message" {
	# Types the family does not have, for every request; GET_STATS, which
	# has no policy, refuses any byte after its header
	for req in SOURCES REPLAY; do
		declare -n r=$req
		refused EINVAL "Unknown attribute type" "${r[@]}" 0:u32:1
		refused EINVAL "Unknown attribute type" "${r[@]}" 40:u32:1
		refused EINVAL "Unknown attribute type" "${r[@]}" 16383:empty
	done
	refused_stats 0:u32:1
	refused_stats 40:u32:1
	refused_stats 16383:empty
	# Attributes of the family's events, not of these requests
	refused EINVAL "" "${SOURCES[@]}" seq:u64:1
	refused EINVAL "" "${SOURCES[@]}" timestamp:u64:1
	refused EINVAL "" "${SOURCES[@]}" path:str:/devices/platform
	refused EINVAL "" "${REPLAY[@]}" class:u32:2
	refused EINVAL "" "${REPLAY[@]}" attr-name:str:temperature
	# GET_STATS takes no attribute at all, not even those of its answer
	refused_stats seq:u64:1
	refused_stats class:u32:2
	for a in stat-sent stat-coalesced stat-failed stat-unrecorded; do
		refused_stats "$a:u64:1"
	done
	refused_stats stat-sources:u32:1
	# GET_ATTRIBUTES neither, refused by the operation or, where the core
	# gives an operation without a policy one that rejects all, by it
	for a in 0:u32:1 40:u32:1 16383:empty class:u32:2 attr-name:str:mtu \
		unit:str:mV; do
		request "${ATTRIBUTES[@]}" "$a"
		[[ $output =~ ^error\ EINVAL:\ (GET_ATTRIBUTES\ takes\ no\ attribute|Unknown\ attribute\ type|Attribute\ failed\ policy\ validation)$ ]] ||
			fail "kevent-request get-attributes $a: '$output', not 'error EINVAL: <a message>'"
	done
}

@test "a value of the wrong size or an oversize one is refused: EINVAL with a message; one out of range: ERANGE" {
	# A u32 or a u64 of 0, 2, 8, 15 or 17 bytes
	for value in empty u16:2 u64:2 hex:000000000000000000000000000000; do
		refused EINVAL "invalid attribute length" \
			"${SOURCES[@]}" "class:$value"
	done
	for value in empty u32:2 hex:0100000000000000000000000000000000; do
		refused EINVAL "invalid attribute length" \
			"${REPLAY[@]}" "seq:$value"
	done
	refused EINVAL "" "${STATS[@]}" seq:u16:2

	# 5000 bytes, and near the largest attribute netlink carries
	refused EINVAL "invalid attribute length" "${SOURCES[@]}" class:fill:5000
	refused EINVAL "invalid attribute length" "${REPLAY[@]}" seq:fill:5000
	refused EINVAL "" "${STATS[@]}" seq:fill:5000
	refused EINVAL "invalid attribute length" "${SOURCES[@]}" class:fill:65000
	refused_stats 40:fill:65000
	# A path longer than any, where no request takes one
	long=$(printf '/%04095d' 0)
	refused EINVAL "Unknown attribute type" "${SOURCES[@]}" "path:str:$long"
	refused_stats "path:str:$long"

	# A class beyond the last one
	refused ERANGE "integer out of range" "${SOURCES[@]}" class:u32:6
	refused ERANGE "integer out of range" "${SOURCES[@]}" class:u32:4294967295
}

@test "a malformed attribute or header is refused: EINVAL with a message" {
	# nla_len beyond the message, or shorter than the attribute's header
	for req in SOURCES REPLAY; do
		declare -n r=$req
		refused EINVAL "bytes leftover after parsing attributes" \
			"${r[@]}" class+len=200:u32:1
		refused EINVAL "bytes leftover after parsing attributes" \
			"${r[@]}" seq+len=2:u64:1
	done
	refused_stats class+len=200:u32:1
	refused_stats seq+len=2:u64:1
	# A valid attribute, then one that claims more than is left
	refused EINVAL "bytes leftover after parsing attributes" \
		"${SOURCES[@]}" class:u32:1 class+len=9:u32:1

	# NLA_F_NESTED on a scalar
	refused EINVAL "NLA_F_NESTED not expected" "${SOURCES[@]}" class+nested:u32:1
	refused EINVAL "NLA_F_NESTED not expected" "${REPLAY[@]}" seq+nested:u64:1
	refused EINVAL "" "${STATS[@]}" seq+nested:u64:1

	# The genetlink header's reserved field, undefined nlmsg_flags:
	# NLM_F_ATOMIC, NLM_F_ROOT alone (half a dump)
	refused EINVAL "genlmsghdr.reserved field is not 0" --reserved 1 "${SOURCES[@]}"
	refused EINVAL "genlmsghdr.reserved field is not 0" --reserved 1 "${STATS[@]}"
	refused EINVAL "ambiguous or reserved bits set in nlmsg_flags" \
		--flags 0x401 get-stats
	refused EINVAL "ambiguous or reserved bits set in nlmsg_flags" \
		--flags 0x101 get-sources
}

@test "an unknown command, or a request sent as the other kind, is refused: EOPNOTSUPP" {
	for cmd in unspec event 6 255; do
		unsupported "$cmd"
		unsupported --dump "$cmd" class:u32:1
	done
	# The dumps as a do, the do as a dump
	unsupported get-sources
	unsupported get-replay
	unsupported get-attributes
	unsupported --dump get-stats
}

# fuzz_ok: the last run of kevent-fuzz answered every request, gave a
# message with every EINVAL for a request with a whole genetlink header, and
# answered some requests without error (real answers, not only refusals)
fuzz_ok()
{
	printf '%s\n' "$output" "$stderr"
	assert_success
	assert_line --regexp '^answered [0-9]+, unanswered 0, stray messages 0, '
	assert_line 'EINVAL without a message (a whole header): 0'
	assert_line --regexp '^  ok +[1-9][0-9]* *$'
	assert_line --regexp '^  EINVAL +[1-9][0-9]* '
}

# family_works: the family answers valid requests, and kevent-watch --list
# lists the sensors
family_works()
{
	answered "${SOURCES[@]}"
	[ "$ANSWERED" -ge 6 ]
	answered "${STATS[@]}"
	[ "$ANSWERED" -eq 1 ]
	run -0 --separate-stderr "$KEVENT_WATCH" --list
	assert_line --regexp '^STATE.* /devices/platform/kevent-sensor-test\.0 temperature='
	assert_line --regexp '^STATE.* /devices/platform/kevent-sensor-test\.1 label='
}

@test "10000 random requests (3000 on the debug kernel) are each answered, and the family works as before" {
	local count=10000

	# The debug kernel checks each memory access and lock of every
	# request, many times slower: there, 3000
	[ -z "${KEVENT_DEBUG_KERNEL:-}" ] || count=3000
	run --separate-stderr "$FUZZ" --count "$count" --seed "$FUZZ_SEED"
	fuzz_ok
	assert_line --regexp "^answered $count, "
	family_works
}

@test "random requests from an unprivileged process are each answered" {
	run --separate-stderr setpriv --reuid=65534 --regid=65534 \
		--clear-groups "$FUZZ" --count 1000 --seed $((FUZZ_SEED + 1))
	fuzz_ok
	family_works
}

@test "random requests while events are sent are each answered" {
	# Events all along, so that replay dumps meet a ring that moves
	(
		while ! [ -e "$BATS_TEST_TMPDIR/stop" ]; do
			sensor_test_set 0 temperature $((20000 + RANDOM))
			sensor_test_set 1 storm 100
		done
	) 3>&- &
	events=$!
	run --separate-stderr "$FUZZ" --count 2000 --seed $((FUZZ_SEED + 2))
	touch "$BATS_TEST_TMPDIR/stop"
	wait "$events"
	fuzz_ok
	family_works
}

# The family is registered in every network namespace (netnsok, as the
# generated family has it), but answers only in the initial one, where its
# events go: elsewhere each request is refused, and libkevent reports the
# layer as absent there.
@test "from another network namespace every request is refused, and kevent-watch finds no layer" {
	local msg="kevent answers in the initial network namespace only"

	output=$(unshare --net "$REQUEST" get-stats)
	assert_equal "$output" "error EOPNOTSUPP: $msg"
	output=$(unshare --net "$REQUEST" --dump get-sources)
	assert_equal "$output" "error EOPNOTSUPP: $msg"
	output=$(unshare --net "$REQUEST" --dump get-replay)
	assert_equal "$output" "error EOPNOTSUPP: $msg"
	output=$(unshare --net "$REQUEST" --dump get-attributes)
	assert_equal "$output" "error EOPNOTSUPP: $msg"
	# Here, the same requests are answered
	answered "${STATS[@]}"
	answered "${SOURCES[@]}"

	run --separate-stderr unshare --net "$KEVENT_WATCH" --list
	assert_failure
	assert_equal "$stderr" "kevent-watch: the kevent layer is not loaded (modprobe kevent); --stock reports the stock kernel's events without it"
	run --separate-stderr unshare --net "$KEVENT_WATCH" --count 1 --timeout 5
	assert_failure
	assert_stderr_partial 'the kevent layer is not loaded'
}
