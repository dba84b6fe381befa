// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The driver's own channel.
 *
 * The CPU cannot reach the PPU's local memory, yet a new local BO must not
 * show what an earlier owner left there.  The driver therefore keeps one
 * hardware channel (the highest id) with an address space of its own and
 * clears local ranges with the copy engine: the source is a window whose
 * every page is the same zeroed host page, the destination is local memory
 * mapped 1:1 at a fixed address.  One clear is in flight at a time; the
 * copy's completion semaphore plus its non-stall interrupt wake the caller.
 *
 * Layout of the address space (all below 4 GiB):
 *   PPU_KCHAN_BUF_VA   the control buffer in host RAM: USERD, ring,
 *                      completion semaphore, pushbuffer
 *   PPU_KCHAN_ZERO_VA  PPU_KCHAN_ZERO_SIZE bytes, every page the zero page
 *   PPU_KCHAN_LMEM_VA  local memory [0, lmem_size)
 */
#include <linux/bitmap.h>
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "uapi/drm/ppu_drm.h"
#include "ppu/ppu_encode.h"

#include "ppu_chan.h"
#include "ppu_device.h"
#include "ppu_irq.h"
#include "ppu_kchan.h"
#include "ppu_vm.h"

#define PPU_KCHAN_BUF_VA	DRM_PPU_VA_START
#define PPU_KCHAN_ZERO_VA	0x01000000ull
#define PPU_KCHAN_ZERO_SIZE	0x01000000ull	/* the largest copy command */
#define PPU_KCHAN_LMEM_VA	0x40000000ull
/* Local memory the driver maps (and so can hand out). */
#define PPU_KCHAN_LMEM_MAX	(DRM_PPU_VA_END - PPU_KCHAN_LMEM_VA)

/* Control buffer: four pages. */
#define PPU_KCHAN_USERD_OFF	0x0000
#define PPU_KCHAN_RING_OFF	0x1000
#define PPU_KCHAN_SEM_OFF	0x1800
#define PPU_KCHAN_PB_OFF	0x2000
#define PPU_KCHAN_BUF_SIZE	0x4000
#define PPU_KCHAN_PB_DWORDS	((PPU_KCHAN_BUF_SIZE - PPU_KCHAN_PB_OFF) / 4)
#define PPU_KCHAN_LOG2_ENTRIES	8

/* Bytes per submission: its copy commands fit the pushbuffer. */
#define PPU_KCHAN_PIECE		(128 * PPU_KCHAN_ZERO_SIZE)

/*
 * Wall time for a clear.  The co-simulated PPU copies about 2 MB/s on a
 * two-core machine, less when the machine is loaded; a PPU that falls
 * below 0.25 MB/s (4 ms per KiB) is taken to be stuck.
 */
#define PPU_KCHAN_TIMEOUT_MS(bytes)	(10000 + (bytes) / 256)

static_assert(PPU_GP_ENTRY_BYTES << PPU_KCHAN_LOG2_ENTRIES <=
	      PPU_KCHAN_SEM_OFF - PPU_KCHAN_RING_OFF);
/* A copy command is 11 dwords. */
static_assert(PPU_KCHAN_PIECE / PPU_KCHAN_ZERO_SIZE * 11 <= PPU_KCHAN_PB_DWORDS);

/**
 * struct ppu_kchan - the driver's channel
 * @ppu: the device
 * @vm: its address space
 * @chan: the hardware channel
 * @buf: the control buffer (USERD, ring, semaphore, pushbuffer)
 * @buf_dma: its bus address
 * @zero: one zeroed page, the source of clears
 * @zero_dma: its bus address
 * @lock: one clear at a time; protects everything below
 * @put: the next GPFIFO entry
 * @seq: the last completion value submitted
 */
struct ppu_kchan {
	struct ppu_device *ppu;
	struct ppu_vm *vm;
	struct ppu_chan *chan;
	void *buf;
	dma_addr_t buf_dma;
	void *zero;
	dma_addr_t zero_dma;
	struct mutex lock;
	u32 put;
	u32 seq;
};

static u32 *ppu_kchan_word(struct ppu_kchan *k, u32 off)
{
	return k->buf + off;
}

static void ppu_kchan_fini(void *data)
{
	struct ppu_kchan *k = data;
	struct device *dev = k->ppu->drm.dev;

	/* On remove, after the device is unplugged: nothing runs any more. */
	if (k->chan)
		ppu_chan_destroy(k->ppu, k->chan);
	ppu_vm_destroy(k->vm);
	if (k->zero)
		dma_free_coherent(dev, PAGE_SIZE, k->zero, k->zero_dma);
	if (k->buf)
		dma_free_coherent(dev, PPU_KCHAN_BUF_SIZE, k->buf, k->buf_dma);
	mutex_destroy(&k->lock);
	kfree(k);
}

static void ppu_kchan_free_dirty(struct drm_device *drm, void *bitmap)
{
	kvfree(bitmap);
}

static int ppu_kchan_map(struct ppu_kchan *k, u64 lmem_size)
{
	int ret;

	ret = ppu_vm_map_kernel(k->vm, PPU_KCHAN_BUF_VA, PPU_KCHAN_BUF_SIZE, k->buf_dma,
				true, false);
	if (!ret)
		ret = ppu_vm_map_kernel(k->vm, PPU_KCHAN_ZERO_VA, PPU_KCHAN_ZERO_SIZE,
					k->zero_dma, true, true);
	if (!ret)
		ret = ppu_vm_map_kernel(k->vm, PPU_KCHAN_LMEM_VA, lmem_size, 0, false,
					false);
	return ret;
}

/**
 * ppu_kchan_init() - set up the driver's channel and the local allocator
 * @ppu: the device, with interrupts enabled
 *
 * Without local memory there is nothing to clear and no channel is taken.
 * Local memory beyond what the driver's address space can map is not used
 * (reported in the kernel log).
 *
 * Return: 0 or a negative error code.
 */
int ppu_kchan_init(struct ppu_device *ppu)
{
	struct device *dev = ppu->drm.dev;
	struct ppu_inst_desc desc = {};
	u64 lmem = (u64)ppu->caps.local_mem_mib << 20;
	struct ppu_kchan *k;
	int ret;

	mutex_init(&ppu->lmem_lock);
	if (!lmem)
		return 0;
	if (lmem > PPU_KCHAN_LMEM_MAX) {
		drm_info(&ppu->drm, "using %llu of %llu MiB of local memory\n",
			 PPU_KCHAN_LMEM_MAX >> 20, lmem >> 20);
		lmem = PPU_KCHAN_LMEM_MAX;
	}

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->ppu = ppu;
	mutex_init(&k->lock);
	ret = devm_add_action_or_reset(dev, ppu_kchan_fini, k);
	if (ret)
		return ret;

	k->buf = dma_alloc_coherent(dev, PPU_KCHAN_BUF_SIZE, &k->buf_dma, GFP_KERNEL);
	k->zero = dma_alloc_coherent(dev, PAGE_SIZE, &k->zero_dma, GFP_KERNEL);
	if (!k->buf || !k->zero)
		return -ENOMEM;
	k->vm = ppu_vm_create(ppu);
	if (IS_ERR(k->vm)) {
		ret = PTR_ERR(k->vm);
		k->vm = NULL;
		return ret;
	}
	ret = ppu_kchan_map(k, lmem);
	if (ret)
		return ret;

	desc.gpfifo_va = PPU_KCHAN_BUF_VA + PPU_KCHAN_RING_OFF;
	desc.log2_entries = PPU_KCHAN_LOG2_ENTRIES;
	desc.userd_pa = k->buf_dma + PPU_KCHAN_USERD_OFF;
	desc.pt_root_pa = ppu_vm_pt_root(k->vm);
	desc.pt_root_sys = 1;
	desc.engine = PPU_ENGINE_TYPE_COPY;
	desc.prio_min = DRM_PPU_CHAN_PRIORITY_NORMAL;
	desc.prio_max = DRM_PPU_CHAN_PRIORITY_NORMAL;
	k->chan = ppu_chan_create(ppu, NULL, &desc, ppu->caps.num_channels - 1, NULL);
	if (IS_ERR(k->chan)) {
		ret = PTR_ERR(k->chan);
		k->chan = NULL;
		return ret;
	}

	/* (the drm device's lifetime: a BO may be freed after the unbind) */
	ppu->lmem_dirty = kvmalloc_array(BITS_TO_LONGS(lmem >> PAGE_SHIFT), sizeof(long),
					 GFP_KERNEL);
	if (!ppu->lmem_dirty)
		return -ENOMEM;
	bitmap_fill(ppu->lmem_dirty, lmem >> PAGE_SHIFT);
	ret = drmm_add_action_or_reset(&ppu->drm, ppu_kchan_free_dirty, ppu->lmem_dirty);
	if (ret)
		return ret;

	drm_mm_init(&ppu->lmem_mm, 0, lmem);
	ppu->lmem_size = lmem;
	ppu->kchan = k;
	return 0;
}

/* Completion value reached (wrapping compare), the channel died, or the device went. */
static bool ppu_kchan_done(struct ppu_kchan *k, u32 seq, u32 gen, int *err)
{
	u32 v;

	rmb();
	v = READ_ONCE(*ppu_kchan_word(k, PPU_KCHAN_SEM_OFF));
	if ((s32)(v - seq) >= 0) {
		*err = 0;
		return true;
	}
	*err = ppu_chan_check(k->ppu, ppu_chan_id(k->chan), gen);
	if (!*err && (ppu_lost(k->ppu) || drm_dev_is_unplugged(&k->ppu->drm)))
		*err = -ENODEV;
	return *err != 0;
}

/* After a fault or a timeout: a clean channel starting at entry 0. */
static void ppu_kchan_restart(struct ppu_kchan *k)
{
	if (ppu_chan_restart(k->ppu, k->chan))
		return;
	WRITE_ONCE(*ppu_kchan_word(k, PPU_KCHAN_USERD_OFF + PPU_USERD_GP_PUT), 0);
	WRITE_ONCE(*ppu_kchan_word(k, PPU_KCHAN_USERD_OFF + PPU_USERD_GP_GET), 0);
	k->put = 0;
}

/* Writes the clear of [pa, pa + size) into the pushbuffer: its dwords. */
static u32 ppu_kchan_build(struct ppu_kchan *k, u64 pa, u64 size, u32 seq)
{
	struct ppu_pb pb;

	ppu_pb_init(&pb, ppu_kchan_word(k, PPU_KCHAN_PB_OFF), PPU_KCHAN_PB_DWORDS);
	while (size) {
		u64 len = min_t(u64, size, PPU_KCHAN_ZERO_SIZE);
		bool last = len == size;

		ppu_pb_copy(&pb, PPU_KCHAN_ZERO_VA, PPU_KCHAN_LMEM_VA + pa, len,
			    last ? PPU_LAUNCH_DMA_SEMAPHORE_RELEASE :
				   PPU_LAUNCH_DMA_SEMAPHORE_NONE,
			    PPU_KCHAN_BUF_VA + PPU_KCHAN_SEM_OFF, seq, last);
		pa += len;
		size -= len;
	}
	return pb.overflow ? 0 : pb.len;
}

/*
 * One submission: at most PPU_KCHAN_PIECE bytes.  The whole of it runs
 * inside drm_dev_enter(), so remove cannot free the channel or its memory
 * under it; the wait re-checks the unplug every PPU_KCHAN_POLL_MS, so that
 * remove (which waits for this section to end) is not held up for long.
 */
#define PPU_KCHAN_POLL_MS	50

static int ppu_kchan_clear_piece(struct ppu_device *ppu, u64 pa, u64 size)
{
	struct ppu_kchan *k = ppu->kchan;
	u32 chid = ppu_chan_id(k->chan);
	unsigned long deadline;
	int ret, err = 0, idx;
	u32 ndw, gen, *gp;
	long left;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	mutex_lock(&k->lock);
	ret = -ENODEV;
	if (drm_dev_is_unplugged(&ppu->drm) || ppu_chan_gen(ppu, NULL, chid, &gen))
		goto out;
	/*
	 * Faulted since its last clear ended (an engine reset or the watchdog
	 * stopped a clear that had timed out): start clean first, so that a
	 * fault of the last clear does not fail this one too.
	 */
	if (ppu_chan_check(ppu, chid, gen)) {
		ppu_kchan_restart(k);
		ret = -EIO;
		if (ppu_chan_gen(ppu, NULL, chid, &gen) || ppu_chan_check(ppu, chid, gen))
			goto out;
	}
	k->seq++;
	ndw = ppu_kchan_build(k, pa, size, k->seq);
	if (!ndw) {
		ret = -EINVAL;
		goto out;
	}
	gp = ppu_kchan_word(k, PPU_KCHAN_RING_OFF + k->put * PPU_GP_ENTRY_BYTES);
	ppu_gp_entry(gp, PPU_KCHAN_BUF_VA + PPU_KCHAN_PB_OFF, ndw, 0);
	k->put = (k->put + 1) % (1u << PPU_KCHAN_LOG2_ENTRIES);
	/* Pushbuffer and entry reach memory before GP_PUT names them. */
	dma_wmb();
	WRITE_ONCE(*ppu_kchan_word(k, PPU_KCHAN_USERD_OFF + PPU_USERD_GP_PUT), k->put);
	wmb();
	ppu_chan_ring(ppu, chid);

	/*
	 * A killed caller stops waiting (its BO is then freed while the clear
	 * may still run): the channel runs in order, so the range's next
	 * owner is cleared after this clear has finished, never before.
	 */
	deadline = jiffies + msecs_to_jiffies(PPU_KCHAN_TIMEOUT_MS(size));
	ppu_irq_watch_get(ppu);
	for (;;) {
		left = wait_event_killable_timeout(ppu->event_wq,
						   ppu_kchan_done(k, k->seq, gen, &err),
						   msecs_to_jiffies(PPU_KCHAN_POLL_MS));
		if (left < 0) {
			ret = -EINTR;
			break;
		}
		if (left) {
			ret = err;
			break;
		}
		if (time_after(jiffies, deadline)) {
			ret = -ETIMEDOUT;
			break;
		}
	}
	ppu_irq_watch_put(ppu);
	if (ret == -EINTR)
		goto out;
	if (ret && ret != -ENODEV) {
		drm_err(&ppu->drm, "clearing local memory %#llx+%#llx failed: %d\n", pa,
			size, ret);
		ppu_kchan_restart(k);
	}
out:
	mutex_unlock(&k->lock);
	drm_dev_exit(idx);
	return ret;
}

/**
 * ppu_kchan_clear() - zero a range of local memory with the copy engine
 * @ppu: the device, with local memory
 * @pa: page-aligned local address
 * @size: page-aligned bytes, inside the managed local memory
 *
 * Sleeps until the PPU is done; large ranges go in several submissions so
 * that each fits the pushbuffer.
 *
 * Return: 0; -EIO when the channel faulted, -ETIMEDOUT, or -ENODEV.
 */
int ppu_kchan_clear(struct ppu_device *ppu, u64 pa, u64 size)
{
	while (size) {
		u64 len = min_t(u64, size, PPU_KCHAN_PIECE);
		int ret = ppu_kchan_clear_piece(ppu, pa, len);

		if (ret)
			return ret;
		pa += len;
		size -= len;
	}
	return 0;
}
