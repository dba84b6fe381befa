/* SPDX-License-Identifier: MIT */
/*
 * Stream priorities with dynamic parallelism (US 9575760).
 *
 * The device has M task priorities, 0 (lowest) .. M-1.  A task launched by a running task runs
 * one priority above its parent, and a parent->child chain may be at most N tasks long (the
 * application's max nesting depth).  If stream priorities were mapped 1:1 to device priorities,
 * the children of a low-priority stream would climb into the priorities of higher streams and
 * preempt them.  So each stream priority level gets a block of N device priorities: its tasks
 * start at the bottom of the block and their descendants use the N-1 above it, which leaves
 * L = floor(M / N) stream priority levels.
 *
 * When the application's range [lo, hi] has more than L priorities, some must share a level:
 *  - PPU_PRIO_SHARE_HIGHEST (main embodiment, what the runtime uses): levels start at device
 *    priority 0 (lo -> 0, lo+1 -> N, ...) and every priority above the first L-1 shares the top
 *    level (L-1)*N, so low-priority streams keep their distinctions.
 *  - PPU_PRIO_SHARE_LOWEST (alternative): levels are anchored at the top (hi -> M-N,
 *    hi-1 -> M-2N, ...) and the lowest priorities share the bottom level used, so the most
 *    important streams stay distinct instead.
 *
 * Stream priorities outside [lo, hi] are clamped to the nearest end, as CUDA does, rather than
 * rejected: a stream created with an out-of-range priority still gets a valid one.  In this
 * module a larger number is a higher priority, and the default priority (a stream created
 * without one) is lo.
 *
 * Pure: libc only, so the unit tests run without a device.
 */
#ifndef PPU_PRIORITY_MAP_H
#define PPU_PRIORITY_MAP_H

#include <stddef.h>

enum ppu_prio_embodiment {
	/* main: anchored at 0, the highest overflow priorities share the top level */
	PPU_PRIO_SHARE_HIGHEST = 0,
	/* alternative: anchored at M - N, the lowest overflow priorities share the bottom level */
	PPU_PRIO_SHARE_LOWEST = 1,
};

struct ppu_prio_map {
	unsigned int num_device_prios;	/* M */
	unsigned int max_depth;		/* N */
	unsigned int levels;		/* floor(M / N) */
	unsigned int used;		/* levels the range occupies: min(L, hi - lo + 1) */
	int stream_lo, stream_hi;	/* the application's range; lo = lowest priority */
	enum ppu_prio_embodiment embodiment;
};

/* 0, or -EINVAL for M == 0, N == 0, N > M, lo > hi, an unknown embodiment or a NULL map. */
int ppu_prio_map_init(struct ppu_prio_map *m, unsigned int num_device_prios, unsigned int max_depth,
		      int stream_lo, int stream_hi, enum ppu_prio_embodiment embodiment);

/*
 * The queries below take a map ppu_prio_map_init() accepted; they cannot report errors, so a
 * NULL map yields 0 instead of crashing.
 */

/* floor(M / N) */
unsigned int ppu_prio_map_levels(const struct ppu_prio_map *m);
/*
 * The level index 0..L-1 a stream priority uses after clamping and overflow sharing
 * (0 = lowest level used by the map).
 */
unsigned int ppu_prio_map_level(const struct ppu_prio_map *m, int stream_prio);
/* The device priority of a stream priority (clamped to [lo, hi] first). */
unsigned int ppu_prio_map_device(const struct ppu_prio_map *m, int stream_prio);
/* The default stream priority (lo) and its device priority. */
int ppu_prio_map_default_stream(const struct ppu_prio_map *m);
unsigned int ppu_prio_map_default_device(const struct ppu_prio_map *m);

/*
 * A launch by a task at (parent_prio, parent_depth), depth counted from 1 for a task launched by
 * the host: 0 and *child_prio = parent + 1, *child_depth = parent_depth + 1; -E2BIG when the child
 * would be deeper than N (the device reports that error to the launching thread), -EINVAL for a
 * NULL pointer, parent_depth 0, parent_prio >= M, or a child priority that would reach M.
 * The outputs are written only on success.
 */
int ppu_prio_map_child(const struct ppu_prio_map *m, unsigned int parent_prio,
		       unsigned int parent_depth, unsigned int *child_prio,
		       unsigned int *child_depth);

/*
 * Prints one line per device priority used, lowest first:
 *   "100 -> 0 (children up to 3)\n" or "101..199 -> 4 (children up to 7)\n"
 * ("(no children)" when N == 1).  snprintf semantics: returns the length of the whole table,
 * writes at most len bytes (NUL-terminated when len > 0); buf may be NULL when len is 0.
 * -EINVAL for a NULL map or a NULL buf with len > 0, -EOVERFLOW past INT_MAX characters.
 */
int ppu_prio_map_format(const struct ppu_prio_map *m, char *buf, size_t len);

#endif /* PPU_PRIORITY_MAP_H */
