#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The family's uAPI header (kernel/uapi/kevent.h) and its policy and ops
# tables (kernel/kevent_nl_gen.[ch]) are the output of the kernel's own
# ynl_gen_c.py on kernel/uapi/kevent.yaml (scripts/ynl-gen), committed as
# generated: regenerating them gives the same bytes, and a change of the
# spec that the files do not follow is caught.

setup_file()
{
	load ../test_helper/common
	# Unpacked once, before the tests run (it takes a while the first time)
	"$KEVENT_TOP/scripts/ynl" --dir > /dev/null
}

setup()
{
	load ../test_helper/common
	gen=$KEVENT_TOP/scripts/ynl-gen
	cd "$BATS_TEST_TMPDIR"
}

@test "regenerating the uAPI header and the family's tables gives the same bytes" {
	run --separate-stderr "$gen" --out out
	assert_success
	for f in kernel/uapi/kevent.h kernel/kevent_nl_gen.h kernel/kevent_nl_gen.c; do
		run cmp "out/$f" "$KEVENT_TOP/$f"
		assert_success
	done
	# And --check, run after an edit of the spec, agrees
	run --separate-stderr "$gen" --check
	assert_success
	assert_equal "$stderr" ''
}

@test "the generated files say so, and the module builds them as they are" {
	for f in kernel/uapi/kevent.h kernel/kevent_nl_gen.h kernel/kevent_nl_gen.c; do
		run sed -n 2p "$KEVENT_TOP/$f"
		assert_output '/* Do not edit directly, auto-generated from: */'
	done
	# kevent-y, its continuation lines joined, names the generated object
	run awk '/^kevent-y :=/ { on = 1 } on { printf "%s ", $0; if (!/\\$/) exit }' \
		"$KEVENT_TOP/kernel/Kbuild"
	assert_output --regexp '(^| )kevent_nl_gen\.o( |$)'
	# No hand-kept policy or ops table beside the generated ones
	run grep -lE 'struct (genl_ops|genl_split_ops|nla_policy|genl_family) [a-z_]+(\[\])? (__ro_after_init )?=' \
		"$KEVENT_TOP"/kernel/kevent_main.c "$KEVENT_TOP"/kernel/kevent_netlink.c \
		"$KEVENT_TOP"/kernel/kevent_source.c "$KEVENT_TOP"/kernel/kevent_replay.c
	assert_output ''
}

@test "a spec the committed files do not follow fails the check, naming the files" {
	# A new attribute at the end of the set: the header and the tables of
	# the requests that take it change
	sed 's/^            - seq$/            - seq\n            - stat-sources/' \
		"$KEVENT_TOP/kernel/uapi/kevent.yaml" > changed.yaml
	run cmp -s changed.yaml "$KEVENT_TOP/kernel/uapi/kevent.yaml"
	assert_failure
	run --separate-stderr "$gen" --spec changed.yaml --check
	assert_failure
	assert_stderr_partial 'kernel/kevent_nl_gen.c differs from what the spec generates'
	# A doc line only changes the uAPI header's comment
	sed 's/^      The class of an attribute, from the registry; each class is a$/      The class of an attribute; each class is a/' \
		"$KEVENT_TOP/kernel/uapi/kevent.yaml" > doc.yaml
	run --separate-stderr "$gen" --spec doc.yaml --check
	assert_failure
	assert_equal "$stderr" 'ynl-gen: kernel/uapi/kevent.h differs from what the spec generates'
}
