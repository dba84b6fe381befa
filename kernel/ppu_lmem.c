// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU buffer objects in device-local memory.
 *
 * A local BO is one contiguous range of the PPU's local memory, taken from
 * a drm_mm allocator over what ppu_kchan_init() mapped and cleared by the
 * copy engine before the handle is returned (local memory is never shown to
 * a new owner with old contents).  The CPU cannot map it; the PPU reaches
 * it through leaves without SYS (ppu_vm.c).  Its range is freed when the
 * last reference (handle or GPU mapping) goes.
 *
 * Only what may hold data is cleared: a page is dirty from probe (a
 * previous driver's users may have left data) until a clear, and again
 * once a BO that was ever bound into an address space is freed.  A BO
 * that was never bound can only have been written by its own clear, so
 * its range goes back still zero and the next owner gets it without a
 * copy (clears are the copy engine's largest job: zeroing 64 MiB at 8
 * bytes a cycle takes 8 M cycles).
 */
#include <linux/bitmap.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>

#include "uapi/drm/ppu_drm.h"

#include "ppu_device.h"
#include "ppu_kchan.h"
#include "ppu_lmem.h"
#include "ppu_quota.h"

/**
 * struct ppu_lbo - a buffer object in local memory
 * @base: the GEM object
 * @node: its range of local memory
 * @charge: its creator, released when it is freed
 * @bound: it was bound into an address space, so the PPU may have written
 *         it: its range is dirty again when it is freed
 */
struct ppu_lbo {
	struct drm_gem_object base;
	struct drm_mm_node node;
	struct ppu_charge charge;
	bool bound;
};

static void ppu_lbo_free(struct drm_gem_object *obj)
{
	struct ppu_lbo *lbo = container_of(obj, struct ppu_lbo, base);
	struct ppu_device *ppu = to_ppu(obj->dev);

	mutex_lock(&ppu->lmem_lock);
	if (READ_ONCE(lbo->bound))
		bitmap_set(ppu->lmem_dirty, lbo->node.start >> PAGE_SHIFT,
			   lbo->node.size >> PAGE_SHIFT);
	drm_mm_remove_node(&lbo->node);
	mutex_unlock(&ppu->lmem_lock);
	ppu_charge_release(&lbo->charge);
	drm_gem_object_release(obj);
	kfree(lbo);
}

/*
 * Local memory has no pages another device could map: refuse to export
 * (kernels whose DRM core exports every GEM object by default would
 * otherwise reach drm_gem_map_dma_buf() without get_sg_table, a WARN_ON).
 */
static struct dma_buf *ppu_lbo_export(struct drm_gem_object *obj, int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static const struct drm_gem_object_funcs ppu_lbo_funcs = {
	.free = ppu_lbo_free,
	.export = ppu_lbo_export,
};

/**
 * ppu_lmem_is_local() - is a BO in local memory?
 * @obj: the BO
 *
 * Return: true for a local BO.
 */
bool ppu_lmem_is_local(const struct drm_gem_object *obj)
{
	return obj->funcs == &ppu_lbo_funcs;
}

/**
 * ppu_lmem_addr() - where a local BO starts in local memory
 * @obj: a local BO
 *
 * Return: its page-aligned local address.
 */
u64 ppu_lmem_addr(const struct drm_gem_object *obj)
{
	return container_of(obj, struct ppu_lbo, base)->node.start;
}

/**
 * ppu_lmem_mark_bound() - a local BO is about to be bound into an address space
 * @obj: the BO
 *
 * From now on the PPU may write it: its range is cleared again before the
 * next owner gets it.
 */
void ppu_lmem_mark_bound(struct drm_gem_object *obj)
{
	WRITE_ONCE(container_of(obj, struct ppu_lbo, base)->bound, true);
}

/*
 * Zero the dirty pages of a new BO's range, a run of them per clear.  The
 * range is the BO's alone, so only the bitmap updates need the lock (its
 * words are shared with the neighbours).  A run whose clear fails stays
 * dirty.
 */
static int ppu_lmem_clear_dirty(struct ppu_device *ppu, u64 start, u64 size)
{
	unsigned long first = start >> PAGE_SHIFT, end = first + (size >> PAGE_SHIFT);
	unsigned long from = first, to;
	u64 cleared = 0;
	int ret = 0;

	while (from < end) {
		mutex_lock(&ppu->lmem_lock);
		from = find_next_bit(ppu->lmem_dirty, end, from);
		to = find_next_zero_bit(ppu->lmem_dirty, end, from);
		mutex_unlock(&ppu->lmem_lock);
		if (from >= end)
			break;
		ret = ppu_kchan_clear(ppu, (u64)from << PAGE_SHIFT, (u64)(to - from) << PAGE_SHIFT);
		if (ret)
			break;
		mutex_lock(&ppu->lmem_lock);
		bitmap_clear(ppu->lmem_dirty, from, to - from);
		mutex_unlock(&ppu->lmem_lock);
		cleared += (u64)(to - from) << PAGE_SHIFT;
		from = to;
	}
	mutex_lock(&ppu->lmem_lock);
	ppu->lmem_cleared += cleared;
	if (!ret)
		ppu->lmem_clean += size - cleared;
	mutex_unlock(&ppu->lmem_lock);
	return ret;
}

/**
 * ppu_lmem_create() - a cleared BO in local memory
 * @ppu: the device
 * @size: page-aligned size
 * @client: the creating file, charged with it
 *
 * Return: the BO (one reference) or an ERR_PTR: -ENODEV without local
 * memory, -ENOSPC when no free range is large enough, -EDQUOT when the
 * file holds all the local memory or BOs it may, -ENOMEM, or the error of
 * the clear.
 */
struct drm_gem_object *ppu_lmem_create(struct ppu_device *ppu, u64 size,
				       struct ppu_client *client)
{
	struct ppu_lbo *lbo;
	int ret;

	if (!ppu->lmem_size)
		return ERR_PTR(-ENODEV);
	if (size > ppu->lmem_size)
		return ERR_PTR(-ENOSPC);
	lbo = kzalloc(sizeof(*lbo), GFP_KERNEL_ACCOUNT);
	if (!lbo)
		return ERR_PTR(-ENOMEM);
	ret = ppu_charge_bo(ppu, &lbo->charge, client, size);
	if (ret) {
		kfree(lbo);
		return ERR_PTR(ret);
	}

	mutex_lock(&ppu->lmem_lock);
	ret = drm_mm_insert_node_generic(&ppu->lmem_mm, &lbo->node, size, PAGE_SIZE, 0,
					 DRM_MM_INSERT_BEST);
	mutex_unlock(&ppu->lmem_lock);
	if (ret) {
		ppu_charge_release(&lbo->charge);
		kfree(lbo);
		return ERR_PTR(ret);
	}
	lbo->base.funcs = &ppu_lbo_funcs;
	drm_gem_private_object_init(&ppu->drm, &lbo->base, size);

	ret = ppu_lmem_clear_dirty(ppu, lbo->node.start, size);
	if (ret) {
		/* Frees the range too. */
		drm_gem_object_put(&lbo->base);
		return ERR_PTR(ret);
	}
	return &lbo->base;
}
