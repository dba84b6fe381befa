/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU channels: hardware channel ids, instance blocks, USERD pages.
 */
#ifndef __PPU_CHAN_H__
#define __PPU_CHAN_H__

#include <linux/types.h>

struct drm_file;
struct drm_ppu_chan_create;
struct drm_ppu_chan_status;
struct ppu_chan;
struct seq_file;
struct ppu_device;
struct ppu_inst_desc;

void ppu_chan_init(struct ppu_device *ppu);
int ppu_chan_fault_init(struct ppu_device *ppu);
void ppu_chan_file_close(struct ppu_device *ppu, struct drm_file *file);

struct ppu_chan *ppu_chan_create(struct ppu_device *ppu, struct drm_file *file,
				 struct ppu_inst_desc *d, u32 chid,
				 struct drm_ppu_chan_create *out);
int ppu_chan_destroy(struct ppu_device *ppu, struct ppu_chan *chan);
int ppu_chan_destroy_id(struct ppu_device *ppu, struct drm_file *file, u32 chid);
int ppu_chan_doorbell(struct ppu_device *ppu, struct drm_file *file, u32 chid);
int ppu_chan_status(struct ppu_device *ppu, struct drm_file *file,
		    struct drm_ppu_chan_status *args);
int ppu_chan_restart(struct ppu_device *ppu, struct ppu_chan *chan);
u32 ppu_chan_id(const struct ppu_chan *chan);
void ppu_chan_ring(struct ppu_device *ppu, u32 chid);
int ppu_chan_gen(struct ppu_device *ppu, struct drm_file *file, u32 chid, u32 *gen);
int ppu_chan_check(struct ppu_device *ppu, u32 chid, u32 gen);
void ppu_chan_debugfs_show(struct ppu_device *ppu, struct seq_file *m);
unsigned int ppu_chan_watchdog(struct ppu_device *ppu, unsigned int ms);

#endif /* __PPU_CHAN_H__ */
