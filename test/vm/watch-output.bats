#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# One write to the demo sensor gives exactly one event, with the value read
# back from sysfs, in every output format.

setup_file()
{
	load ../test_helper/kevent
	modules_load
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

setup()
{
	load ../test_helper/kevent
}

teardown()
{
	watch_stop
	if module_loaded kevent_test; then rmmod kevent_test; fi
}

@test "a temperature write is one human-readable event carrying the new value" {
	watch_start --timeout 3
	demo_set 0 temperature 43210
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 --regexp '/devices/platform/kevent-demo\.0 .*temperature'
	assert_line --index 0 --partial '43210'
	assert_line --index 0 --partial 'power'
}

@test "a temperature write is one JSON event that jq accepts, with every field" {
	watch_start --json --timeout 3
	demo_set 0 temperature 43210
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	run jq -e -c '[.type, .class, .path, .attr, .value, .unit, .subsystem,
		       .coalesced, (.seq | type), (.time | type)]' "$WATCH_OUT"
	assert_success
	assert_output '["event","power","/devices/platform/kevent-demo.0","temperature","43210","mdegC","platform",0,"number","number"]'
	run jq -e 'has("error") | not' "$WATCH_OUT"
	assert_success
}

@test "a temperature write is one --format line with every placeholder expanded" {
	watch_start --timeout 3 --format '%c|%p|%a|%v|%u|%S|%e|%%|%s\t%t'
	demo_set 1 temperature 43210
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run wc -l < "$WATCH_OUT"
	assert_output 1
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 1
	assert_output --regexp $'^power\\|/devices/platform/kevent-demo\\.1\\|temperature\\|43210\\|mdegC\\|platform\\|\\|%\\|[0-9]+\t[0-9]+\\.[0-9]+$'
}

@test "sequence numbers increase from one event to the next, each with its value" {
	watch_start --json --count 3
	demo_set 0 temperature 1
	watch_lines 1
	demo_set 0 temperature 2
	watch_lines 2
	demo_set 1 temperature 3
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -s -e '[.[].seq] as $s | ($s | length) == 3 and $s[0] < $s[1] and $s[1] < $s[2]' "$WATCH_OUT"
	assert_success
	run jq -r .value "$WATCH_OUT"
	assert_output $'1\n2\n3'
}

@test "a label with quotes, backslash, tab and non-ASCII text is escaped in JSON" {
	label=$'a "quoted" back\\slash\tt\xc3\xa9 \xe2\x84\x83 \xe6\x97\xa5'
	watch_start --json --count 1
	demo_set 0 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	expected=$'"value":"a \\"quoted\\" back\\\\slash\\tt\xc3\xa9 \xe2\x84\x83 \xe6\x97\xa5"'
	run grep -cF "$expected" "$WATCH_OUT"
	assert_output 1
	run jq -j -e '.value' "$WATCH_OUT"
	assert_success
	assert_equal "$output" "$label"
	run grep -cF $'\t' "$WATCH_OUT"
	assert_output 0
}

@test "the JSON value escapes quotes, backslash and tab exactly as RFC 8259 says" {
	watch_start --json --count 1
	demo_set 1 label $'x "q" b\\s\tt'
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run grep -cF '"value":"x \"q\" b\\s\tt"' "$WATCH_OUT"
	assert_output 1
}

@test "a label with control bytes and non-ASCII text is escaped C-style in --format and human output" {
	label=$'a "q" b\\s\tt\xc3\xa9\x01'
	watch_start --count 1 --format '[%v]'
	demo_set 0 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output $'[a "q" b\\\\s\\tt\xc3\xa9\\x01]'

	watch_start --count 1
	demo_set 0 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output --partial $'a "q" b\\\\s\\tt\xc3\xa9\\x01'
	run grep -cF $'\t' "$WATCH_OUT"
	assert_output 0
}

@test "C1 controls and bidi overrides in a label are escaped in text and --format lines, and as \\u in JSON that decodes to the label" {
	# U+009B (CSI on the Linux console), U+202E, U+2066 and U+2069, then
	# U+00A0, printable, which passes
	label=$'csi\xc2\x9b2J rlo\xe2\x80\xae lri\xe2\x81\xa6 pdi\xe2\x81\xa9 nbsp\xc2\xa0'
	escaped=$'csi\\xc2\\x9b2J rlo\\xe2\\x80\\xae lri\\xe2\\x81\\xa6 pdi\\xe2\\x81\\xa9 nbsp\xc2\xa0'
	watch_start --count 1 --format '[%v]'
	demo_set 0 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output "[$escaped]"
	cp "$WATCH_OUT" "$BATS_TEST_TMPDIR/all.out"

	watch_start --count 1
	demo_set 0 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output --regexp '^KEVENT\[[0-9.]+\] [0-9]+ general /devices/platform/kevent-demo\.0 label='
	assert_output --partial "label=$escaped (platform)"
	cat "$WATCH_OUT" >> "$BATS_TEST_TMPDIR/all.out"

	watch_start --json --count 1
	demo_set 0 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run grep -cF $'"value":"csi\\u009b2J rlo\\u202e lri\\u2066 pdi\\u2069 nbsp\xc2\xa0"' "$WATCH_OUT"
	assert_output 1
	run jq -j -e '.value' "$WATCH_OUT"
	assert_success
	assert_equal "$output" "$label"
	cat "$WATCH_OUT" >> "$BATS_TEST_TMPDIR/all.out"

	# None of the four is left raw in any of the three outputs
	run wc -l < "$BATS_TEST_TMPDIR/all.out"
	assert_output 3
	for raw in $'\xc2\x9b' $'\xe2\x80\xae' $'\xe2\x81\xa6' $'\xe2\x81\xa9'; do
		run grep -cF "$raw" "$BATS_TEST_TMPDIR/all.out"
		assert_output 0
	done
}

@test "%q quotes a field for the shell: read gives back a path with a space, eval a hostile label, and nothing runs" {
	# A device named as real platform devices are ("Fixed MDIO bus.0")
	insmod "$KEVENT_TEST_DRIVER" 'name="kevent test"'
	run -0 --separate-stderr "$KEVENT_WATCH" --list \
		--path '/devices/platform/kevent test.0' --format '%qp %qa %v'
	assert_output '/devices/platform/kevent\ test.0 temperature 25000'
	read path attr value <<<"$output"
	assert_equal "$path" '/devices/platform/kevent test.0'
	assert_equal "$attr" temperature
	assert_equal "$value" 25000
	rmmod kevent_test

	# Quotes, substitutions, separators, globs, a tab and a backslash:
	# eval gives back the text of %v (its C-style escapes included)
	pwned=$BATS_TEST_TMPDIR/pwned
	label="it's \"\$(touch $pwned)\" \`touch $pwned\`; touch $pwned | x & ~ * [a] {b,c} #"$'\t\\ end'
	want="it's \"\$(touch $pwned)\" \`touch $pwned\`; touch $pwned | x & ~ * [a] {b,c} #"$'\\t\\\\ end'
	watch_start --count 1 --format 'v=%qv p=%qp e=%qe'
	demo_set 1 label "$label"
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run wc -l < "$WATCH_OUT"
	assert_output 1
	line=$(cat "$WATCH_OUT")
	e=unset
	eval "$line"
	assert_equal "$v" "$want"
	assert_equal "$p" /devices/platform/kevent-demo.1
	assert_equal "$e" ''
	run test -e "$pwned"
	assert_failure
}

@test "%q leaves an empty field empty: read gives back an emptied label as an empty last field" {
	demo_set 1 label $'\n'
	run -0 --separate-stderr "$KEVENT_WATCH" --list \
		--path /devices/platform/kevent-demo.1 --attr label --format '%qa %qv'
	assert_output 'label '
	read attr value <<<"$output"
	assert_equal "$attr" label
	assert_equal "$value" ''
}

@test "--realtime gives an event the time of the wall clock it happened at" {
	local before after

	watch_start --json --count 1 --realtime
	before=$(date +%s)
	demo_set 0 temperature 36500
	after=$(date +%s)
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run jq -e --argjson b "$before" --argjson a "$after" \
		'.value == "36500" and .time >= $b and .time < $a + 1' "$WATCH_OUT"
	assert_success
}

@test "--list prints every annotated source with its current value" {
	demo_set 0 temperature 31000
	run --separate-stderr "$KEVENT_WATCH" --list --json
	assert_success
	run jq -r 'select(.type == "state") | "\(.path) \(.attr) \(.value)"' <<<"$output"
	assert_line '/devices/platform/kevent-demo.0 temperature 31000'
	assert_line --regexp '^/devices/platform/kevent-demo\.1 temperature [0-9]+$'
	assert_line --regexp '^/devices/platform/kevent-demo\.0 label '
	assert_line --regexp '^/devices/platform/kevent-demo\.1 calibration '
	assert_equal "${#lines[@]}" 6
}
