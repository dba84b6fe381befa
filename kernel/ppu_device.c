// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU hardware bring-up: BAR0, identity and capability registers, the
 * channel table, and leaving the hardware quiet on the way out.
 */
#include <linux/bits.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "uapi/drm/ppu_drm.h"
#include "ppu/ppu_encode.h"
#include "ppu_device.h"

/* Physical addresses the PPU can hold: 32 bits plus ADDR_HI.ADDR (33:32). */
#define PPU_DMA_BITS	(32 + PPU_FWIDTH(PPU_ADDR_HI_ADDR))

/* The channel table base register keeps bits 31:6. */
#define PPU_CHAN_TABLE_ALIGN	64

/**
 * ppu_read64() - read a 64-bit counter kept in two registers
 * @ppu: the device
 * @reg_lo: register with bits 31:0
 * @reg_hi: register with bits 63:32
 *
 * HI, LO, HI: if the high half moved, the low half wrapped in between and is
 * read once more (it cannot wrap again within a few register accesses).
 * The caller holds drm_dev_enter() or is in probe/remove.
 *
 * Return: the 64-bit value.
 */
u64 ppu_read64(struct ppu_device *ppu, u32 reg_lo, u32 reg_hi)
{
	u32 hi = ppu_read(ppu, reg_hi);
	u32 lo = ppu_read(ppu, reg_lo);
	u32 hi2 = ppu_read(ppu, reg_hi);

	if (hi2 != hi) {
		lo = ppu_read(ppu, reg_lo);
		hi = hi2;
	}
	return ((u64)hi << 32) | lo;
}

/**
 * ppu_device_check_lost() - a register read returned all ones: is the PPU gone?
 * @ppu: the device
 * @reg: the register that read all ones
 *
 * Some registers may hold all ones; ID never does.  If ID reads all ones
 * too, the PPU is marked lost and the lost worker is queued.  Any context
 * (the interrupt handler reads registers too).
 */
void ppu_device_check_lost(struct ppu_device *ppu, u32 reg)
{
	if (reg != PPU_REG_ID && readl(ppu->regs + PPU_REG_ID) != U32_MAX)
		return;
	if (test_and_set_bit(PPU_FLAG_LOST, &ppu->flags))
		return;
	dev_err(&ppu->pdev->dev,
		"the PPU stopped answering (register %#x and ID read all ones): device lost\n",
		reg);
	schedule_work(&ppu->lost_work);
}

/**
 * ppu_device_wake() - wake the waiters of some channels' owners
 * @ppu: the device
 * @chans: ids of the channels whose events (or end) their owners must see
 *
 * Each owner has a wait queue of its own (&ppu_file.event_wq; the driver's
 * channel &ppu_device.event_wq), so one client's events, however many,
 * wake no other client's waiters.  Callable from the interrupt handler.
 */
void ppu_device_wake(struct ppu_device *ppu, const unsigned long *chans)
{
	unsigned int chid;

	for_each_set_bit(chid, chans, ppu->caps.num_channels)
		ppu_device_wake_chan(ppu, chid);
}

/**
 * ppu_device_wake_chan() - ppu_device_wake() for one channel
 * @ppu: the device
 * @chid: the channel id
 */
void ppu_device_wake_chan(struct ppu_device *ppu, u32 chid)
{
	wait_queue_head_t *wq;

	rcu_read_lock();
	wq = rcu_dereference(ppu->chan_wq[chid]);
	if (wq)
		wake_up_all(wq);
	rcu_read_unlock();
}

/**
 * ppu_device_wake_all() - wake the owners of every channel
 * @ppu: the device (its channel arrays may not exist yet: a PPU lost
 *       during probe)
 */
void ppu_device_wake_all(struct ppu_device *ppu)
{
	unsigned int chid;

	if (!ppu->chan_wq)
		return;
	for (chid = 0; chid < ppu->caps.num_channels; chid++)
		ppu_device_wake_chan(ppu, chid);
}

/**
 * ppu_device_kick_fences() - have the semaphore fence worker check soon
 * @ppu: the device
 *
 * Callable from the interrupt handler.  The fence list and its worker are
 * the device's, so that whoever sees an event (the interrupt handler, the
 * watchdog, device loss) can kick the worker without calling up into
 * ppu_sem.c, which owns the fences.
 */
void ppu_device_kick_fences(struct ppu_device *ppu)
{
	if (!list_empty_careful(&ppu->fences))
		mod_delayed_work(system_wq, &ppu->fence_work, 0);
}

/*
 * The PPU is lost: unplug the DRM device (new ioctls fail with -ENODEV,
 * hardware access stops) and wake every waiter, which sees ppu_lost().
 * From a worker, because the reader that noticed may be inside
 * drm_dev_enter(), which drm_dev_unplug() waits for.
 */
static void ppu_device_lost_work(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(work, struct ppu_device, lost_work);

	if (!test_bit(PPU_FLAG_REMOVING, &ppu->flags) && ppu->drm.registered &&
	    !drm_dev_is_unplugged(&ppu->drm))
		drm_dev_unplug(&ppu->drm);
	ppu_device_wake_all(ppu);
	ppu_device_kick_fences(ppu);
}

/* drmm action: nothing of the lost worker outlives the device. */
static void ppu_device_lost_release(struct drm_device *drm, void *data)
{
	struct ppu_device *ppu = data;

	cancel_work_sync(&ppu->lost_work);
}

/**
 * ppu_device_early_init() - state needed before the first register access
 * @ppu: the device
 *
 * Return: 0 or a negative error code.
 */
int ppu_device_early_init(struct ppu_device *ppu)
{
	INIT_WORK(&ppu->lost_work, ppu_device_lost_work);
	init_waitqueue_head(&ppu->event_wq);
	INIT_LIST_HEAD(&ppu->fences);
	return drmm_add_action_or_reset(&ppu->drm, ppu_device_lost_release, ppu);
}

/**
 * ppu_device_read_cycles() - read the PPU cycle counter
 * @ppu: the device
 * @cycles: out, the counter
 *
 * Return: 0, or -ENODEV once the device is unplugged.
 */
int ppu_device_read_cycles(struct ppu_device *ppu, u64 *cycles)
{
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	*cycles = ppu_read64(ppu, PPU_REG_CYCLE_LO, PPU_REG_CYCLE_HI);
	drm_dev_exit(idx);
	return ppu_lost(ppu) ? -ENODEV : 0;
}

static int ppu_device_check_id(struct ppu_device *ppu)
{
	struct device *dev = &ppu->pdev->dev;
	u32 id = ppu_read(ppu, PPU_REG_ID);
	u32 version = ppu_read(ppu, PPU_REG_VERSION);
	u32 major = PPU_FGET(PPU_VERSION_MAJOR, version);

	if (id != PPU_ID_VALUE) {
		dev_err(dev, "ID register reads %#010x, expected %#010x\n",
			id, (u32)PPU_ID_VALUE);
		return -ENODEV;
	}
	if (major != PPU_VERSION_MAJOR) {
		dev_err(dev, "hardware version %u.%u, driver knows %u.x\n",
			major, PPU_FGET(PPU_VERSION_MINOR, version),
			(u32)PPU_VERSION_MAJOR);
		return -ENODEV;
	}
	ppu->caps.id = id;
	ppu->caps.version = version;
	return 0;
}

/*
 * COMPUTE_ENGINE is only believed with compute capabilities that make it
 * usable: units with contexts, task ids and slots that the debug windows
 * can select, the channel priorities, and CTAs of at least one thread.
 * Otherwise compute channels are refused (-ENODEV) as without the engine.
 */
static void ppu_device_check_compute(struct ppu_device *ppu)
{
	struct ppu_caps *caps = &ppu->caps;

	if (!PPU_FGET(PPU_CAP_FEATURES_COMPUTE_ENGINE, caps->features)) {
		/* kernels launching kernels need kernels */
		caps->features &= ~PPU_FMASK(PPU_CAP_FEATURES_DEV_LAUNCH);
		return;
	}
	if (caps->num_cu >= 1 && caps->num_cu <= PPU_FMAX(PPU_CU_DBG_SEL_CU) + 1 &&
	    caps->cu_contexts >= 1 && caps->cu_contexts <= PPU_FMAX(PPU_CU_DBG_SEL_CTX) + 1 &&
	    caps->num_tasks >= 1 && caps->num_tasks <= PPU_FMAX(PPU_TASK_DBG1_PARENT) + 1 &&
	    caps->num_task_slots >= 1 &&
	    caps->num_priorities == DRM_PPU_CHAN_PRIORITY_MAX + 1 &&
	    caps->max_cta_threads >= 1)
		return;
	dev_warn(&ppu->pdev->dev,
		 "compute engine disabled: %u CUs x %u contexts, %u task ids, %u task slots, %u priorities, CTAs of %u threads\n",
		 caps->num_cu, caps->cu_contexts, caps->num_tasks, caps->num_task_slots,
		 caps->num_priorities, caps->max_cta_threads);
	caps->features &= ~(PPU_FMASK(PPU_CAP_FEATURES_COMPUTE_ENGINE) |
			    PPU_FMASK(PPU_CAP_FEATURES_DEV_LAUNCH));
}

/* Per-channel-id state, sized by CAP_NUM_CHANNELS; freed with the device. */
static int ppu_device_chan_arrays_alloc(struct ppu_device *ppu)
{
	struct drm_device *drm = &ppu->drm;
	u32 n = ppu->caps.num_channels;
	size_t words = BITS_TO_LONGS(n);

	ppu->irq_stats.faults = drmm_kcalloc(drm, n, sizeof(atomic64_t), GFP_KERNEL);
	ppu->irq_stats.nonstalls = drmm_kcalloc(drm, n, sizeof(atomic64_t), GFP_KERNEL);
	ppu->irq_stats.faulted = drmm_kcalloc(drm, words, sizeof(long), GFP_KERNEL);
	ppu->irq_stats.fault_new = drmm_kcalloc(drm, words, sizeof(long), GFP_KERNEL);
	ppu->irq_woken = drmm_kcalloc(drm, words, sizeof(long), GFP_KERNEL);
	ppu->chans = drmm_kcalloc(drm, n, sizeof(*ppu->chans), GFP_KERNEL);
	ppu->chan_gen = drmm_kcalloc(drm, n, sizeof(u32), GFP_KERNEL);
	ppu->runlist_level = drmm_kcalloc(drm, n, sizeof(u8), GFP_KERNEL);
	ppu->runlist_listed = drmm_kcalloc(drm, words, sizeof(long), GFP_KERNEL);
	ppu->wd_moved = drmm_kcalloc(drm, words, sizeof(long), GFP_KERNEL);
	ppu->wd_waiting = drmm_kcalloc(drm, words, sizeof(long), GFP_KERNEL);
	if (!ppu->irq_stats.faults || !ppu->irq_stats.nonstalls || !ppu->irq_stats.faulted ||
	    !ppu->irq_stats.fault_new || !ppu->irq_woken || !ppu->chans || !ppu->chan_gen ||
	    !ppu->runlist_level || !ppu->runlist_listed || !ppu->wd_moved || !ppu->wd_waiting)
		return -ENOMEM;
	/* (last: ppu_device_wake_all() takes it as the sign that all exist) */
	ppu->chan_wq = drmm_kcalloc(drm, n, sizeof(*ppu->chan_wq), GFP_KERNEL);
	if (!ppu->chan_wq)
		return -ENOMEM;
	return 0;
}

static int ppu_device_read_caps(struct ppu_device *ppu)
{
	struct ppu_caps *caps = &ppu->caps;
	struct device *dev = &ppu->pdev->dev;
	int ret;

	caps->num_channels = ppu_read(ppu, PPU_REG_CAP_NUM_CHANNELS);
	caps->num_cu = ppu_read(ppu, PPU_REG_CAP_NUM_CU);
	caps->num_task_slots = ppu_read(ppu, PPU_REG_CAP_NUM_TASK_SLOTS);
	caps->num_priorities = ppu_read(ppu, PPU_REG_CAP_NUM_PRIORITIES);
	caps->copy_chunk_bytes = ppu_read(ppu, PPU_REG_CAP_COPY_CHUNK_BYTES);
	caps->mem_data_bytes = ppu_read(ppu, PPU_REG_CAP_MEM_DATA_BYTES);
	caps->tlb_entries = ppu_read(ppu, PPU_REG_CAP_TLB_ENTRIES);
	caps->copy_max_reads = ppu_read(ppu, PPU_REG_CAP_COPY_MAX_READS);
	caps->pb_prefetch_beats = ppu_read(ppu, PPU_REG_CAP_PB_PREFETCH_BEATS);
	caps->features = ppu_read(ppu, PPU_REG_CAP_FEATURES);
	caps->local_mem_mib = ppu_read(ppu, PPU_REG_CAP_LOCAL_MEM_MIB);
	caps->cu_contexts = ppu_read(ppu, PPU_REG_CAP_CU_CONTEXTS);
	caps->num_tasks = ppu_read(ppu, PPU_REG_CAP_NUM_TASKS);
	caps->max_cta_threads = ppu_read(ppu, PPU_REG_CAP_MAX_CTA_THREADS);
	caps->icache_bytes = ppu_read(ppu, PPU_REG_CAP_ICACHE_BYTES);
	caps->chan_cache = ppu_read(ppu, PPU_REG_CAP_CHAN_CACHE);

	if (caps->num_channels < 1 || caps->num_channels > PPU_MAX_CHANNELS) {
		dev_err(dev, "CAP_NUM_CHANNELS %u out of range 1..%u\n",
			caps->num_channels, PPU_MAX_CHANNELS);
		return -ENODEV;
	}
	if (caps->num_channels > PPU_PENDING_CHANNELS &&
	    !PPU_FGET(PPU_CAP_FEATURES_EVENT_RING, caps->features)) {
		dev_err(dev, "CAP_NUM_CHANNELS %u without an event ring: the pending registers name %u\n",
			caps->num_channels, PPU_PENDING_CHANNELS);
		return -ENODEV;
	}
	/*
	 * A PPU from before the channel cache reads 0 here; it also takes
	 * 8-byte channel-table entries, which this driver no longer writes.
	 */
	if (caps->chan_cache < 1 || caps->chan_cache > caps->num_channels) {
		dev_err(dev, "CAP_CHAN_CACHE %u out of range 1..%u (a PPU older than 128-byte channel-table entries?)\n",
			caps->chan_cache, caps->num_channels);
		return -ENODEV;
	}
	/* Kernel structures (channel table, instance blocks) live in host RAM. */
	if (!PPU_FGET(PPU_CAP_FEATURES_SYS_APERTURE, caps->features)) {
		dev_err(dev, "no system aperture (CAP_FEATURES %#x)\n",
			caps->features);
		return -ENODEV;
	}
	ppu->pending_mask = GENMASK(min_t(u32, caps->num_channels, PPU_PENDING_CHANNELS) - 1, 0);
	ret = ppu_device_chan_arrays_alloc(ppu);
	if (ret)
		return ret;
	ppu_device_check_compute(ppu);

	dev_info(dev,
		 "PPU %u.%u: %u channels, %u CUs, copy chunk %u B, beat %u B, TLB %u, local %u MiB, features %#x\n",
		 PPU_FGET(PPU_VERSION_MAJOR, ppu->caps.version),
		 PPU_FGET(PPU_VERSION_MINOR, ppu->caps.version),
		 caps->num_channels, caps->num_cu, caps->copy_chunk_bytes,
		 caps->mem_data_bytes, caps->tlb_entries, caps->local_mem_mib,
		 caps->features);
	if (PPU_FGET(PPU_CAP_FEATURES_COMPUTE_ENGINE, caps->features))
		dev_info(dev,
			 "compute: %u CUs x %u contexts, %u task ids, %u task slots, %u priorities, CTAs up to %u threads, I-cache %u B\n",
			 caps->num_cu, caps->cu_contexts, caps->num_tasks,
			 caps->num_task_slots, caps->num_priorities,
			 caps->max_cta_threads, caps->icache_bytes);
	return 0;
}

/* Forget every channel the hardware may still hold (from an earlier driver). */
static void ppu_device_unbind_all(struct ppu_device *ppu)
{
	u32 chid;

	for (chid = 0; chid < ppu->caps.num_channels; chid++)
		ppu_write(ppu, PPU_REG_CHAN_CTRL,
			  PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) |
			  PPU_FSET(PPU_CHAN_CTRL_CHID, chid));
}

/* No interrupts, no stale pending bits or events, no bound channels. */
static void ppu_device_quiesce(struct ppu_device *ppu)
{
	ppu_write(ppu, PPU_REG_INTR_ENABLE, 0);
	if (PPU_FGET(PPU_CAP_FEATURES_EVENT_RING, ppu->caps.features))
		ppu_write(ppu, PPU_REG_EVENT_RING_SIZE, 0);
	ppu_device_unbind_all(ppu);
	ppu_write(ppu, PPU_REG_FAULT_PENDING, ppu->pending_mask);
	ppu_write(ppu, PPU_REG_NONSTALL_PENDING, ppu->pending_mask);
}

static int ppu_device_chan_table_alloc(struct ppu_device *ppu)
{
	struct device *dev = &ppu->pdev->dev;

	ppu->chan_table_size = ALIGN(ppu->caps.num_channels * PPU_CHAN_ENTRY_BYTES,
				     PPU_CHAN_TABLE_ALIGN);
	/* Zeroed: every entry starts with VALID clear. */
	ppu->chan_table = dmam_alloc_coherent(dev, ppu->chan_table_size,
					      &ppu->chan_table_dma, GFP_KERNEL);
	if (!ppu->chan_table)
		return -ENOMEM;
	/* Coherent memory is page aligned; check what the hardware needs. */
	if (!IS_ALIGNED(ppu->chan_table_dma, PPU_CHAN_TABLE_ALIGN)) {
		dev_err(dev, "channel table at %pad is not %u-byte aligned\n",
			&ppu->chan_table_dma, PPU_CHAN_TABLE_ALIGN);
		return -EINVAL;
	}
	return 0;
}

/* The table is host RAM: system aperture. */
static u32 ppu_device_chan_table_lo(struct ppu_device *ppu)
{
	return lower_32_bits(ppu->chan_table_dma);
}

static u32 ppu_device_chan_table_hi(struct ppu_device *ppu)
{
	return ppu_addr_hi(ppu->chan_table_dma, 1);
}

/*
 * Records of the event ring: with a record waiting per channel and kind at
 * most while the ring is full (the PPU merges the rest), a ring of four
 * per channel is seldom full; 256 at least.
 */
static unsigned int ppu_device_events_log2(struct ppu_device *ppu)
{
	return max_t(unsigned int, 8, order_base_2(4 * ppu->caps.num_channels));
}

/*
 * On by default where the PPU has a ring: records name any channel, the
 * pending registers only the first 32.  Off, for comparison and for
 * PPUs of at most 32 channels, the driver reads the pending registers.
 */
static bool event_ring = true;
module_param(event_ring, bool, 0444);
MODULE_PARM_DESC(event_ring,
		 "take faults and non-stall interrupts from the PPU's event ring where it has one, not its pending registers (default on; a PPU of more than 32 channels needs it)");

/* The event ring, where the PPU has one and the driver uses it. */
static int ppu_device_events_init(struct ppu_device *ppu)
{
	struct device *dev = &ppu->pdev->dev;
	unsigned int log2 = ppu_device_events_log2(ppu);

	if (!PPU_FGET(PPU_CAP_FEATURES_EVENT_RING, ppu->caps.features))
		return 0;
	if (!event_ring) {
		if (ppu->caps.num_channels <= PPU_PENDING_CHANNELS)
			return 0;
		dev_err(dev, "event_ring=0: the pending registers name %u of the %u channels\n",
			PPU_PENDING_CHANNELS, ppu->caps.num_channels);
		return -ENODEV;
	}
	if (log2 > PPU_EVENT_RING_LOG2_MAX)
		return -EINVAL;
	/* Zeroed, page aligned (the PPU needs 8 bytes). */
	ppu->events = dmam_alloc_coherent(dev, (size_t)PPU_EVENT_BYTES << log2,
					  &ppu->events_dma, GFP_KERNEL);
	if (!ppu->events)
		return -ENOMEM;
	ppu->events_log2 = log2;
	ppu->events_get = 0;
	ppu_write(ppu, PPU_REG_EVENT_RING_LO, lower_32_bits(ppu->events_dma));
	ppu_write(ppu, PPU_REG_EVENT_RING_HI, ppu_addr_hi(ppu->events_dma, 1));
	/* (also sets PUT and GET to 0) */
	ppu_write(ppu, PPU_REG_EVENT_RING_SIZE, PPU_FSET(PPU_EVENT_RING_SIZE_LOG2, log2));
	return 0;
}

/**
 * ppu_device_stop() - leave the PPU quiet
 * @ppu: the device
 *
 * No interrupts, no bound channels, no channel table: after this the PPU
 * touches no host memory.  Used on remove (devres) and on shutdown.
 */
void ppu_device_stop(struct ppu_device *ppu)
{
	ppu_device_quiesce(ppu);
	ppu_write(ppu, PPU_REG_CHAN_TABLE_LO, 0);
	ppu_write(ppu, PPU_REG_CHAN_TABLE_HI, 0);
}

/* devres action: runs on remove and on a probe failure after init. */
static void ppu_device_fini(void *data)
{
	ppu_device_stop(data);
}

/**
 * ppu_device_init() - map BAR0, identify the PPU, set up the channel table
 * @ppu: the device, with @pdev set and the PCI device enabled
 *
 * Everything is devres-managed; on remove the hardware is quiesced before
 * the channel table is freed.  Interrupts stay disabled (see ppu_irq_init()).
 *
 * Return: 0 or a negative error code; -ENODEV for hardware the driver does
 * not drive.
 */
int ppu_device_init(struct ppu_device *ppu)
{
	struct pci_dev *pdev = ppu->pdev;
	struct device *dev = &pdev->dev;
	int ret;

	if (!(pci_resource_flags(pdev, 0) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, 0) < PPU_BAR0_SIZE) {
		dev_err(dev, "BAR0 is not a memory BAR of at least %#x bytes\n",
			(u32)PPU_BAR0_SIZE);
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(0), dev_driver_string(dev));
	if (ret) {
		dev_err(dev, "cannot map BAR0: %d\n", ret);
		return ret;
	}
	ppu->regs = pcim_iomap_table(pdev)[0];

	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(PPU_DMA_BITS));
	if (ret) {
		dev_err(dev, "no usable %u-bit DMA: %d\n", PPU_DMA_BITS, ret);
		return ret;
	}

	ret = ppu_device_check_id(ppu);
	if (ret)
		return ret;
	ret = ppu_device_read_caps(ppu);
	if (ret)
		return ret;

	ppu_device_quiesce(ppu);
	ret = ppu_device_chan_table_alloc(ppu);
	if (ret)
		return ret;
	ppu_write(ppu, PPU_REG_CHAN_TABLE_LO, ppu_device_chan_table_lo(ppu));
	ppu_write(ppu, PPU_REG_CHAN_TABLE_HI, ppu_device_chan_table_hi(ppu));
	ret = ppu_device_events_init(ppu);
	if (ret) {
		ppu_device_stop(ppu);
		return ret;
	}
	/*
	 * Registered after the table and the ring were allocated, so on the
	 * way out the hardware forgets both before devres frees them.
	 */
	ret = devm_add_action_or_reset(dev, ppu_device_fini, ppu);
	if (ret)
		return ret;

	/* One read back proves that the register path works both ways. */
	if (ppu_read(ppu, PPU_REG_CHAN_TABLE_LO) != ppu_device_chan_table_lo(ppu) ||
	    ppu_read(ppu, PPU_REG_CHAN_TABLE_HI) != ppu_device_chan_table_hi(ppu)) {
		dev_err(dev, "CHAN_TABLE_LO/HI do not hold the table address %pad\n",
			&ppu->chan_table_dma);
		return -EIO;
	}
	return 0;
}
