/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU buffer objects in system memory: shmem-backed GEM objects.
 */
#ifndef __PPU_GEM_H__
#define __PPU_GEM_H__

#include <linux/mutex.h>

#include <drm/drm_gem_shmem_helper.h>

#include "ppu_quota.h"

struct drm_device;
struct sg_table;

/**
 * struct ppu_bo - a buffer object in system memory
 * @base: the shmem GEM object
 * @charge: its creator and the pin, released when it is freed
 */
struct ppu_bo {
	struct drm_gem_shmem_object base;
	struct ppu_charge charge;
	/**
	 * @sgt_lock: serialises the first creation of the DMA-mapped sg
	 * table (drm_gem_shmem_get_pages_sgt() does not on 6.1).
	 */
	struct mutex sgt_lock;
};

static inline struct ppu_bo *to_ppu_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct ppu_bo, base);
}

struct drm_gem_object *ppu_gem_create_object(struct drm_device *drm, size_t size);
struct sg_table *ppu_gem_get_sgt(struct ppu_bo *bo);

#endif /* __PPU_GEM_H__ */
