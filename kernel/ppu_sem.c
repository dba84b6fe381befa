// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU semaphore pools and waits.
 *
 * A pool is a system-memory BO owned by the driver: bound read-write in the
 * file's GPU address space, mappable by its file only, and mapped into the
 * kernel (vmap) so that a wait can read the values.  Pools are per file, by
 * id, in &ppu_file.pools; a pool is reference counted because a wait keeps
 * using its kernel mapping after dropping the file's lock.
 *
 * The PPU raises no interrupt per semaphore write, so a wait sleeps on
 * &ppu_device.event_wq, woken after every interrupt, and re-reads the
 * value; pushbuffers follow the releases that someone waits for with
 * NON_STALL_INTERRUPT.  A wait tied to a channel also wakes when the
 * channel faults (an interrupt) or is destroyed (the channel code wakes the
 * queue).
 */
#include <linux/iosys-map.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "uapi/drm/ppu_drm.h"

#include "ppu_chan.h"
#include "ppu_device.h"
#include "ppu_sem.h"
#include "ppu_vm.h"

/* The value is dword 0 of a semaphore; the release timestamp is at 8. */
static_assert(DRM_PPU_SEM_BYTES == 16);

/**
 * struct ppu_sem_pool - a semaphore pool
 * @ref: the file's reference plus one per wait in progress
 * @obj: the BO (a reference)
 * @map: its kernel mapping
 * @file: the owning file, for revoking its mmap permission
 * @count: semaphores in the pool
 * @va: GPU address of the binding in the file's address space
 * @size: bytes bound (the BO's size)
 */
struct ppu_sem_pool {
	struct kref ref;
	struct drm_gem_object *obj;
	struct iosys_map map;
	struct drm_file *file;
	u32 count;
	u64 va;
	u64 size;
};

static void ppu_sem_pool_release(struct kref *ref)
{
	struct ppu_sem_pool *pool = container_of(ref, struct ppu_sem_pool, ref);

	drm_gem_shmem_vunmap(to_drm_gem_shmem_obj(pool->obj), &pool->map);
	drm_gem_object_put(pool->obj);
	kfree(pool);
}

static void ppu_sem_pool_put(struct ppu_sem_pool *pool)
{
	kref_put(&pool->ref, ppu_sem_pool_release);
}

/**
 * ppu_sem_file_init() - semaphore state of a new file
 * @pf: the file's state
 */
void ppu_sem_file_init(struct ppu_file *pf)
{
	mutex_init(&pf->pools_lock);
	xa_init_flags(&pf->pools, XA_FLAGS_ALLOC1);
}

/* Unbinds the pool and drops the file's reference. */
static void ppu_sem_pool_remove(struct ppu_file *pf, struct ppu_sem_pool *pool)
{
	ppu_vm_unbind(pf->vm, pool->va, pool->size);
	drm_vma_node_revoke(&pool->obj->vma_node, pool->file);
	ppu_sem_pool_put(pool);
}

/**
 * ppu_sem_file_close() - destroy every pool of a file
 * @pf: the file's state; its channels are gone, its address space not yet
 */
void ppu_sem_file_close(struct ppu_file *pf)
{
	struct ppu_sem_pool *pool;
	unsigned long id;

	xa_for_each(&pf->pools, id, pool)
		ppu_sem_pool_remove(pf, pool);
	xa_destroy(&pf->pools);
	mutex_destroy(&pf->pools_lock);
}

static struct ppu_sem_pool *ppu_sem_pool_new(struct drm_device *drm, struct drm_file *file,
					     u32 count)
{
	struct ppu_file *pf = file->driver_priv;
	struct drm_gem_shmem_object *shmem;
	struct ppu_sem_pool *pool;
	int ret;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);
	kref_init(&pool->ref);
	pool->file = file;
	pool->count = count;
	pool->size = PAGE_ALIGN((u64)count * DRM_PPU_SEM_BYTES);

	shmem = drm_gem_shmem_create(drm, pool->size);
	if (IS_ERR(shmem)) {
		kfree(pool);
		return ERR_CAST(shmem);
	}
	pool->obj = &shmem->base;
	ret = drm_gem_shmem_vmap(shmem, &pool->map);
	if (ret)
		goto err_put;
	/* New shmem pages are zeroed: every semaphore starts at 0. */
	ret = drm_gem_create_mmap_offset(pool->obj);
	if (ret)
		goto err_vunmap;
	ret = drm_vma_node_allow(&pool->obj->vma_node, file);
	if (ret)
		goto err_vunmap;
	/* The binding holds its own BO reference. */
	drm_gem_object_get(pool->obj);
	ret = ppu_vm_bind_obj(pf->vm, pool->obj, 0, pool->size, &pool->va, true);
	if (ret) {
		drm_gem_object_put(pool->obj);
		drm_vma_node_revoke(&pool->obj->vma_node, file);
		goto err_vunmap;
	}
	return pool;

err_vunmap:
	drm_gem_shmem_vunmap(shmem, &pool->map);
err_put:
	drm_gem_object_put(pool->obj);
	kfree(pool);
	return ERR_PTR(ret);
}

/**
 * ppu_ioctl_sem_pool_create() - DRM_IOCTL_PPU_SEM_POOL_CREATE
 * @drm: the DRM device
 * @data: &struct drm_ppu_sem_pool_create
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_sem_pool_create(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_ppu_sem_pool_create *args = data;
	struct ppu_file *pf = file->driver_priv;
	struct ppu_sem_pool *pool;
	u32 id;
	int ret;

	if (args->flags || args->pad || args->va || args->mmap_offset || args->pool) {
		drm_dbg(drm, "SEM_POOL_CREATE: nonzero flags, pad or output field\n");
		return -EINVAL;
	}
	if (!args->count || args->count > DRM_PPU_SEM_POOL_MAX_COUNT) {
		drm_dbg(drm, "SEM_POOL_CREATE: bad count %u\n", args->count);
		return -EINVAL;
	}
	pool = ppu_sem_pool_new(drm, file, args->count);
	if (IS_ERR(pool))
		return PTR_ERR(pool);

	mutex_lock(&pf->pools_lock);
	ret = xa_alloc(&pf->pools, &id, pool, xa_limit_31b, GFP_KERNEL);
	mutex_unlock(&pf->pools_lock);
	if (ret) {
		ppu_sem_pool_remove(pf, pool);
		return ret;
	}
	args->pool = id;
	args->va = pool->va;
	args->mmap_offset = drm_vma_node_offset_addr(&pool->obj->vma_node);
	return 0;
}

/**
 * ppu_ioctl_sem_pool_destroy() - DRM_IOCTL_PPU_SEM_POOL_DESTROY
 * @drm: the DRM device
 * @data: &struct drm_ppu_sem_pool_destroy
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_sem_pool_destroy(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_ppu_sem_pool_destroy *args = data;
	struct ppu_file *pf = file->driver_priv;
	struct ppu_sem_pool *pool;

	if (args->pad) {
		drm_dbg(drm, "SEM_POOL_DESTROY: nonzero pad\n");
		return -EINVAL;
	}
	mutex_lock(&pf->pools_lock);
	pool = xa_erase(&pf->pools, args->pool);
	mutex_unlock(&pf->pools_lock);
	if (!pool)
		return -ENOENT;
	ppu_sem_pool_remove(pf, pool);
	return 0;
}

static bool ppu_sem_satisfied(u32 value, u32 want, u32 cond)
{
	if (cond == DRM_PPU_SEM_WAIT_EQ)
		return value == want;
	return (s32)(value - want) >= 0;
}

/*
 * 0 when the semaphore satisfies the wait, -EIO when the channel is dead,
 * -ENODEV when the device is gone, 1 to keep waiting.
 */
static int ppu_sem_wait_state(struct ppu_device *ppu, struct ppu_sem_pool *pool,
			      const struct drm_ppu_sem_wait *args, u32 gen)
{
	u32 value;

	/* Read after the interrupt that woke us: the PPU wrote it before. */
	rmb();
	value = READ_ONCE(*(u32 *)(pool->map.vaddr +
				   (size_t)args->index * DRM_PPU_SEM_BYTES));
	if (ppu_sem_satisfied(value, args->value, args->cond))
		return 0;
	if ((args->flags & DRM_PPU_SEM_WAIT_CHAN) && ppu_chan_check(ppu, args->chid, gen))
		return -EIO;
	if (drm_dev_is_unplugged(&ppu->drm))
		return -ENODEV;
	return 1;
}

static int ppu_sem_wait_check(struct drm_device *drm, const struct drm_ppu_sem_wait *args)
{
	if (args->flags & ~DRM_PPU_SEM_WAIT_FLAGS) {
		drm_dbg(drm, "SEM_WAIT: unknown flags %#x\n", args->flags);
		return -EINVAL;
	}
	if (args->cond != DRM_PPU_SEM_WAIT_GEQ && args->cond != DRM_PPU_SEM_WAIT_EQ) {
		drm_dbg(drm, "SEM_WAIT: unknown condition %u\n", args->cond);
		return -EINVAL;
	}
	if (!(args->flags & DRM_PPU_SEM_WAIT_CHAN) && args->chid) {
		drm_dbg(drm, "SEM_WAIT: chid without DRM_PPU_SEM_WAIT_CHAN\n");
		return -EINVAL;
	}
	return 0;
}

/**
 * ppu_ioctl_sem_wait() - DRM_IOCTL_PPU_SEM_WAIT
 * @drm: the DRM device
 * @data: &struct drm_ppu_sem_wait
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_sem_wait(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	struct drm_ppu_sem_wait *args = data;
	struct ppu_file *pf = file->driver_priv;
	struct ppu_sem_pool *pool;
	u32 gen = 0;
	int ret;

	ret = ppu_sem_wait_check(drm, args);
	if (ret)
		return ret;
	if (args->flags & DRM_PPU_SEM_WAIT_CHAN) {
		ret = ppu_chan_gen(ppu, file, args->chid, &gen);
		if (ret)
			return ret;
	}

	mutex_lock(&pf->pools_lock);
	pool = xa_load(&pf->pools, args->pool);
	if (pool)
		kref_get(&pool->ref);
	mutex_unlock(&pf->pools_lock);
	if (!pool)
		return -ENOENT;
	if (args->index >= pool->count) {
		drm_dbg(drm, "SEM_WAIT: index %u outside a pool of %u\n", args->index,
			pool->count);
		ret = -EINVAL;
		goto out;
	}

	for (;;) {
		s64 left = args->timeout_ns - ktime_get_ns();
		long jiffies_left;

		ret = ppu_sem_wait_state(ppu, pool, args, gen);
		if (ret <= 0)
			break;
		if (left <= 0) {
			ret = -ETIME;
			break;
		}
		jiffies_left = nsecs_to_jiffies(left) + 1;
		ret = wait_event_interruptible_timeout(ppu->event_wq,
						       ppu_sem_wait_state(ppu, pool, args,
									  gen) <= 0,
						       jiffies_left);
		if (ret < 0)
			break;	/* -ERESTARTSYS: the absolute deadline survives */
	}
out:
	ppu_sem_pool_put(pool);
	return ret;
}
