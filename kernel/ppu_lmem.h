/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU buffer objects in device-local memory.
 */
#ifndef __PPU_LMEM_H__
#define __PPU_LMEM_H__

#include <linux/types.h>

struct drm_gem_object;
struct ppu_client;
struct ppu_device;

struct drm_gem_object *ppu_lmem_create(struct ppu_device *ppu, u64 size,
				       struct ppu_client *client);
bool ppu_lmem_is_local(const struct drm_gem_object *obj);
u64 ppu_lmem_addr(const struct drm_gem_object *obj);
void ppu_lmem_mark_bound(struct drm_gem_object *obj);

#endif /* __PPU_LMEM_H__ */
