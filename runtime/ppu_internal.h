/* SPDX-License-Identifier: MIT */
/*
 * libppu internals: the objects behind the handles of ppu_runtime.h.
 */
#ifndef PPU_INTERNAL_H
#define PPU_INTERNAL_H

#include <stdint.h>

#include "ppu_runtime.h"
#include "copy_prio.h"
#include "launch_plan.h"
#include "owner.h"
#include "pb_ring.h"
#include "priority_map.h"
#include "tl_ring.h"
#include "trace.h"

#define PPU_RT_DEFAULT_MAX_DEPTH 2u
/* GPFIFO entries and pushbuffer dwords of every channel. */
#define PPU_RT_GP_LOG2 10u
#define PPU_RT_PB_BYTES (1u << 20)	/* bytes */
/* The longest pushbuffer segment: older entries are reclaimed sooner. */
#define PPU_RT_SEGMENT_DWORDS 16384u
/* Semaphores per pool; pools are added as slots run out. */
#define PPU_RT_POOL_SEMS 256u
#define PPU_RT_MAX_POOLS 256u
/* Channels a context can have: a copy and a compute channel per level. */
#define PPU_RT_CHANS (2u * PPU_COPY_PRIO_LEVELS)
#define PPU_RT_DEFAULT_STACK_BYTES 1024u
/* ppu_pb_sem(): one incrementing header, five data words. */
#define PPU_SEM_METHOD_DWORDS 6u

/* Sets the thread's last-error message; returns @st. */
ppu_status ppu_fail(ppu_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The status for a failed ioctl's errno, with the message "@what: strerror". */
ppu_status ppu_fail_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ppu_clear_error(void);

/* An ioctl, restarted on EINTR/EAGAIN: 0 or -errno. */
int ppu_ioctl(int fd, unsigned long req, void *arg);

struct ppu_pool {
	uint32_t id;
	uint32_t va;
	volatile uint8_t *map;
	uint64_t map_bytes;
	uint8_t used[PPU_RT_POOL_SEMS];
};

/* One 16-byte semaphore: value at 0, release timestamp at 8. */
struct ppu_sem {
	struct ppu_pool *pool;
	uint32_t index;
	uint32_t va;
	volatile uint32_t *cpu;
};

struct ppu_alloc {
	struct ppu_alloc *next;
	uint32_t handle;
	int local;
	uint64_t va;
	uint64_t size;		/* as requested */
	uint64_t bo_size;	/* pages */
	void *map;		/* host allocations */
};

/*
 * One hardware channel of a priority level: its copy channel, or its
 * compute channel (kernel launches), made at the first kernel of the level.
 */
struct ppu_chan {
	ppu_ctx *ctx;
	unsigned int level;
	unsigned int dev_prio;
	int compute;
	uint32_t chid;
	struct ppu_alloc ring;		/* GPFIFO */
	struct ppu_alloc pb;		/* pushbuffer ring */
	volatile uint32_t *userd;
	/* The channel's doorbell page, or NULL: doorbells go through the ioctl. */
	volatile uint32_t *doorbell;
	uint32_t entries;
	uint32_t put;			/* GP_PUT */
	uint32_t seq;			/* the last entry's timeline value */
	/* When the last entry was submitted, in the context's submission count. */
	uint64_t stamp;
	/* Compute: the context's module generation its I-caches were last invalidated at. */
	unsigned int icache_gen;
	uint32_t *entry_start;		/* storage of pbr */
	struct ppu_pb_ring pbr;		/* which pushbuffer dwords are free */
	struct ppu_sem timeline;	/* value = seq of the last completed entry */
	/*
	 * S_level (level > 0): only the PPU touches it, so it lives in local
	 * memory when the device has some (an acquire before every chunk is
	 * then a short local read), else in a host semaphore slot.
	 */
	struct ppu_alloc prio_mem;
	struct ppu_sem prio_sem;
	uint32_t prio_va;
	int dead;
	int released;			/* its hardware channel is already destroyed */
	/* chid of the faulted channel whose lost work this one waited on, or own */
	uint32_t dead_cause;
	/* Event waits not yet passed (fault.c). */
	struct ppu_chan_dep *deps;
	unsigned int ndeps, deps_cap;
};

/* Entry @seq of a channel waits for entry @on_seq of channel @on (an event). */
struct ppu_chan_dep {
	struct ppu_chan *on;
	uint32_t on_seq;
	uint32_t seq;
};

struct ppu_stream {
	ppu_ctx *ctx;
	ppu_stream *next;
	int req_prio;			/* as requested */
	int prio;			/* clamped into the current range */
	unsigned int level;
	struct ppu_chan *chan;		/* the level's copy channel */
	struct ppu_chan *last_chan;	/* the channel of the stream's last work */
	uint32_t last_seq;		/* of last_chan, the stream's last work */
	int has_work;
	int is_default;
	unsigned int trace_id;		/* in host events: 0 the default stream */
};

struct ppu_event {
	ppu_ctx *ctx;
	ppu_event *next;
	struct ppu_sem sem;
	uint32_t count;			/* records issued */
	struct ppu_chan *chan;		/* of the last record */
	uint32_t seq;			/* the last record's entry in chan */
	unsigned int trace_id;		/* in host events */
	uint32_t synced;		/* the last record written as a SYNC line */
};

/*
 * What kernel launches need (kernel_launch.c), set up at the first one: the
 * device's limits, and two rings recycled by the channels' timelines: one
 * of launch slots in system memory (a TMD, then the parameters), one of
 * task blocks in local memory (system memory without).
 */
struct ppu_kernels {
	struct ppu_launch_limits lim;
	struct ppu_alloc slots_mem;
	struct ppu_tl_ring slots;
	struct ppu_tl_ring_tag *slots_tags;
	struct ppu_alloc arena_mem;
	struct ppu_tl_ring arena;
	struct ppu_tl_ring_tag *arena_tags;
};

struct ppu_ctx {
	int fd;
	/* In the process's list of live contexts (context.c): cross-context checks. */
	struct ppu_owner owner;
	struct ppu_device_info info;
	unsigned int num_prios;		/* M */
	struct ppu_prio_map map;
	uint64_t max_depth;
	uint64_t chunk_bytes;
	int copy_sems;
	int launched;
	uint64_t stack_bytes;		/* PPU_LIMIT_STACK_SIZE */
	int kernel_prios;		/* PPU_LIMIT_KERNEL_PRIORITIES */
	uint64_t submits;		/* GPFIFO entries submitted, all channels */
	unsigned int module_gen;	/* module loads and unloads so far */
	struct ppu_kernels kern;
	struct ppu_copy_prio cp;
	struct ppu_chan *chan[PPU_COPY_PRIO_LEVELS];
	struct ppu_chan *kchan[PPU_COPY_PRIO_LEVELS];	/* compute channels */
	struct ppu_pool *pools[PPU_RT_MAX_POOLS];
	unsigned int npools;
	struct ppu_alloc *allocs;
	ppu_stream default_stream;
	ppu_stream *streams;
	ppu_event *events;
	ppu_module *modules;
	ppu_work_queue *workqs;
	unsigned int trace_id;		/* in host events (PPU_TRACE) */
	unsigned int trace_streams, trace_events;	/* ids handed out */
};

/* context.c */
/*
 * PPU_ERROR_CONTEXT_MISMATCH: "@fn: @what is of context N (device D, node),
 * @other of context M (...)" for objects of contexts @obj and @ctx.
 */
ppu_status ppu_ctx_mismatch(const char *fn, const char *what, const ppu_ctx *obj,
			    const char *other, const ppu_ctx *ctx);
/*
 * For an address (@host NULL: [va, va + len)) or host pointer that none of
 * @ctx's allocations holds: PPU_ERROR_CONTEXT_MISMATCH with a message when
 * another live context's does, else PPU_SUCCESS (the caller's own error).
 */
ppu_status ppu_ctx_foreign(ppu_ctx *ctx, uint64_t va, uint64_t len, const void *host,
			   const char *fn, const char *what);
/* Held while a context's allocation list changes: other contexts read it. */
void ppu_owners_lock(void);
void ppu_owners_unlock(void);

/* device.c */
int ppu_dev_open(int index, char *node, size_t len, char *bus, size_t buslen);
ppu_status ppu_dev_query(int fd, struct ppu_device_info *info);

/* memory.c */
ppu_status ppu_bo_new(ppu_ctx *ctx, struct ppu_alloc *a, uint64_t bytes, int local, int map);
void ppu_bo_free(ppu_ctx *ctx, struct ppu_alloc *a);
/* The allocation holding [va, va + len), or NULL. */
struct ppu_alloc *ppu_alloc_find(ppu_ctx *ctx, uint64_t va, uint64_t len);

/* sem.c */
ppu_status ppu_sem_alloc(ppu_ctx *ctx, struct ppu_sem *s);
void ppu_sem_free(ppu_ctx *ctx, struct ppu_sem *s);
void ppu_pools_free(ppu_ctx *ctx);
/* value - @value >= 0 as signed 32-bit numbers */
int ppu_sem_passed(const struct ppu_sem *s, uint32_t value);
/* Waits until the semaphore passes @value; @chan (or NULL) makes a fault end the wait. */
ppu_status ppu_sem_wait(ppu_ctx *ctx, const struct ppu_sem *s, uint32_t value,
			struct ppu_chan *chan);

/* chan.c */
/* The copy channel of @level. */
ppu_status ppu_chan_new(ppu_ctx *ctx, unsigned int level, struct ppu_chan **out);
/*
 * The compute channel of @level: launches clamped to [@prio_min, the
 * level's device priority], chains of @max_depth levels.
 */
ppu_status ppu_chan_new_compute(ppu_ctx *ctx, unsigned int level, unsigned int prio_min,
				unsigned int max_depth, struct ppu_chan **out);
/*
 * A PPU-owned work queue's channel (workq.c): compute, always-full ring of
 * 2^@log2_entries entries, its launches at the level's device priority.
 */
ppu_status ppu_chan_new_queue(ppu_ctx *ctx, unsigned int level, unsigned int log2_entries,
			      struct ppu_chan **out);
/* Waits for the channel's work (when it is alive) and frees it. */
void ppu_chan_free(struct ppu_chan *ch);
/* Starts a segment with room for at least @min dwords. */
ppu_status ppu_chan_begin(struct ppu_chan *ch, uint32_t min, struct ppu_pb *pb);
/* Closes the segment (timeline release, interrupt), submits it; *seq gets its value. */
ppu_status ppu_chan_submit(struct ppu_chan *ch, struct ppu_pb *pb, uint32_t *seq);
ppu_status ppu_chan_wait(struct ppu_chan *ch, uint32_t seq);
/* Whether the channel's entries up to @seq are complete. */
int ppu_chan_done(const struct ppu_chan *ch, uint32_t seq);
/* PPU_ERROR_CHANNEL_FAULT once the channel has faulted. */
ppu_status ppu_chan_check(struct ppu_chan *ch);

/* module.c */
/* Frees what the context's modules hold on the host (at context destroy). */
void ppu_modules_free(ppu_ctx *ctx);
/* The context a function's module was loaded in, and its entry's device address. */
ppu_ctx *ppu_function_ctx(const ppu_function *fn);
uint32_t ppu_function_entry(const ppu_function *fn);
/* A function's name, and its module's in *@module (host events). */
const char *ppu_function_name(const ppu_function *fn, const char **module);

/* kernel_launch.c */
/* Frees the launch rings (at context destroy, after the final wait). */
void ppu_kernels_free(ppu_ctx *ctx);

/* workq.c */
/* Frees the context's work queues (at context destroy, after the final wait). */
void ppu_work_queues_free(ppu_ctx *ctx);
/* PPU_SUCCESS when @q can take a launch of @threads threads from @s. */
ppu_status ppu_workq_launch_prepare(ppu_work_queue *q, ppu_stream *s, size_t param_bytes,
				    uint64_t threads);
/*
 * The CPU-owned channel's commands of @q's next window for the TMD at
 * @tmd_va (PPU_WORKQ_LAUNCH_CMD_DWORDS), and the parameters' first word.
 */
void ppu_workq_launch_emit(ppu_work_queue *q, struct ppu_pb *pb, uint32_t tmd_va, uint32_t threads,
			   uint32_t *param0);
/* The window was submitted from @s. */
void ppu_workq_launched(ppu_work_queue *q, ppu_stream *s);
/* The queue's channel: the launch's channel waits on it (a fault there is the launch's). */
struct ppu_chan *ppu_workq_chan(ppu_work_queue *q);

/* fault.c */
/*
 * Channel @ch has faulted, or (@cause != @ch) waits on work that faulted
 * channel @cause lost: marks it dead, clears its copy-priority semaphore
 * and passes the fault on to the channels that wait on its lost work.
 */
void ppu_chan_faulted(struct ppu_chan *ch, struct ppu_chan *cause);
/* PPU_ERROR_CHANNEL_FAULT with a message naming the cause. */
ppu_status ppu_chan_fault_status(const struct ppu_chan *ch);
/* Room for two more event waits (before submitting them). */
ppu_status ppu_chan_dep_reserve(struct ppu_chan *ch);
/* Records an event wait submitted as entry @seq of @ch (room reserved). */
void ppu_chan_dep_add(struct ppu_chan *ch, struct ppu_chan *on, uint32_t on_seq, uint32_t seq);
/* Drops the other channels' references to @ch, which is going away. */
void ppu_chan_forget(struct ppu_chan *ch);
/* Asks the driver about every live channel of the context. */
void ppu_ctx_poll_faults(ppu_ctx *ctx);

/* context.c */
/* Marks the first launch: the nesting depth and the mapping are fixed from now on. */
void ppu_ctx_launch(ppu_ctx *ctx);
ppu_status ppu_stream_prepare(ppu_stream *s);
/* Channel @i (0 .. PPU_RT_CHANS - 1) of the context: copy channels, then compute; or NULL. */
struct ppu_chan *ppu_ctx_chan(ppu_ctx *ctx, unsigned int i);

/* stream.c */
/*
 * The channels of a level run side by side, so a stream's work that goes
 * to the other channel than the level's latest work first waits for that
 * work on the PPU: a SEM_ACQUIRE of the other channel's timeline.
 */
struct ppu_stream_order {
	struct ppu_chan *on;		/* NULL: no wait needed */
	uint32_t on_seq;
};
/*
 * Starts a segment of @s's work in @ch (a channel of the stream's level)
 * with room for @min dwords, after the wait that keeps the level's order.
 */
ppu_status ppu_stream_begin(ppu_stream *s, struct ppu_chan *ch, uint32_t min, struct ppu_pb *pb,
			    struct ppu_stream_order *o);
/* Submits it; the stream's last work is now entry *@seq of @ch. */
ppu_status ppu_stream_submit(ppu_stream *s, struct ppu_chan *ch, struct ppu_pb *pb,
			     const struct ppu_stream_order *o, uint32_t *seq);
/* PPU_SUCCESS, or the fault of one of the stream's level's channels (@fn: NULL stream). */
ppu_status ppu_stream_check(ppu_stream *s, const char *fn);
/* The channel a semaphore operation of @s goes to: the one of the level's latest work. */
struct ppu_chan *ppu_stream_sem_chan(ppu_stream *s);
/*
 * One SEM_EXECUTE (@exec) on @va as a GPFIFO entry of its own at the end
 * of @s; *@seq is the entry's timeline value.  Counts as a launch.
 */
ppu_status ppu_stream_sem_op(ppu_stream *s, uint32_t va, uint32_t payload, uint32_t exec,
			     uint32_t *seq);

#endif /* PPU_INTERNAL_H */
