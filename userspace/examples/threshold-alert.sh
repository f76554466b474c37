#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# threshold-alert.sh - say when a temperature goes above a threshold
#
# Usage: threshold-alert.sh DEGREES [HYSTERESIS]
#
# DEGREES and HYSTERESIS are whole degrees Celsius (HYSTERESIS: 2 if not
# given). Every device whose "temperature" the kevent layer reports (in
# millidegrees Celsius, as sysfs has it) gives one line when it goes above
# DEGREES, and one when it comes back below DEGREES minus HYSTERESIS, so
# that a temperature hovering around the threshold does not alert at every
# change:
#
#	ALERT /devices/platform/kevent-demo.0 temperature=81000
#	CLEAR /devices/platform/kevent-demo.0 temperature=77500
#
# A device already above DEGREES when the script starts alerts at once
# (--coldplug). A value that cannot be read, such as that of a device going
# away, is skipped (kevent-watch prints '' for its %qv). Replace the
# echo lines with what you need: logger, mail, notify-send.
set -eu -o pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "Usage: ${0##*/} DEGREES [HYSTERESIS]" >&2
	exit 2
fi
for n in "$@"; do
	case $n in
	'' | *[!0-9]*)
		echo "${0##*/}: '$n' is not a whole number of degrees" >&2
		exit 2
		;;
	esac
done
# 10#: decimal, even with a leading zero (08, 010)
high=$((10#$1 * 1000))
low=$(((10#$1 - 10#${2:-2}) * 1000))

declare -A hot=() # the paths of the devices above the threshold

# kevent-watch ends each --format line with a newline itself. A path may
# have a space (a platform device named "Fixed MDIO bus.0"): %qp and %qv
# quote the fields for the shell, and read, without -r, gives each back
# whole.
# shellcheck disable=SC2162 # read without -r undoes the quoting of %q
kevent-watch --attr temperature --coldplug --format '%qp %qv' |
	while read path value; do
		case ${value#-} in
		'' | *[!0-9]*) continue ;; # unreadable, or not a number
		esac
		if [ "$value" -gt "$high" ] && [ -z "${hot[$path]:-}" ]; then
			hot[$path]=1
			echo "ALERT $path temperature=$value"
		elif [ "$value" -lt "$low" ] && [ -n "${hot[$path]:-}" ]; then
			unset 'hot[$path]'
			echo "CLEAR $path temperature=$value"
		fi
	done
