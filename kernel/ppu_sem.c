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
 * The PPU raises no interrupt per semaphore write, so a wait sleeps on its
 * file's &ppu_file.event_wq, woken by the interrupts of the file's own
 * channels (ppu_device_wake()), and re-reads the value; pushbuffers follow
 * the releases that someone waits for with NON_STALL_INTERRUPT.  A pool is
 * reached only through its file's address space, so only the file's
 * channels (and the CPU, seen by the recheck below) can release it: the
 * interrupts of other clients wake none of its waits.  A wait tied to a
 * channel also wakes when the channel faults (an interrupt) or is
 * destroyed (the channel code wakes the queue).
 *
 * An interrupt may be lost: a wait also re-reads the value every
 * PPU_SEM_RECHECK_MS, and keeps the lost-interrupt poll of ppu_irq.c
 * running (channel faults are only learnt from the interrupt handler).
 * A lost device (ppu_lost()) fails every wait with -ENODEV.
 *
 * DRM_IOCTL_PPU_SEM_FENCE turns the same condition into a dma_fence in a
 * syncobj, checked by a work item after interrupts and by polling while
 * any is pending, with a bound on how long it may stay unsignalled.
 */
#include <linux/dma-fence.h>
#include <linux/iosys-map.h>
#include <linux/jiffies.h>
#include <linux/list.h>
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
#include <drm/drm_syncobj.h>
#include <drm/drm_vma_manager.h>

#include "uapi/drm/ppu_drm.h"

#include "ppu_bo.h"
#include "ppu_chan.h"
#include "ppu_device.h"
#include "ppu_irq.h"
#include "ppu_quota.h"
#include "ppu_sem.h"
#include "ppu_vm.h"

/* Longest sleep of a SEM_WAIT between two reads of the value. */
#define PPU_SEM_RECHECK_MS	50

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

/* The file's pool @id with a reference for the caller, or NULL. */
static struct ppu_sem_pool *ppu_sem_pool_get(struct ppu_file *pf, u32 id)
{
	struct ppu_sem_pool *pool;

	mutex_lock(&pf->pools_lock);
	pool = xa_load(&pf->pools, id);
	if (pool)
		kref_get(&pool->ref);
	mutex_unlock(&pf->pools_lock);
	return pool;
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

/*
 * Unbinds the pool (unless the client unbound it already: then whatever it
 * bound there since is left alone) and drops the file's reference.
 */
static void ppu_sem_pool_remove(struct ppu_file *pf, struct ppu_sem_pool *pool)
{
	ppu_vm_unbind_obj(pf->vm, pool->va, pool->size, pool->obj);
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

	pool = kzalloc(sizeof(*pool), GFP_KERNEL_ACCOUNT);
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
	ret = ppu_bo_bind(pf->vm, pool->obj, 0, pool->size, &pool->va, true);
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
	u64 va, offset;
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
	/* a place among the file's pools first */
	mutex_lock(&pf->pools_lock);
	if (pf->npools >= ppu_quota_sem_pools()) {
		mutex_unlock(&pf->pools_lock);
		return -EDQUOT;
	}
	pf->npools++;
	mutex_unlock(&pf->pools_lock);

	pool = ppu_sem_pool_new(drm, file, args->count);
	if (IS_ERR(pool)) {
		ret = PTR_ERR(pool);
		goto err_unreserve;
	}
	/* read before the pool is published: another thread may destroy it then */
	va = pool->va;
	offset = drm_vma_node_offset_addr(&pool->obj->vma_node);

	mutex_lock(&pf->pools_lock);
	ret = xa_alloc(&pf->pools, &id, pool, xa_limit_31b, GFP_KERNEL_ACCOUNT);
	mutex_unlock(&pf->pools_lock);
	if (ret) {
		ppu_sem_pool_remove(pf, pool);
		goto err_unreserve;
	}
	args->pool = id;
	args->va = va;
	args->mmap_offset = offset;
	return 0;

err_unreserve:
	mutex_lock(&pf->pools_lock);
	pf->npools--;
	mutex_unlock(&pf->pools_lock);
	return ret;
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
	/* (ids start at 1: 0 names no pool, and erasing it would free the id) */
	if (!args->pool)
		return -ENOENT;
	mutex_lock(&pf->pools_lock);
	pool = xa_erase(&pf->pools, args->pool);
	if (pool)
		pf->npools--;
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
	if (ppu_lost(ppu) || drm_dev_is_unplugged(&ppu->drm))
		return -ENODEV;
	if ((args->flags & DRM_PPU_SEM_WAIT_CHAN) && ppu_chan_check(ppu, args->chid, gen))
		return -EIO;
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

	pool = ppu_sem_pool_get(pf, args->pool);
	if (!pool)
		return -ENOENT;
	if (args->index >= pool->count) {
		drm_dbg(drm, "SEM_WAIT: index %u outside a pool of %u\n", args->index,
			pool->count);
		ret = -EINVAL;
		goto out;
	}

	ppu_irq_watch_get(ppu);
	for (;;) {
		s64 now = ktime_get_ns();
		/* (compared first: the difference overflows for very negative deadlines) */
		s64 left = (s64)args->timeout_ns <= now ? 0 : (s64)args->timeout_ns - now;
		long jiffies_left;

		ret = ppu_sem_wait_state(ppu, pool, args, gen);
		if (ret <= 0)
			break;
		if (left <= 0) {
			ret = -ETIME;
			break;
		}
		jiffies_left = min_t(long, nsecs_to_jiffies(left) + 1,
				     msecs_to_jiffies(PPU_SEM_RECHECK_MS));
		ret = wait_event_interruptible_timeout(pf->event_wq,
						       ppu_sem_wait_state(ppu, pool, args,
									  gen) <= 0,
						       jiffies_left);
		if (ret < 0)
			break;	/* -ERESTARTSYS: the absolute deadline survives */
	}
	ppu_irq_watch_put(ppu);
out:
	ppu_sem_pool_put(pool);
	return ret;
}

/*
 * Semaphore fences.  Each one holds a pool reference until it signals.
 * Signalling happens in fence_work (process context), which runs after
 * every interrupt and re-arms itself while fences are pending, so that a
 * value written by the CPU or released without an interrupt is seen too,
 * and so that the timeout is enforced.
 *
 * Semaphores may reach their values in any order, so no two fences are
 * ordered: each has a dma_fence context of its own (the fences of one
 * context must signal in seqno order) and its own lock.  A file may have
 * max_fences_per_file pending (ppu_quota.c); the list is scanned under a
 * mutex, with interrupts on.
 */
#define PPU_SEM_FENCE_POLL_MS	5

/**
 * struct ppu_sem_fence - a fence waiting for a semaphore value
 * @base: the fence
 * @link: in &ppu_device.fences while unsignalled
 * @pool: the pool (a reference, dropped when signalled)
 * @args: the condition (pool id unused)
 * @gen: the channel's generation with DRM_PPU_SEM_WAIT_CHAN
 * @deadline: jiffies after which it signals -ETIMEDOUT
 * @lock: the dma_fence's lock
 * @client: the creating file's charges (a reference; one pending fence)
 */
struct ppu_sem_fence {
	struct dma_fence base;
	spinlock_t lock;
	struct ppu_client *client;
	struct list_head link;
	struct ppu_sem_pool *pool;
	struct drm_ppu_sem_wait args;
	u32 gen;
	unsigned long deadline;
};

static const char *ppu_sem_fence_driver_name(struct dma_fence *f)
{
	return "ppu";
}

static const char *ppu_sem_fence_timeline_name(struct dma_fence *f)
{
	return "semaphore";
}

static const struct dma_fence_ops ppu_sem_fence_ops = {
	.get_driver_name = ppu_sem_fence_driver_name,
	.get_timeline_name = ppu_sem_fence_timeline_name,
};

/* Signals every fence whose state is final; re-arms while some are left. */
static void ppu_sem_fence_work(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(to_delayed_work(work), struct ppu_device,
					      fence_work);
	struct ppu_sem_fence *f, *next;
	LIST_HEAD(done);
	bool pending;

	mutex_lock(&ppu->fence_lock);
	list_for_each_entry_safe(f, next, &ppu->fences, link) {
		int state = ppu_sem_wait_state(ppu, f->pool, &f->args, f->gen);

		if (state > 0 && time_after(jiffies, f->deadline))
			state = -ETIMEDOUT;
		if (state > 0)
			continue;
		if (state < 0)
			dma_fence_set_error(&f->base, state);
		dma_fence_signal(&f->base);
		list_move_tail(&f->link, &done);
	}
	pending = !list_empty(&ppu->fences);
	mutex_unlock(&ppu->fence_lock);

	list_for_each_entry_safe(f, next, &done, link) {
		list_del(&f->link);
		ppu_irq_watch_put(ppu);
		ppu_sem_pool_put(f->pool);
		ppu_quota_fence_end(f->client);
		ppu_client_put(f->client);
		dma_fence_put(&f->base);
	}
	if (pending)
		schedule_delayed_work(&ppu->fence_work,
				      msecs_to_jiffies(PPU_SEM_FENCE_POLL_MS));
}

/* devres action at remove: the device is unplugged, nothing will signal. */
static void ppu_sem_fence_fini(void *data)
{
	struct ppu_device *ppu = data;

	/* Unplugged: every pending fence reads -ENODEV now. */
	mod_delayed_work(system_wq, &ppu->fence_work, 0);
	flush_delayed_work(&ppu->fence_work);
	cancel_delayed_work_sync(&ppu->fence_work);
	WARN_ON(!list_empty(&ppu->fences));
}

/**
 * ppu_sem_init() - semaphore fence state of a new device
 * @ppu: the device, before interrupts are enabled
 *
 * Return: 0 or a negative error code.
 */
int ppu_sem_init(struct ppu_device *ppu)
{
	mutex_init(&ppu->fence_lock);
	INIT_LIST_HEAD(&ppu->fences);
	INIT_DELAYED_WORK(&ppu->fence_work, ppu_sem_fence_work);
	return devm_add_action_or_reset(ppu->drm.dev, ppu_sem_fence_fini, ppu);
}

/**
 * ppu_ioctl_sem_fence() - DRM_IOCTL_PPU_SEM_FENCE
 * @drm: the DRM device
 * @data: &struct drm_ppu_sem_fence
 * @file: the caller's file
 *
 * Return: 0 or a negative error code.
 */
int ppu_ioctl_sem_fence(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct ppu_device *ppu = to_ppu(drm);
	struct drm_ppu_sem_fence *args = data;
	struct ppu_file *pf = file->driver_priv;
	struct drm_syncobj *syncobj;
	struct ppu_sem_fence *f;
	int ret, idx;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	spin_lock_init(&f->lock);
	f->args.index = args->index;
	f->args.value = args->value;
	f->args.cond = args->cond;
	f->args.flags = args->flags;
	f->args.chid = args->chid;
	ret = args->pad ? -EINVAL : ppu_sem_wait_check(drm, &f->args);
	if (ret)
		goto err_free;
	if (args->flags & DRM_PPU_SEM_WAIT_CHAN) {
		ret = ppu_chan_gen(ppu, file, args->chid, &f->gen);
		if (ret)
			goto err_free;
	}
	syncobj = drm_syncobj_find(file, args->syncobj);
	if (!syncobj) {
		ret = -ENOENT;
		goto err_free;
	}

	f->pool = ppu_sem_pool_get(pf, args->pool);
	if (!f->pool) {
		ret = -ENOENT;
		goto err_syncobj;
	}
	if (args->index >= f->pool->count) {
		ret = -EINVAL;
		goto err_pool;
	}
	ret = ppu_quota_fence_begin(pf->client);
	if (ret)
		goto err_pool;
	if (!drm_dev_enter(drm, &idx)) {
		ppu_quota_fence_end(pf->client);
		ret = -ENODEV;
		goto err_pool;
	}
	kref_get(&pf->client->ref);
	f->client = pf->client;

	f->deadline = jiffies + msecs_to_jiffies(DRM_PPU_SEM_FENCE_TIMEOUT_MS);
	dma_fence_init(&f->base, &ppu_sem_fence_ops, &f->lock, dma_fence_context_alloc(1), 1);
	/* One reference for the list, one for the syncobj below. */
	dma_fence_get(&f->base);
	ppu_irq_watch_get(ppu);
	mutex_lock(&ppu->fence_lock);
	list_add_tail(&f->link, &ppu->fences);
	mutex_unlock(&ppu->fence_lock);
	mod_delayed_work(system_wq, &ppu->fence_work, 0);
	drm_dev_exit(idx);

	drm_syncobj_replace_fence(syncobj, &f->base);
	dma_fence_put(&f->base);
	drm_syncobj_put(syncobj);
	return 0;

err_pool:
	ppu_sem_pool_put(f->pool);
err_syncobj:
	drm_syncobj_put(syncobj);
err_free:
	kfree(f);
	return ret;
}
