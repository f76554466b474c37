#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch's command line, checked before the kernel is needed: a bad
# value of any option is a usage error that names it, and --help fits one
# screen and documents every option.

setup_file()
{
	load ../test_helper/common
	# The binary under test is the tree's: build it if it is not current.
	make -s -C "$KEVENT_TOP/userspace" cli/kevent-watch >&2
}

setup()
{
	load ../test_helper/common
	KEVENT_WATCH=$KEVENT_TOP/userspace/cli/kevent-watch
}

# usage_error OPTION ARGS...: kevent-watch ARGS exits with status 2, prints
# nothing on stdout, and its first line on stderr names OPTION
usage_error()
{
	local opt=$1

	shift
	run --separate-stderr "$KEVENT_WATCH" "$@"
	if [ "$status" -ne 2 ] || [ -n "$output" ] ||
		[[ ${stderr_lines[0]:-} != "kevent-watch: $opt"* ]]; then
		echo "kevent-watch $* gave status $status, stdout '$output'" \
			"and stderr:" >&2
		echo "$stderr" >&2
		return 1
	fi
}

@test "a bad --count, --timeout or --rcvbuf value is a usage error naming the option" {
	usage_error --count --count -1
	usage_error --count --count 0
	usage_error --count --count x
	usage_error --count -n ''
	usage_error --timeout --timeout x
	usage_error --timeout --timeout -1
	usage_error --timeout -t 1.2345
	usage_error --rcvbuf --rcvbuf 0
	usage_error --rcvbuf --rcvbuf 2048M
}

@test "a bad --sample interval or --delta value is a usage error naming the option" {
	usage_error --sample --sample x /sys/class/net/lo/mtu
	usage_error --sample --sample 0 /sys/class/net/lo/mtu
	usage_error --sample --sample 0.5ms /sys/class/net/lo/mtu
	usage_error --sample --sample 1d /sys/class/net/lo/mtu
	usage_error --sample --sample ''
	usage_error --delta --sample 1s --delta 0 /sys/class/net/lo/mtu
	usage_error --delta --sample 1s --delta -5 /sys/class/net/lo/mtu
	usage_error --delta --sample 1s --delta 1.5 /sys/class/net/lo/mtu
	usage_error '--delta needs --sample' --delta 5
	usage_error '--sample needs files' --sample 1s
	usage_error "--sample: '/tmp' is not a sysfs file" --sample 1s /tmp
}

@test "an empty or blank --exec command and a bad --exec-timeout are usage errors" {
	usage_error --exec --exec ''
	usage_error --exec --exec '  '
	usage_error --exec-timeout --exec true --exec-timeout x
	usage_error --exec-timeout --exec true --exec-timeout -1
	usage_error --exec-timeout --exec-timeout 5
}

@test "a usage error is its message and a pointer to --help, nothing more" {
	run --separate-stderr "$KEVENT_WATCH" --count x
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "kevent-watch: --count: invalid value 'x' (expected a positive integer)
Try 'kevent-watch --help' for more information."
}

@test "a file argument belongs to the --poll or --sample written last before it" {
	# /tmp polled, so --sample has no file of its own
	usage_error '--sample needs files' --poll /sys/class/net/lo/mtu /tmp --sample 1s
	usage_error "--poll: '/tmp' is not a sysfs file" \
		--sample 1s /sys/class/net/lo/mtu --poll /tmp
	# After "--" as well
	usage_error "--sample: '/tmp' is not a sysfs file" \
		--poll /sys/class/net/lo/mtu --sample 1s -- /tmp
}

@test "a file argument before any --poll or --sample belongs to the first given" {
	usage_error "--sample: '/tmp' is not a sysfs file" /tmp --sample 1s \
		--poll /sys/class/net/lo/mtu
	usage_error "--poll: '/tmp' is not a sysfs file" /tmp --poll /sys/class/net/lo/mtu \
		--sample 1s /sys/class/net/lo/flags
	usage_error "unexpected argument '/tmp'" --json /tmp
}

@test "empty --attr, --path, --subsystem and --poll values are usage errors" {
	usage_error --attr --attr ''
	usage_error --path --path ''
	usage_error --subsystem --subsystem ''
	usage_error --poll --poll ''
}

@test "an unknown or empty --class, a bad --format or --replay are usage errors" {
	usage_error --class --class nosuch
	usage_error --class --class ''
	usage_error --class --class power,
	usage_error --format --format '%x'
	usage_error --format --format ''
	usage_error --format --format 'a\q'
	usage_error --replay --replay=x
	usage_error --replay --replay=
}

@test "a missing value is a usage error naming the option, for each option that takes one" {
	for opt in --format --class --attr --path --subsystem --count \
		--timeout --rcvbuf --poll --exec --sample --delta; do
		usage_error "$opt: missing value" "$opt"
	done
	usage_error '--exec-timeout: missing value' --exec true --exec-timeout
	usage_error '--count: missing value' -n
}

@test "an unknown option or a value given to a flag is a usage error" {
	usage_error "unknown option '--nosuch'" --nosuch
	usage_error "unknown option '-q'" -q
	usage_error '--json: takes no value' --json=1
	assert_stderr_partial "Try 'kevent-watch --help'"
}

# The long options of kevent-watch, from its source
long_options()
{
	sed -n '/^static const struct option long_options\[\]/,/^};/p' \
		"$KEVENT_TOP/userspace/cli/options.c" |
		sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",.*/\1/p'
}

@test "--help fits 24 lines of 80 columns and names every long option" {
	run --separate-stderr "$KEVENT_WATCH" --help
	assert_success
	assert [ "${#lines[@]}" -le 24 ]
	run --separate-stderr bash -c '"$1" --help | wc -L' _ "$KEVENT_WATCH"
	assert [ "$output" -le 80 ]
	run --separate-stderr "$KEVENT_WATCH" --help
	mapfile -t opts < <(long_options)
	# The parse of the source found the table: it has --json and --exec
	assert [ "${#opts[@]}" -ge 18 ]
	for opt in "${opts[@]}"; do
		[[ $output == *"--$opt"* ]] ||
			fail "--help does not document --$opt"
	done
	assert_output --partial 'kevent-watch(1)'
}

@test "the man page documents every long option and the --exec variables" {
	man=$KEVENT_TOP/userspace/man/kevent-watch.1
	mapfile -t opts < <(long_options)
	assert [ "${#opts[@]}" -ge 18 ]
	for opt in "${opts[@]}"; do
		grep -qF -- "\\-\\-${opt//-/\\-}" "$man" ||
			fail "the man page does not document --$opt"
	done
	for var in TYPE SOURCE SEQ TIME CLASS PATH ATTR VALUE ERROR UNIT \
		SUBSYSTEM COALESCED; do
		grep -qF "KEVENT_$var" "$man" ||
			fail "the man page does not document KEVENT_$var"
	done
}

@test "a --sample glob that matches no file is said on stderr, once, and the files that match are sampled" {
	run -0 --separate-stderr "$KEVENT_WATCH" --list --json --sample 1s \
		'/sys/kevent-none*/x' '/sys/class/net/l[o]/mtu'
	assert_equal "$stderr" "kevent-watch: --sample: no file to sample matches '/sys/kevent-none*/x' yet"
	run jq -r '"\(.path) \(.attr)"' <<<"$output"
	assert_output '/devices/virtual/net/lo mtu'
}

@test "--realtime: text lines give the local date and time with the offset from UTC, JSON and %t seconds since the Epoch" {
	local lo=/sys/class/net/lo/mtu now

	run -0 --separate-stderr env TZ=Asia/Kolkata "$KEVENT_WATCH" --realtime \
		--list --sample 1s "$lo"
	assert_output --regexp '^STATE\[[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}\+05:30\] net /devices/virtual/net/lo mtu='
	run -0 --separate-stderr env TZ=UTC "$KEVENT_WATCH" --realtime \
		--list --sample 1s "$lo"
	assert_output --regexp '^STATE\[[0-9-]{10}T[0-9:.]{15}\+00:00\] '

	now=$(date +%s)
	run -0 --separate-stderr "$KEVENT_WATCH" --realtime --list --json \
		--sample 1s "$lo"
	run jq -e --argjson now "$now" '.time > $now - 60 and .time < $now + 60' <<<"$output"
	assert_success
	run -0 --separate-stderr "$KEVENT_WATCH" --realtime --list \
		--format '%t' --sample 1s "$lo"
	assert [ "${output%.*}" -gt $((now - 60)) ]
	assert [ "${output%.*}" -lt $((now + 60)) ]
}
