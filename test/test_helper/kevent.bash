# SPDX-License-Identifier: GPL-2.0
# Helpers of the VM suites: load the modules, drive the sensors of the demo
# or of the test driver, run kevent-watch in the background and wait for what
# it prints.

load ../test_helper/common

# sleep as a builtin (bash's loadable sleep, from bash-builtins): the tests
# wait in loops of sleep 0.1, and under emulation each process started costs
# a twentieth of a second or more. The external sleep where there is none.
enable -f /usr/lib/bash/sleep sleep 2>/dev/null || true

KEVENT_WATCH=$KEVENT_TOP/userspace/cli/kevent-watch
# The modules to load: kevent's (kevent.ko, kevent_demo.ko, ...) and the
# kernel's test_power.ko, built for the kernel the VM boots. The debug run
# (scripts/vm/run-bats --debug) points these at the debug kernel's builds.
KEVENT_MODULE_DIR=${KEVENT_MODULE_DIR:-$KEVENT_TOP/kernel}
KEVENT_TEST_POWER=${KEVENT_TEST_POWER:-$KEVENT_TOP/build/test_power/test_power.ko}
# kevent_test.ko, the test driver of test/kernel/
KEVENT_TEST_DRIVER=${KEVENT_TEST_DRIVER:-$KEVENT_TOP/build/kevent-test/kevent_test.ko}
# kevent_stock_hwmon.ko, built with it: an hwmon sensor that uses no kevent
KEVENT_STOCK_HWMON=${KEVENT_TEST_DRIVER%/*}/kevent_stock_hwmon.ko
# kevent_notify_storm.ko, built with it: many files announced at once with
# sysfs_notify(), with no use of kevent
KEVENT_NOTIFY_STORM=${KEVENT_TEST_DRIVER%/*}/kevent_notify_storm.ko
# kevent_sensor_test.ko, built with it: the demo's sensors, named
# kevent-sensor-test.N, with the controls that exist only for tests and
# benchmarks (storm, notify, churn, bench) and the extra_sources parameter
KEVENT_SENSOR_TEST=${KEVENT_TEST_DRIVER%/*}/kevent_sensor_test.ko
# The layer built into the kernel (CONFIG_KEVENT=y, the kernel of
# scripts/vm/run-bats --upstream) rather than kevent.ko: set by run-bats, or
# seen in sysfs, where a built-in module's directory has no initstate
if [ -z "${KEVENT_BUILTIN:-}" ] && [ -d /sys/module/kevent ] &&
	! [ -e /sys/module/kevent/initstate ]; then
	KEVENT_BUILTIN=1
fi
KEVENT_BUILTIN=${KEVENT_BUILTIN:-}
TEST_DBG=/sys/kernel/debug/kevent_test
DEMO_SYS=/sys/devices/platform
DEMO_DBG=/sys/kernel/debug/kevent_demo
SENSOR_TEST_DBG=/sys/kernel/debug/kevent_sensor_test

# module_loaded NAME: module NAME is loaded (not built in: a built-in module
# has no initstate). As lsmod | grep would say, without starting a process,
# which under emulation costs a tenth of a second.
module_loaded()
{
	[ -e "/sys/module/$1/initstate" ]
}

# kevent_load [PARAMS...]: insert kevent.ko with PARAMS, unless it is loaded
# or the layer is built in
kevent_load()
{
	[ -z "$KEVENT_BUILTIN" ] || return 0
	module_loaded kevent || insmod "$KEVENT_MODULE_DIR/kevent.ko" "$@"
}

# modules_load [DEMO_PARAMS...]: insert kevent.ko and kevent_demo.ko, the
# example driver: sensors kevent-demo.N, controls temperature, label, unplug
modules_load()
{
	kevent_load
	module_loaded kevent_demo ||
		insmod "$KEVENT_MODULE_DIR/kevent_demo.ko" "$@"
}

# sensor_test_load [PARAMS...]: insert kevent.ko and the test driver
# kevent_sensor_test.ko: sensors kevent-sensor-test.N, with every control
sensor_test_load()
{
	kevent_load
	module_loaded kevent_sensor_test ||
		insmod "$KEVENT_SENSOR_TEST" "$@"
}

# modules_unload: remove the sensor drivers and kevent.ko if they are loaded
# (a built-in layer stays)
modules_unload()
{
	if module_loaded kevent_demo; then rmmod kevent_demo; fi
	if module_loaded kevent_sensor_test; then rmmod kevent_sensor_test; fi
	if [ -z "$KEVENT_BUILTIN" ] && module_loaded kevent; then
		rmmod kevent
	fi
}

# demo_set N CONTROL VALUE: write VALUE to the debugfs CONTROL of demo
# sensor N
demo_set()
{
	printf '%s' "$3" > "$DEMO_DBG/kevent-demo.$1/$2"
}

# sensor_test_set N CONTROL VALUE: write VALUE to the debugfs CONTROL of the
# test driver's sensor N
sensor_test_set()
{
	printf '%s' "$3" > "$SENSOR_TEST_DBG/kevent-sensor-test.$1/$2"
}

# is_waiting PID: the process sleeps in a poll, epoll or receive call, as
# kevent-watch does once it has joined its groups and waits for events.
# Not read(): the dynamic loader sleeps in it as it reads a library from the
# guest's 9p root, long before the process joins any group.
is_waiting()
{
	local nr

	read -r nr _ < "/proc/$1/syscall" 2>/dev/null || return 1
	case $nr in
	7 | 45 | 47 | 232 | 270 | 271 | 281) return 0 ;;
	esac
	return 1
}

# watch_spawn CMD...: run CMD, a kevent-watch command line, in the
# background, its stdout in $WATCH_OUT and stderr in $WATCH_ERR; return once
# it waits for events (within WATCH_START_SECS, 10 by default)
watch_spawn()
{
	local i

	WATCH_OUT=$BATS_TEST_TMPDIR/watch.out
	WATCH_ERR=$BATS_TEST_TMPDIR/watch.err
	"$@" > "$WATCH_OUT" 2> "$WATCH_ERR" 3>&- &
	WATCH_PID=$!
	for ((i = 0; i < ${WATCH_START_SECS:-10} * 10; i++)); do
		is_waiting "$WATCH_PID" && return 0
		kill -0 "$WATCH_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "kevent-watch did not start waiting for events" >&2
	cat "$WATCH_ERR" >&2
	return 1
}

# watch_spawn_valgrind LOG CMD...: watch_spawn CMD under valgrind, which
# writes its report to LOG and exits 99 on an error or a definite or
# indirect leak. Under valgrind a start can take tens of seconds on a busy
# host: it may take a minute (WATCH_START_SECS, if set, still wins).
watch_spawn_valgrind()
{
	local log=$1

	shift
	WATCH_START_SECS=${WATCH_START_SECS:-60} watch_spawn valgrind -q \
		--error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --log-file="$log" "$@"
}

# watch_start ARGS...: watch_spawn kevent-watch ARGS
watch_start()
{
	watch_spawn "$KEVENT_WATCH" "$@"
}

# watch_start_as UID ARGS...: watch_start as the unprivileged user UID
watch_start_as()
{
	local uid=$1

	shift
	chmod 0777 "$BATS_TEST_TMPDIR"
	watch_spawn setpriv --reuid="$uid" --regid=65534 --clear-groups \
		"$KEVENT_WATCH" "$@"
}

# lines_at_least FILE N: FILE has N whole lines or more, as wc -l counts
# them; in the shell, with no process started
lines_at_least()
{
	local -a l
	local n

	mapfile l < "$1"
	n=${#l[@]}
	[ "$n" -eq 0 ] || [[ ${l[n - 1]} == *$'\n' ]] || n=$((n - 1))
	[ "$n" -ge "$2" ]
}

# watched_wait FILE [SECS]: wait until kevent-watch has FILE open, watched
watched_wait()
{
	local i fd

	# The file itself, not one removed from there: a sysfs file's link
	# keeps its path when it goes, so its inode tells them apart
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		for fd in $(find "/proc/$WATCH_PID/fd" -lname "$1" 2>/dev/null); do
			[ "$(stat -L -c %i "$fd" 2>/dev/null)" = \
				"$(stat -c %i "$1" 2>/dev/null)" ] && return 0
		done
		sleep 0.1
	done
	echo "kevent-watch does not watch $1" >&2
	return 1
}

# watch_lines N [SECS]: wait until kevent-watch has printed N lines
watch_lines()
{
	local n=$1 secs=${2:-20} i

	for ((i = 0; i < secs * 10; i++)); do
		lines_at_least "$WATCH_OUT" "$n" && return 0
		sleep 0.1
	done
	echo "kevent-watch printed $(wc -l < "$WATCH_OUT") lines, not $n:" >&2
	cat "$WATCH_OUT" "$WATCH_ERR" >&2
	return 1
}

# watch_wait [SECS]: wait for kevent-watch to exit; its status in WATCH_STATUS
watch_wait()
{
	local secs=${1:-20} i

	for ((i = 0; i < secs * 10; i++)); do
		if ! kill -0 "$WATCH_PID" 2>/dev/null; then
			wait "$WATCH_PID" && WATCH_STATUS=0 || WATCH_STATUS=$?
			return 0
		fi
		sleep 0.1
	done
	echo "kevent-watch still runs after $secs s" >&2
	return 1
}

# watch_stop: end a kevent-watch still running (test teardown)
watch_stop()
{
	if [ -n "${WATCH_PID:-}" ] && kill -0 "$WATCH_PID" 2>/dev/null; then
		kill "$WATCH_PID" 2>/dev/null || true
		wait "$WATCH_PID" 2>/dev/null || true
	fi
	WATCH_PID=
}

# strace_attach STRACE-ARGS...: trace the running kevent-watch with strace
# and STRACE-ARGS (such as -c -e trace=recvmsg) from now on, its output in
# STRACE_OUT; return once strace is attached and the watcher waits again
strace_attach()
{
	local deadline=$((SECONDS + 20))

	STRACE_OUT=$BATS_TEST_TMPDIR/strace.out
	strace "$@" -o "$STRACE_OUT" -p "$WATCH_PID" \
		2> "$BATS_TEST_TMPDIR/strace.err" 3>&- &
	STRACE_PID=$!
	until grep -q attached "$BATS_TEST_TMPDIR/strace.err"; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			cat "$BATS_TEST_TMPDIR/strace.err" >&2
			return 1
		fi
		sleep 0.1
	done
	# The attach interrupts the watcher's poll once: let it settle
	sleep 0.5
}

# strace_detach: end the trace, its output complete in STRACE_OUT
strace_detach()
{
	kill -INT "$STRACE_PID"
	wait "$STRACE_PID" || true
	STRACE_PID=
}

# strace_stop: end a trace still running (test teardown)
strace_stop()
{
	if [ -n "${STRACE_PID:-}" ]; then
		kill "$STRACE_PID" 2>/dev/null || true
		wait "$STRACE_PID" 2>/dev/null || true
	fi
	STRACE_PID=
}

# The bridge (kevent_bridge.ko) and the events of its sources

# bridge_load: insert kevent.ko, then kevent_bridge.ko
bridge_load()
{
	kevent_load
	module_loaded kevent_bridge ||
		insmod "$KEVENT_MODULE_DIR/kevent_bridge.ko"
}

# bridge_unload: remove kevent_bridge.ko, then the others
bridge_unload()
{
	if module_loaded kevent_bridge; then rmmod kevent_bridge; fi
	modules_unload
}

# layer_stat NAME: one counter of the layer (test/tools/kevent-stats), such
# as sent, failed or sources
layer_stat()
{
	"$KEVENT_TOP/test/tools/kevent-stats" | awk -v n="$1" '$1 == n { print $2 }'
}

# probe_stat NAME: a line of the hook on kernfs_notify() in debugfs
# (/sys/kernel/debug/kevent/sysfs_notify): armed, sent, dropped_full, ...
probe_stat()
{
	awk -v n="$1" '$1 == n { print $2 }' /sys/kernel/debug/kevent/sysfs_notify
}

# probe_armed_wait yes|no: wait until the hook's "armed" line says so
probe_armed_wait()
{
	local i

	for ((i = 0; i < 100; i++)); do
		[ "$(probe_stat armed)" = "$1" ] && return 0
		sleep 0.1
	done
	echo "the hook's armed line is $(probe_stat armed), not $1" >&2
	return 1
}

# sources: "PATH ATTR" of every annotated source, from --list
sources()
{
	"$KEVENT_WATCH" --list --json |
		jq -r 'select(.type == "state") | "\(.path) \(.attr)"'
}

# events PATH ATTR: the values of the events of PATH's ATTR so far, one a
# line ("null" when it could not be read)
events()
{
	jq -r --arg p "$1" --arg a "$2" \
		'select(.type == "event" and .path == $p and .attr == $a) | .value' \
		"$WATCH_OUT"
}

# event_wait PATH ATTR VALUE [SECS]: wait for an event of PATH's ATTR whose
# value was VALUE
event_wait()
{
	local secs=${4:-20} i

	for ((i = 0; i < secs * 10; i++)); do
		events "$1" "$2" | grep -qxF -- "$3" && return 0
		sleep 0.1
	done
	echo "no event $1 $2 with value '$3' after $secs s:" >&2
	cat "$WATCH_OUT" "$WATCH_ERR" >&2
	return 1
}

# wait_json FILTER [SECS]: wait until the records kevent-watch printed, as
# one array, make the jq FILTER true
wait_json()
{
	local secs=${2:-30} i

	for ((i = 0; i < secs * 10; i++)); do
		jq -e -s "$1" "$WATCH_OUT" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "no output made '$1' true:" >&2
	cat "$WATCH_OUT" "$WATCH_ERR" >&2
	return 1
}
