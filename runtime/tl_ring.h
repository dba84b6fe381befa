/* SPDX-License-Identifier: MIT */
/*
 * A ring of memory recycled by the channels' timelines.
 *
 * Some resources of a piece of work must stay unchanged until the PPU has
 * finished it: a kernel's TMD and parameter block (re-read when the task is
 * activated again and at its completion) and its task block (thread
 * records and stacks).  The runtime learns that the work is finished from
 * the timeline of the channel it went to.  So each such resource is a
 * range of a buffer handed out in order around the buffer, tagged with its
 * owner (a channel) and the timeline value that frees it; the oldest
 * ranges are given back once their values have passed.
 *
 * Work in different channels completes in any order, and a young range
 * whose work is done stays taken until every older one is given back:
 * first in, first out costs some room, but a range is never reused early.
 * The module only does this bookkeeping (no device, no I/O), so it is
 * tested on its own.
 */
#ifndef PPU_TL_RING_H
#define PPU_TL_RING_H

#include <stdint.h>

/* One range in use: its owner, the timeline value that frees it, its end. */
struct ppu_tl_ring_tag {
	const void *owner;
	uint32_t seq;
	uint64_t end;		/* head after it (free-running) */
};

struct ppu_tl_ring {
	uint64_t bytes;		/* size of the buffer, a multiple of align */
	uint32_t align;		/* a power of two: every range starts and ends at a multiple */
	uint64_t head, tail;	/* free-running: bytes handed out, bytes given back */
	struct ppu_tl_ring_tag *tags;	/* FIFO of the ranges in use, oldest at first */
	uint32_t cap, first, count;
};

/*
 * Sets up an empty ring over @bytes bytes (a multiple of @align, a power of
 * two).  @tags has room for ppu_tl_ring_tags_needed(@bytes, @align) tags.
 */
void ppu_tl_ring_init(struct ppu_tl_ring *r, uint64_t bytes, uint32_t align,
		      struct ppu_tl_ring_tag *tags);
/* The tags a ring can have in use at once: one per @align bytes. */
uint32_t ppu_tl_ring_tags_needed(uint64_t bytes, uint32_t align);
/* @len rounded up to the ring's alignment (0 for 0). */
uint64_t ppu_tl_ring_round(const struct ppu_tl_ring *r, uint64_t len);
/*
 * Hands out @len bytes (rounded up to the alignment), freed when @owner's
 * timeline passes @seq: 0 with the offset in *@off; -ENOSPC while the
 * ranges in use leave no room (free the oldest and retry); -EINVAL for a
 * zero @len or one larger than the ring.  A range never wraps around the
 * end of the buffer.
 */
int ppu_tl_ring_alloc(struct ppu_tl_ring *r, uint64_t len, const void *owner, uint32_t seq,
		      uint64_t *off);
/* The oldest range's tag, or NULL when nothing is in use. */
const struct ppu_tl_ring_tag *ppu_tl_ring_oldest(const struct ppu_tl_ring *r);
/* Gives the oldest range back (nothing when none is in use). */
void ppu_tl_ring_free_oldest(struct ppu_tl_ring *r);
/*
 * Gives back the oldest ranges for as long as @done says their work is
 * finished; returns how many.
 */
unsigned int ppu_tl_ring_reclaim(struct ppu_tl_ring *r,
				 int (*done)(const void *owner, uint32_t seq));
/* Bytes in use, padding at the wrap included. */
uint64_t ppu_tl_ring_used(const struct ppu_tl_ring *r);

#endif /* PPU_TL_RING_H */
