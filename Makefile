# SPDX-License-Identifier: MIT
#
# PPU: top-level build.  `make help` lists the targets.

.DEFAULT_GOAL := all
SHELL := /bin/bash

CC ?= gcc
CFLAGS ?= -O2 -g
PPU_CFLAGS := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Iinclude -Ihw/sim -Itests/rtl \
	-Itests/examples $(CFLAGS)
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS = $(shell pkg-config --libs check)

# The co-simulated guest boots Debian's newest installed -amd64 kernel; the
# module is built against its headers unless KDIR says otherwise.
PPU_KVER ?= $(shell ls /lib/modules 2>/dev/null | grep -- '-amd64$$' | sort -V | tail -n 1)
KDIR ?= /lib/modules/$(PPU_KVER)/build

include hw/sim/sim.mk
include tests/blocks/blocks.mk
include tools/cosim.mk
include kernel/kernel.mk
include tests/fuzz/fuzz.mk
include runtime/runtime.mk
include runtime/examples/examples.mk
include tools/cosim-bench.mk
include runtime/device/device.mk
include tests/iss/iss.mk

RTL_ENV := tests/rtl/rtl_env.c tests/rtl/rtl_env.h
# The compute tests load the sample kernels (build/device/*.elf) with the
# runtime's ELF loader and size their task blocks with its launch plan,
# and compare them with the instruction-set reference model.
RTL_RUNTIME_SRCS := runtime/module_elf.c runtime/launch_plan.c
RTL_COMPUTE := tests/rtl/rtl_compute.c tests/rtl/rtl_compute.h
# The random-pushbuffer generator, shared with the guest program.
RANDPB := tests/common/ppu_randpb.c tests/common/ppu_randpb.h
RANDPB_GUEST := build/guest/test_random_pb
SEEDS_B := tests/examples/seeds_b.c tests/examples/seeds_b.h
# The kernel-priority scenario, shared by its RTL demo and the benchmarks.
KPRIO := tests/examples/kprio.c tests/examples/kprio.h
RTL_TESTS := $(sort $(wildcard tests/rtl/test_*.c))
UNIT_TESTS := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRCS := $(sort $(wildcard tests/bench/*.c))

RTL_TEST_BIN := build/tests/rtl_tests
# (after the variables their rules' prerequisites name: read when included)
include hw/fpga/fpga.mk
include hw/sim/wide.mk
UNIT_TEST_BIN := build/tests/unit_tests
BENCH_BIN := build/bench/ppu_bench
DEMO_BIN := build/examples/seeds_b_demo
KPRIO_DEMO_BIN := build/examples/kprio_demo

# ppu-trace: text trace -> Perfetto JSON / SVG timeline (docs/timeline.md).
# The parser, model and writers are shared with the unit tests.
PPU_TRACE := build/tools/ppu-trace
PPU_TRACE_SRCS := tools/ppu-trace-parse.c tools/ppu-trace-model.c tools/ppu-trace-json.c tools/ppu-trace-host.c \
	tools/ppu-trace-svg.c
PPU_TRACE_HDRS := $(PPU_TRACE_SRCS:.c=.h)
DEMO_DIR := build/demo
# The copy-priority showcase's channels, as the RTL demo sets them up.
SEEDS_B_CHANS := -l 0=C_low -p 0=0 -l 1=C_high -p 1=1

.PHONY: all deps check check-run bench bench-run demo demo-run demo-rtl demo-rtl-run lint lint-run \
	synth-check-run \
	coverage coverage-run \
	synth synth-run \
	soak soak-run \
	clean help

help:
	@echo "make deps   install missing Debian packages (root)"
	@echo "make all    build the RTL model, harness, tests, benchmarks, demo"
	@echo "make check  run every test (unit, RTL, the RTL demos' --check, lint + synthesis)"
	@echo "make demo   the showcase: priority mapping, copy and kernel priorities through libppu -> ppu.ko ->"
	@echo "            RTL in the co-simulated guest"
	@echo "make demo-rtl  the same example, copy and kernel latency ratios on the bare RTL harness"
	@echo "            (both demos draw SVG timelines of their runs into build/demo)"
	@echo "make timeline-docs  regenerate the README's timeline (docs/img) with build/tools/ppu-trace"
	@echo "make bench  run the benchmarks; results in build/bench.txt"
	@echo "make lint   kernel layer check + verilator -Wall lint + Yosys synthesis of a reduced compute engine (no latches) + sparse"
	@echo "make man-check  the manual pages (docs/man) render without warnings"
	@echo "make synth  Yosys synthesis of the default PPU (four compute units; takes a while)"
	@echo "make guest-check  ppu.ko and its ioctl tests in the co-simulated QEMU guest"
	@echo "make multi-check  two PPUs in one guest: both bound, copy priorities on both, cross-device errors"
	@echo "make host-trace-check  libppu's host events (PPU_TRACE) merged with the device trace"
	@echo "make coverage  line and toggle coverage of the RTL by the whole-PPU tests (build/coverage.txt)"
	@echo "make soak   thousands of random prioritised-copy mixes through libppu (about 50 min)"

deps:
	@tools/install-deps

all: deps
	@$(MAKE) --no-print-directory build-all

.PHONY: build-all
build-all: $(PPUSIM_LIB) $(RTL_TEST_BIN) $(UNIT_TEST_BIN) $(BENCH_BIN) $(DEMO_BIN) $(KPRIO_DEMO_BIN) \
	$(BLOCKS_BINS) $(FUZZ_BIN) \
	cosim-tools kmod kmod-guest-tests runtime runtime-guest-tests $(RT_GUEST_PROGS) \
	$(RT_EXAMPLE_BINS) $(PPU_SMI) $(ISS_TEST_BIN) device-kernels $(RANDPB_GUEST) $(PPU_TRACE) \
	$(RTL_TEST_FPGA_BIN) $(COSIM_DEV_FPGA) $(RTL_TEST_WIDE_BIN) $(BENCH_SCALE_BIN) \
	$(BENCH_SCALE_WIDE_BIN)

$(PPU_TRACE): tools/ppu-trace.c $(PPU_TRACE_SRCS) $(PPU_TRACE_HDRS) include/ppu/*.h include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -o $@ tools/ppu-trace.c $(PPU_TRACE_SRCS) -lm

# The runtime's device-free modules are unit-tested here.
RUNTIME_PURE := runtime/priority_map.c runtime/copy_prio.c runtime/pb_ring.c runtime/module_elf.c runtime/launch_plan.c \
	runtime/tl_ring.c runtime/launch_cmds.c runtime/owner.c

# ... and so are the pieces of the co-simulation runner that need no QEMU
# (tools/cosim.mk), ppu-smi's debugfs readers and the trace converter,
# whose tests also run the tool itself (large-trace bound) and read the
# recorded traces of tests/data.
build/tests/unit_tests: $(UNIT_TESTS) tests/unit/unit_main.c $(PPU_SVPKG) include/ppu/*.h \
		include/ppu/*.def $(RUNTIME_PURE) $(RUNTIME_PURE:.c=.h) runtime/errbuf.h runtime/ppu_internal.h \
		$(COSIM_RUNNER_LIB_SRCS) $(COSIM_RUNNER_HDRS) tools/smi/smi_debugfs.c \
		tools/smi/smi_debugfs.h $(PPU_TRACE_SRCS) $(PPU_TRACE_HDRS) $(PPU_TRACE)
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -Iruntime -Iruntime/include -Itools -Itools/cosim -Itools/smi $(CHECK_CFLAGS) \
		-DPPU_SVPKG_PATH='"$(PPU_SVPKG)"' -DPPU_TRACE_BIN='"$(PPU_TRACE)"' -o $@ \
		tests/unit/unit_main.c $(UNIT_TESTS) $(RUNTIME_PURE) $(COSIM_RUNNER_LIB_SRCS) \
		tools/smi/smi_debugfs.c $(PPU_TRACE_SRCS) $(CHECK_LIBS) -lm

# (the compute tests' sources: RTL_RUNTIME_SRCS, RTL_COMPUTE, above)
$(RTL_TEST_BIN): $(RTL_TESTS) tests/rtl/rtl_main.c tests/rtl/rtl_suites.h $(RTL_ENV) \
		tests/rtl/rtl_check.c tests/rtl/rtl_check.h $(SEEDS_B) $(PPUSIM_LIB) include/ppu/*.h \
		$(RTL_COMPUTE) $(RTL_RUNTIME_SRCS) runtime/module_elf.h runtime/launch_plan.h \
		$(ISS_SRCS) $(ISS_HDRS) $(RANDPB) | device-kernels
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) $(CHECK_CFLAGS) -o $@ tests/rtl/rtl_main.c $(RTL_TESTS) \
		tests/examples/seeds_b.c tests/rtl/rtl_env.c tests/rtl/rtl_check.c tests/common/ppu_randpb.c \
		tests/rtl/rtl_compute.c $(RTL_RUNTIME_SRCS) $(ISS_SRCS) $(PPUSIM_LIB) $(PPUSIM_LDLIBS) \
		$(CHECK_LIBS)

$(BENCH_BIN): $(BENCH_SRCS) $(RTL_ENV) $(SEEDS_B) $(KPRIO) $(PPUSIM_LIB) include/ppu/*.h \
		$(RTL_COMPUTE) $(RTL_RUNTIME_SRCS) | device-kernels
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -o $@ $(BENCH_SRCS) tests/examples/seeds_b.c tests/examples/kprio.c \
		tests/rtl/rtl_env.c tests/rtl/rtl_compute.c $(RTL_RUNTIME_SRCS) $(PPUSIM_LIB) \
		$(PPUSIM_LDLIBS)

$(DEMO_BIN): tests/examples/seeds_b_demo.c $(SEEDS_B) $(RTL_ENV) $(PPUSIM_LIB) include/ppu/*.h
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -o $@ tests/examples/seeds_b_demo.c \
		tests/examples/seeds_b.c tests/rtl/rtl_env.c $(PPUSIM_LIB) $(PPUSIM_LDLIBS)

# It loads the spin kernel from build/device, so it runs from the top directory.
$(KPRIO_DEMO_BIN): tests/examples/kprio_demo.c $(KPRIO) $(RTL_ENV) $(RTL_COMPUTE) \
		$(RTL_RUNTIME_SRCS) $(PPUSIM_LIB) include/ppu/*.h | device-kernels
	@mkdir -p $(@D)
	$(CC) $(PPU_CFLAGS) -o $@ tests/examples/kprio_demo.c tests/examples/kprio.c \
		tests/rtl/rtl_env.c tests/rtl/rtl_compute.c $(RTL_RUNTIME_SRCS) $(PPUSIM_LIB) \
		$(PPUSIM_LDLIBS)

check: deps
	@$(MAKE) --no-print-directory check-run

# Lint and synthesis are part of the test suite: the RTL must stay
# Verilator -Wall clean and synthesizable without latches.  The checkers
# of hw/chk are linted bound into the RTL, never synthesised.
check-run: build-all
	@tools/run-tests --background "$(MAKE) --no-print-directory synth-check-run" \
		"$(UNIT_TEST_BIN)" "$(MAKE) --no-print-directory timeline-docs-check" "$(ISS_TEST_BIN)" $(BLOCKS_BINS) "$(RTL_TEST_BIN)" \
		"$(RTL_TEST_FPGA_BIN)" "$(RTL_TEST_WIDE_BIN)" \
		"$(DEMO_BIN) --check" "$(KPRIO_DEMO_BIN) --check" \
		"$(MAKE) --no-print-directory cosim-smoke" "$(MAKE) --no-print-directory guest-check-run" \
		"$(MAKE) --no-print-directory guest-check-fpga-run" \
		"$(MAKE) --no-print-directory multi-check-run" \
		"$(MAKE) --no-print-directory host-trace-check" \
		"$(MAKE) --no-print-directory fuzz-check" "$(MAKE) --no-print-directory fuzz-fpga-check" \
		"$(MAKE) --no-print-directory lint-run" \
		"$(MAKE) --no-print-directory man-check"

demo: deps
	@$(MAKE) --no-print-directory demo-run

# The main job: libppu -> ppu.ko -> RTL in the co-simulated guest: the
# stream -> device priority mapping (SEEDS §A), the copy priorities of
# SEEDS §B and kernel priorities through the runtime's API.  The device
# traces the whole run; afterwards its timeline and the RTL demo's are drawn
# (build/demo; docs/timeline.md).
demo-run: cosim-tools kmod build/guest/runtime_demo device-kernels $(PPU_TRACE) demo-rtl-traces
	@mkdir -p $(DEMO_DIR)
	$(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 600 --module $(KMOD) \
		--trace $(DEMO_DIR)/runtime-demo.trace \
		--file build/guest/runtime_demo:/bin/runtime_demo \
		--file build/device/spin.elf:/lib/ppu/spin.elf \
		--file build/device/dp_chain.elf:/lib/ppu/dp_chain.elf \
		--file build/device/dp_sum.elf:/lib/ppu/dp_sum.elf \
		--file build/device/workq_spawn.elf:/lib/ppu/workq_spawn.elf \
		--file build/device/workq_bench.elf:/lib/ppu/workq_bench.elf --run /bin/runtime_demo
	@$(MAKE) --no-print-directory demo-rtl-timelines
	@$(PPU_TRACE) -q -t "make demo: runtime_demo through ppu.ko in the co-simulated guest" \
		-s $(DEMO_DIR)/runtime-demo.svg -j $(DEMO_DIR)/runtime-demo.json \
		-g "whole run (every section)" $(DEMO_DIR)/runtime-demo.trace
	@echo "timeline: $(DEMO_DIR)/runtime-demo.svg"
	@echo "perfetto: $(DEMO_DIR)/runtime-demo.json (ui.perfetto.dev -> Open trace file)"

# The same example on the bare RTL harness, plus the latency benchmark and
# the kernel-priority showcase, each scenario traced and drawn
# (build/demo/*.svg; docs/timeline.md).
demo-rtl: deps
	@$(MAKE) --no-print-directory demo-rtl-run

demo-rtl-run: $(DEMO_BIN) $(KPRIO_DEMO_BIN) $(PPU_TRACE)
	@mkdir -p $(DEMO_DIR)
	$(DEMO_BIN) --trace-dir $(DEMO_DIR)
	@echo
	$(KPRIO_DEMO_BIN) --trace-dir $(DEMO_DIR)
	@$(MAKE) --no-print-directory demo-rtl-timelines

# SVG timelines of the RTL demos' traces: the worked example (prior art
# against the semaphores), the latency scenario (prior art, semaphores,
# semaphores with chunked low copies) and the kernel-priority showcase
# (prior art, priorities without and with preemption), each set on one
# time axis.  The kernel sizes are kprio_demo's defaults.
KPRIO_CHANS := -l 0=filling -l 1=small
# ppu-trace's arguments for the kernel-priority picture of the traces in $(1).
kprio_svg_args = -q $(KPRIO_CHANS) \
	-t "small kernel (4 CTAs x 8 threads) behind a filling kernel (32 CTAs x 8) on 4 units" \
	-g "prior art (both at device priority 0)" $(1)/kernel-priority-prior-art.trace \
	-g "priorities (small at 40), no preemption" $(1)/kernel-priority-no-preemption.trace \
	-g "priorities with preemption" $(1)/kernel-priority-preemption.trace
.PHONY: demo-rtl-timelines demo-rtl-traces
demo-rtl-timelines: $(PPU_TRACE)
	@$(PPU_TRACE) -q $(SEEDS_B_CHANS) -t "SEEDS B worked example: five 16 KiB copies, one copy engine" \
		-s $(DEMO_DIR)/copy-priority-example.svg \
		-g "prior art (no semaphores)" $(DEMO_DIR)/seeds-b-prior-art.trace \
		-g "semaphores (US 9483423)" $(DEMO_DIR)/seeds-b-semaphores.trace
	@$(PPU_TRACE) -q $(SEEDS_B_CHANS) \
		-t "64 KiB high-priority copy behind 8 x 1 MiB low-priority copies" \
		-s $(DEMO_DIR)/copy-priority-latency.svg \
		-g "prior art" $(DEMO_DIR)/copy-latency-prior-art.trace \
		-g "semaphores" $(DEMO_DIR)/copy-latency-semaphores.trace \
		-g "semaphores, low copies in 64 KiB commands" $(DEMO_DIR)/copy-latency-chunked.trace
	@$(PPU_TRACE) -q $(SEEDS_B_CHANS) -j $(DEMO_DIR)/copy-latency-chunked.json \
		$(DEMO_DIR)/copy-latency-chunked.trace
	@$(PPU_TRACE) $(call kprio_svg_args,$(DEMO_DIR)) -s $(DEMO_DIR)/kernel-priority.svg
	@$(PPU_TRACE) -q $(KPRIO_CHANS) -j $(DEMO_DIR)/kernel-priority-preemption.json \
		$(DEMO_DIR)/kernel-priority-preemption.trace
	@echo "timeline: $(DEMO_DIR)/copy-priority-example.svg"
	@echo "timeline: $(DEMO_DIR)/copy-priority-latency.svg"
	@echo "perfetto: $(DEMO_DIR)/copy-latency-chunked.json (ui.perfetto.dev -> Open trace file)"
	@echo "timeline: $(DEMO_DIR)/kernel-priority.svg"
	@echo "perfetto: $(DEMO_DIR)/kernel-priority-preemption.json"

# The RTL demos' traces alone (their reports kept in logs), for `make demo`.
demo-rtl-traces: $(DEMO_BIN) $(KPRIO_DEMO_BIN)
	@mkdir -p $(DEMO_DIR)
	@$(DEMO_BIN) --trace-dir $(DEMO_DIR) > $(DEMO_DIR)/seeds_b_demo.log
	@$(KPRIO_DEMO_BIN) --trace-dir $(DEMO_DIR) > $(DEMO_DIR)/kprio_demo.log

# The README's timeline, from a committed recording of the worked example,
# and docs/timeline.md's kernel picture, from recordings of kprio_demo.
# `make check` regenerates them into build/ and fails if a committed one
# differs (regenerate with `make timeline-docs` after changing the tool).
TIMELINE_DOC := docs/img/copy-priority-timeline.svg
TIMELINE_DOC_ARGS = -q $(SEEDS_B_CHANS) -t "SEEDS B worked example: five 16 KiB copies, one copy engine" \
	-g "prior art (no semaphores)" tests/data/seeds-b-prior-art.trace \
	-g "semaphores (US 9483423)" tests/data/seeds-b-semaphores.trace
KPRIO_DOC := docs/img/kernel-priority-timeline.svg
.PHONY: timeline-docs timeline-docs-check
timeline-docs: $(PPU_TRACE)
	@mkdir -p $(dir $(TIMELINE_DOC))
	$(PPU_TRACE) $(TIMELINE_DOC_ARGS) -s $(TIMELINE_DOC)
	$(PPU_TRACE) $(call kprio_svg_args,tests/data) -s $(KPRIO_DOC)

timeline-docs-check: $(PPU_TRACE)
	@mkdir -p build/docs
	$(PPU_TRACE) $(TIMELINE_DOC_ARGS) -s build/docs/$(notdir $(TIMELINE_DOC))
	$(PPU_TRACE) $(call kprio_svg_args,tests/data) -s build/docs/$(notdir $(KPRIO_DOC))
	@for f in $(TIMELINE_DOC) $(KPRIO_DOC); do \
		cmp build/docs/$$(basename $$f) $$f || \
		{ echo "$$f is out of date: run make timeline-docs"; exit 1; }; done

bench: deps
	@$(MAKE) --no-print-directory bench-run

bench-run: $(BENCH_BIN) $(BENCH_SCALE_BIN) $(BENCH_SCALE_WIDE_BIN)
	@mkdir -p build
	set -o pipefail; { $(BENCH_BIN) && $(BENCH_SCALE_BIN) && $(BENCH_SCALE_WIDE_BIN); } | \
		tee build/bench.txt.tmp
	@grep '^bench: ' build/bench.txt.tmp > build/bench.txt; rm -f build/bench.txt.tmp
	@$(MAKE) --no-print-directory synth-fpga-bench | tee -a build/bench.txt
	@$(MAKE) --no-print-directory synth-host-bench | tee -a build/bench.txt
	@$(MAKE) --no-print-directory cosim-bench-run
	@echo "results: build/bench.txt"

lint: deps
	@$(MAKE) --no-print-directory lint-run synth-check-run

# The manual pages render without a warning, with groff and with mandoc's
# stricter lint (both from tools/install-deps).
MAN_PAGES := $(wildcard docs/man/*.1)
.PHONY: man-check
man-check:
	@set -e; for m in $(MAN_PAGES); do \
		out=$$(groff -man -ww -z $$m 2>&1); [ -z "$$out" ] || { echo "$$out"; exit 1; }; \
		mandoc -T lint -W warning $$m; \
		echo "man-check: $$m ok"; \
	done

# The host interface alone at several channel counts (channels:cache
# slots), generic cells with the per-channel arrays kept as memories:
# what grows with the channel count (docs/benchmarks.md "Scheduling at
# scale").  Kept in build/synth-host/<config>/ with the hash of what they
# depend on, like the FPGA runs; the three take about 12 minutes (more
# channels: SYNTH_HOST_CONFIGS="256:16", far longer).
SYNTH_HOST_CONFIGS ?= 16:16 32:16 64:16
SYNTH_HOST_INPUTS = $(PPUSIM_VSRCS) tools/ppu-synth-host
.PHONY: synth-host-bench
synth-host-bench: $(PPU_SVPKG)
	@set -e; for c in $(SYNTH_HOST_CONFIGS); do \
		n=$${c%%:*}; k=$${c#*:}; d=build/synth-host/$$n-$$k; \
		key=$$( { cat $(SYNTH_HOST_INPUTS); yosys -V; echo "$$c"; } | sha256sum | cut -c1-16); \
		if [ -s $$d/bench.txt ] && [ "$$(cat $$d/key 2>/dev/null)" = "$$key" ]; then \
			cat $$d/bench.txt; continue; fi; \
		echo "synth-host: $$n channels, $$k cache slots: synthesising ppu_host" >&2; \
		mkdir -p $$d; rm -f $$d/key; \
		tools/ppu-synth-host --bench --out $$d $$n $$k $(PPUSIM_VSRCS) > $$d.out; \
		grep -v '^bench: ' $$d.out >&2; grep '^bench: ' $$d.out > $$d/bench.txt; rm -f $$d.out; \
		echo "$$key" > $$d/key; cat $$d/bench.txt; \
	done

# Synthesis of the PPU with its default parameters (resource figures in
# docs/hw-architecture.md).
synth: deps
	@$(MAKE) --no-print-directory synth-run

synth-run: $(PPU_SVPKG)
	tools/ppu-synth $(PPUSIM_VSRCS)

# The check synthesises a reduced compute engine (one unit of 4 contexts,
# 2 task slots, 8 task ids: the same modules, fewer copies; about 16 minutes
# of one core here) and lints the default PPU and one without compute;
# `make synth` synthesises the default PPU (about half an hour).  `make
# check` runs the synthesis (synth-check-run) next to its other tests.
SYNTH_CHECK_PARAMS := NUM_CU=1 CU_CONTEXTS=4 TASK_SLOTS=2 NUM_TASKS=8 SCHED_SETS=1
synth-check-run: $(PPU_SVPKG)
	tools/ppu-synth-fpga-shell $(PPU_SVPKG) $(PPUSIM_TYPES_PKG) $(PPU_FPGA_SRCS)
	PPU_SYNTH_PARAMS="$(SYNTH_CHECK_PARAMS)" tools/ppu-synth $(PPUSIM_VSRCS)

lint-run: $(PPU_SVPKG)
	tools/check-kernel-layers kernel
	$(VERILATOR) --lint-only -Wall --top-module ppu_top $(PPUSIM_VSRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_top -GNUM_CU=0 $(PPUSIM_VSRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_top $(PPUSIM_VSRCS) $(PPU_CHK_SRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_top -GCHAN_CACHE=4 $(PPUSIM_VSRCS) $(PPU_CHK_SRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_top -GSCHED_SETS=0 $(PPUSIM_VSRCS) $(PPU_CHK_SRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_fpga_top $(PPUSIM_VSRCS) $(PPU_FPGA_SRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_fpga_top $(PPU_FPGA_LINT_VARIANT) \
		$(PPUSIM_VSRCS) $(PPU_FPGA_SRCS)
	$(VERILATOR) --lint-only -Wall --top-module ppu_fpga_top $(PPUSIM_VSRCS) $(PPU_FPGA_SRCS) \
		$(PPU_CHK_SRCS) $(PPU_FPGA_CHK_SRCS)
	$(VERILATOR) --lint-only -Wall hw/rtl/ppu_bitmap_rr.sv
	$(VERILATOR) --lint-only -Wall -GN=200 -GKINDS=3 hw/rtl/ppu_bitmap_rr.sv
	$(VERILATOR) --lint-only -Wall -GN=16 -GKINDS=1 hw/rtl/ppu_bitmap_rr.sv
	for n in 16 200 4096; do $(VERILATOR) --lint-only -Wall --top-module ppu_sched_rr \
		-GNUM_CHANNELS=$$n hw/lint/block_pkgs.vlt $(PPU_SVPKG) hw/rtl/ppu_types_pkg.sv \
		hw/rtl/ppu_bitmap_rr.sv hw/rtl/ppu_sched_rr.sv || exit 1; done
	@$(MAKE) --no-print-directory kmod-sparse 2>&1 | tee build/sparse.log
	@! grep -E '(warning|error):' build/sparse.log

# ppu.ko and its ioctl-level tests in one boot of the co-simulated guest:
# every program, a module unload/reload, the tests again with the PPU
# scheduling by the driver's runlist (runlist_sched=1), and the interrupt
# tests with the driver reading the pending registers instead of the event
# ring (event_ring=0).
GUEST_RUNS := --run /bin/test_get_param --run /bin/test_irq --run /bin/test_gem \
	--run /bin/test_vm --run /bin/test_chan --run /bin/test_sem --run /bin/test_lmem \
	--run /bin/test_isolation --run /bin/test_limits --run /bin/test_unpriv --run /bin/test_watchdog --run /bin/test_random_pb \
	--run /bin/test_compute --run '/bin/seeds_b_guest --check' \
	--run /bin/test_runtime \
	--run /bin/test_runtime_prio --run /bin/test_runtime_modules --run /bin/test_runtime_kernels \
	--run /bin/test_runtime_children --run /bin/test_runtime_workq \
	--run '/bin/soak_copy_prio --mixes 40 --hold' \
	--run '/bin/pipeline --check' --run /bin/runtime_demo --run /bin/test_unplug \
	--run /bin/test_device_errors \
	--run /bin/ppu-smi --run /bin/test_smi \
	--run 'rmmod ppu && insmod /lib/modules/extra/ppu.ko' --run '/bin/reload-stress 20' \
	--run 'rmmod ppu && insmod /lib/modules/extra/ppu.ko runlist_sched=1' \
	--run /bin/test_irq --run /bin/test_vm --run /bin/test_chan --run /bin/test_sem \
	--run /bin/test_get_param --run /bin/test_runtime \
	--run 'rmmod ppu && insmod /lib/modules/extra/ppu.ko event_ring=0' \
	--run /bin/test_irq --run /bin/test_get_param
guest-check: deps
	@$(MAKE) --no-print-directory guest-check-run

# The batch takes 6-8 minutes on a two-core machine (the model's speed
# decides it: docs/benchmarks.md "The guest batch of make check"); the
# limit only catches a hung guest.
guest-check-run: cosim-tools kmod kmod-guest-tests runtime-guest-tests $(RT_GUEST_PROGS) \
		$(RT_EXAMPLE_BINS) device-kernels $(RANDPB_GUEST)
	$(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 1800 --module $(KMOD) \
		$(foreach t,$(KMOD_GUEST_BINS) $(RT_GUEST_BINS) $(RT_GUEST_PROGS) $(RT_EXAMPLE_BINS) $(RANDPB_GUEST),--file $(t):/bin/$(notdir $(t))) \
		--file tests/guest/reload-stress.sh:/bin/reload-stress \
		$(foreach k,$(DEVICE_ELFS),--file $(k):/lib/ppu/$(notdir $(k))) \
		$(GUEST_RUNS)

# Two PPUs in one boot (ppu-cosim --devices 2; about 1 minute): ppu.ko binds
# both, ppu-smi lists both (again after a reload), and test_multi_device
# runs the copy priorities on both at once and checks that libppu refuses
# objects of one context in another's calls.  The programs fail at once in
# a guest without two PPUs.
MULTI_SMI_CHECK := test "$$(/bin/ppu-smi | grep -c "^ppu[01] ")" = 2 && \
	test -c /dev/dri/renderD128 && test -c /dev/dri/renderD129
MULTI_RUNS := --run '$(MULTI_SMI_CHECK)' --run /bin/test_multi_device \
	--run 'rmmod ppu && insmod /lib/modules/extra/ppu.ko' --run '$(MULTI_SMI_CHECK)'
.PHONY: multi-check multi-check-run
multi-check: deps
	@$(MAKE) --no-print-directory multi-check-run

multi-check-run: cosim-tools kmod $(RT_MULTI_BINS) build/guest/ppu-smi build/device/saxpy.elf
	$(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 900 --devices 2 --module $(KMOD) \
		$(foreach t,$(RT_MULTI_BINS) build/guest/ppu-smi,--file $(t):/bin/$(notdir $(t))) \
		--file build/device/saxpy.elf:/lib/ppu/saxpy.elf \
		$(MULTI_RUNS)

# libppu's host events on the device timeline (docs/timeline.md): host_trace
# runs in the guest with PPU_TRACE set and checks its own trace, ppu-cosim
# traces the device and fetches the host file out over the console,
# ppu-trace --host merges the two, and the JSON and SVG are read back
# (tests/common/check_host_timeline.py).  About 15 s.
HOST_TRACE_DIR := build/host-trace
.PHONY: host-trace-check
host-trace-check: cosim-tools kmod build/guest/host_trace build/device/saxpy.elf $(PPU_TRACE)
	@mkdir -p $(HOST_TRACE_DIR)
	rm -f $(HOST_TRACE_DIR)/host.trace $(HOST_TRACE_DIR)/device.trace
	$(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 600 --module $(KMOD) \
		--trace $(HOST_TRACE_DIR)/device.trace \
		--file build/guest/host_trace:/bin/host_trace \
		--file build/device/saxpy.elf:/lib/ppu/saxpy.elf \
		--run '/bin/host_trace --trace /tmp/host.trace' \
		--fetch /tmp/host.trace:$(HOST_TRACE_DIR)/host.trace
	$(PPU_TRACE) -t "host_trace: libppu calls and the PPU on one axis" \
		-H $(HOST_TRACE_DIR)/host.trace -j $(HOST_TRACE_DIR)/timeline.json \
		-s $(HOST_TRACE_DIR)/timeline.svg $(HOST_TRACE_DIR)/device.trace
	python3 tests/common/check_host_timeline.py $(HOST_TRACE_DIR)/timeline.json \
		$(HOST_TRACE_DIR)/timeline.svg

# Random pushbuffers through ppu.ko (the generator of the RTL suite
# random_pb): a rule of its own, the pattern rule of kernel/kernel.mk does
# not link the generator.
$(RANDPB_GUEST): tests/guest/test_random_pb.c $(RANDPB) $(KMOD_GUEST_HELPERS) \
		include/uapi/drm/ppu_drm.h include/ppu/ppu_hw.h include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -static -o $@ $< tests/common/ppu_randpb.c tests/guest/ppu_guest.c \
		tests/guest/ppu_guest_work.c tests/guest/ppu_node.c $(KMOD_GUEST_LIBS)

# The long randomised soak of libppu's copy priorities in a boot of its
# own (about 1 s per mix; SOAK_MIXES=N, SOAK_SEED=S to replay a run).
SOAK_MIXES ?= 3000
soak: deps
	@$(MAKE) --no-print-directory soak-run

soak-run: cosim-tools kmod build/guest/soak_copy_prio
	set -o pipefail; $(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 14400 --module $(KMOD) \
		--file build/guest/soak_copy_prio:/bin/soak_copy_prio \
		--run '/bin/soak_copy_prio --mixes $(SOAK_MIXES) --hold$(if $(SOAK_SEED), --seed $(SOAK_SEED))' \
		2>&1 | tee build/soak.log
	@grep -q '^soak: mixes .* faults 0 bad_bytes 0 deadlocks 0 ' build/soak.log

# RTL coverage, not part of `make check` (slow): a second model with line
# and toggle coverage (build/hw-cov, so the normal model is untouched), the
# whole-PPU tests against it, then the figures per RTL module in
# build/coverage.txt (tools/ppu-cov-report; build/cov/merged.dat for
# verilator_coverage --annotate).  COVERAGE_TOGGLE=0 measures lines and
# branches only (build/hw-cov-line, build/coverage-line.txt): a fraction of
# the time, since toggle points on every bit dominate it.
COVERAGE_TOGGLE ?= 1
COV_TAG := $(if $(filter 1,$(COVERAGE_TOGGLE)),,-line)
COV_RTL_TEST_BIN := build/tests/rtl_tests-cov$(COV_TAG)
coverage: deps
	@$(MAKE) --no-print-directory coverage-run

coverage-run:
	$(MAKE) --no-print-directory PPUSIM_DIR=build/hw-cov$(COV_TAG) PPUSIM_COVERAGE=1 \
		PPUSIM_VFLAGS='--coverage-line $(if $(COV_TAG),,--coverage-toggle)' \
		RTL_TEST_BIN=$(COV_RTL_TEST_BIN) $(COV_RTL_TEST_BIN)
	rm -rf build/cov$(COV_TAG) && mkdir -p build/cov$(COV_TAG)
	PPU_COVERAGE_DIR=build/cov$(COV_TAG) $(COV_RTL_TEST_BIN) || true
	verilator_coverage --write build/cov$(COV_TAG)/merged.dat build/cov$(COV_TAG)/cov-*.dat
	tools/ppu-cov-report build/cov$(COV_TAG)/merged.dat | tee build/coverage$(COV_TAG).txt

clean:
	rm -rf build
