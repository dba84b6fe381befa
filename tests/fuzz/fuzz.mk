# SPDX-License-Identifier: MIT
#
# ppu_fuzz (tests/fuzz/ppu_fuzz.c): the structured, seeded ioctl fuzzer of
# ppu.ko, run in the co-simulated guest.  Included from the top-level
# Makefile after tools/cosim.mk and kernel/kernel.mk (it uses COSIM_RUNNER,
# KMOD, PPU_KVER and KMOD_GUEST_CFLAGS):
#
#   include tests/fuzz/fuzz.mk
#
#   make fuzz-bin     build build/guest/ppu_fuzz
#   make fuzz-check   the bounded run of `make check`: FUZZ_CHECK_CALLS calls
#                     (about a minute of guest time) with seed FUZZ_CHECK_SEED
#   make fuzz         install missing packages (deps), then the long run:
#                     FUZZ_TIME seconds, seed FUZZ_SEED (default: from the
#                     clock, printed), then in the same boot the reload
#                     soak: FUZZ_RELOADS (100) unloads and loads of ppu.ko,
#                     each right after half a second of fuzzing whose files
#                     close with work still on the PPU (reload-stress.sh
#                     RELOAD_WORK; no leak across the reloads); log in
#                     build/fuzz.log
#   make fuzz-run     the long run without deps
#
# Every run uses FUZZ_CHILDREN clients (client 0 root, 1 drops to uid 65534
# after opening the render node, 2 before), each with a second thread that
# destroys what the first one uses.  A run fails when the guest kernel logs
# an oops, WARNING, lockup or hung task (ppu-cosim), when a client dies by a
# signal or stops making progress, or (--strict) on a violation: a channel
# of a file that only ever submitted valid work faults, -EIO for a channel
# the hardware does not show faulted, an output out of range, a doorbell
# page that raises SIGBUS while its channel is alive and ours or still works
# after its CHAN_DESTROY returned, a doorbell mapping the ABI forbids that
# succeeds (private, executable, two pages, another client's), or channel
# ids, local memory or pinned pages not back once every file is closed.
# A violation prints the client's last 256 calls.  Replay a failure with
# the seed it prints; add FUZZ_ARGS=--no-race to drop the racing thread
# (then a seed replays exactly), -v to log every call.
#
# FUZZ_AVOID names known kernel bugs the runs steer around so that they can
# find new ones; none is in the default list, since all were fixed:
#   autoput-storm   an AUTO_PUT ring of NON_STALL_INTR pushbuffers interrupted
#                   without end and livelocked the guest (RCU stall); with it
#                   the runs create no AUTO_PUT channels
#   wait-i64min     SEM_WAIT with timeout_ns near INT64_MIN slept for ever
#   pool-destroy-0  SEM_POOL_DESTROY of pool 0 let id 0 be handed out next
#   stale-fault     a fault interrupt handled after its channel was destroyed
#                   made the next channel with that id fail with -EIO (cannot
#                   be steered around: the run notes it instead of failing)

FUZZ_BIN := build/guest/ppu_fuzz
FUZZ_CHILDREN ?= 3
FUZZ_AVOID ?=
FUZZ_CHECK_SEED ?= 1
FUZZ_CHECK_CALLS ?= 300000
FUZZ_SEED ?=
FUZZ_TIME ?= 3600
FUZZ_ARGS ?=
FUZZ_OPTS = $(strip --children $(FUZZ_CHILDREN) --strict \
	$(if $(FUZZ_AVOID),--avoid $(FUZZ_AVOID)) $(FUZZ_ARGS))
# --time-limit bounds a slow machine; the call budget normally ends the check first.
FUZZ_CHECK_CMD = /bin/ppu_fuzz --seed $(FUZZ_CHECK_SEED) --calls $(FUZZ_CHECK_CALLS) \
	--time-limit 240 $(FUZZ_OPTS)
FUZZ_RUN_CMD = /bin/ppu_fuzz $(if $(FUZZ_SEED),--seed $(FUZZ_SEED)) --calls 1000000000000 \
	--time-limit $(FUZZ_TIME) $(FUZZ_OPTS)
# The reload soak after it, in the same boot: FUZZ_RELOADS unloads and
# loads of ppu.ko, each right after half a second of fuzzing (seed = the
# iteration) whose files close with their work still on the PPU.  Without
# the fuzzer's own leak check (it waits for fences to time out, 10 s; the
# unload should come while they are pending) and --strict; reload-stress
# checks for leaks across all the reloads instead.
FUZZ_RELOADS ?= 100
FUZZ_RELOAD_CMD = RELOAD_WORK='/bin/ppu_fuzz --seed \$$ITER --calls 1000000000 --time-limit 0.5 \
	--children 2 --no-leak-check' /bin/reload-stress $(FUZZ_RELOADS)

.PHONY: fuzz-bin fuzz-check fuzz fuzz-run

$(FUZZ_BIN): tests/fuzz/ppu_fuzz.c tests/guest/ppu_node.c tests/guest/ppu_node.h \
		include/uapi/drm/ppu_drm.h include/ppu/ppu_hw.h include/ppu/ppu_encode.h \
		include/ppu/*.def
	@mkdir -p $(@D)
	$(CC) $(KMOD_GUEST_CFLAGS) -Itests/guest -static -o $@ $< tests/guest/ppu_node.c

fuzz-bin: $(FUZZ_BIN)

fuzz-check: cosim-tools kmod $(FUZZ_BIN)
	$(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 600 --module $(KMOD) \
		--file $(FUZZ_BIN):/bin/ppu_fuzz --run '$(FUZZ_CHECK_CMD)'

fuzz: deps
	@$(MAKE) --no-print-directory fuzz-run

fuzz-run: cosim-tools kmod $(FUZZ_BIN) build/guest/test_get_param
	@mkdir -p build
	set -o pipefail; $(COSIM_RUNNER) --kver $(PPU_KVER) --timeout $$(($(FUZZ_TIME) + 600 + 20 * $(FUZZ_RELOADS))) \
		--module $(KMOD) --file $(FUZZ_BIN):/bin/ppu_fuzz \
		--file tests/guest/reload-stress.sh:/bin/reload-stress \
		--file build/guest/test_get_param:/bin/test_get_param \
		--run '$(FUZZ_RUN_CMD)' --run "$(FUZZ_RELOAD_CMD)" \
		2>&1 | tee build/fuzz.log
