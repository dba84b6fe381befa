/* SPDX-License-Identifier: MIT */
/*
 * Host events of libppu (PPU_TRACE=path): API calls written as text lines
 * to a file, to be drawn next to the device's own trace by ppu-trace
 * --host.  The format is documented in docs/timeline.md ("Host events").
 *
 *     <host ns> <pid> <tid> <KIND> [dur=<ns>] key=value ...
 *
 * Host time is CLOCK_MONOTONIC.  Calls that can block (copies, launches,
 * synchronisations) are written once they return, with the time they began
 * and how long they took, so the file is not sorted by time.  Each line is
 * one write() to a file opened with O_APPEND: lines of threads and
 * processes sharing the file never interleave, and no lock is needed.
 *
 * SYNC lines pair a host time with a PPU cycle so that ppu-trace can put
 * both on one axis: from a read of the PPU's cycle counter bracketed by two
 * clock reads (src=counter, err = half the bracket), or from a timestamped
 * release the runtime saw completed (src=release: the host saw it at or
 * after that cycle).
 *
 * When PPU_TRACE is not set, every hook costs one predictable branch.
 */
#ifndef PPU_TRACE_H
#define PPU_TRACE_H

#include <stdint.h>

#include "ppu_runtime.h"

struct ppu_chan;
struct ppu_sem;

/* The trace file, or -1 when host tracing is off. */
extern int ppu_trace_fd;

#define PPU_TRACING() __builtin_expect(ppu_trace_fd >= 0, 0)

/*
 * Reads PPU_TRACE and opens the file, once per process.  Returns NULL, or
 * (once, to the first caller after a failure) why tracing is off.
 */
const char *ppu_trace_init(void);
/* CLOCK_MONOTONIC in nanoseconds. */
int64_t ppu_trace_now(void);
/*
 * One line: @t0 the host time, @dur the call's duration (< 0: an instant),
 * @kind and then the key=value pairs of @fmt.
 */
void ppu_trace_line(int64_t t0, int64_t dur, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A STREAM_CREATE (or @kind) line with the stream's mapping and channel. */
void ppu_trace_stream(const char *kind, int64_t t0, ppu_stream *s);
/* A SYNC line from the PPU's cycle counter, read now through GET_PARAM. */
void ppu_trace_sync_counter(ppu_ctx *ctx);
/*
 * A SYNC line from the timestamped release of @value to @sem in channel
 * @ch, which the caller has just seen completed.
 */
void ppu_trace_sync_release(ppu_ctx *ctx, const struct ppu_chan *ch, const struct ppu_sem *sem,
			    uint32_t value, const char *what, unsigned int id);
/* "host", "local" or "?" for the allocation holding @va. */
const char *ppu_trace_mem_kind(ppu_ctx *ctx, uint64_t va);

#endif /* PPU_TRACE_H */
