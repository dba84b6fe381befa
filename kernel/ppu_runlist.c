// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Scheduling by runlist (module parameter runlist_sched, or its older name
 * prio_sched, on hardware with CAP_FEATURES.RUNLIST): the driver lists
 * every channel it has, at the channel's priority as the runlist LEVEL,
 * and the PPU runs only listed channels, higher levels first and channels
 * of one level by time slice.  Without it the PPU keeps the time-sliced
 * round robin over all channels that the copy-priority technique is built
 * against.  (The PPU's own priority mode, SCHED_CTRL.PRIO_MODE, ranked by
 * the instance priority; this list is the same ranking, and the only one
 * a scheduler on runlist positions needs.)
 *
 * ppu_chan.c rewrites and submits the list whenever a channel id is taken
 * or given back, under &ppu_device.chan_lock.  One buffer serves every
 * submit: before rewriting it the driver waits until the PPU has read the
 * previous list (RUNLIST_STATUS.PENDING clear), so the PPU never reads a
 * list half old and half new.
 */
#include <linux/dma-mapping.h>
#include <linux/iopoll.h>
#include <linux/module.h>
#include <linux/pci.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "ppu/ppu_encode.h"
#include "ppu/ppu_hw.h"

#include "ppu_device.h"
#include "ppu_runlist.h"

static bool runlist_sched;
module_param(runlist_sched, bool, 0444);
MODULE_PARM_DESC(runlist_sched,
		 "Schedule channels by the driver's runlist: strict priority by channel priority, time slices within a priority (default: off, the time-sliced round robin)");

static bool prio_sched;
module_param(prio_sched, bool, 0444);
MODULE_PARM_DESC(prio_sched, "The same as runlist_sched (its older name)");

/* A list of a few dozen entries is read in microseconds of PPU time. */
#define PPU_RUNLIST_TIMEOUT_US	100000

/**
 * ppu_runlist_init() - set up scheduling by runlist, if asked for
 * @ppu: the device, its channels not yet in use
 *
 * Return: 0 (also when the parameter is off or the hardware has no
 * runlists: the PPU then keeps its round robin), or -ENOMEM.
 */
int ppu_runlist_init(struct ppu_device *ppu)
{
	struct device *dev = &ppu->pdev->dev;

	if (!runlist_sched && !prio_sched)
		return 0;
	if (!PPU_FGET(PPU_CAP_FEATURES_RUNLIST, ppu->caps.features)) {
		dev_warn(dev, "%s: the PPU has no runlists; keeping its round robin\n",
			 runlist_sched ? "runlist_sched" : "prio_sched");
		return 0;
	}
	ppu->runlist = dmam_alloc_coherent(dev, ppu->caps.num_channels * PPU_RUNLIST_ENTRY_BYTES,
					   &ppu->runlist_dma, GFP_KERNEL);
	if (!ppu->runlist)
		return -ENOMEM;
	/* (coherent memory is page aligned: the 8-byte rule holds) */
	ppu_write(ppu, PPU_REG_RUNLIST_LO, lower_32_bits(ppu->runlist_dma));
	ppu_write(ppu, PPU_REG_RUNLIST_HI, ppu_addr_hi(ppu->runlist_dma, 1));
	ppu_runlist_submit(ppu, NULL, NULL);
	return 0;
}

/**
 * ppu_runlist_sched_ctrl() - the SCHED_CTRL bit for scheduling by runlist
 * @ppu: the device
 *
 * Return: SCHED_CTRL.RUNLIST when the driver schedules by runlist, else 0.
 */
u32 ppu_runlist_sched_ctrl(struct ppu_device *ppu)
{
	return ppu->runlist ? PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1) : 0;
}

static u32 ppu_runlist_status(struct ppu_device *ppu)
{
	return ppu_read(ppu, PPU_REG_RUNLIST_STATUS);
}

/**
 * ppu_runlist_submit() - hand the PPU a new list
 * @ppu: the device, under &ppu_device.chan_lock
 * @level: per channel id, its LEVEL (the channel's priority)
 * @listed: bitmap of the channel ids to list (NULL: none)
 *
 * Does nothing without scheduling by runlist, or once the device is gone
 * (its registers are unmapped then; a channel given back after an unplug
 * comes here).
 */
void ppu_runlist_submit(struct ppu_device *ppu, const u8 *level, const unsigned long *listed)
{
	u32 at[PPU_NUM_PRIORITIES] = {};
	u32 chid, n = 0, st, lv;
	int ret, idx;

	if (!ppu->runlist || !drm_dev_enter(&ppu->drm, &idx))
		return;
	if (ppu_lost(ppu))
		goto out;
	ret = readx_poll_timeout(ppu_runlist_status, ppu, st,
				 !PPU_FGET(PPU_RUNLIST_STATUS_PENDING, st), 10,
				 PPU_RUNLIST_TIMEOUT_US);
	if (ret) {
		drm_err(&ppu->drm, "the PPU did not read the runlist (status %#x)\n", st);
		goto out;
	}
	/*
	 * The PPU takes a list in LEVEL order, highest first, each channel
	 * once: count the channels per level, then place each level's in id
	 * order (the ring order the scheduler keeps within a level).
	 */
	for (chid = 0; listed && chid < ppu->caps.num_channels; chid++)
		if (test_bit(chid, listed))
			at[min_t(u32, level[chid], PPU_NUM_PRIORITIES - 1)]++;
	for (lv = PPU_NUM_PRIORITIES; lv-- > 0;) {
		u32 k = at[lv];

		at[lv] = n;
		n += k;
	}
	for (chid = 0; listed && chid < ppu->caps.num_channels; chid++)
		if (test_bit(chid, listed)) {
			lv = min_t(u32, level[chid], PPU_NUM_PRIORITIES - 1);
			ppu->runlist[at[lv]++] = cpu_to_le32(PPU_FSET(PPU_RUNLIST_ENTRY_CHID, chid) |
							     PPU_FSET(PPU_RUNLIST_ENTRY_LEVEL, lv));
		}
	/* the entries are in memory before the PPU is told to read them */
	dma_wmb();
	ppu_write(ppu, PPU_REG_RUNLIST_SUBMIT, PPU_FSET(PPU_RUNLIST_SUBMIT_COUNT, n));
out:
	drm_dev_exit(idx);
}
