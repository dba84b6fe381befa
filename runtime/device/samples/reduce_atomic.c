// SPDX-License-Identifier: MIT
/*
 * Sum and maximum of an array: each thread folds a grid-strided share,
 * then adds it with one amoadd.w and one amomaxu.w, and counts itself with
 * a compare-and-swap loop so that the lr.w/sc.w path runs under contention.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(reduce_atomic, struct reduce_params)
{
	const uint32_t *in = (const uint32_t *)(uintptr_t)params->in;
	uint32_t *out = (uint32_t *)(uintptr_t)params->out;
	uint32_t stride = ppu_global_threads();
	uint32_t sum = 0, max = 0, old;

	for (uint32_t i = ppu_global_id(); i < params->n; i += stride) {
		sum += in[i];
		if (in[i] > max)
			max = in[i];
	}
	ppu_atomic_add(&out[0], sum);
	ppu_atomic_maxu(&out[1], max);
	do
		old = ppu_atomic_load(&out[2]);
	while (ppu_atomic_cas(&out[2], old, old + 1) != old);
}
