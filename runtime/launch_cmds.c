// SPDX-License-Identifier: MIT
/*
 * The TMD and the commands of a host launch (see launch_cmds.h).
 */
#include "launch_cmds.h"

uint32_t ppu_launch_slot_bytes(size_t param_bytes)
{
	/* The parameters keep the TMD's alignment, which suits any parameter struct. */
	return PPU_TMD_BYTES + (uint32_t)((param_bytes + PPU_TMD_BYTES - 1) /
					  PPU_TMD_BYTES * PPU_TMD_BYTES);
}

void ppu_launch_tmd(uint32_t tmd[16], const struct ppu_launch_shape *shape,
		    const struct ppu_launch_plan *plan, const struct ppu_launch_desc *d)
{
	struct ppu_tmd_desc t = {
		.entry_pc = d->entry_pc,
		.param = d->param_va,
		.prio = d->prio,
		/* The timeline learns of the completion with the PPU's time of it. */
		.flags = PPU_FSET(PPU_TMD_FLAGS_SEM_RELEASE, !!d->sem_va) |
			 PPU_FSET(PPU_TMD_FLAGS_SEM_TIMESTAMP, !!d->sem_va) |
			 PPU_FSET(PPU_TMD_FLAGS_ICACHE_INVALIDATE, !!d->icache_invalidate),
		.sem_addr = d->sem_va,
		.sem_payload = d->sem_payload,
		.stack_bytes = plan->stack_bytes,
		.save_ctas = plan->save_ctas,
		.block_bytes = plan->block_bytes,
		.block_va = d->block_va,
	};
	unsigned int i;

	for (i = 0; i < 3; i++) {
		t.grid[i] = shape->grid[i];
		t.cta[i] = shape->cta[i];
	}
	ppu_tmd_fill(tmd, &t);
}

void ppu_launch_cmds(struct ppu_pb *pb, uint32_t tmd_va)
{
	ppu_pb_launch(pb, tmd_va);
	/* On a compute channel: wait until the channel's tasks are complete. */
	ppu_pb_method(pb, PPU_HOST_WFI, 0);
}
