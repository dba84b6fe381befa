// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU channels.
 *
 * A channel is a hardware channel id owned by one open file.  The kernel
 * writes its 64-byte instance block (DMA-coherent host memory, system
 * aperture) and points the channel-table entry at it; the instance names
 * the file's page-table root, the GPFIFO ring userspace bound in that
 * address space, and the USERD page.  USERD is a 4 KiB shmem BO owned by
 * the channel, pinned and DMA-mapped at creation, which the creating file
 * may mmap() (its fake offset is allowed for that file only) so that
 * submission is a store of GP_PUT plus DOORBELL.
 *
 * The PPU reads the instance block when a doorbell arrives for a channel it
 * has not bound.  Creation unbinds the id first (a free id may have been
 * faulted by a doorbell on its invalid entry).  Destruction invalidates the
 * table entry, writes CHAN_CTRL UNBIND and polls the channel's STATE until
 * the PPU reports it UNBOUND (wall-time bound) before the memory is freed.
 * Every operation holds &ppu_device.chan_lock.
 *
 * A channel that faults stays FAULTED in hardware (its fault registers say
 * why) until it is destroyed: it is dead, doorbells fail with -EIO and
 * waits tied to it fail with -EIO (ppu_chan_check()).  The driver's own
 * channel (ppu_kchan.c) is a channel without a file; it has the highest
 * id, so user channels are the ids below it.
 *
 * The fault worker is here rather than with the fault log (ppu_fault.c)
 * because its record names the faulted channel's owner; what a client may
 * ask of its channels is checked in ppu_chan_ioctl.c.
 */
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_vma_manager.h>

#include "uapi/drm/ppu_drm.h"
#include "ppu/ppu_encode.h"

#include "ppu_chan.h"
#include "ppu_device.h"
#include "ppu_doorbell.h"
#include "ppu_fault.h"
#include "ppu_gem.h"
#include "ppu_irq.h"
#include "ppu_quota.h"
#include "ppu_reset.h"
#include "ppu_runlist.h"

/*
 * How long the PPU may take to drop an unbound channel (wall time) before
 * the engine that holds it is reset.  A compute channel is UNBOUND only
 * once the task table has killed every CTA of its kernels and freed their
 * ids, which waits for their memory accesses in flight: without an engine
 * reset it gets longer.
 */
#define PPU_CHAN_UNBIND_TIMEOUT_MS	3000
#define PPU_CHAN_UNBIND_COMPUTE_TIMEOUT_MS	10000
/*
 * A channel the watchdog stops has shown no progress for watchdog_ms: if
 * its copy is still on the engine this long after the unbind, the engine
 * is wedged and is reset at once.  Killing kernels takes a little longer,
 * and a compute reset costs every other channel's tasks: more margin.
 */
#define PPU_CHAN_UNBIND_STUCK_MS	200
#define PPU_CHAN_UNBIND_STUCK_COMPUTE_MS	1000

static_assert(DRM_PPU_CHAN_LOG2_ENTRIES_MAX == PPU_GP_LOG2_ENTRIES_MAX);
static_assert(DRM_PPU_USERD_GP_PUT == PPU_USERD_GP_PUT);
static_assert(DRM_PPU_USERD_GP_GET == PPU_USERD_GP_GET);
static_assert(DRM_PPU_USERD_SIZE == PAGE_SIZE);
static_assert(DRM_PPU_CHAN_STATE_FAULTED == PPU_CHAN_STATUS_STATE_FAULTED);
static_assert(DRM_PPU_CHAN_STATE_LOADING == PPU_CHAN_STATUS_STATE_LOADING);
static_assert(DRM_PPU_CHAN_STATE_WFI_WAIT == PPU_CHAN_STATUS_STATE_WFI_WAIT);
static_assert(DRM_PPU_FAULT_ILLEGAL_METHOD == PPU_FAULT_KIND_ILLEGAL_METHOD);
static_assert(DRM_PPU_FAULT_ENGINE_MISSING == PPU_FAULT_KIND_ENGINE_MISSING);
static_assert(DRM_PPU_FAULT_ILLEGAL_INSTR == PPU_FAULT_KIND_ILLEGAL_INSTR);
static_assert(DRM_PPU_FAULT_MISALIGNED == PPU_FAULT_KIND_MISALIGNED);
static_assert(DRM_PPU_FAULT_TMD_INVALID == PPU_FAULT_KIND_TMD_INVALID);
static_assert(DRM_PPU_FAULT_KERNEL_TRAP == PPU_FAULT_KIND_KERNEL_TRAP);
static_assert(DRM_PPU_FAULT_ENGINE_RESET == PPU_FAULT_KIND_ENGINE_RESET);
static_assert(DRM_PPU_FAULT_UNIT_INST == PPU_FAULT_UNIT_INST);
static_assert(DRM_PPU_FAULT_UNIT_COMPUTE == PPU_FAULT_UNIT_COMPUTE);
static_assert(DRM_PPU_FAULT_UNIT_TASKS == PPU_FAULT_UNIT_TASKS);
static_assert(DRM_PPU_FAULT_ACCESS_EXEC == PPU_FAULT_ACCESS_EXEC);
/* The instance block's PRIORITY.MAX_DEPTH holds the deepest chain. */
static_assert(DRM_PPU_MAX_NESTING_DEPTH <= PPU_FMAX(PPU_INST_PRIORITY_MAX_DEPTH));

/* Priorities fit the instance block's 8-bit PRIORITY.MIN/MAX fields. */
static_assert(DRM_PPU_CHAN_PRIORITY_MAX <
	      (1u << (PPU_INST_PRIORITY_MAX__MSB - PPU_INST_PRIORITY_MAX__LSB + 1)));

/**
 * struct ppu_chan - one hardware channel in use
 * @chid: the hardware channel id
 * @file: the file that owns it; NULL for the driver's own channel
 * @pid: the creating process, for debugfs and fault reports
 * @priority: its priority (INST PRIORITY.MAX; also MIN on copy channels)
 * @compute: it runs on the compute engine
 * @inst: the instance block (little endian, as the PPU reads it)
 * @inst_dma: its bus address (page aligned, hence 64-byte aligned)
 * @userd: the USERD BO (a reference), pinned and DMA-mapped; NULL when the
 *         creator provides USERD memory (the driver's own channel)
 * @userd_dma: its bus address
 * @doorbell: its doorbell page object (a reference), which the owner may
 *            mmap() (ppu_doorbell.c); NULL for the driver's own channel and
 *            on a PPU without doorbell pages
 * @wd_state: the watchdog's last view: CHAN_STATUS.STATE
 * @wd_get: ... GP_GET
 * @wd_tasks: ... TASKS (compute channels)
 * @wd_since: jiffies since which that view has not changed
 * @wd_killed_at: jiffies when the watchdog stopped it
 * @wd_killed: the watchdog stopped the channel (it reads FAULTED, kind
 *             WATCHDOG, until destroyed)
 * @wd_settled: a stopped channel has left the PPU, or nothing more can be
 *              done to make it leave (the watchdog stops checking it)
 * @dying: being destroyed: lookups no longer find it, its id stays taken
 * @close_node: on the list of a closing file's channels (ppu_chan_file_close())
 *
 * The wd_* fields are used under &ppu_device.chan_lock.
 */
struct ppu_chan {
	u32 chid;
	struct drm_file *file;
	pid_t pid;
	u32 priority;
	bool compute;
	__le32 *inst;
	dma_addr_t inst_dma;
	struct drm_gem_object *userd;
	dma_addr_t userd_dma;
	struct drm_gem_object *doorbell;
	u32 wd_state;
	u32 wd_get;
	u32 wd_tasks;
	unsigned long wd_since;
	unsigned long wd_killed_at;
	bool wd_killed;
	bool wd_settled;
	bool dying;
	struct list_head close_node;
};

/**
 * ppu_chan_init() - channel bookkeeping of a new device
 * @ppu: the device
 */
void ppu_chan_init(struct ppu_device *ppu)
{
	mutex_init(&ppu->chan_lock);
	mutex_init(&ppu->chan_sel_lock);
}

/* The channel @chid of @file, if it has one that is not being destroyed. */
static struct ppu_chan *ppu_chan_lookup(struct ppu_device *ppu, struct drm_file *file,
					u32 chid)
{
	struct ppu_chan *chan;

	if (chid >= ppu->caps.num_channels)
		return NULL;
	chan = ppu->chans[chid];
	return chan && chan->file == file && !chan->dying ? chan : NULL;
}

static struct device *ppu_chan_dev(struct ppu_device *ppu)
{
	return ppu->drm.dev;
}

/* Frees the channel's memory; the PPU no longer uses it. */
static void ppu_chan_free(struct ppu_device *ppu, struct ppu_chan *chan)
{
	if (chan->doorbell) {
		if (chan->file)
			ppu_doorbell_revoke(ppu, chan->doorbell, chan->file);
		drm_gem_object_put(chan->doorbell);
	}
	if (chan->userd) {
		if (chan->file)
			drm_vma_node_revoke(&chan->userd->vma_node, chan->file);
		drm_gem_object_put(chan->userd);
	}
	if (chan->inst)
		dma_free_coherent(ppu_chan_dev(ppu), PPU_INST_BYTES, chan->inst,
				  chan->inst_dma);
	kfree(chan);
}

/*
 * Allocates the instance block, and the USERD page unless the creator
 * provides one (@userd_dma nonzero).
 */
static struct ppu_chan *ppu_chan_alloc(struct ppu_device *ppu, struct drm_file *file,
				       dma_addr_t userd_dma)
{
	struct drm_gem_shmem_object *shmem;
	struct ppu_chan *chan;
	struct sg_table *sgt;
	int ret;

	chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	if (!chan)
		return ERR_PTR(-ENOMEM);
	chan->file = file;

	/* Coherent memory is page aligned: the 64-byte rule holds. */
	chan->inst = dma_alloc_coherent(ppu_chan_dev(ppu), PPU_INST_BYTES,
					&chan->inst_dma, GFP_KERNEL);
	if (!chan->inst) {
		ret = -ENOMEM;
		goto err;
	}
	if (userd_dma) {
		chan->userd_dma = userd_dma;
		return chan;
	}

	shmem = drm_gem_shmem_create(&ppu->drm, DRM_PPU_USERD_SIZE);
	if (IS_ERR(shmem)) {
		ret = PTR_ERR(shmem);
		goto err;
	}
	sgt = ppu_gem_get_sgt(to_ppu_bo(&shmem->base));
	if (IS_ERR(sgt)) {
		drm_gem_object_put(&shmem->base);
		ret = PTR_ERR(sgt);
		goto err;
	}
	chan->userd_dma = sg_dma_address(sgt->sgl);
	ret = drm_gem_create_mmap_offset(&shmem->base);
	if (ret) {
		drm_gem_object_put(&shmem->base);
		goto err;
	}
	/* Only the owner may mmap() it. */
	ret = drm_vma_node_allow(&shmem->base.vma_node, file);
	if (ret) {
		drm_gem_object_put(&shmem->base);
		goto err;
	}
	chan->userd = &shmem->base;
	return chan;

err:
	ppu_chan_free(ppu, chan);
	return ERR_PTR(ret);
}

/* Lists every channel id in use at its priority (scheduling by runlist). */
static void ppu_chan_runlist_locked(struct ppu_device *ppu)
{
	u32 chid;

	bitmap_zero(ppu->runlist_listed, ppu->caps.num_channels);
	for (chid = 0; chid < ppu->caps.num_channels; chid++) {
		if (!ppu->chans[chid])
			continue;
		ppu->runlist_level[chid] = ppu->chans[chid]->priority;
		__set_bit(chid, ppu->runlist_listed);
	}
	ppu_runlist_submit(ppu, ppu->runlist_level, ppu->runlist_listed);
}

static void ppu_chan_write_entry(struct ppu_device *ppu, u32 chid, dma_addr_t inst,
				 bool valid)
{
	/* (the rest of the entry is the PPU's save area: not touched) */
	u32 *ent = ppu->chan_table + chid * (PPU_CHAN_ENTRY_BYTES / 4);
	u32 entry[2];

	ppu_chan_entry(entry, inst, 1, valid);
	if (valid) {
		/* Instance block and high word are visible before VALID. */
		WRITE_ONCE(ent[PPU_CHAN_ENTRY_HI / 4], entry[1]);
		dma_wmb();
		WRITE_ONCE(ent[PPU_CHAN_ENTRY_LO / 4], entry[0]);
	} else {
		WRITE_ONCE(ent[PPU_CHAN_ENTRY_LO / 4], 0);
		dma_wmb();
		WRITE_ONCE(ent[PPU_CHAN_ENTRY_HI / 4], 0);
	}
	/* The entry reaches memory before any later register write. */
	wmb();
}

/*
 * Register @off of channel @chid's status window: the channel's own window
 * where the register file has one for it, else the selected window
 * (CHAN_SEL), under chan_sel_lock so that a select and its read are not
 * split by another reader's select.
 */
static u32 ppu_chan_reg(struct ppu_device *ppu, u32 chid, u32 off)
{
	u32 v;

	if (chid < PPU_CHAN_WINDOW_CHANNELS)
		return ppu_read(ppu, PPU_CHAN_REG(chid, off));
	mutex_lock(&ppu->chan_sel_lock);
	ppu_write(ppu, PPU_REG_CHAN_SEL, PPU_FSET(PPU_CHAN_SEL_CHID, chid));
	v = ppu_read(ppu, PPU_CHAN_SEL_BASE + off);
	mutex_unlock(&ppu->chan_sel_lock);
	return v;
}

static u32 ppu_chan_state(struct ppu_device *ppu, u32 chid)
{
	return PPU_FGET(PPU_CHAN_STATUS_STATE, ppu_chan_reg(ppu, chid, PPU_CHAN_STATUS));
}

/* Waits (wall time) up to @ms for the channel to read UNBOUND; 0 or -ETIMEDOUT. */
static int ppu_chan_unbind_wait(struct ppu_device *ppu, u32 chid, unsigned int ms, u32 *state)
{
	unsigned long timeout = jiffies + msecs_to_jiffies(ms);

	for (;;) {
		*state = ppu_chan_state(ppu, chid);
		/* (a lost device touches no memory any more) */
		if (*state == PPU_CHAN_STATUS_STATE_UNBOUND || ppu_lost(ppu))
			return 0;
		if (time_after(jiffies, timeout))
			return -ETIMEDOUT;
		usleep_range(100, 200);
	}
}

static void ppu_chan_unbind_start(struct ppu_device *ppu, u32 chid)
{
	ppu_write(ppu, PPU_REG_CHAN_CTRL,
		  PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) |
		  PPU_FSET(PPU_CHAN_CTRL_CHID, chid));
}

/*
 * The engine that keeps a channel on the PPU after its unbind: the copy
 * engine while its copy holds it (ENGINE_BUSY), else the compute engine
 * while it holds tasks of the channel; -1 for neither.
 */
static int ppu_chan_stuck_engine(struct ppu_device *ppu, u32 chid, u32 state)
{
	if (state == PPU_CHAN_STATUS_STATE_ENGINE_BUSY)
		return PPU_ENGINE_COPY;
	if (ppu_chan_reg(ppu, chid, PPU_CHAN_TASKS))
		return PPU_ENGINE_COMPUTE;
	return -1;
}

/* Resets the engine that holds @chid; 0 when one was reset. */
static int ppu_chan_reset_stuck(struct ppu_device *ppu, u32 chid, u32 state, pid_t pid)
{
	int eng = ppu_chan_stuck_engine(ppu, chid, state);

	if (eng < 0 || !ppu_reset_supported(ppu, eng))
		return -EOPNOTSUPP;
	return ppu_reset_engine(ppu, eng, chid, pid);
}

/*
 * After CHAN_CTRL UNBIND: waits until the PPU reports the channel UNBOUND
 * (it has dropped its state and fault, killed the kernels of a compute
 * channel and no longer touches its memory).  A channel that is still
 * there after the wait is let go by resetting the engine that holds it
 * (ppu_reset.c): its copy's, then its kernels'.  @compute: the id may hold
 * a compute channel (without a reset, a longer wait).  Called inside
 * drm_dev_enter(); needs no lock.
 */
static int ppu_chan_unbind_settle(struct ppu_device *ppu, u32 chid, bool compute, pid_t pid)
{
	int ret, tries;
	u32 state;

	ret = ppu_chan_unbind_wait(ppu, chid, PPU_CHAN_UNBIND_TIMEOUT_MS, &state);
	for (tries = 0; ret && tries < PPU_ENGINE_COUNT; tries++) {
		if (ppu_chan_reset_stuck(ppu, chid, state, pid))
			break;
		ret = ppu_chan_unbind_wait(ppu, chid, PPU_CHAN_UNBIND_TIMEOUT_MS, &state);
	}
	if (ret && compute && !tries)
		ret = ppu_chan_unbind_wait(ppu, chid, PPU_CHAN_UNBIND_COMPUTE_TIMEOUT_MS -
					   PPU_CHAN_UNBIND_TIMEOUT_MS, &state);
	if (ret)
		drm_err(&ppu->drm, "channel %u not unbound (state %u)\n", chid, state);
	return ret;
}

/* UNBIND and its wait, for channels nobody else can reach. */
static int ppu_chan_unbind_hw(struct ppu_device *ppu, u32 chid, bool compute, pid_t pid)
{
	ppu_chan_unbind_start(ppu, chid);
	return ppu_chan_unbind_settle(ppu, chid, compute, pid);
}

/*
 * Destroying a channel has three steps, so that the wait for the PPU to let
 * it go (up to seconds, with an engine reset) holds no lock that other
 * clients' doorbells, creates and destroys need:
 *
 * detach (chan_lock): no lookup finds the channel any more, no doorbell can
 * bind it again, UNBIND is written; the id stays reserved.
 */
static void ppu_chan_detach_locked(struct ppu_device *ppu, struct ppu_chan *chan)
{
	int idx;

	chan->dying = true;
	/* the owner's stores must not reach the id once it is let go */
	if (chan->doorbell && chan->file)
		ppu_doorbell_revoke(ppu, chan->doorbell, chan->file);
	if (drm_dev_enter(&ppu->drm, &idx)) {
		ppu_chan_write_entry(ppu, chan->chid, 0, false);
		ppu_chan_unbind_start(ppu, chan->chid);
		drm_dev_exit(idx);
	}
}

/* settle (no lock): wait for the UNBIND; 0 or -ETIMEDOUT. */
static int ppu_chan_detach_settle(struct ppu_device *ppu, struct ppu_chan *chan)
{
	int ret = 0, idx;

	/* With the device gone there is nothing to stop (remove quiesced the PPU). */
	if (drm_dev_enter(&ppu->drm, &idx)) {
		ret = ppu_chan_unbind_settle(ppu, chan->chid, chan->compute, chan->pid);
		drm_dev_exit(idx);
	}
	return ret;
}

/*
 * release (chan_lock): free the channel, or, when the PPU did not let it go
 * (@ret), keep its id reserved and its memory allocated.
 */
static int ppu_chan_release_locked(struct ppu_device *ppu, struct ppu_chan *chan, int ret)
{
	u32 chid = chan->chid;

	if (ret) {
		/*
		 * The PPU may still use the channel: keep its id reserved and
		 * its memory allocated (leaked), owned by no file.
		 */
		if (chan->userd && chan->file)
			drm_vma_node_revoke(&chan->userd->vma_node, chan->file);
		/* ... and it may still walk the file's page tables: keep them too */
		if (chan->file) {
			struct ppu_file *pf = chan->file->driver_priv;

			pf->vm_kept = true;
		}
		chan->file = NULL;
		ppu->chan_gen[chid]++;
		/* its owner's waiters see it gone; nobody's wake it from here on */
		ppu_device_wake_chan(ppu, chid);
		RCU_INIT_POINTER(ppu->chan_wq[chid], NULL);
		return ret;
	}
	clear_bit(chid, ppu->irq_stats.faulted);
	ppu->chan_gen[chid]++;
	ppu->chans[chid] = NULL;
	ppu_chan_runlist_locked(ppu);
	ppu_chan_free(ppu, chan);
	/* Waiters on this channel see it gone. */
	ppu_device_wake_chan(ppu, chid);
	RCU_INIT_POINTER(ppu->chan_wq[chid], NULL);
	return 0;
}

/**
 * ppu_chan_destroy() - take a channel off the PPU and free it
 * @ppu: the device
 * @chan: the channel, found under chan_lock and not dying
 *
 * Return: 0, or -ETIMEDOUT when the PPU did not let it go (the id then
 * stays reserved and its memory allocated).
 */
int ppu_chan_destroy(struct ppu_device *ppu, struct ppu_chan *chan)
{
	int ret;

	mutex_lock(&ppu->chan_lock);
	ppu_chan_detach_locked(ppu, chan);
	mutex_unlock(&ppu->chan_lock);
	ret = ppu_chan_detach_settle(ppu, chan);
	mutex_lock(&ppu->chan_lock);
	ret = ppu_chan_release_locked(ppu, chan, ret);
	mutex_unlock(&ppu->chan_lock);
	return ret;
}

/**
 * ppu_chan_restart() - bring a dead channel back to a clean, unbound state
 * @ppu: the device
 * @chan: the channel (the driver's own: users destroy theirs)
 *
 * The caller resets the channel's USERD (GP_PUT and GP_GET) before the next
 * doorbell; the PPU then starts again at GPFIFO entry 0.
 *
 * Return: 0, -ETIMEDOUT, or -ENODEV once the device is gone.
 */
int ppu_chan_restart(struct ppu_device *ppu, struct ppu_chan *chan)
{
	int ret = -ENODEV, idx;

	mutex_lock(&ppu->chan_lock);
	if (drm_dev_enter(&ppu->drm, &idx)) {
		ret = ppu_chan_unbind_hw(ppu, chan->chid, chan->compute, chan->pid);
		drm_dev_exit(idx);
	}
	if (!ret) {
		clear_bit(chan->chid, ppu->irq_stats.faulted);
		ppu->chan_gen[chan->chid]++;
	}
	mutex_unlock(&ppu->chan_lock);
	return ret;
}

/**
 * ppu_chan_id() - the hardware id of a channel
 * @chan: the channel
 *
 * Return: the id.
 */
u32 ppu_chan_id(const struct ppu_chan *chan)
{
	return chan->chid;
}

/**
 * ppu_chan_gen() - the generation of a channel id, for ppu_chan_check()
 * @ppu: the device
 * @file: the caller's file
 * @chid: a channel of @file
 * @gen: out, the current generation of @chid
 *
 * Return: 0, or -ENOENT when @file has no channel @chid.
 */
int ppu_chan_gen(struct ppu_device *ppu, struct drm_file *file, u32 chid, u32 *gen)
{
	int ret = -ENOENT;

	mutex_lock(&ppu->chan_lock);
	if (ppu_chan_lookup(ppu, file, chid)) {
		*gen = ppu->chan_gen[chid];
		ret = 0;
	}
	mutex_unlock(&ppu->chan_lock);
	return ret;
}

/**
 * ppu_chan_check() - is the channel still alive?
 * @ppu: the device
 * @chid: the channel id
 * @gen: its generation from ppu_chan_gen()
 *
 * Lockless: for wait conditions, re-evaluated after every interrupt and
 * after every destruction (both wake the owner's queue, ppu_device_wake()).
 *
 * Return: 0, or -EIO when the channel faulted or was destroyed.
 */
int ppu_chan_check(struct ppu_device *ppu, u32 chid, u32 gen)
{
	if (READ_ONCE(ppu->chan_gen[chid]) != gen || test_bit(chid, ppu->irq_stats.faulted))
		return -EIO;
	return 0;
}

/**
 * ppu_chan_file_close() - destroy every channel of a file
 * @ppu: the device
 * @file: the file being closed; its address space still exists
 */
void ppu_chan_file_close(struct ppu_device *ppu, struct drm_file *file)
{
	struct ppu_chan *chan, *next;
	LIST_HEAD(mine);
	u32 chid;

	/* UNBIND them all at once, then wait for each without the lock */
	mutex_lock(&ppu->chan_lock);
	for (chid = 0; chid < ppu->caps.num_channels; chid++) {
		chan = ppu->chans[chid];
		if (chan && chan->file == file && !chan->dying) {
			ppu_chan_detach_locked(ppu, chan);
			list_add_tail(&chan->close_node, &mine);
		}
	}
	mutex_unlock(&ppu->chan_lock);
	list_for_each_entry_safe(chan, next, &mine, close_node) {
		int ret = ppu_chan_detach_settle(ppu, chan);

		list_del(&chan->close_node);
		mutex_lock(&ppu->chan_lock);
		ppu_chan_release_locked(ppu, chan, ret);
		mutex_unlock(&ppu->chan_lock);
	}
}

/**
 * ppu_chan_ring() - DOORBELL register write for a channel
 * @ppu: the device, inside drm_dev_enter()
 * @chid: the channel
 */
void ppu_chan_ring(struct ppu_device *ppu, u32 chid)
{
	ppu_write(ppu, PPU_REG_DOORBELL, PPU_FSET(PPU_DOORBELL_CHID, chid));
}

/*
 * -EDQUOT when @file holds as many channels as one file may, or the files
 * of its opener as many as one user may (ppu_quota.c).  Channels being
 * destroyed still count (their ids are not free yet); a channel kept by
 * the PPU after its file closed belongs to no file and counts for nobody.
 * Called with chan_lock held, which keeps every channel's file open.
 */
static int ppu_chan_quota_locked(struct ppu_device *ppu, struct drm_file *file)
{
	struct ppu_user *user = ppu_quota_file_user(file);
	u32 held = 0, user_held = 0;
	int i;

	for (i = 0; i < ppu->caps.num_channels; i++) {
		struct ppu_chan *chan = ppu->chans[i];

		if (!chan || !chan->file)
			continue;
		held += chan->file == file;
		user_held += user && ppu_quota_file_user(chan->file) == user;
	}
	if (held >= ppu_quota_channels(ppu))
		return -EDQUOT;
	if (user && user_held >= ppu_quota_user_channels(ppu))
		return -EDQUOT;
	return 0;
}

/**
 * ppu_chan_create() - take a free hardware channel and point it at a ring
 * @ppu: the device
 * @file: the owner; NULL for the driver's own channel
 * @d: instance fields: ring, page tables, priority; @d->userd_pa set means
 *     the caller provides USERD (only without @file)
 * @chid: the id to take, or U32_MAX for the lowest free one among the
 *        user ids
 * @out: for a user channel, filled with its id and USERD mmap offset
 *       before the lock is dropped (the channel may be destroyed by
 *       another thread of the file as soon as it is)
 *
 * Return: the channel (for the driver's own: a user channel may be gone
 * already) or an ERR_PTR: -EBUSY when no id is free, -EDQUOT when @file
 * or its user holds as many channels as it may (ppu_chan_quota_locked()),
 * -ENODEV,
 * -ETIMEDOUT, -ENOMEM.
 */
struct ppu_chan *ppu_chan_create(struct ppu_device *ppu, struct drm_file *file,
				 struct ppu_inst_desc *d, u32 chid,
				 struct drm_ppu_chan_create *out)
{
	u32 words[PPU_INST_BYTES / 4];
	struct ppu_chan *chan;
	u32 nuser = ppu_device_user_channels(ppu);
	unsigned long flags;
	int ret, idx, i;

	chan = ppu_chan_alloc(ppu, file, file ? 0 : d->userd_pa);
	if (IS_ERR(chan))
		return chan;
	chan->file = file;
	chan->pid = file ? task_tgid_nr(current) : 0;
	chan->priority = d->prio_max;
	chan->compute = d->engine == PPU_ENGINE_TYPE_COMPUTE;

	d->userd_pa = chan->userd_dma;
	d->userd_sys = 1;
	ppu_inst_fill(words, d);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		chan->inst[i] = cpu_to_le32(words[i]);

	mutex_lock(&ppu->chan_lock);
	if (file) {
		ret = ppu_chan_quota_locked(ppu, file);
		if (ret)
			goto err_unlock;
	}
	if (chid == U32_MAX) {
		for (chid = 0; chid < nuser; chid++)
			if (!ppu->chans[chid])
				break;
		if (chid == nuser) {
			ret = -EBUSY;
			goto err_unlock;
		}
	} else if (chid >= ppu->caps.num_channels || ppu->chans[chid]) {
		ret = -EBUSY;
		goto err_unlock;
	}
	if (!drm_dev_enter(&ppu->drm, &idx)) {
		ret = -ENODEV;
		goto err_unlock;
	}
	/*
	 * A free id may still be faulted (a doorbell through the debugfs
	 * hook on an invalid entry): start from a clean, unbound channel.
	 */
	ret = ppu_chan_unbind_hw(ppu, chid, false, 0);
	if (ret) {
		drm_dev_exit(idx);
		goto err_unlock;
	}
	if (file && ppu_doorbell_supported(ppu)) {
		chan->doorbell = ppu_doorbell_create(ppu, file, chid);
		if (IS_ERR(chan->doorbell)) {
			ret = PTR_ERR(chan->doorbell);
			chan->doorbell = NULL;
			drm_dev_exit(idx);
			goto err_unlock;
		}
	}
	/*
	 * A fault of the id's previous owner may still be pending (or in the
	 * event ring), or read by the interrupt handler or its poll (both
	 * under irq_lock) that has not yet marked it: acknowledge and clear it
	 * under the same lock, so that neither can mark the new channel dead.
	 */
	spin_lock_irqsave(&ppu->irq_lock, flags);
	if (chid < PPU_PENDING_CHANNELS)
		ppu_write(ppu, PPU_REG_FAULT_PENDING, BIT(chid));
	ppu_irq_drain_events(ppu, chid);
	clear_bit(chid, ppu->irq_stats.faulted);
	spin_unlock_irqrestore(&ppu->irq_lock, flags);
	ppu->chan_gen[chid]++;
	chan->chid = chid;
	ppu->chans[chid] = chan;
	ppu_chan_runlist_locked(ppu);
	rcu_assign_pointer(ppu->chan_wq[chid], file ?
			   &((struct ppu_file *)file->driver_priv)->event_wq : &ppu->event_wq);
	ppu_chan_write_entry(ppu, chid, chan->inst_dma, true);
	drm_dev_exit(idx);
	if (out) {
		out->chid = chid;
		out->userd_offset = drm_vma_node_offset_addr(&chan->userd->vma_node);
		out->doorbell_offset = chan->doorbell ?
				       drm_vma_node_offset_addr(&chan->doorbell->vma_node) : 0;
	}
	mutex_unlock(&ppu->chan_lock);
	return chan;

err_unlock:
	mutex_unlock(&ppu->chan_lock);
	ppu_chan_free(ppu, chan);
	return ERR_PTR(ret);
}

/**
 * ppu_chan_destroy_id() - destroy a channel of a file by its id
 * @ppu: the device
 * @file: the owner
 * @chid: the channel id
 *
 * Return: 0, -ENOENT when @file has no channel @chid, or -ETIMEDOUT when
 * the PPU did not let it go (the id then stays reserved, owned by no file).
 */
int ppu_chan_destroy_id(struct ppu_device *ppu, struct drm_file *file, u32 chid)
{
	struct ppu_chan *chan;
	int ret = -ENOENT;

	mutex_lock(&ppu->chan_lock);
	chan = ppu_chan_lookup(ppu, file, chid);
	if (chan)
		ppu_chan_detach_locked(ppu, chan);
	mutex_unlock(&ppu->chan_lock);
	if (!chan)
		return -ENOENT;
	ret = ppu_chan_detach_settle(ppu, chan);
	mutex_lock(&ppu->chan_lock);
	ret = ppu_chan_release_locked(ppu, chan, ret);
	mutex_unlock(&ppu->chan_lock);
	return ret;
}

/**
 * ppu_chan_doorbell() - ring a live channel of a file
 * @ppu: the device
 * @file: the owner
 * @chid: the channel id
 *
 * Return: 0, -ENOENT when @file has no channel @chid, -EIO when it is dead,
 * -ENODEV once the device is gone.
 */
int ppu_chan_doorbell(struct ppu_device *ppu, struct drm_file *file, u32 chid)
{
	int ret = -ENOENT, idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	mutex_lock(&ppu->chan_lock);
	if (ppu_chan_lookup(ppu, file, chid)) {
		ret = ppu_chan_check(ppu, chid, ppu->chan_gen[chid]);
		if (!ret)
			ppu_chan_ring(ppu, chid);
	}
	mutex_unlock(&ppu->chan_lock);
	drm_dev_exit(idx);
	return ret;
}

/**
 * ppu_chan_status() - what CHAN_STATUS reports of a channel of a file
 * @ppu: the device
 * @file: the owner
 * @args: in, the channel id; out, its state, GP_GET/GP_PUT and fault
 *        registers (the watchdog's own record for a channel it stopped)
 *
 * Return: 0, -ENOENT when @file has no channel @args->chid, -ENODEV once
 * the device is gone.
 */
int ppu_chan_status(struct ppu_device *ppu, struct drm_file *file,
		    struct drm_ppu_chan_status *args)
{
	int ret = -ENOENT, idx;
	u32 chid = args->chid;
	struct ppu_chan *chan;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	mutex_lock(&ppu->chan_lock);
	chan = ppu_chan_lookup(ppu, file, chid);
	if (chan && chan->wd_killed) {
		/* taken off the PPU by the watchdog: the driver's own report */
		args->state = PPU_CHAN_STATUS_STATE_FAULTED;
		args->gp_get = chan->wd_get;
		args->gp_put = ppu_chan_reg(ppu, chid, PPU_CHAN_GP_PUT);
		args->fault_info = PPU_FSET(PPU_FAULT_INFO_KIND, PPU_FAULT_KIND_WATCHDOG) |
				   PPU_FSET(PPU_FAULT_INFO_UNIT, PPU_FAULT_UNIT_DRIVER);
		args->fault_addr = chan->wd_get;
		args->fault_data = chan->wd_state;
		ret = 0;
	} else if (chan) {
		args->state = ppu_chan_state(ppu, chid);
		if (args->state == PPU_CHAN_STATUS_STATE_FAULTED)
			ppu_irq_note_fault(ppu, chid);
		args->gp_get = ppu_chan_reg(ppu, chid, PPU_CHAN_GP_GET);
		args->gp_put = ppu_chan_reg(ppu, chid, PPU_CHAN_GP_PUT);
		args->fault_info = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_INFO);
		args->fault_addr = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_ADDR);
		args->fault_data = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_DATA);
		ret = 0;
	}
	mutex_unlock(&ppu->chan_lock);
	drm_dev_exit(idx);
	return ret;
}


/* A channel that has nothing to do, or nothing more ever: not stuck. */
static bool ppu_chan_wd_quiet(u32 state)
{
	return state == PPU_CHAN_STATUS_STATE_UNBOUND || state == PPU_CHAN_STATUS_STATE_IDLE ||
	       state == PPU_CHAN_STATUS_STATE_FAULTED;
}

/*
 * The host re-checks a blocked acquire now and then, and a channel moves
 * between READY, ACQ_BLOCKED and ENGINE_WAIT as it is scheduled: none of
 * that is progress.
 */
static u32 ppu_chan_wd_class(u32 state)
{
	if (state == PPU_CHAN_STATUS_STATE_ACQ_BLOCKED ||
	    state == PPU_CHAN_STATUS_STATE_ENGINE_WAIT)
		return PPU_CHAN_STATUS_STATE_READY;
	return state;
}

/* Takes a stuck channel off the PPU; it reads FAULTED (WATCHDOG) until destroyed. */
static void ppu_chan_wd_kill(struct ppu_device *ppu, struct ppu_chan *chan, unsigned int ms)
{
	struct ppu_fault_rec rec = {
		.time_ns = ktime_get_ns(),
		.chid = chan->chid,
		.pid = chan->pid,
		.info = PPU_FSET(PPU_FAULT_INFO_KIND, PPU_FAULT_KIND_WATCHDOG) |
			PPU_FSET(PPU_FAULT_INFO_UNIT, PPU_FAULT_UNIT_DRIVER),
		.addr = chan->wd_get,
		.data = chan->wd_state,
	};

	chan->wd_killed = true;
	chan->wd_killed_at = jiffies;
	/* its doorbell page would bind it again behind the unbind */
	if (chan->doorbell && chan->file)
		ppu_doorbell_revoke(ppu, chan->doorbell, chan->file);
	/* dead from here on: waiters get -EIO, doorbells are refused */
	set_bit(chan->chid, ppu->irq_stats.faulted);
	ppu_fault_log(ppu, &rec);
	/* the wait for it to leave is the later checks' (ppu_chan_wd_settle) */
	ppu_chan_unbind_start(ppu, chan->chid);
	ppu_device_wake_chan(ppu, chan->chid);
	ppu_device_kick_fences(ppu);
}

/*
 * A channel the watchdog stopped and that has not left the PPU yet: if its
 * copy still holds the engine PPU_CHAN_UNBIND_STUCK_MS after the unbind
 * (it showed no progress for a whole deadline before), or the compute
 * engine still holds its tasks PPU_CHAN_UNBIND_STUCK_COMPUTE_MS after it,
 * the engine is wedged: reset it.  Checked on every watchdog round, so
 * that no lock is held while the PPU lets the channel go.
 */
static void ppu_chan_wd_settle(struct ppu_device *ppu, struct ppu_chan *chan, unsigned int ms)
{
	u32 state = ppu_chan_state(ppu, chan->chid);
	int eng;

	if (state == PPU_CHAN_STATUS_STATE_UNBOUND) {
		chan->wd_settled = true;
		return;
	}
	if (time_before(jiffies, chan->wd_killed_at + msecs_to_jiffies(PPU_CHAN_UNBIND_STUCK_MS)))
		return;
	eng = ppu_chan_stuck_engine(ppu, chan->chid, state);
	if (eng == PPU_ENGINE_COMPUTE &&
	    time_before(jiffies, chan->wd_killed_at +
			msecs_to_jiffies(PPU_CHAN_UNBIND_STUCK_COMPUTE_MS)))
		return;
	if (eng >= 0 && ppu_reset_supported(ppu, eng)) {
		if (ppu_reset_engine(ppu, eng, chan->chid, chan->pid))
			chan->wd_settled = true;	/* (logged; nothing more to try) */
		return;
	}
	if (time_after(jiffies, chan->wd_killed_at +
		       msecs_to_jiffies(chan->compute ? PPU_CHAN_UNBIND_COMPUTE_TIMEOUT_MS :
						      PPU_CHAN_UNBIND_TIMEOUT_MS))) {
		drm_err(&ppu->drm,
			"channel %u made no progress for %u ms and does not leave the PPU (state %u): the engine may be wedged\n",
			chan->chid, ms, state);
		chan->wd_settled = true;
	}
}

/**
 * ppu_chan_watchdog() - stop user channels that make no progress
 * @ppu: the device, inside drm_dev_enter()
 * @ms: how long a channel with work may keep the same state, GP_GET and
 *      (compute) task count
 *
 * A channel counts as stuck while it has work (not IDLE, UNBOUND or
 * FAULTED) and nothing of what the driver can see changes: a blocked
 * acquire that nobody releases, a copy that never ends, a kernel that runs
 * longer than @ms.  A channel whose copy is on the engine (ENGINE_BUSY)
 * progresses while the engine moves bytes; one waiting for its turn
 * (READY) or for the copy engine (ENGINE_WAIT) is not stuck while another
 * channel makes progress.
 * Its owner reads the reason with CHAN_STATUS.
 *
 * Return: how many channels it stopped.
 */
unsigned int ppu_chan_watchdog(struct ppu_device *ppu, unsigned int ms)
{
	unsigned long *moved = ppu->wd_moved, *waiting = ppu->wd_waiting;
	unsigned int chid, pass, killed = 0;
	bool leaving = false, any_moved;
	u32 beats;
	bool copying;

	mutex_lock(&ppu->chan_lock);
	/* a copy on the engine progresses while the engine writes beats */
	beats = ppu_read(ppu, PPU_PERF_BASE + PPU_PERF_COPY_BEATS * 8);
	copying = beats != ppu->wd_copy_beats;
	ppu->wd_copy_beats = beats;
	bitmap_zero(moved, ppu->caps.num_channels);
	bitmap_zero(waiting, ppu->caps.num_channels);
	for (chid = 0; chid < ppu->caps.num_channels; chid++) {
		struct ppu_chan *chan = ppu->chans[chid];
		u32 state, get, tasks;

		if (!chan || !chan->file)
			continue;
		/* on its way off the PPU: what waits behind it is not stuck */
		if (chan->dying) {
			leaving = true;
			continue;
		}
		if (chan->wd_killed) {
			if (!chan->wd_settled) {
				ppu_chan_wd_settle(ppu, chan, ms);
				leaving = true;
			}
			continue;
		}
		state = ppu_chan_state(ppu, chid);
		get = ppu_chan_reg(ppu, chid, PPU_CHAN_GP_GET);
		tasks = chan->compute ? ppu_chan_reg(ppu, chid, PPU_CHAN_TASKS) : 0;
		if (ppu_chan_wd_quiet(state) ||
		    ppu_chan_wd_class(state) != ppu_chan_wd_class(chan->wd_state) ||
		    get != chan->wd_get || tasks != chan->wd_tasks || !chan->wd_since ||
		    (state == PPU_CHAN_STATUS_STATE_ENGINE_BUSY && copying)) {
			if (!ppu_chan_wd_quiet(state))
				__set_bit(chid, moved);
			chan->wd_state = state;
			chan->wd_get = get;
			chan->wd_tasks = tasks;
			chan->wd_since = jiffies | 1;
			continue;
		}
		/* report what it waits for (an acquire is briefly READY when re-checked) */
		if (state != PPU_CHAN_STATUS_STATE_READY)
			chan->wd_state = state;
		if (state == PPU_CHAN_STATUS_STATE_READY ||
		    state == PPU_CHAN_STATUS_STATE_ENGINE_WAIT)
			__set_bit(chid, waiting);
	}
	/*
	 * Channels that wait for their turn last: one that waited for the
	 * engine or the host behind a channel stopped now, or one still on its
	 * way off the PPU (destroyed, or stopped earlier), gets a new deadline.
	 */
	any_moved = !bitmap_empty(moved, ppu->caps.num_channels);
	for (pass = 0; pass < 2; pass++) {
		for (chid = 0; chid < ppu->caps.num_channels; chid++) {
			struct ppu_chan *chan = ppu->chans[chid];

			if (!chan || !chan->file || chan->dying || chan->wd_killed ||
			    test_bit(chid, moved) || test_bit(chid, waiting) != pass)
				continue;
			/* (a channel that moved is skipped above: any is another) */
			if (pass && (any_moved || killed || leaving)) {
				chan->wd_since = jiffies | 1;
				continue;
			}
			if (!ppu_chan_wd_quiet(chan->wd_state) &&
			    time_after(jiffies, chan->wd_since + msecs_to_jiffies(ms))) {
				ppu_chan_wd_kill(ppu, chan, ms);
				killed++;
			}
		}
	}
	mutex_unlock(&ppu->chan_lock);
	return killed;
}

static void ppu_chan_fault_record(struct ppu_device *ppu, u32 chid)
{
	struct ppu_fault_rec rec = {
		.time_ns = ktime_get_ns(),
		.chid = chid,
		.info = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_INFO),
		.addr = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_ADDR),
		.data = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_DATA),
	};
	struct ppu_chan *chan;

	/* unbound before we got here (destroyed, or stopped by the driver, which logged why) */
	if (!PPU_FGET(PPU_FAULT_INFO_KIND, rec.info))
		return;
	mutex_lock(&ppu->chan_lock);
	chan = ppu->chans[chid];
	rec.pid = chan ? chan->pid : 0;
	mutex_unlock(&ppu->chan_lock);
	ppu_fault_log(ppu, &rec);
}

static void ppu_chan_fault_work(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(work, struct ppu_device, fault_work);
	unsigned int chid;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return;
	for_each_set_bit(chid, ppu->irq_stats.fault_new, ppu->caps.num_channels)
		if (test_and_clear_bit(chid, ppu->irq_stats.fault_new))
			ppu_chan_fault_record(ppu, chid);
	drm_dev_exit(idx);
}

/* devres action: no fault work runs after remove. */
static void ppu_chan_fault_fini(void *data)
{
	struct ppu_device *ppu = data;

	cancel_work_sync(&ppu->fault_work);
}

/**
 * ppu_chan_fault_init() - the worker that reads and logs channel faults
 * @ppu: the device, before interrupts are enabled
 *
 * The interrupt handler only marks a faulted channel and schedules
 * &ppu_device.fault_work; the worker lives here because its record names
 * the channel's owner.
 *
 * Return: 0 or a negative error code.
 */
int ppu_chan_fault_init(struct ppu_device *ppu)
{
	INIT_WORK(&ppu->fault_work, ppu_chan_fault_work);
	return devm_add_action_or_reset(ppu->drm.dev, ppu_chan_fault_fini, ppu);
}

/**
 * ppu_chan_debugfs_show() - the "channels" debugfs file
 * @ppu: the device
 * @m: the seq_file
 *
 * One line per channel in use: id, owner, priority, the hardware state,
 * GP_GET/GP_PUT as the PPU sees them, whether it is dead, its engine, for
 * a compute channel the task ids it holds (CHAN TASKS), and last, why a
 * dead channel died as "unit/kind" ("-" while it lives).  The reason is
 * on the line so that a reader needs neither the owner's CHAN_STATUS nor
 * the fault log, whose entries age out.
 */
void ppu_chan_debugfs_show(struct ppu_device *ppu, struct seq_file *m)
{
	static const char * const states[] = {
		"unbound", "idle", "ready", "acq_blocked", "engine_wait",
		"engine_busy", "faulted", "loading", "wfi_wait",
	};
	u32 chid;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx)) {
		seq_puts(m, "device gone\n");
		return;
	}
	seq_puts(m, "chid owner    prio state        gp_get   gp_put   dead engine  tasks fault\n");
	mutex_lock(&ppu->chan_lock);
	for (chid = 0; chid < ppu->caps.num_channels; chid++) {
		struct ppu_chan *chan = ppu->chans[chid];
		bool dead;
		u32 state, info;

		if (!chan)
			continue;
		state = ppu_chan_state(ppu, chid);
		dead = ppu_chan_check(ppu, chid, ppu->chan_gen[chid]);
		if (chan->file)
			seq_printf(m, "%4u %-8d", chid, chan->pid);
		else
			seq_printf(m, "%4u %-8s", chid, "kernel");
		seq_printf(m, " %4u %-12s %8u %8u %-4s", chan->priority,
			   state < ARRAY_SIZE(states) ? states[state] : "?",
			   ppu_chan_reg(ppu, chid, PPU_CHAN_GP_GET),
			   ppu_chan_reg(ppu, chid, PPU_CHAN_GP_PUT),
			   dead ? "yes" : "no");
		if (chan->compute)
			seq_printf(m, " compute %5u",
				   ppu_chan_reg(ppu, chid, PPU_CHAN_TASKS));
		else
			seq_printf(m, " copy    %5s", "-");
		if (!dead) {
			seq_puts(m, " -\n");
			continue;
		}
		/* the watchdog's channels report its record, as CHAN_STATUS does */
		if (chan->wd_killed)
			info = PPU_FSET(PPU_FAULT_INFO_KIND, PPU_FAULT_KIND_WATCHDOG) |
			       PPU_FSET(PPU_FAULT_INFO_UNIT, PPU_FAULT_UNIT_DRIVER);
		else
			info = ppu_chan_reg(ppu, chid, PPU_CHAN_FAULT_INFO);
		seq_printf(m, " %s/%s\n", ppu_fault_unit_name(info), ppu_fault_kind_name(info));
	}
	mutex_unlock(&ppu->chan_lock);
	drm_dev_exit(idx);
}
