// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The channel watchdog.
 *
 * A channel that has work but whose state, GP_GET and task count do not
 * change for watchdog_ms (an acquire nobody releases, a copy that never
 * ends, a kernel that runs too long) is stopped: marked dead (waiters get
 * -EIO, doorbells are refused), unbound on the PPU (which also kills its
 * kernels), logged like a fault, and reported to its owner by CHAN_STATUS
 * as FAULTED with kind WATCHDOG until it is destroyed.  The check runs
 * every quarter of the deadline (at most a second apart), so a stuck
 * channel is stopped between 1 and about 1.25 deadlines after the last
 * progress it showed.
 */
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "ppu_chan.h"
#include "ppu_device.h"
#include "ppu_irq.h"
#include "ppu_watchdog.h"

static unsigned int watchdog_ms = 30000;
module_param(watchdog_ms, uint, 0644);
MODULE_PARM_DESC(watchdog_ms,
		 "Stop a channel that has work but makes no progress for this long, in ms (default 30000; 0: never)");

/*
 * At least this often (and while the watchdog is off, to see it turned
 * on), so that a new watchdog_ms takes effect within a second.
 */
#define PPU_WATCHDOG_IDLE_MS	1000

static void ppu_watchdog_work(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(to_delayed_work(work), struct ppu_device,
					      wd_work);
	unsigned int ms = READ_ONCE(watchdog_ms);
	int idx;

	if (ms && !ppu_lost(ppu) && drm_dev_enter(&ppu->drm, &idx)) {
		ppu_chan_watchdog(ppu, ms);
		drm_dev_exit(idx);
	}
	ppu_irq_lost_check(ppu);
	schedule_delayed_work(&ppu->wd_work,
			      msecs_to_jiffies(ms ? clamp(ms / 4, 20u, PPU_WATCHDOG_IDLE_MS) :
					       PPU_WATCHDOG_IDLE_MS));
}

/* devres action at remove: no check after this. */
static void ppu_watchdog_fini(void *data)
{
	struct ppu_device *ppu = data;

	cancel_delayed_work_sync(&ppu->wd_work);
}

/**
 * ppu_watchdog_init() - start the watchdog of a new device
 * @ppu: the device, with its channels set up
 *
 * Return: 0 or a negative error code.
 */
int ppu_watchdog_init(struct ppu_device *ppu)
{
	INIT_DELAYED_WORK(&ppu->wd_work, ppu_watchdog_work);
	schedule_delayed_work(&ppu->wd_work, msecs_to_jiffies(PPU_WATCHDOG_IDLE_MS));
	return devm_add_action_or_reset(ppu->drm.dev, ppu_watchdog_fini, ppu);
}
