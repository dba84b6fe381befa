# SPDX-License-Identifier: MIT
#
# Simulation harness library: the Verilated ppu_top, the Verilator runtime
# and hw/sim/ppu_sim.cpp in one archive, $(PPUSIM_LIB).
#
# Included by the top-level Makefile; every path is relative to the repo
# root, the working directory of every recipe.  For users:
#
#   PPUSIM_LIB     the archive; make it a prerequisite of what links it
#   PPUSIM_CFLAGS  to compile C or C++ against hw/sim/ppu_sim.h
#   PPUSIM_LDLIBS  after $(PPUSIM_LIB) on the link line (gcc or g++)
#
#   build/tests/foo: tests/unit/foo.c $(PPUSIM_LIB)
#   	$(CC) $(PPUSIM_CFLAGS) -o $@ $< $(PPUSIM_LIB) $(PPUSIM_LDLIBS)
#
# The model also carries the invariant checkers of hw/chk (bound into the
# RTL by hw/chk/ppu_chk_bind.sv; their failures are counted by the harness,
# ppu_sim_check_errors): PPUSIM_VSRCS stays the RTL alone, which lint and
# synthesis take; PPU_CHK_SRCS is what only simulation adds.
#
# Knobs: HW_RTL_SRCS (RTL files, package order is handled here),
# PPUSIM_VFLAGS (extra verilator options, e.g. -Wno-fatal), VERILATOR,
# PPUSIM_FPGA=1 (the model is hw/fpga's ppu_fpga_top, the PPU in its PCIe
# shell behind AXI responders; hw/fpga/fpga.mk builds it in its own
# PPUSIM_DIR as libppusim_fpga.a), PPUSIM_PGO (below).
# Changing either the file list or the flags rebuilds the model from
# scratch; editing RTL rebuilds only what verilator's own make sees change
# (with PPUSIM_PGO, every model object, twice).

VERILATOR ?= verilator
PPU_HOSTCC ?= gcc
HW_RTL_SRCS ?= $(wildcard hw/rtl/*.sv)
PPUSIM_VFLAGS ?=
# 1 when PPUSIM_VFLAGS asks for coverage (make coverage): the harness must
# be compiled to match.
PPUSIM_COVERAGE ?= 0

PPU_SVPKG_GEN := build/ppu-gen-svpkg
PPU_SVPKG := build/ppu_hw_pkg.sv

PPUSIM_FPGA ?= 0
PPUSIM_TOP := $(if $(filter 1,$(PPUSIM_FPGA)),ppu_fpga_top,ppu_top)
PPUSIM_DIR ?= build/hw
PPUSIM_MDIR := $(PPUSIM_DIR)/obj_dir
PPUSIM_LIB := $(PPUSIM_DIR)/libppusim$(if $(filter 1,$(PPUSIM_FPGA)),_fpga).a
PPUSIM_CFLAGS := -Ihw/sim -Iinclude
PPUSIM_LDLIBS := -lz -pthread -latomic -lstdc++ -lm

PPUSIM_VLIB := $(PPUSIM_MDIR)/V$(PPUSIM_TOP)__ALL.a
PPUSIM_GLOBALS := $(PPUSIM_MDIR)/ppusim-globals.txt
PPUSIM_OBJ := $(PPUSIM_DIR)/ppu_sim.o
PPUSIM_CMD := $(PPUSIM_DIR)/verilate.cmd

# Both packages first: every module imports them.  The types package is
# taken from HW_RTL_SRCS when it is there (a list may point at another
# tree); a ppu_hw_pkg.sv among the sources would be a second definition.
PPUSIM_TYPES_NAMES = %/ppu_types_pkg.sv ppu_types_pkg.sv
PPUSIM_PKG_NAMES = $(PPUSIM_TYPES_NAMES) %/ppu_hw_pkg.sv ppu_hw_pkg.sv
PPUSIM_TYPES_PKG = $(firstword \
	$(filter $(PPUSIM_TYPES_NAMES),$(HW_RTL_SRCS)) hw/rtl/ppu_types_pkg.sv)
PPUSIM_VSRCS = $(PPU_SVPKG) $(PPUSIM_TYPES_PKG) \
	$(filter-out $(PPUSIM_PKG_NAMES),$(HW_RTL_SRCS))
# The FPGA shell (hw/fpga) and its AXI checkers (hw/fpga/chk, bind last).
PPU_FPGA_SRCS := $(sort $(wildcard hw/fpga/*.sv))
PPU_FPGA_CHK_SRCS := hw/fpga/chk/ppu_axi_chk.sv hw/fpga/chk/ppu_axil_chk.sv \
	hw/fpga/chk/ppu_fpga_chk_bind.sv
PPUSIM_MODEL_SRCS = $(strip $(PPUSIM_VSRCS) $(if $(filter 1,$(PPUSIM_FPGA)),$(PPU_FPGA_SRCS)))
PPUSIM_MODEL_CHK = $(strip $(PPU_CHK_SRCS) $(if $(filter 1,$(PPUSIM_FPGA)),$(PPU_FPGA_CHK_SRCS)))

# The checkers' package first, the bind file last.
PPU_CHK_SRCS := hw/chk/ppu_chk_pkg.sv \
	$(filter-out hw/chk/ppu_chk_pkg.sv hw/chk/ppu_chk_bind.sv,$(sort $(wildcard hw/chk/*.sv))) \
	hw/chk/ppu_chk_bind.sv

# Profile-guided build of the model (PPUSIM_PGO=1, the default for the
# main model in build/hw): the verilated model runs hundreds of kilobytes of
# straight-line code per cycle and is bound by instruction fetch, and a
# layout for the paths a cycle really takes runs it about 1.3 times as
# fast streaming copies and 1.8 times with the compute units busy
# (docs/benchmarks.md "Simulator speed").  The model is compiled
# instrumented, hw/sim/ppusim_train.c drives it through copies and kernels
# (from the top of the tree; it reads the device kernels and checks its
# results), and the model is compiled again with the profile.  The profile
# is redone with the model only: a stale one costs speed, never
# correctness, so edits of the harness or the training program do not
# recompile the model.  Two compiles per RTL change: PPUSIM_PGO=0 builds
# once (-Os), e.g. while editing RTL.  The FPGA, wide and coverage models
# build once.
PPUSIM_PGO ?= $(if $(filter build/hw,$(PPUSIM_DIR)),1,0)
PPUSIM_PGO_OPT := -O2
PPUSIM_MK = $(MAKE) --no-print-directory -C $(PPUSIM_MDIR) -f V$(PPUSIM_TOP).mk
PPUSIM_TRAIN_SRCS := hw/sim/ppusim_train.c tests/rtl/rtl_env.c tests/rtl/rtl_compute.c \
	runtime/module_elf.c runtime/launch_plan.c
PPUSIM_TRAIN_KERNELS := build/device/spin.elf build/device/saxpy.elf

PPUSIM_VERILATE = $(VERILATOR) --cc $(if $(filter 1,$(PPUSIM_PGO)),,--build -j 2) -O3 \
	--x-assign fast --x-initial fast --trace-fst --top-module $(PPUSIM_TOP) \
	--Mdir $(PPUSIM_MDIR) $(PPUSIM_VFLAGS) $(PPUSIM_MODEL_SRCS) $(PPUSIM_MODEL_CHK)
# (what the objects in PPUSIM_MDIR were built with)
PPUSIM_BUILD_ID = $(PPUSIM_VERILATE)$(if $(filter 1,$(PPUSIM_PGO)), pgo $(PPUSIM_PGO_OPT))

# Asked for only when the harness is compiled, and then only once.
PPUSIM_VLROOT = $(eval PPUSIM_VLROOT := \
	$$(shell $(VERILATOR) --getenv VERILATOR_ROOT))$(PPUSIM_VLROOT)

# The defines must match how verilator compiled the model (VM_* change
# class layouts); verilator's headers are -isystem so -Wall stays ours.
PPUSIM_CXXFLAGS = -std=gnu++17 -O2 -g -Wall -Wextra -MMD -MP -faligned-new \
	$(PPUSIM_CFLAGS) -isystem $(PPUSIM_MDIR) \
	-isystem $(PPUSIM_VLROOT)/include \
	-isystem $(PPUSIM_VLROOT)/include/vltstd \
	-DPPU_SIM_FPGA=$(PPUSIM_FPGA) -DVM_COVERAGE=$(PPUSIM_COVERAGE) -DVM_SC=0 -DVM_TRACE=1 -DVM_TRACE_FST=1 -DVM_TRACE_VCD=0

.PHONY: ppusim ppusim-clean ppusim-force
ppusim: $(PPUSIM_LIB)

ppusim-clean:
	rm -rf $(PPUSIM_DIR)

$(PPU_SVPKG_GEN): tools/ppu-gen-svpkg.c $(wildcard include/ppu/*.def)
	@mkdir -p $(@D)
	$(PPU_HOSTCC) -Iinclude $< -o $@

$(PPU_SVPKG): $(PPU_SVPKG_GEN)
	$(PPU_SVPKG_GEN) > $@.tmp && mv $@.tmp $@

# Rewritten only when the verilator command line changes; a new command
# also throws the old model away, whose objects were built for other flags.
$(PPUSIM_CMD): ppusim-force
	@mkdir -p $(@D)
	@echo '$(PPUSIM_BUILD_ID)' | cmp -s - $@ || \
		{ rm -rf $(PPUSIM_MDIR); echo '$(PPUSIM_BUILD_ID)' > $@; }

# The runtime objects (verilated.o, ...) that a --build without --exe
# leaves out, compiled by the model's own makefile so they get its flags.
# -o: a re-verilated Vppu_top.mk must not recompile them (flag changes
# already wiped the directory above).
PPUSIM_MAKE_GLOBALS = printf '$(notdir $(PPUSIM_GLOBALS)): $$(VK_GLOBAL_OBJS)\n\techo $$^ > $$@\n' | \
	$(PPUSIM_MK) -f - -o V$(PPUSIM_TOP).mk $(notdir $(PPUSIM_GLOBALS))

# verilator skips identical runs without touching its outputs: touch, or
# this rule would run on every make.  With PPUSIM_PGO every model object
# is compiled twice, instrumented and then with the training run's profile
# (the .gcda files next to the objects).
ifeq ($(PPUSIM_PGO),1)
$(PPUSIM_VLIB): $(PPUSIM_MODEL_SRCS) $(PPUSIM_MODEL_CHK) $(PPUSIM_CMD) | $(PPUSIM_TRAIN_KERNELS)
	$(PPUSIM_VERILATE)
	rm -f $(PPUSIM_MDIR)/V$(PPUSIM_TOP)*.o $(PPUSIM_MDIR)/*.gcda $@
	$(PPUSIM_MK) -j 2 OPT_FAST='$(PPUSIM_PGO_OPT) -fprofile-generate' V$(PPUSIM_TOP)__ALL.a
	$(PPUSIM_MAKE_GLOBALS)
	@# the harness object against the new model's headers (in an empty
	@# tree make compiles it once more afterwards: it looked at the object
	@# before this recipe made it)
	$(CXX) $(PPUSIM_CXXFLAGS) -c -o $(PPUSIM_OBJ) hw/sim/ppu_sim.cpp
	$(CC) $(PPU_CFLAGS) -Iruntime/device/samples -o $(PPUSIM_MDIR)/ppusim-train \
		$(PPUSIM_TRAIN_SRCS) $(PPUSIM_OBJ) $@ \
		$$(sed 's|[^ ]*|$(PPUSIM_MDIR)/&|g' $(PPUSIM_GLOBALS)) \
		$(PPUSIM_LDLIBS) -fprofile-generate
	$(PPUSIM_MDIR)/ppusim-train
	rm -f $(PPUSIM_MDIR)/V$(PPUSIM_TOP)*.o $@
	$(PPUSIM_MK) -j 2 OPT_FAST='$(PPUSIM_PGO_OPT) -fprofile-use -fprofile-correction -Wno-missing-profile' \
		V$(PPUSIM_TOP)__ALL.a
	touch $@
else
$(PPUSIM_VLIB): $(PPUSIM_MODEL_SRCS) $(PPUSIM_MODEL_CHK) $(PPUSIM_CMD)
	$(PPUSIM_VERILATE)
	touch $@
endif

$(PPUSIM_GLOBALS): $(PPUSIM_VLIB)
	$(PPUSIM_MAKE_GLOBALS)
	touch $@

$(PPUSIM_OBJ): hw/sim/ppu_sim.cpp hw/sim/ppu_sim_axi.h | $(PPUSIM_VLIB)
	$(CXX) $(PPUSIM_CXXFLAGS) -c -o $@ $<

-include $(PPUSIM_OBJ:.o=.d)

$(PPUSIM_LIB): $(PPUSIM_OBJ) $(PPUSIM_VLIB) $(PPUSIM_GLOBALS)
	rm -f $@ $@.tmp
	{ echo 'create $@.tmp'; echo 'addlib $(PPUSIM_VLIB)'; \
	  for o in $$(cat $(PPUSIM_GLOBALS)); do \
		echo "addmod $(PPUSIM_MDIR)/$$o"; done; \
	  echo 'addmod $(PPUSIM_OBJ)'; echo save; echo end; } | $(AR) -M
	$(AR) -s $@.tmp
	mv $@.tmp $@
