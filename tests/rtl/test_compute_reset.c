// SPDX-License-Identifier: MIT
/*
 * Compute engine recovery (ENGINE_CTRL.COMPUTE_RESET / COMPUTE_HALT,
 * CAP_FEATURES.COMPUTE_RESET).  COMPUTE_HALT stops every request of the
 * compute engine as a wedged memory port would, so a kernel's CTAs never
 * reach the quiet point a kill needs and their channel cannot unbind.
 * COMPUTE_RESET empties the engine.  What must hold: the wedged channel
 * then unbinds; every other channel that held tasks is told (fault kind
 * ENGINE_RESET, unit COMPUTE) and its completion semaphore is not
 * released; channels without tasks and copy channels are untouched; the
 * accesses already made are answered and do not leak into later work; the
 * next kernels run bit-exact.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_compute.h"
#include "rtl_env.h"
#include "rtl_suites.h"
#include "../../runtime/device/samples/samples.h"

#define LONG_ITERS 100000u

static uint32_t engine_ctrl(struct rtl_env *env)
{
	return rtl_reg_read(env, PPU_REG_ENGINE_CTRL);
}

/* Writes COMPUTE_RESET and clocks until it reads 0; returns the cycles it took. */
static uint64_t reset_compute_and_wait(struct rtl_env *env)
{
	return rtl_engine_reset(env, PPU_FMASK(PPU_ENGINE_CTRL_COMPUTE_RESET), 200000);
}

static void halt_compute(struct rtl_env *env, int on)
{
	rtl_engine_halt(env, PPU_FSET(PPU_ENGINE_CTRL_COMPUTE_HALT, on));
}

/* A checksum launch of @grid x 8 threads writing @out. */
static void checksum_launch(struct rtl_ctx *ctx, const struct rtl_kimage *k, struct rtl_klaunch *l,
			    struct checksum_params *p, struct rtl_buf *out, uint32_t grid,
			    uint32_t iters, uint32_t seed, uint32_t payload)
{
	*out = rtl_buf_alloc(ctx, 0, grid * 8 * 4);
	*p = (struct checksum_params){ .iters = iters, .seed = seed, .out = out->va };
	rtl_klaunch_init(l, rtl_kimage_fn(k, "checksum"), grid, 8, p, sizeof(*p));
	rtl_klaunch_prepare(ctx, l, payload);
}

static void expect_checksums(struct rtl_env *env, const struct rtl_buf *out,
			     const struct checksum_params *p, uint32_t threads)
{
	uint32_t ring[8], i;

	for (i = 0; i < threads; i++)
		ck_assert_uint_eq(rtl_buf_rd32(env, out, 4 * i),
				  checksum_run(ring, p->seed, i, p->iters));
}

static void expect_engine_reset_fault(struct rtl_chan *ch)
{
	uint32_t info = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);

	ck_assert_uint_eq(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(ch)),
			  PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_ENGINE_RESET);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_COMPUTE);
}

START_TEST(compute_reset_of_an_idle_engine_and_the_halt_bit)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct checksum_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_buf out;
	struct rtl_chan *ch;

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_COMPUTE_RESET, 1));
	ck_assert_uint_eq(engine_ctrl(env), 0);
	ck_assert_uint_lt(reset_compute_and_wait(env), 40);
	halt_compute(env, 1);
	ck_assert_uint_eq(engine_ctrl(env), PPU_FSET(PPU_ENGINE_CTRL_COMPUTE_HALT, 1));
	reset_compute_and_wait(env);
	ck_assert_uint_eq(engine_ctrl(env), 0);
	/* nobody held a task: nobody was told */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);

	rtl_kimage_load(ctx, "checksum", &k);
	checksum_launch(ctx, &k, &l, &p, &out, 2, 50, 3, 0x31);
	ch = rtl_cchan_create(env, ctx, 2, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 0x31);
	expect_checksums(env, &out, &p, 16);
	rtl_chan_destroy(ch);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A halts a kernel mid-run; its unbind cannot finish.  B has a kernel
 * running too, C (a copy channel) and D (compute, idle) hold nothing on the
 * engine.  After the reset: A unbinds, B is faulted ENGINE_RESET with its
 * semaphore unreleased, C's copy and D's kernel run exactly, and a fresh
 * kernel on a new channel of A's id is bit-exact.  Twice on one PPU, once
 * with 300-cycle system memory so that accesses are in flight at the reset.
 */
START_TEST(a_compute_reset_lets_a_wedged_channel_unbind)
{
	struct rtl_env *env = _i ? rtl_env_create_mem(0, 300, 0, 0) : rtl_env_create(NULL);
	struct rtl_ctx *ca = rtl_ctx_create(env), *cb = rtl_ctx_create(env);
	struct rtl_buf oa, ob, od, src, dst, csem;
	struct checksum_params pa, pb_, pd;
	struct rtl_klaunch la, lb, ld;
	struct rtl_kimage ka, kb;
	struct ppu_pb pb;
	uint32_t dw[64];
	uint8_t *img;
	int round;

	rtl_kimage_load(ca, "checksum", &ka);
	rtl_kimage_load(cb, "checksum", &kb);
	for (round = 0; round < 2; round++) {
		struct rtl_chan *a = rtl_cchan_create(env, ca, 3, 0, 63, 1);
		struct rtl_chan *b = rtl_cchan_create(env, cb, 4, 0, 63, 1);
		struct rtl_chan *c = rtl_chan_create(env, cb, 0, 4, 0);
		struct rtl_chan *d = rtl_cchan_create(env, cb, 5, 0, 63, 1);
		uint64_t cycles, faults0;

		checksum_launch(ca, &ka, &la, &pa, &oa, 4, LONG_ITERS, 7 + round, 0xa0);
		checksum_launch(cb, &kb, &lb, &pb_, &ob, 2, LONG_ITERS, 9 + round, 0xb0);
		rtl_klaunch_submit(a, &la, 0, 0);
		rtl_klaunch_submit(b, &lb, 0, 0);
		ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_WFI_WAIT, 16, 200000), 0);
		ck_assert_int_eq(rtl_chan_wait_state(b, PPU_CHAN_STATUS_STATE_WFI_WAIT, 16, 200000), 0);
		ppu_sim_clock(env->sim, 3000);
		halt_compute(env, 1);
		rtl_chan_unbind(a);
		ppu_sim_clock(env->sim, 50000);
		/* wedged: the kill cannot reach a quiet point */
		ck_assert_uint_ne(PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_state(a)),
				  PPU_CHAN_STATUS_STATE_UNBOUND);
		ck_assert_uint_ne(rtl_chan_reg(a, PPU_CHAN_TASKS), 0);

		faults0 = rtl_perf_read(env, PPU_PERF_FAULTS);
		cycles = reset_compute_and_wait(env);
		ck_assert_uint_lt(cycles, 2000);
		ck_assert_uint_eq(engine_ctrl(env), 0);
		ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		ck_assert_uint_eq(rtl_chan_reg(a, PPU_CHAN_TASKS), 0);
		expect_engine_reset_fault(b);
		ck_assert_uint_eq(rtl_chan_reg(b, PPU_CHAN_TASKS), 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &la.sem, 0), 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &lb.sem, 0), 0);
		ck_assert_uint_ge(rtl_perf_read(env, PPU_PERF_FAULTS) - faults0, 1);
		/* D held nothing: not told */
		ck_assert_uint_eq(rtl_chan_reg(d, PPU_CHAN_FAULT_INFO), 0);

		/* a copy channel and an untouched compute channel go on */
		src = rtl_buf_alloc(cb, 1, 8192);
		dst = rtl_buf_alloc(cb, 0, 8192);
		csem = rtl_buf_alloc(cb, 1, 16);
		img = rtl_buf_randomize(env, &src);
		ppu_pb_init(&pb, dw, 64);
		ppu_pb_copy(&pb, src.va, dst.va, 8192, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, csem.va,
			    0xc0, 0);
		rtl_chan_submit(c, &pb);
		checksum_launch(cb, &kb, &ld, &pd, &od, 4, 40, 11 + round, 0xd0);
		rtl_klaunch_submit(d, &ld, 0, 0);
		ck_assert_int_eq(rtl_chan_wait(c, 2000000), 0);
		ck_assert_int_eq(rtl_chan_wait(d, 4000000), 0);
		rtl_expect_buf(env, &dst, 0, img, 8192);
		free(img);
		ck_assert_uint_eq(rtl_buf_rd32(env, &csem, 0), 0xc0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &ld.sem, 0), 0xd0);
		expect_checksums(env, &od, &pd, 32);

		/* B leaves; A's id serves a fresh channel with a fresh kernel */
		rtl_chan_unbind(b);
		ck_assert_int_eq(rtl_chan_wait_state(b, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		rtl_chan_destroy(a);
		a = rtl_cchan_create(env, ca, 3, 0, 63, 1);
		checksum_launch(ca, &ka, &la, &pa, &oa, 4, 60, 13 + round, 0xa1);
		rtl_klaunch_submit(a, &la, 0, 0);
		ck_assert_int_eq(rtl_chan_wait(a, 4000000), 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &la.sem, 0), 0xa1);
		expect_checksums(env, &oa, &pa, 32);

		rtl_chan_unbind(a);
		rtl_chan_unbind(c);
		rtl_chan_unbind(d);
		ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		ck_assert_int_eq(rtl_chan_wait_state(c, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		ck_assert_int_eq(rtl_chan_wait_state(d, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		rtl_chan_destroy(a);
		rtl_chan_destroy(b);
		rtl_chan_destroy(c);
		rtl_chan_destroy(d);
	}
	rtl_kimage_free(&ka);
	rtl_kimage_free(&kb);
	rtl_ctx_destroy(ca);
	rtl_ctx_destroy(cb);
	rtl_env_finish(env);
}
END_TEST

/*
 * Resets at random points of a mix (three channels, two launches each, a
 * launch often in the table's hands): every channel ends either done with
 * every result exact, or faulted ENGINE_RESET with each launch either
 * complete and exact or not released at all; nothing hangs; the engine
 * then runs a fresh kernel bit-exact.
 */
START_TEST(resets_at_random_points_leave_every_channel_done_or_told)
{
	enum { NCH = 3, NL = 2, POINTS = 16 };
	struct rtl_env *env = rtl_env_create_mem(0, 120, 0, 0);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct checksum_params p[NCH][NL], pf;
	struct rtl_klaunch l[NCH][NL], lf;
	struct rtl_buf out[NCH][NL], of;
	struct rtl_kimage k;
	unsigned int seed = 0x5eed, point, told = 0, done = 0;

	rtl_kimage_load(ctx, "checksum", &k);
	for (point = 0; point < POINTS; point++) {
		struct rtl_chan *ch[NCH], *f;
		int i, j, ret;

		for (i = 0; i < NCH; i++) {
			ch[i] = rtl_cchan_create(env, ctx, 2 + i, 0, 63, 1);
			for (j = 0; j < NL; j++) {
				checksum_launch(ctx, &k, &l[i][j], &p[i][j], &out[i][j], 2 + i, 150,
						point * 8 + i * 2 + j, 0x100 + i * 2 + j);
				rtl_klaunch_submit(ch[i], &l[i][j], 0, 0);
			}
		}
		/* the mix takes ~176k cycles at 120-cycle system memory */
		ppu_sim_clock(env->sim, 1 + rand_r(&seed) % 200000);
		reset_compute_and_wait(env);
		for (i = 0; i < NCH; i++) {
			ret = rtl_chan_wait(ch[i], 4000000);
			ck_assert_int_ge(ret, 0);
			if (ret)
				expect_engine_reset_fault(ch[i]);
			told += ret;
			done += !ret;
			for (j = 0; j < NL; j++) {
				uint32_t sem = rtl_buf_rd32(env, &l[i][j].sem, 0);

				if (!ret || sem) {
					ck_assert_uint_eq(sem, 0x100u + i * 2 + j);
					expect_checksums(env, &out[i][j], &p[i][j], (2 + i) * 8);
				}
			}
			rtl_chan_unbind(ch[i]);
		}
		for (i = 0; i < NCH; i++) {
			ck_assert_int_eq(rtl_chan_wait_state(ch[i], PPU_CHAN_STATUS_STATE_UNBOUND, 10,
							     20000), 0);
			rtl_chan_destroy(ch[i]);
		}
		f = rtl_cchan_create(env, ctx, 9, 0, 63, 1);
		checksum_launch(ctx, &k, &lf, &pf, &of, 4, 30, point, 0xf0);
		rtl_klaunch_submit(f, &lf, 0, 0);
		ck_assert_int_eq(rtl_chan_wait(f, 4000000), 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &lf.sem, 0), 0xf0);
		expect_checksums(env, &of, &pf, 32);
		rtl_chan_unbind(f);
		ck_assert_int_eq(rtl_chan_wait_state(f, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		rtl_chan_destroy(f);
	}
	/* the points covered both outcomes */
	ck_assert_uint_gt(told, 0);
	ck_assert_uint_gt(done, 0);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * Resets swept across a launch's way in (doorbell, GPFIFO and pushbuffer
 * fetch, the launch handed to the task table, the TMD read over 600-cycle
 * memory; the launch is traced about 9,000 cycles after the doorbell here,
 * the kernel done after 51,000), every 100 cycles from 5,000 to 11,000, and
 * once before and once while the kernel runs: whatever the point, the host is
 * never left waiting for the task table's answer (a copy channel runs
 * after every reset), and the launching channel ends done and exact or
 * faulted ENGINE_RESET with its semaphore unreleased.
 */
START_TEST(resets_swept_across_a_launch_never_leave_the_host_waiting)
{
	struct rtl_env *env = rtl_env_create_mem(600, 600, 0, 0);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 4096), dst = rtl_buf_alloc(ctx, 0, 4096);
	struct rtl_buf csem = rtl_buf_alloc(ctx, 1, 16), out;
	struct rtl_chan *c = rtl_chan_create(env, ctx, 0, 4, 0);
	uint8_t *img = rtl_buf_randomize(env, &src);
	unsigned int i, told = 0, done = 0;
	struct checksum_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;

	rtl_kimage_load(ctx, "checksum", &k);
	for (i = 0; i < 63; i++) {
		unsigned int delay = i == 0 ? 0 : i == 62 ? 30000 : 5000 + 100 * (i - 1);
		struct rtl_chan *a = rtl_cchan_create(env, ctx, 3, 0, 63, 1);
		uint32_t dw[64], sem;
		struct ppu_pb pb;
		int ret;

		checksum_launch(ctx, &k, &l, &p, &out, 1, 20, delay, 0x77);
		rtl_klaunch_submit(a, &l, 0, 0);
		ppu_sim_clock(env->sim, delay);
		reset_compute_and_wait(env);

		ppu_pb_init(&pb, dw, 64);
		ppu_pb_copy(&pb, src.va, dst.va, 4096, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, csem.va,
			    delay + 1, 0);
		rtl_chan_submit(c, &pb);
		ck_assert_int_eq(rtl_chan_wait(c, 400000), 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &csem, 0), delay + 1);

		ret = rtl_chan_wait(a, 4000000);
		ck_assert_int_ge(ret, 0);
		sem = rtl_buf_rd32(env, &l.sem, 0);
		if (ret) {
			expect_engine_reset_fault(a);
			ck_assert_uint_eq(sem, 0);
			told++;
		} else {
			ck_assert_uint_eq(sem, 0x77);
			expect_checksums(env, &out, &p, 8);
			done++;
		}
		rtl_chan_unbind(a);
		ck_assert_int_eq(rtl_chan_wait_state(a, PPU_CHAN_STATUS_STATE_UNBOUND, 10, 20000), 0);
		rtl_chan_destroy(a);
	}
	rtl_expect_buf(env, &dst, 0, img, 4096);
	ck_assert_uint_gt(told, 0);
	ck_assert_uint_gt(done, 0);
	free(img);
	rtl_chan_destroy(c);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

Suite *suite_compute_reset(void)
{
	Suite *s = suite_create("compute_reset");
	TCase *tc = tcase_create("compute_reset");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, compute_reset_of_an_idle_engine_and_the_halt_bit);
	tcase_add_loop_test(tc, a_compute_reset_lets_a_wedged_channel_unbind, 0, 2);
	tcase_add_test(tc, resets_at_random_points_leave_every_channel_done_or_told);
	tcase_add_test(tc, resets_swept_across_a_launch_never_leave_the_host_waiting);
	suite_add_tcase(s, tc);
	return s;
}
