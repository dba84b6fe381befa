/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU channels: hardware channel ids, instance blocks, USERD pages.
 */
#ifndef __PPU_CHAN_H__
#define __PPU_CHAN_H__

struct drm_device;
struct drm_file;
struct ppu_device;

void ppu_chan_init(struct ppu_device *ppu);
void ppu_chan_file_close(struct ppu_device *ppu, struct drm_file *file);

int ppu_ioctl_chan_create(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_chan_destroy(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_doorbell(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_chan_status(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __PPU_CHAN_H__ */
