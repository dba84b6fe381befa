// SPDX-License-Identifier: MIT
/*
 * Every M-extension instruction on caller-chosen operands (x/0 and
 * INT_MIN/-1 included), plus a data-dependent loop and an indirect call
 * through a relocated table so that the threads of a CTA take different
 * paths.  The M operations are written as
 * instructions: in C, x/0 and INT_MIN/-1 are undefined and the compiler
 * may do anything with them.
 */
#include <ppu/ppu_device.h>
#include "samples.h"

#define RV_OP(insn)                                                                  \
	static inline uint32_t rv_##insn(uint32_t a, uint32_t b)                     \
	{                                                                            \
		uint32_t r;                                                          \
		__asm__(#insn " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));             \
		return r;                                                            \
	}
RV_OP(mul)
RV_OP(mulh)
RV_OP(mulhsu)
RV_OP(mulhu)
RV_OP(div)
RV_OP(divu)
RV_OP(rem)
RV_OP(remu)

static uint32_t op_sra(uint32_t a, uint32_t b) { return (uint32_t)((int32_t)a >> (b & 31)); }
static uint32_t op_sll(uint32_t a, uint32_t b) { return a << (b & 31); }
static uint32_t op_sdiff(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b ? a - b : b - a; }
static uint32_t op_ult(uint32_t a, uint32_t b) { return a < b ? ~a : a ^ b; }
static uint32_t op_srl(uint32_t a, uint32_t b) { return a >> (b & 31); }
static uint32_t op_mulhalf(uint32_t a, uint32_t b) { return (a & 0xffff) * (b >> 16); }

/*
 * A table of function pointers in initialised data: the loader must apply
 * its R_RISCV_RELATIVE relocations for the kernel to call the right one.
 */
static uint32_t (*const ops[6])(uint32_t, uint32_t) = {
	op_sra, op_sll, op_sdiff, op_ult, op_srl, op_mulhalf,
};

static uint32_t branchy(uint32_t a, uint32_t b)
{
	uint32_t v = a | 1, steps = 0;

	/* Collatz steps, bounded: the count differs from thread to thread. */
	while (v != 1 && steps < 100) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		steps++;
	}
	return ops[b % 6](a, b) ^ (steps << 24) ^ v;
}

PPU_KERNEL(divergent, struct divergent_params)
{
	uint32_t i = ppu_global_id();
	const uint32_t *in = (const uint32_t *)(uintptr_t)params->in;
	uint32_t *out = (uint32_t *)(uintptr_t)params->out + DIVERGENT_OUT_WORDS * i;
	uint32_t a, b;

	if (i >= params->n)
		return;
	a = in[2 * i];
	b = in[2 * i + 1];
	out[0] = rv_mul(a, b);
	out[1] = rv_mulh(a, b);
	out[2] = rv_mulhsu(a, b);
	out[3] = rv_mulhu(a, b);
	out[4] = rv_div(a, b);
	out[5] = rv_divu(a, b);
	out[6] = rv_rem(a, b);
	out[7] = rv_remu(a, b);
	out[8] = branchy(a, b);
	out[9] = (uint32_t)((int32_t)a < 0) + (a < b) * 2 + (b == 0) * 4;
}
