# SPDX-License-Identifier: GPL-2.0
#
# bats-env.bash - read by every bash that bats starts in the test VM
# (BASH_ENV, set by scripts/vm/bats-queue)
#
# Under emulation a process start is the dearest thing a test does: about
# 75 ms on Debian's kernels, two seconds on the debug kernel. bats starts
# three for each test (mkdir twice and rm for its temporary directory, date
# for its time), besides its own, and some twenty for each file. mkdir and
# rm become bash's loadable builtins (bash-builtins), which do the same in
# the shell; date +%s%N, the one form bats asks for, is read from
# EPOCHREALTIME. Any other date runs date. The scripts that prepare a
# file's run (bats, bats-exec-suite, bats-exec-file: none runs a test) also
# get loadable dirname, basename and mktemp, and readlink -f from the
# loadable realpath. Where a builtin cannot be loaded the command runs as
# before. Only bats' own scripts (and the tests they run in their shell)
# load the builtins: another bash script a test starts is left as it was.

case $0 in
*/bats-core/* | */bats)
	enable -f /usr/lib/bash/mkdir mkdir 2>/dev/null || true
	enable -f /usr/lib/bash/rm rm 2>/dev/null || true
	;;
esac
case $0 in
*/bats-core/bats-exec-test) ;;
*/bats-core/* | */bats)
	enable -f /usr/lib/bash/dirname dirname 2>/dev/null || true
	enable -f /usr/lib/bash/basename basename 2>/dev/null || true
	enable -f /usr/lib/bash/mktemp mktemp 2>/dev/null || true
	enable -f /usr/lib/bash/realpath realpath 2>/dev/null &&
		bats_env_realpath=1
	;;
esac

# readlink [ARGS...]: readlink -f PATH of an existing PATH from the
# loadable realpath, where it loaded; else readlink
readlink()
{
	if [ "$#" -eq 2 ] && [ "$1" = -f ] && [ -e "$2" ] &&
		[ -n "${bats_env_realpath:-}" ]; then
		realpath "$2"
	else
		command readlink "$@"
	fi
}

# date [ARGS...]: date +%s%N from EPOCHREALTIME, in the shell; else date
date()
{
	if [ "$#" -eq 1 ] && [ "$1" = +%s%N ] && [ -n "${EPOCHREALTIME:-}" ]; then
		printf '%s000\n' "${EPOCHREALTIME//[!0-9]/}"
	else
		command date "$@"
	fi
}
