// SPDX-License-Identifier: MIT
/*
 * Runlists (SCHED_CTRL.RUNLIST): only listed channels run, levels are
 * strict priorities, channels of one level share the engine fairly, a new
 * list takes effect while channels run, a list that cannot be read leaves
 * the one in force.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define WAIT_CYCLES 2000000

static void rl_enable(struct rtl_env *env)
{
	rtl_reg_write(env, PPU_REG_SCHED_CTRL, PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1));
}

START_TEST(only_listed_channels_run)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 7, 4, 0);
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, 4096), d = rtl_buf_alloc(ctx, 0, 8192);
	const struct rtl_rl_ent only_a[] = { { 3, 0 } }, both[] = { { 3, 0 }, { 7, 0 } };
	uint8_t *pat;

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) & PPU_FSET(PPU_CAP_FEATURES_RUNLIST, 1));
	pat = rtl_buf_randomize(env, &s);
	rtl_runlist_submit(env, only_a, 1);
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_COUNT,
				   rtl_reg_read(env, PPU_REG_RUNLIST_STATUS)), 1);
	rl_enable(env);
	rtl_queue_copy(a, s.va, d.va, 4096);
	rtl_queue_copy(b, s.va, d.va + 4096, 4096);
	rtl_chan_doorbell(a);
	rtl_chan_doorbell(b);
	ck_assert_int_eq(rtl_chan_wait(a, WAIT_CYCLES), 0);
	ppu_sim_clock(env->sim, 20000);
	/* b is bound (its doorbell was taken) but not listed: it runs nothing */
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_BIND, b->chid), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_START, b->chid), 0);
	ck_assert_uint_eq(rtl_chan_reg(b, PPU_CHAN_GP_GET), 0);

	rtl_runlist_submit(env, both, 2);
	ck_assert_int_eq(rtl_chan_wait(b, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_END, b->chid), 1);
	rtl_expect_buf(env, &d, 4096, pat, 4096);
	free(pat);

	/* the mode off: the list does not matter */
	rtl_reg_write(env, PPU_REG_SCHED_CTRL, 0);
	rtl_runlist_submit(env, only_a, 1);
	rtl_queue_copy(b, s.va, d.va, 4096);
	rtl_chan_doorbell(b);
	ck_assert_int_eq(rtl_chan_wait(b, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_END, b->chid), 2);

	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * Three copies of a low-level channel queued (the first on the engine), then
 * one of another channel.  _i = 0: its level is higher, it runs right after
 * the copy on the engine; 1: lower, it waits for all three; 2: equal, with
 * a time slice longer than everything it waits too.
 */
START_TEST(levels_are_strict_priorities)
{
	enum { LEN = 16384 };
	static const uint32_t other_level[] = { 9, 1, 5 }, want_pos[] = { 1, 3, 3 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *lo = rtl_chan_create(env, ctx, 2, 4, 1u << 30);
	struct rtl_chan *hi = rtl_chan_create(env, ctx, 5, 4, 1u << 30);
	struct rtl_chan *both[2] = { lo, hi };
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, LEN), d[4];
	const struct rtl_rl_ent list[] = { { 2, 5 }, { 5, other_level[_i] } };
	uint32_t pos = 0, i;
	size_t k;

	for (i = 0; i < 4; i++)
		d[i] = rtl_buf_alloc(ctx, 0, LEN);
	rtl_runlist_submit(env, list, 2);
	rl_enable(env);
	for (i = 0; i < 3; i++)
		rtl_queue_copy(lo, s.va, d[i].va, LEN);
	rtl_chan_doorbell(lo);
	ck_assert_int_ge(rtl_wait_event(env, PPU_TRACE_COPY_START, lo->chid, 8, 100000), 0);
	rtl_queue_copy(hi, s.va, d[3].va, LEN);
	rtl_chan_doorbell(hi);
	ck_assert_int_eq(rtl_wait_all(both, 2, WAIT_CYCLES), 0);
	for (k = 0; k < env->nev; k++) {
		if (env->ev[k].kind != PPU_TRACE_COPY_END)
			continue;
		if (env->ev[k].a == d[3].va)
			break;
		pos++;
	}
	ck_assert_uint_eq(pos, want_pos[_i]);
	rtl_chan_destroy(lo);
	rtl_chan_destroy(hi);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/* Jain's fairness index of @n shares: 1 when equal, 1/n when one takes all. */
static double jain(const double *x, int n)
{
	double sum = 0, sq = 0;
	int i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	return sq > 0 ? sum * sum / (n * sq) : 0;
}

/*
 * Four channels of one level with 64 copies each, a 2,000-cycle time
 * slice: the copies each has finished when the first is done are even
 * (Jain's index >= 0.95), and a fifth channel on a lower level gets nothing
 * until the level above has no work.
 */
START_TEST(channels_of_one_level_share_the_engine_fairly)
{
	enum { NCH = 4, NCOPY = 64, LEN = 1024 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch[NCH + 1];
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, LEN), d = rtl_buf_alloc(ctx, 0, LEN);
	struct rtl_rl_ent list[NCH + 1];
	double done[NCH] = { 0 };
	uint64_t first_done = 0, low_start = 0;
	int i, j;
	size_t k;

	for (i = 0; i <= NCH; i++) {
		ch[i] = rtl_chan_create(env, ctx, 1 + i, 7, 2000);
		list[i] = (struct rtl_rl_ent){ 1 + i, i < NCH ? 20 : 10 };
	}
	rtl_runlist_submit(env, list, NCH + 1);
	rl_enable(env);
	for (i = 0; i <= NCH; i++) {
		for (j = 0; j < NCOPY; j++)
			rtl_queue_copy(ch[i], s.va, d.va, LEN);
		rtl_chan_doorbell(ch[i]);
	}
	ck_assert_int_eq(rtl_wait_all(ch, NCH + 1, 20 * WAIT_CYCLES), 0);
	/* when the first of the level finished its last copy */
	for (i = 0; i < NCH; i++) {
		size_t n = 0;

		for (k = 0; k < env->nev; k++) {
			if (env->ev[k].kind != PPU_TRACE_COPY_END || env->ev[k].chid != ch[i]->chid)
				continue;
			if (++n == NCOPY && (!first_done || env->ev[k].cycle < first_done))
				first_done = env->ev[k].cycle;
		}
		ck_assert_uint_eq(n, NCOPY);
	}
	for (k = 0; k < env->nev; k++) {
		if (env->ev[k].kind == PPU_TRACE_COPY_END && env->ev[k].cycle <= first_done)
			for (i = 0; i < NCH; i++)
				done[i] += env->ev[k].chid == ch[i]->chid;
		if (env->ev[k].kind == PPU_TRACE_COPY_START && env->ev[k].chid == ch[NCH]->chid &&
		    !low_start)
			low_start = env->ev[k].cycle;
	}
	printf("runlist fairness: copies done when the first finished: %.0f %.0f %.0f %.0f, "
	       "Jain %.3f\n", done[0], done[1], done[2], done[3], jain(done, NCH));
	fflush(stdout);
	ck_assert_msg(jain(done, NCH) >= 0.95, "Jain's index %.3f (%.0f %.0f %.0f %.0f)",
		      jain(done, NCH), done[0], done[1], done[2], done[3]);
	/* the lower level starts only after the upper level's last copy */
	for (k = 0; k < env->nev; k++)
		if (env->ev[k].kind == PPU_TRACE_COPY_START && env->ev[k].chid != ch[NCH]->chid)
			ck_assert_uint_lt(env->ev[k].cycle, low_start);
	for (i = 0; i <= NCH; i++)
		rtl_chan_destroy(ch[i]);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A new list while channels run: b, taken off, stops at its next switch
 * point with its state kept (the copy it has on the engine finishes) while
 * a goes on; listed again, b finishes where it stopped.
 */
START_TEST(a_new_list_takes_effect_while_channels_run)
{
	enum { NCOPY = 12, LEN = 4096 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 0, 5, 2000);
	struct rtl_chan *b = rtl_chan_create(env, ctx, 1, 5, 2000);
	struct rtl_chan *both[2] = { a, b };
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, LEN), db[NCOPY];
	const struct rtl_rl_ent list2[] = { { 0, 3 }, { 1, 3 } }, list_a[] = { { 0, 3 } };
	size_t b_before, k;
	uint64_t off_at;
	uint8_t *pat;
	int i;

	pat = rtl_buf_randomize(env, &s);
	rtl_runlist_submit(env, list2, 2);
	rl_enable(env);
	for (i = 0; i < NCOPY; i++) {
		db[i] = rtl_buf_alloc(ctx, 0, LEN);
		rtl_queue_copy(a, s.va, db[i].va, LEN);
		rtl_queue_copy(b, s.va, db[i].va, LEN);
	}
	rtl_chan_doorbell(a);
	rtl_chan_doorbell(b);
	ck_assert_int_ge(rtl_wait_event(env, PPU_TRACE_COPY_END, b->chid, 8, WAIT_CYCLES), 0);
	rtl_runlist_submit(env, list_a, 1);
	off_at = ppu_sim_cycles(env->sim);
	ck_assert_int_eq(rtl_chan_wait(a, WAIT_CYCLES), 0);
	b_before = rtl_log_count(env, PPU_TRACE_COPY_END, b->chid);
	ck_assert_uint_lt(b_before, NCOPY);
	/* after the list without b was in force, b started at most the copy it had going */
	for (k = 0, i = 0; k < env->nev; k++)
		if (env->ev[k].kind == PPU_TRACE_COPY_START && env->ev[k].chid == b->chid &&
		    env->ev[k].cycle > off_at)
			i++;
	ck_assert_int_le(i, 1);
	ck_assert_uint_ne(rtl_chan_state(b), PPU_CHAN_STATUS_STATE_IDLE);

	rtl_runlist_submit(env, list2, 2);
	ck_assert_int_eq(rtl_wait_all(both, 2, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_END, b->chid), NCOPY);
	ck_assert_uint_eq(rtl_chan_reg(b, PPU_CHAN_GP_GET), NCOPY);
	for (i = 0; i < NCOPY; i++)
		rtl_expect_buf(env, &db[i], 0, pat, LEN);
	free(pat);
	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A list the host cannot read leaves the one in force and sets ERROR until
 * the next submit; entries naming channels that do not exist are skipped.
 */
START_TEST(an_unreadable_list_keeps_the_one_in_force)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 4, 4, 0);
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, 4096), d = rtl_buf_alloc(ctx, 0, 4096);
	const struct rtl_rl_ent list[] = { { 4095, 7 }, { 4, 2 }, { 200, 1 } };
	uint32_t st = 0, i;

	rtl_runlist_submit(env, list, 3);
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_COUNT,
				   rtl_reg_read(env, PPU_REG_RUNLIST_STATUS)), 3);
	rl_enable(env);
	/* beyond local memory: a bus error on the first read */
	rtl_reg_write(env, PPU_REG_RUNLIST_LO, 0xfffffff8u);
	rtl_reg_write(env, PPU_REG_RUNLIST_HI, 3);
	rtl_reg_write(env, PPU_REG_RUNLIST_SUBMIT, PPU_FSET(PPU_RUNLIST_SUBMIT_COUNT, 1));
	for (i = 0; i < 100; i++) {
		st = rtl_reg_read(env, PPU_REG_RUNLIST_STATUS);
		if (!PPU_FGET(PPU_RUNLIST_STATUS_PENDING, st))
			break;
		ppu_sim_clock(env->sim, 100);
	}
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_PENDING, st), 0);
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_ERROR, st), 1);
	ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_COUNT, st), 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	/* channel 4 is still listed */
	rtl_queue_copy(a, s.va, d.va, 4096);
	rtl_chan_doorbell(a);
	ck_assert_int_eq(rtl_chan_wait(a, WAIT_CYCLES), 0);
	/* the next good submit clears ERROR */
	rtl_runlist_submit(env, list + 1, 1);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_RUNLIST_STATUS),
			  PPU_FSET(PPU_RUNLIST_STATUS_COUNT, 1));
	rtl_chan_destroy(a);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A list gives its levels from the highest down and each channel once; one
 * that does not is refused whole (ERROR, the list in force stays), wherever
 * the offending entry sits in the beats the host reads.  Entries of
 * channels that do not exist are skipped for the order too.
 */
START_TEST(a_list_out_of_level_order_or_naming_a_channel_twice_is_refused)
{
	static const struct {
		struct rtl_rl_ent e[4];
		uint32_t n, ok;
	} lists[] = {
		{ { { 5, 1 }, { 4, 2 } }, 2, 0 },		/* rises inside a beat */
		{ { { 4, 2 }, { 5, 2 }, { 6, 3 } }, 3, 0 },	/* rises across beats */
		{ { { 4, 2 }, { 4, 2 } }, 2, 0 },		/* twice inside a beat */
		{ { { 4, 2 }, { 5, 2 }, { 4, 1 } }, 3, 0 },	/* twice across beats */
		{ { { 5, 3 }, { 4, 3 }, { 6, 0 } }, 3, 1 },	/* equal levels: fine */
		{ { { 4, 2 }, { 4000, 9 }, { 5, 1 } }, 3, 1 },	/* no channel 4000: skipped */
	};
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ctx, 4, 4, 0);
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, 4096), d = rtl_buf_alloc(ctx, 0, 4096);
	const struct rtl_rl_ent only_4[] = { { 4, 2 } };
	uint32_t i, st, count = 1;

	rtl_runlist_submit(env, only_4, 1);
	rl_enable(env);
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		st = rtl_runlist_submit_raw(env, lists[i].e, lists[i].n);
		if (lists[i].ok)
			count = lists[i].n;
		ck_assert_msg(PPU_FGET(PPU_RUNLIST_STATUS_ERROR, st) == !lists[i].ok,
			      "list %u: status %#x", i, st);
		ck_assert_uint_eq(PPU_FGET(PPU_RUNLIST_STATUS_COUNT, st), count);
		/* channel 4 is listed by every list in force here, and runs */
		rtl_queue_copy(a, s.va, d.va, 4096);
		rtl_chan_doorbell(a);
		ck_assert_int_eq(rtl_chan_wait(a, WAIT_CYCLES), 0);
	}
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);
	rtl_chan_destroy(a);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

Suite *suite_runlist(void)
{
	Suite *s = suite_create("runlist");
	TCase *tc = tcase_create("runlist");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, only_listed_channels_run);
	tcase_add_loop_test(tc, levels_are_strict_priorities, 0, 3);
	tcase_add_test(tc, channels_of_one_level_share_the_engine_fairly);
	tcase_add_test(tc, a_new_list_takes_effect_while_channels_run);
	tcase_add_test(tc, an_unreadable_list_keeps_the_one_in_force);
	tcase_add_test(tc, a_list_out_of_level_order_or_naming_a_channel_twice_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
