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
 * A compute channel whose kernels cannot be killed (a unit waits on an
 * access that never completes, so its CTAs never reach the point where a
 * kill takes them) is let go the same way: ENGINE_CTRL.COMPUTE_RESET makes
 * the compute engine wait for the answers to the accesses it has made and
 * then drop every task it holds.  Its state is all tasks, so the work lost
 * is every task on it: each channel that held one is faulted ENGINE_RESET
 * by the PPU, and its owner sees -EIO like any fault.  Copy channels and
 * compute channels without tasks go on untouched.
 *
 * Resets are serialised by reset_lock; callers may hold chan_lock.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "ppu_device.h"
#include "ppu_fault.h"
#include "ppu_reset.h"

/* The engine drains what is on the memory port: well under this. */
#define PPU_RESET_TIMEOUT_MS	1000

/* What ENGINE_CTRL holds for each engine, and what its reset reports. */
static const struct ppu_reset_desc {
	const char *name;
	u32 cap;	/* CAP_FEATURES bit */
	u32 reset;	/* ENGINE_CTRL bits */
	u32 halt;
	u32 unit;	/* FAULT_INFO.UNIT of the logged fault */
	u32 access;
} ppu_reset_desc[PPU_ENGINE_COUNT] = {
	[PPU_ENGINE_COPY] = {
		.name = "copy",
		.cap = PPU_FMASK(PPU_CAP_FEATURES_ENGINE_RESET),
		.reset = PPU_FMASK(PPU_ENGINE_CTRL_COPY_RESET),
		.halt = PPU_FMASK(PPU_ENGINE_CTRL_COPY_HALT),
		.unit = PPU_FAULT_UNIT_COPY_DST,
		.access = PPU_FAULT_ACCESS_WRITE,
	},
	[PPU_ENGINE_COMPUTE] = {
		.name = "compute",
		.cap = PPU_FMASK(PPU_CAP_FEATURES_COMPUTE_RESET),
		.reset = PPU_FMASK(PPU_ENGINE_CTRL_COMPUTE_RESET),
		.halt = PPU_FMASK(PPU_ENGINE_CTRL_COMPUTE_HALT),
		.unit = PPU_FAULT_UNIT_COMPUTE,
		.access = PPU_FAULT_ACCESS_READ,
	},
};

/**
 * ppu_reset_supported() - whether the PPU can reset one of its engines
 * @ppu: the device
 * @eng: the engine
 *
 * Return: true with its CAP_FEATURES bit (ENGINE_RESET, COMPUTE_RESET).
 */
bool ppu_reset_supported(struct ppu_device *ppu, enum ppu_engine eng)
{
	return ppu->caps.features & ppu_reset_desc[eng].cap;
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

/* Every write sets both halt bits: keep the other engine's. (reset_lock) */
static u32 ppu_reset_halts(struct ppu_device *ppu, u32 keep)
{
	return ppu_read(ppu, PPU_REG_ENGINE_CTRL) & keep;
}

/**
 * ppu_reset_engine() - reset an engine and wait until it is idle again
 * @ppu: the device, inside drm_dev_enter()
 * @eng: the engine
 * @chid: the channel whose work would not end, for the log (U32_MAX: none
 *        known; faults then reach the log through their interrupt)
 * @pid: its owner, for the log
 *
 * The copy engine drops the copy it runs (a fault of its channel); the
 * compute engine drops every task and CTA it holds (a fault of each
 * channel that held one).  Nothing else is reset.
 *
 * Return: 0, -EOPNOTSUPP without the feature, -ENODEV when the device is
 * gone, or -ETIMEDOUT when the engine did not come back (it then stays out
 * of use: the PPU needs a reset of the whole device).
 */
int ppu_reset_engine(struct ppu_device *ppu, enum ppu_engine eng, u32 chid, pid_t pid)
{
	const struct ppu_reset_desc *d = &ppu_reset_desc[eng];
	struct ppu_reset_stats *st = &ppu->reset_stats[eng];
	unsigned long timeout;
	int ret = 0;
	u64 c0, t0;

	if (!ppu_reset_supported(ppu, eng))
		return -EOPNOTSUPP;
	mutex_lock(&ppu->reset_lock);

	drm_warn(&ppu->drm, "channel %u: its work does not end, resetting the %s engine\n",
		 chid, d->name);
	t0 = ktime_get_ns();
	c0 = ppu_reset_cycles(ppu);
	ppu_write(ppu, PPU_REG_ENGINE_CTRL,
		  d->reset | ppu_reset_halts(ppu, ppu_reset_desc[!eng].halt));
	timeout = jiffies + msecs_to_jiffies(PPU_RESET_TIMEOUT_MS);
	for (;;) {
		u32 v = ppu_read(ppu, PPU_REG_ENGINE_CTRL);

		/* (all ones: the device is gone, nothing left to reset) */
		if (v == U32_MAX) {
			ret = -ENODEV;
			goto out;
		}
		if (!(v & d->reset))
			break;
		if (time_after(jiffies, timeout)) {
			st->failed++;
			drm_err(&ppu->drm, "%s engine not idle %u ms after its reset\n", d->name,
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
				PPU_FSET(PPU_FAULT_INFO_ACCESS, d->access) |
				PPU_FSET(PPU_FAULT_INFO_UNIT, d->unit),
		};

		ppu_fault_log(ppu, &rec);
	}
out:
	mutex_unlock(&ppu->reset_lock);
	return ret;
}

/**
 * ppu_reset_halt_get() - an engine's debug halt (ENGINE_CTRL *_HALT)
 * @ppu: the device
 * @eng: the engine
 * @val: 1 while halted
 *
 * Return: 0 or -ENODEV.
 */
int ppu_reset_halt_get(struct ppu_device *ppu, enum ppu_engine eng, u64 *val)
{
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	*val = !!(ppu_read(ppu, PPU_REG_ENGINE_CTRL) & ppu_reset_desc[eng].halt);
	drm_dev_exit(idx);
	return 0;
}

/**
 * ppu_reset_halt_set() - halt an engine as if wedged, or let it go on
 * @ppu: the device
 * @eng: the engine
 * @val: 1 to halt, 0 to let it go
 *
 * For tests of the recovery paths (debugfs, root only).
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP or -ENODEV.
 */
int ppu_reset_halt_set(struct ppu_device *ppu, enum ppu_engine eng, u64 val)
{
	const struct ppu_reset_desc *d = &ppu_reset_desc[eng];
	int idx;

	if (!ppu_reset_supported(ppu, eng))
		return -EOPNOTSUPP;
	if (val > 1)
		return -EINVAL;
	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	mutex_lock(&ppu->reset_lock);
	ppu_write(ppu, PPU_REG_ENGINE_CTRL,
		  (val ? d->halt : 0) | ppu_reset_halts(ppu, ppu_reset_desc[!eng].halt));
	mutex_unlock(&ppu->reset_lock);
	drm_dev_exit(idx);
	return 0;
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
	struct ppu_reset_stats st[PPU_ENGINE_COUNT];
	static const char *const key[PPU_ENGINE_COUNT] = { "COPY", "COMPUTE" };
	int e;

	mutex_lock(&ppu->reset_lock);
	memcpy(st, ppu->reset_stats, sizeof(st));
	mutex_unlock(&ppu->reset_lock);
	for (e = 0; e < PPU_ENGINE_COUNT; e++) {
		seq_printf(m, "%s_RESET_SUPPORTED %u\n", key[e], ppu_reset_supported(ppu, e));
		seq_printf(m, "%s_RESETS %u\n", key[e], st[e].count);
		seq_printf(m, "%s_RESETS_FAILED %u\n", key[e], st[e].failed);
		seq_printf(m, "%s_LAST_RESET_CYCLES %llu\n", key[e], st[e].last_cycles);
		seq_printf(m, "%s_LAST_RESET_US %llu\n", key[e], st[e].last_us);
	}
}
