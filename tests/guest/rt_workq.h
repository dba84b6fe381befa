/* SPDX-License-Identifier: MIT */
/*
 * Device-side work creation against the host round trip, in PPU cycles
 * (bench_workq and the demo; workq_bench.elf must be in /lib/ppu).
 */
#ifndef RT_WORKQ_H
#define RT_WORKQ_H

#include "ppu_runtime.h"

struct rt_workq_latency {
	double device;		/* a thread's submit -> the queued block, the window included */
	double host;		/* a thread's flag -> the host's event on another stream */
};

/*
 * Means of @reps rounds after a warm-up round, on a fresh queue of @ctx.
 * PPU_SUCCESS, or the failing call's status with ppu_last_error() set.
 */
ppu_status rt_workq_latency(ppu_ctx *ctx, int reps, struct rt_workq_latency *out);

#endif /* RT_WORKQ_H */
