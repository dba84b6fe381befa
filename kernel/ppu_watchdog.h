/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The channel watchdog: user channels that make no progress for the
 * watchdog_ms module parameter are taken off the PPU.
 */
#ifndef __PPU_WATCHDOG_H__
#define __PPU_WATCHDOG_H__

struct ppu_device;

int ppu_watchdog_init(struct ppu_device *ppu);

#endif /* __PPU_WATCHDOG_H__ */
