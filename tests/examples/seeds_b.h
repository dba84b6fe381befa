/* SPDX-License-Identifier: MIT */
/*
 * SEEDS §B worked example (US 9483423) on the RTL: one copy engine, channels
 * C_low and C_high, semaphore S_high.  Shared by the RTL test, `make demo`
 * and the benchmarks.
 */
#ifndef SEEDS_B_H
#define SEEDS_B_H

#include <stdint.h>
#include <stdio.h>

#include "rtl_env.h"

enum { SB_MLOW1, SB_MLOW2, SB_MLOW3, SB_MHIGH1, SB_MHIGH2, SB_NCOPIES };

struct seeds_b_opts {
	int semaphores;		/* 1: the patent's insertion; 0: prior art */
	uint32_t copy_bytes;	/* size of each of the five copies */
	uint32_t low_timeslice;	/* cycles */
	uint32_t high_timeslice;
	FILE *timeline;		/* print the event timeline here, or NULL */
	const char *trace_path;	/* write the harness's text trace here, or NULL */
};

struct seeds_b_result {
	int order[SB_NCOPIES];		/* copy ids in completion order */
	uint64_t end[SB_NCOPIES];	/* completion cycle of each copy */
	uint64_t start[SB_NCOPIES];
	int data_ok;			/* every destination equals its source */
	/* C_high's slice expired during Mhigh1 and the host then tried C_low
	 * (acquire failed) before resuming C_high, as in the patent's text. */
	int high_slice_expired_in_mhigh1;
	int low_rechecked_after_mhigh1;
	int ok;				/* no fault, no timeout */
};

extern const char *const seeds_b_names[SB_NCOPIES];

int seeds_b_run(const struct seeds_b_opts *o, struct seeds_b_result *r);

#endif /* SEEDS_B_H */

/*
 * Latency of one high-priority copy issued while @nlow low-priority copies
 * are queued (the first already on the engine), and of the same copy on an
 * idle PPU, both from the doorbell to the copy's completion, in PPU cycles.
 */
struct prio_latency_opts {
	uint32_t low_bytes;
	int nlow;
	uint32_t high_bytes;
	int semaphores;
	int same_channel;	/* high copy queued behind the lows in their channel
				 * (what CUDA does when it ignores copy priority) */
	int hw_priority;	/* a runlist ranking the high channel above the low one */
	uint32_t timeslice;	/* both channels; 0 = the PPU's default */
	uint32_t chunk_bytes;	/* split each low copy into commands of this size,
				 * each behind its own acquire (0: one command) */
	const struct ppu_sim_config *cfg;	/* NULL = rtl_env defaults */
	const char *trace_path;	/* write the harness's text trace here, or NULL */
};

struct prio_latency_result {
	uint64_t alone;		/* high copy on an idle PPU */
	uint64_t loaded;	/* high copy behind the low copies */
	uint64_t low_copy;	/* engine time of one low copy */
	double ratio;		/* loaded / alone */
	double bound;		/* (low_copy + alone) / alone: wait for one low copy */
	int lows_before_high;	/* low copies completed before the high one */
	double sim_cycles_per_sec;
	int ok;
};

int prio_latency_run(const struct prio_latency_opts *o, struct prio_latency_result *r);
