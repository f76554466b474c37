#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch --exec: a command for each record, with its fields in the
# environment, run one at a time; failures and timeouts are reported and
# the watch goes on; nothing is left running or unreaped.
# shellcheck disable=SC2016 # the commands are for the shell of --exec

setup()
{
	load ../test_helper/kevent
	sensor_test_load
}

teardown()
{
	watch_stop
}

teardown_file()
{
	load ../test_helper/kevent
	modules_unload
}

# wait_until SECS CMD...: run CMD until it succeeds, for at most SECS seconds
wait_until()
{
	local end=$((SECONDS + $1))

	shift
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "still not true after $((end - SECONDS)) s: $*" >&2
			return 1
		fi
		sleep 0.05
	done
}

# watch_end SECS: wait for kevent-watch to exit; its status in WATCH_STATUS
watch_end()
{
	if ! wait_until "$1" not_running "$WATCH_PID"; then
		cat "$WATCH_OUT" "$WATCH_ERR" >&2
		return 1
	fi
	wait "$WATCH_PID" && WATCH_STATUS=0 || WATCH_STATUS=$?
	WATCH_PID=
}

# not_running PID: the process is gone, or a zombie (its parent's to reap)
not_running()
{
	local stat

	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	[[ ${stat##*) } == Z* ]]
}

# fds PID: the descriptors of PID, in numeric order
fds()
{
	local f
	local -a fd=()

	for f in /proc/"$1"/fd/*; do
		fd[${f##*/}]=1
	done
	echo "${!fd[*]}"
}

# fds_without_cloexec PID: the descriptors of PID that an exec keeps
fds_without_cloexec()
{
	local f key value
	local -a fd=()

	for f in /proc/"$1"/fdinfo/*; do
		while read -r key value; do
			# O_CLOEXEC is 02000000
			[ "$key" = flags: ] &&
				(((8#$value & 8#2000000) == 0)) &&
				fd[${f##*/}]=1
		done < "$f"
	done
	echo "${!fd[*]}"
}

# has_socket PID: one of the descriptors of PID is a socket
has_socket()
{
	local f

	for f in /proc/"$1"/fd/*; do
		[ -S "$f" ] && return 0
	done
	return 1
}

# pgid PID: the process group of PID
pgid()
{
	local stat

	read -r stat < "/proc/$1/stat"
	# shellcheck disable=SC2086 # the fields after the command name
	set -- ${stat##*) }
	echo "$3"
}

# child_of PID NAME: the pid of PID's child named NAME in $child
child_of()
{
	child=$(pgrep -P "$1" -x "$2") && [ -n "$child" ]
}

@test "a temperature event runs the command with the event's fields in KEVENT_ variables" {
	env_out=$BATS_TEST_TMPDIR/env
	# Variables of these names in kevent-watch's environment are replaced
	KEVENT_VALUE=stale KEVENT_ERROR=stale watch_start --count 1 \
		--exec "env | grep '^KEVENT_' | sort > '$env_out'"
	sensor_test_set 0 temperature 31500
	watch_end 20
	assert_equal "$WATCH_STATUS" 0
	# --exec without --json or --format prints no line of its own
	run cat "$WATCH_OUT"
	assert_output ""
	run cat "$env_out"
	assert_line KEVENT_TYPE=event
	assert_line KEVENT_SOURCE=kevent
	assert_line --regexp '^KEVENT_SEQ=[1-9][0-9]*$'
	assert_line --regexp '^KEVENT_TIME=[0-9]+\.[0-9]{6}$'
	assert_line KEVENT_CLASS=power
	assert_line KEVENT_PATH=/devices/platform/kevent-sensor-test.0
	assert_line KEVENT_ATTR=temperature
	assert_line KEVENT_VALUE=31500
	assert_line KEVENT_ERROR=
	assert_line KEVENT_UNIT=mdegC
	assert_line KEVENT_SUBSYSTEM=platform
	assert_line KEVENT_COALESCED=0
	run grep -c '^KEVENT_VALUE=' "$env_out"
	assert_output 1
}

@test "with --json each line comes before its command's output, and commands run one at a time in order" {
	watch_start --json --count 3 --exec \
		'echo "start $KEVENT_SEQ $KEVENT_VALUE"; sleep 0.1; echo "end $KEVENT_SEQ"'
	sensor_test_set 0 temperature 31001
	sensor_test_set 1 temperature 31002
	sensor_test_set 0 label third
	watch_end 30
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 9
	prev=0
	values=
	json='^\{"type":"event",.*"seq":([0-9]+),.*"value":"([^"]*)",'
	for i in 0 3 6; do
		[[ ${lines[i]} =~ $json ]] || fail "not an event: ${lines[i]}"
		seq=${BASH_REMATCH[1]}
		value=${BASH_REMATCH[2]}
		assert [ "$seq" -gt "$prev" ]
		# The variables hold what the line shows
		assert_equal "${lines[i + 1]}" "start $seq $value"
		assert_equal "${lines[i + 2]}" "end $seq"
		prev=$seq
		values+="$value "
	done
	assert_equal "$(tr ' ' '\n' <<<"$values" | sort | xargs)" \
		"31001 31002 third"
}

@test "with --format each line comes before its command's output, in the format, and the command sees what the line shows" {
	watch_start --count 2 --format '%s\t%a=%v %u' \
		--exec 'echo "ran $KEVENT_SEQ $KEVENT_ATTR=$KEVENT_VALUE $KEVENT_UNIT"'
	sensor_test_set 0 temperature 31001
	watch_lines 2
	sensor_test_set 1 label second
	watch_end 30
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 4
	format=$'^([1-9][0-9]*)\t(temperature=31001 mdegC|label=second )$'
	prev=0
	for i in 0 2; do
		[[ ${lines[i]} =~ $format ]] || fail "not the format: '${lines[i]}'"
		seq=${BASH_REMATCH[1]}
		assert [ "$seq" -gt "$prev" ]
		# The command's line follows, with the same fields
		assert_equal "${lines[i + 1]}" "ran $seq ${BASH_REMATCH[2]}"
		prev=$seq
	done
	assert_regex "${lines[0]}" $'\ttemperature=31001 mdegC$'
	assert_regex "${lines[2]}" $'\tlabel=second $'
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "--format and --exec with --coldplug: a line in the format, then the command, for each state" {
	watch_start --coldplug --count 1 --format 'state %p %a' \
		--exec 'echo "ran $KEVENT_TYPE $KEVENT_PATH $KEVENT_ATTR"'
	sensor_test_set 0 label live
	watch_end 30
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 14
	for i in 0 2 4 6 8 10; do
		[[ ${lines[i]} =~ ^state\ (/devices/platform/kevent-sensor-test\.[01]\ (temperature|label|calibration))$ ]] ||
			fail "not a state line: '${lines[i]}'"
		assert_equal "${lines[i + 1]}" "ran state ${BASH_REMATCH[1]}"
	done
	assert_equal "${lines[12]}" "state /devices/platform/kevent-sensor-test.0 label"
	assert_equal "${lines[13]}" "ran event /devices/platform/kevent-sensor-test.0 label"
}

@test "a command that fails or is killed by a signal is reported on stderr, and the watch goes on" {
	watch_start --exec 'echo "ran $KEVENT_VALUE"
		case $KEVENT_VALUE in 32001) exit 3 ;; 32002) kill -KILL $$ ;; esac'
	sensor_test_set 0 temperature 32001
	wait_until 20 grep -q 'exited with status 3$' "$WATCH_ERR"
	sensor_test_set 1 temperature 32002
	wait_until 20 grep -q 'killed by signal SIGKILL$' "$WATCH_ERR"
	sensor_test_set 0 temperature 32003
	wait_until 20 grep -qx 'ran 32003' "$WATCH_OUT"
	# Still watching, and each command was reaped: no child, no zombie
	run kill -0 "$WATCH_PID"
	assert_success
	wait_until 5 bash -c '[ -z "$(ps -o pid= --ppid "$1")" ]' _ "$WATCH_PID"
	kill -TERM "$WATCH_PID"
	watch_end 10
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output $'ran 32001\nran 32002\nran 32003'
	run cat "$WATCH_ERR"
	assert_equal "${#lines[@]}" 2
	# One line each, the command's newline escaped
	assert_line --index 0 --regexp "^kevent-watch: --exec: 'echo .*\\\\n.*esac' exited with status 3\$"
	assert_line --index 1 --regexp "^kevent-watch: --exec: '.*' killed by signal SIGKILL\$"
}

@test "a command past --exec-timeout 1 is killed with what it started, and the next event still runs its command" {
	bg=$BATS_TEST_TMPDIR/bg.pid
	watch_start --count 2 --exec-timeout 1 --exec \
		'if [ "$KEVENT_VALUE" = 33001 ]; then
			sleep 100 & echo $! > '"'$bg'"'; sleep 100
		fi
		echo "ran $KEVENT_VALUE"'
	start=$SECONDS
	sensor_test_set 0 temperature 33001
	sensor_test_set 1 temperature 33002
	watch_end 20
	# A command that timed out does not change the exit status
	assert_equal "$WATCH_STATUS" 0
	assert [ $((SECONDS - start)) -lt 10 ]
	run cat "$WATCH_OUT"
	assert_output "ran 33002"
	run cat "$WATCH_ERR"
	assert_output --regexp "^kevent-watch: --exec: '.*' timed out after 1 s, killed\$"
	assert_equal "${#lines[@]}" 1
	# The background sleep of its process group is gone too
	read -r pid < "$bg"
	assert [ -n "$pid" ]
	wait_until 5 not_running "$pid"
}

@test "without --exec-timeout a command is killed after 10 s, the default, not before" {
	watch_start --count 1 --exec 'echo started; sleep 100; echo never'
	start=$SECONDS
	sensor_test_set 0 temperature 33500
	wait_until 20 grep -qx started "$WATCH_OUT"
	watch_end 90
	elapsed=$((SECONDS - start))
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_ERR"
	assert_output "kevent-watch: --exec: 'echo started; sleep 100; echo never' timed out after 10 s, killed"
	run cat "$WATCH_OUT"
	assert_output started
	# Not before its 10 s (SECONDS counts whole seconds: 9 is the least)
	assert [ "$elapsed" -ge 9 ]
}

@test "--exec-timeout 0 lets a command run past the default 10 s, to its end" {
	watch_start --count 1 --exec-timeout 0 --exec 'sleep 12; echo "done $KEVENT_VALUE"'
	start=$SECONDS
	sensor_test_set 0 temperature 33600
	watch_end 90
	assert_equal "$WATCH_STATUS" 0
	assert [ $((SECONDS - start)) -ge 11 ]
	run cat "$WATCH_OUT"
	assert_output "done 33600"
	run cat "$WATCH_ERR"
	assert_output ''
}

@test "an unreadable value gives the command an empty KEVENT_VALUE and its error in KEVENT_ERROR" {
	watch_start_as 65534 --count 1 --exec \
		'echo "value=[$KEVENT_VALUE] error=[$KEVENT_ERROR] $KEVENT_ATTR"'
	sensor_test_set 0 notify calibration
	watch_end 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_output "value=[] error=[EACCES] calibration"
}

@test "--coldplug runs the command for every state, with KEVENT_TYPE state and no sequence number, then for events" {
	watch_start --coldplug --count 1 --exec \
		'echo "$KEVENT_TYPE [$KEVENT_SEQ] $KEVENT_ATTR [$KEVENT_COALESCED]"'
	sensor_test_set 0 temperature 34000
	watch_end 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_OUT"
	assert_equal "${#lines[@]}" 7
	for i in 0 1 2 3 4 5; do
		assert_line --index "$i" \
			--regexp '^state \[\] (temperature|label|calibration) \[\]$'
	done
	assert_line --index 6 --regexp '^event \[[1-9][0-9]*\] temperature \[0\]$'
}

@test "the command has /dev/null as standard input, none of kevent-watch's own descriptors, and a group of its own" {
	watch_start --count 1 --exec-timeout 0 --exec 'exec sleep 100'
	sensor_test_set 0 temperature 35000
	wait_until 20 child_of "$WATCH_PID" sleep
	# Its descriptors: 0, 1, 2 and those kevent-watch inherited (from
	# bats), but none that kevent-watch opened (close-on-exec)
	inherited=$(fds_without_cloexec "$WATCH_PID")
	[[ $inherited == "0 1 2"* ]] || fail "kevent-watch has fds $inherited"
	assert_equal "$(fds "$child")" "$inherited"
	# kevent-watch's netlink socket is not among them
	run has_socket "$WATCH_PID"
	assert_success
	run has_socket "$child"
	assert_failure
	run readlink "/proc/$child/fd/0"
	assert_output /dev/null
	assert_equal "$(pgid "$child")" "$child"
	assert_not_equal "$(pgid "$WATCH_PID")" "$child"
	kill -TERM "$child"
	watch_end 20
	assert_equal "$WATCH_STATUS" 0
	run cat "$WATCH_ERR"
	assert_output "kevent-watch: --exec: 'exec sleep 100' killed by signal SIGTERM"
}

@test "SIGTERM to kevent-watch while a command runs ends both promptly with status 0" {
	watch_start --exec 'sleep 100; echo done'
	sensor_test_set 0 temperature 36000
	wait_until 20 child_of "$WATCH_PID" sh
	shell=$child
	wait_until 20 child_of "$shell" sleep
	start=$SECONDS
	kill -TERM "$WATCH_PID"
	watch_end 10
	assert_equal "$WATCH_STATUS" 0
	assert [ $((SECONDS - start)) -le 3 ]
	wait_until 5 not_running "$child"
	wait_until 5 not_running "$shell"
	run cat "$WATCH_OUT"
	assert_output ""
	run cat "$WATCH_ERR"
	assert_output ""
}
