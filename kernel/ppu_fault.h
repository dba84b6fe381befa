/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU channel faults: reported by the interrupt handler, logged here.
 */
#ifndef __PPU_FAULT_H__
#define __PPU_FAULT_H__

#include <linux/types.h>

struct ppu_device;
struct seq_file;

struct ppu_fault_rec;

void ppu_fault_init(struct ppu_device *ppu);
void ppu_fault_log(struct ppu_device *ppu, const struct ppu_fault_rec *r);
void ppu_fault_debugfs_show(struct ppu_device *ppu, struct seq_file *m);
const char *ppu_fault_unit_name(u32 info);
const char *ppu_fault_kind_name(u32 info);

#endif /* __PPU_FAULT_H__ */
