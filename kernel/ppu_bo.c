// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU buffer objects of either kind, as clients use them: GEM_CREATE (in
 * system memory, ppu_gem.c, or local memory, ppu_lmem.c), GEM_MMAP_OFFSET,
 * and binding a BO into an address space (VM_BIND/UNBIND, ppu_bo_bind()).
 *
 * This is where the kind of a BO is known: the address space (ppu_vm.c)
 * is only given the pages or the local range to map, so that it needs
 * neither kind of BO, and local memory may use the driver's channel, which
 * lives in an address space of its own.
 */
#include <linux/err.h>
#include <linux/mm.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "uapi/drm/ppu_drm.h"

#include "ppu_bo.h"
#include "ppu_device.h"
#include "ppu_gem.h"
#include "ppu_lmem.h"
#include "ppu_quota.h"
#include "ppu_vm.h"

/**
 * ppu_bo_bind() - map a BO range of either kind into an address space
 * @vm: the address space
 * @obj: the BO; on success its reference belongs to the mapping
 * @bo_offset: page-aligned offset into the BO
 * @size: page-aligned bytes, inside the BO
 * @va: in, the address (ignored with @va_alloc); out, the address used
 * @va_alloc: choose a free address
 *
 * System-memory BOs are pinned and DMA-mapped by the first bind; local BOs
 * are one contiguous range of local memory.
 *
 * Return: 0, -ENOSPC when the range is taken or no range is free, -ENOMEM.
 */
int ppu_bo_bind(struct ppu_vm *vm, struct drm_gem_object *obj, u64 bo_offset, u64 size,
		u64 *va, bool va_alloc)
{
	struct sg_table *sgt;

	if (ppu_lmem_is_local(obj)) {
		ppu_lmem_mark_bound(obj);
		return ppu_vm_bind_obj(vm, obj, NULL, ppu_lmem_addr(obj), bo_offset, size, va,
				       va_alloc);
	}
	sgt = ppu_gem_get_sgt(to_ppu_bo(obj));
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);
	return ppu_vm_bind_obj(vm, obj, sgt, 0, bo_offset, size, va, va_alloc);
}

/**
 * ppu_ioctl_gem_create() - DRM_IOCTL_PPU_GEM_CREATE
 * @drm: the DRM device
 * @data: &struct drm_ppu_gem_create
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_gem_create(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_file *pf = file->driver_priv;
	struct drm_ppu_gem_create *args = data;
	struct drm_gem_object *obj;
	u64 size;
	u32 handle;
	int ret;

	if (args->flags & ~DRM_PPU_GEM_CREATE_FLAGS) {
		drm_dbg(drm, "GEM_CREATE: unknown flags %#x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || args->size > DRM_PPU_GEM_MAX_SIZE) {
		drm_dbg(drm, "GEM_CREATE: bad size %llu\n", args->size);
		return -EINVAL;
	}
	size = PAGE_ALIGN(args->size);

	if (args->flags & DRM_PPU_GEM_CREATE_LOCAL) {
		obj = ppu_lmem_create(to_ppu(drm), size, pf->client);
	} else {
		struct drm_gem_shmem_object *shmem = drm_gem_shmem_create(drm, size);

		obj = IS_ERR(shmem) ? ERR_CAST(shmem) : &shmem->base;
		if (!IS_ERR(obj)) {
			ret = ppu_charge_bo(to_ppu(drm), &to_ppu_bo(obj)->charge, pf->client, 0);
			if (ret) {
				drm_gem_object_put(obj);
				return ret;
			}
		}
	}
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	ret = drm_gem_handle_create(file, obj, &handle);
	/* The handle holds the only reference now (or none on failure). */
	drm_gem_object_put(obj);
	if (ret)
		return ret;
	args->size = size;
	args->handle = handle;
	return 0;
}

/**
 * ppu_ioctl_gem_mmap_offset() - DRM_IOCTL_PPU_GEM_MMAP_OFFSET
 * @drm: the DRM device
 * @data: &struct drm_ppu_gem_mmap_offset
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_gem_mmap_offset(struct drm_device *drm, void *data,
			      struct drm_file *file)
{
	struct drm_ppu_gem_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->flags) {
		drm_dbg(drm, "GEM_MMAP_OFFSET: nonzero flags\n");
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	if (ppu_lmem_is_local(obj)) {
		drm_dbg(drm, "GEM_MMAP_OFFSET: a local BO cannot be mapped\n");
		drm_gem_object_put(obj);
		return -EINVAL;
	}
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}

static struct ppu_vm *ppu_file_vm(struct drm_file *file)
{
	struct ppu_file *pf = file->driver_priv;

	return pf->vm;
}

static int ppu_bo_bind_check(struct drm_device *drm, struct drm_ppu_vm_bind *args,
			     size_t bo_size)
{
	u64 end;

	if (args->flags & ~DRM_PPU_VM_BIND_FLAGS) {
		drm_dbg(drm, "VM_BIND: unknown flags %#x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || !IS_ALIGNED(args->size, DRM_PPU_PAGE_SIZE) ||
	    !IS_ALIGNED(args->bo_offset, DRM_PPU_PAGE_SIZE) ||
	    args->bo_offset >= bo_size || args->size > bo_size - args->bo_offset) {
		drm_dbg(drm, "VM_BIND: bad BO range %#llx+%#llx (BO %zu bytes)\n",
			args->bo_offset, args->size, bo_size);
		return -EINVAL;
	}
	if (args->flags & DRM_PPU_VM_BIND_VA_ALLOC) {
		if (args->va) {
			drm_dbg(drm, "VM_BIND: VA_ALLOC with a nonzero va\n");
			return -EINVAL;
		}
		return 0;
	}
	end = args->va + args->size;
	if (!IS_ALIGNED(args->va, DRM_PPU_PAGE_SIZE) || args->va < DRM_PPU_VA_START ||
	    end < args->va || end > DRM_PPU_VA_END) {
		drm_dbg(drm, "VM_BIND: bad va %#llx+%#llx\n", args->va, args->size);
		return -EINVAL;
	}
	return 0;
}

/**
 * ppu_ioctl_vm_bind() - DRM_IOCTL_PPU_VM_BIND
 * @drm: the DRM device
 * @data: &struct drm_ppu_vm_bind
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_vm_bind(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_ppu_vm_bind *args = data;
	struct drm_gem_object *obj;
	u64 va = args->va;
	int ret;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	ret = ppu_bo_bind_check(drm, args, obj->size);
	if (!ret)
		ret = ppu_bo_bind(ppu_file_vm(file), obj, args->bo_offset, args->size, &va,
				  args->flags & DRM_PPU_VM_BIND_VA_ALLOC);
	if (ret) {
		drm_gem_object_put(obj);
		return ret;
	}
	args->va = va;
	return 0;
}

/**
 * ppu_ioctl_vm_unbind() - DRM_IOCTL_PPU_VM_UNBIND
 * @drm: the DRM device
 * @data: &struct drm_ppu_vm_unbind
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_vm_unbind(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_ppu_vm_unbind *args = data;

	if (args->flags || args->pad) {
		drm_dbg(drm, "VM_UNBIND: nonzero flags or pad\n");
		return -EINVAL;
	}
	return ppu_vm_unbind(ppu_file_vm(file), args->va, args->size);
}
