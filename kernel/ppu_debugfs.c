// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU debugfs: /sys/kernel/debug/dri/<minor>/{regs,counters,interrupts,
 * channels,faults,local_mem,tasks,cu,engine} to read, doorbell and
 * copy_reset and compute_reset to write, release_hold, task_ctrl, copy_halt
 * and compute_halt to set.
 *
 * regs, counters and interrupts have one "NAME value" pair per line, so
 * that scripts and tests can parse them; channels, faults, tasks and cu
 * are tables with a header line.  tasks and cu read the task table and
 * the compute units through their select windows (TASK_DBG_SEL,
 * CU_DBG_SEL) under &ppu_device.dbg_lock; on a device without compute
 * they print the header only.
 * Every register is read live (reads have no side effects on the PPU);
 * once the device is unplugged the files fail with -ENODEV.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>

#include "ppu_chan.h"
#include "ppu_debugfs.h"
#include "ppu_device.h"
#include "ppu_fault.h"
#include "ppu_quota.h"
#include "ppu_reset.h"

struct ppu_reg_name {
	const char *name;
	u32 reg;
};

#define PPU_REG_NAME(n) { #n, PPU_REG_##n }

/* Capabilities: printed in decimal (ID and features in hex). */
static const struct ppu_reg_name ppu_cap_regs[] = {
	PPU_REG_NAME(CAP_NUM_CHANNELS),
	PPU_REG_NAME(CAP_NUM_CU),
	PPU_REG_NAME(CAP_NUM_TASK_SLOTS),
	PPU_REG_NAME(CAP_NUM_PRIORITIES),
	PPU_REG_NAME(CAP_COPY_CHUNK_BYTES),
	PPU_REG_NAME(CAP_MEM_DATA_BYTES),
	PPU_REG_NAME(CAP_TLB_ENTRIES),
	PPU_REG_NAME(CAP_COPY_MAX_READS),
	PPU_REG_NAME(CAP_PB_PREFETCH_BEATS),
	PPU_REG_NAME(CAP_CU_CONTEXTS),
	PPU_REG_NAME(CAP_NUM_TASKS),
	PPU_REG_NAME(CAP_MAX_CTA_THREADS),
	PPU_REG_NAME(CAP_ICACHE_BYTES),
	PPU_REG_NAME(CAP_CHAN_CACHE),
};

/* Identity, interrupt state and setup: printed in hex. */
static const struct ppu_reg_name ppu_hex_regs[] = {
	PPU_REG_NAME(CAP_FEATURES),
	PPU_REG_NAME(CAP_LOCAL_MEM_MIB),
	PPU_REG_NAME(INTR_STATUS),
	PPU_REG_NAME(INTR_ENABLE),
	PPU_REG_NAME(FAULT_PENDING),
	PPU_REG_NAME(NONSTALL_PENDING),
	PPU_REG_NAME(CHAN_TABLE_LO),
	PPU_REG_NAME(CHAN_TABLE_HI),
	PPU_REG_NAME(SCHED_TIMESLICE),
	PPU_REG_NAME(SCHED_ACQ_RETRY),
	PPU_REG_NAME(SCHED_ACQ_TIMEOUT),
	PPU_REG_NAME(SCHED_CTRL),
	PPU_REG_NAME(RUNLIST_LO),
	PPU_REG_NAME(RUNLIST_HI),
	PPU_REG_NAME(RUNLIST_STATUS),
	PPU_REG_NAME(EVENT_RING_LO),
	PPU_REG_NAME(EVENT_RING_HI),
	PPU_REG_NAME(EVENT_RING_SIZE),
	PPU_REG_NAME(EVENT_RING_GET),
	PPU_REG_NAME(EVENT_RING_PUT),
	PPU_REG_NAME(EVENT_RING_STATUS),
	PPU_REG_NAME(DEBUG_RELEASE_HOLD),
	PPU_REG_NAME(ENGINE_CTRL),
	PPU_REG_NAME(TASK_CTRL),
};

static const char * const ppu_perf_names[PPU_PERF_COUNT] = {
	[PPU_PERF_DOORBELLS] = "DOORBELLS",
	[PPU_PERF_GP_ENTRIES] = "GP_ENTRIES",
	[PPU_PERF_METHODS] = "METHODS",
	[PPU_PERF_SEM_ACQ_OK] = "SEM_ACQ_OK",
	[PPU_PERF_SEM_ACQ_FAIL] = "SEM_ACQ_FAIL",
	[PPU_PERF_SEM_RELEASES] = "SEM_RELEASES",
	[PPU_PERF_SEM_REDUCTIONS] = "SEM_REDUCTIONS",
	[PPU_PERF_COPIES] = "COPIES",
	[PPU_PERF_COPY_BYTES] = "COPY_BYTES",
	[PPU_PERF_COPY_BUSY_CYCLES] = "COPY_BUSY_CYCLES",
	[PPU_PERF_CHAN_SWITCHES] = "CHAN_SWITCHES",
	[PPU_PERF_FAULTS] = "FAULTS",
	[PPU_PERF_MEM_RD_BEATS] = "MEM_RD_BEATS",
	[PPU_PERF_MEM_WR_BEATS] = "MEM_WR_BEATS",
	[PPU_PERF_TLB_MISSES] = "TLB_MISSES",
	[PPU_PERF_NONSTALL_INTRS] = "NONSTALL_INTRS",
	[PPU_PERF_HOST_LAUNCHES] = "HOST_LAUNCHES",
	[PPU_PERF_DEV_LAUNCHES] = "DEV_LAUNCHES",
	[PPU_PERF_DEV_LAUNCH_DEPTH_ERRORS] = "DEV_LAUNCH_DEPTH_ERRORS",
	[PPU_PERF_DEV_LAUNCH_ERRORS] = "DEV_LAUNCH_ERRORS",
	[PPU_PERF_TASKS_COMPLETED] = "TASKS_COMPLETED",
	[PPU_PERF_CTA_DISPATCHES] = "CTA_DISPATCHES",
	[PPU_PERF_CTA_RESUMES] = "CTA_RESUMES",
	[PPU_PERF_PREEMPTIONS] = "PREEMPTIONS",
	[PPU_PERF_EVICTIONS] = "EVICTIONS",
	[PPU_PERF_WAIT_SAVES] = "WAIT_SAVES",
	[PPU_PERF_WAVE_SWITCHES] = "WAVE_SWITCHES",
	[PPU_PERF_CTXSW_CYCLES] = "CTXSW_CYCLES",
	[PPU_PERF_CU_INSTRET] = "CU_INSTRET",
	[PPU_PERF_CU_ISSUE_CYCLES] = "CU_ISSUE_CYCLES",
	[PPU_PERF_ICACHE_MISSES] = "ICACHE_MISSES",
	[PPU_PERF_AMOS] = "AMOS",
	[PPU_PERF_COPY_BEATS] = "COPY_BEATS",
};

static const char * const ppu_task_states[] = {
	[PPU_TASK_STATE_FREE] = "free",
	[PPU_TASK_STATE_PENDING] = "pending",
	[PPU_TASK_STATE_ACTIVE] = "active",
	[PPU_TASK_STATE_EVICTING] = "evicting",
	[PPU_TASK_STATE_DRAINING] = "draining",
	[PPU_TASK_STATE_LAUNCHING] = "launching",
	[PPU_TASK_STATE_COMPLETING] = "completing",
};

static const char * const ppu_cu_ctx_states[] = {
	[PPU_CU_CTX_FREE] = "free",
	[PPU_CU_CTX_READY] = "ready",
	[PPU_CU_CTX_PIPE] = "pipe",
	[PPU_CU_CTX_FETCH_WAIT] = "fetch_wait",
	[PPU_CU_CTX_MEM_WAIT] = "mem_wait",
	[PPU_CU_CTX_STORE_WAIT] = "store_wait",
	[PPU_CU_CTX_BARRIER] = "barrier",
	[PPU_CU_CTX_EXIT] = "exit",
	[PPU_CU_CTX_FAULT] = "fault",
	[PPU_CU_CTX_SAVE] = "save",
	[PPU_CU_CTX_RESTORE] = "restore",
	[PPU_CU_CTX_SAVED] = "saved",
};

static const char *ppu_debugfs_name(const char * const *names, size_t n, u32 v)
{
	return v < n && names[v] ? names[v] : "?";
}

static struct ppu_device *ppu_from_seq(struct seq_file *m)
{
	struct drm_info_node *node = m->private;

	return to_ppu(node->minor->dev);
}

static int ppu_debugfs_regs(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	unsigned int i;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;

	seq_printf(m, "%-24s 0x%08x\n", "ID", ppu_read(ppu, PPU_REG_ID));
	seq_printf(m, "%-24s 0x%08x\n", "VERSION", ppu_read(ppu, PPU_REG_VERSION));
	for (i = 0; i < ARRAY_SIZE(ppu_cap_regs); i++)
		seq_printf(m, "%-24s %u\n", ppu_cap_regs[i].name,
			   ppu_read(ppu, ppu_cap_regs[i].reg));
	for (i = 0; i < ARRAY_SIZE(ppu_hex_regs); i++)
		seq_printf(m, "%-24s 0x%08x\n", ppu_hex_regs[i].name,
			   ppu_read(ppu, ppu_hex_regs[i].reg));
	seq_printf(m, "%-24s %llu\n", "CYCLE",
		   ppu_read64(ppu, PPU_REG_CYCLE_LO, PPU_REG_CYCLE_HI));

	drm_dev_exit(idx);
	return 0;
}

static int ppu_debugfs_counters(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	unsigned int i;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;

	for (i = 0; i < PPU_PERF_COUNT; i++) {
		u64 v = ppu_read64(ppu, PPU_PERF_LO(i), PPU_PERF_HI(i));

		if (ppu_perf_names[i])
			seq_printf(m, "%-24s %llu\n", ppu_perf_names[i], v);
		else
			seq_printf(m, "PERF%-20u %llu\n", i, v);
	}

	drm_dev_exit(idx);
	return 0;
}

/* What the interrupt handler saw: driver state, no register access. */
static int ppu_debugfs_interrupts(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	struct ppu_irq_stats *stats = &ppu->irq_stats;
	unsigned int chid;
	char name[32];

	seq_printf(m, "%-24s %d\n", "IRQ", ppu->irq);
	seq_printf(m, "%-24s %s\n", "KIND", ppu->irq_kind);
	seq_printf(m, "%-24s %d\n", "EVENT_RING", ppu->events != NULL);
	seq_printf(m, "%-24s %lld\n", "HANDLED", atomic64_read(&stats->handled));
	seq_printf(m, "%-24s %lld\n", "THROTTLED", atomic64_read(&stats->throttled));
	seq_printf(m, "%-24s %lld\n", "RATE_HELD", atomic64_read(&stats->rate_held));
	seq_printf(m, "%-24s %lld\n", "CPU_HELD", atomic64_read(&stats->cpu_held));
	seq_printf(m, "%-24s %lld\n", "RECOVERED", atomic64_read(&stats->recovered));
	seq_printf(m, "%-24s %d\n", "LOST", ppu_lost(ppu));
	/* (a list of channel ids, "3,5-7"; empty when none) */
	seq_printf(m, "%-24s %*pbl\n", "FAULTED", ppu->caps.num_channels, stats->faulted);
	/* (channels with events only: a PPU may have thousands) */
	for (chid = 0; chid < ppu->caps.num_channels; chid++) {
		s64 faults = atomic64_read(&stats->faults[chid]);
		s64 nonstalls = atomic64_read(&stats->nonstalls[chid]);

		if (faults) {
			snprintf(name, sizeof(name), "CHAN%u_FAULTS", chid);
			seq_printf(m, "%-24s %lld\n", name, faults);
		}
		if (nonstalls) {
			snprintf(name, sizeof(name), "CHAN%u_NONSTALLS", chid);
			seq_printf(m, "%-24s %lld\n", name, nonstalls);
		}
	}
	return 0;
}

/* Channels in use with their hardware state. */
static int ppu_debugfs_channels(struct seq_file *m, void *data)
{
	ppu_chan_debugfs_show(ppu_from_seq(m), m);
	return 0;
}

/* The fault log: no register access. */
static int ppu_debugfs_faults(struct seq_file *m, void *data)
{
	ppu_fault_debugfs_show(ppu_from_seq(m), m);
	return 0;
}

/*
 * The task table: one line per hardware task id that is not FREE.  The
 * save slot, NEXT_CTA and EXITED are only meaningful while the task holds
 * a slot ("-" otherwise); parent is the launching task of a device launch.
 */
static int ppu_debugfs_tasks(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	bool compute = PPU_FGET(PPU_CAP_FEATURES_COMPUTE_ENGINE, ppu->caps.features);
	u32 tid;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	seq_puts(m, "tid state      chid prio depth slot next_cta   exited     tmd_va     parent kids\n");
	mutex_lock(&ppu->dbg_lock);
	for (tid = 0; compute && tid < ppu->caps.num_tasks; tid++) {
		u32 d0, d1, state;

		ppu_write(ppu, PPU_REG_TASK_DBG_SEL, tid);
		d0 = ppu_read(ppu, PPU_REG_TASK_DBG0);
		state = PPU_FGET(PPU_TASK_DBG0_STATE, d0);
		if (state == PPU_TASK_STATE_FREE)
			continue;
		d1 = ppu_read(ppu, PPU_REG_TASK_DBG1);
		seq_printf(m, "%3u %-10s %4u %4u %5u", tid,
			   ppu_debugfs_name(ppu_task_states, ARRAY_SIZE(ppu_task_states), state),
			   PPU_FGET(PPU_TASK_DBG0_CHID, d0), PPU_FGET(PPU_TASK_DBG1_PRIO, d1),
			   PPU_FGET(PPU_TASK_DBG0_DEPTH, d0));
		if (PPU_FGET(PPU_TASK_DBG0_SLOT_VALID, d0))
			seq_printf(m, " %4u %-10u %-10u", PPU_FGET(PPU_TASK_DBG0_TSLOT, d0),
				   ppu_read(ppu, PPU_REG_TASK_DBG_NEXT_CTA),
				   ppu_read(ppu, PPU_REG_TASK_DBG_EXITED));
		else
			seq_printf(m, " %4s %-10s %-10s", "-", "-", "-");
		seq_printf(m, " 0x%08x", ppu_read(ppu, PPU_REG_TASK_DBG_TMD_VA));
		if (PPU_FGET(PPU_TASK_DBG1_HAS_PARENT, d1))
			seq_printf(m, " %6u", PPU_FGET(PPU_TASK_DBG1_PARENT, d1));
		else
			seq_printf(m, " %6s", "-");
		seq_printf(m, " %4u\n", PPU_FGET(PPU_TASK_DBG1_CHILDREN, d1));
	}
	mutex_unlock(&ppu->dbg_lock);
	drm_dev_exit(idx);
	return 0;
}

/*
 * The compute units: one line per thread context, every one of them.  The
 * task slot, thread index, PC and CTA id are those of the context's
 * current or last CTA ("-" for a free context).
 */
static int ppu_debugfs_cu(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	bool compute = PPU_FGET(PPU_CAP_FEATURES_COMPUTE_ENGINE, ppu->caps.features);
	u32 cu, ctx;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	seq_puts(m, " cu ctx state      tslot thread pc         cta_id\n");
	mutex_lock(&ppu->dbg_lock);
	for (cu = 0; compute && cu < ppu->caps.num_cu; cu++) {
		for (ctx = 0; ctx < ppu->caps.cu_contexts; ctx++) {
			u32 d0, state;

			ppu_write(ppu, PPU_REG_CU_DBG_SEL, PPU_FSET(PPU_CU_DBG_SEL_CU, cu) |
				  PPU_FSET(PPU_CU_DBG_SEL_CTX, ctx));
			d0 = ppu_read(ppu, PPU_REG_CU_DBG0);
			state = PPU_FGET(PPU_CU_DBG0_STATE, d0);
			seq_printf(m, "%3u %3u %-10s", cu, ctx,
				   ppu_debugfs_name(ppu_cu_ctx_states,
						    ARRAY_SIZE(ppu_cu_ctx_states), state));
			if (state == PPU_CU_CTX_FREE) {
				seq_printf(m, " %5s %6s %-10s %s\n", "-", "-", "-", "-");
				continue;
			}
			seq_printf(m, " %5u %6u 0x%08x %u\n", PPU_FGET(PPU_CU_DBG0_TSLOT, d0),
				   PPU_FGET(PPU_CU_DBG0_THREAD, d0),
				   ppu_read(ppu, PPU_REG_CU_DBG_PC),
				   ppu_read(ppu, PPU_REG_CU_DBG_CTA_ID));
		}
	}
	mutex_unlock(&ppu->dbg_lock);
	drm_dev_exit(idx);
	return 0;
}

/*
 * Local memory: size, what is allocated, and the allocator's dump.  The
 * totals come first as "NAME value" lines so that tools need not parse
 * drm_mm's own format, which is not an interface.
 */
static int ppu_debugfs_lmem(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	struct drm_printer p = drm_seq_file_printer(m);
	struct drm_mm_node *node;
	u64 used = 0, bos = 0;

	seq_printf(m, "%-24s %u\n", "CAP_LOCAL_MEM_MIB", ppu->caps.local_mem_mib);
	seq_printf(m, "%-24s %llu\n", "MANAGED_BYTES", ppu->lmem_size);
	if (!ppu->lmem_size)
		return 0;
	mutex_lock(&ppu->lmem_lock);
	drm_mm_for_each_node(node, &ppu->lmem_mm) {
		used += node->size;
		bos++;
	}
	seq_printf(m, "%-24s %llu\n", "USED_BYTES", used);
	seq_printf(m, "%-24s %llu\n", "BOS", bos);
	seq_printf(m, "%-24s %llu\n", "CLEARED_BYTES", ppu->lmem_cleared);
	seq_printf(m, "%-24s %llu\n", "CLEAN_BYTES", ppu->lmem_clean);
	drm_mm_print(&ppu->lmem_mm, &p);
	mutex_unlock(&ppu->lmem_lock);
	return 0;
}

/* The per-user accounts of ppu_quota.c: a user's entry goes with its last file and BO. */
static int ppu_debugfs_users(struct seq_file *m, void *data)
{
	ppu_quota_debugfs_users(ppu_from_seq(m), m);
	return 0;
}

/*
 * doorbell (write-only, root): write the id of a free channel to ring
 * DOORBELL for it (-EBUSY for a channel in use).  A test hook: on a channel the driver has not
 * set up (its channel-table entry is invalid) the PPU faults the channel
 * with INST_INVALID, which exercises the fault interrupt end to end.
 */
static ssize_t ppu_debugfs_doorbell_write(struct file *file, const char __user *buf,
					  size_t len, loff_t *ppos)
{
	struct ppu_device *ppu = file->private_data;
	u32 chid;
	int ret, idx;

	ret = kstrtou32_from_user(buf, len, 0, &chid);
	if (ret)
		return ret;
	if (chid >= ppu->caps.num_channels)
		return -EINVAL;
	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	/* Only free ids: the hook must not disturb anyone's channel. */
	mutex_lock(&ppu->chan_lock);
	if (ppu->chans[chid])
		ret = -EBUSY;
	else
		ppu_write(ppu, PPU_REG_DOORBELL, PPU_FSET(PPU_DOORBELL_CHID, chid));
	mutex_unlock(&ppu->chan_lock);
	drm_dev_exit(idx);
	return ret ? ret : len;
}

static const struct file_operations ppu_debugfs_doorbell_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ppu_debugfs_doorbell_write,
	.llseek = noop_llseek,
};

/*
 * release_hold (root): DEBUG_RELEASE_HOLD, the cycles the host waits after
 * every semaphore release before it fetches the methods after it (0 =
 * off).  A test hook that widens the window in which a release is visible
 * but the rest of its entry is not yet read; see docs/registers.md.
 */
/* A register behind a debugfs attribute (the device may be gone). */
static int ppu_debugfs_reg_get(struct ppu_device *ppu, u32 reg, u64 *val)
{
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	*val = ppu_read(ppu, reg);
	drm_dev_exit(idx);
	return 0;
}

static int ppu_debugfs_reg_set(struct ppu_device *ppu, u32 reg, u64 val, u64 allowed)
{
	int idx;

	if (val & ~allowed)
		return -EINVAL;
	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	ppu_write(ppu, reg, (u32)val);
	drm_dev_exit(idx);
	return 0;
}

static int ppu_debugfs_release_hold_get(void *data, u64 *val)
{
	return ppu_debugfs_reg_get(data, PPU_REG_DEBUG_RELEASE_HOLD, val);
}

static int ppu_debugfs_release_hold_set(void *data, u64 val)
{
	return ppu_debugfs_reg_set(data, PPU_REG_DEBUG_RELEASE_HOLD, val, U32_MAX);
}

DEFINE_DEBUGFS_ATTRIBUTE(ppu_debugfs_release_hold_fops, ppu_debugfs_release_hold_get,
			 ppu_debugfs_release_hold_set, "%llu\n");

/*
 * task_ctrl: the task table's policy switches (TASK_CTRL: 1 NO_PREEMPT, 2
 * NO_EVICT), for comparing scheduling policies on a running device; other
 * bits are refused.
 */
static int ppu_debugfs_task_ctrl_get(void *data, u64 *val)
{
	return ppu_debugfs_reg_get(data, PPU_REG_TASK_CTRL, val);
}

static int ppu_debugfs_task_ctrl_set(void *data, u64 val)
{
	return ppu_debugfs_reg_set(data, PPU_REG_TASK_CTRL, val,
				   PPU_FMASK(PPU_TASK_CTRL_NO_PREEMPT) |
				   PPU_FMASK(PPU_TASK_CTRL_NO_EVICT));
}

DEFINE_DEBUGFS_ATTRIBUTE(ppu_debugfs_task_ctrl_fops, ppu_debugfs_task_ctrl_get,
			 ppu_debugfs_task_ctrl_set, "%llu\n");

/*
 * copy_halt, compute_halt (root): ENGINE_CTRL.*_HALT, 1 stops the engine's
 * memory requests as if it were wedged, for testing recovery; 0 lets it go
 * on.  copy_reset, compute_reset (write-only, root): write 1 to reset the
 * engine now.
 */
#define PPU_DEBUGFS_ENGINE(name, eng)							\
static int ppu_debugfs_##name##_halt_get(void *data, u64 *val)				\
{											\
	return ppu_reset_halt_get(data, eng, val);					\
}											\
static int ppu_debugfs_##name##_halt_set(void *data, u64 val)				\
{											\
	return ppu_reset_halt_set(data, eng, val);					\
}											\
DEFINE_DEBUGFS_ATTRIBUTE(ppu_debugfs_##name##_halt_fops, ppu_debugfs_##name##_halt_get,	\
			 ppu_debugfs_##name##_halt_set, "%llu\n");				\
static int ppu_debugfs_##name##_reset_set(void *data, u64 val)				\
{											\
	return ppu_debugfs_reset_set(data, eng, val);					\
}											\
DEFINE_DEBUGFS_ATTRIBUTE(ppu_debugfs_##name##_reset_fops, NULL,				\
			 ppu_debugfs_##name##_reset_set, "%llu\n")

static int ppu_debugfs_reset_set(struct ppu_device *ppu, enum ppu_engine eng, u64 val)
{
	int ret, idx;

	if (val != 1)
		return -EINVAL;
	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	ret = ppu_reset_engine(ppu, eng, U32_MAX, 0);
	drm_dev_exit(idx);
	return ret;
}

PPU_DEBUGFS_ENGINE(copy, PPU_ENGINE_COPY);
PPU_DEBUGFS_ENGINE(compute, PPU_ENGINE_COMPUTE);

static int ppu_debugfs_engine(struct seq_file *m, void *data)
{
	struct drm_info_node *node = m->private;

	ppu_reset_debugfs_show(to_ppu(node->minor->dev), m);
	return 0;
}

static const struct drm_info_list ppu_debugfs_list[] = {
	{ "engine", ppu_debugfs_engine, 0 },
	{ "regs", ppu_debugfs_regs, 0 },
	{ "counters", ppu_debugfs_counters, 0 },
	{ "interrupts", ppu_debugfs_interrupts, 0 },
	{ "channels", ppu_debugfs_channels, 0 },
	{ "faults", ppu_debugfs_faults, 0 },
	{ "local_mem", ppu_debugfs_lmem, 0 },
	{ "users", ppu_debugfs_users, 0 },
	{ "tasks", ppu_debugfs_tasks, 0 },
	{ "cu", ppu_debugfs_cu, 0 },
};

void ppu_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(ppu_debugfs_list, ARRAY_SIZE(ppu_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("doorbell", 0200, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_doorbell_fops);
	debugfs_create_file_unsafe("release_hold", 0600, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_release_hold_fops);
	debugfs_create_file_unsafe("task_ctrl", 0600, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_task_ctrl_fops);
	debugfs_create_file_unsafe("copy_halt", 0600, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_copy_halt_fops);
	debugfs_create_file_unsafe("copy_reset", 0200, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_copy_reset_fops);
	debugfs_create_file_unsafe("compute_halt", 0600, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_compute_halt_fops);
	debugfs_create_file_unsafe("compute_reset", 0200, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_compute_reset_fops);
}
