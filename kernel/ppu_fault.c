// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU channel faults.
 *
 * The interrupt handler marks a faulting channel in
 * &ppu_irq_stats.faulted at once, which is all that waiters and doorbells
 * need (the channel is dead from then on).  Reading why it faulted costs
 * three register reads, too slow for hard interrupt context on a
 * co-simulated device, so a work item does it: it logs the fault to the
 * kernel log (rate limited) and keeps the last PPU_FAULT_LOG_SIZE faults for
 * debugfs.  The hardware keeps the fault registers until the channel is
 * unbound, so the owner reads them with DRM_IOCTL_PPU_CHAN_STATUS.
 */
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "ppu_chan.h"
#include "ppu_device.h"
#include "ppu_fault.h"

static void ppu_fault_record(struct ppu_device *ppu, u32 chid)
{
	struct ppu_fault_rec rec = {
		.time_ns = ktime_get_ns(),
		.chid = chid,
		.info = ppu_read(ppu, PPU_CHAN_REG(chid, PPU_CHAN_FAULT_INFO)),
		.addr = ppu_read(ppu, PPU_CHAN_REG(chid, PPU_CHAN_FAULT_ADDR)),
		.data = ppu_read(ppu, PPU_CHAN_REG(chid, PPU_CHAN_FAULT_DATA)),
	};
	struct ppu_chan *chan;

	mutex_lock(&ppu->chan_lock);
	chan = ppu->chans[chid];
	rec.pid = chan ? ppu_chan_pid(chan) : 0;
	mutex_unlock(&ppu->chan_lock);

	spin_lock(&ppu->fault_lock);
	ppu->fault_log[ppu->fault_count % PPU_FAULT_LOG_SIZE] = rec;
	ppu->fault_count++;
	spin_unlock(&ppu->fault_lock);

	dev_warn_ratelimited(ppu->drm.dev,
			     "channel %u (pid %d) faulted: kind %u access %u unit %u addr %#x data %#x\n",
			     chid, rec.pid, PPU_FGET(PPU_FAULT_INFO_KIND, rec.info),
			     PPU_FGET(PPU_FAULT_INFO_ACCESS, rec.info),
			     PPU_FGET(PPU_FAULT_INFO_UNIT, rec.info), rec.addr, rec.data);
}

static void ppu_fault_work(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(work, struct ppu_device, fault_work);
	unsigned long pending = atomic_xchg(&ppu->irq_stats.fault_new, 0);
	unsigned int chid;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return;
	for_each_set_bit(chid, &pending, PPU_MAX_CHANNELS)
		ppu_fault_record(ppu, chid);
	drm_dev_exit(idx);
}

/* devres action: no fault work runs after remove. */
static void ppu_fault_fini(void *data)
{
	struct ppu_device *ppu = data;

	cancel_work_sync(&ppu->fault_work);
}

/**
 * ppu_fault_init() - fault bookkeeping of a new device
 * @ppu: the device, before interrupts are enabled
 *
 * Return: 0 or a negative error code.
 */
int ppu_fault_init(struct ppu_device *ppu)
{
	INIT_WORK(&ppu->fault_work, ppu_fault_work);
	spin_lock_init(&ppu->fault_lock);
	return devm_add_action_or_reset(ppu->drm.dev, ppu_fault_fini, ppu);
}

/**
 * ppu_fault_debugfs_show() - the "faults" debugfs file
 * @ppu: the device
 * @m: the seq_file
 *
 * The number of faults since probe and the most recent ones, oldest first.
 */
void ppu_fault_debugfs_show(struct ppu_device *ppu, struct seq_file *m)
{
	struct ppu_fault_rec log[PPU_FAULT_LOG_SIZE];
	u64 count, first, i;

	spin_lock(&ppu->fault_lock);
	count = ppu->fault_count;
	memcpy(log, ppu->fault_log, sizeof(log));
	spin_unlock(&ppu->fault_lock);

	seq_printf(m, "FAULTS %llu\n", count);
	seq_puts(m, "time_ns          chid pid      kind access unit addr       data\n");
	first = count > PPU_FAULT_LOG_SIZE ? count - PPU_FAULT_LOG_SIZE : 0;
	for (i = first; i < count; i++) {
		const struct ppu_fault_rec *r = &log[i % PPU_FAULT_LOG_SIZE];

		seq_printf(m, "%-16llu %4u %-8d %4u %6u %4u 0x%08x 0x%08x\n", r->time_ns,
			   r->chid, r->pid, PPU_FGET(PPU_FAULT_INFO_KIND, r->info),
			   PPU_FGET(PPU_FAULT_INFO_ACCESS, r->info),
			   PPU_FGET(PPU_FAULT_INFO_UNIT, r->info), r->addr, r->data);
	}
}
