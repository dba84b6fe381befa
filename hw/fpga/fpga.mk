# SPDX-License-Identifier: MIT
#
# The PPU in its PCIe FPGA shell (hw/fpga, docs/fpga.md): the simulation
# model of ppu_fpga_top with AXI responders (libppusim_fpga.a, the same C
# API as libppusim.a), the RTL tests and the co-simulation device built
# on it, and the synthesis figures.  Included by the top-level Makefile
# after hw/sim/sim.mk and tools/cosim.mk.

PPUSIM_FPGA_DIR := build/hw-fpga
# The FPGA-top model has more channels than the 32 the pending registers
# and the per-channel windows serve, so that make check runs the driver's
# and the RTL's paths for the channels beyond them (event ring only,
# CHAN_SEL, 12-bit ids) on every run; synthesis keeps the default 16.
PPU_FPGA_SIM_CHANNELS := 64
# ... and keeps the host context of only 8 of them on chip (the channel
# cache, docs/channels-at-scale.md): the RTL suites and the guest batch
# against this model load and write back channels all the time.
PPU_FPGA_SIM_CHAN_CACHE := 8
PPUSIM_FPGA_LIB := $(PPUSIM_FPGA_DIR)/libppusim_fpga.a

# A second harness build of hw/sim/sim.mk in its own directory; its own
# make decides what is out of date, so this rule always asks it.  (In
# that make, sim.mk's PPUSIM_LIB is this library and builds it.)
ifneq ($(PPUSIM_FPGA),1)
.PHONY: ppusim-fpga
ppusim-fpga:
	@$(MAKE) --no-print-directory PPUSIM_DIR=$(PPUSIM_FPGA_DIR) PPUSIM_FPGA=1 \
		PPUSIM_VFLAGS="$(PPUSIM_VFLAGS) -GNUM_CHANNELS=$(PPU_FPGA_SIM_CHANNELS) \
		-GCHAN_CACHE=$(PPU_FPGA_SIM_CHAN_CACHE) -GSCHED_SETS=1" ppusim

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
	$(CC) $(PPU_CFLAGS) $(CHECK_CFLAGS) -DPPU_RTL_FPGA -DRTL_NUM_CHANNELS=$(PPU_FPGA_SIM_CHANNELS) -o $@ tests/rtl/rtl_main.c $(RTL_TESTS) \
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

# ppu.ko against the FPGA top in one boot of the co-simulated guest: the
# driver's probe, registers and interrupts through AXI-Lite and the MSI
# request line, buffer objects and VM binds, copy channels (system and
# local memory through both AXI masters, bursts, ordering), semaphores,
# interrupt-driven waits and interrupt storms, compute kernels, the SEEDS
# §B example, local memory (zeroed, copied both ways, run out and cleared
# for its next owner), and memory errors injected through BAR2, which the
# FPGA model answers with SLVERR (docs/fpga.md).  Three to five minutes
# of runs on two shared cores.  The device gets 16 MiB of local memory
# instead of 64 (PPU_TEST_LOCAL_MEM_MIB tells the tests): test_lmem has
# the driver clear all of it several times, and the FPGA model copies at
# about 1 MB/s here (0.75 beats a cycle: the responders offer READY on
# 75 % of cycles), which turns full 64 MiB clears into minutes.  The rest of the batch
# exercises the driver and the runtime, not the shell, and stays with
# `make guest-check`.
GUEST_FPGA_LMEM_MIB := 16
GUEST_FPGA_PROGS := test_get_param test_gem test_vm test_chan test_sem test_irq test_lmem \
	test_compute seeds_b_guest test_device_errors
GUEST_FPGA_ENV := PPU_TEST_LOCAL_MEM_MIB=$(GUEST_FPGA_LMEM_MIB) PPU_TEST_NUM_CHANNELS=$(PPU_FPGA_SIM_CHANNELS)
GUEST_FPGA_RUNS := --run '$(GUEST_FPGA_ENV) /bin/test_get_param' --run /bin/test_gem \
	--run /bin/test_vm --run /bin/test_chan --run /bin/test_sem --run /bin/test_irq \
	--run '$(GUEST_FPGA_ENV) /bin/test_lmem' --run /bin/test_compute \
	--run '/bin/seeds_b_guest --check' --run /bin/test_device_errors \
	--run '$(GUEST_FPGA_ENV) /bin/test_get_param'
.PHONY: guest-check-fpga guest-check-fpga-run
guest-check-fpga: deps
	@$(MAKE) --no-print-directory guest-check-fpga-run

guest-check-fpga-run: cosim-tools $(COSIM_DEV_FPGA) kmod kmod-guest-tests device-kernels
	$(COSIM_RUNNER) --fpga --kver $(PPU_KVER) --timeout 1200 --module $(KMOD) \
		--dev-arg=--local-mem-mib=$(GUEST_FPGA_LMEM_MIB) \
		$(foreach t,$(GUEST_FPGA_PROGS),--file build/guest/$(t):/bin/$(t)) \
		$(foreach k,$(DEVICE_ELFS),--file $(k):/lib/ppu/$(notdir $(k))) \
		$(GUEST_FPGA_RUNS)

# Lint variant: no compute engine, 64-bit buses (no lanes), a BAR0 window
# wider than the register bus, single-beat bursts.
PPU_FPGA_LINT_VARIANT := -GNUM_CU=0 -GDMA_DATA_W=64 -GDDR_DATA_W=64 -GAXIL_ADDR_W=20 -GMAX_BURST=1

# Synthesis for real parts (docs/fpga.md "Synthesis figures"): Yosys
# synth_xilinx for UltraScale+ (xcup) and 7-series (xc7), per block and in
# total.  SYNTH_FPGA_CONFIGS: shell (hw/fpga alone, ppu_top a black box),
# small (the reduced compute engine of `make lint`: one unit of 4
# contexts, 2 task slots, 8 task ids) and default (the PPU's default
# parameters).  tools/ppu-synth-fpga runs one Yosys process per module,
# two at a time; each run leaves the wall time per module in stages.txt.
# A run's figures are kept in build/synth-fpga/<family>-<config>/ with
# the hash of everything they depend on (sources, parameters, scripts,
# Yosys version): `make bench` prints them and runs again only the ones
# that are missing or stale, saying so first (the default configuration
# takes most of an hour per family on two cores: docs/fpga.md).
SYNTH_FPGA_CONFIGS ?= shell small default
SYNTH_FPGA_FAMILIES ?= xcup xc7
SYNTH_FPGA_small := NUM_CU=1 CU_CONTEXTS=4 TASK_SLOTS=2 NUM_TASKS=8
SYNTH_FPGA_default :=
# What a run's figures depend on (the report is made again from its
# statistics each time, so it is not among them).
SYNTH_FPGA_INPUTS = $(PPUSIM_VSRCS) $(PPU_FPGA_SRCS) tools/ppu-synth-fpga
.PHONY: synth-fpga synth-fpga-run synth-fpga-bench
synth-fpga: deps
	@$(MAKE) --no-print-directory synth-fpga-run

# SYNTH_FPGA_ONLY_STALE=1: only the runs whose figures are missing or stale.
synth-fpga-run: $(PPU_SVPKG)
	@set -e; for c in $(SYNTH_FPGA_CONFIGS); do for f in $(SYNTH_FPGA_FAMILIES); do \
		d=build/synth-fpga/$$f-$$c; \
		case $$c in small) p="$(SYNTH_FPGA_small)" ;; *) p="$(SYNTH_FPGA_default)" ;; esac; \
		key=$$( { cat $(SYNTH_FPGA_INPUTS); yosys -V; echo "$$f $$c $$p"; } | sha256sum | cut -c1-16); \
		if [ "$(SYNTH_FPGA_ONLY_STALE)" = 1 ] && [ -s $$d/stat.txt ] && \
		   [ "$$(cat $$d/key 2>/dev/null)" = "$$key" ]; then continue; fi; \
		echo "synth-fpga: $$f $$c ($${p:-default parameters}): synthesising (the default" \
			"configuration takes most of an hour per family on two cores)"; \
		rm -f $$d/key; \
		PPU_SYNTH_SHELL_ONLY=$$([ $$c = shell ] && echo 1 || echo 0) \
		PPU_SYNTH_FAMILY=$$f PPU_SYNTH_PARAMS="$$p" PPU_SYNTH_OUT=$$d \
			tools/ppu-synth-fpga $(PPUSIM_VSRCS) $(PPU_FPGA_SRCS); \
		echo "$$key" > $$d/key; \
		tools/ppu-synth-fpga-report $$f $$d/stat.txt > $$d/report.md; \
		cat $$d/report.md; \
	done; done

# The figures of every configured run, synthesising the missing or stale
# ones first.
synth-fpga-bench: $(PPU_SVPKG)
	@$(MAKE) --no-print-directory synth-fpga-run SYNTH_FPGA_ONLY_STALE=1 >&2
	@set -e; for c in $(SYNTH_FPGA_CONFIGS); do for f in $(SYNTH_FPGA_FAMILIES); do \
		tools/ppu-synth-fpga-report --bench fpga_synth_$${f}_$$c $$f build/synth-fpga/$$f-$$c/stat.txt; \
	done; done

# The ioctl fuzzer (tests/fuzz) against the FPGA top: the channel cache
# (8 slots of 64 channels) and memory that stalls the ports, under three
# hostile clients.  Seed 11 is the run that found the invalidate
# handshake's lost count (docs/hw-internals.md), about a minute in.
FUZZ_FPGA_SEED ?= 11
FUZZ_FPGA_TIME ?= 100
.PHONY: fuzz-fpga-check
fuzz-fpga-check: cosim-tools $(COSIM_DEV_FPGA) kmod $(FUZZ_BIN)
	$(COSIM_RUNNER) --fpga --kver $(PPU_KVER) --timeout 600 --module $(KMOD) \
		--dev-arg=--local-mem-mib=$(GUEST_FPGA_LMEM_MIB) --file $(FUZZ_BIN):/bin/ppu_fuzz \
		--run '/bin/ppu_fuzz --seed $(FUZZ_FPGA_SEED) --calls 1000000000000 \
		--time-limit $(FUZZ_FPGA_TIME) $(FUZZ_OPTS)'
