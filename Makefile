# SPDX-License-Identifier: GPL-2.0
#
# kevent: attribute-based kernel events.
#
#   make            build the modules and userspace
#   make check      build everything and run every test (host, unit, VM)
#   make demo       boot the test VM and show kevent-watch reporting events
#   make vm-test T=test/vm/watch-json.bats
#                   rebuild and run one VM test file (the inner loop)
#   make clean      remove build output

.PHONY: all deps modules userspace test-modules check check-host check-unit \
	check-vm demo vm-test clean

all: modules userspace

# Install the Debian packages that are missing (silent when none is).
deps:
	@scripts/deps

modules: deps
	$(MAKE) -C kernel

userspace: deps
	$(MAKE) -C userspace

# Modules the VM tests load besides kevent's: the kernel's test_power.ko
test-modules: deps
	scripts/build-test-power

check: deps all test-modules
	scripts/check

check-host: deps
	scripts/check host

check-unit: deps userspace
	scripts/check unit

check-vm: deps all test-modules
	scripts/check vm

vm-test: deps all test-modules
	scripts/vm/run-bats $(T)

demo: deps all
	scripts/vm/run --timeout 300 -- scripts/demo

clean:
	$(MAKE) -C kernel clean
	$(MAKE) -C userspace clean
	rm -rf build
