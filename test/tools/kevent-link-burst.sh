#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kevent-link-burst.sh - a burst of link changes from user space, the knob
# command of kevent-bench-drive (--knob-cmd) for the benchmarks
#
# Usage: kevent-link-burst.sh mtu N
#
# Raises the MTU of the dummy device $KEVENT_BENCH_LINK (default kbench0)
# by one, N times, from its current value, with one `ip -batch` run: N
# RTM_NEWLINK messages, each with the new MTU, as N changes of the
# attribute mtu, whose final value is the first plus N.
set -eu

link=${KEVENT_BENCH_LINK:-kbench0}
if [ $# -ne 2 ] || [ "$1" != mtu ] || ! [ "$2" -gt 0 ] 2>/dev/null; then
	echo "usage: kevent-link-burst.sh mtu N" >&2
	exit 2
fi
n=$2
mtu=$(cat "/sys/class/net/$link/mtu")
for ((i = 1; i <= n; i++)); do
	echo "link set dev $link mtu $((mtu + i))"
done | ip -batch -
