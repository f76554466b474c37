#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# make demo: scripts/demo, which it runs in the test VM, loads the modules,
# shows kevent-watch reporting each change of the demo sensors with the
# value it read, and unloads them.

setup()
{
	load ../test_helper/kevent
	# The demo loads the modules itself
	modules_unload
}

teardown()
{
	modules_unload
}

@test "scripts/demo shows the sources, live events with their values, JSON and a format, and exits 0" {
	run --separate-stderr "$KEVENT_TOP/scripts/demo"
	assert_success
	# --list: the sources of both sensors with their values
	assert_line --regexp '^STATE\[[0-9.]+\] power /devices/platform/kevent-demo\.1 temperature=25000 mdegC '
	assert_line --regexp '^STATE\[[0-9.]+\] general /devices/platform/kevent-demo\.0 label=sensor 0 '
	# The first watcher: each change with the value read, a storm folded
	assert_line --regexp '^KEVENT\[[0-9.]+\] [0-9]+ power /devices/platform/kevent-demo\.0 temperature=43210 mdegC '
	assert_line --regexp '^KEVENT\[[0-9.]+\] [0-9]+ power /devices/platform/kevent-demo\.1 temperature=51500 mdegC '
	assert_line --regexp '^KEVENT\[[0-9.]+\] [0-9]+ general /devices/platform/kevent-demo\.0 label=CPU package '
	assert_line --regexp '^KEVENT\[[0-9.]+\] [0-9]+ power /devices/platform/kevent-demo\.1 temperature=52500 mdegC .* coalesced=[0-9]+$'
	# Unplugged: ENODEV, or ENOENT once the device's files are gone
	assert_line --regexp '^KEVENT\[[0-9.]+\] [0-9]+ power /devices/platform/kevent-demo\.1 temperature=<error: (ENODEV|ENOENT)>'
	# --json --count 2: the two records, the label escaped as JSON
	assert_line --regexp '^\{"type":"event",.*"attr":"temperature","value":"47000",'
	assert_line --partial '"attr":"label","value":"say \"hi\" \\o/"'
	# --class power --format: the temperature, not the label
	assert_line '/devices/platform/kevent-demo.0 temperature=30000 mdegC'
	refute_line --regexp '^/devices/.* label='
	# The modules are gone at the end
	run lsmod
	refute_output --partial kevent
}
