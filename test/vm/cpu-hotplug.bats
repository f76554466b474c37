#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kevent_bridge.ko follows CPU devices as they come and go: a CPU that QEMU
# hot-adds after load gets a source for its online file, and a CPU that it
# removes loses its source. The guest asks QEMU itself, through the QMP
# monitor that scripts/vm/run --qmp gives it. Two CPUs at boot and a free
# slot for a third: cores only, so that a CPU's core_id is its QEMU core-id.
# A host thread for each vCPU: with one for all, QEMU aborts when it
# removes a CPU (it joins the thread that runs the others too).
# vm-options: --cpus 2,maxcpus=3,sockets=1,cores=3,threads=1 --qmp --multi-thread

setup()
{
	load ../test_helper/kevent
	bridge_load
}

teardown()
{
	watch_stop
	bridge_unload
}

# qmp_port: the guest's device of the virtio port named kevent.qmp
qmp_port()
{
	local port

	for port in /sys/class/virtio-ports/*; do
		if [ "$(cat "$port/name" 2>/dev/null)" = kevent.qmp ]; then
			echo "/dev/${port##*/}"
			return 0
		fi
	done
	echo "no virtio port kevent.qmp (scripts/vm/run --qmp)" >&2
	return 1
}

# qmp COMMAND [ARGUMENTS]: run QMP COMMAND with ARGUMENTS (a JSON object)
# and print its reply's "return" as JSON; on an error reply, print its
# description on stderr and fail. The monitor's session lasts the whole
# boot: negotiate (an error once done, ignored), then skip every line
# (greeting, events, other replies) until the reply tagged with our id.
qmp()
{
	local port id fd line reply='' args=${2:-'{}'}

	port=$(qmp_port) || return 1
	id="kevent-$$-$RANDOM"
	exec {fd}<>"$port"
	printf '{"execute":"qmp_capabilities","id":"%s-caps"}\n' "$id" >&"$fd"
	printf '{"execute":"%s","arguments":%s,"id":"%s"}\n' "$1" "$args" "$id" >&"$fd"
	while IFS= read -r -t 30 -u "$fd" line; do
		if [ "$(jq -r '.id // empty' <<<"$line" 2>/dev/null)" = "$id" ]; then
			reply=$line
			break
		fi
	done
	exec {fd}>&-
	if [ -z "$reply" ]; then
		echo "qmp: no reply to $1" >&2
		return 1
	fi
	if jq -e 'has("error")' <<<"$reply" >/dev/null; then
		echo "qmp: $1: $(jq -r .error.desc <<<"$reply")" >&2
		return 1
	fi
	jq -c .return <<<"$reply"
}

# cpus: the CPU devices there are now (cpu0 cpu1 ...)
cpus()
{
	local d

	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		echo "${d##*/}"
	done
}

# wait_gone DIR: wait up to 30 s for DIR to disappear
wait_gone()
{
	for _ in $(seq 300); do
		[ -e "$1" ] || return 0
		sleep 0.1
	done
	echo "$1 is still there after 30 s" >&2
	return 1
}

@test "a CPU that QEMU hot-adds gets a source for online and its events; device_del takes the source away" {
	# Only the kernel can make room for a CPU that is not there at boot:
	# 6.9 and later count QEMU's empty slots only under a hypervisor it
	# knows (KVM, ...), not under TCG, where possible equals present.
	possible=$(cat /sys/devices/system/cpu/possible)
	if [ "$possible" = "$(cat /sys/devices/system/cpu/present)" ]; then
		skip "the guest kernel has no CPU slot to hot-add into (possible CPUs: $possible)"
	fi
	slot=$(qmp query-hotpluggable-cpus |
		jq -c 'map(select(has("qom-path") | not)) | first')
	refute [ "$slot" = null ]
	before=$(cpus)

	watch_start --json --attr online
	qmp device_add "$(jq -c '.props + {driver: .type, id: "kevent-cpu"}' <<<"$slot")"
	cpu=
	for _ in $(seq 300); do
		cpu=$(comm -13 <(echo "$before") <(cpus))
		[ -n "$cpu" ] && [ -e "/sys/devices/system/cpu/$cpu/online" ] && break
		sleep 0.1
	done
	assert [ -e "/sys/devices/system/cpu/$cpu/online" ]
	c=/devices/system/cpu/$cpu

	run sources
	assert_line "$c online"
	assert_equal "$(cat "/sys$c/online")" 0
	echo 1 > "/sys$c/online"
	event_wait "$c" online 1

	qmp device_del '{"id": "kevent-cpu"}'
	wait_gone "/sys$c"
	run sources
	refute_output --partial "$c "
}

@test "a CPU present at load that QEMU removes loses its online source" {
	c=/devices/system/cpu/cpu1
	run sources
	assert_line "$c online"

	core=$(cat "/sys$c/topology/core_id")
	path=$(qmp query-hotpluggable-cpus |
		jq -r --argjson core "$core" \
			'map(select(.props["core-id"] == $core)) | first | ."qom-path"')
	refute [ "$path" = null ]
	# The guest kernel takes the CPU offline before QEMU ejects it.
	qmp device_del "$(jq -nc --arg p "$path" '{id: $p}')"
	wait_gone "/sys$c"
	run sources
	refute_output --partial "$c "
	# Removal then leaves nothing behind at unload
	rmmod kevent_bridge
	run sources
	refute_output --partial /devices/system/cpu/
}
