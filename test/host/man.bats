#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The man pages render without warnings, and kevent.7 documents the whole
# netlink ABI, the driver API and the module parameters.

setup()
{
	load ../test_helper/common
	man_dir=$KEVENT_TOP/userspace/man
	kevent7=$man_dir/kevent.7
}

@test "every man page renders with groff and man without a warning" {
	local pages=("$man_dir"/*.[1-8])

	[ "${#pages[@]}" -ge 2 ]
	for page in "${pages[@]}"; do
		run --separate-stderr groff -man -ww -z "$page"
		assert_success
		assert_equal "$stderr" ""
		run --separate-stderr env MANWIDTH=80 man --warnings -l "$page"
		assert_success
		assert_equal "$stderr" ""
		[ "${#lines[@]}" -gt 20 ]
	done
}

@test "kevent.7 names every command, attribute, class and group of the uAPI header" {
	# The enumerators and the group names of kernel/uapi/kevent.h
	mapfile -t names < <(grep -oE '^[[:space:]]+KEVENT_(A|CMD|CLASS)_[A-Z_]+' \
		"$KEVENT_TOP/kernel/uapi/kevent.h" | sed 's/^[[:space:]]*//' |
		grep -v '_UNSPEC$')
	[ "${#names[@]}" -ge 20 ]
	mapfile -t groups < <(sed -n 's/^#define KEVENT_GENL_MCGRP_[A-Z]*[[:space:]]*"\(.*\)"/\1/p' \
		"$KEVENT_TOP/kernel/uapi/kevent.h")
	[ "${#groups[@]}" -eq 6 ]
	# The text of the page, as man prints it
	text=$(MANWIDTH=200 man -l "$kevent7" 2>/dev/null)
	for n in "${names[@]}" "${groups[@]}" KEVENT_GENL_NAME KEVENT_GENL_VERSION \
		KEVENT_PATH_MAX KEVENT_ATTR_NAME_MAX; do
		[[ $text == *"$n"* ]] || fail "kevent.7 does not mention $n"
	done
}

@test "kevent.7 documents every exported function and module parameter of kevent.ko" {
	mapfile -t syms < <(sed -n 's/^EXPORT_SYMBOL_GPL(\(.*\));/\1/p' \
		"$KEVENT_TOP"/kernel/kevent_*.c | grep -v kunit)
	[ "${#syms[@]}" -ge 6 ]
	# kevent.ko's sources: all but those of the other modules
	mapfile -t params < <(ls "$KEVENT_TOP"/kernel/kevent_*.c |
		grep -vE '/kevent_(demo|bridge|kunit)\.c$' | xargs cat |
		sed -n 's/^module_param[a-z_]*(\([a-z_]*\),.*/\1/p')
	[ "${#params[@]}" -ge 2 ]
	text=$(MANWIDTH=200 man -l "$kevent7" 2>/dev/null)
	for n in "${syms[@]}"; do
		[[ $text == *"$n("* ]] || fail "kevent.7 does not document $n()"
	done
	for n in "${params[@]}"; do
		[[ $text == *"$n"* ]] || fail "kevent.7 does not document the parameter $n"
	done
}

@test "kevent.7 refers to kevent-watch(1), a page of the tree" {
	run grep -F '.BR kevent-watch (1)' "$kevent7"
	assert_success
	[ -f "$man_dir/kevent-watch.1" ]
}
