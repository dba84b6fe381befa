// SPDX-License-Identifier: MIT
/* SEEDS §D's divergent phase in both styles (samples.h, struct diverge_params). */
#include <ppu/ppu_device.h>
#include "samples.h"

static void entry(uint32_t *foo, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ppu_atomic_add(foo, 1);
}

/* entry() as a kernel: each of its threads adds n */
PPU_KERNEL(diverge_entry, struct diverge_entry_params)
{
	entry((uint32_t *)(uintptr_t)params->foo, params->n);
}

PPU_KERNEL(diverge_cta, struct diverge_params)
{
	uint32_t t = ppu_tid(), cta = ppu_ctaid();
	uint32_t *foo = (uint32_t *)(uintptr_t)params->foo;
	uint32_t *x = (uint32_t *)(uintptr_t)params->x + cta;

	if (t % params->spacing)
		return;
	if (!params->dp) {
		entry(foo, params->n);
	} else if (t == 0) {
		uint8_t *mem = (uint8_t *)(uintptr_t)(params->pool + cta * DIVERGE_POOL_STRIDE);
		struct diverge_entry_params *ep = (struct diverge_entry_params *)mem;
		ppu_dev_dim3 grid = { 1, 1, 1 }, threads = { params->m, 1, 1 };

		ep->foo = params->foo;
		ep->n = params->n;
		if (ppu_launch(mem + 64, DIVERGE_POOL_STRIDE - 64, diverge_entry, grid, threads, ep, 256))
			ppu_trap(0xd1);
	}
	if (t == 0) {
		*x = 5;
		return;
	}
	ppu_barrier();
	ppu_atomic_add(foo, *(volatile uint32_t *)x);
}
