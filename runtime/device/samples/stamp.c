// SPDX-License-Identifier: MIT
/* Launch latency: each thread stores the cycle counter it started at. */
#include <ppu/ppu_device.h>
#include "samples.h"

/* The counter as the body's first action, after the PPU_KERNEL entry. */
PPU_KERNEL(stamp, struct stamp_params)
{
	uint32_t t = ppu_csr_read_volatile(PPU_CSR_CYCLE);

	((uint32_t *)(uintptr_t)params->out)[ppu_global_id()] = t;
}

static void stamp_entry__body(struct stamp_params *params, uint32_t t) __attribute__((used));

/*
 * The counter as the kernel's very first instruction (the PPU_KERNEL entry
 * with one csrr in front, into a1 over the thread index the body does not
 * need): what "doorbell to first kernel instruction" means.
 */
__attribute__((naked, used, aligned(4))) void stamp_entry(void)
{
	__asm__ volatile("csrr a1, %0\n\t"
			 ".option push\n\t"
			 ".option norelax\n\t"
			 "lla gp, __global_pointer$\n\t"
			 ".option pop\n\t"
			 "call stamp_entry__body\n\t"
			 "li a7, %1\n\t"
			 "ecall\n\t"
			 :
			 : "i"(PPU_CSR_CYCLE), "i"(PPU_ECALL_OP_EXIT));
}

static void stamp_entry__body(struct stamp_params *params, uint32_t t)
{
	((uint32_t *)(uintptr_t)params->out)[ppu_global_id()] = t;
}

/*
 * Device launch latency: the cycle counter just before the LAUNCH ecall of
 * the child TMD at params->tmd goes to out[0] (a stamp_entry child stamps
 * its first instruction wherever its own parameters say).
 */
PPU_KERNEL(stamp_launch, struct stamp_launch_params)
{
	const void *tmd = (const void *)(uintptr_t)params->tmd;
	uint32_t t, st;

	/* the parameter load before the counter read, not between it and the ecall */
	__asm__ volatile("" : : "r"(tmd));
	t = ppu_csr_read_volatile(PPU_CSR_CYCLE);
	st = ppu_launch_tmd(tmd);

	((uint32_t *)(uintptr_t)params->out)[0] = t;
	((uint32_t *)(uintptr_t)params->out)[1] = st;
}
