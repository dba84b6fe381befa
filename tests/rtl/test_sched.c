// SPDX-License-Identifier: MIT
/*
 * Scheduling: time-slice expiry, long slices, switching away from a failed
 * acquire, guests served while the resident copies, the round robin's ring
 * order, and all 16 channels at once.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define WAIT_CYCLES 1000000

static void fill_pattern(uint8_t *p, uint32_t len, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + seed * 31 + (i >> 8) * seed);
}

static void check_copy(struct rtl_env *env, const struct rtl_buf *dst, uint32_t len,
		       uint32_t seed)
{
	uint8_t *want = rtl_xmalloc(len), *got = rtl_xmalloc(len);

	fill_pattern(want, len, seed);
	rtl_buf_read(env, dst, 0, got, len);
	ck_assert_msg(memcmp(want, got, len) == 0, "copy with seed %u: data differs", seed);
	free(want);
	free(got);
}

/* Two channels with NCOPY copies each, both queued before either starts. */
enum { NCOPY = 4, CLEN = 16384 };

struct two_chan {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch[2];
	struct rtl_buf src[2][NCOPY], dst[2][NCOPY];
};

/* @timeslice goes into the instance blocks; @global (if nonzero) into
 * SCHED_TIMESLICE. */
static void two_chan_run(struct two_chan *t, uint32_t timeslice, uint32_t global)
{
	uint8_t *pat = rtl_xmalloc(CLEN);
	int c, i;

	t->env = rtl_env_create(NULL);
	t->ctx = rtl_ctx_create(t->env);
	for (c = 0; c < 2; c++) {
		t->ch[c] = rtl_chan_create(t->env, t->ctx, c, 4, timeslice);
		for (i = 0; i < NCOPY; i++) {
			t->src[c][i] = rtl_buf_alloc(t->ctx, 0, CLEN);
			t->dst[c][i] = rtl_buf_alloc(t->ctx, 0, CLEN);
			fill_pattern(pat, CLEN, c * NCOPY + i + 1);
			rtl_buf_write(t->env, &t->src[c][i], 0, pat, CLEN);
		}
	}
	free(pat);
	if (global)
		rtl_reg_write(t->env, PPU_REG_SCHED_TIMESLICE, global);
	rtl_ring_all(t->ch, 2, WAIT_CYCLES);
	rtl_log_clear(t->env);
	for (c = 0; c < 2; c++)
		for (i = 0; i < NCOPY; i++)
			rtl_queue_copy(t->ch[c], t->src[c][i].va, t->dst[c][i].va, CLEN);
	rtl_chan_doorbell(t->ch[0]);
	rtl_chan_doorbell(t->ch[1]);
	ck_assert_int_eq(rtl_wait_all(t->ch, 2, WAIT_CYCLES), 0);
	for (c = 0; c < 2; c++)
		for (i = 0; i < NCOPY; i++)
			check_copy(t->env, &t->dst[c][i], CLEN, c * NCOPY + i + 1);
	ck_assert_uint_eq(rtl_log_count(t->env, PPU_TRACE_FAULT, -1), 0);
}

static void two_chan_fini(struct two_chan *t)
{
	rtl_chan_destroy(t->ch[0]);
	rtl_chan_destroy(t->ch[1]);
	rtl_ctx_destroy(t->ctx);
	rtl_env_finish(t->env);
}

/* Source VAs of the COPY_START records, as (channel, copy) indices. */
static void copy_start_order(struct two_chan *t, int *chan, int *copy)
{
	size_t i, n = 0;
	int c, k;

	for (i = 0; i < t->env->nev; i++) {
		const struct ppu_sim_event *e = &t->env->ev[i];

		if (e->kind != PPU_TRACE_COPY_START)
			continue;
		ck_assert_uint_lt(n, 2 * NCOPY);
		chan[n] = copy[n] = -1;
		for (c = 0; c < 2; c++)
			for (k = 0; k < NCOPY; k++)
				if (t->src[c][k].va == e->a) {
					chan[n] = c;
					copy[n] = k;
				}
		ck_assert_int_eq(chan[n], (int)e->chid);
		n++;
	}
	ck_assert_uint_eq(n, 2 * NCOPY);
}

/* A0 B0 A1 B1 ..., each hand-over a time-slice switch to the other channel. */
static void expect_interleaved(struct two_chan *t)
{
	int chan[2 * NCOPY], copy[2 * NCOPY], i;
	size_t k, nsw = 0;

	copy_start_order(t, chan, copy);
	for (i = 0; i < 2 * NCOPY; i++) {
		ck_assert_msg(chan[i] == (i & 1) && copy[i] == i / 2,
			      "copy %d: channel %d copy %d, want channel %d copy %d", i, chan[i],
			      copy[i], i & 1, i / 2);
	}
	for (k = 0; k < t->env->nev; k++) {
		const struct ppu_sim_event *e = &t->env->ev[k];

		if (e->kind == PPU_TRACE_CHAN_SWITCH && e->b == PPU_SWITCH_REASON_TIMESLICE) {
			ck_assert_uint_eq(e->a, 1 - e->chid);
			nsw++;
		}
	}
	ck_assert_uint_ge(nsw, 2 * NCOPY - 1);
}

START_TEST(timeslice_expiry_interleaves_queued_copies_of_two_channels)
{
	struct two_chan t;

	/* a 16 KiB copy takes ~2000 cycles: every slice expires during a copy */
	two_chan_run(&t, 500, 0);
	expect_interleaved(&t);
	two_chan_fini(&t);
}
END_TEST

START_TEST(sched_timeslice_register_applies_when_the_instance_sets_none)
{
	struct two_chan t;

	two_chan_run(&t, 0, 500);
	expect_interleaved(&t);
	two_chan_fini(&t);
}
END_TEST

START_TEST(long_timeslice_lets_one_channel_finish_all_its_copies_first)
{
	struct two_chan t;
	int chan[2 * NCOPY], copy[2 * NCOPY], i;
	size_t k;

	two_chan_run(&t, 1u << 22, 0);
	copy_start_order(&t, chan, copy);
	for (i = 0; i < 2 * NCOPY; i++)
		ck_assert_msg(chan[i] == i / NCOPY && copy[i] == i % NCOPY,
			      "copy %d: channel %d copy %d, want channel %d copy %d", i, chan[i],
			      copy[i], i / NCOPY, i % NCOPY);
	for (k = 0; k < t.env->nev; k++)
		ck_assert(!(t.env->ev[k].kind == PPU_TRACE_CHAN_SWITCH &&
			    t.env->ev[k].b == PPU_SWITCH_REASON_TIMESLICE));
	two_chan_fini(&t);
}
END_TEST

START_TEST(failed_acquire_switches_away_before_the_slice_ends)
{
	struct rtl_semt t;
	uint32_t bufa[32], bufb[32];
	struct ppu_pb pa, pb;
	long fail, sw, rb, ok, ra;
	uint64_t t0;

	rtl_semt_init(&t, 1u << 22);
	rtl_ring_all(t.both, 2, WAIT_CYCLES);
	rtl_log_clear(t.env);
	ppu_pb_init(&pa, bufa, 32);
	ppu_pb_sem_acquire(&pa, t.sem.va, 1);
	ppu_pb_sem_release(&pa, t.sem.va + 4, 0xaa);
	ppu_pb_init(&pb, bufb, 32);
	ppu_pb_sem_release(&pb, t.sem.va + 8, 0xbb);
	ppu_pb_sem_release(&pb, t.sem.va, 1);
	rtl_queue_pb(t.a, &pa);
	rtl_queue_pb(t.b, &pb);
	t0 = ppu_sim_cycles(t.env->sim);
	rtl_ring_all(t.both, 2, WAIT_CYCLES);

	fail = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid, 0);
	sw = rtl_log_find(t.env, PPU_TRACE_CHAN_SWITCH, t.b->chid, 0);
	rb = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.b->chid, 0);
	ok = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	ra = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid, 0);
	ck_assert_int_ge(fail, 0);
	ck_assert_int_ge(ok, 0);
	/* A ran first and failed; the host went to B at once */
	ck_assert_int_gt(sw, fail);
	ck_assert_uint_eq(t.env->ev[sw].a, t.a->chid);
	ck_assert_uint_eq(t.env->ev[sw].b, PPU_SWITCH_REASON_ACQ_FAIL);
	ck_assert_uint_lt(t.env->ev[sw].cycle - t.env->ev[fail].cycle, 200);
	ck_assert_uint_lt(t.env->ev[sw].cycle - t0, 5000);
	/* B's work, then A's acquire passes and A goes on */
	ck_assert_int_gt(rb, sw);
	ck_assert_int_gt(ok, rb);
	ck_assert_int_gt(ra, ok);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 4), 0xaa);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 8), 0xbb);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(guest_host_methods_run_while_the_resident_copies)
{
	enum { LEN = 65536 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 1, 4, 0);
	struct rtl_chan *both[2] = { a, b };
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, LEN), dst = rtl_buf_alloc(ctx, 0, LEN);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint8_t *pat = rtl_xmalloc(LEN);
	uint32_t buf[32];
	struct ppu_pb pb;
	long s, r, e, g;

	fill_pattern(pat, LEN, 5);
	rtl_buf_write(env, &src, 0, pat, LEN);
	free(pat);
	rtl_ring_all(both, 2, WAIT_CYCLES);
	rtl_log_clear(env);

	rtl_queue_copy(a, src.va, dst.va, LEN);
	rtl_chan_doorbell(a);
	s = rtl_expect_event(env, PPU_TRACE_COPY_START, a->chid, 8, WAIT_CYCLES);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem_release(&pb, sem.va, 0xb0b);
	ppu_pb_sem_inc(&pb, sem.va + 4);
	rtl_submit_and_wait(b, &pb, WAIT_CYCLES);
	/* B is done while A's copy is still on the engine */
	ck_assert_int_lt(rtl_log_find(env, PPU_TRACE_COPY_END, -1, 0), 0);
	ck_assert_uint_eq(rtl_chan_state(a), PPU_CHAN_STATUS_STATE_ENGINE_BUSY);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0xb0b);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 1);
	ck_assert_int_eq(rtl_wait_all(both, 2, WAIT_CYCLES), 0);

	r = rtl_log_find(env, PPU_TRACE_SEM_RELEASE, b->chid, 0);
	e = rtl_log_find(env, PPU_TRACE_COPY_END, a->chid, 0);
	g = rtl_log_find(env, PPU_TRACE_CHAN_SWITCH, b->chid, 0);
	ck_assert_int_gt(r, s);
	ck_assert_int_gt(e, r);
	ck_assert_int_gt(g, s);
	ck_assert_int_lt(g, r);
	ck_assert_uint_eq(env->ev[g].a, a->chid);
	ck_assert_uint_eq(env->ev[g].b, PPU_SWITCH_REASON_GUEST);
	ck_assert_uint_lt(env->ev[r].cycle, env->ev[e].cycle);
	check_copy(env, &dst, LEN, 5);

	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * The next resident is the next waiting channel in ring order after the
 * channel whose service ended last (the runlist's round robin), whatever
 * order the others were serviced in before or rang their doorbells in.
 * Channel 1 holds the host while 3, 0 and 2 get work; earlier services
 * went 0, 3, 2.  Ring order after 1 is 2, 3, 0 (least recently serviced
 * would be 0, 3, 2; doorbell order 3, 0, 2; lowest id first 0, 2, 3).
 */
START_TEST(next_resident_follows_ring_order_after_the_last_service)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch[4];
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	static uint32_t buf[4096];
	static const int first[3] = { 0, 3, 2 }, doorbell_order[3] = { 3, 0, 2 };
	static const int want[3] = { 2, 3, 0 };
	const int holder = 1;
	uint64_t t0;
	struct ppu_sim_event rel[16];
	struct ppu_pb pb;
	size_t n, k;
	int i, j;

	for (i = 0; i < 4; i++)
		ch[i] = rtl_chan_create(env, ctx, i, 4, 0);
	rtl_ring_all(ch, 4, WAIT_CYCLES);
	for (i = 0; i < 3; i++) {
		ppu_pb_init(&pb, buf, 32);
		ppu_pb_sem_release(&pb, sem.va + 4 * first[i], 0x10 + first[i]);
		rtl_submit_and_wait(ch[first[i]], &pb, WAIT_CYCLES);
		ppu_sim_clock(env->sim, 200);
	}
	/* the holder keeps the host while the others get work */
	ppu_pb_init(&pb, buf, 4096);
	for (j = 0; j < 48; j++) {
		ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_NOP, 63));
		for (k = 0; k < 63; k++)
			ppu_pb_push(&pb, 0);
	}
	ppu_pb_sem_release(&pb, sem.va + 4 * holder, 0x10 + holder);
	rtl_submit_pb(ch[holder], &pb);
	t0 = ppu_sim_cycles(env->sim);
	while (rtl_log_count(env, PPU_TRACE_METHOD, holder) < 64) {
		ck_assert_uint_lt(ppu_sim_cycles(env->sim) - t0, WAIT_CYCLES);
		ppu_sim_clock(env->sim, 8);
	}
	rtl_log_clear(env);
	for (i = 0; i < 3; i++) {
		int c = doorbell_order[i];

		ppu_pb_init(&pb, buf, 32);
		ppu_pb_sem_release(&pb, sem.va + 16 + 4 * c, 0x20 + c);
		rtl_submit_pb(ch[c], &pb);
	}
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_RELEASE, holder), 0);
	ck_assert_int_eq(rtl_wait_all(ch, 4, WAIT_CYCLES), 0);

	n = rtl_log_records(env, PPU_TRACE_SEM_RELEASE, -1, rel, 16);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(rel[0].chid, holder);
	for (i = 0; i < 3; i++)
		ck_assert_msg(rel[1 + i].chid == (uint32_t)want[i],
			      "service %d went to channel %u, want %d (ring order after channel %d)",
			      i, rel[1 + i].chid, want[i], holder);
	for (i = 0; i < 4; i++)
		if (i != holder)
			ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 16 + 4 * i), 0x20 + i);

	for (i = 0; i < 4; i++)
		rtl_chan_destroy(ch[i]);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * SCHED_CTRL bit 0 was PRIO_MODE (ranking by instance PRIORITY.MAX); that
 * ranking is now a runlist the driver writes (test_runlist.c
 * levels_are_strict_priorities), and the bit is reserved: it reads 0 and
 * a write of 1 changes nothing.  CAP_FEATURES.PRIO_SCHED says channels are
 * ranked by priority, through the runlist.
 */
START_TEST(sched_ctrl_bit_0_is_reserved_and_priorities_come_from_the_runlist)
{
	struct rtl_env *env = rtl_env_create(NULL);
	uint32_t feat = rtl_reg_read(env, PPU_REG_CAP_FEATURES);

	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_CTRL), 0);
	ck_assert(feat & PPU_FSET(PPU_CAP_FEATURES_PRIO_SCHED, 1));
	ck_assert(feat & PPU_FSET(PPU_CAP_FEATURES_RUNLIST, 1));
	rtl_reg_write(env, PPU_REG_SCHED_CTRL, 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_CTRL), 0);
	rtl_reg_write(env, PPU_REG_SCHED_CTRL, PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1) | 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_SCHED_CTRL), PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1));
	rtl_env_destroy(env);
}
END_TEST

START_TEST(sixteen_channels_working_at_once_all_complete)
{
	enum { NCH = 16, NC = 2, LEN = 4096 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx[NCH];
	struct rtl_chan *ch[NCH];
	struct rtl_buf src[NCH][NC], dst[NCH][NC], done[NCH];
	uint64_t counter_pa = rtl_alloc_pa(env, 0, 4096, 4096);
	uint32_t counter_va[NCH];
	uint8_t *pat = rtl_xmalloc(LEN);
	uint32_t buf[64];
	struct ppu_pb pb;
	int i, j;

	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS), NCH);
	for (i = 0; i < NCH; i++) {
		ctx[i] = rtl_ctx_create(env);
		ch[i] = rtl_chan_create(env, ctx[i], i, 4, 700 + 50 * i);
		/* one shared counter page, mapped into every context */
		counter_va[i] = rtl_va_reserve(ctx[i], 4096);
		rtl_map(ctx[i], counter_va[i], counter_pa, 0, 4096,
			PPU_PTE_PERM_R | PPU_PTE_PERM_W);
		done[i] = rtl_buf_alloc(ctx[i], 0, 4096);
		for (j = 0; j < NC; j++) {
			src[i][j] = rtl_buf_alloc(ctx[i], 0, LEN);
			dst[i][j] = rtl_buf_alloc(ctx[i], 0, LEN);
			fill_pattern(pat, LEN, 100 + i * NC + j);
			rtl_buf_write(env, &src[i][j], 0, pat, LEN);
		}
	}
	free(pat);
	for (i = 0; i < NCH; i++) {
		for (j = 0; j < NC; j++) {
			ppu_pb_init(&pb, buf, 64);
			ppu_pb_copy(&pb, src[i][j].va, dst[i][j].va, LEN,
				    PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, done[i].va + 4 * j,
				    0xd000 + i * NC + j, 0);
			ppu_pb_sem_inc(&pb, counter_va[i]);
			rtl_queue_pb(ch[i], &pb);
		}
		rtl_chan_doorbell(ch[i]);
	}
	ck_assert_int_eq(rtl_wait_all(ch, NCH, WAIT_CYCLES), 0);

	for (i = 0; i < NCH; i++) {
		for (j = 0; j < NC; j++) {
			check_copy(env, &dst[i][j], LEN, 100 + i * NC + j);
			ck_assert_uint_eq(rtl_buf_rd32(env, &done[i], 4 * j), 0xd000 + i * NC + j);
		}
		ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_END, i), NC);
		ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_REDUCTION, i), NC);
		ck_assert_uint_eq(rtl_chan_reg(ch[i], PPU_CHAN_GP_GET), NC);
	}
	ck_assert_uint_eq(rtl_mem_rd32(env, 0, counter_pa), NCH * NC);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	for (i = 0; i < NCH; i++) {
		rtl_chan_destroy(ch[i]);
		rtl_ctx_destroy(ctx[i]);
	}
	rtl_env_finish(env);
}
END_TEST

Suite *suite_sched(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, timeslice_expiry_interleaves_queued_copies_of_two_channels);
	tcase_add_test(tc, sched_timeslice_register_applies_when_the_instance_sets_none);
	tcase_add_test(tc, long_timeslice_lets_one_channel_finish_all_its_copies_first);
	tcase_add_test(tc, failed_acquire_switches_away_before_the_slice_ends);
	tcase_add_test(tc, guest_host_methods_run_while_the_resident_copies);
	tcase_add_test(tc, next_resident_follows_ring_order_after_the_last_service);
	tcase_add_test(tc, sixteen_channels_working_at_once_all_complete);
	tcase_add_test(tc, sched_ctrl_bit_0_is_reserved_and_priorities_come_from_the_runlist);
	suite_add_tcase(s, tc);
	return s;
}
