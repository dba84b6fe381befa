# SPDX-License-Identifier: MIT
#
# libppu's example applications: static guest programs like the runtime's
# tests (the guest's busybox initramfs has no shared libraries).  Included
# from the top-level Makefile after runtime/runtime.mk.
#
#   make example-pipeline   runtime/examples/pipeline.c in the co-simulated
#                           guest: M copy stages in M prioritised streams,
#                           per-frame latency with and without copy priorities
#                           (PIPELINE_ARGS='--check' etc. are passed on)

RT_EXAMPLE_BINS := build/guest/pipeline

.PHONY: example-pipeline

build/guest/pipeline: runtime/examples/pipeline.c runtime/include/ppu_runtime.h $(LIBPPU_A)
	@mkdir -p $(@D)
	$(CC) $(RT_GUEST_CFLAGS) -static -o $@ $< $(LIBPPU_STATIC_LIBS)

example-pipeline: cosim-tools kmod build/guest/pipeline
	$(COSIM_RUNNER) --kver $(PPU_KVER) --timeout 600 --module $(KMOD) \
		--file build/guest/pipeline:/bin/pipeline \
		--run '/bin/pipeline$(if $(PIPELINE_ARGS), $(PIPELINE_ARGS))'
