/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU interrupts.
 */
#ifndef __PPU_IRQ_H__
#define __PPU_IRQ_H__

struct ppu_device;

int ppu_irq_early_init(struct ppu_device *ppu);
int ppu_irq_init(struct ppu_device *ppu);
void ppu_irq_watch_get(struct ppu_device *ppu);
void ppu_irq_watch_put(struct ppu_device *ppu);
void ppu_irq_lost_check(struct ppu_device *ppu);
void ppu_irq_drain_events(struct ppu_device *ppu, u32 chid);
void ppu_irq_note_fault(struct ppu_device *ppu, u32 chid);

#endif /* __PPU_IRQ_H__ */
