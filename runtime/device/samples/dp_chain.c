// SPDX-License-Identifier: MIT
/* A kernel that launches itself one level deeper (samples.h, struct dp_chain_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(dp_chain, struct dp_chain_params)
{
	uint32_t *out = (uint32_t *)(uintptr_t)params->out + NEST_OUT_WORDS * params->level;
	uint32_t next = params->level + 1, st = NEST_NO_LAUNCH;

	out[NEST_PRIO] = ppu_prio();
	out[NEST_DEPTH] = ppu_depth();
	if (next < params->levels) {
		uint8_t *mem = (uint8_t *)(uintptr_t)(params->pool + next * DP_CHAIN_STRIDE);
		struct dp_chain_params *cp = (struct dp_chain_params *)mem;
		ppu_dev_dim3 one = { 1, 1, 1 };

		*cp = *params;
		cp->level = next;
		st = ppu_launch(mem + 64, DP_CHAIN_STRIDE - 64, dp_chain, one, one, cp, 256);
	}
	out[NEST_STATUS] = st;
}
