/* SPDX-License-Identifier: MIT */
/*
 * How a kernel launch is laid out, without a device: the checks of the
 * TMD's shape rules, the save slots k of the task block and its size
 * (docs/compute-design.md §2.1, §2.2).  libppu uses it for every launch;
 * the RTL tests build their TMDs with it.
 */
#ifndef PPU_LAUNCH_PLAN_H
#define PPU_LAUNCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* What the device reports. */
struct ppu_launch_limits {
	uint32_t num_cu;
	uint32_t cu_contexts;		/* thread contexts per compute unit */
	uint32_t max_cta_threads;	/* threads of one CTA the device runs */
};

struct ppu_launch_shape {
	uint32_t grid[3];		/* CTAs per dimension */
	uint32_t cta[3];		/* threads per dimension */
	uint32_t stack_bytes;		/* per thread, as asked (0: none) */
};

struct ppu_launch_plan {
	uint32_t threads;		/* t, per CTA */
	uint32_t ctas;			/* in the grid */
	uint32_t stack_bytes;		/* 0, or a power of two 64 .. 64 KiB */
	uint32_t save_ctas;		/* k: CTAs that can be started and unfinished at once */
	uint32_t block_bytes;		/* the task block: header, k * t records and stacks */
};

/* 0 and the plan, or -1 with what is wrong in @err. */
int ppu_launch_plan(const struct ppu_launch_limits *lim, const struct ppu_launch_shape *shape,
		    struct ppu_launch_plan *plan, char *err, size_t errlen);

#endif /* PPU_LAUNCH_PLAN_H */
