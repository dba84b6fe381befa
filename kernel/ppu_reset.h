/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Engine recovery: resetting an engine that does not finish its work
 * (ENGINE_CTRL, CAP_FEATURES.ENGINE_RESET and COMPUTE_RESET).
 */
#ifndef __PPU_RESET_H__
#define __PPU_RESET_H__

#include <linux/types.h>

#include "ppu_device.h"

struct seq_file;

void ppu_reset_init(struct ppu_device *ppu);
bool ppu_reset_supported(struct ppu_device *ppu, enum ppu_engine eng);
int ppu_reset_engine(struct ppu_device *ppu, enum ppu_engine eng, u32 chid, pid_t pid);
int ppu_reset_halt_get(struct ppu_device *ppu, enum ppu_engine eng, u64 *val);
int ppu_reset_halt_set(struct ppu_device *ppu, enum ppu_engine eng, u64 val);
void ppu_reset_debugfs_show(struct ppu_device *ppu, struct seq_file *m);

#endif /* __PPU_RESET_H__ */
