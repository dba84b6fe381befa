/* SPDX-License-Identifier: MIT */
/*
 * PPU hardware formats for C (kernel, runtime, harness, tests).
 *
 * Every number comes from the *.def files next to this header; the
 * SystemVerilog package hw/rtl/ppu_hw_pkg.sv is generated from the same
 * files by tools/ppu-gen-svpkg.c, so there is one definition of each format.
 *
 * Names:  PPU_<GROUP>_<NAME>            offsets, values, constants
 *         PPU_<GROUP>_<NAME>__MSB/__LSB field bit range
 */
#ifndef PPU_HW_H
#define PPU_HW_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u32 ppu_u32;
typedef u64 ppu_u64;
#else
#include <stdint.h>
typedef uint32_t ppu_u32;
typedef uint64_t ppu_u64;
#endif

#define PPU_OFFSET(g, n, v) PPU_##g##_##n = (v),
#define PPU_FIELD(g, n, hi, lo) PPU_##g##_##n##__MSB = (hi), PPU_##g##_##n##__LSB = (lo),
#define PPU_VALUE(g, n, v) PPU_##g##_##n = (v),
#define PPU_CONST(n, v) PPU_##n = (v),

enum ppu_regs_def {
#include "ppu_regs.def"
};
enum ppu_chan_def {
#include "ppu_chan.def"
};
enum ppu_methods_def {
#include "ppu_methods.def"
};
enum ppu_mmu_def {
#include "ppu_mmu.def"
};
enum ppu_trace_def {
#include "ppu_trace.def"
};
enum ppu_compute_def {
#include "ppu_compute.def"
};

#undef PPU_OFFSET
#undef PPU_FIELD
#undef PPU_VALUE
#undef PPU_CONST

/* Field helpers: f is the field's full name, e.g. PPU_MTHD_OP. */
#define PPU_FWIDTH(f) ((f##__MSB) - (f##__LSB) + 1)
#define PPU_FMASK(f) \
	((ppu_u32)((((ppu_u64)1 << PPU_FWIDTH(f)) - 1) << (f##__LSB)))
#define PPU_FSET(f, v) ((((ppu_u32)(v)) << (f##__LSB)) & PPU_FMASK(f))
#define PPU_FGET(f, x) ((((ppu_u32)(x)) & PPU_FMASK(f)) >> (f##__LSB))
#define PPU_FMAX(f) ((ppu_u32)(((ppu_u64)1 << PPU_FWIDTH(f)) - 1))

/* Per-channel status window and performance counter addresses. */
#define PPU_CHAN_REG(chid, off) (PPU_CHAN_BASE + (chid) * PPU_CHAN_STRIDE + (off))
#define PPU_PERF_LO(idx) (PPU_PERF_BASE + (idx) * 8)
#define PPU_PERF_HI(idx) (PPU_PERF_BASE + (idx) * 8 + 4)

#endif /* PPU_HW_H */
