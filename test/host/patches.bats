#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The upstream form: `make patches` turns the module's sources into a
# git format-patch series for the newest kernel (scripts/make-patches). The
# series applies with git am to a clean tree of that kernel, checkpatch
# --strict passes it, and its files are the module's sources but for what
# only the out-of-tree module needs, so a change of a source shows in it.
# shellcheck disable=SC2016,SC2154 # make's $(...); bats sets $stderr

# Generated once, from this tree, for every test
setup_file()
{
	local big kbase files

	load ../test_helper/common
	# The kernel files the series changes (make-patches' list), taken
	# from the newest kernel's source once: each pass over its 160 MB
	# tarball takes 10-20 s. The tests make and apply the series from a
	# small tarball of those files alone, with the same paths.
	big=${KEVENT_KERNEL_TARBALL:-$("$KEVENT_TOP/scripts/fetch-kernel-source" --print)}
	kbase=$(basename "$big" .tar.xz)
	mapfile -t files < <(awk '/^pristine=\($/ { f = 1; next }
		f && /^\)$/ { exit } f { print $1 }' "$KEVENT_TOP/scripts/make-patches")
	[ "${#files[@]}" -ge 4 ] || return
	mkdir -p "$BATS_FILE_TMPDIR/kernel"
	tar -xJf "$big" -C "$BATS_FILE_TMPDIR/kernel" "${files[@]/#/$kbase/}"
	tar -cJf "$BATS_FILE_TMPDIR/$kbase.tar.xz" -C "$BATS_FILE_TMPDIR/kernel" "$kbase"
	export KEVENT_KERNEL_TARBALL=$BATS_FILE_TMPDIR/$kbase.tar.xz
	"$KEVENT_TOP/scripts/make-patches" "$BATS_FILE_TMPDIR/patches" > /dev/null
}

setup()
{
	load ../test_helper/common
	patches=$BATS_FILE_TMPDIR/patches
	tarball=${KEVENT_KERNEL_TARBALL:-$("$KEVENT_TOP/scripts/fetch-kernel-source" --print)}
	checkpatch=${KEVENT_CHECKPATCH:-$KEVENT_TOP/build/checkpatch/scripts/checkpatch.pl}
	cd "$BATS_TEST_TMPDIR" || return
}

# clean_tree DIR: a git repository of the pristine kernel versions of the
# files that the series changes (those it creates are not there yet)
clean_tree()
{
	local dir=$1 kbase files

	kbase=$(basename "$tarball" .tar.xz)
	# Changed by a patch, and not created by an earlier one
	mapfile -t files < <(awk '
		/^diff --git a\// { f = substr($4, 3); next }
		/^new file mode/ { created[f] = 1; next }
		/^--- a\// { if (!(f in created)) print f }' \
		"$patches"/*.patch | sort -u)
	assert [ "${#files[@]}" -ge 4 ]
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1 "${files[@]/#/$kbase/}"
	git -C "$dir" init -q
	git -C "$dir" add -A
	git -C "$dir" -c user.name=t -c user.email=t@localhost \
		commit -q -m "clean $kbase"
}

# apply_series DIR: the series applied to a clean tree in DIR
apply_series()
{
	clean_tree "$1"
	run git -C "$1" -c user.name=t -c user.email=t@localhost \
		am --empty=drop "$patches"/*.patch
	assert_success
}

@test "make patches writes the series into build/patches, each patch in the kernel's form" {
	local p subjects=()

	run make -C "$KEVENT_TOP" --no-print-directory patches
	assert_success
	for p in "$KEVENT_TOP"/build/patches/*.patch; do
		run cmp "$p" "$patches/$(basename "$p")"
		assert_success
	done
	# Subjects as mail readers show them, unfolded
	mapfile -t subjects < <(awk '
		/^Subject: / { s = substr($0, 10); fold = 1; next }
		fold && /^ / { s = s $0; next }
		fold { print s; fold = 0 }' "$patches"/*.patch)
	assert_equal "${subjects[0]}" "[PATCH 0/5] kevent: attribute-based kernel events over generic netlink"
	assert_equal "${subjects[1]}" "[PATCH 1/5] kevent: attribute-based kernel events over generic netlink"
	assert_equal "${subjects[2]}" "[PATCH 2/5] kevent: add KUnit tests"
	assert_equal "${subjects[3]}" "[PATCH 3/5] kernfs: notify kevent from kernfs_notify()"
	assert_equal "${subjects[4]}" "[PATCH 4/5] power: supply: notify kevent from power_supply_changed()"
	assert_equal "${subjects[5]}" "[PATCH 5/5] selftests: net: test the kevent netlink family"
	assert_equal "${#subjects[@]}" 6
	for p in "$patches"/*.patch; do
		# The cover letter has no sign-off of its own
		[ "${p##*/}" != 0000-cover-letter.patch ] || continue
		# A body of its own before the sign-off, which names the tree's
		# git identity (or the project's)
		run awk '/^Subject:/ { s = 1; next } s && /^$/ { b = 1; next }
			b && /^Signed-off-by:/ { exit } b && NF { n++ }
			END { print n + 0 }' "$p"
		assert [ "$output" -ge 4 ]
		run grep -c '^Signed-off-by: .* <.*@.*>$' "$p"
		assert_output 1
	done
}

# The cover letter is git's, from the description make-patches gives the
# series: git's placeholders must not be left, and its text tells a
# reviewer what each patch does, how to try it, and what is asked.
@test "the cover letter says what the series is for, what each patch does, how to try it, and what reviewers are asked" {
	local cover=$patches/0000-cover-letter.patch n text

	assert [ -f "$cover" ]
	run grep -F '***' "$cover"
	assert_failure
	# Its text: after the headers, up to git's shortlog
	run awk 'NR > 1 && /^$/ { b = 1 } b && /^[^ ].* \([0-9]+\):$/ { exit }
		b' "$cover"
	text=$output
	for n in 1 2 3 4 5; do
		assert_line --regexp "^- Patch $n "
	done
	assert_line --partial 'Documentation/netlink/specs/kevent.yaml'
	assert_line 'Questions for reviewers:'
	# Mail-sized lines
	run awk 'length > 75' <<< "$text"
	assert_output ''
	assert [ "$(wc -l <<< "$text")" -ge 30 ]
	# git's part: the shortlog of the five patches and their diffstat
	run grep -c -E '^  (kevent|kernfs|power|selftests): ' "$cover"
	assert_output 5
	run grep -E '^ [0-9]+ files changed, [0-9]+ insertions' "$cover"
	assert_success
}

@test "the series applies with git am to a clean tree of the newest kernel" {
	apply_series tree
	run git -C tree log --format=%s
	assert_line --index 0 "selftests: net: test the kevent netlink family"
	assert_line --index 1 "power: supply: notify kevent from power_supply_changed()"
	assert_line --index 4 "kevent: attribute-based kernel events over generic netlink"
	# The family's selftest is the tree's, run by the net selftests with
	# the kernel options it needs, and in the layer's MAINTAINERS entry
	run cmp "$KEVENT_TOP/kernel/upstream/nl_kevent.py" tree/tools/testing/selftests/net/nl_kevent.py
	assert_success
	assert [ -x tree/tools/testing/selftests/net/nl_kevent.py ]
	run grep -xF '	nl_kevent.py \' tree/tools/testing/selftests/net/Makefile
	assert_success
	run grep -xE 'CONFIG_(KEVENT=y|TEST_POWER=m)' tree/tools/testing/selftests/net/config
	assert_output "$(printf '%s\n' CONFIG_KEVENT=y CONFIG_TEST_POWER=m)"
	run grep -xF 'F:	tools/testing/selftests/net/nl_kevent.py' tree/MAINTAINERS
	assert_success
	# The layer is wired into the build and the documentation
	run grep -x 'obj-$(CONFIG_KEVENT) += kevent/' tree/lib/Makefile
	assert_success
	# at the top level, not inside a conditional of another option
	run awk '/^if(n?eq|n?def)[ (]/ { depth++ } /^endif/ { depth-- }
		$0 == "obj-$(CONFIG_KEVENT) += kevent/" { print depth }' tree/lib/Makefile
	assert_output 0
	run grep -x 'source "lib/kevent/Kconfig"' tree/lib/Kconfig
	assert_success
	run grep -x '   kevent' tree/Documentation/core-api/index.rst
	assert_success
	run grep -xF 'F:	lib/kevent/' tree/MAINTAINERS
	assert_success
	# The entry names its list and every file, the kernfs hook's header too
	run awk '/^KEVENT ATTRIBUTE-BASED KERNEL EVENTS$/ { e = 1 } e && /^$/ { exit } e' tree/MAINTAINERS
	assert_line 'L:	linux-kernel@vger.kernel.org'
	assert_line 'F:	include/linux/kevent_kernfs.h'
	# The parameters are in kernel-parameters.txt, before kfence.'s
	run grep -oE '^	(kevent|kfence)\.[a-z_]+=' tree/Documentation/admin-guide/kernel-parameters.txt
	assert_equal "$(head -n 4 <<< "$output" | tr -d '\t' | paste -sd' ')" \
		"kevent.coalesce_ms= kevent.replay= kevent.sysfs_notify= kfence.burst="
	run grep -c '\<kevent_notify(' tree/drivers/power/supply/power_supply_core.c
	assert_output 1
	# kernfs_notify() calls the layer behind its static key, and hwmon,
	# whose hwmon_notify_event() calls sysfs_notify(), is left alone
	run grep -c '^	kevent_kernfs_announce(kn);$' tree/fs/kernfs/file.c
	assert_output 1
	run git -C tree log --format= --name-only
	refute_line --regexp '^drivers/hwmon/'
	run grep -x 'kevent-y := kevent_kernfs.o kevent_kernfs_hook.o kevent_main.o \\' tree/lib/kevent/Makefile
	assert_success
}

# The one report left: checkpatch asks for a MAINTAINERS update when the
# KUnit test adds lib/kevent/kevent_kunit.c, which the F: lib/kevent/ entry
# of the first patch covers already; checkpatch does not read MAINTAINERS
# (--no-tree), so it cannot know.
@test "checkpatch --strict passes every patch, but for the KUnit test's file that MAINTAINERS covers" {
	local p

	assert [ -x "$checkpatch" ]
	for p in "$patches"/*.patch; do
		run --separate-stderr "$checkpatch" --no-tree --strict --terse \
			--show-types "$p"
		case $(basename "$p") in
		0002-*)
			assert_failure
			assert_line --index 0 --regexp '^.*/0002-[^:]*:[0-9]+: WARNING:FILE_PATH_CHANGES: added, moved or deleted file\(s\), does MAINTAINERS need updating\?$'
			assert_line --index 1 --regexp '^total: 0 errors, 1 warnings, 0 checks, [0-9]+ lines checked$'
			assert_equal "${#lines[@]}" 2
			;;
		*)
			assert_success
			assert_output ''
			;;
		esac
		assert_equal "$stderr" ''
	done
}

# diff_lines MODULE_FILE TREE_FILE: the lines that differ, < and > marked
diff_lines()
{
	diff "$1" "$2" | grep '^[<>]' || true
}

@test "the in-tree files are the module's sources, but for the compat shims and the module exit" {
	local f top=$KEVENT_TOP

	apply_series tree
	# Byte for byte
	for f in kevent_nl_gen.c kevent_nl_gen.h kevent_path.c kevent_registry.c kevent_replay.c; do
		run cmp "$top/kernel/$f" "tree/lib/kevent/$f"
		assert_success
	done
	run cmp "$top/kernel/uapi/kevent.h" tree/include/uapi/linux/kevent.h
	assert_success
	run cmp "$top/kernel/uapi/kevent.yaml" tree/Documentation/netlink/specs/kevent.yaml
	assert_success
	run cmp "$top/attributes.txt" tree/lib/kevent/attributes.txt
	assert_success
	run cmp "$top/scripts/gen-attributes" tree/lib/kevent/gen-attributes
	assert_success

	# The headers from their places in the tree, and the newest kernel's
	# API where kevent_compat.h has a shim; nothing else
	# once the module exit's helpers are out, which built in are not used
	for f in kevent_source.c kevent_netlink.c kevent_internal.h kevent_kunit.c \
		kevent_kernfs.c; do
		sed -e '/^\/\* Sources left at module exit/,/^}$/d' \
		    -e '/^void __exit kevent_netlink_exit(void)$/,/^}$/d' \
		    -e '/^void kevent_sources_release_all(void);$/d' \
		    -e '/^void kevent_netlink_exit(void);$/d' "$top/kernel/$f" |
			awk '/^$/ { b++; next } { while (b) { print ""; b-- } print }' > "module-$f"
		run bash -c "diff 'module-$f' 'tree/lib/kevent/$f' | grep '^[<>]' |
			grep -vE '^< #include (<kevent.h>|\"kevent_compat.h\"|\"include/kevent.h\"|\"uapi/kevent.h\")\$' |
			grep -vE '^> #include <(linux|uapi/linux)/kevent.h>\$' |
			grep -vE '^< .*kevent_dumpit_attrs\(info\)|^> .*info->info\.attrs' |
			grep -vE '^< .*kevent_kn_(parent|name)\([a-z]+\)|^> .*rcu_dereference_check\([a-z]+->(__parent|name), true\)' |
			grep -vE '^< MODULE_IMPORT_NS\(KEVENT_KUNIT_NS\);\$|^> MODULE_IMPORT_NS\(\"EXPORTED_FOR_KUNIT_TESTING\"\);\$' |
			grep -vE '^< #(ifdef KEVENT_HAVE_GENL_BIND|endif /\* KEVENT_HAVE_GENL_BIND \*/)\$'"
		assert_output ''
	done
	run bash -c "diff '$top/kernel/kevent_netlink.c' tree/lib/kevent/kevent_netlink.c | grep -c '^> .*info->info\.attrs'"
	assert_output 2
	run grep -E 'kevent_sources_release_all|kevent_netlink_exit' -r tree/lib/kevent
	assert_failure

	# Built in: an initcall instead of the module's init, exit and tags
	run diff_lines "$top/kernel/kevent_main.c" tree/lib/kevent/kevent_main.c
	assert_line '> postcore_initcall(kevent_init);'
	assert_line '< module_init(kevent_init);'
	assert_line '< MODULE_LICENSE("GPL");'
	refute_line --regexp '^> .*[^;]$'
	assert_equal "$(grep -c '^>' <<< "$output")" 1

	# The driver API: its guard, and empty notify calls without CONFIG_KEVENT
	run diff_lines "$top/kernel/include/kevent.h" tree/include/linux/kevent.h
	assert_line '> #if IS_ENABLED(CONFIG_KEVENT)'
	assert_line '> static inline int kevent_notify(struct kobject *kobj, const char *attr)'
	refute_line --regexp '^< (int|void|struct|	)'
}

@test "a change of the module's sources shows in the series" {
	local src=$BATS_TEST_TMPDIR/src

	mkdir -p "$src/scripts"
	cp -r "$KEVENT_TOP/kernel" "$src/"
	cp "$KEVENT_TOP/attributes.txt" "$src/"
	cp "$KEVENT_TOP/scripts/gen-attributes" "$src/scripts/"
	sed -i 's|^int kevent_notify(struct kobject \*kobj, const char \*attr)$|/* changed here */\n&|' \
		"$src/kernel/kevent_source.c"
	printf 'a_new_name\tgeneral\t-\tA name added to the registry\n' >> "$src/attributes.txt"

	KEVENT_SOURCE_DIR=$src run --separate-stderr \
		"$KEVENT_TOP/scripts/make-patches" out
	assert_success
	run grep -xF '+/* changed here */' out/0001-*.patch
	assert_success
	run grep -xF "+a_new_name	general	-	A name added to the registry" out/0001-*.patch
	assert_success
	# And not in the series made from this tree
	run grep -F 'changed here' "$patches"/0001-*.patch
	assert_failure
}

@test "without CONFIG_KEVENT, a driver calling every function of the series' <linux/kevent.h> builds: each has its stub" {
	local kver kdir fn drv=$BATS_TEST_TMPDIR/drv

	kver=$("$KEVENT_TOP/scripts/kernel-version")
	kdir=/lib/modules/$kver/build
	run grep -x 'CONFIG_KEVENT=.*' "$kdir/.config"
	assert_failure
	cp -r "$KEVENT_TOP/test/fixtures/kevent-off" "$drv"
	# The series' two headers, as git am would create them
	run -0 git -C "$drv" apply --include='include/*' "$patches"/0001-*.patch
	# The driver calls each function the module's header declares
	for fn in $(sed -nE 's/^[a-z].*[ *]((devm_)?kevent_[a-z_]+)\($/\1/p; s/^[a-z].*[ *]((devm_)?kevent_[a-z_]+)\(.*$/\1/p' \
		"$KEVENT_TOP/kernel/include/kevent.h" | sort -u); do
		grep -q "\<$fn(" "$drv/kevent_off.c" || fail "kevent_off.c does not call $fn()"
	done
	run make -C "$kdir" M="$drv" modules
	assert_success
	assert [ -f "$drv/kevent_off.ko" ]
}

@test "the patches are the author's of git's configuration, signed off and maintained by them" {
	local cfg=$BATS_TEST_TMPDIR/gitconfig

	printf '[user]\n\tname = Ann Author\n\temail = ann@example.org\n' > "$cfg"
	GIT_CONFIG_GLOBAL=$cfg GIT_CONFIG_NOSYSTEM=1 run --separate-stderr \
		"$KEVENT_TOP/scripts/make-patches" out
	assert_success
	run grep -c '^From: Ann Author <ann@example.org>$' out/*.patch
	refute_output --partial ':0'
	# Every patch is signed off; the cover letter, which changes nothing,
	# is not
	run grep -L '^Signed-off-by: Ann Author <ann@example.org>$' out/*.patch
	assert_output out/0000-cover-letter.patch
	run grep -xF '+M:	Ann Author <ann@example.org>' out/0001-*.patch
	assert_success
}

@test "without user.name or user.email in git's configuration the series is not made, and the error says what to set" {
	local cfg=$BATS_TEST_TMPDIR/gitconfig

	printf '[user]\n\tname = Ann Author\n' > "$cfg"
	GIT_CONFIG_GLOBAL=$cfg GIT_CONFIG_NOSYSTEM=1 run --separate-stderr \
		"$KEVENT_TOP/scripts/make-patches" out
	assert_failure 1
	assert_equal "$stderr" "make-patches: no author: set git config user.name and user.email, whose Signed-off-by the patches carry"
	assert [ ! -e out/0001-*.patch ]
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 run --separate-stderr \
		"$KEVENT_TOP/scripts/make-patches" out
	assert_failure 1
	assert_equal "$stderr" "make-patches: no author: set git config user.name and user.email, whose Signed-off-by the patches carry"
}

@test "a kernel file that lost the line a patch goes after fails the series, naming it" {
	local kbase fake=$BATS_TEST_TMPDIR/fake

	kbase=$(basename "$tarball" .tar.xz)
	mkdir -p "$fake"
	tar -xJf "$tarball" -C "$fake"
	sed -i 's|	/\* kick poll immediately \*/|	/* kick poll */|' \
		"$fake/$kbase/fs/kernfs/file.c"
	tar -cJf "$fake/$kbase.tar.xz" -C "$fake" "$kbase"

	KEVENT_KERNEL_TARBALL=$fake/$kbase.tar.xz run --separate-stderr \
		"$KEVENT_TOP/scripts/make-patches" out
	assert_failure
	assert_equal "$stderr" "make-patches: fs/kernfs/file.c: no line '	/* kick poll immediately */'"
}
