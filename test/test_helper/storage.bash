# SPDX-License-Identifier: GPL-2.0
# Storage for the tests of what the kernel announces: loop devices, an md
# RAID1 array over two of them, ext4 on one. storage_setup_file loads the
# modules (Debian's kernels have them as modules, the debug kernel built
# in); storage_teardown takes down what the helpers made.

storage_setup_file()
{
	[ -e /dev/loop-control ] || modprobe loop
	grep -qw raid1 /proc/mdstat 2>/dev/null || modprobe raid1
	grep -qw ext4 /proc/filesystems || modprobe ext4
}

# The loop devices made, for storage_teardown
LOOPS=()

storage_teardown()
{
	if [ -n "${MNT:-}" ]; then umount "$MNT" 2>/dev/null || true; fi
	if [ -e /dev/md127 ]; then md_stop || true; fi
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	echo 1000 > /proc/sys/dev/raid/speed_limit_min
	echo 200000 > /proc/sys/dev/raid/speed_limit_max
}

# loop_new MIB: a loop device over a new sparse file of MIB MiB, in $LOOP
loop_new()
{
	local img

	img=$(mktemp -p "$BATS_TEST_TMPDIR" img.XXXXXX)
	truncate -s "${1}M" "$img"
	LOOP=$(losetup -f --show "$img")
	LOOPS+=("$LOOP")
}

# md_create [MDADM_OPTION...]: a RAID1 array /dev/md127 over two new loop
# devices, the second in $MD_B, in sync unless an option says otherwise; the
# path of its md directory in $MD
md_create()
{
	local a

	loop_new 32
	a=$LOOP
	loop_new 32
	MD_B=$LOOP
	mdadm --create /dev/md127 --run --level=1 --raid-devices=2 \
		--metadata=1.2 "${@:---assume-clean}" "$a" "$MD_B" >/dev/null 2>&1
	MD=$(readlink -f /sys/block/md127)
	MD=${MD#/sys}/md
}

# md_stop: stop /dev/md127. The first open of a new array scans its
# partitions, and the scan's readahead can still be in flight when mdadm
# stops the array: Debian's 6.1 then crashed in raid1_end_read_request()
# (a NULL pointer in mempool_free(), the pool gone). So the array is opened
# first, which scans it, and stopped once /sys/block/md127/inflight shows
# no read or write in flight.
md_stop()
{
	local i reads writes

	{ : < /dev/md127; } 2>/dev/null || true
	for ((i = 0; i < 50; i++)); do
		read -r reads writes < /sys/block/md127/inflight || break
		[ "$reads$writes" != 00 ] || break
		sleep 0.1
	done
	mdadm --stop /dev/md127 >/dev/null 2>&1
}

# md_resync_slowly: make md's resyncs last (100 to 500 KiB/s: a minute for
# an array of md_create), then create an array that resyncs
md_resync_slowly()
{
	echo 100 > /proc/sys/dev/raid/speed_limit_min
	echo 500 > /proc/sys/dev/raid/speed_limit_max
	md_create --bitmap=none
	[ "$(cat "/sys$MD/sync_action")" = resync ]
}

# ext4_mount: ext4 on a new loop device, mounted with errors=continue on
# $MNT; its kobject path in $FS
ext4_mount()
{
	loop_new 16
	mkfs.ext4 -q "$LOOP"
	MNT=$BATS_TEST_TMPDIR/mnt
	mkdir "$MNT"
	mount -o errors=continue "$LOOP" "$MNT"
	FS=/fs/ext4/${LOOP#/dev/}
	[ -e "/sys$FS/trigger_fs_error" ]
}
