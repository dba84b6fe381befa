// SPDX-License-Identifier: MIT
/*
 * Globals a host program finds by name (ppu_module_get_global): a table of
 * pointers into the image, which the loader relocates, and a counter.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

static const uint32_t squares[LOOKUP_ENTRIES] = { 0, 1, 4, 9, 16, 25, 36, 49 };
static const uint32_t cubes[LOOKUP_ENTRIES] = { 0, 1, 8, 27, 64, 125, 216, 343 };

const uint32_t *const lookup_tables[2] = { squares, cubes };
uint32_t lookup_calls;

PPU_KERNEL(lookup, struct lookup_params)
{
	uint32_t i = ppu_global_id();

	if (i < params->n)
		((uint32_t *)(uintptr_t)params->out)[i] =
			lookup_tables[params->which & 1][i % LOOKUP_ENTRIES];
	ppu_atomic_add(&lookup_calls, 1);
}
