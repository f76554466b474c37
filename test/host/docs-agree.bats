#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent-watch's documents agree with each other: --help, the SYNOPSIS and
# the OPTIONS of kevent-watch(1), the bash completion and the option block
# of README.md name the same options. (watch-options.bats and
# completion.bats check that each has the options of the source's table.)

setup_file()
{
	load ../test_helper/common
	# The binary under test is the tree's: build it if it is not current.
	make -s -C "$KEVENT_TOP/userspace" cli/kevent-watch >&2
}

setup()
{
	load ../test_helper/common
	cd "$BATS_TEST_TMPDIR" || return
	KEVENT_WATCH=$KEVENT_TOP/userspace/cli/kevent-watch
	man1=$KEVENT_TOP/userspace/man/kevent-watch.1
	completion=$KEVENT_TOP/userspace/completion/kevent-watch
}

# man_section NAME: section NAME of kevent-watch(1) as man prints it, in
# lines too wide to be broken or hyphenated
man_section()
{
	MANWIDTH=1000 man -l "$man1" 2>/dev/null |
		awk -v name="$1" '/^[A-Z]/ { in_section = ($0 == name) } in_section'
}

# man_entries: the tags of the entries of kevent-watch(1)'s OPTIONS, such
# as "-j, --json" (man indents them 7 columns, their text 14)
man_entries()
{
	man_section OPTIONS | grep -E '^ {7}-'
}

# long_options: the long options of standard input, one a line, sorted
long_options()
{
	grep -oE -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u
}

# readme_options: the option block of README.md, under "Using kevent-watch"
readme_options()
{
	sed -n '/^    kevent-watch \[OPTIONS\]$/,/^$/p' "$KEVENT_TOP/README.md"
}

# completions WORD: what the completion offers for "kevent-watch WORD"
completions()
{
	bash -c '
		. "$1"
		COMP_WORDS=(kevent-watch "$2")
		COMP_CWORD=1
		_kevent_watch
		printf "%s\n" "${COMPREPLY[@]}"' bash "$completion" "$1"
}

@test "--help, kevent-watch(1)'s SYNOPSIS and OPTIONS and the completion name the same long options" {
	local doc missing report=

	"$KEVENT_WATCH" --help | long_options > help
	man_section SYNOPSIS | long_options > synopsis
	man_entries | long_options > options
	completions -- | long_options > completion
	for doc in help synopsis options completion; do
		assert [ "$(wc -l < "$doc")" -ge 18 ]
	done
	sort -u help synopsis options completion > all
	for doc in help synopsis options completion; do
		missing=$(comm -23 all "$doc" | tr '\n' ' ')
		if [ -n "$missing" ]; then
			case $doc in
			help) report+="--help" ;;
			synopsis) report+="kevent-watch(1)'s SYNOPSIS" ;;
			options) report+="kevent-watch(1)'s OPTIONS" ;;
			completion) report+="the bash completion" ;;
			esac
			report+=" lacks ${missing% }"$'\n'
		fi
	done
	[ -z "$report" ] || fail "$report"
}

@test "--help and kevent-watch(1)'s OPTIONS give each long option the same short option" {
	# "-j, --json": a short option and its long one
	"$KEVENT_WATCH" --help | grep -oE -- '-[A-Za-z], --[a-z-]+' | sort > help
	man_entries | grep -oE -- '-[A-Za-z], --[a-z-]+' | sort > options
	assert [ "$(wc -l < help)" -ge 8 ]
	run diff -u help options
	assert_success
}

@test "README.md's option block names the options of --help, with the same short options" {
	"$KEVENT_WATCH" --help | long_options > help
	readme_options | long_options > readme
	assert [ "$(wc -l < help)" -ge 18 ]
	run diff -u help readme
	assert_success
	"$KEVENT_WATCH" --help | grep -oE -- '-[A-Za-z], --[a-z-]+' | sort > help
	readme_options | grep -oE -- '-[A-Za-z], --[a-z-]+' | sort > readme
	run diff -u help readme
	assert_success
}

# The options that name a source of events (the kevent layer, --stock,
# --uevent, --poll, --sample) follow one rule, stated once in each of
# kevent-watch(1) and README.md: each names a source, they combine, and the
# kevent layer is watched when no other is named or --kevent is given.
@test "kevent-watch(1)'s SOURCES and README.md state the source options' one rule, naming the same options, each one of --help's" {
	local opt

	man_section SOURCES > sources
	# The table: a row for each source, first the option
	run awk '/^       --/ { print $1 }' sources
	assert_output "$(printf '%s\n' --kevent --stock --uevent --poll --sample)"
	"$KEVENT_WATCH" --help | long_options > help
	for opt in --kevent --stock --uevent --poll --sample; do
		run grep -qxF -- "$opt" help
		assert_success
	done
	run grep -c 'kevent layer is watched when none of the others is given' sources
	assert_output 1
	# README's paragraph says the same of the same options
	run awk '/^Where events come from, one rule:/ { p = 1 } p && /^$/ { exit } p' \
		"$KEVENT_TOP/README.md"
	assert_success
	for opt in --kevent --stock --uevent --poll --sample; do
		assert_output --partial "\`$opt\`"
	done
	assert_output --partial 'kevent layer is watched when none of the others is given'
}
