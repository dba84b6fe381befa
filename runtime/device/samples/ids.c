// SPDX-License-Identifier: MIT
/*
 * Stores what the device header says about the thread: linear ids, dims,
 * the x/y/z coordinates it derives from them, and the task's CSRs.  A
 * chosen thread traps instead, after a barrier, so that the other threads
 * of its CTA are part-way through when it does.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(ids, struct ids_params)
{
	uint32_t id = ppu_global_id();
	uint32_t *o = (uint32_t *)(uintptr_t)params->out + IDS_OUT_WORDS * id;

	ppu_barrier();
	if (id == params->trap_id)
		ppu_trap(IDS_TRAP_CODE);
	o[0] = ppu_tid();
	o[1] = ppu_ntid();
	o[2] = ppu_ctaid();
	o[3] = ppu_nctaid();
	o[4] = ppu_tid_x();
	o[5] = ppu_tid_y();
	o[6] = ppu_tid_z();
	o[7] = ppu_ctaid_x();
	o[8] = ppu_ctaid_y();
	o[9] = ppu_ctaid_z();
	o[10] = ppu_cta_dim_x() << 16 | ppu_cta_dim_y() << 8 | ppu_cta_dim_z();
	o[11] = ppu_grid_dim_x() << 16 | ppu_grid_dim_y() << 8 | ppu_grid_dim_z();
	o[12] = ppu_global_threads();
	o[13] = (uint32_t)(uintptr_t)ppu_param() - (uint32_t)(uintptr_t)params;
	o[14] = ppu_prio() << 16 | ppu_depth() << 8 | ppu_maxdepth();
	o[15] = ppu_taskid();
	o[16] = ppu_hwid();
	o[17] = ppu_cu_contexts() << 8 | ppu_num_cu();
	o[18] = (uint32_t)ppu_cycles() != 0;
	/* The last word is written by a thread that leaves through ppu_exit(). */
	o[19] = 0x600d;
	ppu_exit();
}
