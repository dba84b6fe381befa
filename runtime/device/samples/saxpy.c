// SPDX-License-Identifier: MIT
/* y = a * x + y over int32 (the compute units have no FPU); one element per thread. */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(saxpy, struct saxpy_params)
{
	uint32_t i = ppu_global_id();
	const int32_t *x = (const int32_t *)(uintptr_t)params->x;
	int32_t *y = (int32_t *)(uintptr_t)params->y;

	if (i < params->n)
		y[i] = params->a * x[i] + y[i];
}
