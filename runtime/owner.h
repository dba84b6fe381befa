/* SPDX-License-Identifier: MIT */
/*
 * Which context an object or a device address belongs to, so that one of
 * another context (another device, or another context of the same device)
 * is refused with a message naming both.  Device-free: the live contexts
 * are a list the caller keeps (context.c, under its lock), and addresses
 * are found in the allocation lists they point to.
 *
 * Device addresses (ppu_devptr) are numbers in one context's GPU address
 * space, and two contexts' spaces overlap: an address is taken as this
 * context's whenever one of its allocations holds it, and only an address
 * none of them holds is looked up in the other contexts.
 */
#ifndef PPU_OWNER_H
#define PPU_OWNER_H

#include <stddef.h>
#include <stdint.h>

struct ppu_alloc;

/* One live context, as the other contexts see it. */
struct ppu_owner {
	struct ppu_owner *next;
	int device;			/* the index it was created on */
	unsigned int id;		/* 1, 2, ... in creation order */
	const char *node;		/* its render node */
	struct ppu_alloc *const *allocs;	/* its allocation list */
};

void ppu_owner_add(struct ppu_owner **list, struct ppu_owner *o);
void ppu_owner_remove(struct ppu_owner **list, struct ppu_owner *o);

/* The allocation of @head holding [va, va + len), or NULL. */
struct ppu_alloc *ppu_alloc_in(struct ppu_alloc *head, uint64_t va, uint64_t len);
/* The allocation of @head whose CPU mapping holds @p, or NULL. */
struct ppu_alloc *ppu_alloc_in_host(struct ppu_alloc *head, const void *p);

/*
 * Another context than @self of @list whose allocation holds
 * [va, va + len) (@host NULL) or whose host allocation holds @host; NULL
 * when none does.
 */
const struct ppu_owner *ppu_owner_find(const struct ppu_owner *list,
				       const struct ppu_owner *self, uint64_t va,
				       uint64_t len, const void *host);

/*
 * "<fn>: <what> is of context 2 (device 1, /dev/dri/renderD129), <other>
 * of context 1 (device 0, /dev/dri/renderD128)" into @buf; @other NULL
 * says "not of".
 */
void ppu_owner_mismatch(char *buf, size_t len, const char *fn, const char *what,
			const struct ppu_owner *obj, const char *other,
			const struct ppu_owner *ctx);

#endif /* PPU_OWNER_H */
