/* SPDX-License-Identifier: MIT */
/*
 * Which pushbuffer dwords of a channel software may write.
 *
 * A channel's pushbuffer is a ring of segments, one per GPFIFO entry, in
 * submission order.  A segment may be overwritten only once the PPU has
 * consumed it, and the one thing the PPU reports about that is GP_GET,
 * which it writes back to USERD after the last method of an entry has
 * executed (the pushbuffer fetch never reads past the segment it is in).
 * A semaphore released inside the entry says nothing about the methods
 * after it: the host may still have to fetch them, for instance after a
 * channel switch at that method boundary.
 *
 * So the entries between GP_GET and GP_PUT own their segments; everything
 * else is free.  The module only does this bookkeeping (no device, no
 * I/O), so it is tested on its own.
 */
#ifndef PPU_PB_RING_H
#define PPU_PB_RING_H

#include <stdint.h>

struct ppu_pb_ring {
	uint32_t dwords;	/* pushbuffer size */
	uint32_t entries;	/* GPFIFO entries, a power of two */
	uint32_t head;		/* one past the newest segment */
	uint32_t *start;	/* first dword of each entry's segment, by GPFIFO index */
};

/* Sets up an empty ring; @start has room for @entries values. */
void ppu_pb_ring_init(struct ppu_pb_ring *r, uint32_t dwords, uint32_t entries, uint32_t *start);
/* Entries submitted and not yet consumed, for GP_PUT @put and GP_GET @get. */
uint32_t ppu_pb_ring_busy(const struct ppu_pb_ring *r, uint32_t put, uint32_t get);
/*
 * Where a segment of at least @need dwords can start: returns 1 with the
 * offset in *@at and the free dwords there in *@avail, or 0 when the
 * unconsumed segments (or a full GPFIFO) leave no room until GP_GET moves.
 */
int ppu_pb_ring_find(const struct ppu_pb_ring *r, uint32_t put, uint32_t get, uint32_t need,
		     uint32_t *at, uint32_t *avail);
/* Entry @put (its GPFIFO index) now owns [@at, @at + @len). */
void ppu_pb_ring_push(struct ppu_pb_ring *r, uint32_t put, uint32_t at, uint32_t len);

#endif /* PPU_PB_RING_H */
