/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * PPU device state and register access.
 */
#ifndef __PPU_DEVICE_H__
#define __PPU_DEVICE_H__

#include <linux/atomic.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ratelimit_types.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_mm.h>

#include "ppu/ppu_hw.h"

struct pci_dev;
struct ppu_chan;
struct ppu_client;
struct ppu_kchan;
struct ppu_vm;

/*
 * Channel ids are CHID_BITS wide wherever they cross the PPU's interfaces;
 * the pending registers name the first PENDING_CHANNELS (ppu_regs.def).
 */
#define PPU_MAX_CHANNELS	(1u << PPU_CHID_BITS)

/**
 * struct ppu_caps - what the hardware reports about itself
 * @id: ID register (PPU_ID_VALUE)
 * @version: VERSION register, major 31:16, minor 15:0
 * @num_channels: CAP_NUM_CHANNELS, 1..PPU_MAX_CHANNELS
 * @num_cu: CAP_NUM_CU (0: no compute engine)
 * @num_task_slots: CAP_NUM_TASK_SLOTS
 * @num_priorities: CAP_NUM_PRIORITIES
 * @copy_chunk_bytes: CAP_COPY_CHUNK_BYTES
 * @mem_data_bytes: CAP_MEM_DATA_BYTES, one memory beat
 * @tlb_entries: CAP_TLB_ENTRIES
 * @copy_max_reads: CAP_COPY_MAX_READS, copy reads in flight
 * @pb_prefetch_beats: CAP_PB_PREFETCH_BEATS
 * @features: CAP_FEATURES, PPU_CAP_FEATURES_* bits
 * @local_mem_mib: CAP_LOCAL_MEM_MIB, local memory in MiB (0: none)
 * @cu_contexts: CAP_CU_CONTEXTS, thread contexts per compute unit
 * @num_tasks: CAP_NUM_TASKS, hardware task ids
 * @max_cta_threads: CAP_MAX_CTA_THREADS
 * @icache_bytes: CAP_ICACHE_BYTES, per compute unit
 * @chan_cache: CAP_CHAN_CACHE, channels whose host context is on chip
 *
 * The compute capabilities are 0 without a compute engine; the driver
 * clears PPU_CAP_FEATURES_COMPUTE_ENGINE in @features when they do not
 * describe a usable one.
 *
 * Read once at probe; constant while the device is bound, so readers need
 * no lock.
 */
struct ppu_caps {
	u32 id;
	u32 version;
	u32 num_channels;
	u32 num_cu;
	u32 num_task_slots;
	u32 num_priorities;
	u32 copy_chunk_bytes;
	u32 mem_data_bytes;
	u32 tlb_entries;
	u32 copy_max_reads;
	u32 pb_prefetch_beats;
	u32 features;
	u32 local_mem_mib;
	u32 cu_contexts;
	u32 num_tasks;
	u32 max_cta_threads;
	u32 icache_bytes;
	u32 chan_cache;
};

/**
 * struct ppu_irq_stats - interrupt bookkeeping
 *
 * Written only by the interrupt handler (never reentered for one device);
 * read locklessly by debugfs and by waiters, hence atomics.
 */
struct ppu_irq_stats {
	/** @handled: interrupts that found pending work. */
	atomic64_t handled;
	/** @events: incremented after each batch of events, for waiters. */
	atomic64_t events;
	/** @faults: fault events seen (pending bits or records), per channel. */
	atomic64_t *faults;
	/** @nonstalls: non-stall events seen, per channel. */
	atomic64_t *nonstalls;
	/**
	 * @faulted: bitmap of the channels in the FAULTED state: set by the
	 * handler (or by whoever reads FAULTED first, ppu_irq_note_fault()),
	 * cleared when the channel id is unbound (destroyed or reused).
	 */
	unsigned long *faulted;
	/** @fault_new: bitmap of the faults the fault worker has not logged yet. */
	unsigned long *fault_new;
	/** @throttled: interrupt storms that held non-stall interrupts off. */
	atomic64_t throttled;
	/** @rate_held: times the non-stall rate cap held interrupts off. */
	atomic64_t rate_held;
	/* The handler's own (one vector, never concurrent with itself): */
	/** @ns_last: when the rate cap last took a token (ktime ns). */
	u64 ns_last;
	/** @ns_tokens: the rate cap's bucket, in ns x rate. */
	u64 ns_tokens;
	/** @cpu_held: times the non-stall CPU cap held interrupts off. */
	atomic64_t cpu_held;
	/** @cpu_last: when the CPU cap was last charged (ktime ns). */
	u64 cpu_last;
	/** @cpu_tokens: the CPU cap's bucket, in ns of handler time. */
	s64 cpu_tokens;
	/** @ns_held: non-stall interrupts are off until the throttle work runs. */
	bool ns_held;
	/**
	 * @recovered: pending interrupts found by the poll (ppu_irq.c) that no
	 * message had announced: lost interrupts.
	 */
	atomic64_t recovered;
};

/**
 * enum ppu_engine - the engines ENGINE_CTRL resets and halts
 * @PPU_ENGINE_COPY: the copy engine
 * @PPU_ENGINE_COMPUTE: the compute engine (task table and units)
 * @PPU_ENGINE_COUNT: how many
 */
enum ppu_engine {
	PPU_ENGINE_COPY,
	PPU_ENGINE_COMPUTE,
	PPU_ENGINE_COUNT,
};

/**
 * struct ppu_reset_stats - resets of one engine since probe, for debugfs and bench
 * @count: resets that completed
 * @failed: resets after which the engine did not come back
 * @last_cycles: device cycles the last reset took (write to idle)
 * @last_us: wall time the last reset took, in microseconds
 */
struct ppu_reset_stats {
	u32 count;
	u32 failed;
	u64 last_cycles;
	u64 last_us;
};

/* Bits of &ppu_device.flags. */
enum ppu_device_flag {
	/* The device stopped answering (all ones): never touch it again. */
	PPU_FLAG_LOST,
	/* remove() has begun: the lost worker leaves the unplug to it. */
	PPU_FLAG_REMOVING,
};

/* Faults kept for debugfs, the most recent ones. */
#define PPU_FAULT_LOG_SIZE	16

/**
 * struct ppu_fault_rec - one logged channel fault
 * @time_ns: when the worker read it (ktime_get_ns())
 * @chid: the channel
 * @pid: the owner's process (0 for the driver's own channel)
 * @info: FAULT_INFO (kind, access, unit)
 * @addr: FAULT_ADDR
 * @data: FAULT_DATA
 */
struct ppu_fault_rec {
	u64 time_ns;
	u32 chid;
	pid_t pid;
	u32 info;
	u32 addr;
	u32 data;
};

/**
 * struct ppu_device - one bound PPU
 * @drm: the DRM device; its lifetime (drmm) is the lifetime of this struct
 * @pdev: the PCI function
 * @regs: BAR0, the register file (devres-managed mapping)
 * @caps: capabilities, constant after probe
 * @pending_mask: the bits of FAULT_PENDING and NONSTALL_PENDING that name
 *                a channel the hardware has
 * @intr_mask: the INTR_ENABLE value the driver runs with
 * @chan_table: the channel table, in DMA-coherent host memory
 * @chan_table_dma: its bus address, programmed into CHAN_TABLE_LO/HI
 * @chan_table_size: its size in bytes
 * @runlist: the runlist (ppu_runlist.c), DMA-coherent host memory; NULL
 *           when the driver does not schedule by runlist
 * @runlist_dma: its bus address
 * @events: the event ring (CAP_FEATURES.EVENT_RING), DMA-coherent host
 *          memory the PPU writes fault and non-stall records into; NULL
 *          when the driver reads the pending registers instead
 * @events_dma: its bus address
 * @events_log2: its size, log2 of the records
 * @events_get: records consumed (EVENT_RING_GET); under @irq_lock
 * @irq: the Linux interrupt number in use
 * @irq_kind: "MSI-X", "MSI" or "INTx", for debugfs
 * @irq_stats: what the interrupt handler saw
 * @irq_throttle_work: re-enables non-stall interrupts after a storm
 * @irq_storm_rs: limits the storm warning, per device so that one PPU's
 *	storm does not hide another's
 * @event_wq: the driver's own waiters (its channel's events, faults, loss)
 * @chan_wq: per channel id, the wait queue of the file that owns it (the
 *           driver's own channel: @event_wq), so that a channel's events
 *           wake only its owner's waiters; set and cleared under
 *           @chan_lock, read under RCU by the interrupt handler
 * @irq_woken: scratch bitmap of the channels whose owners the interrupt
 *             handler wakes; under @irq_lock
 * @chan_lock: serialises channel creation, destruction and use of @chans
 * @chan_sel_lock: serialises users of the selected channel window
 *                 (CHAN_SEL), so that a select and the read after it are
 *                 not interleaved with another reader's
 * @chans: the channel using each hardware id, NULL when free
 * @chan_gen: bumped whenever an id is taken or given back, so that a
 *            waiter can tell its channel from a later one on the same id
 * @runlist_level: scratch, per channel id its runlist LEVEL; under @chan_lock
 * @runlist_listed: scratch bitmap, the ids to list; under @chan_lock
 * @wd_moved: scratch bitmap of the watchdog's round; under @chan_lock
 * @wd_waiting: scratch bitmap of the watchdog's round; under @chan_lock
 * @dbg_lock: serialises users of the select-register debug windows
 *            (TASK_DBG_SEL, CU_DBG_SEL) so that a select and the reads
 *            after it are not interleaved with another reader's
 * @inv_lock: serialises MMU invalidates with their handshake, so that each
 *            waits only for what was translated before its own
 * @fault_work: logs faults outside the interrupt handler
 * @fault_lock: protects @fault_log and @fault_count
 * @fault_log: ring of the last PPU_FAULT_LOG_SIZE faults
 * @fault_count: faults logged since probe
 * @users_lock: protects @users (taken where the last BO of a user may be
 *              freed, so a spinlock)
 * @users: the &struct ppu_user of every user with an open file or a BO
 *         left (ppu_quota.c)
 * @lmem_lock: protects @lmem_mm, @lmem_dirty and the two counters below
 * @lmem_mm: allocator of local memory for local BOs
 * @lmem_dirty: one bit per page of local memory: set where the page may
 *              hold data (at probe: all of it; ppu_lmem.c)
 * @lmem_cleared: bytes the copy engine zeroed for new local BOs
 * @lmem_clean: bytes of new local BOs that were still zero (no clear)
 * @lmem_size: bytes of local memory the allocator manages (0: none)
 * @kchan: the driver's own channel (clears local memory); NULL without
 *         local memory
 * @fence_lock: protects @fences (process context only: each fence has its
 *              own spinlock for the dma_fence core)
 * @fences: semaphore fences not yet signalled
 * @fence_work: checks @fences; runs after interrupts and while any is pending
 * @wd_work: the channel watchdog (ppu_watchdog.c)
 * @wd_copy_beats: PERF COPY_BEATS (low word) at its last check, under @chan_lock
 * @reset_lock: serialises engine resets (ppu_reset.c), protects @reset_stats
 * @reset_stats: engine resets
 * @flags: PPU_FLAG_* bits
 * @lost_work: unplugs the DRM device once the PPU is found lost
 * @irq_lock: serialises the interrupt handler with its poll, and both with
 *            a new channel's clearing of its id's fault state
 * @irq_poll_work: looks for interrupts that never arrived, while watched
 * @irq_watchers: waiters that want @irq_poll_work to run
 * @irq_poll_seen: INTR_STATUS was pending at the poll before
 */
struct ppu_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	void __iomem *regs;
	struct ppu_caps caps;
	u32 pending_mask;
	u32 intr_mask;

	u32 *chan_table;
	dma_addr_t chan_table_dma;
	size_t chan_table_size;
	__le32 *runlist;
	dma_addr_t runlist_dma;
	__le32 *events;
	dma_addr_t events_dma;
	u32 events_log2;
	u32 events_get;

	int irq;
	const char *irq_kind;
	struct ppu_irq_stats irq_stats;
	struct delayed_work irq_throttle_work;
	struct ratelimit_state irq_storm_rs;
	wait_queue_head_t event_wq;
	wait_queue_head_t __rcu **chan_wq;
	unsigned long *irq_woken;

	struct mutex chan_lock;
	struct mutex chan_sel_lock;
	struct ppu_chan **chans;
	u32 *chan_gen;
	u8 *runlist_level;
	unsigned long *runlist_listed;
	unsigned long *wd_moved;
	unsigned long *wd_waiting;

	struct mutex dbg_lock;
	struct mutex inv_lock;

	struct work_struct fault_work;
	spinlock_t fault_lock;
	struct ppu_fault_rec fault_log[PPU_FAULT_LOG_SIZE];
	u64 fault_count;

	spinlock_t users_lock;
	struct list_head users;

	struct mutex lmem_lock;
	struct drm_mm lmem_mm;
	unsigned long *lmem_dirty;
	u64 lmem_cleared;
	u64 lmem_clean;
	u64 lmem_size;
	struct ppu_kchan *kchan;

	struct mutex fence_lock;
	struct list_head fences;
	struct delayed_work fence_work;
	struct delayed_work wd_work;
	u32 wd_copy_beats;
	struct mutex reset_lock;
	struct ppu_reset_stats reset_stats[PPU_ENGINE_COUNT];

	unsigned long flags;
	struct work_struct lost_work;
	spinlock_t irq_lock;
	struct delayed_work irq_poll_work;
	atomic_t irq_watchers;
	bool irq_poll_seen;
};

/**
 * struct ppu_file - per open file state (&drm_file.driver_priv)
 * @vm: the file's GPU address space
 * @pt_root: bus address of its Sv32 root table (4 KiB aligned, host RAM:
 *           system aperture), for the PT_ROOT word of this file's channels
 * @client: what the file has created, for its limits (ppu_quota.h)
 * @pools_lock: protects @pools and @npools
 * @pools: the file's semaphore pools by id
 * @npools: how many, including ones being created
 * @vm_kept: a channel of the file could not be taken off the PPU, which may
 *           still walk @vm: at close the address space is kept (leaked),
 *           never freed
 * @event_wq: the file's waiters, woken by its channels' events
 *            (&ppu_device.chan_wq points here)
 * @rcu: frees the struct after the interrupt handler can no longer be
 *       waking @event_wq
 */
struct ppu_file {
	struct ppu_vm *vm;
	dma_addr_t pt_root;
	struct ppu_client *client;
	struct mutex pools_lock;
	struct xarray pools;
	u32 npools;
	bool vm_kept;
	wait_queue_head_t event_wq;
	struct rcu_head rcu;
};

static inline struct ppu_device *to_ppu(struct drm_device *drm)
{
	return container_of(drm, struct ppu_device, drm);
}

/**
 * ppu_lost() - whether the PPU has stopped answering
 * @ppu: the device
 *
 * Set once a read returned all ones and the ID register did too (a
 * surprise removal, a PCIe link loss).  From then on register reads return
 * all ones and writes are dropped without touching the bus, waits fail
 * with -ENODEV, and the DRM device is unplugged (asynchronously).
 */
static inline bool ppu_lost(const struct ppu_device *ppu)
{
	return test_bit(PPU_FLAG_LOST, &ppu->flags);
}

/**
 * ppu_device_user_channels() - how many ids user channels may take
 * @ppu: the device
 *
 * The driver's own channel (only with local memory) has the highest id.
 *
 * Return: the hardware's channels minus the driver's own.
 */
static inline u32 ppu_device_user_channels(const struct ppu_device *ppu)
{
	return ppu->caps.num_channels - (ppu->caps.local_mem_mib ? 1 : 0);
}

void ppu_device_check_lost(struct ppu_device *ppu, u32 reg);

/*
 * Register accessors.  All ones is what a read of a vanished device
 * returns: such a read is checked against the ID register, which can never
 * read all ones on a live PPU.
 */
static inline u32 ppu_read(struct ppu_device *ppu, u32 reg)
{
	u32 v;

	if (unlikely(ppu_lost(ppu)))
		return U32_MAX;
	v = readl(ppu->regs + reg);
	if (unlikely(v == U32_MAX))
		ppu_device_check_lost(ppu, reg);
	return v;
}

static inline void ppu_write(struct ppu_device *ppu, u32 reg, u32 val)
{
	if (unlikely(ppu_lost(ppu)))
		return;
	writel(val, ppu->regs + reg);
}

u64 ppu_read64(struct ppu_device *ppu, u32 reg_lo, u32 reg_hi);

int ppu_device_early_init(struct ppu_device *ppu);
int ppu_device_init(struct ppu_device *ppu);
void ppu_device_stop(struct ppu_device *ppu);
int ppu_device_read_cycles(struct ppu_device *ppu, u64 *cycles);
void ppu_device_wake(struct ppu_device *ppu, const unsigned long *chans);
void ppu_device_wake_chan(struct ppu_device *ppu, u32 chid);
void ppu_device_wake_all(struct ppu_device *ppu);
void ppu_device_kick_fences(struct ppu_device *ppu);

#endif /* __PPU_DEVICE_H__ */
