/* SPDX-License-Identifier: MIT */
/*
 * The timeline as a Chrome JSON trace (the trace-event format Perfetto and
 * chrome://tracing open): one process per unit (host interface, copy
 * engine, task table, each compute unit, each channel), one thread per lane,
 * "X" complete events for slices, "i" instants, "C" counters, "M" names and
 * sort order.  Events are written as the model finishes them, so memory does
 * not grow with the trace.
 *
 * Time: "ts" and "dur" are microseconds in the format; a device cycle is
 * 1 / clock_mhz of them, so the default clock of 1 MHz shows cycles as
 * microseconds.
 */
#ifndef PPU_TRACE_JSON_H
#define PPU_TRACE_JSON_H

#include <stdio.h>

#include "ppu-trace-model.h"

struct ppu_tl_json;

/* @source: named in the trace's metadata (may be NULL). */
struct ppu_tl_json *ppu_tl_json_new(FILE *f, double clock_mhz, const char *source);
/* The sink to give the model. */
void ppu_tl_json_sink(struct ppu_tl_json *j, struct ppu_tl_sink *sink);
/* Closes the document; 0, or -1 if a write failed. Frees @j. */
int ppu_tl_json_finish(struct ppu_tl_json *j);

/* The process and thread ids a lane gets (tests check the mapping). */
int ppu_tl_json_pid(enum ppu_tl_group g, unsigned int unit);
int ppu_tl_json_tid(const struct ppu_tl_lane *l);

#endif /* PPU_TRACE_JSON_H */
