// SPDX-License-Identifier: MIT
/*
 * The invalidate handshake (MMU_STATUS.INV_PENDING, ppu_inv_drain): once
 * it has cleared after an MMU invalidate, no engine writes through a
 * translation made before it.  The decisive case is the one software
 * frees pages in: a long copy whose destination is unmapped while it runs
 * (the copy engine holds its current page translations, and its writes are
 * in flight).  The destination's memory, read through the backdoor when
 * the handshake clears, must not change afterwards, although the copy goes
 * on until it faults on the unmapped pages.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_env.h"
#include "rtl_suites.h"
#include "rtl_compute.h"
#include "../../runtime/device/samples/samples.h"

#define PAGE 4096u

static int inv_pending(struct rtl_env *env)
{
	return !!PPU_FGET(PPU_MMU_STATUS_INV_PENDING, rtl_reg_read(env, PPU_REG_MMU_STATUS));
}

/* INVALIDATE, then clocks until INV_PENDING clears; returns the cycles it took. */
static uint64_t invalidate_and_wait(struct rtl_env *env)
{
	uint64_t t0 = ppu_sim_cycles(env->sim);

	rtl_reg_write(env, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
	while (inv_pending(env)) {
		ck_assert_uint_lt(ppu_sim_cycles(env->sim) - t0, 1000000);
		ppu_sim_clock(env->sim, 7);
	}
	return ppu_sim_cycles(env->sim) - t0;
}

START_TEST(caps_and_an_idle_handshake)
{
	struct rtl_env *env = rtl_env_create(NULL);
	uint64_t t;

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) & PPU_FSET(PPU_CAP_FEATURES_INV_DRAIN, 1));
	ck_assert(!inv_pending(env));
	/* the read right after the write already reports it */
	rtl_reg_write(env, PPU_REG_MMU_CTRL, PPU_FSET(PPU_MMU_CTRL_INVALIDATE, 1));
	ck_assert(inv_pending(env));
	t = invalidate_and_wait(env);
	ck_assert_uint_lt(t, 200);
	rtl_env_destroy(env);
}
END_TEST

struct inv_case {
	int src_sys, dst_sys;
	uint32_t sys_latency;
	uint32_t unmap_after;	/* cycles into the copy */
};

static const struct inv_case inv_cases[] = {
	{ 1, 1, 300, 3000 },	/* system to system over a slow link, as through PCIe */
	{ 1, 1, 300, 9000 },
	{ 0, 1, 300, 5000 },
	{ 1, 0, 300, 7000 },
	{ 0, 0, 0, 2500 },
};

/*
 * A 1 MiB copy; its destination is unmapped (leaves cleared through the
 * backdoor) at some point, then INVALIDATE and the handshake.  From then
 * on, the destination's memory does not change, the copy faults on the
 * first unmapped page it needs (COPY_DST), and what it wrote before is the
 * source's bytes.
 */
START_TEST(nothing_is_written_through_an_unmapped_page_after_the_handshake)
{
	enum { LEN = 1 << 20 };
	const struct inv_case *c = &inv_cases[_i];
	struct rtl_env *env = rtl_env_create_mem(0, c->sys_latency, 0, 0);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf src = rtl_buf_alloc(ctx, c->src_sys, LEN);
	struct rtl_buf dst = rtl_buf_alloc(ctx, c->dst_sys, LEN);
	uint8_t *data = malloc(LEN), *at_inv = malloc(LEN), *at_done = malloc(LEN), *end = malloc(LEN);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	uint32_t i, dw[16], changed_during = 0, written = 0;
	struct ppu_pb pb;
	uint64_t t;

	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(at_inv);
	ck_assert_ptr_nonnull(at_done);
	ck_assert_ptr_nonnull(end);
	for (i = 0; i < LEN; i++)
		data[i] = (uint8_t)(i * 7u + (i >> 12) + 1);
	rtl_buf_write(env, &src, 0, data, LEN);
	ppu_pb_init(&pb, dw, 16);
	ppu_pb_copy(&pb, src.va, dst.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	ppu_sim_clock(env->sim, c->unmap_after);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_ENGINE_BUSY);

	for (i = 0; i < LEN; i += PAGE)
		rtl_set_pte(ctx, dst.va + i, 0);
	rtl_buf_read(env, &dst, 0, at_inv, LEN);
	t = invalidate_and_wait(env);
	rtl_buf_read(env, &dst, 0, at_done, LEN);

	ck_assert_int_eq(rtl_chan_wait(ch, 10000000), 1);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_UNIT_COPY_DST);
	ppu_sim_clock(env->sim, 20000);
	rtl_buf_read(env, &dst, 0, end, LEN);
	for (i = 0; i < LEN; i++) {
		changed_during += at_inv[i] != at_done[i];
		written += at_done[i] != 0;
		ck_assert_msg(end[i] == at_done[i], "byte %u written after the handshake", i);
		ck_assert_msg(!at_done[i] || at_done[i] == data[i], "byte %u", i);
	}
	printf("inv: unmapped at %u cycles: %u bytes copied, %u of them while the handshake "
	       "was pending (%llu cycles)\n", c->unmap_after, written, changed_during,
	       (unsigned long long)t);
	ck_assert_uint_gt(written, 0);
	ck_assert_uint_lt(written, LEN);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	free(data);
	free(at_inv);
	free(at_done);
	free(end);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Kernels storing through their micro-TLBs while their output is unmapped:
 * after the handshake nothing more lands in the old pages (the units fault
 * on the unmapped page instead).
 */
START_TEST(kernel_stores_stop_at_the_handshake)
{
	enum { N = 8192 };
	struct rtl_env *env = rtl_env_create_mem(0, 200, 0, 0);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf bx = rtl_buf_alloc(ctx, 1, 4 * N), by = rtl_buf_alloc(ctx, 1, 4 * N);
	uint32_t *at_done = malloc(4 * N), *end = malloc(4 * N), i;
	struct saxpy_params p = { .n = N, .a = 3 };
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *ch;

	ck_assert_ptr_nonnull(at_done);
	ck_assert_ptr_nonnull(end);
	for (i = 0; i < N; i++)
		rtl_buf_wr32(env, &bx, 4 * i, i + 1);
	rtl_kimage_load(ctx, "saxpy", &k);
	p.x = bx.va;
	p.y = by.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "saxpy"), N / 32, 32, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 0x5);
	ch = rtl_cchan_create(env, ctx, 2, 0, 63, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	for (i = 0; i < 200 && !rtl_buf_rd32(env, &by, 0); i++)
		ppu_sim_clock(env->sim, 500);
	ck_assert_uint_ne(rtl_buf_rd32(env, &by, 0), 0);
	for (i = 0; i < 4 * N; i += PAGE)
		rtl_set_pte(ctx, by.va + i, 0);
	invalidate_and_wait(env);
	rtl_buf_read(env, &by, 0, at_done, 4 * N);
	ck_assert_int_eq(rtl_chan_wait(ch, 20000000), 1);
	ppu_sim_clock(env->sim, 20000);
	rtl_buf_read(env, &by, 0, end, 4 * N);
	for (i = 0; i < N; i++) {
		ck_assert_msg(end[i] == at_done[i], "word %u written after the handshake", i);
		ck_assert(!at_done[i] || at_done[i] == 3 * (i + 1));
	}
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	free(at_done);
	free(end);
	rtl_chan_destroy(ch);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_inv(void)
{
	Suite *s = suite_create("inv");
	TCase *tc = tcase_create("inv");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, caps_and_an_idle_handshake);
	tcase_add_loop_test(tc, nothing_is_written_through_an_unmapped_page_after_the_handshake, 0,
			    sizeof(inv_cases) / sizeof(inv_cases[0]));
	tcase_add_test(tc, kernel_stores_stop_at_the_handshake);
	suite_add_tcase(s, tc);
	return s;
}
