/* SPDX-License-Identifier: MIT */
/*
 * From trace records to a timeline: lanes (the host scheduler, the copy
 * engine, the task table's slots, the compute units, and per channel its
 * scheduling and its work), complete slices on them, instants and
 * counters.  The model streams: it keeps only the slices still open and a
 * few tables indexed by channel, task id and compute unit, and hands every
 * finished item to a sink (the JSON and SVG writers, or a test).
 *
 * Guarantees the writers and tests rely on: a slice is handed over once,
 * with t0 <= t1; slices of one lane never overlap (a lane that can hold
 * concurrent work, such as a compute unit, is split into rows); lanes are
 * announced by ppu_tl_finish, after every item, with their final names.
 */
#ifndef PPU_TRACE_MODEL_H
#define PPU_TRACE_MODEL_H

#include <stdint.h>

#include "ppu-trace-parse.h"

enum ppu_tl_group {
	PPU_TL_HOST,	/* the host scheduler: which channel is resident */
	PPU_TL_COPY,	/* the copy engine */
	PPU_TL_TASKS,	/* the task table; one row per slot */
	PPU_TL_CU,	/* a compute unit; one row per concurrent CTA */
	PPU_TL_CHAN,	/* a channel: row 0 scheduling, row 1 its work, row 2 its kernels */
	PPU_TL_API,	/* libppu's calls (ppu-trace-host.h): unit = host process, row = track */
};

enum { PPU_TL_CHAN_SCHED, PPU_TL_CHAN_WORK, PPU_TL_CHAN_KERNELS };

/* Bounds of the tables the model keeps (larger ids are counted, not drawn). */
#define PPU_TL_MAX_CU 64u
#define PPU_TL_MAX_CU_ROWS 64u
#define PPU_TL_MAX_J 32u
#define PPU_TL_MAX_ARGS 8

struct ppu_tl_lane {
	int id;			/* dense, in order of first use */
	enum ppu_tl_group group;
	unsigned int unit;	/* channel or compute unit; 0 otherwise */
	unsigned int row;
	char group_name[80];	/* "channel 3 (copy) C_low, prio 0", "CU 2", "copy engine" */
	char name[112];		/* the lane itself: "channel 3 (copy) scheduling", "CU 2 row 1" */
};

/* Where a lane is, fixed when the model creates it. */
struct ppu_tl_where {
	enum ppu_tl_group group;
	unsigned int unit, row;
};

struct ppu_tl_arg {
	const char *key;
	char val[40];
	int quoted;		/* a string, not a number */
};

struct ppu_tl_slice {
	int lane;
	struct ppu_tl_where where;	/* of the lane */
	uint64_t t0, t1;
	const char *cat;	/* "resident", "copy", "sem_wait", "task", "cta",
				 * "kernels", "unit_wait" */
	char name[112];
	int prio;		/* -1: not known */
	int wait;		/* waiting, not working */
	int unfinished;		/* still open when the trace ended */
	int nargs;
	struct ppu_tl_arg args[PPU_TL_MAX_ARGS];
};

enum ppu_tl_scope { PPU_TL_SCOPE_LANE, PPU_TL_SCOPE_GLOBAL };

struct ppu_tl_instant {
	int lane;
	struct ppu_tl_where where;
	uint64_t t;
	const char *cat;	/* "fault", "nonstall", "priority", "preempt", ... */
	char name[112];
	enum ppu_tl_scope scope;
	int nargs;
	struct ppu_tl_arg args[PPU_TL_MAX_ARGS];
};

enum ppu_tl_counter {
	PPU_TL_CNT_PENDING_CHANNELS,	/* doorbell rung, channel not idle yet */
	PPU_TL_CNT_SEM_WAITERS,		/* channels in a failed acquire */
	PPU_TL_CNT_COPIES,		/* copies in flight */
	PPU_TL_CNT_ACTIVE_TASKS,	/* tasks in a slot of the task table */
	PPU_TL_CNT_PENDING_TASKS,	/* launched, waiting for a slot */
	PPU_TL_NCOUNTERS,
};

extern const char *const ppu_tl_counter_names[PPU_TL_NCOUNTERS];
/* The group whose track a counter belongs to. */
extern const enum ppu_tl_group ppu_tl_counter_group[PPU_TL_NCOUNTERS];

/* An arrow from one lane's point in time to another's (a host call to the device work). */
struct ppu_tl_flow {
	uint64_t id;
	const char *name;
	struct ppu_tl_where from, to;
	uint64_t t_from, t_to;
};

struct ppu_tl_sink {
	void *ctx;
	void (*lane)(void *ctx, const struct ppu_tl_lane *l);
	void (*slice)(void *ctx, const struct ppu_tl_slice *s);
	void (*instant)(void *ctx, const struct ppu_tl_instant *i);
	void (*counter)(void *ctx, enum ppu_tl_counter c, uint64_t t, int64_t value);
	void (*flow)(void *ctx, const struct ppu_tl_flow *f);	/* may be NULL */
};

struct ppu_tl_stats {
	uint64_t records, slices, instants;
	uint64_t copy_start_unmatched;	/* still open at the end, or replaced */
	uint64_t copy_end_unmatched;	/* no COPY_START open on that channel */
	uint64_t sem_wait_unfinished;
	uint64_t out_of_range;		/* ids beyond the model's tables */
	uint64_t first_cycle, last_cycle;
};

struct ppu_tl_model;

struct ppu_tl_model *ppu_tl_model_new(const struct ppu_tl_sink *sink);
void ppu_tl_model_free(struct ppu_tl_model *m);
/* A channel's priority (-1: unknown) and label (NULL or "": none). */
void ppu_tl_set_chan(struct ppu_tl_model *m, unsigned int chid, int prio, const char *label);
/* Feeds one record; -1 if its cycle is before the previous record's. */
int ppu_tl_feed(struct ppu_tl_model *m, const struct ppu_trace_rec *r);
/* Ends every open slice at the last cycle, marked unfinished; announces lanes. */
void ppu_tl_finish(struct ppu_tl_model *m);
const struct ppu_tl_stats *ppu_tl_get_stats(const struct ppu_tl_model *m);
/* The lanes so far (valid until the next feed). */
const struct ppu_tl_lane *ppu_tl_lanes(const struct ppu_tl_model *m, int *n);

#endif /* PPU_TRACE_MODEL_H */
