/* SPDX-License-Identifier: MIT */
/*
 * Test environment on top of the simulation harness: it plays the part the
 * kernel driver plays on real hardware (channel table, instance blocks,
 * USERD, Sv32 page tables, GPFIFO rings) so RTL tests can build channels
 * and pushbuffers with the include/ppu encoders and submit them.
 */
#ifndef RTL_ENV_H
#define RTL_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "ppu/ppu_encode.h"
#include "ppu_sim.h"

struct rtl_env {
	struct ppu_sim *sim;
	uint64_t next_pa[2];	/* bump allocators: [local, sys] */
	uint64_t mem_bytes[2];
	uint64_t chan_table_pa;
	/* every trace record, in order */
	struct ppu_sim_event *ev;
	size_t nev, cap_ev;
	int verbose;		/* print events as they happen */
	/* checker failures are expected (a checker self-test): destroy quietly */
	int check_errors_ok;
};

struct rtl_ctx {
	struct rtl_env *env;
	uint64_t root_pa;	/* level-1 table, local memory */
	uint32_t next_va;
};

struct rtl_buf {
	uint32_t va;
	uint64_t pa;
	int sys;
	uint32_t size;
};

struct rtl_chan {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	unsigned int chid;
	unsigned int log2_entries;
	struct rtl_buf gpfifo;
	struct rtl_buf pb;	/* pushbuffer arena */
	uint32_t pb_off;
	uint64_t userd_pa;
	uint64_t inst_pa;
	uint32_t put;
};

/* Creates a simulation with @cfg (NULL: defaults with 64 MiB per aperture). */
struct rtl_env *rtl_env_create(const struct ppu_sim_config *cfg);
/* Same with 64 MiB per aperture and this memory timing (0 keeps the harness default). */
struct rtl_env *rtl_env_create_mem(uint32_t local_latency, uint32_t sys_latency,
				   uint32_t local_bytes_per_cycle, uint32_t sys_bytes_per_cycle);
/* rtl_env_create(), with the harness writing its text trace to @path (NULL: none). */
struct rtl_env *rtl_env_create_traced(const struct ppu_sim_config *cfg, const char *path);
/* DIR/NAME.trace, or NULL without a directory (allocated, kept until exit). */
const char *rtl_trace_file(const char *dir, const char *name);
void rtl_env_destroy(struct rtl_env *env);

uint32_t rtl_reg_read(struct rtl_env *env, uint32_t off);
void rtl_reg_write(struct rtl_env *env, uint32_t off, uint32_t val);
/* The 64-bit performance counter @idx (PPU_PERF_*), read LO then HI. */
uint64_t rtl_perf_read(struct rtl_env *env, uint32_t idx);
/* RTL protocol violations the harness has counted (ppu_sim_get_stats). */
uint64_t rtl_protocol_errors(struct rtl_env *env);
/*
 * Failures of the invariant checkers (hw/chk) so far.  rtl_env_destroy
 * aborts the test when there are any, unless check_errors_ok is set.
 */
uint64_t rtl_check_errors(struct rtl_env *env);

/* Physical allocation (zeroed); aborts the test on exhaustion. */
uint64_t rtl_alloc_pa(struct rtl_env *env, int sys, uint64_t bytes, uint64_t align);

/* A runlist entry (PPU_RUNLIST_ENTRY_*). */
struct rtl_rl_ent {
	uint32_t chid, level;
};

/*
 * Writes @n runlist entries as given to fresh local memory, submits them
 * (RUNLIST_*) and waits up to 100,000 cycles for the PPU to read them;
 * returns RUNLIST_STATUS then (PENDING still set: not read).  Makes no
 * test assertion: the examples use it too (rtl_check.h has the checked
 * forms).
 */
uint32_t rtl_runlist_write(struct rtl_env *env, const struct rtl_rl_ent *e, uint32_t n);

struct rtl_ctx *rtl_ctx_create(struct rtl_env *env);
void rtl_ctx_destroy(struct rtl_ctx *ctx);
/* Maps [va, va+size) to [pa, ...) with the given PPU_PTE_PERM_* bits (U added). */
void rtl_map(struct rtl_ctx *ctx, uint32_t va, uint64_t pa, int sys, uint32_t size,
	     uint32_t perms);
/* Writes a raw level-0 PTE for @va (for fault tests). */
void rtl_set_pte(struct rtl_ctx *ctx, uint32_t va, uint32_t pte);
/* Maps a 4 MiB superpage. */
void rtl_map_super(struct rtl_ctx *ctx, uint32_t va, uint64_t pa, int sys, uint32_t perms);
/* Allocates physical memory and maps it at a fresh VA, read/write. */
struct rtl_buf rtl_buf_alloc(struct rtl_ctx *ctx, int sys, uint32_t size);
/* Reserves VA space without mapping it. */
uint32_t rtl_va_reserve(struct rtl_ctx *ctx, uint32_t size);

void rtl_buf_write(struct rtl_env *env, const struct rtl_buf *b, uint32_t off,
		   const void *src, size_t len);
void rtl_buf_read(struct rtl_env *env, const struct rtl_buf *b, uint32_t off, void *dst,
		  size_t len);
uint32_t rtl_buf_rd32(struct rtl_env *env, const struct rtl_buf *b, uint32_t off);
void rtl_buf_wr32(struct rtl_env *env, const struct rtl_buf *b, uint32_t off, uint32_t v);

/* Binds channel @chid of engine type COPY to @ctx; timeslice 0 = default. */
struct rtl_chan *rtl_chan_create(struct rtl_env *env, struct rtl_ctx *ctx, unsigned int chid,
				 unsigned int log2_entries, uint32_t timeslice);
/* Same, with a caller-provided engine type and raw GP_GET/GP_PUT at bind. */
struct rtl_chan *rtl_chan_create_ex(struct rtl_env *env, struct rtl_ctx *ctx,
				    unsigned int chid, unsigned int log2_entries,
				    uint32_t timeslice, uint32_t engine);
/* A COPY channel with a one-page pushbuffer arena, for tests that bind
 * thousands of channels (rtl_chan_create's arena is 256 KiB). */
struct rtl_chan *rtl_chan_create_small(struct rtl_env *env, struct rtl_ctx *ctx,
				       unsigned int chid, unsigned int log2_entries);
void rtl_chan_destroy(struct rtl_chan *ch);
/* Sets the instance PRIORITY.MAX (the channel's rank in SCHED_CTRL.PRIO_MODE);
 * takes effect when the channel binds, i.e. call it before the first doorbell. */
void rtl_chan_set_priority(struct rtl_chan *ch, uint32_t prio);
/* Sets GPFIFO_CFG.AUTO_PUT in the instance block (before the first doorbell). */
void rtl_chan_set_auto_put(struct rtl_chan *ch);

/* Copies @n dwords into the pushbuffer arena and returns their VA. */
uint32_t rtl_chan_pb_put(struct rtl_chan *ch, const uint32_t *dw, uint32_t n);
/* Writes a GPFIFO entry at GP_PUT and advances GP_PUT in USERD (no doorbell). */
void rtl_chan_push_entry(struct rtl_chan *ch, uint32_t pb_va, uint32_t ndw);
/* pb_put + push_entry + doorbell. */
void rtl_chan_submit(struct rtl_chan *ch, const struct ppu_pb *pb);
void rtl_chan_doorbell(struct rtl_chan *ch);
/* A write of @put to the channel's doorbell page (a doorbell carrying GP_PUT). */
void rtl_chan_doorbell_page(struct rtl_chan *ch, uint32_t put);

uint32_t rtl_chan_state(struct rtl_chan *ch);
uint32_t rtl_chan_reg(struct rtl_chan *ch, uint32_t off);
/*
 * Clocks until the channel has executed everything submitted (IDLE with
 * GP_GET == GP_PUT) or faulted.  Returns 0 when idle, 1 when faulted, -1 on
 * timeout.
 */
int rtl_chan_wait(struct rtl_chan *ch, uint64_t max_cycles);
/* Waits for several channels; returns 0 if all idle, -1 on timeout, 1 if any faulted. */
int rtl_wait_all(struct rtl_chan **ch, int n, uint64_t max_cycles);
/*
 * Clocks @step cycles at a time until @ch is in @state (PPU_CHAN_STATUS_STATE_*).
 * Returns 0, or -1 once @max_cycles have passed without it.
 */
int rtl_chan_wait_state(struct rtl_chan *ch, uint32_t state, uint64_t step,
			uint64_t max_cycles);

/* Trace log helpers */
void rtl_log_clear(struct rtl_env *env);
size_t rtl_log_count(struct rtl_env *env, uint32_t kind, int chid);
/* Index of the n-th record of @kind (chid -1 = any) from @from, or -1. */
long rtl_log_find(struct rtl_env *env, uint32_t kind, int chid, size_t from);
/*
 * Clocks @step cycles at a time until a record of @kind (chid -1 = any) is in
 * the log.  Returns the index of the first one, or -1 once @max_cycles have
 * passed without one.
 */
long rtl_wait_event(struct rtl_env *env, uint32_t kind, int chid, uint64_t step,
		    uint64_t max_cycles);

#endif /* RTL_ENV_H */
