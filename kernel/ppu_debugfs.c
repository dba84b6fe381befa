// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU debugfs: /sys/kernel/debug/dri/<minor>/{regs,counters,interrupts,
 * channels,faults,local_mem} to read, and doorbell to write.
 *
 * regs, counters and interrupts have one "NAME value" pair per line, so
 * that scripts and tests can parse them; channels and faults are tables.
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
	PPU_REG_NAME(DEBUG_RELEASE_HOLD),
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
};

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

	for (i = 0; i < PPU_PERF_COUNT; i++)
		seq_printf(m, "%-24s %llu\n", ppu_perf_names[i],
			   ppu_read64(ppu, PPU_PERF_LO(i), PPU_PERF_HI(i)));

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
	seq_printf(m, "%-24s %lld\n", "HANDLED", atomic64_read(&stats->handled));
	seq_printf(m, "%-24s 0x%08x\n", "FAULTED", atomic_read(&stats->faulted));
	for (chid = 0; chid < ppu->caps.num_channels; chid++) {
		snprintf(name, sizeof(name), "CHAN%u_FAULTS", chid);
		seq_printf(m, "%-24s %lld\n", name, atomic64_read(&stats->faults[chid]));
		snprintf(name, sizeof(name), "CHAN%u_NONSTALLS", chid);
		seq_printf(m, "%-24s %lld\n", name, atomic64_read(&stats->nonstalls[chid]));
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

/* Local memory: size and the allocator's free space. */
static int ppu_debugfs_lmem(struct seq_file *m, void *data)
{
	struct ppu_device *ppu = ppu_from_seq(m);
	struct drm_printer p = drm_seq_file_printer(m);

	seq_printf(m, "%-24s %u\n", "CAP_LOCAL_MEM_MIB", ppu->caps.local_mem_mib);
	seq_printf(m, "%-24s %llu\n", "MANAGED_BYTES", ppu->lmem_size);
	if (!ppu->lmem_size)
		return 0;
	mutex_lock(&ppu->lmem_lock);
	drm_mm_print(&ppu->lmem_mm, &p);
	mutex_unlock(&ppu->lmem_lock);
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
static int ppu_debugfs_release_hold_get(void *data, u64 *val)
{
	struct ppu_device *ppu = data;
	int idx;

	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	*val = ppu_read(ppu, PPU_REG_DEBUG_RELEASE_HOLD);
	drm_dev_exit(idx);
	return 0;
}

static int ppu_debugfs_release_hold_set(void *data, u64 val)
{
	struct ppu_device *ppu = data;
	int idx;

	if (val > U32_MAX)
		return -EINVAL;
	if (!drm_dev_enter(&ppu->drm, &idx))
		return -ENODEV;
	ppu_write(ppu, PPU_REG_DEBUG_RELEASE_HOLD, (u32)val);
	drm_dev_exit(idx);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(ppu_debugfs_release_hold_fops, ppu_debugfs_release_hold_get,
			 ppu_debugfs_release_hold_set, "%llu\n");

static const struct drm_info_list ppu_debugfs_list[] = {
	{ "regs", ppu_debugfs_regs, 0 },
	{ "counters", ppu_debugfs_counters, 0 },
	{ "interrupts", ppu_debugfs_interrupts, 0 },
	{ "channels", ppu_debugfs_channels, 0 },
	{ "faults", ppu_debugfs_faults, 0 },
	{ "local_mem", ppu_debugfs_lmem, 0 },
};

void ppu_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(ppu_debugfs_list, ARRAY_SIZE(ppu_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("doorbell", 0200, minor->debugfs_root,
			    to_ppu(minor->dev), &ppu_debugfs_doorbell_fops);
	debugfs_create_file_unsafe("release_hold", 0600, minor->debugfs_root,
				   to_ppu(minor->dev), &ppu_debugfs_release_hold_fops);
}
