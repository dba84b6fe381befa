// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Engine recovery.
 *
 * A channel that will not leave the PPU because its copy never ends (the
 * engine is wedged: it issues nothing and finishes nothing) would keep its
 * id, its memory and the engine for ever, and every channel behind it would
 * wait.  ENGINE_CTRL.COPY_RESET makes the copy engine drop the copy it is
 * running: it takes the responses of the accesses already on the memory
 * port, issues nothing more and ends the copy with an ENGINE_RESET fault of
 * the channel that owned it.  Nothing else is reset: the host keeps every
 * channel's state, so the other channels' work goes on where it was, and
 * the only work lost is the dropped copy, whose owner sees the fault
 * (-EIO, CHAN_STATUS), never silence.
 *
 * Resets are serialised by reset_lock; callers may hold chan_lock.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>

#include <drm/drm_print.h>

#include "ppu_device.h"
#include "ppu_fault.h"
#include "ppu_reset.h"

/* The engine drains what is on the memory port: well under this. */
#define PPU_RESET_TIMEOUT_MS	1000

/**
 * ppu_reset_supported() - whether the PPU can reset its copy engine
 * @ppu: the device
 *
 * Return: true with CAP_FEATURES.ENGINE_RESET.
 */
bool ppu_reset_supported(struct ppu_device *ppu)
{
	return PPU_FGET(PPU_CAP_FEATURES_ENGINE_RESET, ppu->caps.features);
}

static u64 ppu_reset_cycles(struct ppu_device *ppu)
{
	u32 hi, lo;

	do {
		hi = ppu_read(ppu, PPU_REG_CYCLE_HI);
		lo = ppu_read(ppu, PPU_REG_CYCLE_LO);
	} while (hi != ppu_read(ppu, PPU_REG_CYCLE_HI));
	return (u64)hi << 32 | lo;
}

/**
 * ppu_reset_copy() - reset the copy engine and wait until it is idle
 * @ppu: the device, inside drm_dev_enter()
 * @chid: the channel whose copy would not end, for the log (U32_MAX: none
 *        known; the fault then reaches the log through its interrupt)
 * @pid: its owner, for the log
 *
 * Return: 0, -EOPNOTSUPP without the feature, or -ETIMEDOUT when the
 * engine did not come back (it then stays out of use: the PPU needs a
 * reset of the whole device).
 */
int ppu_reset_copy(struct ppu_device *ppu, u32 chid, pid_t pid)
{
	struct ppu_reset_stats *st = &ppu->reset_stats;
	unsigned long timeout;
	int ret = 0;
	u64 c0, t0;

	if (!ppu_reset_supported(ppu))
		return -EOPNOTSUPP;
	mutex_lock(&ppu->reset_lock);

	drm_warn(&ppu->drm, "channel %u: its copy does not end, resetting the copy engine\n",
		 chid);
	t0 = ktime_get_ns();
	c0 = ppu_reset_cycles(ppu);
	ppu_write(ppu, PPU_REG_ENGINE_CTRL, PPU_FSET(PPU_ENGINE_CTRL_COPY_RESET, 1));
	timeout = jiffies + msecs_to_jiffies(PPU_RESET_TIMEOUT_MS);
	for (;;) {
		u32 v = ppu_read(ppu, PPU_REG_ENGINE_CTRL);

		/* (all ones: the device is gone, nothing left to reset) */
		if (v == U32_MAX) {
			ret = -ENODEV;
			goto out;
		}
		if (!PPU_FGET(PPU_ENGINE_CTRL_COPY_RESET, v))
			break;
		if (time_after(jiffies, timeout)) {
			st->failed++;
			drm_err(&ppu->drm, "copy engine not idle %u ms after its reset\n",
				PPU_RESET_TIMEOUT_MS);
			ret = -ETIMEDOUT;
			goto out;
		}
		usleep_range(50, 100);
	}
	st->last_cycles = ppu_reset_cycles(ppu) - c0;
	st->last_us = div_u64(ktime_get_ns() - t0, NSEC_PER_USEC);
	st->count++;
	/* the channel is on its way off the PPU: its fault may be gone before the worker reads it */
	if (chid < ppu->caps.num_channels) {
		struct ppu_fault_rec rec = {
			.time_ns = ktime_get_ns(),
			.chid = chid,
			.pid = pid,
			.info = PPU_FSET(PPU_FAULT_INFO_KIND, PPU_FAULT_KIND_ENGINE_RESET) |
				PPU_FSET(PPU_FAULT_INFO_ACCESS, PPU_FAULT_ACCESS_WRITE) |
				PPU_FSET(PPU_FAULT_INFO_UNIT, PPU_FAULT_UNIT_COPY_DST),
		};

		ppu_fault_log(ppu, &rec);
	}
out:
	mutex_unlock(&ppu->reset_lock);
	return ret;
}

/**
 * ppu_reset_init() - engine recovery state of a new device
 * @ppu: the device
 */
void ppu_reset_init(struct ppu_device *ppu)
{
	mutex_init(&ppu->reset_lock);
}

/**
 * ppu_reset_debugfs_show() - engine resets in the "engine" debugfs file
 * @ppu: the device
 * @m: the seq_file
 */
void ppu_reset_debugfs_show(struct ppu_device *ppu, struct seq_file *m)
{
	struct ppu_reset_stats st;

	mutex_lock(&ppu->reset_lock);
	st = ppu->reset_stats;
	mutex_unlock(&ppu->reset_lock);
	seq_printf(m, "%-24s %u\n", "RESET_SUPPORTED", ppu_reset_supported(ppu));
	seq_printf(m, "%-24s %u\n", "COPY_RESETS", st.count);
	seq_printf(m, "%-24s %u\n", "COPY_RESETS_FAILED", st.failed);
	seq_printf(m, "%-24s %llu\n", "LAST_RESET_CYCLES", st.last_cycles);
	seq_printf(m, "%-24s %llu\n", "LAST_RESET_US", st.last_us);
}
