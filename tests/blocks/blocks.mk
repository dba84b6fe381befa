# SPDX-License-Identifier: MIT
#
# Per-block testbenches: each RTL block Verilated on its own and driven by
# a C++ Check testbench in tests/blocks/ (one testbench per block).
#
# Included by the top-level Makefile after hw/sim/sim.mk (for VERILATOR and
# the generated package $(PPU_SVPKG)); every path is relative to the repo
# root.  Targets:
#
#   blocks       build every model and testbench
#   blocks-run   build, then run every testbench; fails if any test fails
#   blocks-clean remove build/blocks
#
# CK_RUN_CASE=<test> runs one test, CK_VERBOSITY=verbose lists every test,
# CK_FORK=no runs them in one process (for gdb).  Knob: BLOCKS_VFLAGS (extra
# verilator options for every model).
#
# Models go to build/blocks/<model>/ (class V<model>, so one testbench can
# link two configurations of a block).  A model is rebuilt
# from scratch when its verilator command changes, and re-verilated when its
# RTL or the packages change; a testbench is relinked when its source, the
# shared header, ppu_hw.h or one of its models changes.

BLOCKS_DIR := build/blocks
BLOCKS_SRC := tests/blocks
BLOCKS_PKGS = $(PPU_SVPKG) hw/rtl/ppu_types_pkg.sv
BLOCKS_VFLAGS ?=

# Variables with no reset value start random (seeded by the testbench).
BLOCKS_VERILATE_BASE = $(VERILATOR) --cc --build -j 2 -O3 --x-assign unique --x-initial unique

BLOCKS_VLROOT = $(eval BLOCKS_VLROOT := \
	$$(shell $(VERILATOR) --getenv VERILATOR_ROOT))$(BLOCKS_VLROOT)

# Same VM_* as the models' own makefiles (no coverage, SystemC or trace);
# verilator's headers are -isystem so -Wall -Wextra stay ours.
BLOCKS_CXXFLAGS = -std=gnu++17 -O2 -g -Wall -Wextra -faligned-new -MMD -MP \
	-Iinclude -I$(BLOCKS_SRC) \
	-isystem $(BLOCKS_VLROOT)/include -isystem $(BLOCKS_VLROOT)/include/vltstd \
	-DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE=0 -DVM_TRACE_FST=0 -DVM_TRACE_VCD=0 \
	$(shell pkg-config --cflags check)
BLOCKS_LDLIBS = $(shell pkg-config --libs check) -pthread -latomic

# $(call BLOCKS_MODEL,model,top module,RTL files,verilator flags)
define BLOCKS_MODEL
BLOCKS_MDIR_$(1) := $(BLOCKS_DIR)/$(1)
BLOCKS_LIB_$(1) := $(BLOCKS_DIR)/$(1)/V$(1)__ALL.a
BLOCKS_GLOBALS_$(1) := $(BLOCKS_DIR)/$(1)/globals.txt
BLOCKS_VSRCS_$(1) = $$(BLOCKS_PKGS) $(3)
BLOCKS_VERILATE_$(1) = $$(BLOCKS_VERILATE_BASE) --top-module $(2) --prefix V$(1) \
	--Mdir $(BLOCKS_DIR)/$(1) $(4) $$(BLOCKS_VFLAGS) $$(BLOCKS_VSRCS_$(1))

# Rewritten only when the command changes; a new command drops the old model.
$(BLOCKS_DIR)/$(1).cmd: blocks-force
	@mkdir -p $$(@D)
	@echo '$$(BLOCKS_VERILATE_$(1))' | cmp -s - $$@ || \
		{ rm -rf $(BLOCKS_DIR)/$(1); echo '$$(BLOCKS_VERILATE_$(1))' > $$@; }

# verilator leaves identical outputs untouched: touch, or this reruns forever.
# Its own make runs with its own -j, outside ours (no jobserver warnings).
$(BLOCKS_DIR)/$(1)/V$(1)__ALL.a: $$(BLOCKS_VSRCS_$(1)) $(BLOCKS_DIR)/$(1).cmd
	MAKEFLAGS= $$(BLOCKS_VERILATE_$(1))
	touch $$@

# The runtime objects (verilated.o, ...) a --build without --exe leaves
# out, compiled by the model's own makefile so they get its flags.
$(BLOCKS_DIR)/$(1)/globals.txt: $(BLOCKS_DIR)/$(1)/V$(1)__ALL.a
	printf 'globals.txt: $$$$(VK_GLOBAL_OBJS)\n\techo $$$$^ > $$$$@\n' | \
		$$(MAKE) --no-print-directory -C $(BLOCKS_DIR)/$(1) -f V$(1).mk \
		-f - -o V$(1).mk globals.txt
	touch $$@
endef

# $(call BLOCKS_TB,testbench,models...): the first model supplies the runtime.
define BLOCKS_TB
$(BLOCKS_DIR)/tb_$(1): $(BLOCKS_SRC)/tb_$(1).cpp $(foreach m,$(2),$$(BLOCKS_LIB_$(m))) \
		$$(BLOCKS_GLOBALS_$(firstword $(2)))
	@mkdir -p $$(@D)
	$$(CXX) $$(BLOCKS_CXXFLAGS) $(foreach m,$(2),-isystem $$(BLOCKS_MDIR_$(m))) \
		-MF $$@.d -MT $$@ -o $$@ $$< $(foreach m,$(2),$$(BLOCKS_LIB_$(m))) \
		$$$$(sed 's|[^ ][^ ]*|$$(BLOCKS_MDIR_$(firstword $(2)))/&|g' \
			$$(BLOCKS_GLOBALS_$(firstword $(2)))) \
		$$(BLOCKS_LDLIBS)
endef

$(eval $(call BLOCKS_MODEL,ppu_copy,ppu_copy,hw/rtl/ppu_copy.sv,))
# Smallest legal configuration: one beat per chunk, two reads in flight.
$(eval $(call BLOCKS_MODEL,ppu_copy_min,ppu_copy,hw/rtl/ppu_copy.sv,-GCHUNK_BYTES=8 -GMAX_READS=2))
# The testbenches drive inputs after the falling edge, where a clock gate
# has already sampled its enable, so the semaphore unit and the MMU are
# built without their gates here; the whole-PPU suites run them gated.
$(eval $(call BLOCKS_MODEL,ppu_sem,ppu_sem,hw/rtl/ppu_clk_gate.sv hw/rtl/ppu_sem.sv,-GCLOCK_GATE=0))
$(eval $(call BLOCKS_MODEL,ppu_mmu,ppu_mmu,hw/rtl/ppu_clk_gate.sv hw/rtl/ppu_mmu.sv,-GCLOCK_GATE=0))
$(eval $(call BLOCKS_MODEL,ppu_mem_arb,ppu_mem_arb,hw/rtl/ppu_mem_arb.sv,))
$(eval $(call BLOCKS_MODEL,ppu_cu_decode,ppu_cu_decode,hw/rtl/ppu_cu_decode.sv,))
$(eval $(call BLOCKS_MODEL,ppu_cu_alu,ppu_cu_alu,hw/rtl/ppu_cu_alu.sv,))
$(eval $(call BLOCKS_MODEL,ppu_cu_muldiv,ppu_cu_muldiv,hw/rtl/ppu_cu_muldiv.sv,))
# The semaphore unit and the memory arbiter together (a test wrapper), with
# the RMW lock and, as the control, with the lock cut.
BLOCKS_SEM_ARB_RTL := hw/rtl/ppu_clk_gate.sv hw/rtl/ppu_sem.sv hw/rtl/ppu_mem_arb.sv $(BLOCKS_SRC)/tb_sem_arb_top.sv
$(eval $(call BLOCKS_MODEL,sem_arb,tb_sem_arb_top,$(BLOCKS_SEM_ARB_RTL),))
$(eval $(call BLOCKS_MODEL,sem_arb_nolock,tb_sem_arb_top,$(BLOCKS_SEM_ARB_RTL),-GLOCK_EN=0))

$(eval $(call BLOCKS_TB,copy,ppu_copy ppu_copy_min))
$(eval $(call BLOCKS_TB,sem,ppu_sem))
$(eval $(call BLOCKS_TB,mmu,ppu_mmu))
$(eval $(call BLOCKS_TB,mem_arb,ppu_mem_arb))
$(eval $(call BLOCKS_TB,cu_decode,ppu_cu_decode))
$(eval $(call BLOCKS_TB,cu_alu,ppu_cu_alu))
$(eval $(call BLOCKS_TB,cu_muldiv,ppu_cu_muldiv))
$(eval $(call BLOCKS_TB,sem_arb,sem_arb sem_arb_nolock))

BLOCKS_BINS := $(BLOCKS_DIR)/tb_copy $(BLOCKS_DIR)/tb_sem $(BLOCKS_DIR)/tb_mmu \
	$(BLOCKS_DIR)/tb_mem_arb $(BLOCKS_DIR)/tb_cu_decode $(BLOCKS_DIR)/tb_cu_alu \
	$(BLOCKS_DIR)/tb_cu_muldiv $(BLOCKS_DIR)/tb_sem_arb

# Task table: the defaults, and a small configuration (8 ids, 2 slots,
# 1 CU of 4 contexts, 2 channels).
BLOCKS_TASKS_RTL := hw/rtl/ppu_tasks.sv hw/rtl/ppu_tasks_pick.sv
$(eval $(call BLOCKS_MODEL,ppu_tasks,ppu_tasks,$(BLOCKS_TASKS_RTL),))
$(eval $(call BLOCKS_MODEL,ppu_tasks_min,ppu_tasks,$(BLOCKS_TASKS_RTL),-GNUM_TASKS=8 -GTASK_SLOTS=2 -GNUM_CU=1 -GCU_CONTEXTS=4 -GNC=2))
$(eval $(call BLOCKS_TB,tasks,ppu_tasks ppu_tasks_min))
BLOCKS_BINS += $(BLOCKS_DIR)/tb_tasks

# Compute unit (CU_INDEX 2, so that HWID and the LR/SC requester ids are
# not trivially 0).  The testbench links the reference model (tests/iss)
# and module_elf, both C, and loads build/device/*.elf (make device-kernels).
BLOCKS_CU_RTL := hw/rtl/ppu_cu.sv hw/rtl/ppu_cu_sched.sv hw/rtl/ppu_cu_regfile.sv \
	hw/rtl/ppu_cu_icache.sv hw/rtl/ppu_cu_lsu.sv hw/rtl/ppu_cu_utlb.sv hw/rtl/ppu_cu_csr.sv \
	hw/rtl/ppu_cu_ecall.sv hw/rtl/ppu_cu_decode.sv hw/rtl/ppu_cu_alu.sv hw/rtl/ppu_cu_muldiv.sv
BLOCKS_CU_OBJS := $(BLOCKS_DIR)/cu_ref/ppu_iss.o $(BLOCKS_DIR)/cu_ref/module_elf.o
$(eval $(call BLOCKS_MODEL,ppu_cu,ppu_cu,$(BLOCKS_CU_RTL),-GCU_INDEX=2))
$(eval $(call BLOCKS_TB,cu,ppu_cu))
$(BLOCKS_DIR)/tb_cu: $(BLOCKS_CU_OBJS) | device-kernels
$(BLOCKS_DIR)/tb_cu: BLOCKS_LDLIBS += $(BLOCKS_CU_OBJS)
$(BLOCKS_DIR)/cu_ref/ppu_iss.o: tests/iss/ppu_iss.c tests/iss/ppu_iss.h include/ppu/*.h include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -O2 -c -o $@ $<
$(BLOCKS_DIR)/cu_ref/module_elf.o: runtime/module_elf.c runtime/module_elf.h
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -O2 -c -o $@ $<
BLOCKS_BINS += $(BLOCKS_DIR)/tb_cu

# Ready tracking for the scheduler at scale: the defaults (4096 positions,
# 4 kinds), a partial last word (200 positions, 3 kinds) and one word.
$(eval $(call BLOCKS_MODEL,ppu_bitmap_rr,ppu_bitmap_rr,hw/rtl/ppu_bitmap_rr.sv,))
$(eval $(call BLOCKS_MODEL,ppu_bitmap_rr_odd,ppu_bitmap_rr,hw/rtl/ppu_bitmap_rr.sv,-GN=200 -GKINDS=3))
$(eval $(call BLOCKS_MODEL,ppu_bitmap_rr_min,ppu_bitmap_rr,hw/rtl/ppu_bitmap_rr.sv,-GN=16 -GKINDS=1))
$(eval $(call BLOCKS_TB,bitmap_rr,ppu_bitmap_rr ppu_bitmap_rr_odd ppu_bitmap_rr_min))
BLOCKS_BINS += $(BLOCKS_DIR)/tb_bitmap_rr

# The scheduler on sets beside the scheduler on vectors (a test wrapper),
# at 16, 200 and 4096 channels.
BLOCKS_SCHED_RR_RTL := hw/rtl/ppu_sched.sv hw/rtl/ppu_bitmap_rr.sv hw/rtl/ppu_sched_rr.sv \
	$(BLOCKS_SRC)/tb_sched_rr_top.sv
$(eval $(call BLOCKS_MODEL,sched_rr,tb_sched_rr_top,$(BLOCKS_SCHED_RR_RTL),-GNC=16))
$(eval $(call BLOCKS_MODEL,sched_rr_odd,tb_sched_rr_top,$(BLOCKS_SCHED_RR_RTL),-GNC=200))
$(eval $(call BLOCKS_MODEL,sched_rr_4096,tb_sched_rr_top,$(BLOCKS_SCHED_RR_RTL),-GNC=4096))
$(eval $(call BLOCKS_TB,sched_rr,sched_rr sched_rr_odd sched_rr_4096))
BLOCKS_BINS += $(BLOCKS_DIR)/tb_sched_rr

-include $(BLOCKS_BINS:=.d)

.PHONY: blocks blocks-run blocks-clean blocks-force
blocks-force:

blocks: $(BLOCKS_BINS)

blocks-run: $(BLOCKS_BINS)
	@status=0; for t in $(BLOCKS_BINS); do \
		echo "$$t"; $$t || status=1; done; exit $$status

blocks-clean:
	rm -rf $(BLOCKS_DIR)
