#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# kernel/uapi/kevent.yaml, the family's YNL spec: valid for the kernel's own
# schema of generic netlink specs, and in agreement with the uAPI header
# (names, values, groups, limits) that the module and libkevent are built
# with.

setup_file()
{
	load ../test_helper/common
	# Unpacked once, before the tests run (it takes a while the first time)
	"$KEVENT_TOP/scripts/ynl" --dir > /dev/null
}

setup()
{
	load ../test_helper/common
	ynl=$KEVENT_TOP/scripts/ynl
	dir=$("$ynl" --dir)
	schema=$dir/Documentation/netlink/genetlink.yaml
	cli=$dir/tools/net/ynl/pyynl/cli.py
	spec=$KEVENT_TOP/kernel/uapi/kevent.yaml
	cd "$BATS_TEST_TMPDIR"
}

@test "the spec is valid for the kernel's schema of generic netlink families" {
	run --separate-stderr "$ynl" --schema "$schema" --validate
	assert_success
	assert_equal "$stderr" ''
}

@test "a spec with an error fails the kernel's validation" {
	sed 's/^        type: u64$/        type: u65/' "$spec" > bad.yaml
	run --separate-stderr python3 "$cli" --spec bad.yaml --schema "$schema" --validate
	assert_failure
	assert_stderr_partial "'u65'"
}

# spec_asserts: C static assertions, from the spec, of every name and value
# the uAPI header must have
spec_asserts()
{
	python3 - "$spec" <<'PY'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))
def c(name):
    return name.upper().replace('-', '_')
out = []
for d in spec['definitions']:
    if d['type'] == 'const':
        out.append(f"_Static_assert(KEVENT_{c(d['name'])} == {d['value']}, \"{d['name']}\");")
    elif d['type'] == 'enum':
        for i, e in enumerate(d['entries']):
            out.append(f"_Static_assert(KEVENT_{c(d['name'])}_{c(e['name'])} == {i}, \"{e['name']}\");")
        out.append(f"_Static_assert(KEVENT_{c(d['name'])}_MAX == {len(d['entries']) - 1}, \"max\");")
for s in spec['attribute-sets']:
    for i, a in enumerate(s['attributes'], 1):
        out.append(f"_Static_assert(KEVENT_A_{c(a['name'])} == {i}, \"{a['name']}\");")
    out.append(f"_Static_assert(KEVENT_A_MAX == {len(s['attributes'])}, \"attr max\");")
for i, op in enumerate(spec['operations']['list'], 1):
    out.append(f"_Static_assert(KEVENT_CMD_{c(op['name'])} == {i}, \"{op['name']}\");")
out.append(f"_Static_assert(KEVENT_CMD_MAX == {len(spec['operations']['list'])}, \"cmd max\");")
for g in spec['mcast-groups']['list']:
    n = g['name']
    out.append(f"_Static_assert(sizeof(KEVENT_MCGRP_{c(n)}) == {len(n) + 1} && "
               f"__builtin_strcmp(KEVENT_MCGRP_{c(n)}, \"{n}\") == 0, \"{n}\");")
out.append(f"_Static_assert(__builtin_strcmp(KEVENT_FAMILY_NAME, \"{spec['name']}\") == 0, \"name\");")
print('#include <kevent.h>')
print('\n'.join(out))
PY
}

@test "the uAPI header has every name and value of the spec" {
	spec_asserts > agree.c
	run grep -c _Static_assert agree.c
	assert_output 39
	run --separate-stderr cc -std=gnu11 -fsyntax-only -I"$KEVENT_TOP/kernel/uapi" agree.c
	assert_success
}

@test "an attribute out of place in the spec breaks the agreement" {
	# stat-sent and stat-coalesced swapped: both values change
	python3 - "$spec" > swapped.yaml <<'PY'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))
a = spec['attribute-sets'][0]['attributes']
a[7], a[8] = a[8], a[7]
print(yaml.safe_dump(spec))
PY
	spec=swapped.yaml spec_asserts > swapped.c
	run --separate-stderr cc -std=gnu11 -fsyntax-only -I"$KEVENT_TOP/kernel/uapi" swapped.c
	assert_failure
	assert_stderr_partial 'stat-sent'
}
