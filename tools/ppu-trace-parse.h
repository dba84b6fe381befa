/* SPDX-License-Identifier: MIT */
/*
 * The text form of the RTL's trace records, as the harness writes them
 * (hw/sim/ppu_sim.cpp, docs/harness.md):
 *
 *     <cycle> <KIND> ch=<n> a=0x<hex> b=0x<hex>
 *
 * plus comment lines starting with '#'.  One comment form carries what the
 * records do not: a channel's priority and a label,
 *
 *     # chan <ch> prio <p> [label <text>]
 *
 * which producers may add anywhere before or among the records.  Kind names
 * and numbers come from include/ppu/ppu_trace.def; a kind the def does not
 * know (UNKNOWN_<n> from the harness, or a newer name) is reported as such
 * so that callers can skip it.  Shared by ppu-trace and its tests.
 */
#ifndef PPU_TRACE_PARSE_H
#define PPU_TRACE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "ppu/ppu_hw.h"

struct ppu_trace_rec {
	uint64_t cycle;
	unsigned int kind;	/* PPU_TRACE_* */
	unsigned int chid;
	uint32_t a, b;
};

/* "# chan CH prio P label TEXT": label is empty when absent. */
struct ppu_trace_chan_note {
	unsigned int chid;
	int prio;
	char label[48];
};

enum ppu_trace_line {
	PPU_TRACE_LINE_RECORD,
	PPU_TRACE_LINE_CHAN_NOTE,
	PPU_TRACE_LINE_SKIP,		/* blank line or a comment of another form */
	PPU_TRACE_LINE_UNKNOWN_KIND,	/* well formed, kind not in ppu_trace.def */
	PPU_TRACE_LINE_BAD,		/* malformed; err says why */
};

/* Channel ids are CHID_BITS wide on the trace ports. */
#define PPU_TRACE_MAX_CHID ((1u << PPU_CHID_BITS) - 1)

/*
 * Parses one line (with or without its newline).  On BAD, writes a short
 * reason to @err.
 */
enum ppu_trace_line ppu_trace_parse_line(const char *line, struct ppu_trace_rec *rec,
					 struct ppu_trace_chan_note *note, char *err,
					 size_t errlen);

/* The def's name of a kind, or NULL. */
const char *ppu_trace_kind_name(unsigned int kind);
/* The kind of a name as written in a trace, or -1. */
int ppu_trace_kind_of(const char *name, size_t len);

#endif /* PPU_TRACE_PARSE_H */
