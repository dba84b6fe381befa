/* SPDX-License-Identifier: MIT */
/*
 * The PPU-owned work queue of device-side work creation (SEEDS §C): its
 * descriptor in memory and the command blocks around it, shared by libppu
 * (which builds the queue) and kernels (which submit to it through
 * ppu_workq_submit() in ppu_device.h).  docs/compute-design.md §6.4 gives
 * the protocol; this file is its one encoding.
 *
 * The queue is a channel whose ring is always full (instance
 * GPFIFO_CFG.AUTO_PUT): the host interface runs entry after entry, and
 * every entry is guarded by the semaphore of the entry before it.  Entry k
 * (a free-running counter; ring index k & (n - 1)) has the semaphore
 * sems[k & (n - 1)], released with generation ppu_workq_gen(k) = k / n + 1,
 * so the semaphores never need resetting.
 *
 * A submission of N blocks reserves entries e .. e + N with soft += N + 1
 * (e the old value), may write them once (s32)(e + N - shadow) <= 0,
 * points entries e .. e + N - 1 at its blocks and entry e + N at its
 * trailing block (tails[(e + N) & (n - 1)]: IADD shadow by N + 1, then
 * acquire sems[e + N] CIRC_GEQ gen(e + N)), and finally releases sems[e - 1]
 * with gen(e - 1).  When the host starts a trailing block everything before
 * it has retired, so the N + 1 it adds to shadow makes shadow exactly the
 * last entry that may be written (the one before the trailing block's own
 * slot comes round again).  At creation soft = G0 + 1 and shadow = G0 + n - 1
 * (G0: the entry of the block that parks the queue on X, ppu_workq_park()).
 */
#ifndef PPU_WORKQ_H
#define PPU_WORKQ_H

#include "ppu_encode.h"

/*
 * Queue descriptor, 64 bytes, 64-byte aligned, in memory both sides reach.
 * Launch g of the queue (g = 1, 2, ...) runs its kernel, which submits;
 * the CPU-owned channel then releases X = g and waits for Y = g; the
 * launch's last thread to call ppu_workq_done() submits the closing block,
 * which releases Y = g once everything before it has run and parks the
 * queue on X = g + 1 for the next launch.
 */
struct ppu_workq {
	ppu_u32 soft;		/* next entry to reserve (free-running) */
	ppu_u32 shadow;		/* the last entry that may be written (free-running) */
	ppu_u32 ring_va;	/* the queue channel's GPFIFO */
	ppu_u32 log2_entries;
	ppu_u32 sems_va;	/* 2^log2_entries semaphores, 4 bytes each */
	ppu_u32 tails_va;	/* 2^log2_entries trailing blocks, PPU_WORKQ_TAIL_BYTES each */
	ppu_u32 live;		/* threads of the launch yet to call ppu_workq_done() */
	ppu_u32 gen;		/* the launch under way (its X and Y values), from 1 */
	ppu_u32 x_va;		/* semaphore X: the queue may run launch g's work */
	ppu_u32 y_va;		/* semaphore Y: launch g's work has all run */
	ppu_u32 reserved[6];	/* 0 */
};

#define PPU_WORKQ_SOFT		0x00u
#define PPU_WORKQ_SHADOW	0x04u
#define PPU_WORKQ_LIVE		0x18u
#define PPU_WORKQ_GEN		0x1cu
#define PPU_WORKQ_BYTES		64u
/* A trailing (or closing) block, in a 128-byte slot. */
#define PPU_WORKQ_TAIL_DW	32u
#define PPU_WORKQ_TAIL_BYTES	128u
/* Blocks one submission may hold: the ring needs two entries besides them. */
#define PPU_WORKQ_MAX_BLOCKS(log2_entries)	((1u << (log2_entries)) - 2u)

static inline ppu_u32 ppu_workq_gen(ppu_u32 k, ppu_u32 log2_entries)
{
	return (k >> log2_entries) + 1u;
}

static inline ppu_u32 ppu_workq_sem_va(const struct ppu_workq *q, ppu_u32 k)
{
	return q->sems_va + 4u * (k & ((1u << q->log2_entries) - 1u));
}

/*
 * The trailing block of a submission of @nblk blocks whose last entry is
 * @k, into @pb (PPU_WORKQ_TAIL_DW dwords); @q_va is the descriptor's VA.
 */
static inline void ppu_workq_tail(struct ppu_pb *pb, const struct ppu_workq *q, ppu_u32 q_va,
				  ppu_u32 k, ppu_u32 nblk)
{
	ppu_pb_sem(pb, q_va + PPU_WORKQ_SHADOW, nblk + 1u,
		   ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_IADD, 1));
	ppu_pb_sem(pb, ppu_workq_sem_va(q, k), ppu_workq_gen(k, q->log2_entries),
		   ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0));
}

/*
 * The block that parks the queue at entry @k (G0): it waits for @x_va to
 * equal @x_value (semaphore X, released by the CPU-owned channel) and then,
 * like every trailing block, for its own entry's semaphore, which the first
 * submission releases once its entries are written.  (SEEDS §C leaves the
 * entry after the park block unguarded, which holds only while X is
 * released after every submission; with this guard X may be released at
 * any time.)  Descriptor start values: soft = @k + 1, shadow = @k + n - 1.
 */
static inline void ppu_workq_park(struct ppu_pb *pb, const struct ppu_workq *q, ppu_u32 x_va,
				  ppu_u32 x_value, ppu_u32 k)
{
	ppu_pb_sem_acquire(pb, x_va, x_value);
	ppu_pb_sem(pb, ppu_workq_sem_va(q, k), ppu_workq_gen(k, q->log2_entries),
		   ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0));
}

/*
 * The closing block of launch @gen, at entry @k: a submission of no blocks
 * whose trailing block waits until the queue channel's kernels are done
 * (WFI), releases Y = @gen, adds its 1 to shadow and parks the queue for
 * launch @gen + 1 (ppu_workq_park()).
 */
static inline void ppu_workq_close_block(struct ppu_pb *pb, const struct ppu_workq *q,
					 ppu_u32 q_va, ppu_u32 k, ppu_u32 gen)
{
	ppu_pb_method(pb, PPU_HOST_WFI, 0);
	ppu_pb_sem_release(pb, q->y_va, gen);
	ppu_pb_sem(pb, q_va + PPU_WORKQ_SHADOW, 1,
		   ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_IADD, 1));
	ppu_workq_park(pb, q, q->x_va, gen + 1u, k);
}

/* What ppu_workq_launch_cmds() emits. */
#define PPU_WORKQ_LAUNCH_CMD_DWORDS 25u

/*
 * The CPU-owned channel's part of launch @gen (SEEDS §C): the count of
 * threads that will call ppu_workq_done(), the launch of @tmd_va, WAIT FOR
 * IDLE, SEM_RELEASE X, SEM_ACQUIRE Y.
 */
static inline void ppu_workq_launch_cmds(struct ppu_pb *pb, const struct ppu_workq *q,
					 ppu_u32 q_va, ppu_u32 tmd_va, ppu_u32 threads, ppu_u32 gen)
{
	ppu_pb_sem_release(pb, q_va + PPU_WORKQ_LIVE, threads);
	ppu_pb_launch(pb, tmd_va);
	ppu_pb_method(pb, PPU_HOST_WFI, 0);
	ppu_pb_sem_release(pb, q->x_va, gen);
	ppu_pb_sem(pb, q->y_va, gen, ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0));
}

/* Whether entries up to @last may be written. */
static inline int ppu_workq_room(ppu_u32 last, ppu_u32 shadow)
{
	return (int)(last - shadow) <= 0;
}

#endif /* PPU_WORKQ_H */
