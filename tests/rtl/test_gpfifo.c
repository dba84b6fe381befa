// SPDX-License-Identifier: MIT
/*
 * GPFIFO ring handling: control entries, GP_GET write-back to USERD, ring
 * wrap, full and empty rings, batched doorbells, binding at a nonzero GP_GET,
 * doorbell pages.
 */
#include <check.h>
#include <stdio.h>

#include "ppu/ppu_workq.h"
#include "rtl_check.h"
#include "rtl_suites.h"
#include "../../runtime/device/samples/samples.h"

#define WAIT_CYCLES 200000

/* One GPFIFO entry (no doorbell) whose pushbuffer releases @value at @va. */
static void push_release(struct rtl_chan *ch, uint32_t va, uint32_t value)
{
	uint32_t buf[8];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 8);
	ppu_pb_sem_release(&pb, va, value);
	rtl_queue_pb(ch, &pb);
}

/* First doorbell on an empty ring: the channel binds and stays idle. */
static void bind_empty(struct rtl_chan *ch)
{
	rtl_ring_all(&ch, 1, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_log_count(ch->env, PPU_TRACE_BIND, ch->chid), 1);
}

START_TEST(control_entries_advance_gp_get_without_fetching_a_pushbuffer)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 2, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	/* length 0: the address is never read, so an unmapped one is harmless */
	uint32_t nowhere = rtl_va_reserve(ctx, 4096);
	struct ppu_sim_event fetch[8], rel[8];
	uint32_t e[2];
	size_t i;

	rtl_chan_push_entry(ch, nowhere, 0);
	rtl_chan_push_entry(ch, nowhere + 64, 0);
	push_release(ch, sem.va, 0x1234);
	rtl_chan_push_entry(ch, nowhere + 128, 0);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_GP_FETCH, ch->chid, fetch, 8), 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(fetch[i].a, i);
	/* the GP_FETCH record carries entry dword 1: LENGTH 0 for control entries */
	ppu_gp_entry(e, nowhere, 0, 0);
	ck_assert_uint_eq(env->ev[rtl_log_find(env, PPU_TRACE_GP_FETCH, ch->chid, 0)].b, e[1]);
	/* only the release entry executed methods */
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_METHOD, ch->chid), 5);
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_SEM_RELEASE, ch->chid, rel, 8), 1);
	ck_assert_uint_eq(rel[0].b, 0x1234);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x1234);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 4);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_GET), 4);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(gp_get_is_written_to_userd_after_each_entry)
{
	enum { N = 5 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t seen[4 * N], last;
	size_t nseen = 0, scan;
	uint64_t c;
	int idle = 0, i;

	bind_empty(ch);
	for (i = 0; i < N; i++)
		push_release(ch, sem.va + 4 * i, 0x100 + i);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_GET), 0);
	scan = env->nev;
	rtl_chan_doorbell(ch);
	last = rtl_userd_rd32(ch, PPU_USERD_GP_GET);
	seen[nseen++] = last;
	/* one cycle at a time: watch USERD.GP_GET against the trace */
	for (c = 0; c < WAIT_CYCLES && !idle; c++) {
		uint32_t v;

		ppu_sim_clock(env->sim, 1);
		for (; scan < env->nev; scan++) {
			const struct ppu_sim_event *ev = &env->ev[scan];

			if (ev->chid != ch->chid)
				continue;
			if (ev->kind == PPU_TRACE_GP_FETCH)
				/* entries before this one have been written back */
				ck_assert_msg(rtl_userd_rd32(ch, PPU_USERD_GP_GET) == ev->a,
					      "GP_FETCH of entry %u: USERD.GP_GET = %u", ev->a,
					      rtl_userd_rd32(ch, PPU_USERD_GP_GET));
			if (ev->kind == PPU_TRACE_CHAN_IDLE)
				idle = 1;
		}
		v = rtl_userd_rd32(ch, PPU_USERD_GP_GET);
		if (v != last) {
			ck_assert_uint_lt(nseen, 4 * N);
			seen[nseen++] = v;
			last = v;
		}
	}
	ck_assert(idle);
	/* 0, 1, ..., N: one write-back per entry, each the next GP_GET */
	ck_assert_uint_eq(nseen, N + 1);
	for (i = 0; i <= N; i++)
		ck_assert_uint_eq(seen[i], i);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_GET), N);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), N);
	/* the PPU never writes GP_PUT */
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_PUT), N);
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4 * i), 0x100 + i);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(small_ring_wraps_and_runs_every_entry_in_order)
{
	enum { N = 14 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 1, 2, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	struct ppu_sim_event rel[2 * N], fetch[2 * N];
	size_t k;
	int i;

	bind_empty(ch);
	for (i = 0; i < N; i++) {
		uint64_t t0 = ppu_sim_cycles(env->sim);

		/* a 4-entry ring holds at most 3 entries not yet consumed */
		while (((ch->put + 1) & 3) == rtl_userd_rd32(ch, PPU_USERD_GP_GET)) {
			ck_assert_uint_lt(ppu_sim_cycles(env->sim) - t0, WAIT_CYCLES);
			ppu_sim_clock(env->sim, 16);
		}
		push_release(ch, sem.va + 4 * i, 0xa000 + i);
		/* ring the doorbell for odd entries only: pairs go in at once */
		if (i & 1 || i == N - 1)
			rtl_chan_doorbell(ch);
	}
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_SEM_RELEASE, ch->chid, rel, 2 * N), N);
	for (i = 0; i < N; i++) {
		ck_assert_uint_eq(rel[i].b, 0xa000 + i);
		ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4 * i), 0xa000 + i);
	}
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_GP_FETCH, ch->chid, fetch, 2 * N), N);
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(fetch[i].a, i & 3);
	/* releases went to successive slots, in order */
	for (k = 0, i = 0; k < env->nev; k++)
		if (env->ev[k].kind == PPU_TRACE_SEM_RELEASE)
			ck_assert_uint_eq(env->ev[k].a, sem.va + 4 * i++);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), N & 3);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(full_ring_of_three_entries_in_four_slots_executes_all)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 2, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	struct ppu_sim_event rel[16], fetch[16];
	static const uint32_t want_fetch[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	int i;

	bind_empty(ch);
	/* GET 0, PUT 3 = GET - 1: full */
	for (i = 0; i < 3; i++)
		push_release(ch, sem.va, 0x10 + i);
	ck_assert_uint_eq(ch->put, 3);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 3);

	/* move GET to 1 across the wrap ... */
	for (i = 0; i < 2; i++)
		push_release(ch, sem.va, 0x20 + i);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);

	/* ... and fill it again: GET 1, PUT 0 */
	for (i = 0; i < 3; i++)
		push_release(ch, sem.va, 0x30 + i);
	ck_assert_uint_eq(ch->put, 0);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 0);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_SEM_RELEASE, ch->chid, rel, 16), 8);
	ck_assert_uint_eq(rel[0].b, 0x10);
	ck_assert_uint_eq(rel[1].b, 0x11);
	ck_assert_uint_eq(rel[2].b, 0x12);
	ck_assert_uint_eq(rel[3].b, 0x20);
	ck_assert_uint_eq(rel[4].b, 0x21);
	ck_assert_uint_eq(rel[5].b, 0x30);
	ck_assert_uint_eq(rel[6].b, 0x31);
	ck_assert_uint_eq(rel[7].b, 0x32);
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_GP_FETCH, ch->chid, fetch, 16), 8);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(fetch[i].a, want_fetch[i]);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x32);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(doorbell_with_gp_put_equal_gp_get_fetches_nothing)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 3, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	long d;

	/* binding doorbell on an empty ring */
	bind_empty(ch);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, -1), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);

	/* a doorbell on the bound, empty channel: GP_PUT is read, nothing else */
	rtl_chan_doorbell(ch);
	ppu_sim_clock(env->sim, 2000);
	d = rtl_log_find(env, PPU_TRACE_DOORBELL, ch->chid, 0);
	ck_assert_int_ge(d, 0);
	ck_assert_uint_eq(env->ev[d].a, 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, -1), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_METHOD, -1), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_PUT), 0);

	/* one entry, then another doorbell with nothing new */
	push_release(ch, sem.va, 77);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, ch->chid), 1);
	rtl_log_clear(env);
	rtl_chan_doorbell(ch);
	ppu_sim_clock(env->sim, 2000);
	d = rtl_log_find(env, PPU_TRACE_DOORBELL, ch->chid, 0);
	ck_assert_int_ge(d, 0);
	ck_assert_uint_eq(env->ev[d].a, 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, -1), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_METHOD, -1), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_RELEASE, -1), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 77);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(one_doorbell_runs_several_entries)
{
	enum { N = 6 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 7, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	struct ppu_sim_event rel[2 * N], fetch[2 * N];
	long d;
	int i;

	bind_empty(ch);
	rtl_log_clear(env);
	for (i = 0; i < N; i++)
		push_release(ch, sem.va + 8 * i, 0xbeef0000 + i);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_DOORBELL, ch->chid), 1);
	d = rtl_log_find(env, PPU_TRACE_DOORBELL, ch->chid, 0);
	ck_assert_uint_eq(env->ev[d].a, N);
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_GP_FETCH, ch->chid, fetch, 2 * N), N);
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_SEM_RELEASE, ch->chid, rel, 2 * N), N);
	for (i = 0; i < N; i++) {
		ck_assert_uint_eq(fetch[i].a, i);
		ck_assert_uint_eq(rel[i].b, 0xbeef0000 + i);
		ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8 * i), 0xbeef0000 + i);
	}
	/* every fetch follows the doorbell */
	ck_assert_int_gt(rtl_log_find(env, PPU_TRACE_GP_FETCH, ch->chid, 0), d);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), N);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_PUT), N);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(channel_bound_at_nonzero_gp_get_starts_there)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 4, 3, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	/* an entry that would fault (reserved header bit) if it were executed */
	uint32_t poison = PPU_FSET(PPU_MTHD_RSVD, 1) | ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_NOP, 1);
	uint32_t bad[2] = { poison, 0 };
	struct ppu_sim_event rel[16], fetch[16];
	long b;
	int i;

	for (i = 0; i < 5; i++)
		rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, bad, 2), 2);
	/* the kernel's view before binding: GET = PUT = 5 */
	ck_assert_uint_eq(ch->put, 5);
	rtl_userd_wr32(ch, PPU_USERD_GP_GET, 5);
	push_release(ch, sem.va, 0x55);
	push_release(ch, sem.va + 4, 0x66);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_PUT), 7);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	b = rtl_log_find(env, PPU_TRACE_BIND, ch->chid, 0);
	ck_assert_int_ge(b, 0);
	ck_assert_uint_eq(env->ev[b].b, 7);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 7);

	/* two more: slot 7 and, wrapping, slot 0 */
	push_release(ch, sem.va + 8, 0x77);
	push_release(ch, sem.va + 12, 0x88);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_GP_FETCH, ch->chid, fetch, 16), 4);
	ck_assert_uint_eq(fetch[0].a, 5);
	ck_assert_uint_eq(fetch[1].a, 6);
	ck_assert_uint_eq(fetch[2].a, 7);
	ck_assert_uint_eq(fetch[3].a, 0);
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_SEM_RELEASE, ch->chid, rel, 16), 4);
	ck_assert_uint_eq(rel[0].b, 0x55);
	ck_assert_uint_eq(rel[1].b, 0x66);
	ck_assert_uint_eq(rel[2].b, 0x77);
	ck_assert_uint_eq(rel[3].b, 0x88);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 12), 0x88);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * DEBUG_RELEASE_HOLD: after a release the host re-reads the rest of the
 * segment from memory once the hold is over, and GP_GET stays put until
 * then.  The release is visible long before the entry is consumed, which
 * is why software reclaims pushbuffer space by GP_GET (runtime/pb_ring.h).
 */
enum { HOLD = 5000 };

/* release A = 1, NON_STALL_INTERRUPT, release B = 2: returns the VA. */
static uint32_t queue_release_pair(struct rtl_chan *ch, const struct rtl_buf *sem,
				   uint32_t *ndw)
{
	uint32_t buf[16], va;
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 16);
	ppu_pb_sem_release(&pb, sem->va, 1);
	ppu_pb_nonstall(&pb);
	ppu_pb_sem_release(&pb, sem->va + 4, 2);
	va = rtl_chan_pb_put(ch, pb.dw, pb.len);
	rtl_chan_push_entry(ch, va, pb.len);
	*ndw = pb.len;
	return va;
}

/* Clocks until the first release of @ch is in the trace, then @extra cycles more. */
static void run_past_first_release(struct rtl_chan *ch, uint64_t extra)
{
	ck_assert_int_ge(rtl_wait_event(ch->env, PPU_TRACE_SEM_RELEASE, (int)ch->chid, 1,
					WAIT_CYCLES), 0);
	ppu_sim_clock(ch->env->sim, extra);
}

START_TEST(release_hold_keeps_gp_get_until_the_rest_is_fetched)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t ndw;

	rtl_reg_write(env, PPU_REG_DEBUG_RELEASE_HOLD, HOLD);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_DEBUG_RELEASE_HOLD), HOLD);
	bind_empty(ch);
	queue_release_pair(ch, &sem, &ndw);
	rtl_chan_doorbell(ch);
	run_past_first_release(ch, HOLD - 200);
	/* A is visible; nothing after it has run and GP_GET has not moved. */
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_GET), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING) & 1u << ch->chid, 0);
	/* After the hold the entry completes (a second hold follows B). */
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 2);
	ck_assert_uint_ne(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING) & 1u << ch->chid, 0);
	ck_assert_uint_eq(rtl_userd_rd32(ch, PPU_USERD_GP_GET), 1);
	/* Off again: no hold. */
	rtl_reg_write(env, PPU_REG_DEBUG_RELEASE_HOLD, 0);
	rtl_log_clear(env);
	queue_release_pair(ch, &sem, &ndw);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, HOLD / 2), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * What the runtime's old reclaim did: treat the entry as done at its
 * release and write new commands over it.  The host reads the overwritten
 * words after the hold and the channel faults; the others keep running.
 */
START_TEST(rewriting_a_released_but_unconsumed_entry_faults_its_channel)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_chan *other = rtl_chan_create(env, ctx, 1, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t ndw, va, junk[16], i;

	rtl_reg_write(env, PPU_REG_DEBUG_RELEASE_HOLD, HOLD);
	bind_empty(ch);
	va = queue_release_pair(ch, &sem, &ndw);
	rtl_chan_doorbell(ch);
	run_past_first_release(ch, 100);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 1);
	/* Data words of a copy, written over the unread tail. */
	for (i = 0; i < ndw; i++)
		junk[i] = 0xe0000000u | i;
	rtl_buf_write(env, &ch->pb, va - ch->pb.va, junk, 4 * ndw);
	rtl_reg_write(env, PPU_REG_DEBUG_RELEASE_HOLD, 0);
	push_release(other, sem.va + 8, 3);
	rtl_chan_doorbell(other);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 1);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_int_eq(rtl_chan_wait(other, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8), 3);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0);

	rtl_chan_destroy(other);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * An AUTO_PUT ring whose entries are guarded by per-entry semaphores, used
 * as the PPU-owned work queue uses it (docs/compute-design.md §6.4), with
 * the test as the producer writing through the backdoor.  Entry 0 holds
 * the parking block (acquire X); soft and shadow GP_PUT start at 1 and
 * n - 1.  A submission of N blocks takes e = soft, soft += N + 1, waits
 * while (s32)(e + N - shadow) > 0 (the ring is full: it clocks the PPU),
 * writes N work blocks and at e + N a trailing block (IADD shadow by N + 1,
 * then acquire sem[e + N] CIRC_GEQ gen(e + N)), and releases sem[e - 1]
 * with gen(e - 1), gen(k) = k / n + 1.  Work block k acquires a ticket
 * == k and increments it, so a block run twice or out of order would hang
 * the ring.  Bursts of submissions fill the ring, pauses leave the host
 * blocked at the last trailing block; the 8-entry ring wraps about 20
 * times; GP_PUT always reads GP_GET - 1 and USERD.GP_PUT is never used.
 */
#define AQ_LOG2 3u
#define AQ_N (1u << AQ_LOG2)
#define AQ_SUBMITS 60u
#define AQ_DESC 0x10u
#define AQ_SHADOW (AQ_DESC + PPU_WORKQ_SHADOW)

struct aq {
	struct rtl_chan *ch;
	struct rtl_buf mem;	/* 0: X, 4: ticket, 0x10: descriptor (shadow), 0x40 + 4k: sem[k] */
	struct ppu_workq d;	/* the descriptor's format (ppu_workq.h) */
	uint32_t soft, seq, waits;
};

static uint32_t aq_rand(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void aq_entry(struct aq *q, uint32_t k, const struct ppu_pb *pb)
{
	uint32_t e[2], va = rtl_chan_pb_put(q->ch, pb->dw, pb->len);

	ppu_gp_entry(e, va, pb->len, 0);
	rtl_buf_write(q->ch->env, &q->ch->gpfifo, (k & (AQ_N - 1)) * 8, e, 8);
}

static void aq_submit(struct aq *q, uint32_t nblk)
{
	uint32_t e = q->soft, k, buf[16];
	struct ppu_pb pb;

	q->soft += nblk + 1;
	while (!ppu_workq_room(e + nblk, rtl_buf_rd32(q->ch->env, &q->mem, AQ_SHADOW))) {
		q->waits++;
		ppu_sim_clock(q->ch->env->sim, 50);
		ck_assert_uint_eq(rtl_chan_reg(q->ch, PPU_CHAN_FAULT_INFO), 0);
	}
	for (k = e; k < e + nblk; k++) {
		ppu_pb_init(&pb, buf, 16);
		workq_ticket_block(&pb, q->mem.va + 4, q->seq);
		aq_entry(q, k, &pb);
		q->seq++;
	}
	ppu_pb_init(&pb, buf, 16);
	ppu_workq_tail(&pb, &q->d, q->mem.va + AQ_DESC, e + nblk, nblk);
	aq_entry(q, e + nblk, &pb);
	rtl_buf_wr32(q->ch->env, &q->mem, ppu_workq_sem_va(&q->d, e - 1) - q->mem.va,
		     ppu_workq_gen(e - 1, AQ_LOG2));
}

START_TEST(auto_put_ring_runs_semaphore_guarded_entries_in_order)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t buf[8], i, rng = 99, get, blocked;
	struct ppu_pb pb;
	struct aq q = { 0 };

	q.ch = rtl_chan_create(env, ctx, 6, AQ_LOG2, 0);
	q.mem = rtl_buf_alloc(ctx, 0, 4096);
	rtl_chan_set_auto_put(q.ch);
	q.soft = 1;
	q.d.log2_entries = AQ_LOG2;
	q.d.sems_va = q.mem.va + 0x40;
	rtl_buf_wr32(env, &q.mem, AQ_SHADOW, AQ_N - 1);
	/* USERD.GP_PUT out of range: an AUTO_PUT channel does not use it */
	ck_assert_int_eq(ppu_sim_mem_write(env->sim, 0, q.ch->userd_pa + PPU_USERD_GP_PUT,
					   &(uint32_t){ 0x7777 }, 4), 0);
	ppu_pb_init(&pb, buf, 8);
	ppu_pb_sem_acquire(&pb, q.mem.va, 1);
	aq_entry(&q, 0, &pb);
	rtl_chan_doorbell(q.ch);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_chan_reg(q.ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_chan_reg(q.ch, PPU_CHAN_GP_GET), 0);
	ck_assert_uint_eq(rtl_chan_reg(q.ch, PPU_CHAN_GP_PUT), AQ_N - 1);
	/* the first submission, then X: the queue runs */
	aq_submit(&q, 2);
	rtl_buf_wr32(env, &q.mem, 0, 1);
	for (i = 1; i < AQ_SUBMITS; i++) {
		aq_submit(&q, 1 + aq_rand(&rng) % 3);
		if (i % 5 == 4) {
			/* a pause: the host waits at the last trailing block */
			ppu_sim_clock(env->sim, 3000 + aq_rand(&rng) % 3000);
			get = rtl_chan_reg(q.ch, PPU_CHAN_GP_GET);
			ck_assert_uint_eq(get, (q.soft - 1) & (AQ_N - 1));
			ck_assert_uint_eq(rtl_chan_reg(q.ch, PPU_CHAN_GP_PUT), (get - 1) & (AQ_N - 1));
			ck_assert_uint_eq(rtl_buf_rd32(env, &q.mem, 4), q.seq);
		}
	}
	ppu_sim_clock(env->sim, 20000);
	ck_assert_uint_eq(rtl_chan_reg(q.ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &q.mem, 4), q.seq);
	ck_assert_uint_eq(rtl_buf_rd32(env, &q.mem, AQ_SHADOW), q.soft - 1 + AQ_N - 1);
	ck_assert_uint_gt(q.soft, 15 * AQ_N);
	ck_assert_uint_gt(q.waits, 0);
	blocked = (uint32_t)rtl_log_count(env, PPU_TRACE_SEM_ACQ_FAIL, q.ch->chid);
	ck_assert_uint_ge(blocked, AQ_SUBMITS / 5);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_CHAN_IDLE, q.ch->chid), 0);
	printf("auto_put ring: %u submissions, %u entries (%u wraps), %u blocks, %u full-ring waits, "
	       "%u blocked acquires, done at cycle %llu\n", AQ_SUBMITS, q.soft, q.soft / AQ_N, q.seq,
	       q.waits, blocked, (unsigned long long)ppu_sim_cycles(env->sim));

	rtl_chan_destroy(q.ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A doorbell page write carries GP_PUT: the host takes it without reading
 * USERD, which here still says 0.  On an unbound channel it binds from
 * USERD as a DOORBELL register write does.
 */
START_TEST(doorbell_page_carries_gp_put_past_a_stale_userd)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 3, 0);
	struct rtl_chan *fresh = rtl_chan_create(env, ctx, 6, 3, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	long d;

	bind_empty(ch);
	push_release(ch, sem.va, 77);
	rtl_userd_wr32(ch, PPU_USERD_GP_PUT, 0);
	rtl_chan_doorbell_page(ch, 1);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 77);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_PUT), 1);
	d = rtl_log_find(env, PPU_TRACE_DOORBELL, ch->chid, 0);
	ck_assert_int_ge(d, 0);
	ck_assert_uint_eq(env->ev[d].a, 1);

	/* first doorbell of a channel, through its page: bound from USERD */
	push_release(fresh, sem.va + 4, 78);
	rtl_chan_doorbell_page(fresh, 1);
	ck_assert_int_eq(rtl_chan_wait(fresh, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_BIND, fresh->chid), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 78);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
			  PPU_FSET(PPU_CAP_FEATURES_USER_DOORBELL, 1),
			  PPU_FSET(PPU_CAP_FEATURES_USER_DOORBELL, 1));

	rtl_chan_destroy(fresh);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * Only GP_PUT of an existing channel's page rings: other words of the
 * page, pages past the last channel and the space above them read 0 and
 * ignore writes, and never touch the register window below.
 */
START_TEST(doorbell_pages_ignore_everything_but_gp_put)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 2, 3, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t nch = rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS);
	uint32_t page = ppu_userdb_offset(ch->chid), off;

	push_release(ch, sem.va, 5);
	for (off = 4; off < PPU_USERDB_STRIDE; off += 4 * 97)
		rtl_reg_write(env, page + off, 1);
	rtl_reg_write(env, ppu_userdb_offset(nch), 1);
	rtl_reg_write(env, ppu_userdb_offset(nch) + PPU_USERDB_STRIDE * 7, 1);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_BIND, -1), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_UNBOUND);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_ENABLE), 0);
	ck_assert_uint_eq(rtl_reg_read(env, page + PPU_USERDB_GP_PUT), 0);
	ck_assert_uint_eq(rtl_reg_read(env, ppu_userdb_offset(nch)), 0);
	/* a page's offset within the BAR never aliases a register */
	ck_assert_uint_eq(rtl_reg_read(env, page + PPU_REG_ID), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_ID), PPU_ID_VALUE);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0);

	rtl_chan_doorbell_page(ch, 1);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 5);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * DOORBELL and CHAN_CTRL take CHID_BITS-wide ids: an id no channel has is
 * ignored, even when its low bits name a live channel (0x103 is not
 * channel 3, nor is the channel count plus 3).
 */
START_TEST(doorbell_and_unbind_ignore_ids_of_no_channel)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t nch = rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS);
	const uint32_t ids[] = { 0x100 + 3, nch + 3, PPU_FMAX(PPU_DOORBELL_CHID) - 0xf + 3 };
	size_t i, doorbells;

	ck_assert_uint_eq(PPU_FWIDTH(PPU_DOORBELL_CHID), PPU_CHID_BITS);
	ck_assert_uint_eq(PPU_FWIDTH(PPU_CHAN_CTRL_CHID), PPU_CHID_BITS);
	ck_assert_uint_le(nch, 0x100);
	push_release(ch, sem.va, 1);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 1);
	doorbells = rtl_log_count(env, PPU_TRACE_DOORBELL, ch->chid);

	/* new work in USERD.GP_PUT: only a doorbell of channel 3 would read it */
	push_release(ch, sem.va, 2);
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		ck_assert_uint_ge(ids[i], nch);
		rtl_reg_write(env, PPU_REG_DOORBELL, PPU_FSET(PPU_DOORBELL_CHID, ids[i]));
		rtl_reg_write(env, PPU_REG_CHAN_CTRL,
			      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) |
			      PPU_FSET(PPU_CHAN_CTRL_CHID, ids[i]));
	}
	ppu_sim_clock(env->sim, 5000);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_DOORBELL, ch->chid), doorbells);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, ch->chid), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_UNBIND, -1), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 1);

	/* still bound, and its own id still reaches it */
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 2);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_BIND, ch->chid), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * ppu.ko unbinds a channel id before it binds it afresh (a free id may
 * hold a doorbell of its invalid entry), then waits for CHAN_STATUS to
 * read UNBOUND, which a never-bound id reads at once.  The first doorbell
 * of the new binding may then come before the host has looked at the
 * unbind: it must bind the channel and run, not be dropped with the
 * unbind.  Channel 2 keeps the host inside a long segment meanwhile.
 */
START_TEST(unbind_of_an_unbound_channel_keeps_the_next_doorbell)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *busy = rtl_chan_create(env, ctx, 2, 4, 0);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	static uint32_t buf[4096];
	struct ppu_pb pb;
	unsigned int i;

	ppu_pb_init(&pb, buf, 4096);
	for (i = 0; i < 2000; i++)
		ppu_pb_method(&pb, PPU_HOST_NOP, 0);
	ppu_pb_sem_release(&pb, sem.va + 8, 7);
	rtl_submit_pb(busy, &pb);
	rtl_expect_event(env, PPU_TRACE_GP_FETCH, (int)busy->chid, 1, WAIT_CYCLES);

	rtl_chan_unbind(ch);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_UNBOUND);
	push_release(ch, sem.va, 1);
	rtl_chan_doorbell(ch);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_BIND, ch->chid), 0);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_BIND, ch->chid), 1);

	/* and a bound channel's unbind still waits for the host */
	ck_assert_int_eq(rtl_chan_wait(busy, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8), 7);
	rtl_chan_unbind_empty(ch, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_UNBIND, ch->chid), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	rtl_chan_destroy(ch);
	rtl_chan_destroy(busy);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * GP_PUT written back over the entry the host is running (a client's bug,
 * or a hostile one).  Neither the PPU nor the driver can tell a rewind
 * from a wrap, so the host carries on: the entry ends, GP_GET passes
 * GP_PUT, and the ring's older entries run until GP_GET comes round to
 * GP_PUT.  Only that channel's own ring is involved; nothing faults.
 */
START_TEST(gp_put_written_back_over_the_entry_in_flight)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 4, 2, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	struct ppu_sim_event rel[8];
	uint32_t buf[16], e[2], i;
	struct ppu_pb pb;

	bind_empty(ch);
	/* entries 1..3: what an earlier lap of the ring left there */
	for (i = 1; i < 4; i++) {
		ppu_pb_init(&pb, buf, 16);
		ppu_pb_sem_release(&pb, sem.va + 8 + 4 * i, 100 + i);
		ppu_gp_entry(e, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len, 0);
		rtl_buf_write(env, &ch->gpfifo, i * 8, e, 8);
	}
	/* entry 0 waits for the semaphore, then releases 77 */
	ppu_pb_init(&pb, buf, 16);
	ppu_pb_sem_acquire(&pb, sem.va, 1);
	ppu_pb_sem_release(&pb, sem.va + 4, 77);
	rtl_queue_pb(ch, &pb);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 64,
					     WAIT_CYCLES), 0);

	rtl_chan_doorbell_page(ch, 0);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_PUT), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0);

	rtl_buf_wr32(env, &sem, 0, 1);
	ch->put = 0;
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_SEM_RELEASE, ch->chid, rel, 8), 4);
	ck_assert_uint_eq(rel[0].b, 77);
	for (i = 1; i < 4; i++) {
		ck_assert_uint_eq(rel[i].b, 100 + i);
		ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8 + 4 * i), 100 + i);
	}
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, ch->chid), 4);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 0);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);

	/* the channel goes on as usual */
	push_release(ch, sem.va + 4, 78);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 78);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

Suite *suite_gpfifo(void)
{
	Suite *s = suite_create("gpfifo");
	TCase *tc = tcase_create("gpfifo");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, control_entries_advance_gp_get_without_fetching_a_pushbuffer);
	tcase_add_test(tc, gp_get_is_written_to_userd_after_each_entry);
	tcase_add_test(tc, small_ring_wraps_and_runs_every_entry_in_order);
	tcase_add_test(tc, full_ring_of_three_entries_in_four_slots_executes_all);
	tcase_add_test(tc, doorbell_with_gp_put_equal_gp_get_fetches_nothing);
	tcase_add_test(tc, one_doorbell_runs_several_entries);
	tcase_add_test(tc, channel_bound_at_nonzero_gp_get_starts_there);
	tcase_add_test(tc, release_hold_keeps_gp_get_until_the_rest_is_fetched);
	tcase_add_test(tc, rewriting_a_released_but_unconsumed_entry_faults_its_channel);
	tcase_add_test(tc, auto_put_ring_runs_semaphore_guarded_entries_in_order);
	tcase_add_test(tc, doorbell_page_carries_gp_put_past_a_stale_userd);
	tcase_add_test(tc, doorbell_pages_ignore_everything_but_gp_put);
	tcase_add_test(tc, doorbell_and_unbind_ignore_ids_of_no_channel);
	tcase_add_test(tc, unbind_of_an_unbound_channel_keeps_the_next_doorbell);
	tcase_add_test(tc, gp_put_written_back_over_the_entry_in_flight);
	suite_add_tcase(s, tc);
	return s;
}
