# SPDX-License-Identifier: MIT
#
# Co-simulation benchmarks (tools/cosim-bench.sh): one boot of the QEMU
# guest with ppu.ko, GET_PARAM round trips from build/guest/bench_ioctl,
# doorbell -> completion latency from build/guest/bench_submit and the
# runner's boot/batch wall times, added to build/bench.txt.  Include it
# from the top-level Makefile after tools/cosim.mk and kernel/kernel.mk:
#
#   include tools/cosim-bench.mk
#
#   make cosim-bench       install missing packages (deps), then run
#   make cosim-bench-run   run (after `make bench-run`, which rewrites
#                          build/bench.txt)

.PHONY: cosim-bench cosim-bench-run

cosim-bench: deps
	@$(MAKE) --no-print-directory cosim-bench-run

cosim-bench-run: cosim-tools kmod build/guest/bench_ioctl build/guest/bench_submit \
		build/guest/bench_copy_prio build/guest/bench_workq build/guest/bench_recovery \
		$(FUZZ_BIN) device-kernels
	COSIM_RUNNER=$(COSIM_RUNNER) KMOD=$(KMOD) BENCH_IOCTL=build/guest/bench_ioctl \
		BENCH_SUBMIT=build/guest/bench_submit BENCH_COPY_PRIO=build/guest/bench_copy_prio \
		BENCH_WORKQ=build/guest/bench_workq BENCH_WORKQ_ELF=build/device/workq_bench.elf \
		BENCH_RECOVERY=build/guest/bench_recovery BENCH_FUZZ=$(FUZZ_BIN) \
		PPU_KVER=$(PPU_KVER) tools/cosim-bench.sh
