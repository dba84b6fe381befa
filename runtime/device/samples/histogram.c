// SPDX-License-Identifier: MIT
/* Histogram of an array: grid-strided, one amoadd.w per element. */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(histogram, struct histogram_params)
{
	const uint32_t *in = (const uint32_t *)(uintptr_t)params->in;
	uint32_t *bins = (uint32_t *)(uintptr_t)params->bins;
	uint32_t stride = ppu_global_threads();

	for (uint32_t i = ppu_global_id(); i < params->n; i += stride)
		ppu_atomic_add(&bins[in[i] % params->nbins], 1);
}
