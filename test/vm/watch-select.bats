#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# --path and --subsystem: filters kevent-watch applies itself, to events and
# to --list. Sources of two subsystems: the demo sensors' (platform) and a
# dummy network device's, which kevent_bridge.ko annotates (net).
#
# An event filtered out leaves no line: to tell "filtered" from "late", the
# events to filter out are sent first (the kernel's counter of sent events
# says when), then one that passes, which ends the watch (--count). The
# watcher takes them from its socket in that order.

setup()
{
	load ../test_helper/kevent
	bridge_load
	modules_load sensors=3
	ip link add d0 type dummy
	D0=/devices/virtual/net/d0
	S0=$DEMO_SYS/kevent-demo.0
	S0=${S0#/sys}
	S1=${S0%.0}.1
	S2=${S0%.0}.2
}

teardown()
{
	watch_stop
	ip link del d0 2>/dev/null || true
	bridge_unload
}

# sent: the number of events the kernel has sent so far
sent()
{
	layer_stat sent
}

# sent_wait N: wait until the kernel has sent N events in all
sent_wait()
{
	local i

	for i in $(seq 200); do
		[ "$(sent)" -ge "$1" ] && return 0
		sleep 0.1
	done
	echo "the kernel sent $(sent) events, not $1" >&2
	return 1
}

# send_filtered ACTION...: run each ACTION (a command that sends one event)
# in turn, and wait until the kernel has sent them all
send_filtered()
{
	local before

	before=$(sent)
	for action in "$@"; do
		eval "$action"
	done
	sent_wait $((before + $#))
}

# reported: "PATH ATTR=VALUE (SUBSYSTEM)" of each event printed
reported()
{
	jq -r 'select(.type == "event") | "\(.path) \(.attr)=\(.value) (\(.subsystem))"' \
		"$WATCH_OUT"
}

@test "--subsystem net reports a network device's event and drops the demo sensors' (platform)" {
	watch_start --json --subsystem net --count 1
	send_filtered 'demo_set 0 temperature 31000' 'demo_set 1 label first'
	ip link set d0 mtu 1400
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run reported
	assert_output "$D0 mtu=1400 (net)"
}

@test "--subsystem platform reports the demo sensors' events and drops a network device's" {
	watch_start --json --subsystem platform --count 1
	send_filtered 'ip link set d0 mtu 1400'
	demo_set 1 temperature 31500
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run reported
	assert_output "$S1 temperature=31500 (platform)"
}

@test "--subsystem repeated lets each subsystem named through, and is an exact name, not a prefix" {
	watch_start --json --subsystem net --subsystem platform --count 2
	demo_set 0 temperature 32000
	watch_lines 1
	ip link set d0 mtu 1300
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run reported
	assert_output - <<-EOF
	$S0 temperature=32000 (platform)
	$D0 mtu=1300 (net)
	EOF

	# Neither "plat" nor "ne" is a subsystem: nothing passes
	watch_start --json --subsystem plat --subsystem ne --count 1 --timeout 3
	send_filtered 'demo_set 0 temperature 32500' 'ip link set d0 mtu 1280'
	watch_wait 20
	assert_equal "$WATCH_STATUS" 3
	run cat "$WATCH_OUT" "$WATCH_ERR"
	assert_output ''
}

@test "--list --subsystem lists the sources of that subsystem only" {
	run -0 "$KEVENT_WATCH" --list --subsystem net --format '%p %a %S'
	assert_line "$D0 mtu net"
	assert_line "/devices/virtual/net/lo carrier net"
	refute_output --partial kevent-demo
	# and every line is of subsystem net
	run grep -vc ' net$' <<<"$output"
	assert_output 0

	run -0 "$KEVENT_WATCH" --list --subsystem platform --format '%p %a %S'
	assert_line "$S2 label platform"
	refute_output --partial /net/
	assert_equal "${#lines[@]}" 9
}

@test "--path with a wildcard reports the paths it matches, and drops the others" {
	watch_start --json --path '/devices/platform/kevent-demo.*' --count 2
	send_filtered 'ip link set d0 mtu 1400'
	demo_set 2 temperature 33002
	watch_lines 1
	demo_set 0 label zero
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run reported
	assert_output - <<-EOF
	$S2 temperature=33002 (platform)
	$S0 label=zero (platform)
	EOF

	# ? and [...] too; a path the glob does not match whole is dropped
	watch_start --json --path '/devices/platform/kevent-demo.[12]' \
		--path '/devices/virtual/net/d?' --path '/devices/platform' \
		--count 1
	send_filtered 'demo_set 0 temperature 33100'
	demo_set 1 temperature 33101
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run reported
	assert_output "$S1 temperature=33101 (platform)"
}

@test "--path repeated reports the events of each path given, exact or glob, and no other" {
	watch_start --json --path "$S2" --path '/devices/virtual/net/*' --count 2
	send_filtered 'demo_set 0 temperature 34000' 'demo_set 1 temperature 34001'
	demo_set 2 label two
	watch_lines 1
	send_filtered 'demo_set 0 label zero'
	ip link set d0 mtu 1300
	watch_wait 20
	assert_equal "$WATCH_STATUS" 0
	run reported
	assert_output - <<-EOF
	$S2 label=two (platform)
	$D0 mtu=1300 (net)
	EOF

	# Three exact paths: the sensor left out is the one not named
	run -0 "$KEVENT_WATCH" --list --path "$S0" --path "$S2" --path "$D0" \
		--format '%p'
	assert_equal "$(sort -u <<<"$output" | xargs)" "$S0 $S2 $D0"
}
