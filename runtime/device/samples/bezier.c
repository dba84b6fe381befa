// SPDX-License-Identifier: MIT
/* Adaptive Bezier tessellation, one child grid per curve (samples.h, struct bezier_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(bezier_points, struct bezier_child_params)
{
	const struct bezier_line *l = (const struct bezier_line *)(uintptr_t)params->line;
	uint32_t i = ppu_global_id();

	if (i < l->npoints)
		bezier_point(l->p, i, l->npoints, (int32_t *)(uintptr_t)l->points + 2 * i);
}

PPU_KERNEL(bezier, struct bezier_params)
{
	uint32_t i = ppu_global_id();
	struct bezier_line *l = (struct bezier_line *)(uintptr_t)params->lines + i;

	if (i >= params->n)
		return;
	l->npoints = bezier_npoints(l->p);
	if (params->flat) {
		for (uint32_t k = 0; k < l->npoints; k++)
			bezier_point(l->p, k, l->npoints, (int32_t *)(uintptr_t)l->points + 2 * k);
		l->status = PPU_ECALL_STATUS_OK;
	} else {
		uint8_t *mem = (uint8_t *)(uintptr_t)(params->pool + i * BEZIER_STRIDE);
		struct bezier_child_params *cp = (struct bezier_child_params *)mem;
		ppu_dev_dim3 grid = { (l->npoints + BEZIER_CHILD_T - 1) / BEZIER_CHILD_T, 1, 1 };
		ppu_dev_dim3 cta = { BEZIER_CHILD_T, 1, 1 };

		cp->line = (uint32_t)(uintptr_t)l;
		l->status = ppu_launch(mem + 64, BEZIER_STRIDE - 64, bezier_points, grid, cta, cp, 256);
	}
}
