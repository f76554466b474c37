#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The attributes the kernel already announces with sysfs_notify(), carried
# by kevent.ko's probe on kernfs_notify() with no driver change: md RAID1
# over loop devices, ext4's errors_count, an hwmon alarm and fault through
# the stock hwmon_notify_event(). Names the registry lacks (md's member
# state) arrive with the id KEVENT_ATTR_ID_NONE and the class of their
# subsystem; each change is announced once; the sysfs_notify parameter
# turns the probe off; the probe is armed only while a socket listens.

setup_file()
{
	load ../test_helper/storage
	storage_setup_file
}

setup()
{
	load ../test_helper/kevent
	load ../test_helper/storage
	ynl=$KEVENT_TOP/scripts/ynl
}

teardown()
{
	watch_stop
	echo 1 > /proc/sys/debug/kprobes-optimization
	storage_teardown
	if module_loaded kevent_stock_hwmon; then rmmod kevent_stock_hwmon; fi
	if module_loaded kevent_notify_storm; then rmmod kevent_notify_storm; fi
	modules_unload
}

# records_of PATH ATTR: the events of PATH's ATTR so far, "class value" a
# line
records_of()
{
	jq -r --arg p "$1" --arg a "$2" \
		'select(.type == "event" and .path == $p and .attr == $a) |
		 "\(.class) \(.value)"' "$WATCH_OUT"
}

# probe_stat_wait NAME MIN: wait until the probe's counter NAME is MIN or more
probe_stat_wait()
{
	local i

	for ((i = 0; i < 200; i++)); do
		[ "$(probe_stat "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	echo "probe counter $1 is $(probe_stat "$1"), not $2 or more" >&2
	return 1
}

# hears_binds: the kernel tells a generic netlink family when a socket
# joins or leaves its groups (6.8 on)
hears_binds()
{
	local r major minor

	r=$(uname -r)
	major=${r%%.*}
	r=${r#*.}
	minor=${r%%.*}
	[ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 8 ]; }
}

# probe_on_ftrace: kevent.ko's probe runs on ftrace, where arming it takes
# effect at once (elsewhere it is armed for good)
probe_on_ftrace()
{
	grep ' kernfs_notify+' /sys/kernel/debug/kprobes/list | grep -q FTRACE
}

# drop_membership: a netlink socket of its own leaves the family's group
# "general", which it never joined (NETLINK_DROP_MEMBERSHIP), then closes
drop_membership()
{
	/usr/bin/python3 - <<'EOF'
import socket, struct, sys

def attrs(a):
    while len(a) >= 4:
        n, t = struct.unpack_from('HH', a)
        yield t & 0x3fff, a[4:n]
        a = a[(n + 3) & ~3:]

s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)  # NETLINK_GENERIC
s.bind((0, 0))
s.settimeout(5)
# CTRL_CMD_GETFAMILY (3), CTRL_ATTR_FAMILY_NAME (2) to GENL_ID_CTRL (0x10)
name = struct.pack('HH', 11, 2) + b'kevent\0' + b'\0'
body = struct.pack('BBH', 3, 1, 0) + name
s.send(struct.pack('IHHII', 16 + len(body), 0x10, 1, 1, 0) + body)
reply = s.recv(65536)
group = None
for t, v in attrs(reply[20:]):
    if t == 7:  # CTRL_ATTR_MCAST_GROUPS
        for _, grp in attrs(v):
            a = dict(attrs(grp))
            if a.get(1) == b'general\0':
                group = struct.unpack_from('I', a[2])[0]
if group is None:
    sys.exit("no group general of the kevent family")
s.setsockopt(270, 2, group)  # SOL_NETLINK, NETLINK_DROP_MEMBERSHIP
s.close()
EOF
}

# stock_hwmon: load kevent_stock_hwmon.ko; its hwmon directory in $HW, its
# kobject path in $HW_PATH
stock_hwmon()
{
	insmod "$KEVENT_STOCK_HWMON"
	HW=$(readlink -f /sys/devices/platform/kevent-stock-hwmon.0/hwmon/hwmon*)
	HW_PATH=${HW#/sys}
	[ -f "$HW/temp1_fault" ]
}

@test "ext4: trigger_fs_error gives errors_count, class fs, its value re-read" {
	kevent_load
	ext4_mount
	watch_start --json
	echo 1 > "/sys$FS/trigger_fs_error"
	event_wait "$FS" errors_count 1
	run records_of "$FS" errors_count
	assert_output "fs 1"
}

@test "a name the registry lacks (md's member state) keeps its name, with the id KEVENT_ATTR_ID_NONE, in the replay" {
	local base i replay

	kevent_load
	md_create
	# The probe carries announcements while a socket listens
	watch_start --json --class storage
	run --separate-stderr "$ynl" --no-schema --dump get-replay --output-json
	assert_success
	base=$(jq 'map(.seq) | max // 0' <<< "$output")
	mdadm /dev/md127 --fail "$MD_B" >/dev/null 2>&1
	# The replay holds the event once the work has sent it
	for ((i = 0; i < 100; i++)); do
		run --separate-stderr "$ynl" --no-schema --dump get-replay \
			--json "{\"seq\": $base}" --output-json
		assert_success
		jq -e --arg p "$MD/dev-${MD_B#/dev/}" 'any(.path == $p)' <<< "$output" >/dev/null && break
		sleep 0.1
	done
	replay=$output
	run jq -c --arg p "$MD/dev-${MD_B#/dev/}" \
		'map(select(.path == $p) | [."attr-name", ."attr-id", .class]) | unique' <<< "$replay"
	assert_output '[["state",4294967295,"storage"]]'
	# A name it lists has its id: degraded is entry 21 of attributes.txt
	run jq -c --arg p "$MD" 'map(select(.path == $p and ."attr-name" == "degraded") | ."attr-id") | unique' <<< "$replay"
	assert_output '[21]'
}

@test "md RAID1: fail, remove, re-add a member: degraded, array_state, sync_action and the member's state, class storage" {
	local md b

	kevent_load
	md_create
	md=$MD
	b=$MD_B
	watch_start --json
	# A write makes the array active, then clean again
	dd if=/dev/zero of=/dev/md127 bs=4k count=1 oflag=direct status=none
	event_wait "$md" array_state clean
	mdadm /dev/md127 --fail "$b" >/dev/null 2>&1
	event_wait "$md" degraded 1
	# faulty, or faulty,blocked while md waits for its metadata update
	wait_json "any(.[]; .type == \"event\" and .path == \"$md/dev-${b#/dev/}\" and
		.attr == \"state\" and (.value | startswith(\"faulty\")))"
	mdadm /dev/md127 --remove "$b" >/dev/null 2>&1
	mdadm /dev/md127 --add "$b" >/dev/null 2>&1
	event_wait "$md" sync_action recover 60
	event_wait "$md" degraded 0 60
	event_wait "$md/dev-${b#/dev/}" state in_sync
	# The recovery ends idle: the last sync_action event says so
	run records_of "$md" sync_action
	assert_equal "${lines[-1]}" "storage idle"
	# Every event of the array is of class storage
	run jq -r --arg p "$md" 'select(.type == "event" and
		(.path == $p or (.path | startswith($p + "/")))) | .class' "$WATCH_OUT"
	assert_success
	run sort -u <<< "$output"
	assert_output storage
}

@test "hwmon: the stock hwmon_notify_event() of an alarm and a fault, class power, from the kevent layer" {
	kevent_load
	stock_hwmon
	watch_start --json
	echo 81000 > "$HW/temp1_input"
	event_wait "$HW_PATH" temp1_alarm 1
	echo -273150 > "$HW/temp1_input"
	event_wait "$HW_PATH" temp1_fault 1
	event_wait "$HW_PATH" temp1_alarm 0
	run records_of "$HW_PATH" temp1_fault
	assert_output "power 1"
	run jq -c --arg p "$HW_PATH" 'select(.type == "event" and .path == $p) |
		[.attr, .source, .subsystem]' "$WATCH_OUT"
	assert_line '["temp1_fault","kevent","hwmon"]'
	assert_line '["temp1_alarm","kevent","hwmon"]'
}

@test "with kprobes left unoptimized, an announcement is one event where the probe runs on ftrace; on an int3 (an NMI) it is dropped and counted, and lockdep stays on" {
	local other

	# Where kprobes do not run on ftrace (the debug kernel), the probe is
	# an int3 until the kprobe optimizer makes it a jump, and its handler
	# runs as in an NMI, where it must take no lock
	echo 0 > /proc/sys/debug/kprobes-optimization
	kevent_load
	stock_hwmon
	watch_start --json
	other=$(probe_stat dropped_other)
	echo 81000 > "$HW/temp1_input"
	run grep ' kernfs_notify+' /sys/kernel/debug/kprobes/list
	assert_success
	if [[ $output == *FTRACE* ]]; then
		event_wait "$HW_PATH" temp1_alarm 1
		run records_of "$HW_PATH" temp1_alarm
		assert_output "power 1"
	else
		probe_stat_wait dropped_other $((other + 1))
	fi
	if [ -e /proc/lockdep_stats ]; then
		run grep -E '^ *debug_locks:' /proc/lockdep_stats
		assert_output --regexp ' 1$'
	fi
}

@test "each change is announced once: a source's own poll() wake-up is not reported again" {
	local before after

	modules_load
	watch_start --json
	before=$(probe_stat sent)
	demo_set 0 temperature 41000
	event_wait /devices/platform/kevent-demo.0 temperature 41000
	# Long enough for a second event to follow the first
	sleep 1
	run events /devices/platform/kevent-demo.0 temperature
	assert_output 41000
	after=$(probe_stat sent)
	assert_equal "$after" "$before"
}

@test "kevent.ko sysfs_notify=0: the probe is off, and a stock announcement sends nothing" {
	local sent

	kevent_load sysfs_notify=0
	run probe_stat probe
	assert_output off
	stock_hwmon
	sent=$(layer_stat sent)
	echo 81000 > "$HW/temp1_input"
	[ "$(cat "$HW/temp1_alarm")" = 1 ]
	sleep 1
	assert_equal "$(layer_stat sent)" "$sent"
}

@test "the probe is armed while a socket listens: a join arms it before it returns, within two seconds of the last leaving it is disarmed (before 6.8 or off ftrace, armed always)" {
	local sent

	kevent_load
	stock_hwmon
	if ! hears_binds || ! probe_on_ftrace; then
		# The family cannot hear of its listeners, or an int3 would
		# drop what comes before the optimizer: armed for good
		run probe_stat armed
		assert_output yes
		return 0
	fi
	run probe_stat armed
	assert_output no
	watch_start --json --attr temp1_alarm
	run probe_stat armed
	assert_output yes
	# The first announcement once it listens is carried
	echo 81000 > "$HW/temp1_input"
	event_wait "$HW_PATH" temp1_alarm 1
	watch_stop
	probe_armed_wait no
	# Disarmed, an announcement is no event
	sent=$(probe_stat sent)
	echo 20000 > "$HW/temp1_input"
	[ "$(cat "$HW/temp1_alarm")" = 0 ]
	sleep 1
	assert_equal "$(probe_stat sent)" "$sent"
}

@test "a socket leaving a group it never joined does not disarm the probe while another listens" {
	# Before 6.8 or off ftrace the probe is armed for good: the same holds
	# there
	kevent_load
	stock_hwmon
	watch_start --json --attr temp1_alarm
	run probe_stat armed
	assert_output yes
	drop_membership
	# Longer than the delay after which a leave disarms
	sleep 2.5
	run probe_stat armed
	assert_output yes
	echo 81000 > "$HW/temp1_input"
	event_wait "$HW_PATH" temp1_alarm 1
}

@test "kevent.ko unloaded while a resync notifies sync_completed, with nodes in their window: no report, and it loads again" {
	kevent_load coalesce_ms=3000
	watch_start --json --class storage
	md_resync_slowly
	# sync_completed and the others are in the table, in their window
	probe_stat_wait sent 1
	probe_stat_wait nodes 1
	rmmod kevent
	run module_loaded kevent
	assert_failure
	kevent_load
	watch_stop
	watch_start --json --class storage
	# The next announcement of the array is carried again
	mdadm /dev/md127 --fail "$MD_B" >/dev/null 2>&1
	probe_stat_wait sent 1
}

@test "an array stopped while its events are held in their window: the events are dropped and counted, no report" {
	local removed

	kevent_load coalesce_ms=3000
	watch_start --json --class storage
	md_resync_slowly
	probe_stat_wait sent 1
	removed=$(probe_stat dropped_removed)
	# Within the window of the events of its creation: the stop's own
	# announcements wait for the window, and its nodes go meanwhile
	md_stop
	[ ! -e "/sys$MD" ]
	probe_stat_wait dropped_removed $((removed + 1))
	# Every node left the table once its window ended
	for ((i = 0; i < 100; i++)); do
		[ "$(probe_stat nodes)" -eq 0 ] && break
		sleep 0.1
	done
	assert_equal "$(probe_stat nodes)" 0
}

@test "300 attributes announced at once: 256 wait, the others are dropped and counted, and a listener sees them lost" {
	local storm=/kernel/kevent_notify_storm full before after lost n i

	# Each node stays in the table for its window: none leaves it before
	# the 300 notifications are done
	kevent_load coalesce_ms=2000
	insmod "$KEVENT_NOTIFY_STORM" files=300
	watch_start --json --class general
	# A first event of the class: the listener counts from its number
	echo 1 > "/sys$storm/notify"
	event_wait "$storm" f0 0
	before=$(probe_stat dropped_full)
	echo 300 > "/sys$storm/notify"
	after=$(probe_stat dropped_full)
	full=$((after - before))
	[ "$full" -ge 44 ] || fail "dropped_full went from $before to $after, not 44 more"
	# f0 once more: an event of the class after every loss, in its window
	# or not
	echo 1 > "/sys$storm/notify"
	wait_json 'any(.[]; .type == "overrun")' 30
	# The files that found room each have their event
	for ((i = 0; i < 300; i++)); do
		n=$(jq -r --arg p "$storm" 'select(.type == "event" and .path == $p) | .attr' "$WATCH_OUT" | sort -u | wc -l)
		[ $((n + full)) -ge 300 ] && break
		sleep 0.1
	done
	[ $((n + full)) -ge 300 ] || fail "$n files have events and $full were dropped: some of the 300 went missing"
	[ "$n" -le 256 ] || fail "$n files have events, more than the table's 256 slots"
	# Every one dropped is a loss the listener is told of
	lost=$(jq -s '[.[] | select(.type == "overrun") | .lost] | add // 0' "$WATCH_OUT")
	assert_equal "$lost" "$full"
}
