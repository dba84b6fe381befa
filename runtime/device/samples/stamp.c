// SPDX-License-Identifier: MIT
/* Each thread stores the cycle counter as its first action: launch latency. */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(stamp, struct stamp_params)
{
	uint32_t t = ppu_csr_read_volatile(PPU_CSR_CYCLE);

	((uint32_t *)(uintptr_t)params->out)[ppu_global_id()] = t;
}
