// SPDX-License-Identifier: MIT
/*
 * Timeline-recycled ring bookkeeping; the rule is described in tl_ring.h.
 */
#include <errno.h>
#include <stddef.h>

#include "tl_ring.h"

void ppu_tl_ring_init(struct ppu_tl_ring *r, uint64_t bytes, uint32_t align,
		      struct ppu_tl_ring_tag *tags)
{
	r->bytes = bytes;
	r->align = align;
	r->head = 0;
	r->tail = 0;
	r->tags = tags;
	r->cap = ppu_tl_ring_tags_needed(bytes, align);
	r->first = 0;
	r->count = 0;
}

uint32_t ppu_tl_ring_tags_needed(uint64_t bytes, uint32_t align)
{
	return (uint32_t)(bytes / align);
}

uint64_t ppu_tl_ring_round(const struct ppu_tl_ring *r, uint64_t len)
{
	return (len + r->align - 1) & ~(uint64_t)(r->align - 1);
}

int ppu_tl_ring_alloc(struct ppu_tl_ring *r, uint64_t len, const void *owner, uint32_t seq,
		      uint64_t *off)
{
	struct ppu_tl_ring_tag *t;
	uint64_t at, pad;

	len = ppu_tl_ring_round(r, len);
	if (!len || len > r->bytes)
		return -EINVAL;
	/* Empty: start again at 0, so a large range needs no padding. */
	if (!r->count)
		r->head = r->tail = 0;
	at = r->head % r->bytes;
	pad = at + len > r->bytes ? r->bytes - at : 0;
	/* Every range is at least one alignment unit, so the tags never run out first. */
	if (r->head + pad + len - r->tail > r->bytes || r->count == r->cap)
		return -ENOSPC;
	r->head += pad + len;
	t = &r->tags[(r->first + r->count) % r->cap];
	t->owner = owner;
	t->seq = seq;
	t->end = r->head;
	r->count++;
	*off = pad ? 0 : at;
	return 0;
}

const struct ppu_tl_ring_tag *ppu_tl_ring_oldest(const struct ppu_tl_ring *r)
{
	return r->count ? &r->tags[r->first] : NULL;
}

void ppu_tl_ring_free_oldest(struct ppu_tl_ring *r)
{
	if (!r->count)
		return;
	r->tail = r->tags[r->first].end;
	r->first = (r->first + 1) % r->cap;
	r->count--;
}

unsigned int ppu_tl_ring_reclaim(struct ppu_tl_ring *r,
				 int (*done)(const void *owner, uint32_t seq))
{
	unsigned int n = 0;

	while (r->count && done(r->tags[r->first].owner, r->tags[r->first].seq)) {
		ppu_tl_ring_free_oldest(r);
		n++;
	}
	return n;
}

uint64_t ppu_tl_ring_used(const struct ppu_tl_ring *r)
{
	return r->head - r->tail;
}
