/* SPDX-License-Identifier: MIT */
/*
 * The copy-priority scenario of SEEDS §B through libppu's public API, shared
 * by the guest test, the demo and the benchmark: low-priority copies in one
 * stream and, once the first of them is running, high-priority copies in
 * another; every copy followed by an event, so completion times come from
 * the PPU's cycle counter.
 */
#ifndef RT_PRIO_RUN_H
#define RT_PRIO_RUN_H

#include <stdint.h>

#include "ppu_runtime.h"

#define RT_PRIO_MAX_COPIES 16

struct rt_prio_cfg {
	int sems;		/* PPU_LIMIT_COPY_PRIORITIES */
	uint64_t chunk;		/* PPU_LIMIT_COPY_CHUNK_BYTES */
	unsigned int nlow, nhigh;
	uint64_t low_bytes, high_bytes;
	int shared_low_dst;	/* all low copies into one buffer (big runs) */
	int device;		/* the PPU's index (ppu_ctx_create) */
};

struct rt_prio_result {
	/* PPU cycles, relative to the event right before the first low copy */
	int64_t low_done[RT_PRIO_MAX_COPIES];
	int64_t high_done[RT_PRIO_MAX_COPIES];
	int64_t high_issue;	/* the high stream reached the PPU */
	/* 'L' or 'H' with the copy's number, in completion order, e.g. "L1 H1 H2 L2 L3" */
	char order[8 * 2 * RT_PRIO_MAX_COPIES];
	uint64_t alone;		/* the first high copy on an idle PPU, issue to done */
	uint64_t loaded;	/* the same under the low load */
	double ratio;		/* loaded / alone */
	double low_bytes_per_cycle;	/* the low stream's throughput */
	int data_ok;		/* every destination byte checked */
	unsigned int dev_prio_low, dev_prio_high;
};

/*
 * Runs the scenario in a fresh context; PPU_SUCCESS or the first error
 * (ppu_last_error() says more).
 */
ppu_status rt_prio_run(const struct rt_prio_cfg *cfg, struct rt_prio_result *r);

#endif /* RT_PRIO_RUN_H */
