// SPDX-License-Identifier: MIT
/*
 * Engine recovery (ENGINE_CTRL, CAP_FEATURES.ENGINE_RESET): COPY_HALT
 * stops the copy engine as a wedged engine would stop, COPY_RESET drops the
 * copy it is running.  What must hold: the dropped copy ends as a fault of
 * kind ENGINE_RESET of its own channel only (its completion semaphore and
 * the methods after it never run), the responses already on their way are
 * taken and do not leak into the next copy, and every other channel goes
 * on with its state intact — a copy waiting for the engine runs byte for
 * byte once the engine is back.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_env.h"
#include "rtl_suites.h"

#define WAIT_CYCLES 4000000
#define BIG (256u * 1024)
#define SMALL (64u * 1024 + 5)
#define SEM_PAYLOAD 0x5eed0001u

static uint32_t engine_ctrl(struct rtl_env *env)
{
	return rtl_reg_read(env, PPU_REG_ENGINE_CTRL);
}

/* Writes COPY_RESET and clocks until it reads 0; returns the cycles it took. */
static uint64_t reset_copy_and_wait(struct rtl_env *env)
{
	return rtl_engine_reset(env, PPU_FMASK(PPU_ENGINE_CTRL_COPY_RESET), 100000);
}

static void halt_copy(struct rtl_env *env, int on)
{
	rtl_engine_halt(env, PPU_FSET(PPU_ENGINE_CTRL_COPY_HALT, on));
}

static void unbind_and_wait(struct rtl_chan *ch)
{
	rtl_chan_unbind(ch);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
}

/* A copy of @len random bytes that releases @sem with SEM_PAYLOAD, then a second release. */
struct rst_copy {
	struct rtl_buf src, dst, sem;
	uint8_t *img;
	uint32_t len;
};

static void rst_copy_submit(struct rtl_ctx *ctx, struct rtl_chan *ch, struct rst_copy *c,
			    uint32_t len, int src_sys, int dst_sys)
{
	struct rtl_env *env = ctx->env;
	uint32_t dw[64];
	struct ppu_pb pb;

	c->len = len;
	c->src = rtl_buf_alloc(ctx, src_sys, len);
	c->dst = rtl_buf_alloc(ctx, dst_sys, len);
	c->sem = rtl_buf_alloc(ctx, 1, 64);
	c->img = rtl_buf_randomize(env, &c->src);
	ppu_pb_init(&pb, dw, 64);
	ppu_pb_copy(&pb, c->src.va, c->dst.va, len, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, c->sem.va,
		    SEM_PAYLOAD, 0);
	/* a method after the copy: it runs only if the copy completed */
	ppu_pb_sem_release(&pb, c->sem.va + 8, SEM_PAYLOAD + 1);
	rtl_chan_submit(ch, &pb);
}

static void rst_copy_expect_done(struct rtl_env *env, struct rst_copy *c)
{
	rtl_expect_buf(env, &c->dst, 0, c->img, c->len);
	ck_assert_uint_eq(rtl_buf_rd32(env, &c->sem, 0), SEM_PAYLOAD);
	ck_assert_uint_eq(rtl_buf_rd32(env, &c->sem, 8), SEM_PAYLOAD + 1);
	free(c->img);
}

START_TEST(caps_and_a_reset_of_an_idle_engine)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rst_copy c;

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_ENGINE_RESET, 1));
	ck_assert_uint_eq(engine_ctrl(env), 0);
	ck_assert_uint_lt(reset_copy_and_wait(env), 20);
	/* a reset clears a halt */
	halt_copy(env, 1);
	ck_assert_uint_eq(engine_ctrl(env), PPU_FSET(PPU_ENGINE_CTRL_COPY_HALT, 1));
	reset_copy_and_wait(env);
	ck_assert_uint_eq(engine_ctrl(env), 0);
	/* nothing was dropped: the next copy runs */
	rst_copy_submit(ctx, ch, &c, SMALL, 1, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	rst_copy_expect_done(env, &c);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(a_halted_copy_issues_nothing_and_resumes_exactly)
{
	struct rtl_env *env = rtl_env_create_mem(0, 200, 0, 0);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	uint64_t beats;
	struct rst_copy c;

	rst_copy_submit(ctx, ch, &c, BIG, 1, 1);
	ck_assert_int_ge(rtl_wait_event(env, PPU_TRACE_COPY_START, 0, 10, 100000), 0);
	ppu_sim_clock(env->sim, 2000);
	halt_copy(env, 1);
	/* what was on the memory port lands; then nothing moves */
	ppu_sim_clock(env->sim, 2000);
	beats = rtl_perf_read(env, PPU_PERF_COPY_BEATS);
	ck_assert_uint_gt(beats, 0);
	ppu_sim_clock(env->sim, 50000);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPY_BEATS), beats);
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(ch)),
			  PPU_CHAN_STATUS_STATE_ENGINE_BUSY);
	halt_copy(env, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	rst_copy_expect_done(env, &c);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Channel 0 (context A) runs a 256 KiB copy; channel 1 (context B) submits
 * a copy that waits for the engine.  The engine halts in the middle of A's
 * copy and is reset: A faults with ENGINE_RESET, neither its semaphore nor
 * the release after it run, and B's copy then runs byte for byte.  With
 * slow system memory (_i = 1) the reset finds reads on their way.
 */
START_TEST(a_reset_drops_only_the_copy_on_the_engine)
{
	struct rtl_env *env = _i ? rtl_env_create_mem(0, 300, 0, 0) : rtl_env_create(NULL);
	struct rtl_ctx *ca = rtl_ctx_create(env), *cb = rtl_ctx_create(env);
	struct rtl_chan *a = rtl_chan_create(env, ca, 0, 4, 0);
	struct rtl_chan *b = rtl_chan_create(env, cb, 1, 4, 0);
	struct rst_copy x, y;
	uint32_t info, addr;
	uint64_t cycles;

	rst_copy_submit(ca, a, &x, BIG, 1, 0);
	ck_assert_int_ge(rtl_wait_event(env, PPU_TRACE_COPY_START, 0, 10, 100000), 0);
	rst_copy_submit(cb, b, &y, SMALL, 1, 0);
	ppu_sim_clock(env->sim, 3000);
	halt_copy(env, 1);
	ppu_sim_clock(env->sim, 20000);
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(a)),
			  PPU_CHAN_STATUS_STATE_ENGINE_BUSY);
	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(b)),
			  PPU_CHAN_STATUS_STATE_ENGINE_WAIT);

	cycles = reset_copy_and_wait(env);
	ck_assert_uint_lt(cycles, 2000);
	ck_assert_uint_eq(engine_ctrl(env), 0);
	ck_assert_int_eq(rtl_chan_wait(a, 10000), 1);
	info = rtl_chan_reg(a, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_ENGINE_RESET);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_COPY_DST);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_ACCESS, info), PPU_FAULT_ACCESS_WRITE);
	/* FAULT_ADDR: how far the destination got, somewhere inside it */
	addr = rtl_chan_reg(a, PPU_CHAN_FAULT_ADDR);
	ck_assert_uint_gt(addr, x.dst.va);
	ck_assert_uint_lt(addr, x.dst.va + BIG);
	ck_assert(rtl_reg_read(env, PPU_REG_FAULT_PENDING) & 1u);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, 0), 1);
	/* the copy did not complete: no release, nothing after it ran */
	ck_assert_uint_eq(rtl_buf_rd32(env, &x.sem, 0), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &x.sem, 8), 0);
	free(x.img);

	/* the other channel goes on where it was, and only it */
	ck_assert_int_eq(rtl_chan_wait(b, WAIT_CYCLES), 0);
	rst_copy_expect_done(env, &y);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, 1), 0);
	ck_assert(!(rtl_reg_read(env, PPU_REG_FAULT_PENDING) & 2u));

	/* the faulted channel's id binds again and copies */
	unbind_and_wait(a);
	rtl_chan_destroy(a);
	a = rtl_chan_create(env, ca, 0, 4, 0);
	rst_copy_submit(ca, a, &x, SMALL, 0, 1);
	ck_assert_int_eq(rtl_chan_wait(a, WAIT_CYCLES), 0);
	rst_copy_expect_done(env, &x);
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(a);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ca);
	rtl_ctx_destroy(cb);
	rtl_env_destroy(env);
}
END_TEST

/*
 * The unbind of a channel whose copy is halted does not complete (the host
 * waits for the copy, as it must); the reset lets it go, and the copy of
 * another channel that waited for the engine runs at once.  This is the
 * driver's recovery path, done twice on one PPU.
 */
START_TEST(a_reset_lets_a_wedged_channel_unbind)
{
	struct rtl_env *env = rtl_env_create_mem(0, 200, 0, 0);
	struct rtl_ctx *ctx = rtl_ctx_create(env), *cb = rtl_ctx_create(env);
	struct rtl_chan *b = rtl_chan_create(env, cb, 1, 4, 0);
	struct rst_copy x, y;
	int round;

	for (round = 0; round < 2; round++) {
		struct rtl_chan *a = rtl_chan_create(env, ctx, 0, 4, 0);
		uint64_t t0;

		rtl_log_clear(env);
		rst_copy_submit(ctx, a, &x, BIG, 1, 1);
		ck_assert_int_ge(rtl_wait_event(env, PPU_TRACE_COPY_START, 0, 10, 100000), 0);
		halt_copy(env, 1);
		rst_copy_submit(cb, b, &y, SMALL, 1, 0);
		ppu_sim_clock(env->sim, 1000);
		rtl_reg_write(env, PPU_REG_CHAN_CTRL,
			      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) |
			      PPU_FSET(PPU_CHAN_CTRL_CHID, a->chid));
		ppu_sim_clock(env->sim, 50000);
		ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(a)),
				  PPU_CHAN_STATUS_STATE_ENGINE_BUSY);
		ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(b)),
				  PPU_CHAN_STATUS_STATE_ENGINE_WAIT);
		reset_copy_and_wait(env);
		t0 = ppu_sim_cycles(env->sim);
		ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000),
				 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &x.sem, 0), 0);
		free(x.img);
		ck_assert_int_eq(rtl_chan_wait(b, WAIT_CYCLES), 0);
		ck_assert_msg(ppu_sim_cycles(env->sim) - t0 < 40000,
			      "round %d: the waiting copy took %llu cycles after the reset", round,
			      (unsigned long long)(ppu_sim_cycles(env->sim) - t0));
		rst_copy_expect_done(env, &y);
		rtl_chan_destroy(a);
	}
	rtl_expect_no_protocol_errors(env);
	rtl_chan_destroy(b);
	rtl_ctx_destroy(ctx);
	rtl_ctx_destroy(cb);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_reset(void)
{
	Suite *s = suite_create("reset");
	TCase *tc = tcase_create("reset");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, caps_and_a_reset_of_an_idle_engine);
	tcase_add_test(tc, a_halted_copy_issues_nothing_and_resumes_exactly);
	tcase_add_loop_test(tc, a_reset_drops_only_the_copy_on_the_engine, 0, 2);
	tcase_add_test(tc, a_reset_lets_a_wedged_channel_unbind);
	suite_add_tcase(s, tc);
	return s;
}
