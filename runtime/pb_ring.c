// SPDX-License-Identifier: MIT
/*
 * Pushbuffer ring bookkeeping; the rule is described in pb_ring.h.
 */
#include "pb_ring.h"

void ppu_pb_ring_init(struct ppu_pb_ring *r, uint32_t dwords, uint32_t entries, uint32_t *start)
{
	r->dwords = dwords;
	r->entries = entries;
	r->head = 0;
	r->start = start;
}

uint32_t ppu_pb_ring_busy(const struct ppu_pb_ring *r, uint32_t put, uint32_t get)
{
	return (put - get) & (r->entries - 1);
}

int ppu_pb_ring_find(const struct ppu_pb_ring *r, uint32_t put, uint32_t get, uint32_t need,
		     uint32_t *at, uint32_t *avail)
{
	uint32_t busy = ppu_pb_ring_busy(r, put, get);
	uint32_t head = r->head, tail;

	/* GP_PUT may not reach GP_GET - 1: that would read as full. */
	if (busy >= r->entries - 1)
		return 0;
	if (busy == 0) {
		*at = 0;
		*avail = r->dwords;
		return need <= r->dwords;
	}
	tail = r->start[get & (r->entries - 1)];
	/*
	 * The unconsumed segments run from tail to head.  Free space stays
	 * strictly below the tail, so that head == tail never means both
	 * "nothing in use" and "everything in use".
	 */
	if (head > tail) {
		if (r->dwords - head >= need) {
			*at = head;
			*avail = r->dwords - head;
			return 1;
		}
		*at = 0;
		*avail = tail ? tail - 1 : 0;
		return tail > need;
	}
	*at = head;
	*avail = tail > head ? tail - head - 1 : 0;
	return tail > head && tail - head > need;
}

void ppu_pb_ring_push(struct ppu_pb_ring *r, uint32_t put, uint32_t at, uint32_t len)
{
	r->start[put & (r->entries - 1)] = at;
	r->head = at + len;
}
