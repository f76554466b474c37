#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-dbus on a real system bus (dbus-daemon --system, started here as a
# plain process with the service's policy installed): an object per demo
# sensor whose properties are its attributes, PropertiesChanged with the
# value read when the kernel announces a change, InterfacesAdded and
# InterfacesRemoved as devices come and go, a client of Debian's Python
# bindings, a reader who may not own the name, and values that are not
# UTF-8.
# shellcheck disable=SC2016,SC2030,SC2031 # a Python program in single quotes;
# KDBUS_PID, set again by a test

KDBUS=$BATS_TEST_DIRNAME/../../userspace/dbus/kevent-dbus
OBJ0=/org/kevent1/source/_2fdevices_2fplatform_2fkevent_2ddemo_2e0
OBJ1=/org/kevent1/source/_2fdevices_2fplatform_2fkevent_2ddemo_2e1

setup_file()
{
	# The system bus as the distribution configures it, with the
	# service's policy beside the others (the guest's root is an
	# overlay: nothing reaches the host)
	cp "$BATS_TEST_DIRNAME/../../userspace/dbus/org.kevent1.conf" \
		/etc/dbus-1/system.d/
	mkdir -p /run/dbus
	rm -f /run/dbus/pid
	dbus-daemon --system --fork
}

teardown_file()
{
	local pid

	read -r pid </run/dbus/pid && kill "$pid"
	rm -f /run/dbus/pid /etc/dbus-1/system.d/org.kevent1.conf
}

setup()
{
	load ../test_helper/kevent
	modules_unload
	modules_load
	MONITOR_PID=
}

teardown()
{
	[ -z "$MONITOR_PID" ] || kill "$MONITOR_PID" 2>/dev/null || true
	kdbus_stop
	modules_unload
}

# kdbus_start [ARGS...]: start kevent-dbus (under valgrind when
# KDBUS_VALGRIND is set, its report in $KDBUS_VALGRIND), stderr in
# $KDBUS_ERR; return once it owns its name (within 60 s)
kdbus_start()
{
	local i cmd=("$KDBUS")

	KDBUS_ERR=$BATS_TEST_TMPDIR/kevent-dbus.err
	# shellcheck disable=SC2054 # a comma in an option
	[ -z "${KDBUS_VALGRIND:-}" ] ||
		cmd=(valgrind -q --error-exitcode=99 --leak-check=full
			--errors-for-leak-kinds=definite,indirect
			--log-file="$KDBUS_VALGRIND" "$KDBUS")
	"${cmd[@]}" "$@" 2>"$KDBUS_ERR" &
	KDBUS_PID=$!
	for ((i = 0; i < 600; i++)); do
		[ "$(busctl --system call org.freedesktop.DBus / \
			org.freedesktop.DBus NameHasOwner s org.kevent1 \
			2>/dev/null)" != 'b true' ] || return 0
		kill -0 "$KDBUS_PID" 2>/dev/null ||
			fail "kevent-dbus ended: $(cat "$KDBUS_ERR")"
		sleep 0.1
	done
	fail "kevent-dbus did not own org.kevent1 within 60 s"
}

kdbus_stop()
{
	if [ -n "${KDBUS_PID:-}" ] && kill -0 "$KDBUS_PID" 2>/dev/null; then
		kill "$KDBUS_PID"
		wait "$KDBUS_PID" || fail "kevent-dbus exited with $? on SIGTERM"
	fi
	KDBUS_PID=
}

# monitor_start [ARGS...]: the service's messages as busctl monitor sees
# them (or those ARGS, such as a --match, select), one JSON message a line,
# in $MONITOR_OUT
monitor_start()
{
	local i

	MONITOR_OUT=$BATS_TEST_TMPDIR/monitor.json
	[ "$#" -gt 0 ] || set -- org.kevent1
	busctl --system monitor --json=short "$@" >"$MONITOR_OUT" 2>&1 &
	MONITOR_PID=$!
	# It waits in poll() once it is a monitor of the bus
	for ((i = 0; i < 200; i++)); do
		is_waiting "$MONITOR_PID" && return 0
		sleep 0.1
	done
	fail "busctl monitor did not start: $(cat "$MONITOR_OUT")"
}

# monitor_wait JQ: wait (up to 20 s) for a signal for which the jq filter
# JQ is true
monitor_wait()
{
	local i

	for ((i = 0; i < 200; i++)); do
		jq -e -n -R "[inputs | fromjson? | select($1)] | length > 0" \
			"$MONITOR_OUT" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	fail "no signal with $1 in: $(cat "$MONITOR_OUT")"
}

@test "kevent-dbus serves an object per demo sensor, its attributes properties read when asked" {
	kdbus_start
	run -0 busctl --system tree --list org.kevent1
	assert_line "$OBJ0"
	assert_line "$OBJ1"
	run -0 busctl --system get-property org.kevent1 "$OBJ0" org.kevent1.Source temperature
	assert_output 's "25000"'
	run -0 busctl --system get-property org.kevent1 "$OBJ1" org.kevent1.Source label
	assert_output 's "sensor 1"'
	run -0 busctl --system introspect org.kevent1 "$OBJ0" org.kevent1.Source
	assert_line --regexp '^\.temperature +property +s +"25000" +emits-change'
	run -0 busctl --system call org.kevent1 /org/kevent1 \
		org.freedesktop.DBus.ObjectManager GetManagedObjects
	assert_output --partial "\"$OBJ0\""
}

@test "a temperature change is a PropertiesChanged signal of the sensor's object with the new value, under valgrind" {
	KDBUS_VALGRIND=$BATS_TEST_TMPDIR/valgrind.log kdbus_start
	monitor_start
	demo_set 0 temperature 31000
	monitor_wait '.member == "PropertiesChanged" and .path == "'"$OBJ0"'" and (.payload.data[1].temperature.data == "31000")'
	run -0 busctl --system get-property org.kevent1 "$OBJ0" org.kevent1.Source temperature
	assert_output 's "31000"'
	# SIGTERM: status 0, nothing valgrind reports
	kdbus_stop
	run cat "$BATS_TEST_TMPDIR/valgrind.log"
	assert_output ''
}

@test "a Python client of Debian's dbus bindings receives the change and reads it with Get and GetAll" {
	local i

	kdbus_start
	python3 -c '
import sys, dbus, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
obj = bus.get_object("org.kevent1", sys.argv[1])
props = dbus.Interface(obj, "org.freedesktop.DBus.Properties")
loop = GLib.MainLoop()
seen = []
def changed(iface, values, invalidated):
    if "temperature" in values:
        seen.append(str(values["temperature"]))
        loop.quit()
props.connect_to_signal("PropertiesChanged", changed)
open(sys.argv[2], "w").close()
GLib.timeout_add_seconds(30, loop.quit)
loop.run()
print("signal", *seen)
print("get", props.Get("org.kevent1.Source", "temperature"))
all = props.GetAll("org.kevent1.Source")
print("getall", all["temperature"], all["label"])
' "$OBJ0" "$BATS_TEST_TMPDIR/ready" >"$BATS_TEST_TMPDIR/client.out" 2>&1 &
	MONITOR_PID=$!
	for ((i = 0; i < 300; i++)); do
		[ ! -e "$BATS_TEST_TMPDIR/ready" ] || break
		sleep 0.1
	done
	demo_set 0 temperature 42000
	wait "$MONITOR_PID" || fail "the client failed: $(cat "$BATS_TEST_TMPDIR/client.out")"
	MONITOR_PID=
	run cat "$BATS_TEST_TMPDIR/client.out"
	assert_output $'signal 42000\nget 42000\ngetall 42000 sensor 0'
}

@test "an unplugged sensor's object leaves the bus with InterfacesRemoved" {
	kdbus_start
	monitor_start
	demo_set 1 unplug 1
	monitor_wait '.member == "InterfacesRemoved" and .payload.data[0] == "'"$OBJ1"'"'
	run -0 busctl --system tree --list org.kevent1
	refute_line "$OBJ1"
	assert_line "$OBJ0"
}

@test "--stock: a dummy network device added is InterfacesAdded with its values, deleted InterfacesRemoved" {
	local obj

	kdbus_start --stock
	monitor_start
	ip link add kdb0 type dummy
	monitor_wait '.member == "InterfacesAdded" and (.payload.data[0] | endswith("_2fnet_2fkdb0"))'
	obj=$(jq -r -R 'fromjson? | select(.member == "InterfacesAdded") |
		.payload.data[0]' "$MONITOR_OUT" | grep '_2fkdb0$')
	run -0 busctl --system get-property org.kevent1 "$obj" org.kevent1.Source mtu
	assert_output 's "1500"'
	ip link set kdb0 mtu 1400
	monitor_wait '.member == "PropertiesChanged" and .path == "'"$obj"'" and (.payload.data[1].mtu.data == "1400")'
	ip link del kdb0
	monitor_wait '.member == "InterfacesRemoved" and .payload.data[0] == "'"$obj"'"'
}

@test "an unprivileged user reads the values but cannot own org.kevent1" {
	kdbus_start
	run -0 setpriv --reuid=65534 --regid=65534 --clear-groups \
		busctl --system get-property org.kevent1 "$OBJ0" org.kevent1.Source temperature
	assert_output 's "25000"'
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		busctl --system call org.freedesktop.DBus /org/freedesktop/DBus \
		org.freedesktop.DBus RequestName su org.kevent1 0
	assert_failure
	assert_output 'Call failed: Access denied'
}

@test "a label with a newline, bytes that are not UTF-8 and bidi controls reaches a client, the connection intact" {
	kdbus_start
	monitor_start
	# One write (bash's printf writes up to each newline)
	printf 'a\nb\xff\xe2\x80\xaec' >"$BATS_TEST_TMPDIR/label"
	cat "$BATS_TEST_TMPDIR/label" >"$DEMO_DBG/kevent-demo.0/label"
	monitor_wait '.member == "PropertiesChanged" and .path == "'"$OBJ0"'" and (.payload.data[1].label != null)'
	run -0 busctl --system --json=short get-property org.kevent1 "$OBJ0" org.kevent1.Source label
	assert_output "$(printf '{"type":"s","data":"a\\nb\xef\xbf\xbd\xe2\x80\xaec"}')"
	# Still served
	run -0 busctl --system get-property org.kevent1 "$OBJ0" org.kevent1.Source temperature
	assert_output 's "25000"'
}

@test "kevent-dbus killed and started again: its name's owner goes and comes back, and the values are current" {
	local match="type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.kevent1'"

	kdbus_start
	monitor_start --match "$match"
	kill -KILL "$KDBUS_PID"
	wait "$KDBUS_PID" || true
	KDBUS_PID=
	monitor_wait '.member == "NameOwnerChanged" and .payload.data[0] == "org.kevent1" and .payload.data[2] == ""'
	# A change while nobody serves
	demo_set 0 temperature 33000
	kdbus_start
	monitor_wait '.member == "NameOwnerChanged" and .payload.data[0] == "org.kevent1" and .payload.data[1] == "" and .payload.data[2] != ""'
	run -0 busctl --system get-property org.kevent1 "$OBJ0" org.kevent1.Source temperature
	assert_output 's "33000"'
}

@test "--rcvbuf 4096 and a storm while kevent-dbus is stopped: it says events were lost, and the final value is signalled" {
	local obj=/org/kevent1/source/_2fdevices_2fplatform_2fkevent_2dsensor_2dtest_2e0 final i

	modules_unload
	sensor_test_load
	# No coalescing window: the storm becomes as many events as it can
	echo 0 >/sys/module/kevent/parameters/coalesce_ms
	kdbus_start --rcvbuf 4096
	monitor_start
	kill -STOP "$KDBUS_PID"
	sensor_test_set 0 storm 100000
	# 40 events sent one by one make the overflow certain (overrun.bats)
	for ((i = 0; i < 40; i++)); do
		sensor_test_set 0 notify label
	done
	kill -CONT "$KDBUS_PID"
	final=$(cat /sys/devices/platform/kevent-sensor-test.0/temperature)
	assert_equal "$final" $((25000 + 100000))
	monitor_wait '.member == "PropertiesChanged" and .path == "'"$obj"'" and (.payload.data[1].temperature.data == "'"$final"'")'
	run cat "$KDBUS_ERR"
	assert_line --regexp '^kevent-dbus: events were lost \(kevent\), reading every value again$'
}
