# SPDX-License-Identifier: MIT
#
# The PPU in its PCIe FPGA shell (hw/fpga, docs/fpga.md): the simulation
# model of ppu_fpga_top with AXI responders (libppusim_fpga.a, the same C
# API as libppusim.a), the RTL tests and the co-simulation device built
# on it, and the synthesis figures.  Included by the top-level Makefile
# after hw/sim/sim.mk and tools/cosim.mk.

PPUSIM_FPGA_DIR := build/hw-fpga
PPUSIM_FPGA_LIB := $(PPUSIM_FPGA_DIR)/libppusim_fpga.a

# A second harness build of hw/sim/sim.mk in its own directory; its own
# make decides what is out of date, so this rule always asks it.  (In
# that make, sim.mk's PPUSIM_LIB is this library and builds it.)
ifneq ($(PPUSIM_FPGA),1)
.PHONY: ppusim-fpga
ppusim-fpga:
	@$(MAKE) --no-print-directory PPUSIM_DIR=$(PPUSIM_FPGA_DIR) PPUSIM_FPGA=1 ppusim

$(PPUSIM_FPGA_LIB): ppusim-fpga
	@:
endif

# The whole-PPU RTL tests against the FPGA top: the shell's suite
# (tests/rtl/test_fpga.c) and the suites rtl_suites.h lists for it.
RTL_TEST_FPGA_BIN := build/tests/rtl_tests-fpga
$(RTL_TEST_FPGA_BIN): $(RTL_TESTS) tests/rtl/rtl_main.c tests/rtl/rtl_suites.h $(RTL_ENV) \
		tests/rtl/rtl_check.c tests/rtl/rtl_check.h $(SEEDS_B) $(PPUSIM_FPGA_LIB) include/ppu/*.h \
		$(RTL_COMPUTE) $(RTL_RUNTIME_SRCS) runtime/module_elf.h runtime/launch_plan.h \
		$(ISS_SRCS) $(ISS_HDRS) $(RANDPB) | device-kernels
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) $(CHECK_CFLAGS) -DPPU_RTL_FPGA -o $@ tests/rtl/rtl_main.c $(RTL_TESTS) \
		tests/examples/seeds_b.c tests/rtl/rtl_env.c tests/rtl/rtl_check.c tests/common/ppu_randpb.c \
		tests/rtl/rtl_compute.c $(RTL_RUNTIME_SRCS) $(ISS_SRCS) $(PPUSIM_FPGA_LIB) $(PPUSIM_LDLIBS) \
		$(CHECK_LIBS)

# The co-simulation device process serving the FPGA top (ppu-cosim --fpga).
COSIM_DEV_FPGA := build/cosim/ppu-cosim-dev-fpga
$(COSIM_DEV_FPGA): $(COSIM_DEV_SRCS) $(COSIM_DEV_HDRS) $(PPUSIM_FPGA_LIB) \
		include/ppu/*.h include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(COSIM_CFLAGS) $(PPUSIM_CFLAGS) -Ihw/sim/cosim -o $@ \
		$(COSIM_DEV_SRCS) $(PPUSIM_FPGA_LIB) $(PPUSIM_LDLIBS)
