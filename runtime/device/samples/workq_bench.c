// SPDX-License-Identifier: MIT
/* Work-queue benchmarks (samples.h, struct workq_bench_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(workq_stamp, struct workq_bench_params)
{
	struct ppu_workq *q = (struct ppu_workq *)(uintptr_t)params->queue;
	uint32_t r;

	for (r = 0; r < params->reps; r++) {
		uint32_t *blk = (uint32_t *)(uintptr_t)(params->blks + 64 * r);
		uint32_t sem = params->sems + 16 * r;
		struct ppu_workq_block b = { .va = (uint32_t)(uintptr_t)blk };
		struct ppu_pb pb;

		ppu_pb_init(&pb, blk, 16);
		ppu_pb_sem(&pb, sem, r + 1, ppu_sem_release_op(0, 1, 0));
		b.ndw = pb.len;
		((uint32_t *)(uintptr_t)params->t0)[r] = ppu_csr_read_volatile(PPU_CSR_CYCLE);
		ppu_workq_submit(q, &b, 1);
		while (ppu_atomic_load((uint32_t *)(uintptr_t)sem) != r + 1)
			;
	}
}

PPU_KERNEL(workq_flood, struct workq_bench_params)
{
	struct ppu_workq_block b = { .va = params->blks, .ndw = params->blk_dw };
	uint32_t r;

	for (r = 0; r < params->reps; r++)
		ppu_workq_submit((struct ppu_workq *)(uintptr_t)params->queue, &b, 1);
}

PPU_WORKQ_KERNEL(workq_self, struct workq_rt_params)
{
	uint32_t *blk = (uint32_t *)(uintptr_t)params->blk;
	struct ppu_workq_block b = { .va = params->blk };
	struct ppu_pb pb;

	ppu_pb_init(&pb, blk, 16);
	ppu_pb_sem(&pb, params->sems, 1, ppu_sem_release_op(0, 1, 0));
	b.ndw = pb.len;
	((uint32_t *)(uintptr_t)params->t0)[0] = ppu_csr_read_volatile(PPU_CSR_CYCLE);
	ppu_workq_submit((struct ppu_workq *)(uintptr_t)params->queue, &b, 1);
}

PPU_KERNEL(workq_signal, struct workq_rt_params)
{
	uint32_t *t0 = (uint32_t *)(uintptr_t)params->t0;

	t0[1] = ppu_csr_read_volatile(PPU_CSR_CYCLE);
	ppu_atomic_store(&t0[0], 1);
}
