// SPDX-License-Identifier: MIT
/* One position of a chain of device launches (samples.h, struct nest_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(nest, struct nest_params)
{
	uint32_t *out = (uint32_t *)(uintptr_t)params->out + NEST_OUT_WORDS * params->level;
	const uint32_t *tmds = (const uint32_t *)(uintptr_t)params->tmds;
	uint32_t next = params->level + 1, st = NEST_NO_LAUNCH;

	out[NEST_PRIO] = ppu_prio();
	out[NEST_DEPTH] = ppu_depth();
	if (next < params->levels)
		st = ppu_launch_tmd((const void *)(uintptr_t)tmds[next]);
	out[NEST_STATUS] = st;
	if (params->wait) {
		out[NEST_WAIT_RET] = ppu_wait_children();
		/* the child's writes are visible after the wait */
		out[NEST_CHILD_PRIO] = st == PPU_ECALL_STATUS_OK ? out[NEST_OUT_WORDS + NEST_PRIO] : 0;
	}
	if (params->spin)
		out[NEST_SPIN] = spin_run(params->level, params->spin);
}
