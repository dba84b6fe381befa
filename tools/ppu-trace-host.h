/* SPDX-License-Identifier: MIT */
/*
 * libppu's host events (PPU_TRACE files, runtime/trace.h) on the device's
 * timeline.
 *
 * A host file is read whole (host events are few next to device records):
 *
 *     <host ns> <pid> <tid> <KIND> [dur=<ns>] key=value ...
 *
 * Its SYNC lines pair a host time with a PPU cycle-counter value.  The
 * alignment maps host nanoseconds to counter cycles from those points
 * (ppu_align_*), and the counter to the device trace's cycles by an offset
 * found by matching the timestamped releases the host saw (src=release:
 * channel, address, value) with the trace's SEM_RELEASE records.  Then the
 * host events become lanes (a track per stream and per thread, grouped by
 * process), slices, instants and flows from each copy chunk the host
 * submitted to the COPY_START on the device that ran it: the chunks of a
 * channel are matched in order within one binding of the channel (BIND to
 * UNBIND), the binding being the one the host's first submission to that
 * channel maps into.
 */
#ifndef PPU_TRACE_HOST_H
#define PPU_TRACE_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "ppu-trace-model.h"
#include "ppu-trace-parse.h"

/* ---- alignment: host ns -> device cycles ---- */

enum ppu_align_method {
	PPU_ALIGN_PIECEWISE,	/* interpolate between neighbouring points (default) */
	PPU_ALIGN_LINE,		/* one least-squares line through all points */
};

struct ppu_align_point {
	double t;		/* host ns */
	double c;		/* device cycles */
};

struct ppu_align {
	enum ppu_align_method method;
	size_t n;
	struct ppu_align_point *p;	/* by host time, cycles made non-decreasing */
	double a, b;		/* the line c = a + b * (t - t_mean) */
	double t_mean;
	/* Quality, in cycles: the line's residuals, and for the piecewise map
	 * each inner point predicted from its two neighbours alone. */
	double line_rms, line_max;
	double loo_median, loo_max;
	size_t loo_n;
};

/*
 * Fits @n points.  With one point the map is that point plus @rate cycles
 * per ns; with none it fails (-1, reason in @err).
 */
int ppu_align_fit(struct ppu_align *al, const struct ppu_align_point *pts, size_t n,
		  enum ppu_align_method method, double rate, char *err, size_t errlen);
double ppu_align_map(const struct ppu_align *al, double t);
void ppu_align_free(struct ppu_align *al);

/* ---- host events ---- */

enum ppu_host_kind {
	PPU_HOST_CTX_CREATE, PPU_HOST_CTX_SYNC, PPU_HOST_CTX_DESTROY,
	PPU_HOST_STREAM_CREATE, PPU_HOST_STREAM_ATTACH, PPU_HOST_STREAM_DESTROY,
	PPU_HOST_STREAM_SYNC, PPU_HOST_COPY, PPU_HOST_CHUNK, PPU_HOST_LAUNCH,
	PPU_HOST_EVENT_RECORD, PPU_HOST_EVENT_SYNC, PPU_HOST_MODULE_LOAD,
	PPU_HOST_WORKQ_CREATE, PPU_HOST_SYNC,
	PPU_HOST_OTHER,		/* a kind this tool does not know: drawn as is */
};

struct ppu_host_ev {
	int64_t t, dur;		/* ns; dur < 0: an instant */
	long pid, tid;
	enum ppu_host_kind kind;
	char kind_name[24];
	char *fields;		/* "key=value key=value" (malloc'ed) */
};

enum ppu_host_line { PPU_HOST_LINE_EVENT, PPU_HOST_LINE_SKIP, PPU_HOST_LINE_BAD };

/* Parses one line; on EVENT, ev->fields must be freed. */
enum ppu_host_line ppu_host_parse_line(const char *line, struct ppu_host_ev *ev, char *err,
				       size_t errlen);
/* The value of @key in @ev's fields into @buf; 0, or -1 when absent. */
int ppu_host_field(const struct ppu_host_ev *ev, const char *key, char *buf, size_t len);
/* A numeric field (decimal or 0x); @def when absent or not a number. */
long long ppu_host_num(const struct ppu_host_ev *ev, const char *key, long long def);

/* ---- merging ---- */

struct ppu_host_opts {
	enum ppu_align_method method;
	double rate;		/* cycles per ns with a single sync point */
	int have_offset;	/* offset given: the trace's cycle = counter + offset */
	int64_t offset;
};

struct ppu_host;

/* Reads @path; NULL with the reason in @err. */
struct ppu_host *ppu_host_load(const char *path, const struct ppu_host_opts *o, char *err,
			       size_t errlen);
void ppu_host_free(struct ppu_host *h);
/*
 * The device priority the host file gives channel @ch (its streams' copy
 * channels, its launches' compute channels), or -1 when it says none or
 * disagrees with itself (a channel id reused at another priority).
 */
int ppu_host_chan_prio(const struct ppu_host *h, unsigned int ch);
/* Each device record, in order, before the host events are placed. */
void ppu_host_observe(struct ppu_host *h, const struct ppu_trace_rec *r);
/*
 * Fits the alignment, then hands the host lanes (ids from @first_lane on),
 * slices, instants and flows to @sink.  -1 (reason in @err) when no
 * alignment is possible.
 */
int ppu_host_emit(struct ppu_host *h, const struct ppu_tl_sink *sink, int first_lane, char *err,
		  size_t errlen);

struct ppu_host_stats {
	size_t events, syncs_counter, syncs_release, releases_matched;
	size_t tracks, flows, chunks_unmatched;
	int64_t offset;		/* trace cycle - counter */
	int offset_found;	/* from matched releases (else assumed or given) */
	const struct ppu_align *align;
};

const struct ppu_host_stats *ppu_host_get_stats(const struct ppu_host *h);
/* Where host time @t_ns lands in the device trace's cycles (after emit). */
int64_t ppu_host_cycle(const struct ppu_host *h, double t_ns);

#endif /* PPU_TRACE_HOST_H */
