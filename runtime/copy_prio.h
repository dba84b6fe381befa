/* SPDX-License-Identifier: MIT */
/*
 * Prioritised memory copies by semaphore insertion (US 9483423).
 *
 * Streams alias onto one copy channel per copy priority level.  Level 0 is
 * the lowest; every other level n that is in use owns a semaphore S_n,
 * starting at 0, that counts the copies of level n which are queued at
 * the head of their channel and not finished.  A copy at level n becomes,
 * in channel C_n (PPU_COPY_PRIO_STRICT, the default):
 *
 *   if n > 0:                    SEM_INC(S_n)
 *   for every used level p > n:  SEM_ACQUIRE(S_p == 0)
 *   COPY chunk 0
 *   for every chunk i > 0:       SEM_ACQUIRE(S_p == 0) for every used p > n, COPY chunk i
 *   if n > 0:                    SEM_DEC(S_n)
 *
 * The patent's own sequence (PPU_COPY_PRIO_PATENT) acquires first and
 * increments after; with two levels both are the same.  With three or
 * more, a middle copy blocked on a higher one has not yet counted itself
 * in the patent's order, so when the higher copies end the lowest level
 * may start a whole copy ahead of the queued middle ones.  Incrementing
 * first closes that window; it cannot deadlock because a channel that
 * holds S_n only ever waits for higher levels, and the highest waits for
 * nobody.
 *
 * The host's scheduler knows nothing of priorities.  A pending higher copy
 * makes the lower channel's next acquire fail, so the host switches away
 * from it at once; repeating the acquires before every chunk bounds what a
 * higher copy waits for to one chunk per lower level: the chunk on the
 * engine, and at most one chunk of each other lower channel that had
 * already cleared its acquires and was waiting for the engine when the
 * higher copy's SEM_INC ran.
 * Only levels that have a stream are acquired on: a semaphore of an unused
 * level would stay 0 forever.
 *
 * The module only builds command sequences (include/ppu/ppu_encode.h); it
 * knows nothing of channels or the driver, so it is tested without a device.
 */
#ifndef PPU_COPY_PRIO_H
#define PPU_COPY_PRIO_H

#include <stdint.h>

#include "ppu/ppu_encode.h"

#define PPU_COPY_PRIO_LEVELS 64u
/* The most a single copy command moves when splitting is off. */
#define PPU_COPY_PRIO_MAX_COMMAND (1u << 30)

/* How copies are wrapped (the values of PPU_LIMIT_COPY_PRIORITIES). */
enum ppu_copy_prio_mode {
	PPU_COPY_PRIO_OFF = 0,		/* plain copies: the prior art */
	PPU_COPY_PRIO_STRICT = 1,	/* INC own level, then acquire the higher ones */
	PPU_COPY_PRIO_PATENT = 2,	/* acquire the higher ones, then INC (US 9483423) */
};

struct ppu_copy_prio {
	int sems;			/* semaphores in use (mode != OFF) */
	int inc_first;			/* PPU_COPY_PRIO_STRICT */
	uint64_t used;			/* bit n: level n has a channel */
	uint32_t sem_va[PPU_COPY_PRIO_LEVELS];	/* S_n, n >= 1 */
};

/* One copy being turned into commands, possibly over several segments. */
struct ppu_copy_op {
	unsigned int level;
	uint32_t dst, src;
	uint64_t left;		/* bytes not yet emitted */
	uint32_t chunk;		/* bytes per command */
	int started;		/* the first chunk (and the INC) is out */
	int done;		/* everything (and the DEC) is out */
};

void ppu_copy_prio_init(struct ppu_copy_prio *cp, enum ppu_copy_prio_mode mode);
/* Changes the mode, keeping the levels (before any copy is emitted). */
void ppu_copy_prio_set_mode(struct ppu_copy_prio *cp, enum ppu_copy_prio_mode mode);
/*
 * Level @level now has a channel; @sem_va is its semaphore S_level (ignored
 * for level 0), 4-byte aligned and 0.  -EINVAL for a level out of range, a
 * misaligned or zero semaphore address, or a level already added.
 */
int ppu_copy_prio_add_level(struct ppu_copy_prio *cp, unsigned int level, uint32_t sem_va);
/* The number of SEM_ACQUIREs before each chunk of a copy at @level. */
unsigned int ppu_copy_prio_acquires(const struct ppu_copy_prio *cp, unsigned int level);
/* Dwords of the largest step of a copy at @level (what must fit a fresh segment). */
uint32_t ppu_copy_prio_step_dwords(const struct ppu_copy_prio *cp, unsigned int level);
/*
 * Starts a copy of @len bytes at @level, split into commands of @chunk
 * bytes (0: PPU_COPY_PRIO_MAX_COMMAND).  -EINVAL for a level without a
 * channel, a zero @len, or a range that leaves the 32-bit address space.
 */
int ppu_copy_op_init(const struct ppu_copy_prio *cp, struct ppu_copy_op *op, unsigned int level,
		     uint32_t dst, uint32_t src, uint64_t len, uint32_t chunk);
/*
 * Appends as many whole steps of @op as fit in @pb (a step is one chunk
 * with its acquires, plus the INC before the first and the DEC after the
 * last).  Returns 1 when the copy is complete, 0 when @pb is full and the
 * caller must continue in a new segment; never leaves half a step.
 */
int ppu_copy_prio_emit(const struct ppu_copy_prio *cp, struct ppu_copy_op *op, struct ppu_pb *pb);

#endif /* PPU_COPY_PRIO_H */
