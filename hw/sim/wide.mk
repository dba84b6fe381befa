# SPDX-License-Identifier: MIT
#
# The PPU with every channel the 12-bit ids allow (4096), without a
# compute engine (the task table takes at most 256 channels): a third
# harness build in its own directory, and the RTL tests that need it
# (tests/rtl/wide_main.c: every channel binds and copies, a higher runlist
# level overtakes all the channels waiting at a lower one; about 90 s: the
# model runs at ~6,700 cycles a second, docs/channels-at-scale.md).
# Included by the top-level Makefile after hw/sim/sim.mk.

PPU_WIDE_CHANNELS ?= 4096
# Host contexts on chip (the channel cache): the others wait in their
# channel-table save areas, so the suite loads and writes back contexts
# thousands of times.
PPU_WIDE_CHAN_CACHE ?= 64
PPUSIM_WIDE_DIR := build/hw-wide
PPUSIM_WIDE_LIB := $(PPUSIM_WIDE_DIR)/libppusim.a

# (In the inner make, sim.mk's PPUSIM_LIB is this library and builds it.)
ifneq ($(PPUSIM_WIDE),1)
.PHONY: ppusim-wide
ppusim-wide:
	@$(MAKE) --no-print-directory PPUSIM_DIR=$(PPUSIM_WIDE_DIR) PPUSIM_WIDE=1 \
		PPUSIM_VFLAGS="$(PPUSIM_VFLAGS) -GNUM_CHANNELS=$(PPU_WIDE_CHANNELS) -GNUM_CU=0 \
		-GCHAN_CACHE=$(PPU_WIDE_CHAN_CACHE) -GSCHED_SETS=1" ppusim

$(PPUSIM_WIDE_LIB): ppusim-wide
	@:
endif

RTL_TEST_WIDE_BIN := build/tests/rtl_tests-wide
$(RTL_TEST_WIDE_BIN): tests/rtl/wide_main.c $(RTL_ENV) tests/rtl/rtl_check.c tests/rtl/rtl_check.h \
		$(PPUSIM_WIDE_LIB) include/ppu/*.h
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) $(CHECK_CFLAGS) -DRTL_NUM_CHANNELS=$(PPU_WIDE_CHANNELS) -o $@ \
		tests/rtl/wide_main.c tests/rtl/rtl_env.c tests/rtl/rtl_check.c $(PPUSIM_WIDE_LIB) \
		$(PPUSIM_LDLIBS) $(CHECK_LIBS)

# Scheduling at scale (tests/bench/scale): the same program against the
# default model and this one; `make bench` runs both.
BENCH_SCALE_SRCS := tests/bench/scale/bench_scale.c tests/bench/bench_util.c tests/rtl/rtl_env.c
BENCH_SCALE_BIN := build/bench/ppu_bench_scale
BENCH_SCALE_WIDE_BIN := build/bench/ppu_bench_scale-wide
$(BENCH_SCALE_BIN): $(BENCH_SCALE_SRCS) tests/bench/bench.h $(RTL_ENV) $(PPUSIM_LIB) include/ppu/*.h
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -Itests/bench -o $@ $(BENCH_SCALE_SRCS) $(PPUSIM_LIB) $(PPUSIM_LDLIBS)
$(BENCH_SCALE_WIDE_BIN): $(BENCH_SCALE_SRCS) tests/bench/bench.h $(RTL_ENV) $(PPUSIM_WIDE_LIB) \
		include/ppu/*.h
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -Itests/bench -o $@ $(BENCH_SCALE_SRCS) $(PPUSIM_WIDE_LIB) $(PPUSIM_LDLIBS)
