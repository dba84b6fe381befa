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
	uint32_t x = params->seed ^ (id * 0x85ebca6bu);
	uint32_t h = id;
	volatile uint32_t ring[8];

	for (uint32_t i = 0; i < 8; i++)
		ring[i] = x + i;
	for (uint32_t i = 0; i < params->iters; i++) {
		uint32_t k = ring[i & 7];

		x = x * 1664525u + 1013904223u;
		ring[i & 7] = x ^ h;
		h = checksum_step(h, x, k);
		h += (uint32_t)(((uint64_t)x * h) >> 32);
		if ((x & 0x70) == 0)
			h ^= x / ((h & 0xf) + 1);
	}
	((uint32_t *)(uintptr_t)params->out)[id] = h;
}
