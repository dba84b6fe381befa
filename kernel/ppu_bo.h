/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU buffer objects of either kind: their ioctls and binding them into
 * address spaces.
 */
#ifndef __PPU_BO_H__
#define __PPU_BO_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct ppu_vm;

int ppu_bo_bind(struct ppu_vm *vm, struct drm_gem_object *obj, u64 bo_offset, u64 size,
		u64 *va, bool va_alloc);

int ppu_ioctl_gem_create(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_gem_mmap_offset(struct drm_device *drm, void *data,
			      struct drm_file *file);
int ppu_ioctl_vm_bind(struct drm_device *drm, void *data, struct drm_file *file);
int ppu_ioctl_vm_unbind(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* __PPU_BO_H__ */
