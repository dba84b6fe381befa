// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * PPU channel faults.
 *
 * The interrupt handler marks a faulting channel in
 * &ppu_irq_stats.faulted at once, which is all that waiters and doorbells
 * need (the channel is dead from then on).  Reading why it faulted costs
 * three register reads, too slow for hard interrupt context on a
 * co-simulated device, so a work item does it (ppu_chan.c, which knows
 * each channel's owner): it logs the fault here, to the kernel log (rate
 * limited) and to the last PPU_FAULT_LOG_SIZE faults kept for debugfs.
 * The hardware keeps the fault registers until the channel is unbound, so
 * the owner reads them with DRM_IOCTL_PPU_CHAN_STATUS.
 *
 * The log line names the unit, kind and access and says what FAULT_ADDR
 * and FAULT_DATA hold for that fault: for a compute unit the data address,
 * the PC, the instruction word or the trap code; for the task table the
 * TMD and the offset of its bad word.  debugfs adds the unit and kind by
 * name to the numbers.
 */
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/ktime.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "ppu_device.h"
#include "ppu_fault.h"

static const char * const ppu_fault_units[] = {
	[PPU_FAULT_UNIT_HOST] = "host",
	[PPU_FAULT_UNIT_SEM] = "sem",
	[PPU_FAULT_UNIT_COPY_SRC] = "copy_src",
	[PPU_FAULT_UNIT_COPY_DST] = "copy_dst",
	[PPU_FAULT_UNIT_INST] = "inst",
	[PPU_FAULT_UNIT_COMPUTE] = "compute",
	[PPU_FAULT_UNIT_TASKS] = "tasks",
	[PPU_FAULT_UNIT_DRIVER] = "driver",
};

static const char * const ppu_fault_kinds[] = {
	[PPU_FAULT_KIND_NONE] = "none",
	[PPU_FAULT_KIND_PTE_NOT_PRESENT] = "pte_not_present",
	[PPU_FAULT_KIND_PERMISSION] = "permission",
	[PPU_FAULT_KIND_BUS_ERROR] = "bus_error",
	[PPU_FAULT_KIND_ILLEGAL_METHOD] = "illegal_method",
	[PPU_FAULT_KIND_ILLEGAL_OPCODE] = "illegal_opcode",
	[PPU_FAULT_KIND_PB_UNALIGNED] = "pb_unaligned",
	[PPU_FAULT_KIND_PB_RUNAWAY] = "pb_runaway",
	[PPU_FAULT_KIND_GP_PUT_RANGE] = "gp_put_range",
	[PPU_FAULT_KIND_ACQ_TIMEOUT] = "acq_timeout",
	[PPU_FAULT_KIND_SEM_UNALIGNED] = "sem_unaligned",
	[PPU_FAULT_KIND_VA_RANGE] = "va_range",
	[PPU_FAULT_KIND_INST_INVALID] = "inst_invalid",
	[PPU_FAULT_KIND_ENGINE_MISSING] = "engine_missing",
	[PPU_FAULT_KIND_ILLEGAL_INSTR] = "illegal_instr",
	[PPU_FAULT_KIND_MISALIGNED] = "misaligned",
	[PPU_FAULT_KIND_TMD_INVALID] = "tmd_invalid",
	[PPU_FAULT_KIND_KERNEL_TRAP] = "kernel_trap",
	[PPU_FAULT_KIND_ENGINE_RESET] = "engine_reset",
	[PPU_FAULT_KIND_WATCHDOG] = "watchdog",
};

static const char * const ppu_fault_accesses[] = {
	[PPU_FAULT_ACCESS_READ] = "read",
	[PPU_FAULT_ACCESS_WRITE] = "write",
	[PPU_FAULT_ACCESS_RMW] = "rmw",
	[PPU_FAULT_ACCESS_EXEC] = "exec",
};

static const char *ppu_fault_name(const char * const *names, size_t n, u32 v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

#define PPU_FAULT_NAME(table, v) ppu_fault_name(table, ARRAY_SIZE(table), v)

/**
 * ppu_fault_unit_name() - name of a FAULT_INFO.UNIT value
 * @info: FAULT_INFO
 *
 * Return: "host", "compute", ..., or "unknown".
 */
const char *ppu_fault_unit_name(u32 info)
{
	return PPU_FAULT_NAME(ppu_fault_units, PPU_FGET(PPU_FAULT_INFO_UNIT, info));
}

/**
 * ppu_fault_kind_name() - name of a FAULT_INFO.KIND value
 * @info: FAULT_INFO
 *
 * Return: "pte_not_present", "illegal_instr", ..., or "unknown".
 */
const char *ppu_fault_kind_name(u32 info)
{
	return PPU_FAULT_NAME(ppu_fault_kinds, PPU_FGET(PPU_FAULT_INFO_KIND, info));
}

/*
 * What FAULT_ADDR and FAULT_DATA mean for this fault, in words: the kernel
 * log line of a fault.
 */
static void ppu_fault_describe(char *buf, size_t len, const struct ppu_fault_rec *r)
{
	u32 unit = PPU_FGET(PPU_FAULT_INFO_UNIT, r->info);
	u32 kind = PPU_FGET(PPU_FAULT_INFO_KIND, r->info);
	u32 access = PPU_FGET(PPU_FAULT_INFO_ACCESS, r->info);
	const char *kname = ppu_fault_kind_name(r->info);
	const char *aname = PPU_FAULT_NAME(ppu_fault_accesses, access);

	if (kind == PPU_FAULT_KIND_ENGINE_RESET) {
		snprintf(buf, len, unit == PPU_FAULT_UNIT_COMPUTE ?
			 "its tasks dropped by a reset of the compute engine" :
			 "its copy dropped by a reset of the copy engine");
		return;
	}
	if (unit == PPU_FAULT_UNIT_COMPUTE) {
		switch (kind) {
		case PPU_FAULT_KIND_ILLEGAL_INSTR:
			snprintf(buf, len, "illegal instruction %#010x at pc %#x", r->data,
				 r->addr);
			return;
		case PPU_FAULT_KIND_KERNEL_TRAP:
			snprintf(buf, len, "kernel trap, code %#x, at pc %#x", r->data, r->addr);
			return;
		}
		if (access == PPU_FAULT_ACCESS_EXEC)
			snprintf(buf, len, "%s fetching pc %#x", kname, r->addr);
		else
			snprintf(buf, len, "%s on %s of %#x at pc %#x", kname, aname, r->addr,
				 r->data);
		return;
	}
	if (unit == PPU_FAULT_UNIT_DRIVER && kind == PPU_FAULT_KIND_WATCHDOG) {
		snprintf(buf, len, "no progress (state %u, GP_GET %u): stopped by the watchdog",
			 r->data, r->addr);
		return;
	}
	if (unit == PPU_FAULT_UNIT_TASKS && kind == PPU_FAULT_KIND_TMD_INVALID) {
		snprintf(buf, len, "invalid TMD at %#x, word +%#x", r->addr, r->data);
		return;
	}
	snprintf(buf, len, "%s on %s of %#x by %s, data %#x", kname, aname, r->addr,
		 ppu_fault_unit_name(r->info), r->data);
}

/**
 * ppu_fault_log() - add a fault to the log and the kernel log
 * @ppu: the device
 * @r: the fault (also the driver's own, unit DRIVER)
 */
void ppu_fault_log(struct ppu_device *ppu, const struct ppu_fault_rec *r)
{
	struct ppu_fault_rec rec = *r;
	u32 chid = rec.chid;
	char what[96];

	spin_lock(&ppu->fault_lock);
	ppu->fault_log[ppu->fault_count % PPU_FAULT_LOG_SIZE] = rec;
	ppu->fault_count++;
	spin_unlock(&ppu->fault_lock);

	ppu_fault_describe(what, sizeof(what), &rec);
	dev_warn_ratelimited(ppu->drm.dev,
			     "channel %u (pid %d) faulted: kind %u access %u unit %u addr %#x data %#x: %s\n",
			     chid, rec.pid, PPU_FGET(PPU_FAULT_INFO_KIND, rec.info),
			     PPU_FGET(PPU_FAULT_INFO_ACCESS, rec.info),
			     PPU_FGET(PPU_FAULT_INFO_UNIT, rec.info), rec.addr, rec.data, what);
}

/**
 * ppu_fault_init() - the fault log of a new device
 * @ppu: the device, before interrupts are enabled
 */
void ppu_fault_init(struct ppu_device *ppu)
{
	spin_lock_init(&ppu->fault_lock);
}

/**
 * ppu_fault_debugfs_show() - the "faults" debugfs file
 * @ppu: the device
 * @m: the seq_file
 *
 * The number of faults since probe and the most recent ones, oldest first,
 * with the unit and kind by name.  The data word stays last on the line.
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
	seq_puts(m, "time_ns          chid pid      kind access unit unit_name kind_name       addr       data\n");
	first = count > PPU_FAULT_LOG_SIZE ? count - PPU_FAULT_LOG_SIZE : 0;
	for (i = first; i < count; i++) {
		const struct ppu_fault_rec *r = &log[i % PPU_FAULT_LOG_SIZE];

		seq_printf(m, "%-16llu %4u %-8d %4u %6u %4u %-9s %-15s 0x%08x 0x%08x\n",
			   r->time_ns, r->chid, r->pid, PPU_FGET(PPU_FAULT_INFO_KIND, r->info),
			   PPU_FGET(PPU_FAULT_INFO_ACCESS, r->info),
			   PPU_FGET(PPU_FAULT_INFO_UNIT, r->info), ppu_fault_unit_name(r->info),
			   ppu_fault_kind_name(r->info), r->addr, r->data);
	}
}
