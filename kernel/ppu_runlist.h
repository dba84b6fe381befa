/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The runlist the driver keeps of its channels (ppu_runlist.c).
 */
#ifndef __PPU_RUNLIST_H__
#define __PPU_RUNLIST_H__

struct ppu_device;

#include <linux/types.h>

int ppu_runlist_init(struct ppu_device *ppu);
u32 ppu_runlist_sched_ctrl(struct ppu_device *ppu);
void ppu_runlist_submit(struct ppu_device *ppu, const u8 *level, const unsigned long *listed);

#endif /* __PPU_RUNLIST_H__ */
