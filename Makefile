# SPDX-License-Identifier: GPL-2.0
#
# kevent: attribute-based kernel events.
#
#   make            build the modules and userspace
#   make check      build everything and run every test (host, unit, VM)
#   make demo       boot the test VM and show kevent-watch reporting events
#   make vm-test T=test/vm/watch-json.bats
#                   rebuild and run one VM test file (the inner loop)
#   make check-kernels
#                   the kernel-facing VM suites on every other installed
#                   kernel (6.1 when make check runs on 6.12), with the
#                   modules built for each (KVER=RELEASE picks make check's)
#   make check-debug
#                   build the debug kernel (KASAN, lockdep, kmemleak,
#                   failslab, KUnit; cached in build/debug-kernel/) and run
#                   test/vm-debug/ and the kernel suites of test/vm/ on it;
#                   any report fails (check-debug-all: all of test/vm/)
#   make vm-test-debug T=test/vm-debug/debug-kernel.bats
#                   the same for one test file
#   make check-upstream
#                   apply the patch series (make patches) to the newest
#                   kernel, build it after each patch (CONFIG_KEVENT=y; the
#                   hwmon and power supply objects with it unset too),
#                   boot it and run test/vm-upstream/ and the kernel suites
#                   of test/vm/ that apply to a built-in layer (cached in
#                   build/upstream-kernel/)
#   make vm-test-upstream T=test/vm-upstream/builtin.bats
#                   the same for one test file
#   make install    install the modules (for the kernel of KDIR), the
#                   library, kevent-watch and their files; PREFIX (default
#                   /usr/local), DESTDIR, BINDIR, LIBDIR, INCLUDEDIR, MANDIR,
#                   DATADIR... as usual; README.md lists the files
#   make uninstall  remove them
#   make install-dkms
#                   install the modules' sources for DKMS into
#                   $(DESTDIR)/usr/src/kevent-VERSION
#   make bench      measure kevent against uevents and sysfs poll() in the
#                   test VM; writes docs/PERFORMANCE.md
#   make patches    the layer, kernfs_notify() and power supply notifying
#                   it, and its selftest, as a git format-patch series with
#                   a cover letter for the newest kernel, generated from
#                   kernel/ into build/patches/
#   make clean      remove build output

.PHONY: all deps modules userspace test-modules check check-host check-unit \
	check-vm check-kernels demo vm-test debug-kernel check-debug check-debug-all \
	vm-test-debug upstream-kernel check-upstream vm-test-upstream install \
	uninstall install-dkms bench patches clean

all: modules userspace

# Install the Debian packages that are missing (silent when none is). Plain
# make, make -C kernel and make -C userspace only compile, and name a
# missing package; the targets that test or boot the VM call this first.
deps:
	@scripts/deps

modules:
	$(MAKE) -C kernel

userspace:
	$(MAKE) -C userspace

# Modules the VM tests load besides kevent's: the kernel's test_power.ko and
# the test drivers of test/kernel/ (kevent_test.ko, kevent_sensor_test.ko...);
# the small netlink programs of test/tools; the kernel's own netlink tool
# (tools/net/ynl), unpacked into build/ynl/; and kevent's modules built by
# DKMS for the VM's kernel, packed for test/vm/install.bats into build/dkms/.
# The scripts run make: "+" hands them make -jN's job slots, whose absence
# they would take for a warning of the build.
test-modules: modules
	+scripts/build-test-power
	+scripts/build-test-driver
	$(MAKE) -C test/tools
	scripts/ynl --dir >/dev/null
	+scripts/build-dkms-tarball >/dev/null

# The targets that test: scripts/deps first, then what they need built (a
# make of its own, which starts when deps has finished, even under -j), a
# job per CPU unless make was given -j
BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))

check: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check

check-host: deps
	scripts/check host

check-unit: deps
	$(MAKE) userspace
	scripts/check unit

check-vm: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check vm

check-kernels: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check kernels

vm-test: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/vm/run-bats $(T)

# The debug kernel and kevent's modules built for it (in build/debug-kernel/)
debug-kernel: deps
	scripts/build-debug-kernel

# scripts/check builds the debug kernel as a stage of its own
check-debug: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check debug

check-debug-all: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check debug-all

vm-test-debug: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/build-debug-kernel
	scripts/vm/run-bats --debug $(T)

# The upstream form (scripts/make-patches): the newest kernel's source is
# fetched once (scripts/fetch-kernel-source)
patches:
	scripts/make-patches

# The series applied to the newest kernel and built patch by patch, the
# kernel and the test drivers for it (in build/upstream-kernel/)
upstream-kernel: deps
	scripts/check-upstream --build-only

# kevent-watch, the test tools and the YNL tool of test-modules run in the
# guest; the modules for Debian's kernel are not loaded there
check-upstream: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check-upstream

vm-test-upstream: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/check-upstream --build-only
	scripts/vm/run-bats --upstream $(T)

demo: deps
	$(MAKE) all
	scripts/vm/run --timeout 300 -- scripts/demo

# Builds what it installs, but does not call scripts/deps: packaging runs it
# with its own build dependencies, without qemu and the test kernel.
install:
	$(MAKE) -C kernel install
	$(MAKE) -C userspace install

uninstall:
	$(MAKE) -C kernel uninstall
	$(MAKE) -C userspace uninstall

# The DKMS source tree: kernel/'s sources, Kbuild, Makefile and dkms.conf,
# with attributes.txt and gen-attributes beside them (kernel/Kbuild looks
# for them there). Its version is dkms.conf's PACKAGE_VERSION. Then:
#   dkms add kevent/VERSION && dkms install kevent/VERSION
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' kernel/dkms.conf)
DKMS_SRCDIR ?= /usr/src/kevent-$(DKMS_VERSION)
DKMS_FILES := kernel/Kbuild kernel/Makefile kernel/dkms.conf \
	$(filter-out %.mod.c %/kevent_attrs.h, $(wildcard kernel/*.c kernel/*.h))
INSTALL ?= install

install-dkms:
	$(INSTALL) -d $(DESTDIR)$(DKMS_SRCDIR)/include/uapi/linux \
		$(DESTDIR)$(DKMS_SRCDIR)/uapi
	$(INSTALL) -m 0644 $(DKMS_FILES) attributes.txt $(DESTDIR)$(DKMS_SRCDIR)
	$(INSTALL) -m 0755 scripts/gen-attributes kernel/kbuild-failure $(DESTDIR)$(DKMS_SRCDIR)
	$(INSTALL) -m 0644 kernel/include/*.h $(DESTDIR)$(DKMS_SRCDIR)/include
	$(INSTALL) -m 0644 kernel/include/uapi/linux/*.h \
		$(DESTDIR)$(DKMS_SRCDIR)/include/uapi/linux
	$(INSTALL) -m 0644 kernel/uapi/*.h $(DESTDIR)$(DKMS_SRCDIR)/uapi

bench: deps
	$(MAKE) $(BUILD_JOBS) all test-modules
	scripts/bench

clean:
	$(MAKE) -C kernel clean
	$(MAKE) -C userspace clean
	$(MAKE) -C test/tools clean
	rm -rf build
