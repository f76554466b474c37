#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The test VM runner (scripts/vm/run, run-bats, scan-kernel-log): a guest
# command's output and status come back; a failing command, a panic, a hang
# or a kernel complaint fails the run. The VM tests boot QEMU once each
# (about 15-30 s apiece under software emulation), so there are few of them.
# shellcheck disable=SC2016,SC2154 # guest command lines; bats sets $stderr

setup()
{
	load ../test_helper/common
	vm=$KEVENT_TOP/scripts/vm
	logs=$KEVENT_TOP/test/fixtures/vm/kernel-log
	# Tests run from the work tree, which the guest sees at the same path.
	cd "$KEVENT_TOP" || return
}

# vm_run ARGS...: scripts/vm/run with the console log in the test's tmpdir,
# its vCPUs in one host thread (as run-bats boots them): a boot then costs
# the host one CPU, not two threads spinning on each other
vm_run()
{
	run --separate-stderr "$vm/run" --single-thread --log "$BATS_TEST_TMPDIR/console.log" "$@"
}

# Host-only: what bats-env.bash (BASH_ENV of bats in the guest) saves
@test "bats under scripts/vm/bats-env.bash runs a file starting no mkdir, rm, date, dirname, basename, mktemp or readlink" {
	local bin=$BATS_TEST_TMPDIR/bin log=$BATS_TEST_TMPDIR/ran

	fake_commands "$bin" "$log" mkdir rm date dirname basename mktemp readlink
	# Not a heredoc: bats would rewrite a line starting with @test here
	printf '%s\n' '@test "a test that makes a directory" {' \
		'	mkdir "$BATS_TEST_TMPDIR/made"' '	[ -d "$BATS_TEST_TMPDIR/made" ]' '}' \
		>"$BATS_TEST_TMPDIR/one.bats"
	# Without it, bats starts the fakes
	run env PATH="$bin:$PATH" bats --tap --timing "$BATS_TEST_TMPDIR/one.bats"
	assert_success
	[ -s "$log" ] || fail "bats alone started none of the fakes"
	rm -f "$log"
	run env BASH_ENV="$vm/bats-env.bash" PATH="$bin:$PATH" \
		bats --tap --timing "$BATS_TEST_TMPDIR/one.bats"
	assert_success
	assert_line --regexp '^ok 1 a test that makes a directory in [0-9]+ms$'
	[ ! -e "$log" ] || fail "started: $(sort -u "$log" | tr '\n' ' ')"
}

# Host-only tests of the kernel log scanner

@test "a clean kernel log passes the scanner and prints nothing" {
	run "$vm/scan-kernel-log" "$logs/clean.log"
	assert_success
	assert_output ''
}

@test "a kernel BUG is reported by the scanner with its line" {
	run -1 "$vm/scan-kernel-log" "$logs/bug.log"
	assert_output --partial 'BUG: kernel NULL pointer dereference'
}

@test "a kernel WARNING is reported by the scanner with its line" {
	run -1 "$vm/scan-kernel-log" "$logs/warning.log"
	assert_output --partial 'WARNING: CPU: 1 PID: 231 at kernel/kevent/core.c:412'
}

@test "an Oops is reported by the scanner with its line" {
	run -1 "$vm/scan-kernel-log" "$logs/oops.log"
	assert_output --partial 'Oops: 0000 [#1] PREEMPT SMP NOPTI'
}

@test "a KASAN report is reported by the scanner with its line" {
	run -1 "$vm/scan-kernel-log" "$logs/kasan.log"
	assert_output --partial 'KASAN: null-ptr-deref in range'
}

@test "a lockdep circular locking report is reported by the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/lockdep.log"
	assert_output --partial 'possible circular locking dependency detected'
}

@test "suspicious RCU usage is reported by the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/rcu.log"
	assert_output --partial 'suspicious RCU usage'
}

@test "a KASAN use-after-free report is reported by the scanner with its BUG line" {
	run -1 "$vm/scan-kernel-log" "$logs/kasan-uaf.log"
	assert_output --partial 'BUG: KASAN: use-after-free in kevent_source_notify'
}

@test "a sleeping function called from atomic context is reported by the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/sleep.log"
	assert_output --partial 'BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580'
}

@test "a lockdep recursive locking report is reported by the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/lockdep-recursive.log"
	assert_output --partial 'WARNING: possible recursive locking detected'
}

@test "lock debugging turned off by a taint is reported by the scanner" {
	# debug_locks goes to 0 with one line and no BUG or WARNING: the
	# checks after it see nothing
	run -1 "$vm/scan-kernel-log" "$logs/lockdep-off.log"
	assert_output '[   63.870215] Disabling lock debugging due to kernel taint'
}

@test "lockdep turning itself off is reported by the scanner, each line of it" {
	run -1 "$vm/scan-kernel-log" "$logs/lockdep-full.log"
	assert_line --index 0 --partial 'BUG: MAX_LOCKDEP_CHAIN_HLOCKS too low!'
	assert_line --index 1 --partial 'turning off the locking correctness validator.'
}

@test "a kmemleak report copied into the kernel log is reported by the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/kmemleak.log"
	assert_output --partial 'kmemleak: unreferenced object 0xffff888006c1e480 (size 64):'
	# The count alone, as a scan at boot prints it, is not a report.
	refute_output --partial 'new suspected memory leaks'
}

@test "a clean boot of the debug kernel passes the scanner" {
	run "$vm/scan-kernel-log" "$logs/clean-debug.log"
	assert_success
	assert_output ''
}

@test "an allocation failure reported inside a declared fault injection window passes the scanner" {
	run "$vm/scan-kernel-log" "$logs/injected-alloc.log"
	assert_success
	assert_output ''
}

@test "an allocation failure report outside a fault injection window fails the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/uninjected-alloc.log"
	assert_output --partial 'Call Trace:'
}

@test "a KASAN report inside a fault injection window still fails the scanner" {
	run -1 "$vm/scan-kernel-log" "$logs/injected-kasan.log"
	assert_output --partial 'BUG: KASAN'
}

@test "the scanner reads standard input and prints only the offending lines" {
	run -1 "$vm/scan-kernel-log" < <(cat "$logs/clean.log" "$logs/oops.log")
	assert_equal "${#lines[@]}" 1
	assert_output --partial 'Oops:'
}

@test "the scanner fails with status 2 on a file it cannot read" {
	run -2 "$vm/scan-kernel-log" "$BATS_TEST_TMPDIR/missing.log"
	assert_output --partial 'cannot read'
}

# Host-only tests of the runner's argument and setup checks

@test "the runner without a command is a usage error and boots nothing" {
	vm_run
	assert_failure 2
	assert_stderr_partial 'no command given'
	[ ! -e "$BATS_TEST_TMPDIR/console.log" ]
}

@test "the runner refuses a timeout that is not a number" {
	vm_run --timeout soon -- true
	assert_failure 2
	assert_stderr_partial "not a positive number: 'soon'"
}

@test "a working directory the guest cannot see fails the runner before booting" {
	cd /dev/shm || return
	vm_run -- true
	assert_failure 125
	assert_stderr_partial "is not visible in the guest"
	[ ! -e "$BATS_TEST_TMPDIR/console.log" ]
}

@test "a missing kernel image fails the runner with a message naming it" {
	KEVENT_VM_KERNEL=$BATS_TEST_TMPDIR/vmlinuz vm_run -- true
	assert_failure 125
	assert_stderr_partial "kernel image $BATS_TEST_TMPDIR/vmlinuz not found"
}

@test "a missing --kernel image fails the runner with a message naming it" {
	vm_run --kernel "$BATS_TEST_TMPDIR/bzImage" -- true
	assert_failure 125
	assert_stderr_partial "kernel image $BATS_TEST_TMPDIR/bzImage not found"
	[ ! -e "$BATS_TEST_TMPDIR/console.log" ]
}

@test "the runner refuses a CPU topology with an unknown key, a zero or a key given twice" {
	vm_run --cpus 2,cpus=2 -- true
	assert_failure 2
	assert_stderr_partial "not a CPU topology item"
	vm_run --cpus 2,threads=0 -- true
	assert_failure 2
	assert_stderr_partial "not a positive number: '0' in --cpus '2,threads=0'"
	vm_run --cpus 2,cores=2,cores=1 -- true
	assert_failure 2
	assert_stderr_partial "cores given twice"
	[ ! -e "$BATS_TEST_TMPDIR/console.log" ]
}

# Tests that boot the VM

@test "a guest command's output, working directory and status 0 come back" {
	# A tree under /tmp is visible too (as where a CI clone may be).
	dir="$BATS_TEST_TMPDIR/harness work dir"
	mkdir -p "$dir"
	cd "$dir" || return
	KEVENT_VM_PROBE='a b' KEVENT_PROBE='x  y' vm_run -- \
		'echo "out $(pwd)"; echo err >&2;' \
		'echo "probe=$KEVENT_VM_PROBE kevent=$KEVENT_PROBE";' \
		'[ "$(id -u)" = 0 ] && [ -e /dev/fd/1 ] && uname -r;' \
		'grep -m 1 "^model name" /proc/cpuinfo'
	assert_success
	# The default CPU model, whose processes start fastest under TCG
	assert_line --regexp $'^model name\t: .*Nehalem'
	assert_line "out $dir"
	assert_line err
	assert_line "probe= kevent=x  y"
	assert_line "$("$KEVENT_TOP/scripts/kernel-version")"
	# Nothing on stderr but the note that the initramfs was (re)built.
	assert_equal "$(grep -v '^vm/run: building ' <<<"$stderr")" ''
	tr -d '\r' <"$BATS_TEST_TMPDIR/console.log" | grep -qx 'KEVENT-VM-EXIT=0'
}

@test "--cpus with a topology gives the guest SMT siblings, and --qmp QEMU's monitor on the port kevent.qmp" {
	cat > "$BATS_TEST_TMPDIR/guest.sh" <<-'EOF'
		cat /sys/devices/system/cpu/online
		cat /sys/devices/system/cpu/cpu1/topology/thread_siblings_list
		for p in /sys/class/virtio-ports/*; do
			[ "$(cat "$p/name")" = kevent.qmp ] && port=/dev/${p##*/}
		done
		exec 4<>"$port"
		echo '{"execute": "qmp_capabilities"}' >&4
		echo '{"execute": "query-status", "id": 7}' >&4
		while read -r -t 20 line <&4; do
			case $line in *'"id": 7'*) echo "$line"; break ;; esac
		done
	EOF
	vm_run --cpus 4,sockets=1,cores=2,threads=2 --qmp -- bash "$BATS_TEST_TMPDIR/guest.sh"
	assert_success
	assert_line 0-3
	assert_line 0-1
	assert_line --partial '"status": "running"'
}

@test "run-bats boots a file with a vm-options line on its own, with those options" {
	cp test/fixtures/vm/passing.bats "$BATS_TEST_TMPDIR/plain.bats"
	# Not a heredoc: bats would rewrite a line starting with @test here
	printf '%s\n' '# vm-options: --cpus 3' '@test "the guest has 3 CPUs" {' \
		'[ "$(nproc)" = 3 ]' '}' > "$BATS_TEST_TMPDIR/topology.bats"
	run --separate-stderr env KEVENT_VM_LOG_DIR="$BATS_TEST_TMPDIR" KEVENT_VM_JOBS=2 \
		"$vm/run-bats" "$BATS_TEST_TMPDIR/topology.bats" "$BATS_TEST_TMPDIR/plain.bats"
	assert_success
	# Each file with its own plan, in a boot of its own: the file with
	# options in a guest of 3 CPUs, the other in the default guest of 2
	assert_equal "$(grep -c '^1\.\.' <<<"$output")" 2
	assert_line --regexp '^ok 1 the guest runs as root in the kevent test VM in [0-9]+ms$'
	assert_line --regexp '^ok 1 the guest has 3 CPUs in [0-9]+ms$'
	assert [ -s "$BATS_TEST_TMPDIR/console.log" ]
	assert [ -s "$BATS_TEST_TMPDIR/console.1.log" ]
}

@test "run-bats shares the files among boots running at once, each file run once and its report whole" {
	local f boots

	for f in a b c d; do
		cp test/fixtures/vm/passing.bats "$BATS_TEST_TMPDIR/$f.bats"
		# Each file says which boot ran it (its boot id), and keeps
		# it long enough for the other boot to take a file too
		printf '%s\n' '@test "the boot of '$f'" {' \
			'echo "# '$f' $(cat /proc/sys/kernel/random/boot_id)" >&3' \
			'sleep 3' '}' >> "$BATS_TEST_TMPDIR/$f.bats"
	done
	run --separate-stderr env KEVENT_VM_LOG_DIR="$BATS_TEST_TMPDIR" KEVENT_VM_JOBS=2 \
		"$vm/run-bats" "$BATS_TEST_TMPDIR"/{a,b,c,d}.bats
	assert_success
	# Four reports, each whole: its plan, then its three tests in order
	assert_equal "$(grep -c '^1\.\.3$' <<<"$output")" 4
	assert_equal "$(grep -c '^ok 3 the boot of [abcd] in' <<<"$output")" 4
	# Two boots, two console logs, two boot ids among the files' lines
	boots=$(grep -o '^# [abcd] [0-9a-f-]*$' <<<"$output" | cut -d' ' -f3 | sort -u | wc -l)
	assert_equal "$boots" 2
	assert [ -s "$BATS_TEST_TMPDIR/console.log" ]
	assert [ -s "$BATS_TEST_TMPDIR/console.1.log" ]
	run -0 awk '/^1\.\./ { n = 0; next } /^ok / { n++; if ($2 != n) bad = 1 }
		END { exit bad }' <<<"$output"
	# The durations of this run, for the order of the next
	run -0 cut -d' ' -f1 "$BATS_TEST_TMPDIR/durations.default"
	assert_equal "$(sort <<<"$output" | tr '\n' ' ')" \
		"$BATS_TEST_TMPDIR/a.bats $BATS_TEST_TMPDIR/b.bats $BATS_TEST_TMPDIR/c.bats $BATS_TEST_TMPDIR/d.bats "
}

@test "test/vm/durations.debug gives the seconds of each file check-debug runs, for the order of a fresh clone" {
	local f

	run -0 sed -n '/^DEBUG_SUITES="/,/"$/p' scripts/check
	for f in test/vm-debug/*.bats $(grep -o 'test/vm/[a-z0-9-]*\.bats' <<<"$output"); do
		assert [ -e "$f" ]
		run grep -E "^$f [0-9]+$" test/vm/durations.debug
		assert_success
	done
}

@test "run-bats names a file whose boot ended before it did, and fails with 125" {
	run --separate-stderr env KEVENT_VM_LOG_DIR="$BATS_TEST_TMPDIR" KEVENT_VM_JOBS=2 \
		"$vm/run-bats" test/fixtures/vm/panicking.bats test/fixtures/vm/passing.bats
	assert_failure 125
	# The other boot ran the other file
	assert_line --regexp '^ok 2 the guest has /dev/fd, debugfs and a writable /tmp in [0-9]+ms$'
	assert_stderr_line 'vm/run-bats: test/fixtures/vm/panicking.bats did not finish: its boot ended first'
	assert_stderr_partial 'guest kernel panicked'
}

@test "a failing guest command fails the runner with the command's status" {
	vm_run -- false
	assert_failure 1
	assert_output ''
}

@test "a failing bats test in the guest fails run-bats and shows the TAP report" {
	run --separate-stderr env KEVENT_VM_LOG_DIR="$BATS_TEST_TMPDIR" \
		"$vm/run-bats" test/fixtures/vm/passing.bats test/fixtures/vm/failing.bats
	assert_failure 1
	assert_equal "$(grep -c '^1\.\.2$' <<<"$output")" 2
	assert_line --regexp '^ok 1 the guest runs as root in the kevent test VM in [0-9]+ms$'
	assert_line --regexp '^ok 2 the guest has /dev/fd, debugfs and a writable /tmp in [0-9]+ms$'
	assert_line --regexp '^ok 1 a test that passes in [0-9]+ms$'
	assert_line --regexp '^not ok 2 a test that fails on purpose in [0-9]+ms$'
}

@test "a guest kernel panic fails the runner with status 125 and says so" {
	vm_run -- 'echo c > /proc/sysrq-trigger; sleep 60'
	assert_failure 125
	assert_stderr_partial 'guest kernel panicked'
}

@test "a hanging guest is stopped at the timeout and fails the runner" {
	SECONDS=0
	vm_run --timeout 20 -- sleep 1000
	assert_failure 125
	assert_stderr_partial 'guest timed out after 20s'
	[ "$SECONDS" -lt 40 ]
	run pgrep -f -- "file:$BATS_TEST_TMPDIR/console.log"
	assert_failure 1
}

@test "a BUG in the guest's kernel log fails the runner although the command succeeded" {
	vm_run -- 'echo "BUG: kevent harness probe" > /dev/kmsg; echo done'
	assert_failure 125
	assert_output 'done'
	assert_stderr_partial 'BUG: kevent harness probe'
	assert_stderr_partial 'guest kernel log reports problems, command exited 0'
}
