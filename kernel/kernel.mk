# SPDX-License-Identifier: MIT
#
# ppu.ko, ppu-smi and the guest tests of the kernel driver.  Included from
# the top-level Makefile; paths are relative to the repository root.
#
#   make kmod              build build/kernel/ppu.ko against $(KDIR)
#   make kmod-sparse       the same, every file through sparse (C=2)
#   make kmod-layers       check that kernel/ includes only down its layers
#                          (tools/check-kernel-layers; also run by lint-run)
#   make kmod-clean        remove build/kernel
#   make ppu-smi           build build/tools/ppu-smi
#   make kmod-guest-tests  build the static guest programs (for the busybox
#                          initramfs): build/guest/test_get_param, test_irq,
#                          test_unplug, test_gem, test_vm, test_chan, test_sem,
#                          test_lmem, test_isolation, test_limits, test_unpriv, test_watchdog,
#                          test_compute, bench_ioctl,
#                          bench_submit, ppu-smi, seeds_b_guest, test_smi
#
# KDIR defaults to the running kernel's headers; the co-simulated guest runs
# Debian's 6.1 kernel, so tests use KDIR=/lib/modules/6.1.0-56-amd64/build.
#
# Kbuild cannot put objects outside the module directory on 6.1 (no MO=),
# so the module sources are copied to build/kernel and built there.

KDIR ?= /lib/modules/$(shell uname -r)/build
KMOD_BUILD := build/kernel
KMOD_SRCS := Kbuild $(wildcard kernel/*.c kernel/*.h) include/ppu/ppu_hw.h \
	include/ppu/ppu_encode.h $(wildcard include/ppu/*.def) include/uapi/drm/ppu_drm.h
KMOD_COPIES := $(addprefix $(KMOD_BUILD)/,$(KMOD_SRCS))
KMOD := $(KMOD_BUILD)/ppu.ko
KMOD_MAKE = $(MAKE) -C $(KDIR) M=$(abspath $(KMOD_BUILD))

PPU_SMI := build/tools/ppu-smi
KMOD_GUEST_BINS := build/guest/test_get_param build/guest/test_irq build/guest/test_unplug \
	build/guest/test_gem build/guest/test_vm build/guest/test_chan build/guest/test_sem \
	build/guest/test_lmem build/guest/test_isolation build/guest/test_compute \
	build/guest/test_limits build/guest/test_unpriv build/guest/test_watchdog build/guest/test_device_errors \
	build/guest/bench_ioctl build/guest/bench_submit build/guest/bench_recovery \
	build/guest/ppu-smi build/guest/seeds_b_guest build/guest/test_smi
# Guest programs run in a busybox initramfs: link statically.
KMOD_GUEST_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Iinclude -Iinclude/uapi \
	$(shell pkg-config --cflags libdrm) -pthread
KMOD_GUEST_LIBS = $(shell pkg-config --static --libs check)

.PHONY: kmod kmod-sparse kmod-layers kmod-clean ppu-smi kmod-guest-tests

$(KMOD_COPIES): $(KMOD_BUILD)/%: %
	@mkdir -p $(@D)
	cp $< $@

KMOD_CHECK_KDIR = @test -f $(KDIR)/Makefile || { echo "no kernel build tree in \
	KDIR=$(KDIR): install the linux-headers package or pass KDIR=" >&2; exit 1; }

kmod: $(KMOD_COPIES)
	$(KMOD_CHECK_KDIR)
	$(KMOD_MAKE) modules

# C=2 checks every file, also those that are up to date.
kmod-sparse: $(KMOD_COPIES)
	$(KMOD_CHECK_KDIR)
	$(KMOD_MAKE) C=2 modules

kmod-layers:
	tools/check-kernel-layers kernel

kmod-clean:
	rm -rf $(KMOD_BUILD)

ppu-smi: $(PPU_SMI)

PPU_SMI_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Iinclude -Iinclude/uapi \
	-Itools/smi $(shell pkg-config --cflags libdrm pciaccess)
# The debugfs parsers are a file of their own, unit-tested on canned text.
PPU_SMI_SRCS := tools/ppu-smi.c tools/smi/smi_debugfs.c
PPU_SMI_DEPS := $(PPU_SMI_SRCS) tools/smi/smi_debugfs.h include/uapi/drm/ppu_drm.h \
	include/ppu/ppu_hw.h include/ppu/*.def

$(PPU_SMI): $(PPU_SMI_DEPS)
	@mkdir -p $(@D)
	$(CC) $(PPU_SMI_CFLAGS) -o $@ $(PPU_SMI_SRCS) $(shell pkg-config --libs pciaccess)

build/guest/ppu-smi: $(PPU_SMI_DEPS)
	@mkdir -p $(@D)
	$(CC) $(PPU_SMI_CFLAGS) -static -o $@ $(PPU_SMI_SRCS) \
		$(shell pkg-config --static --libs pciaccess)

kmod-guest-tests: $(KMOD_GUEST_BINS)

KMOD_GUEST_HELPERS := tests/guest/ppu_guest.c tests/guest/ppu_guest.h \
	tests/guest/ppu_guest_work.c tests/guest/ppu_guest_work.h tests/guest/ppu_node.c \
	tests/guest/ppu_node.h tests/guest/ppu_guest_claims.c tests/guest/ppu_guest_claims.h

build/guest/test_%: tests/guest/test_%.c $(KMOD_GUEST_HELPERS) include/uapi/drm/ppu_drm.h \
		include/ppu/ppu_hw.h include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -static -o $@ $< tests/guest/ppu_guest.c \
		tests/guest/ppu_guest_work.c tests/guest/ppu_guest_claims.c tests/guest/ppu_node.c \
		$(KMOD_GUEST_LIBS)

# Plain C (no Check): GET_PARAM round-trip times and doorbell -> completion
# latency, see tools/cosim-bench.sh.
build/guest/bench_ioctl: tests/guest/bench_ioctl.c tests/guest/ppu_node.c tests/guest/ppu_node.h \
		include/uapi/drm/ppu_drm.h
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -static -o $@ $< tests/guest/ppu_node.c

build/guest/bench_submit: tests/guest/bench_submit.c tests/guest/ppu_node.c tests/guest/ppu_node.h \
		include/uapi/drm/ppu_drm.h include/ppu/ppu_hw.h include/ppu/ppu_encode.h \
		include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -static -o $@ $< tests/guest/ppu_node.c

# Watchdog latency and the cost of an engine reset to the other files
# (tools/cosim-bench.sh); uses the Check-based guest helpers.
build/guest/bench_recovery: tests/guest/bench_recovery.c $(KMOD_GUEST_HELPERS) \
		include/uapi/drm/ppu_drm.h include/ppu/ppu_hw.h include/ppu/ppu_encode.h \
		include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -static -o $@ $< tests/guest/ppu_guest.c \
		tests/guest/ppu_guest_work.c tests/guest/ppu_node.c $(KMOD_GUEST_LIBS)

# The SEEDS §B example through the driver (Check suite with --check; the
# demonstration of `make demo` without).
build/guest/seeds_b_guest: tests/guest/seeds_b_guest.c $(KMOD_GUEST_HELPERS) \
		include/uapi/drm/ppu_drm.h include/ppu/ppu_hw.h include/ppu/ppu_encode.h \
		include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -static -o $@ $< tests/guest/ppu_guest.c \
		tests/guest/ppu_guest_work.c tests/guest/ppu_node.c $(KMOD_GUEST_LIBS)

# The error tests drive the co-simulation's injection BAR (its header).
build/guest/test_device_errors: KMOD_GUEST_CFLAGS += -Ihw/sim/cosim
build/guest/test_device_errors: hw/sim/cosim/ppu_inject.h

# test_smi runs /bin/ppu-smi: rebuild it with the tool.
build/guest/test_smi: build/guest/ppu-smi
