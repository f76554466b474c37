# SPDX-License-Identifier: GPL-2.0
# Shared set-up of kevent's bats suites: assertions and the tree's paths.

bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

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
