#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The class of an event comes from the subsystem of its kobject, by one
# table the kernel (kernel/kevent_registry.c) and libkevent
# (userspace/lib/attrs.c) each hold: the two must say the same.

setup()
{
	load ../test_helper/common
}

# subsystem_table FILE ARRAY: the "subsystem class" lines of the table named
# ARRAY in FILE, in order
subsystem_table()
{
	sed -n "/^} $2\[\] = {\$/,/^};\$/p" "$1" |
		sed -nE 's/^[[:space:]]*\{ "([a-z_]+)",[[:space:]]*KEVENT_CLASS_([A-Z]+) \},$/\1 \2/p'
}

@test "the kernel and libkevent give each subsystem the same class" {
	kernel=$(subsystem_table "$KEVENT_TOP/kernel/kevent_registry.c" kevent_subsystem_classes)
	lib=$(subsystem_table "$KEVENT_TOP/userspace/lib/attrs.c" subsystem_classes)
	# The tables were found, with the subsystems the documentation names
	run grep -c . <<<"$kernel"
	assert_output 8
	run grep -Fx 'power_supply POWER' <<<"$kernel"
	assert_success
	assert_equal "$lib" "$kernel"
}
