// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU buffer objects in system memory.
 *
 * Every BO is a shmem GEM object: pages are allocated on first use (a CPU
 * fault through the mmap offset, or a VM bind), CPU-mappable write-back,
 * and reached by the PPU through the system aperture.  A bind pins the
 * pages and DMA-maps them once (drm_gem_shmem_get_pages_sgt()); they stay
 * pinned until the BO is freed, which happens only after its last handle
 * and its last GPU mapping are gone.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "ppu_device.h"
#include "ppu_gem.h"

static void ppu_gem_free(struct drm_gem_object *obj)
{
	struct ppu_bo *bo = to_ppu_bo(obj);

	mutex_destroy(&bo->sgt_lock);
	ppu_charge_release(&bo->charge);
	/* Unmaps and frees the sg table, puts the pages, frees @bo. */
	drm_gem_shmem_free(&bo->base);
}

static const struct drm_gem_object_funcs ppu_gem_funcs = {
	.free = ppu_gem_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * ppu_gem_create_object() - &drm_driver.gem_create_object
 * @drm: the DRM device
 * @size: the object's size
 *
 * Return: the embedded GEM object of a new &struct ppu_bo, or an ERR_PTR.
 */
struct drm_gem_object *ppu_gem_create_object(struct drm_device *drm, size_t size)
{
	struct ppu_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	mutex_init(&bo->sgt_lock);
	bo->base.base.funcs = &ppu_gem_funcs;
	/* Host RAM, cache-coherent DMA: the CPU maps it write-back. */
	bo->base.map_wc = false;
	return &bo->base.base;
}

/**
 * ppu_gem_get_sgt() - pin a BO's pages and DMA-map them for the PPU
 * @bo: the buffer object
 *
 * The first call allocates and pins the pages and maps them, charging the
 * pin to the calling process (ppu_charge_pin()); later calls return the
 * same table.  It is released when the BO is freed.
 *
 * Return: the DMA-mapped sg table or an ERR_PTR: -ENOMEM also when the pin
 * would exceed the caller's RLIMIT_MEMLOCK.
 */
struct sg_table *ppu_gem_get_sgt(struct ppu_bo *bo)
{
	struct sg_table *sgt;
	bool first;
	int ret;

	mutex_lock(&bo->sgt_lock);
	first = !bo->base.sgt;
	if (first) {
		ret = ppu_charge_pin(&bo->charge, bo->base.base.size >> PAGE_SHIFT);
		if (ret) {
			mutex_unlock(&bo->sgt_lock);
			return ERR_PTR(ret);
		}
	}
	sgt = drm_gem_shmem_get_pages_sgt(&bo->base);
	if (first && IS_ERR(sgt))
		ppu_charge_unpin(&bo->charge);
	mutex_unlock(&bo->sgt_lock);
	return sgt;
}
