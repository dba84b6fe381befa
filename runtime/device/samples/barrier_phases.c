// SPDX-License-Identifier: MIT
/*
 * Threads of a CTA exchange values through memory across barriers; some
 * exit at once and half of the others part-way, which must shrink the
 * barrier count instead of hanging it (samples.h describes the exchange).
 */
#include <ppu/ppu_device.h>
#include "samples.h"

PPU_KERNEL(barrier_phases, struct barrier_params)
{
	uint32_t tid = ppu_tid(), nt = ppu_ntid(), cta = ppu_ctaid();
	uint32_t active = params->active;
	uint32_t *buf = (uint32_t *)(uintptr_t)params->buf + cta * 2 * nt;
	uint32_t *out = (uint32_t *)(uintptr_t)params->out + cta * nt;
	uint32_t r;

	if (tid >= active)
		ppu_exit();
	buf[tid] = params->seed + tid * 7u;
	ppu_barrier();
	for (r = 0; r < params->rounds; r++) {
		const uint32_t *src = buf + (r & 1) * nt;

		if ((tid & 1) && r == params->exit_round)
			break;
		buf[((r + 1) & 1) * nt + tid] = barrier_mix(src, tid, active, r);
		ppu_barrier();
	}
	out[tid] = buf[(r & 1) * nt + tid];
}
