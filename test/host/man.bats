#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The man pages render without warnings, kevent.7 documents the whole
# netlink ABI, the driver API and the module parameters, and each
# FUNCTION(3) the pages refer to has a page or a link to one.

setup()
{
	load ../test_helper/common
	man_dir=$KEVENT_TOP/userspace/man
	kevent7=$man_dir/kevent.7
}

# link_target PAGE: the page that PAGE, a link page (".so man3/TARGET.3",
# its only line), stands for; nothing for a page of its own
link_target()
{
	sed -n '1s|^\.so man3/\(.*\)$|\1|p' "$1"
}

@test "every man page renders with groff and man without a warning" {
	local pages=("$man_dir"/*.[1-8])

	[ "${#pages[@]}" -ge 2 ]
	# A link page's .so is relative to the top of the installed man tree
	ln -s "$man_dir" "$BATS_TEST_TMPDIR/man3"
	cd "$BATS_TEST_TMPDIR"
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
	mapfile -t groups < <(sed -n 's/^#define KEVENT_MCGRP_[A-Z]*[[:space:]]*"\(.*\)"/\1/p' \
		"$KEVENT_TOP/kernel/uapi/kevent.h")
	[ "${#groups[@]}" -eq 6 ]
	# The text of the page, as man prints it
	text=$(MANWIDTH=200 man -l "$kevent7" 2>/dev/null)
	for n in "${names[@]}" "${groups[@]}" KEVENT_FAMILY_NAME KEVENT_FAMILY_VERSION \
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

# The functions the library exports: the globals of its version script
exported_functions()
{
	sed -n 's/^[[:space:]]*\(kevent_[a-z0-9_]*\);$/\1/p' \
		"$KEVENT_TOP/userspace/lib/libkevent.map" | sort -u
}

# The functions the public header declares (outside its comments)
declared_functions()
{
	grep -vE '^[[:space:]]*(\*|/\*)' "$KEVENT_TOP/userspace/include/kevent/kevent.h" |
		grep -oE '\bkevent_[a-z0-9_]+\(' | tr -d '(' | sort -u
}

# documented_functions PAGE...: the functions a page both names in its NAME
# section, which man -k and man FUNCTION find, and declares in its
# SYNOPSIS as the header does, one a line (one awk for every page: a
# process per function and page took 20 s)
documented_functions()
{
	awk '
	FNR == 1 { section = "" }
	/^\.SH / { section = $2 }
	section == "NAME" {
		n = split($0, words, /[^A-Za-z0-9_]+/)
		for (i = 1; i <= n; i++)
			named[FILENAME, words[i]] = 1
	}
	section == "SYNOPSIS" {
		line = $0
		if (match(line, /^\.BI? "?[A-Za-z_][A-Za-z0-9_]*\(/)) {
			fn = substr(line, 1, RLENGTH - 1)
			sub(/^\.BI? "?/, "", fn)
			declared[FILENAME, fn] = 1
		}
		while (match(line, /[ *][A-Za-z_][A-Za-z0-9_]*\(/)) {
			declared[FILENAME, substr(line, RSTART + 1, RLENGTH - 2)] = 1
			line = substr(line, RSTART + RLENGTH)
		}
	}
	END {
		for (key in declared)
			if (key in named) {
				split(key, part, SUBSEP)
				print part[2]
			}
	}' "$@" | sort -u
}

@test "every function of <kevent/kevent.h> is named and declared in a man3 page" {
	local pages=("$man_dir"/*.3) fn

	[ -f "${pages[0]}" ] || fail "no man3 page in $man_dir"
	# The header declares what the library exports, no more, no fewer
	run diff <(declared_functions) <(exported_functions)
	assert_success
	mapfile -t fns < <(exported_functions)
	[ "${#fns[@]}" -ge 40 ]
	run comm -23 <(exported_functions) <(documented_functions "${pages[@]}")
	assert_success
	[ -z "$output" ] || fail "no man3 page names and declares: $output"
}

@test "libkevent.3 refers to every other man3 page, and each to libkevent(3)" {
	local page name

	for page in "$man_dir"/*.3; do
		name=$(basename "$page" .3)
		[ "$name" = libkevent ] && continue
		# A link is its target page
		[ -n "$(link_target "$page")" ] && continue
		run grep -F ".BR $name (3)" "$man_dir/libkevent.3"
		assert_success
		run grep -F '.BR libkevent (3)' "$page"
		assert_success
	done
}

@test "every NAME(3) cross-reference has a page or a .so link" {
	local page target refs=() name missing=

	for page in "$man_dir"/*.[1-8]; do
		[ -n "$(link_target "$page")" ] && continue
		# The references of the page as man prints it, not broken at a
		# line's end: the library's own, not free(3) or realpath(3)
		mapfile -t -O "${#refs[@]}" refs < <(MANWIDTH=1000 man -l "$page" \
			2>/dev/null | grep -oE '\b(lib)?kevent_?[a-z0-9_]*\(3\)')
	done
	assert [ "${#refs[@]}" -ge 20 ]
	for name in $(printf '%s\n' "${refs[@]%(3)}" | sort -u); do
		[ -f "$man_dir/$name.3" ] || missing+=" $name(3)"
	done
	[ -z "$missing" ] || fail "no page or .so link for:$missing"
	# Each link names a page of its own that documents the function
	for page in "$man_dir"/*.3; do
		target=$(link_target "$page")
		[ -n "$target" ] || continue
		assert_equal "$(wc -l < "$page")" 1
		[ -f "$man_dir/$target" ] || fail "$page: no page $target"
		assert_equal "$(link_target "$man_dir/$target")" ""
		sed -n '/^\.SH NAME/,/^\.SH/p' "$man_dir/$target" |
			grep -qw "$(basename "$page" .3)" ||
			fail "$target does not name $(basename "$page" .3) in NAME"
	done
}
