/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The channel ioctls.
 */
#ifndef __PPU_CHAN_IOCTL_H__
#define __PPU_CHAN_IOCTL_H__

struct drm_device;
struct drm_file;

int ppu_ioctl_chan_create(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_chan_destroy(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_doorbell(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_chan_status(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __PPU_CHAN_IOCTL_H__ */
