#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The bash completion of kevent-watch offers every option kevent-watch
# parses, class names, attribute names and files.

setup()
{
	load ../test_helper/common
	cd "$BATS_TEST_TMPDIR"
	completion=$KEVENT_TOP/userspace/completion/kevent-watch
	options_c=$KEVENT_TOP/userspace/cli/options.c
}

# complete WORD...: the completions bash offers for the last WORD of the
# command line "kevent-watch WORD...", one a line
complete()
{
	run bash -c '
		. "$1"
		shift
		COMP_WORDS=(kevent-watch "$@")
		COMP_CWORD=$#
		_kevent_watch
		printf "%s\n" "${COMPREPLY[@]}"' bash "$completion" "$@"
	assert_success
}

@test "every long option of kevent-watch's long_options[] is offered after --" {
	# { "name", ... } entries of long_options[] in options.c
	mapfile -t names < <(sed -n '/long_options\[\] = {/,/^};/p' "$options_c" |
		sed -n 's/^[[:space:]]*{ "\([a-z][a-z0-9-]*\)",.*/\1/p')
	[ "${#names[@]}" -ge 16 ]
	complete --
	for name in "${names[@]}"; do
		assert_line -- "--$name"
	done
}

@test "every short option of kevent-watch's short_options is offered after -" {
	# Less getopt's flags: '-' (arguments in place) and ':' (quiet)
	opts=$(sed -n 's/.*short_options\[\] = "\(.*\)";/\1/p' "$options_c" | tr -d ':-')
	[ "${#opts}" -ge 8 ]
	complete -
	for ((i = 0; i < ${#opts}; i++)); do
		assert_line -- "-${opts:i:1}"
	done
}

@test "--exec and --exec-timeout are offered" {
	complete --ex
	assert_line -- --exec
	assert_line -- --exec-timeout
}

@test "--class p completes to power, and a list completes its last name" {
	complete --class p
	assert_output power
	complete -c h
	assert_output hotplug
	complete --class power,ge
	assert_output power,general
	# With --class=LIST bash splits the word at '='
	complete --class = po
	assert_output power
	# Names given already are not offered again
	complete --class power,
	refute_line power,power
	assert_line power,net
}

@test "--attr completes the names of attributes.txt, not its templates (temp*_alarm)" {
	complete --attr te
	assert_output temperature
	complete --attr ''
	assert_line operstate
	assert_line calibration
	refute_line --partial '*'
	assert_equal "${#lines[@]}" "$(grep -vE '^[[:space:]]*(#|$)' "$KEVENT_TOP/attributes.txt" |
		grep -cvE '^[^[:space:]]*[*]')"
}

@test "--poll and the words after it complete file names" {
	mkdir temp1_dir && : > temp1_input
	complete --poll temp1_
	assert_line temp1_dir
	assert_line temp1_input
	complete --poll temp1_input temp1_d
	assert_output temp1_dir
}

@test "the completion passes shellcheck" {
	run shellcheck -s bash "$completion"
	assert_success
}

@test "--sample offers intervals, and files follow it" {
	complete --sample ''
	assert_line 1s
	assert_line 500ms
	touch sampled-file
	complete --sample 1s sampled-
	assert_output sampled-file
}
