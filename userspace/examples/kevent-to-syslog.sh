#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kevent-to-syslog.sh - forward kernel attribute events to syslog, as JSON
#
# Usage: kevent-to-syslog.sh [KEVENT-WATCH OPTIONS]
#   such as: kevent-to-syslog.sh --class power,storage
#
# Each event becomes one syslog message, tag "kevent", facility daemon,
# level info, whose text is one JSON record of kevent-watch --json:
#
#	Dec  3 13:02:11 host daemon.info kevent: {"type":"event","source":"kevent","seq":6,...}
#
# kevent-watch writes and flushes one line per event, and logger sends each
# line it reads at once, so an event reaches syslog when it happens, not
# when a buffer fills. logger writes to /dev/log, where a syslog daemon
# (rsyslog, busybox syslogd) or systemd-journald listens; --size lets a
# record longer than logger's default of 1 KiB (a long value) stay one
# message. With the journal, systemd-cat does the same:
#
#	kevent-watch --json | systemd-cat -t kevent -p info
#	journalctl -t kevent -o cat | jq 'select(.attr == "temperature")'
#
# It runs until kevent-watch ends (a signal, --count, --timeout, or the
# kevent layer being unloaded) and exits with kevent-watch's status.
set -eu -o pipefail

kevent-watch --json "$@" | logger -t kevent -p daemon.info --size 8192
