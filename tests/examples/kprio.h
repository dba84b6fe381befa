/* SPDX-License-Identifier: MIT */
/*
 * Kernel priorities on the RTL: a small latency-sensitive kernel launched
 * while a low-priority kernel fills every compute unit, its latency
 * (doorbell -> its TASK_COMPLETE) compared with the same kernel on an idle
 * PPU.  Shared by the RTL demo (tests/examples/kprio_demo.c) and the
 * benchmarks (tests/bench/bench_compute.c), so that both measure the same
 * scenario.
 */
#ifndef KPRIO_H
#define KPRIO_H

#include <stdint.h>

#include "rtl_env.h"

enum kprio_scenario {
	KPRIO_ALONE,		/* the small kernel on an idle PPU */
	KPRIO_PRIOR_ART,	/* both kernels at device priority 0 (SEEDS A's prior art:
				 * every parent kernel at the lowest priority) */
	KPRIO_NO_PREEMPTION,	/* small at 40, filling at 0, TASK_CTRL.NO_PREEMPT */
	KPRIO_PREEMPTION,	/* the same with preemption (the PPU's default) */
	KPRIO_NSCENARIOS,
};

/* Device priority of the small kernel outside the prior art. */
#define KPRIO_HIGH 40

extern const char *const kprio_names[KPRIO_NSCENARIOS];

struct kprio_opts {
	enum kprio_scenario scenario;
	/* The filling kernel: CTAs per compute unit (a CTA takes every context
	 * of a unit) and spin rounds per thread; the small kernel: one CTA per
	 * unit, small_rounds each. */
	uint32_t fill_ctas_per_cu;
	uint32_t fill_rounds, small_rounds;
	/* The small kernel is instead a dp_sum parent whose four threads each
	 * launch child CTAs at parent + 1 and wait for them (SEEDS A). */
	int dp;
	const struct ppu_sim_config *cfg;	/* NULL: rtl_env's defaults */
	const char *trace_path;			/* the harness's text trace, or NULL */
};

struct kprio_result {
	uint64_t latency;	/* the small kernel: doorbell -> its TASK_COMPLETE */
	uint64_t wait;		/* doorbell -> its first CTA on a unit */
	uint64_t total;		/* doorbell -> both kernels done */
	/* CTAs of the filling kernel put on a unit (dispatched or resumed)
	 * between the small kernel's doorbell and its last CTA's dispatch */
	unsigned int fill_ctas_ahead;
	uint64_t preemptions;	/* PERF PREEMPTIONS */
	double save_cycles;	/* CTA_PREEMPT -> CTA_SAVED, mean */
	double ctxsw_per_preemption;	/* CTXSW_CYCLES / PREEMPTIONS */
	int data_ok;		/* every thread's result as computed on the host */
	double sim_cycles_per_sec;
	uint32_t num_cu, cu_contexts;	/* of the PPU it ran on */
};

/* Runs one scenario on a fresh PPU; 0, or -1 (message on stderr). */
int kprio_run(const struct kprio_opts *o, struct kprio_result *r);

#endif /* KPRIO_H */
