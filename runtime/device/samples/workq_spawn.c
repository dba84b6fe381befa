// SPDX-License-Identifier: MIT
/* Threads that enqueue follow-up kernels by data (samples.h, struct workq_spawn_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(workq_child, struct workq_child_params)
{
	ppu_atomic_add((uint32_t *)(uintptr_t)params->out, params->v);
}

PPU_WORKQ_KERNEL(workq_spawn, struct workq_spawn_params)
{
	uint32_t id = ppu_global_id(), v = ((const uint32_t *)(uintptr_t)params->items)[id];
	uint8_t *slot = (uint8_t *)(uintptr_t)(params->pool + id * WORKQ_SPAWN_SLOT);
	struct workq_child_params *cp = (struct workq_child_params *)(slot + WORKQ_SPAWN_PARAMS);
	uint32_t *blk = (uint32_t *)(slot + WORKQ_SPAWN_BLOCK), n = workq_spawn_threads(v);
	struct ppu_workq_block b = { .va = (uint32_t)(uintptr_t)blk };
	struct ppu_pb pb;

	if (!n)
		return;
	cp->out = params->out + 4 * id;
	cp->v = v;
	if (ppu_tmd_prepare(slot, WORKQ_SPAWN_PARAMS, workq_child, (ppu_dev_dim3){ 1, 1, 1 },
			    (ppu_dev_dim3){ n, 1, 1 }, cp, 256))
		ppu_trap(1);
	ppu_pb_init(&pb, blk, 16);
	ppu_pb_launch(&pb, (uint32_t)(uintptr_t)slot);
	b.ndw = pb.len;
	if (ppu_workq_submit((struct ppu_workq *)(uintptr_t)params->queue, &b, 1))
		ppu_trap(2);
	ppu_atomic_add((uint32_t *)(uintptr_t)params->spawned, 1);
}

PPU_WORKQ_KERNEL(workq_leaf, struct workq_leaf_params)
{
	uint32_t j = ppu_tid();
	uint32_t *blk = (uint32_t *)(uintptr_t)(params->blocks + 64 * j);
	struct ppu_workq_block b = { .va = (uint32_t)(uintptr_t)blk };
	struct ppu_pb pb;

	ppu_pb_init(&pb, blk, 16);
	ppu_pb_sem(&pb, params->out, params->v,
		   ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_IADD, 1));
	b.ndw = pb.len;
	if (ppu_workq_submit((struct ppu_workq *)(uintptr_t)params->queue, &b, 1))
		ppu_trap(3);
}

PPU_WORKQ_KERNEL(workq_tree, struct workq_spawn_params)
{
	uint32_t id = ppu_global_id(), v = ((const uint32_t *)(uintptr_t)params->items)[id];
	uint8_t *slot = (uint8_t *)(uintptr_t)(params->pool + id * WORKQ_SPAWN_SLOT);
	struct workq_leaf_params *lp = (struct workq_leaf_params *)(slot + WORKQ_SPAWN_PARAMS);
	uint32_t *blk = (uint32_t *)(slot + WORKQ_SPAWN_BLOCK), n = workq_spawn_threads(v);
	struct ppu_workq *q = (struct ppu_workq *)(uintptr_t)params->queue;
	struct ppu_workq_block b = { .va = (uint32_t)(uintptr_t)blk };
	struct ppu_pb pb;

	if (!n)
		return;
	*lp = (struct workq_leaf_params){ .queue = params->queue, .out = params->out + 4 * id,
					  .v = v, .blocks = (uint32_t)(uintptr_t)(slot + WORKQ_LEAF_BLOCKS) };
	if (ppu_tmd_prepare(slot, WORKQ_SPAWN_PARAMS, workq_leaf, (ppu_dev_dim3){ 1, 1, 1 },
			    (ppu_dev_dim3){ n, 1, 1 }, lp, 256))
		ppu_trap(1);
	ppu_pb_init(&pb, blk, 16);
	ppu_pb_launch(&pb, (uint32_t)(uintptr_t)slot);
	b.ndw = pb.len;
	ppu_workq_join(q, n);
	if (ppu_workq_submit(q, &b, 1))
		ppu_trap(2);
	ppu_atomic_add((uint32_t *)(uintptr_t)params->spawned, 1);
}
