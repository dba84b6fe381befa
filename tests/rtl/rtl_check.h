/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the RTL test suites that assert with Check: random
 * data, checked backdoor memory access, submission, waiting, and the
 * fixtures several suites build the same way.  Helpers that need no Check
 * live in rtl_env.h.
 */
#ifndef RTL_CHECK_H
#define RTL_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "rtl_env.h"

/* ---- random data (xorshift32, one generator per test process) ---- */

/* Restarts the generator at @seed; rtl_rnd_fill takes bits [@shift, @shift + 8) of each draw. */
void rtl_rnd_seed(uint32_t seed, unsigned int shift);
/* The next 32-bit draw. */
uint32_t rtl_rnd(void);
/* Fills @p with @n bytes, one draw each. */
void rtl_rnd_fill(uint8_t *p, size_t n);

/* malloc that fails the test when out of memory (0 bytes gives a valid pointer). */
void *rtl_xmalloc(size_t n);

/* ---- buffers and backdoor memory ---- */

/* Fills all of @b with random bytes; returns a malloc'ed copy of them. */
uint8_t *rtl_buf_randomize(struct rtl_env *env, const struct rtl_buf *b);
/* Checks that @len bytes of @b from @off equal @want. */
void rtl_expect_buf(struct rtl_env *env, const struct rtl_buf *b, uint32_t off,
		    const void *want, uint32_t len);
/* Backdoor 32-bit read of aperture @sys at @pa; the access must be inside memory. */
uint32_t rtl_mem_rd32(struct rtl_env *env, int sys, uint64_t pa);
/* Backdoor 32-bit write of aperture @sys at @pa; the access must be inside memory. */
void rtl_mem_wr32(struct rtl_env *env, int sys, uint64_t pa, uint32_t v);
/* Backdoor read of the USERD word at @off (PPU_USERD_*) of @ch. */
uint32_t rtl_userd_rd32(struct rtl_chan *ch, uint32_t off);
/* Backdoor write of the USERD word at @off (PPU_USERD_*) of @ch. */
void rtl_userd_wr32(struct rtl_chan *ch, uint32_t off, uint32_t v);

/* ---- the environment ---- */

/* Checks that the harness saw no RTL protocol violation. */
void rtl_expect_no_protocol_errors(struct rtl_env *env);
/* rtl_expect_no_protocol_errors, then rtl_env_destroy. */
void rtl_env_finish(struct rtl_env *env);
/*
 * The interrupt output is up, at once on the bare PPU, within
 * RTL_IRQ_FENCE_CYCLES on the FPGA top (its MSI request waits for the
 * writes issued before the interrupt).
 */
#define RTL_IRQ_FENCE_CYCLES 20000
void rtl_expect_irq_up(struct ppu_sim *sim);
/* rtl_wait_event that fails the test on timeout; returns the record's index. */
long rtl_expect_event(struct rtl_env *env, uint32_t kind, int chid, uint64_t step,
		      uint64_t max_cycles);
/* rtl_chan_wait_state that fails the test on timeout. */
void rtl_expect_state(struct rtl_chan *ch, uint32_t state, uint64_t step, uint64_t max_cycles);
/* Writes CHAN_CTRL UNBIND for @ch (no wait). */
void rtl_chan_unbind(struct rtl_chan *ch);
/* Empties the ring of unbound @ch (USERD GP_PUT and GP_GET 0): the next doorbell binds it afresh. */
void rtl_chan_ring_empty(struct rtl_chan *ch);
/* Unbinds @ch, fails the test unless it is UNBOUND within @max_cycles, and empties its ring. */
void rtl_chan_unbind_empty(struct rtl_chan *ch, uint64_t max_cycles);
/*
 * Faults @ch, bound first by a NOP, through its doorbell page (a GP_PUT
 * beyond its ring: GP_PUT_RANGE); waits for the FAULT record.
 */
void rtl_chan_fault_by_doorbell_page(struct rtl_chan *ch, uint64_t max_cycles);
/* Writes the ENGINE_CTRL reset bit(s) @reset and clocks until they read 0, failing past
 * @max_cycles; returns the cycles it took. */
uint64_t rtl_engine_reset(struct rtl_env *env, uint32_t reset, uint64_t max_cycles);
/* Writes ENGINE_CTRL with the halt bits @halt (every write sets both engines' halts). */
void rtl_engine_halt(struct rtl_env *env, uint32_t halt);
/* Copies the records of @kind (chid -1 = any) into @out in log order; fails beyond @max. */
size_t rtl_log_records(struct rtl_env *env, uint32_t kind, int chid, struct ppu_sim_event *out,
		       size_t max);

/* ---- submission ---- */

/*
 * Writes @n entries (in any order: written in LEVEL order, highest first,
 * as a driver does) to fresh local memory, submits them (RUNLIST_*) and
 * waits until the list is in force; fails the test on a pending or
 * failed list.  SCHED_CTRL.RUNLIST is the caller's.
 */
void rtl_runlist_submit(struct rtl_env *env, const struct rtl_rl_ent *e, uint32_t n);

/* The same with the entries as given; returns RUNLIST_STATUS once read. */
uint32_t rtl_runlist_submit_raw(struct rtl_env *env, const struct rtl_rl_ent *e, uint32_t n);

/* Checks @pb did not overflow, adds it as one GPFIFO entry (no doorbell); returns its VA. */
uint32_t rtl_queue_pb(struct rtl_chan *ch, const struct ppu_pb *pb);
/* One GPFIFO entry with a copy of @len bytes, no semaphore (no doorbell). */
void rtl_queue_copy(struct rtl_chan *ch, uint32_t src, uint32_t dst, uint32_t len);
/* rtl_queue_pb, then the doorbell; returns the pushbuffer's VA. */
uint32_t rtl_submit_pb(struct rtl_chan *ch, const struct ppu_pb *pb);
/* rtl_submit_pb, then checks the channel goes idle unfaulted within @max_cycles. */
void rtl_submit_and_wait(struct rtl_chan *ch, const struct ppu_pb *pb, uint64_t max_cycles);
/* Rings each channel's doorbell in turn (binding unbound ones), then checks all go idle. */
void rtl_ring_all(struct rtl_chan **ch, int n, uint64_t max_cycles);

/* ---- fixtures ---- */

/* Two channels of one context and a semaphore buffer, as semaphore tests use them. */
struct rtl_semt {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *a, *b;		/* channels 0 and 1 */
	struct rtl_chan *both[2];	/* { a, b } */
	struct rtl_buf sem;		/* 4 KiB of local memory, zero */
};

/* Builds a default env, a context, channels 0 and 1 (@timeslice) and the semaphore buffer. */
void rtl_semt_init(struct rtl_semt *t, uint32_t timeslice);
/* Frees the channels and context, then rtl_env_finish. */
void rtl_semt_fini(struct rtl_semt *t);

/* A channel of another context kept busy with copies while a test does its own thing. */
#define RTL_BUSY_N 3

struct rtl_busy {
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf src[RTL_BUSY_N], dst[RTL_BUSY_N];
	uint8_t *img[RTL_BUSY_N];	/* what each source holds */
	uint32_t len, dst_mask;		/* copy i: len bytes to dst + (i & dst_mask) */
};

/*
 * Channel @chid of a new context copies RTL_BUSY_N random @size-byte buffers
 * (apertures alternating), @len bytes each to dst + (i & @dst_mask), in one
 * entry; returns once the first copy has started.
 */
void rtl_busy_start(struct rtl_env *env, struct rtl_busy *b, unsigned int chid, uint32_t size,
		    uint32_t len, uint32_t dst_mask);
/* Checks the busy channel finishes unfaulted within @max_cycles, every copy intact; frees it. */
void rtl_busy_finish(struct rtl_env *env, struct rtl_busy *b, uint64_t max_cycles);

#endif /* RTL_CHECK_H */
