// SPDX-License-Identifier: MIT
/* Children sized by data, launched with ppu_launch (samples.h, struct dp_sum_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(dp_sum_child, struct dp_sum_child_params)
{
	ppu_atomic_add((uint32_t *)(uintptr_t)params->out, params->base + ppu_global_id());
}

PPU_KERNEL(dp_sum, struct dp_sum_params)
{
	uint32_t i = ppu_global_id();

	if (i < params->n) {
		uint8_t *mem = (uint8_t *)(uintptr_t)(params->pool + i * params->stride);
		struct dp_sum_child_params *cp = (struct dp_sum_child_params *)mem;
		ppu_dev_dim3 grid = { ((const uint32_t *)(uintptr_t)params->counts)[i], 1, 1 };
		ppu_dev_dim3 cta = { DP_SUM_CHILD_T, 1, 1 };

		cp->out = params->out + 4 * i;
		cp->base = i * 1000;
		/* the parameters in the first 64 bytes, the TMD and block after them */
		((uint32_t *)(uintptr_t)params->status)[i] =
			ppu_launch(mem + 64, params->stride - 64, dp_sum_child, grid, cta, cp, DP_SUM_STACK);
	}
	ppu_wait_children();
	if (i < params->n)
		((uint32_t *)(uintptr_t)params->res)[i] =
			((volatile uint32_t *)(uintptr_t)params->out)[i];
}
