// SPDX-License-Identifier: MIT
/*
 * Command sequences of prioritised copies; the technique is described in
 * copy_prio.h.
 */
#include <errno.h>

#include "copy_prio.h"

/* ppu_pb_sem(): one incrementing header, five data words. */
#define SEM_DWORDS 6u
/* ppu_pb_copy(): eight address/length/semaphore words and LAUNCH_DMA. */
#define COPY_DWORDS 11u

void ppu_copy_prio_set_mode(struct ppu_copy_prio *cp, enum ppu_copy_prio_mode mode)
{
	cp->sems = mode != PPU_COPY_PRIO_OFF;
	cp->inc_first = mode == PPU_COPY_PRIO_STRICT;
}

void ppu_copy_prio_init(struct ppu_copy_prio *cp, enum ppu_copy_prio_mode mode)
{
	unsigned int i;

	ppu_copy_prio_set_mode(cp, mode);
	cp->used = 0;
	for (i = 0; i < PPU_COPY_PRIO_LEVELS; i++)
		cp->sem_va[i] = 0;
}

static int level_used(const struct ppu_copy_prio *cp, unsigned int level)
{
	return level < PPU_COPY_PRIO_LEVELS && (cp->used >> level & 1);
}

int ppu_copy_prio_add_level(struct ppu_copy_prio *cp, unsigned int level, uint32_t sem_va)
{
	if (level >= PPU_COPY_PRIO_LEVELS || level_used(cp, level))
		return -EINVAL;
	if (level > 0 && (sem_va == 0 || (sem_va & 3)))
		return -EINVAL;
	cp->sem_va[level] = level > 0 ? sem_va : 0;
	cp->used |= 1ull << level;
	return 0;
}

unsigned int ppu_copy_prio_acquires(const struct ppu_copy_prio *cp, unsigned int level)
{
	unsigned int p, n = 0;

	if (!cp->sems || level >= PPU_COPY_PRIO_LEVELS)
		return 0;
	for (p = level + 1; p < PPU_COPY_PRIO_LEVELS; p++)
		n += level_used(cp, p);
	return n;
}

static int has_sem(const struct ppu_copy_prio *cp, unsigned int level)
{
	return cp->sems && level > 0;
}

uint32_t ppu_copy_prio_step_dwords(const struct ppu_copy_prio *cp, unsigned int level)
{
	/* The first step carries the INC, the last the DEC: count both. */
	return ppu_copy_prio_acquires(cp, level) * SEM_DWORDS + COPY_DWORDS +
	       (has_sem(cp, level) ? 2u * SEM_DWORDS : 0u);
}

int ppu_copy_op_init(const struct ppu_copy_prio *cp, struct ppu_copy_op *op, unsigned int level,
		     uint32_t dst, uint32_t src, uint64_t len, uint32_t chunk)
{
	if (!level_used(cp, level) || len == 0)
		return -EINVAL;
	/* Not dst + len: a huge len would wrap the sum. */
	if (len > 0x100000000ull - dst || len > 0x100000000ull - src)
		return -EINVAL;
	op->level = level;
	op->dst = dst;
	op->src = src;
	op->left = len;
	op->chunk = chunk && chunk < PPU_COPY_PRIO_MAX_COMMAND ? chunk : PPU_COPY_PRIO_MAX_COMMAND;
	op->started = 0;
	op->done = 0;
	return 0;
}

static void emit_acquires(const struct ppu_copy_prio *cp, unsigned int level, struct ppu_pb *pb)
{
	unsigned int p;

	if (!cp->sems)
		return;
	/* Highest first: the likeliest to be busy is checked first. */
	for (p = PPU_COPY_PRIO_LEVELS - 1; p > level; p--)
		if (level_used(cp, p))
			ppu_pb_sem_acquire(pb, cp->sem_va[p], 0);
}

int ppu_copy_prio_emit(const struct ppu_copy_prio *cp, struct ppu_copy_op *op, struct ppu_pb *pb)
{
	uint32_t acq = ppu_copy_prio_acquires(cp, op->level) * SEM_DWORDS;
	int sem = has_sem(cp, op->level);

	while (!op->done) {
		uint32_t n = op->left < op->chunk ? (uint32_t)op->left : op->chunk;
		int last = n == op->left;
		uint32_t need = acq + COPY_DWORDS + (sem && !op->started ? SEM_DWORDS : 0) +
				(sem && last ? SEM_DWORDS : 0);

		if (pb->cap - pb->len < need)
			return 0;
		if (sem && !op->started && cp->inc_first)
			ppu_pb_sem_inc(pb, cp->sem_va[op->level]);
		emit_acquires(cp, op->level, pb);
		if (sem && !op->started && !cp->inc_first)
			ppu_pb_sem_inc(pb, cp->sem_va[op->level]);
		ppu_pb_copy(pb, op->src, op->dst, n, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
		if (sem && last)
			ppu_pb_sem_dec(pb, cp->sem_va[op->level]);
		op->started = 1;
		op->src += n;
		op->dst += n;
		op->left -= n;
		op->done = last;
	}
	return 1;
}
