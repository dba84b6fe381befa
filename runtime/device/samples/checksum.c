// SPDX-License-Identifier: MIT
/*
 * A long, memory-light loop whose result depends on every step: the
 * reference for bit-exact preemption (a CTA saved and resumed many times
 * must give the value the ISS computes).  The ring lives on the thread's
 * stack, so a resume that lost the stack or a register shows up.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(checksum, struct checksum_params)
{
	uint32_t id = ppu_global_id();
	volatile uint32_t ring[8];

	((uint32_t *)(uintptr_t)params->out)[id] = checksum_run(ring, params->seed, id,
								 params->iters);
}
