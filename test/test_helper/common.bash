# SPDX-License-Identifier: GPL-2.0
# Shared set-up of kevent's bats suites: assertions and the tree's paths.

bats_require_minimum_version 1.5.0

# load_bats_library NAME: what bats_load_library NAME does for bats-support
# and bats-assert, without a process start. Their load.bash sources each of
# their files as "$(dirname "${BASH_SOURCE[0]}")/src/FILE": fifteen dirname
# processes for every test, some thirty seconds of each test on the debug
# kernel, where a process start takes two. The files load.bash names, in its
# order, are sourced here from the first directory of BATS_LIB_PATH that
# has NAME; a load.bash with any other line is left to bats_load_library.
load_bats_library()
{
	local dir dirs lib='' line files=()
	local re='^source "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)/(src/[A-Za-z0-9_]+\.bash)"$'

	IFS=: read -ra dirs <<<"${BATS_LIB_PATH:-/usr/lib/bats}"
	for dir in "${dirs[@]}"; do
		if [ -f "$dir/$1/load.bash" ]; then
			lib=$dir/$1
			break
		fi
	done
	[ -n "$lib" ] || { bats_load_library "$1"; return; }
	while IFS= read -r line; do
		case $line in '' | '#'*) continue ;; esac
		[[ $line =~ $re ]] || { bats_load_library "$1"; return; }
		files+=("$lib/${BASH_REMATCH[1]}")
	done <"$lib/load.bash"
	for line in "${files[@]}"; do
		# shellcheck disable=SC1090 # a library's files
		source "$line" || return
	done
}

load_bats_library bats-support
load_bats_library bats-assert

KEVENT_TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
export KEVENT_TOP

# module_ext KVER: the file name extension of KVER's modules: .ko, or
# .ko.xz, .ko.gz, .ko.zst when the kernel compresses them
module_ext()
{
	local ext

	ext=$(find "/lib/modules/$1/kernel" -name '*.ko*' -print -quit)
	echo ".ko${ext##*.ko}"
}

# assert_stderr_line TEXT: the stderr of the last `run --separate-stderr`
# has a line equal to TEXT (bats-assert 2.0 has no assert_stderr).
assert_stderr_line()
{
	local l

	for l in "${stderr_lines[@]}"; do
		[ "$l" = "$1" ] && return 0
	done
	batslib_print_kv_single_or_multi 8 expected "$1" stderr "$stderr" |
		batslib_decorate 'stderr has no such line' | fail
}

# assert_stderr_partial TEXT: that stderr contains TEXT somewhere
assert_stderr_partial()
{
	[[ $stderr == *"$1"* ]] && return 0
	batslib_print_kv_single_or_multi 9 substring "$1" stderr "$stderr" |
		batslib_decorate 'stderr does not contain substring' | fail
}

# fake_commands DIR LOG NAME...: in DIR, a command NAME for each NAME that
# writes its name to LOG, then runs the real one: with DIR first in PATH, LOG
# says which of them a program started
fake_commands()
{
	local dir=$1 log=$2 name

	shift 2
	mkdir -p "$dir"
	for name in "$@"; do
		printf '#!/bin/sh\necho %s >>"%s"\nexec %s "$@"\n' \
			"$name" "$log" "$(command -v "$name")" >"$dir/$name"
		chmod +x "$dir/$name"
	done
}
