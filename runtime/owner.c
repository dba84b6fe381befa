// SPDX-License-Identifier: MIT
/*
 * Which context an object or a device address belongs to (see owner.h).
 */
#include <stdio.h>

#include "owner.h"
#include "ppu_internal.h"

void ppu_owner_add(struct ppu_owner **list, struct ppu_owner *o)
{
	o->next = *list;
	*list = o;
}

void ppu_owner_remove(struct ppu_owner **list, struct ppu_owner *o)
{
	for (; *list; list = &(*list)->next) {
		if (*list == o) {
			*list = o->next;
			o->next = NULL;
			return;
		}
	}
}

struct ppu_alloc *ppu_alloc_in(struct ppu_alloc *head, uint64_t va, uint64_t len)
{
	struct ppu_alloc *a;

	for (a = head; a; a = a->next)
		if (va >= a->va && va - a->va < a->size && len <= a->size - (va - a->va))
			return a;
	return NULL;
}

struct ppu_alloc *ppu_alloc_in_host(struct ppu_alloc *head, const void *p)
{
	const uint8_t *b = p;
	struct ppu_alloc *a;

	for (a = head; a; a = a->next) {
		const uint8_t *m = a->map;

		if (m && b >= m && (uint64_t)(b - m) < a->size)
			return a;
	}
	return NULL;
}

const struct ppu_owner *ppu_owner_find(const struct ppu_owner *list,
				       const struct ppu_owner *self, uint64_t va,
				       uint64_t len, const void *host)
{
	for (; list; list = list->next) {
		if (list == self)
			continue;
		if (host ? ppu_alloc_in_host(*list->allocs, host) != NULL :
			   ppu_alloc_in(*list->allocs, va, len) != NULL)
			return list;
	}
	return NULL;
}

void ppu_owner_mismatch(char *buf, size_t len, const char *fn, const char *what,
			const struct ppu_owner *obj, const char *other,
			const struct ppu_owner *ctx)
{
	snprintf(buf, len, "%s: %s is of context %u (device %d, %s), %s of context %u "
		 "(device %d, %s)", fn, what, obj->id, obj->device, obj->node,
		 other ? other : "not", ctx->id, ctx->device, ctx->node);
}
