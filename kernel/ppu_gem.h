/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU buffer objects: shmem-backed GEM objects in system memory
 * (ppu_gem.c) and contiguous ranges of local memory (ppu_lmem.c).
 */
#ifndef __PPU_GEM_H__
#define __PPU_GEM_H__

#include <linux/mutex.h>

#include <drm/drm_gem_shmem_helper.h>

#include "ppu_quota.h"

struct drm_device;
struct drm_file;
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

struct ppu_device;

struct drm_gem_object *ppu_gem_create_object(struct drm_device *drm, size_t size);
struct drm_gem_object *ppu_lmem_create(struct ppu_device *ppu, u64 size,
				       struct ppu_client *client);
bool ppu_gem_is_local(const struct drm_gem_object *obj);
u64 ppu_gem_local_addr(const struct drm_gem_object *obj);
struct sg_table *ppu_gem_get_sgt(struct ppu_bo *bo);

int ppu_ioctl_gem_create(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_gem_mmap_offset(struct drm_device *drm, void *data,
			      struct drm_file *file);

#endif /* __PPU_GEM_H__ */
