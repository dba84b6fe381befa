// SPDX-License-Identifier: MIT
/*
 * Threads whose queue blocks copy (samples.h, struct workq_copy_params):
 * the blocks address the copy class on subchannel COPY of the queue's
 * compute channel, so the copy engine runs them; a block's methods after a
 * LAUNCH_DMA run once that copy is complete.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_WORKQ_KERNEL(workq_copy, struct workq_copy_params)
{
	uint32_t id = ppu_global_id(), off = workq_copy_off(id), len = workq_copy_len(id);
	uint32_t *slot = (uint32_t *)(uintptr_t)(params->blocks + id * WORKQ_COPY_SLOT);
	struct ppu_workq_block b[2];
	struct ppu_pb pb;

	ppu_pb_init(&pb, slot, WORKQ_COPY_SLOT / 8);
	ppu_pb_copy_sub(&pb, PPU_MTHD_SUBCH_COPY, params->src + off, params->stage + off, len,
			PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	b[0].va = (uint32_t)(uintptr_t)slot;
	b[0].ndw = pb.len;

	ppu_pb_init(&pb, slot + WORKQ_COPY_SLOT / 8, WORKQ_COPY_SLOT / 8);
	ppu_pb_copy_sub(&pb, PPU_MTHD_SUBCH_COPY, params->stage + off, params->dst + off, len,
			PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, params->done + 4 * id, id + 1, 0);
	ppu_pb_sem_inc(&pb, params->total);
	b[1].va = (uint32_t)(uintptr_t)(slot + WORKQ_COPY_SLOT / 8);
	b[1].ndw = pb.len;
	if (pb.overflow)
		ppu_trap(1);

	((uint32_t *)(uintptr_t)params->status)[id] =
		ppu_workq_submit((struct ppu_workq *)(uintptr_t)params->queue, b, 2);
}
