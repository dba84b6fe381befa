// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU interrupts: one vector (MSI-X, MSI, or legacy INTx), one handler.
 *
 * The PPU's interrupt is a level, INTR_STATUS & INTR_ENABLE, where
 * INTR_STATUS summarises the per-channel W1C bits of FAULT_PENDING and
 * NONSTALL_PENDING.  A message-signalled interrupt is sent when that level
 * rises, so the handler acknowledges until INTR_STATUS reads clear: an
 * event that arrives while it runs is either seen by the next loop or
 * raises the level again after the last read, which sends a new message.
 *
 * The handler runs in hard interrupt context: it only reads and
 * acknowledges registers, counts events, marks faulted channels dead and
 * wakes waiters; reading why a channel faulted is left to the fault worker
 * (ppu_chan.c, which logs it through ppu_fault.c).
 *
 * Lost interrupts.  A message that never arrives (a device or platform
 * fault) would strand every waiter, and since the level then stays high no
 * later event sends another one.  While someone waits (ppu_irq_watch_get():
 * SEM_WAIT, semaphore fences, the local-memory clear) a poll reads
 * INTR_STATUS every PPU_IRQ_POLL_MS; pending bits seen at two polls in a
 * row were not announced, and the poll runs the handler itself (counted
 * in debugfs "interrupts" as recovered).  The same read notices a vanished
 * device (all ones, see ppu_lost()).
 */
#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/ratelimit.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "ppu_device.h"
#include "ppu_irq.h"

/* Rounds of read-and-acknowledge before the handler forces a new edge. */
#define PPU_IRQ_MAX_LOOPS	16
/* How long non-stall interrupts are held off after a storm. */
#define PPU_IRQ_THROTTLE_MS	50
/* Non-stall rounds the rate cap lets through back to back before it bites. */
#define PPU_IRQ_RATE_BURST	32

/*
 * A channel can raise non-stall interrupts as fast as the PPU runs its
 * methods (an AUTO_PUT ring of NON_STALL_INTR pushbuffers never stops), and
 * each one costs the CPU an interrupt entry, the handler's register reads
 * and its wake-ups.  Two caps hold such a storm off, each a token bucket:
 * a count (irq_nonstall_max_rate a second, bursts of PPU_IRQ_RATE_BURST)
 * and the CPU time the handler spends on non-stall rounds
 * (irq_nonstall_max_cpu percent of one CPU, bursts of PPU_IRQ_CPU_BURST_NS).
 * The count alone is the wrong measure where a register read costs a
 * hundred times more on one host than on another (a co-simulated PPU:
 * 20 us to over 1 ms per read, with host load), so the time the handler
 * took is charged as well.  Without a token the handler masks non-stall
 * interrupts until the bucket has refilled: events are never lost (the
 * pending bits stay set and are taken together when the interrupt comes
 * back), waiters just wake up later.
 */
static unsigned int irq_nonstall_max_rate = 500;
module_param(irq_nonstall_max_rate, uint, 0644);
MODULE_PARM_DESC(irq_nonstall_max_rate,
		 "non-stall interrupts taken per second at most, the rest batched (0: no cap)");
static unsigned int irq_nonstall_max_cpu = 25;
module_param(irq_nonstall_max_cpu, uint, 0644);
MODULE_PARM_DESC(irq_nonstall_max_cpu,
		 "percent of one CPU the handler may spend on non-stall interrupts, the rest batched (0 or >= 100: no cap)");
/* Handler time the CPU cap lets through back to back before it bites. */
#define PPU_IRQ_CPU_BURST_NS	(2 * NSEC_PER_MSEC)
/*
 * The longest hold of the CPU cap: a waiter wakes at most this late, and
 * the debt beyond it is forgiven (a slow host's handler round can cost
 * milliseconds; a hold of seconds would look like a lost interrupt).
 */
#define PPU_IRQ_CPU_HOLD_MAX_MS	100
/* Period of the lost-interrupt poll while someone waits. */
#define PPU_IRQ_POLL_MS		20

/*
 * The INTR bit that carries non-stall interrupts: NONSTALL, or EVENT with
 * the event ring (whose fault records also raise EVENT_FAULT, which no
 * hold masks).
 */
static u32 ppu_irq_ns_bit(struct ppu_device *ppu)
{
	return ppu->events ? PPU_FSET(PPU_INTR_EVENT, 1) : PPU_FSET(PPU_INTR_NONSTALL, 1);
}

/* Mask non-stall interrupts; the throttle work unmasks them after @delay. */
static void ppu_irq_hold_nonstall(struct ppu_device *ppu, unsigned long delay)
{
	ppu->irq_stats.ns_held = true;
	ppu_write(ppu, PPU_REG_INTR_ENABLE, 0);
	ppu_write(ppu, PPU_REG_INTR_ENABLE, ppu->intr_mask & ~ppu_irq_ns_bit(ppu));
	mod_delayed_work(system_wq, &ppu->irq_throttle_work, max(delay, 1ul));
}

/*
 * Takes a token for the non-stall round just handled; false (and the wait
 * for the next token in *@delay) when there was none.  Tokens are kept in
 * ns x rate, so one token is NSEC_PER_SEC of them.
 */
static bool ppu_irq_rate_take(struct ppu_irq_stats *stats, unsigned int rate,
			      unsigned long *delay)
{
	const u64 full = (u64)PPU_IRQ_RATE_BURST * NSEC_PER_SEC;
	u64 now = ktime_get_ns();
	u64 dt = min_t(u64, now - stats->ns_last, full);

	stats->ns_last = now;
	stats->ns_tokens = min_t(u64, stats->ns_tokens + dt * rate, full);
	if (stats->ns_tokens >= NSEC_PER_SEC) {
		stats->ns_tokens -= NSEC_PER_SEC;
		return true;
	}
	*delay = nsecs_to_jiffies(div_u64(NSEC_PER_SEC - stats->ns_tokens, rate));
	return false;
}

/*
 * Charges @cost ns of handler time to the CPU cap; false (and how long to
 * hold non-stall interrupts off in *@delay) when the bucket ran dry.  The
 * bucket refills at @pct percent of wall time.
 */
static bool ppu_irq_cpu_take(struct ppu_irq_stats *stats, unsigned int pct, u64 cost,
			     unsigned long *delay)
{
	u64 now = ktime_get_ns();
	u64 dt = min_t(u64, now - stats->cpu_last, PPU_IRQ_CPU_BURST_NS * 100);
	s64 tokens;

	stats->cpu_last = now;
	tokens = min_t(s64, stats->cpu_tokens + div_u64(dt * pct, 100), PPU_IRQ_CPU_BURST_NS);
	tokens -= min_t(u64, cost, PPU_IRQ_CPU_BURST_NS * 100);
	tokens = max_t(s64, tokens, -(s64)(PPU_IRQ_CPU_HOLD_MAX_MS * NSEC_PER_MSEC / 100 * pct));
	stats->cpu_tokens = tokens;
	if (tokens >= 0)
		return true;
	/* (rounded up: a hold shorter than a jiffy would be no hold) */
	*delay = nsecs_to_jiffies(div_u64((u64)-tokens * 100, pct)) + 1;
	return false;
}

/*
 * A fault event of @chid: dead from now on (&ppu_irq_stats.faulted), and
 * logged once by the fault worker even when the event comes twice (a
 * caller that read FAULTED first, ppu_irq_note_fault()).  Returns whether
 * the fault is new.
 */
static bool ppu_irq_mark_dead(struct ppu_device *ppu, u32 chid)
{
	if (test_and_set_bit(chid, ppu->irq_stats.faulted))
		return false;
	set_bit(chid, ppu->irq_stats.fault_new);
	return true;
}

/* A fault event (record or pending bit): counted, and the channel dead. irq_lock held. */
static bool ppu_irq_fault(struct ppu_device *ppu, u32 chid)
{
	atomic64_inc(&ppu->irq_stats.faults[chid]);
	__set_bit(chid, ppu->irq_woken);
	return ppu_irq_mark_dead(ppu, chid);
}

static void ppu_irq_nonstall(struct ppu_device *ppu, u32 chid)
{
	atomic64_inc(&ppu->irq_stats.nonstalls[chid]);
	__set_bit(chid, ppu->irq_woken);
}

/* The owners of the channels seen since the last call; irq_lock held. */
static void ppu_irq_wake_seen(struct ppu_device *ppu)
{
	ppu_device_wake(ppu, ppu->irq_woken);
	bitmap_zero(ppu->irq_woken, ppu->caps.num_channels);
}

/*
 * Takes the event ring's new records, but none of channel @skip (U32_MAX:
 * none), whose id is being reused.  A ring the PPU stopped (a record write
 * failed) is set up again; its waiting events follow.  Sets *@nonstall
 * when a non-stall record was taken.  Returns whether a new fault was.
 * Called with irq_lock held.
 */
static bool ppu_irq_events(struct ppu_device *ppu, u32 skip, bool *nonstall)
{
	u32 size = 1u << ppu->events_log2, get = ppu->events_get, put;
	bool fault = false;

	put = ppu_read(ppu, PPU_REG_EVENT_RING_PUT);
	/* (a record is in memory before PUT passes it) */
	dma_rmb();
	if (put - get > size) {
		/* never: the PPU stops writing when the ring is full */
		dev_warn_ratelimited(&ppu->pdev->dev, "event ring: PUT %u is %u records past GET\n",
				     put, put - get);
		get = put - size;
	}
	for (; get != put; get++) {
		u32 w = le32_to_cpu(READ_ONCE(ppu->events[(get & (size - 1)) *
							  (PPU_EVENT_BYTES / 4)]));
		u32 chid = PPU_FGET(PPU_EVENT_CHID, w);

		if (chid >= ppu->caps.num_channels || chid == skip)
			continue;
		if (PPU_FGET(PPU_EVENT_KIND, w) == PPU_EVENT_KIND_FAULT) {
			fault |= ppu_irq_fault(ppu, chid);
		} else if (PPU_FGET(PPU_EVENT_KIND, w) == PPU_EVENT_KIND_NONSTALL) {
			ppu_irq_nonstall(ppu, chid);
			*nonstall = true;
		}
	}
	ppu->events_get = put;
	ppu_write(ppu, PPU_REG_EVENT_RING_GET, put);

	if (ppu_read(ppu, PPU_REG_EVENT_RING_STATUS) & PPU_FSET(PPU_EVENT_RING_STATUS_ERROR, 1)) {
		dev_warn_ratelimited(&ppu->pdev->dev,
				     "event ring: a record write failed, setting it up again\n");
		ppu->events_get = 0;
		ppu_write(ppu, PPU_REG_EVENT_RING_SIZE,
			  PPU_FSET(PPU_EVENT_RING_SIZE_LOG2, ppu->events_log2));
	}
	return fault;
}

/* The pending register @reg, acknowledged: its channel bits. */
static unsigned long ppu_irq_pending(struct ppu_device *ppu, u32 reg)
{
	u32 bits = ppu_read(ppu, reg) & ppu->pending_mask;

	ppu_write(ppu, reg, bits);
	return bits;
}

/**
 * ppu_irq_drain_events() - take the records already in the event ring
 * @ppu: the device
 * @chid: a channel id about to be reused, unbound at the PPU
 *
 * The PPU drops the events of an unbound channel that it has not written
 * yet, so after this no record of @chid's previous owner is left to come;
 * the ones taken here are dropped.  Other channels' records are handled as
 * the interrupt handler would.  Called with irq_lock held.
 */
void ppu_irq_drain_events(struct ppu_device *ppu, u32 chid)
{
	bool nonstall = false;

	if (!ppu->events)
		return;
	if (ppu_irq_events(ppu, chid, &nonstall))
		schedule_work(&ppu->fault_work);
	ppu_irq_wake_seen(ppu);
}

/**
 * ppu_irq_note_fault() - a channel was read FAULTED before its event came
 * @ppu: the device
 * @chid: the channel, owned by the caller's file (under chan_lock)
 *
 * With the event ring, a fault shows in CHAN_STATUS a record write before
 * its interrupt: whoever reads it first marks the channel dead, so that
 * what its owner does next (a doorbell, a wait) sees the fault as well.
 * The event, when it comes, is counted but not logged again.
 */
void ppu_irq_note_fault(struct ppu_device *ppu, u32 chid)
{
	if (!ppu_irq_mark_dead(ppu, chid))
		return;
	schedule_work(&ppu->fault_work);
	ppu_device_wake_chan(ppu, chid);
	ppu_device_kick_fences(ppu);
}

/* Reads and acknowledges everything pending; called with irq_lock held. */
static irqreturn_t ppu_irq_service(struct ppu_device *ppu)
{
	struct ppu_irq_stats *stats = &ppu->irq_stats;
	unsigned int loops, rate = READ_ONCE(irq_nonstall_max_rate);
	unsigned int pct = READ_ONCE(irq_nonstall_max_cpu);
	unsigned long delay, hold = 0;
	bool cpu_cap = pct && pct < 100;
	bool seen = false, ns_seen = false, slow = false, faulted = false;
	u64 t0 = ktime_get_ns();
	u32 status, mask;

	for (loops = 0; loops < PPU_IRQ_MAX_LOOPS; loops++) {
		unsigned long bits;
		bool nonstall = false;
		u32 chid;

		/* (INTR_STATUS shows held non-stall events too: not ours now) */
		mask = ppu->intr_mask;
		if (READ_ONCE(stats->ns_held))
			mask &= ~ppu_irq_ns_bit(ppu);
		status = ppu_read(ppu, PPU_REG_INTR_STATUS);
		/* All ones: the device is gone (surprise removal). */
		if (status == U32_MAX || !(status & mask))
			break;
		status &= mask;
		/*
		 * With the CPU cap, rounds of slow register reads end sooner:
		 * the cap below holds non-stall events off, and the hold's
		 * write of INTR_ENABLE sends a new message for what is left.
		 */
		if (loops && cpu_cap && ktime_get_ns() - t0 > PPU_IRQ_CPU_BURST_NS) {
			slow = true;
			break;
		}

		/* (held non-stall records come along with a fault's) */
		if (status & (PPU_FSET(PPU_INTR_EVENT, 1) | PPU_FSET(PPU_INTR_EVENT_FAULT, 1)))
			faulted |= ppu_irq_events(ppu, U32_MAX, &nonstall);
		if (status & PPU_FSET(PPU_INTR_FAULT, 1)) {
			bits = ppu_irq_pending(ppu, PPU_REG_FAULT_PENDING);
			for_each_set_bit(chid, &bits, PPU_PENDING_CHANNELS)
				faulted |= ppu_irq_fault(ppu, chid);
		}
		if (status & PPU_FSET(PPU_INTR_NONSTALL, 1)) {
			bits = ppu_irq_pending(ppu, PPU_REG_NONSTALL_PENDING);
			for_each_set_bit(chid, &bits, PPU_PENDING_CHANNELS) {
				ppu_irq_nonstall(ppu, chid);
				nonstall = true;
			}
		}
		seen = true;
		ns_seen |= nonstall;
		if (nonstall && rate && !ppu_irq_rate_take(stats, rate, &delay)) {
			atomic64_inc(&stats->rate_held);
			hold = delay;
			break;
		}
	}

	if (loops == PPU_IRQ_MAX_LOOPS) {
		/*
		 * Still pending after many rounds: an event storm (a channel
		 * can raise non-stall interrupts back to back, e.g. an always
		 * full ring of NON_STALL_INTR methods).  Faults stay enabled;
		 * non-stall interrupts are held off for PPU_IRQ_THROTTLE_MS and
		 * then delivered together (the pending bits are kept), so no
		 * client can keep the CPU in this handler.
		 */
		/* (a console line per storm would cost more than the storm) */
		if (__ratelimit(&ppu->irq_storm_rs))
			dev_warn(&ppu->pdev->dev,
				 "interrupt storm: still pending after %u rounds, non-stall interrupts held for %u ms at a time\n",
				 loops, PPU_IRQ_THROTTLE_MS);
		atomic64_inc(&stats->throttled);
		hold = msecs_to_jiffies(PPU_IRQ_THROTTLE_MS);
	}

	if (!seen)
		return IRQ_NONE;

	/* (charged after the rounds: their register reads are the cost) */
	if (ns_seen && cpu_cap &&
	    !ppu_irq_cpu_take(stats, pct, ktime_get_ns() - t0, &delay)) {
		atomic64_inc(&stats->cpu_held);
		hold = max(hold, delay);
	}
	if (slow)
		hold = max(hold, 1ul);
	if (hold)
		ppu_irq_hold_nonstall(ppu, hold);

	if (faulted)
		schedule_work(&ppu->fault_work);
	atomic64_inc(&stats->handled);
	atomic64_inc(&stats->events);
	ppu_irq_wake_seen(ppu);
	ppu_device_kick_fences(ppu);
	return IRQ_HANDLED;
}

static irqreturn_t ppu_irq_handler(int irq, void *arg)
{
	struct ppu_device *ppu = arg;
	irqreturn_t ret;

	spin_lock(&ppu->irq_lock);
	ret = ppu_irq_service(ppu);
	spin_unlock(&ppu->irq_lock);
	return ret;
}

static void ppu_irq_poll(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(to_delayed_work(work), struct ppu_device,
					      irq_poll_work);
	unsigned long flags;
	irqreturn_t ret;
	u32 status;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return;
	status = ppu_read(ppu, PPU_REG_INTR_STATUS);
	if (ppu_lost(ppu)) {
		drm_dev_exit(idx);
		return;
	}
	/* (non-stall events held by the rate cap are not lost) */
	if (READ_ONCE(ppu->irq_stats.ns_held))
		status &= ~ppu_irq_ns_bit(ppu);
	if (!(status & ppu->intr_mask)) {
		ppu->irq_poll_seen = false;
	} else if (!ppu->irq_poll_seen) {
		/* maybe a message on its way: look again next time */
		ppu->irq_poll_seen = true;
	} else {
		ppu->irq_poll_seen = false;
		spin_lock_irqsave(&ppu->irq_lock, flags);
		ret = ppu_irq_service(ppu);
		spin_unlock_irqrestore(&ppu->irq_lock, flags);
		if (ret == IRQ_HANDLED) {
			atomic64_inc(&ppu->irq_stats.recovered);
			dev_warn_ratelimited(&ppu->pdev->dev,
					     "interrupt lost: pending work found by polling\n");
		}
	}
	drm_dev_exit(idx);
	if (atomic_read(&ppu->irq_watchers))
		schedule_delayed_work(&ppu->irq_poll_work, msecs_to_jiffies(PPU_IRQ_POLL_MS));
}

/**
 * ppu_irq_lost_check() - look for a lost interrupt while nobody waits
 * @ppu: the device
 *
 * An event whose message was lost keeps the interrupt level up, so no
 * later event sends a message either; with waiters the poll above finds
 * it within two rounds, without them the watchdog's rounds (at least once
 * a second) call this to look as well.
 */
void ppu_irq_lost_check(struct ppu_device *ppu)
{
	if (!atomic_read(&ppu->irq_watchers))
		mod_delayed_work(system_wq, &ppu->irq_poll_work, 0);
}

/**
 * ppu_irq_watch_get() - poll for lost interrupts while the caller waits
 * @ppu: the device
 *
 * Pair with ppu_irq_watch_put().
 */
void ppu_irq_watch_get(struct ppu_device *ppu)
{
	if (atomic_inc_return(&ppu->irq_watchers) == 1 && !drm_dev_is_unplugged(&ppu->drm))
		mod_delayed_work(system_wq, &ppu->irq_poll_work,
				 msecs_to_jiffies(PPU_IRQ_POLL_MS));
}

/**
 * ppu_irq_watch_put() - the end of a ppu_irq_watch_get() wait
 * @ppu: the device
 */
void ppu_irq_watch_put(struct ppu_device *ppu)
{
	atomic_dec(&ppu->irq_watchers);
}

/* drmm action: the poll may be queued by a waiter after remove. */
static void ppu_irq_poll_release(struct drm_device *drm, void *data)
{
	struct ppu_device *ppu = data;

	cancel_delayed_work_sync(&ppu->irq_poll_work);
}

/* The storm's hold is over: non-stall interrupts again (pending ones come at once). */
static void ppu_irq_unthrottle(struct work_struct *work)
{
	struct ppu_device *ppu = container_of(to_delayed_work(work), struct ppu_device,
					      irq_throttle_work);
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return;
	WRITE_ONCE(ppu->irq_stats.ns_held, false);
	ppu_write(ppu, PPU_REG_INTR_ENABLE, ppu->intr_mask);
	drm_dev_exit(idx);
}

/* devres action: no interrupt from the PPU after this, before free_irq(). */
static void ppu_irq_fini(void *data)
{
	struct ppu_device *ppu = data;

	ppu_write(ppu, PPU_REG_INTR_ENABLE, 0);
	synchronize_irq(ppu->irq);
	cancel_delayed_work_sync(&ppu->irq_throttle_work);
	ppu_write(ppu, PPU_REG_INTR_ENABLE, 0);
}

/**
 * ppu_irq_early_init() - interrupt state used before the vector exists
 * @ppu: the device
 *
 * Return: 0 or a negative error code.
 */
int ppu_irq_early_init(struct ppu_device *ppu)
{
	spin_lock_init(&ppu->irq_lock);
	INIT_DELAYED_WORK(&ppu->irq_poll_work, ppu_irq_poll);
	return drmm_add_action_or_reset(&ppu->drm, ppu_irq_poll_release, ppu);
}

/**
 * ppu_irq_init() - allocate the vector, install the handler, enable
 * @ppu: the device, after ppu_device_init()
 *
 * Vectors and handler are devres-managed; on remove interrupts are disabled
 * at the PPU before the handler goes.
 *
 * Return: 0 or a negative error code.
 */
int ppu_irq_init(struct ppu_device *ppu)
{
	struct pci_dev *pdev = ppu->pdev;
	struct device *dev = &pdev->dev;
	unsigned long flags = 0;
	const char *name;
	int ret;

	INIT_DELAYED_WORK(&ppu->irq_throttle_work, ppu_irq_unthrottle);
	ratelimit_state_init(&ppu->irq_storm_rs, 60 * HZ, 1);
	/* (with the event ring on, the pending registers stay clear) */
	ppu->intr_mask = ppu->events ?
		PPU_FSET(PPU_INTR_EVENT, 1) | PPU_FSET(PPU_INTR_EVENT_FAULT, 1) :
		PPU_FSET(PPU_INTR_FAULT, 1) | PPU_FSET(PPU_INTR_NONSTALL, 1);

	/* Freed by the managed PCI device (pcim_enable_device()). */
	ret = pci_alloc_irq_vectors(pdev, 1, 1,
				    PCI_IRQ_MSIX | PCI_IRQ_MSI | PCI_IRQ_LEGACY);
	if (ret < 0) {
		dev_err(dev, "no interrupt vector: %d\n", ret);
		return ret;
	}
	if (pdev->msix_enabled) {
		ppu->irq_kind = "MSI-X";
	} else if (pdev->msi_enabled) {
		ppu->irq_kind = "MSI";
	} else {
		ppu->irq_kind = "INTx";
		flags = IRQF_SHARED;
	}

	ppu->irq = pci_irq_vector(pdev, 0);
	if (ppu->irq < 0)
		return ppu->irq;
	/* With several PPUs, /proc/interrupts tells them apart. */
	name = devm_kasprintf(dev, GFP_KERNEL, "%s:%s", dev_driver_string(dev),
			      dev_name(dev));
	if (!name)
		return -ENOMEM;
	ret = devm_request_irq(dev, ppu->irq, ppu_irq_handler, flags, name, ppu);
	if (ret) {
		dev_err(dev, "cannot request interrupt %d: %d\n", ppu->irq, ret);
		return ret;
	}
	ret = devm_add_action_or_reset(dev, ppu_irq_fini, ppu);
	if (ret)
		return ret;

	ppu_write(ppu, PPU_REG_INTR_ENABLE, ppu->intr_mask);
	dev_info(dev, "interrupt %d (%s)\n", ppu->irq, ppu->irq_kind);
	return 0;
}
