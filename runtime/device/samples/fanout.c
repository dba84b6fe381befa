// SPDX-License-Identifier: MIT
/* Parents that launch one child per CTA and wait for it (samples.h, struct fanout_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(fanout, struct fanout_params)
{
	uint32_t cta = ppu_ctaid();
	const uint32_t *tmds = (const uint32_t *)(uintptr_t)params->tmds;
	volatile uint32_t *slots = (volatile uint32_t *)(uintptr_t)params->slots;

	if (ppu_tid() == 0)
		((uint32_t *)(uintptr_t)params->status)[cta] =
			ppu_launch_tmd((const void *)(uintptr_t)tmds[cta]);
	/* the launch is in before any thread of the CTA waits */
	ppu_barrier();
	ppu_wait_children();
	((uint32_t *)(uintptr_t)params->res)[ppu_global_id()] = slots[cta];
}

PPU_KERNEL(fanout_child, struct fanout_child_params)
{
	uint32_t v = params->value;

	if (params->spin)
		v += spin_run(v, params->spin) & 0x80000000u;
	*(volatile uint32_t *)(uintptr_t)params->slot = v & 0x7fffffffu;
}
