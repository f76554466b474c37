#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The KUnit tests of kevent's core (kernel/kevent_kunit.c): the registry,
# name validation, the coalescing arithmetic, message building and the
# refusal of a second source of one attribute. They run
# when kevent_kunit.ko loads; KUnit keeps their results in debugfs.

RESULTS=/sys/kernel/debug/kunit/kevent/results

setup()
{
	load ../test_helper/kevent
	module_loaded kevent || insmod "$KEVENT_MODULE_DIR/kevent.ko"
}

teardown()
{
	if module_loaded kevent_kunit; then rmmod kevent_kunit; fi
	modules_unload
}

@test "kevent's KUnit suite passes, every case of it" {
	local plan

	insmod "$KEVENT_MODULE_DIR/kevent_kunit.ko"
	run cat "$RESULTS"
	echo "$output" >&2
	refute_output --partial 'not ok'
	# Every case the suite plans ("1..N", indented under the suite's
	# header) passed, and it plans every KUNIT_CASE of kevent_kunit.c
	plan=$(sed -nE 's/^[[:space:]]+1\.\.([0-9]+)$/\1/p' <<< "$output")
	assert_regex "$plan" '^[1-9][0-9]*$'
	assert_equal "$(grep -cE '^[[:space:]]+ok [0-9]+ kevent_test_' <<< "$output")" "$plan"
	assert_equal "$(grep -cE '^[[:space:]]*KUNIT_CASE\(' "$KEVENT_TOP/kernel/kevent_kunit.c")" "$plan"
	assert_line --regexp '^ok [0-9]+ kevent$'
}

@test "the symbols only the KUnit tests use are exported with EXPORT_SYMBOL_IF_KUNIT, in the kernel's namespace for them" {
	local symvers=$KEVENT_MODULE_DIR/Module.symvers sym

	for sym in kevent_coalesce_wait kevent_event_size kevent_put_event \
		kevent_registry_lookup kevent_registry_name \
		kevent_registry_class; do
		run awk -v s="$sym" '$2 == s { print $5 }' "$symvers"
		assert_output EXPORTED_FOR_KUNIT_TESTING
	done
	# The API of drivers stays in the global namespace
	run awk '$2 == "kevent_source_register" { print $5 "|" }' "$symvers"
	assert_output '|'
}
