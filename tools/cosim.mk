# SPDX-License-Identifier: MIT
#
# Co-simulation: the device process that serves the Verilated PPU to QEMU
# (build/cosim/ppu-cosim-dev) and the guest runner (build/tools/ppu-cosim).
# Included by the top-level Makefile after hw/sim/sim.mk; paths are
# relative to the repo root.
#
#   make cosim-tools    build both binaries
#   make cosim-smoke    boot the guest and check the PPU is on its PCI bus
#                       (ids, BAR0 ID/CAP registers, a RW register through
#                       /dev/mem), no driver needed
#
# Runtime needs (Debian): qemu-system-x86, busybox-static,
# linux-image-amd64.  The guest runs under TCG with one vCPU; run one
# co-simulation at a time on a small machine.

COSIM_DEV := build/cosim/ppu-cosim-dev
COSIM_RUNNER := build/tools/ppu-cosim
COSIM_DEV_SRCS := hw/sim/cosim/ppu_cosim_dev.c hw/sim/cosim/cosim_pci.c \
	hw/sim/cosim/cosim_qtest.c
COSIM_DEV_HDRS := $(wildcard hw/sim/cosim/*.h) hw/sim/ppu_sim.h
COSIM_CFLAGS = -std=gnu11 -Wall -Wextra $(if $(CFLAGS),$(CFLAGS),-O2 -g)
COSIM_SMOKE_TIMEOUT ?= 180

.PHONY: cosim-tools cosim-smoke

cosim-tools: $(COSIM_DEV) $(COSIM_RUNNER)

$(COSIM_DEV): $(COSIM_DEV_SRCS) $(COSIM_DEV_HDRS) $(PPUSIM_LIB) \
		include/ppu/*.h include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(COSIM_CFLAGS) $(PPUSIM_CFLAGS) -Ihw/sim/cosim -o $@ \
		$(COSIM_DEV_SRCS) $(PPUSIM_LIB) $(PPUSIM_LDLIBS)

# The runner, one concern per file (docs/cosim.md): the cpio writer, the
# module resolver, the initramfs, the guest kernel, QEMU, the device
# process, the console, the verdict, the options and main.  All but main.c
# are linked into the unit tests too (COSIM_RUNNER_LIB_SRCS).
COSIM_RUNNER_LIB_SRCS := tools/cosim/util.c tools/cosim/cpio.c tools/cosim/modules.c tools/cosim/fetch.c \
	tools/cosim/initramfs.c tools/cosim/guest_kernel.c tools/cosim/qemu.c \
	tools/cosim/device.c tools/cosim/console.c tools/cosim/results.c tools/cosim/options.c \
	tools/cosim/qtest_mux.c
COSIM_RUNNER_SRCS := $(COSIM_RUNNER_LIB_SRCS) tools/cosim/main.c
COSIM_RUNNER_HDRS := $(wildcard tools/cosim/*.h)

$(COSIM_RUNNER): $(COSIM_RUNNER_SRCS) $(COSIM_RUNNER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(COSIM_CFLAGS) -Itools/cosim -o $@ $(COSIM_RUNNER_SRCS)

cosim-smoke: cosim-tools
	$(COSIM_RUNNER) --timeout $(COSIM_SMOKE_TIMEOUT) \
		--file tests/guest/cosim-smoke.sh:/bin/cosim-smoke \
		--run /bin/cosim-smoke
