/* SPDX-License-Identifier: MIT */
/*
 * Encoders for PPU command and memory formats, shared by the kernel driver,
 * the runtime, the simulation harness and the tests.  Every word is built
 * from the field definitions in ppu_hw.h; nothing here knows a bit position.
 */
#ifndef PPU_ENCODE_H
#define PPU_ENCODE_H

#include "ppu_hw.h"

/* ---- pushbuffer method headers ---- */

/* subch: PPU_MTHD_SUBCH_* (ENGINE for the channel's own class). */
static inline ppu_u32 ppu_mthd_sub(ppu_u32 op, ppu_u32 subch, ppu_u32 method, ppu_u32 count)
{
	return PPU_FSET(PPU_MTHD_OP, op) | PPU_FSET(PPU_MTHD_SUBCH, subch) |
	       PPU_FSET(PPU_MTHD_COUNT, count) | PPU_FSET(PPU_MTHD_ADDR, method >> 2);
}

static inline ppu_u32 ppu_mthd(ppu_u32 op, ppu_u32 method, ppu_u32 count)
{
	return ppu_mthd_sub(op, PPU_MTHD_SUBCH_ENGINE, method, count);
}

static inline ppu_u32 ppu_mthd_immd(ppu_u32 method, ppu_u32 data)
{
	return PPU_FSET(PPU_MTHD_OP, PPU_MTHD_OP_IMMD) | PPU_FSET(PPU_MTHD_IMMD, data) |
	       PPU_FSET(PPU_MTHD_ADDR, method >> 2);
}

/* ---- GPFIFO entry ---- */

static inline void ppu_gp_entry(ppu_u32 out[2], ppu_u32 pb_va, ppu_u32 ndw, int sync)
{
	out[0] = PPU_FSET(PPU_GP_ENTRY0_ADDR, pb_va >> 2);
	out[1] = PPU_FSET(PPU_GP_ENTRY1_LENGTH, ndw) | PPU_FSET(PPU_GP_ENTRY1_SYNC, !!sync);
}

/* ---- SEM_EXECUTE words ---- */

static inline ppu_u32 ppu_sem_acquire_op(ppu_u32 operation, int payload64)
{
	return PPU_FSET(PPU_SEM_EXECUTE_OPERATION, operation) |
	       PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, !!payload64);
}

static inline ppu_u32 ppu_sem_release_op(int payload64, int timestamp, int wfi)
{
	return PPU_FSET(PPU_SEM_EXECUTE_OPERATION, PPU_SEM_EXECUTE_OPERATION_RELEASE) |
	       PPU_FSET(PPU_SEM_EXECUTE_PAYLOAD_SIZE, !!payload64) |
	       PPU_FSET(PPU_SEM_EXECUTE_RELEASE_TIMESTAMP, !!timestamp) |
	       PPU_FSET(PPU_SEM_EXECUTE_RELEASE_WFI, !!wfi);
}

static inline ppu_u32 ppu_sem_reduction_op(ppu_u32 reduction, int is_unsigned)
{
	return PPU_FSET(PPU_SEM_EXECUTE_OPERATION, PPU_SEM_EXECUTE_OPERATION_REDUCTION) |
	       PPU_FSET(PPU_SEM_EXECUTE_REDUCTION, reduction) |
	       PPU_FSET(PPU_SEM_EXECUTE_REDUCTION_FORMAT, !!is_unsigned);
}

/* ---- pushbuffer builder ---- */

struct ppu_pb {
	ppu_u32 *dw;
	ppu_u32 len;
	ppu_u32 cap;
	int overflow;	/* set when a push did not fit; nothing is written past cap */
};

static inline void ppu_pb_init(struct ppu_pb *pb, ppu_u32 *buf, ppu_u32 cap)
{
	pb->dw = buf;
	pb->len = 0;
	pb->cap = cap;
	pb->overflow = 0;
}

static inline void ppu_pb_push(struct ppu_pb *pb, ppu_u32 v)
{
	if (pb->len >= pb->cap) {
		pb->overflow = 1;
		return;
	}
	pb->dw[pb->len++] = v;
}

/* One incrementing header on subchannel subch followed by n data words. */
static inline void ppu_pb_inc_sub(struct ppu_pb *pb, ppu_u32 subch, ppu_u32 method,
				  const ppu_u32 *data, ppu_u32 n)
{
	ppu_u32 i;

	ppu_pb_push(pb, ppu_mthd_sub(PPU_MTHD_OP_INC, subch, method, n));
	for (i = 0; i < n; i++)
		ppu_pb_push(pb, data[i]);
}

static inline void ppu_pb_inc(struct ppu_pb *pb, ppu_u32 method, const ppu_u32 *data,
			      ppu_u32 n)
{
	ppu_pb_inc_sub(pb, PPU_MTHD_SUBCH_ENGINE, method, data, n);
}

static inline void ppu_pb_method(struct ppu_pb *pb, ppu_u32 method, ppu_u32 data)
{
	ppu_pb_inc(pb, method, &data, 1);
}

/* SEM_ADDR_LO, SEM_ADDR_HI, SEM_PAYLOAD_LO, SEM_PAYLOAD_HI, SEM_EXECUTE. */
static inline void ppu_pb_sem(struct ppu_pb *pb, ppu_u32 va, ppu_u64 payload, ppu_u32 exec)
{
	ppu_u32 d[5];

	d[0] = va;
	d[1] = 0;
	d[2] = (ppu_u32)payload;
	d[3] = (ppu_u32)(payload >> 32);
	d[4] = exec;
	ppu_pb_inc(pb, PPU_HOST_SEM_ADDR_LO, d, 5);
}

static inline void ppu_pb_sem_acquire(struct ppu_pb *pb, ppu_u32 va, ppu_u32 value)
{
	ppu_pb_sem(pb, va, value, ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0));
}

static inline void ppu_pb_sem_release(struct ppu_pb *pb, ppu_u32 va, ppu_u32 value)
{
	ppu_pb_sem(pb, va, value, ppu_sem_release_op(0, 0, 0));
}

/* Plain +1 / -1 (our INC and DEC do not wrap against the payload). */
static inline void ppu_pb_sem_inc(struct ppu_pb *pb, ppu_u32 va)
{
	ppu_pb_sem(pb, va, 0,
		   ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_INC, 1));
}

static inline void ppu_pb_sem_dec(struct ppu_pb *pb, ppu_u32 va)
{
	ppu_pb_sem(pb, va, 0,
		   ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_DEC, 1));
}

/*
 * A linear copy; sem_mode is PPU_LAUNCH_DMA_SEMAPHORE_*.  subch is ENGINE on
 * a copy channel and COPY on a compute channel (CAP_FEATURES.COMPUTE_COPY).
 */
static inline void ppu_pb_copy_sub(struct ppu_pb *pb, ppu_u32 subch, ppu_u32 src, ppu_u32 dst,
				   ppu_u32 len, ppu_u32 sem_mode, ppu_u32 sem_va,
				   ppu_u32 sem_payload, int interrupt)
{
	ppu_u32 d[8], launch;

	d[0] = src;
	d[1] = 0;
	d[2] = dst;
	d[3] = 0;
	d[4] = len;
	d[5] = sem_va;
	d[6] = 0;
	d[7] = sem_payload;
	ppu_pb_inc_sub(pb, subch, PPU_COPY_SRC_ADDR_LO, d, 8);
	launch = PPU_FSET(PPU_LAUNCH_DMA_SEMAPHORE, sem_mode) |
		 PPU_FSET(PPU_LAUNCH_DMA_INTERRUPT, !!interrupt);
	ppu_pb_inc_sub(pb, subch, PPU_COPY_LAUNCH_DMA, &launch, 1);
}

static inline void ppu_pb_copy(struct ppu_pb *pb, ppu_u32 src, ppu_u32 dst, ppu_u32 len,
			       ppu_u32 sem_mode, ppu_u32 sem_va, ppu_u32 sem_payload,
			       int interrupt)
{
	ppu_pb_copy_sub(pb, PPU_MTHD_SUBCH_ENGINE, src, dst, len, sem_mode, sem_va, sem_payload,
			interrupt);
}

static inline void ppu_pb_nonstall(struct ppu_pb *pb)
{
	ppu_pb_push(pb, ppu_mthd_immd(PPU_HOST_NON_STALL_INTR, 0));
}

/* A kernel launch: the TMD's address (a 32-bit VA), then LAUNCH. */
static inline void ppu_pb_launch(struct ppu_pb *pb, ppu_u32 tmd_va)
{
	const ppu_u32 d[2] = { tmd_va, 0 };

	ppu_pb_inc(pb, PPU_COMPUTE_TMD_ADDR_LO, d, 2);
	ppu_pb_method(pb, PPU_COMPUTE_LAUNCH, 0);
}

/* ---- memory structures ---- */

/* Physical address plus aperture, as the *_HI words hold it. */
static inline ppu_u32 ppu_addr_hi(ppu_u64 pa, int sys)
{
	return PPU_FSET(PPU_ADDR_HI_ADDR, (ppu_u32)(pa >> 32)) | PPU_FSET(PPU_ADDR_HI_SYS, !!sys);
}

static inline void ppu_chan_entry(ppu_u32 out[2], ppu_u64 inst_pa, int sys, int valid)
{
	out[0] = PPU_FSET(PPU_CHAN_ENTRY_LO_INST_ADDR, (ppu_u32)inst_pa >> 6) |
		 PPU_FSET(PPU_CHAN_ENTRY_LO_VALID, !!valid);
	out[1] = ppu_addr_hi(inst_pa, sys);
}

struct ppu_inst_desc {
	ppu_u32 gpfifo_va;
	ppu_u32 log2_entries;
	int auto_put;		/* GPFIFO_CFG.AUTO_PUT: entries guarded by semaphores */
	ppu_u64 userd_pa;
	int userd_sys;
	ppu_u64 pt_root_pa;	/* 4 KiB aligned */
	int pt_root_sys;
	ppu_u32 engine;		/* PPU_ENGINE_TYPE_* */
	ppu_u32 prio_min, prio_max, max_depth;
	ppu_u32 timeslice;	/* cycles, 0 = SCHED_TIMESLICE */
};

/* Fills a 64-byte instance block (16 words). */
static inline void ppu_inst_fill(ppu_u32 inst[16], const struct ppu_inst_desc *d)
{
	int i;

	for (i = 0; i < 16; i++)
		inst[i] = 0;
	inst[PPU_INST_GPFIFO_VA / 4] = d->gpfifo_va;
	inst[PPU_INST_GPFIFO_CFG / 4] = PPU_FSET(PPU_INST_GPFIFO_CFG_LOG2_ENTRIES, d->log2_entries) |
					PPU_FSET(PPU_INST_GPFIFO_CFG_AUTO_PUT, !!d->auto_put);
	inst[PPU_INST_USERD_LO / 4] = (ppu_u32)d->userd_pa;
	inst[PPU_INST_USERD_HI / 4] = ppu_addr_hi(d->userd_pa, d->userd_sys);
	inst[PPU_INST_PT_ROOT / 4] = PPU_FSET(PPU_INST_PT_ROOT_PPN, (ppu_u32)(d->pt_root_pa >> 12)) |
				     PPU_FSET(PPU_INST_PT_ROOT_SYS, !!d->pt_root_sys);
	inst[PPU_INST_ENGINE / 4] = PPU_FSET(PPU_INST_ENGINE_TYPE, d->engine);
	inst[PPU_INST_PRIORITY / 4] = PPU_FSET(PPU_INST_PRIORITY_MIN, d->prio_min) |
				      PPU_FSET(PPU_INST_PRIORITY_MAX, d->prio_max) |
				      PPU_FSET(PPU_INST_PRIORITY_MAX_DEPTH, d->max_depth);
	inst[PPU_INST_TIMESLICE / 4] = d->timeslice;
}

/* Task descriptor (TMD) fields; docs/compute-design.md §2.1 gives the rules. */
struct ppu_tmd_desc {
	ppu_u32 entry_pc;
	ppu_u32 grid[3], cta[3];
	ppu_u32 param;
	ppu_u32 prio;		/* clamped by the channel */
	ppu_u32 flags;		/* PPU_TMD_FLAGS_* bits, as a word */
	ppu_u32 sem_addr, sem_payload;
	ppu_u32 stack_bytes;	/* per thread */
	ppu_u32 save_ctas;	/* k */
	ppu_u32 block_bytes, block_va;
};

/*
 * Save slots k of a task block for @ctas CTAs of @threads (>= 1) threads:
 * as many CTAs as can be resident at once (a CTA of more threads than a
 * unit's contexts takes a whole unit), at most @ctas and
 * PPU_TASK_BLOCK_MAX_SLOTS.  Every started CTA may need its thread records
 * for a save, so with this k a save always has room.
 */
static inline ppu_u32 ppu_task_save_slots(ppu_u32 ctas, ppu_u32 threads, ppu_u32 num_cu,
					  ppu_u32 cu_contexts)
{
	ppu_u32 resident = threads <= cu_contexts ? num_cu * (cu_contexts / threads) : num_cu;

	if (resident > PPU_TASK_BLOCK_MAX_SLOTS)
		resident = PPU_TASK_BLOCK_MAX_SLOTS;
	return ctas < resident ? ctas : resident;
}

/* Fills a 64-byte TMD (16 words); the DEPTH field is the PPU's to write. */
static inline void ppu_tmd_fill(ppu_u32 tmd[16], const struct ppu_tmd_desc *d)
{
	int i;

	for (i = 0; i < 16; i++)
		tmd[i] = 0;
	tmd[PPU_TMD_ENTRY_PC / 4] = d->entry_pc;
	tmd[PPU_TMD_GRID_X / 4] = d->grid[0];
	tmd[PPU_TMD_GRID_Y / 4] = d->grid[1];
	tmd[PPU_TMD_GRID_Z / 4] = d->grid[2];
	tmd[PPU_TMD_CTA_X / 4] = d->cta[0];
	tmd[PPU_TMD_CTA_Y / 4] = d->cta[1];
	tmd[PPU_TMD_CTA_Z / 4] = d->cta[2];
	tmd[PPU_TMD_PARAM_PTR / 4] = d->param;
	tmd[PPU_TMD_PRIORITY / 4] = PPU_FSET(PPU_TMD_PRIORITY_PRIO, d->prio);
	tmd[PPU_TMD_FLAGS / 4] = d->flags;
	tmd[PPU_TMD_SEM_ADDR / 4] = d->sem_addr;
	tmd[PPU_TMD_SEM_PAYLOAD / 4] = d->sem_payload;
	tmd[PPU_TMD_STACK_BYTES / 4] = d->stack_bytes;
	tmd[PPU_TMD_SAVE_CTAS / 4] = d->save_ctas;
	tmd[PPU_TMD_BLOCK_BYTES / 4] = d->block_bytes;
	tmd[PPU_TMD_BLOCK_VA / 4] = d->block_va;
}

/* Sv32 PTEs.  perms is a mask of PPU_PTE_R/W/X/U bits built with ppu_pte_perm(). */
#define PPU_PTE_BIT(f) ((ppu_u32)1 << (f##__LSB))
#define PPU_PTE_PERM_R PPU_PTE_BIT(PPU_PTE_R)
#define PPU_PTE_PERM_W PPU_PTE_BIT(PPU_PTE_W)
#define PPU_PTE_PERM_X PPU_PTE_BIT(PPU_PTE_X)
#define PPU_PTE_PERM_U PPU_PTE_BIT(PPU_PTE_U)

/* Leaf: A and D are set because the PPU does not update them (Svade). */
static inline ppu_u32 ppu_pte_leaf(ppu_u64 pa, int sys, ppu_u32 perms)
{
	return PPU_FSET(PPU_PTE_PPN, (ppu_u32)(pa >> 12)) | perms | PPU_PTE_BIT(PPU_PTE_V) |
	       PPU_PTE_BIT(PPU_PTE_A) | PPU_PTE_BIT(PPU_PTE_D) | PPU_FSET(PPU_PTE_SYS, !!sys);
}

/* Pointer to a next-level table. */
static inline ppu_u32 ppu_pte_table(ppu_u64 pa, int sys)
{
	return PPU_FSET(PPU_PTE_PPN, (ppu_u32)(pa >> 12)) | PPU_PTE_BIT(PPU_PTE_V) |
	       PPU_FSET(PPU_PTE_SYS, !!sys);
}

/* ---- BAR0 ---- */

/*
 * Size of BAR0 for @num_channels channels (CAP_NUM_CHANNELS): the register
 * window and one doorbell page per channel, rounded up to a power of two
 * as a PCI BAR must be.
 */
static inline ppu_u32 ppu_bar0_bytes(ppu_u32 num_channels)
{
	ppu_u32 need = PPU_USERDB_BASE + num_channels * PPU_USERDB_STRIDE, size = PPU_BAR0_SIZE;

	while (size < need)
		size <<= 1;
	return size;
}

/* Byte offset in BAR0 of channel @chid's doorbell page. */
static inline ppu_u32 ppu_userdb_offset(ppu_u32 chid)
{
	return PPU_USERDB_BASE + chid * PPU_USERDB_STRIDE;
}

#endif /* PPU_ENCODE_H */
