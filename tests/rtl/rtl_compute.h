/* SPDX-License-Identifier: MIT */
/*
 * Compute helpers on top of rtl_env for RTL tests and benchmarks: kernel
 * images (the ELF files of `make device-kernels`, loaded as libppu loads
 * them, with module_elf), compute channels, and launches with their TMD,
 * task block (sized by the runtime's launch plan) and parameter block.
 * Every helper aborts the process on a setup error, as rtl_env does.
 */
#ifndef RTL_COMPUTE_H
#define RTL_COMPUTE_H

#include <stdint.h>

#include "rtl_env.h"
#include "../../runtime/module_elf.h"

struct rtl_kimage {
	struct rtl_buf code;	/* mapped R/W/X */
	struct ppu_elf elf;
	unsigned char *file;
};

/* Loads build/device/<file>.elf into fresh executable local memory of @ctx. */
void rtl_kimage_load(struct rtl_ctx *ctx, const char *file, struct rtl_kimage *k);
/* VA of the kernel (global function) @name. */
uint32_t rtl_kimage_fn(const struct rtl_kimage *k, const char *name);
void rtl_kimage_free(struct rtl_kimage *k);

/* A compute channel (64-entry GPFIFO) with launch priorities [pmin, pmax]
 * and max nesting depth @max_depth. */
struct rtl_chan *rtl_cchan_create(struct rtl_env *env, struct rtl_ctx *ctx, unsigned int chid,
				  uint32_t pmin, uint32_t pmax, uint32_t max_depth);

/* One launch; fill the inputs, then rtl_klaunch_prepare() fills the rest. */
struct rtl_klaunch {
	uint32_t entry;
	uint32_t grid[3], cta[3];	/* 0 is taken as 1 */
	uint32_t prio, flags;		/* flags beyond SEM_RELEASE | SEM_TIMESTAMP */
	uint32_t stack_bytes;		/* 0: 256 */
	const void *params;
	uint32_t param_bytes;
	uint32_t param_va;		/* nonzero: PARAM_PTR as is, params not copied */
	struct rtl_buf sem;		/* completion semaphore, 16 bytes, timestamped */
	struct rtl_buf tmd;
	struct rtl_buf block;
	struct rtl_buf pbuf;
};

/* Zeroes @l and sets the entry, a 1-D grid and CTA, and the parameters. */
void rtl_klaunch_init(struct rtl_klaunch *l, uint32_t entry, uint32_t grid_x, uint32_t cta_x,
		      const void *params, uint32_t param_bytes);
/* Allocates and writes the TMD, task block and parameters of @l. */
void rtl_klaunch_prepare(struct rtl_ctx *ctx, struct rtl_klaunch *l, uint32_t sem_payload);
/* Submits launch; WFI; and, if @after_va, a host release of @after there. */
void rtl_klaunch_submit(struct rtl_chan *ch, const struct rtl_klaunch *l, uint32_t after_va,
			uint32_t after);

/*
 * A PPU-owned work queue on @qc (AUTO_PUT set here; include/ppu/ppu_workq.h):
 * descriptor *@q written at RTL_WORKQ_DESC of the returned buffer, X at
 * RTL_WORKQ_X, Y at RTL_WORKQ_X + 8, entry 0 parked on X = 1 and its own
 * semaphore, bound by a doorbell.
 */
enum { RTL_WORKQ_DESC = 0x0, RTL_WORKQ_X = 0x40, RTL_WORKQ_SEMS = 0x100, RTL_WORKQ_TAILS = 0x1000 };
struct ppu_workq;
struct rtl_buf rtl_workq_new(struct rtl_env *env, struct rtl_ctx *ctx, struct rtl_chan *qc,
			     struct ppu_workq *q);

#endif /* RTL_COMPUTE_H */
