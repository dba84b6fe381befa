/* SPDX-License-Identifier: MIT */
/*
 * The timeline as a self-contained SVG: one group per input trace on a
 * shared time axis in device cycles, a row per lane, slices coloured by
 * priority (legend), semaphore waits in grey, fault markers in red.
 *
 * Memory stays bounded however long the trace: each lane keeps a fixed
 * number of time buckets whose width doubles (pairs merge) whenever a slice
 * ends beyond the range they cover, and each bucket keeps only the cycles
 * covered per colour.  Drawing turns the buckets into pixel columns and one
 * rectangle per run of equal columns, so slices narrower than a pixel merge
 * and the file has at most a few rectangles per pixel column per lane.  The
 * widest slices (a bounded set) get their names written on them.
 */
#ifndef PPU_TRACE_SVG_H
#define PPU_TRACE_SVG_H

#include <stdio.h>

#include "ppu-trace-model.h"

struct ppu_tl_svg;

/* @plot_width: pixels of the time axis (0: default). */
struct ppu_tl_svg *ppu_tl_svg_new(const char *title, int plot_width);
/*
 * Starts the group of the next input; @first_cycle is its first record's
 * cycle (slices are handed over when they end, so the group's origin must be
 * known before them).  The sink collects into that group.
 */
void ppu_tl_svg_group(struct ppu_tl_svg *v, const char *title, uint64_t first_cycle,
		      struct ppu_tl_sink *sink);
/* Writes the document (f NULL: nothing); 0, or -1 if a write failed.  Frees @v. */
int ppu_tl_svg_finish(struct ppu_tl_svg *v, FILE *f);

#endif /* PPU_TRACE_SVG_H */
