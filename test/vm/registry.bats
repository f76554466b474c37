#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# libkevent looks a name its own copy of attributes.txt lacks up in the
# registry of the running kevent layer (KEVENT_CMD_GET_ATTRIBUTES): a
# program linked to an older library still knows a newer layer's names, with
# their ids (for the kernel's filter) and units. kevent-attr-old is such a
# program: its library knows the first 12 entries of the registry only.

setup()
{
	load ../test_helper/kevent
	OLD=$KEVENT_TOP/test/tools/kevent-attr-old
	modules_unload
}

teardown()
{
	modules_unload
}

@test "a program with an older libkevent learns the names its registry lacks from the layer's, with their ids and units" {
	modules_load
	run -0 "$OLD" temperature size array_state sync_completed temp3_alarm \
		temp03_alarm no_such_name
	assert_output "$(printf '%s\n' 'temperature 0 mdegC' 'size 11 sectors' \
		'array_state 19 -' 'sync_completed 22 sectors' 'temp3_alarm 16 -' \
		'temp03_alarm unknown' 'no_such_name unknown')"
}

@test "without the layer it knows only its own names; asking the layer leaks nothing" {
	run -0 "$OLD" temperature array_state
	assert_output "$(printf '%s\n' 'temperature 0 mdegC' 'array_state unknown')"

	modules_load
	run valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=all "$OLD" array_state mtu
	assert_success
	assert_output "$(printf '%s\n' 'array_state 19 -' 'mtu 6 bytes')"
}
