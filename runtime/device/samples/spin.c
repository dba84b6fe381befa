// SPDX-License-Identifier: MIT
/* A register-only xorshift/FNV loop per thread, then one store: compute-bound work. */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(spin, struct spin_params)
{
	uint32_t id = ppu_global_id();
	uint32_t *out = (uint32_t *)(uintptr_t)params->out;

	out[id] = spin_run(params->seed ^ id, params->iters);
}
