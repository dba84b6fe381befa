/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The driver's own channel: clears device-local memory.
 */
#ifndef __PPU_KCHAN_H__
#define __PPU_KCHAN_H__

#include <linux/types.h>

struct ppu_device;

int ppu_kchan_init(struct ppu_device *ppu);
int ppu_kchan_clear(struct ppu_device *ppu, u64 pa, u64 size);

#endif /* __PPU_KCHAN_H__ */
