/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Channel doorbell pages (ppu_doorbell.c).
 */
#ifndef __PPU_DOORBELL_H__
#define __PPU_DOORBELL_H__

#include <linux/types.h>

struct drm_file;
struct drm_gem_object;
struct ppu_device;

bool ppu_doorbell_supported(struct ppu_device *ppu);
struct drm_gem_object *ppu_doorbell_create(struct ppu_device *ppu, struct drm_file *file,
					   u32 chid);
void ppu_doorbell_revoke(struct ppu_device *ppu, struct drm_gem_object *obj,
			 struct drm_file *file);

#endif /* __PPU_DOORBELL_H__ */
