/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the runtime's guest tests (Check).
 */
#ifndef RT_GUEST_H
#define RT_GUEST_H

#include <check.h>

#include "ppu_runtime.h"

/* A libppu call that must succeed; the failure shows code and message. */
#define RT(call)                                                                        \
	do {                                                                            \
		ppu_status rt_st_ = (call);                                             \
		ck_assert_msg(rt_st_ == PPU_SUCCESS, "%s: %s: %s", #call,               \
			      ppu_status_name(rt_st_), ppu_last_error());               \
	} while (0)

/* A libppu call whose failure leaves through `out`, its status in the caller's `st`. */
#define RT_TRY(call)                                                                    \
	do {                                                                            \
		st = (call);                                                            \
		if (st)                                                                 \
			goto out;                                                       \
	} while (0)

/* Copies 64 bytes between two fresh host allocations on @s and checks them. */
void rt_small_copy(ppu_ctx *ctx, ppu_stream *s);
/*
 * Submits a copy on the default stream's channel without the runtime's
 * range checks (for fault tests).
 */
void rt_raw_copy_unchecked(ppu_ctx *ctx, ppu_devptr dst, ppu_devptr src, uint32_t len);

/* Loads /lib/ppu/@file.elf (the sample kernels) and finds its kernel @name. */
void rt_load_kernel(ppu_ctx *ctx, const char *file, const char *name, ppu_module **m,
		    ppu_function **fn);

#endif /* RT_GUEST_H */
