// SPDX-License-Identifier: MIT
/*
 * Threads that submit command blocks to the PPU-owned work queue (samples.h,
 * struct workq_fill_params): workq_fill only submits, workq_gen is a
 * work-creating launch that also closes the launch's queue window.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

static void fill(struct workq_fill_params *params)
{
	uint32_t id = ppu_global_id(), s, i, j = 0, st = 0;
	uint32_t arena = params->arena + id * WORKQ_FILL_ARENA;
	uint32_t ticket = params->tickets + 4 * id;
	struct ppu_workq_block b[3];

	for (s = 0; s < params->subs; s++) {
		uint32_t n = workq_fill_blocks(params->seed, id, s);

		for (i = 0; i < n; i++, j++) {
			uint32_t va = arena + (j % (WORKQ_FILL_ARENA / WORKQ_FILL_BLOCK)) * WORKQ_FILL_BLOCK;
			struct ppu_pb pb;

			ppu_pb_init(&pb, (uint32_t *)(uintptr_t)va, WORKQ_FILL_BLOCK / 4);
			workq_ticket_block(&pb, ticket, j);
			ppu_pb_sem_inc(&pb, params->total);
			b[i].va = va;
			b[i].ndw = pb.len;
		}
		st |= ppu_workq_submit((struct ppu_workq *)(uintptr_t)params->queue, b, n);
	}
	((uint32_t *)(uintptr_t)params->status)[id] = st;
}

PPU_KERNEL(workq_fill, struct workq_fill_params)
{
	fill(params);
}

PPU_WORKQ_KERNEL(workq_gen, struct workq_fill_params)
{
	fill(params);
}
