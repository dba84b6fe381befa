// SPDX-License-Identifier: MIT
/* A random tree of device launches, for stress tests (samples.h, struct dp_rand_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	return x ^ (x >> 16);
}

PPU_KERNEL(dp_rand, struct dp_rand_params)
{
	uint32_t *ctr = (uint32_t *)(uintptr_t)params->counters;
	uint32_t r = mix(params->seed ^ (ppu_depth() << 24) ^ ppu_global_id() * 0x9e3779b9u);

	ppu_atomic_add(&ctr[0], 1);
	if ((r & 3) == 0 && ppu_depth() < ppu_maxdepth()) {
		uint32_t slot = ppu_atomic_add(&ctr[2], 1);

		if (slot < params->pool_slots) {
			uint8_t *mem = (uint8_t *)(uintptr_t)(params->pool + slot * DP_RAND_SLOT);
			struct dp_rand_params *cp = (struct dp_rand_params *)mem;
			ppu_dev_dim3 grid = { 1 + (r >> 4) % 3, 1, 1 }, cta = { 1 + (r >> 8) % 8, 1, 1 };

			*cp = *params;
			cp->seed = mix(r);
			if (ppu_launch(mem + 64, DP_RAND_SLOT - 64, dp_rand, grid, cta, cp, 256) ==
			    PPU_ECALL_STATUS_OK)
				ppu_atomic_add(&ctr[1], grid.x * cta.x);
			else
				ppu_atomic_add(&ctr[3], 1);
		}
	}
	if (r & 0x10000)
		ppu_barrier();
	if (r & 0x20000)
		ppu_wait_children();
}
