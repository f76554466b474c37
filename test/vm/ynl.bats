#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The kernel's own netlink tool (tools/net/ynl of the newest kernel source,
# unchanged) speaks the kevent family through kernel/uapi/kevent.yaml: it
# dumps the sources and the replay ring, reads the counters, and receives a
# real event from a multicast group, all decoded by the spec alone.

setup()
{
	load ../test_helper/kevent
	modules_unload
	modules_load
	ynl=$KEVENT_TOP/scripts/ynl
}

teardown()
{
	watch_stop
	modules_unload
}

@test "ynl --dump get-sources lists the demo's attributes, by name and class" {
	run --separate-stderr "$ynl" --no-schema --dump get-sources --output-json
	assert_success
	run jq -c '[.[] | select(.path == "/devices/platform/kevent-demo.0")] |
		sort_by(."attr-id") | map([."attr-name", .class, ."attr-id"])' \
		<<< "$output"
	assert_output '[["temperature","power",0],["label","general",1],["calibration","general",2]]'
}

@test "ynl --dump get-sources with a class asks the kernel for that class only" {
	run --separate-stderr "$ynl" --no-schema --dump get-sources \
		--json '{"class": "power"}' --output-json
	assert_success
	run jq -c 'map([.path, ."attr-name", .class]) | sort' <<< "$output"
	assert_output '[["/devices/platform/kevent-demo.0","temperature","power"],["/devices/platform/kevent-demo.1","temperature","power"]]'
}

@test "ynl --dump get-attributes gives the registry kevent.ko was built with, entry by entry as attributes.txt has it" {
	local expected

	expected=$(awk '!/^#/ && NF { printf "%d\t%s\t%s\t%s\n", n++, $1, $2, $3 }' \
		"$KEVENT_TOP/attributes.txt")
	run --separate-stderr "$ynl" --no-schema --dump get-attributes --output-json
	assert_success
	run jq -r '.[] | [."attr-id", ."attr-name", .class, (.unit // "-")] | @tsv' \
		<<< "$output"
	assert_success
	assert_output "$expected"
	# A template's entry holds its '*'; a unit is given where there is one
	assert_line $'16\ttemp*_alarm\tpower\t-'
	assert_line $'0\ttemperature\tpower\tmdegC'
}

@test "ynl --do get-stats reads the counters; an attribute with it is refused" {
	demo_set 0 temperature 41000
	run --separate-stderr "$ynl" --no-schema --do get-stats --output-json
	assert_success
	run jq -c '[keys, ."stat-sources", ."stat-sent" > 0]' <<< "$output"
	assert_output '[["stat-coalesced","stat-failed","stat-sent","stat-sources","stat-unrecorded"],6,true]'
	# Refused by the operation itself, or, on 6.1 and from 7.x on, by the
	# reject-all policy the core gives an operation without one
	run --separate-stderr "$ynl" --no-schema --do get-stats --json '{"seq": 1}'
	assert_failure 1
	assert_output --regexp 'Netlink error: (GET_STATS takes no attribute|Unknown attribute type|Attribute failed policy validation): Invalid argument'
}

@test "ynl --subscribe power receives the event of a temperature change" {
	local i

	# The tool joins the group after it has started, which takes seconds
	# here: the temperature changes every second until an event arrives
	PYTHONUNBUFFERED=1 watch_spawn "$ynl" --no-schema --subscribe power \
		--duration 120 --output-json
	for i in $(seq 60); do
		demo_set 0 temperature $((43000 + i))
		jq -e -s 'any(.[]; .name == "event")' "$WATCH_OUT" >/dev/null 2>&1 &&
			break
		sleep 1
	done
	wait_json 'any(.[]; .name == "event" and .msg.path == "/devices/platform/kevent-demo.0"
		and .msg."attr-name" == "temperature" and .msg.class == "power"
		and .msg."attr-id" == 0 and .msg.seq > 0 and .msg."class-seq" > 0)' 5
}

@test "ynl --dump get-replay gives the events after a sequence number, in order" {
	local base

	# The events held before these: none when kevent.ko was just loaded,
	# those since boot when the layer is built in
	run --separate-stderr "$ynl" --no-schema --dump get-replay --output-json
	assert_success
	base=$(jq 'map(.seq) | max // 0' <<< "$output")
	[ -n "$KEVENT_BUILTIN" ] || assert_equal "$base" 0
	demo_set 0 temperature 41000
	sleep 0.1
	demo_set 0 label "first"
	sleep 0.1
	demo_set 1 temperature 42000
	run --separate-stderr "$ynl" --no-schema --dump get-replay \
		--json "{\"seq\": $base}" --output-json
	assert_success
	run jq -c --argjson b "$base" 'map([.seq - $b, .path, ."attr-name"])' <<< "$output"
	assert_output '[[1,"/devices/platform/kevent-demo.0","temperature"],[2,"/devices/platform/kevent-demo.0","label"],[3,"/devices/platform/kevent-demo.1","temperature"]]'
	run --separate-stderr "$ynl" --no-schema --dump get-replay \
		--json "{\"seq\": $((base + 2))}" --output-json
	assert_success
	run jq -c --argjson b "$base" 'map(.seq - $b)' <<< "$output"
	assert_output '[3]'
}
