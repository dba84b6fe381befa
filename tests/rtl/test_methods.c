// SPDX-License-Identifier: MIT
/*
 * Pushbuffer decoding and host methods: the four header opcodes, NOP,
 * NON_STALL_INTR, LAUNCH_DMA's INTERRUPT bit, YIELD, count-0 headers,
 * methods across pushbuffer page boundaries and headers overrunning
 * their segment.
 */
#include <check.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define WAIT_CYCLES 400000
#define PAGE 4096u

static void expect_method(const struct ppu_sim_event *m, size_t i, uint32_t a, uint32_t b)
{
	ck_assert_msg(m[i].a == a && m[i].b == b,
		      "method %zu: got a=0x%x b=0x%x, want a=0x%x b=0x%x", i, m[i].a, m[i].b,
		      a, b);
}

START_TEST(incrementing_header_walks_consecutive_methods)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[16], exec = ppu_sem_release_op(0, 0, 0);
	struct ppu_pb pb;
	struct ppu_sim_event m[16];
	long r;

	ppu_pb_init(&pb, buf, 16);
	ppu_pb_sem_release(&pb, sem.va + 8, 0xcafe0001);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 16), 5);
	expect_method(m, 0, PPU_HOST_SEM_ADDR_LO, sem.va + 8);
	expect_method(m, 1, PPU_HOST_SEM_ADDR_HI, 0);
	expect_method(m, 2, PPU_HOST_SEM_PAYLOAD_LO, 0xcafe0001);
	expect_method(m, 3, PPU_HOST_SEM_PAYLOAD_HI, 0);
	expect_method(m, 4, PPU_HOST_SEM_EXECUTE, exec);
	r = rtl_log_find(env, PPU_TRACE_SEM_RELEASE, ch->chid, 0);
	ck_assert_int_ge(r, 0);
	ck_assert_uint_eq(env->ev[r].a, sem.va + 8);
	ck_assert_uint_eq(env->ev[r].b, 0xcafe0001);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8), 0xcafe0001);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 12), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(non_incrementing_header_repeats_one_method)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 1, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32], inc = ppu_sem_reduction_op(PPU_SEM_EXECUTE_REDUCTION_INC, 1);
	uint32_t rel = ppu_sem_release_op(0, 0, 0);
	struct ppu_pb pb;
	struct ppu_sim_event m[32];
	size_t i, k;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 2));
	ppu_pb_push(&pb, sem.va);
	ppu_pb_push(&pb, 0);
	/* three payloads into the same method: the last one counts */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_SEM_PAYLOAD_LO, 3));
	ppu_pb_push(&pb, 100);
	ppu_pb_push(&pb, 200);
	ppu_pb_push(&pb, 300);
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_PAYLOAD_HI, 2));
	ppu_pb_push(&pb, 0);
	ppu_pb_push(&pb, rel);
	/* three executions of the same method: each one increments */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_SEM_EXECUTE, 3));
	ppu_pb_push(&pb, inc);
	ppu_pb_push(&pb, inc);
	ppu_pb_push(&pb, inc);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 32), 10);
	expect_method(m, 0, PPU_HOST_SEM_ADDR_LO, sem.va);
	expect_method(m, 1, PPU_HOST_SEM_ADDR_HI, 0);
	expect_method(m, 2, PPU_HOST_SEM_PAYLOAD_LO, 100);
	expect_method(m, 3, PPU_HOST_SEM_PAYLOAD_LO, 200);
	expect_method(m, 4, PPU_HOST_SEM_PAYLOAD_LO, 300);
	expect_method(m, 5, PPU_HOST_SEM_PAYLOAD_HI, 0);
	expect_method(m, 6, PPU_HOST_SEM_EXECUTE, rel);
	for (i = 7; i < 10; i++)
		expect_method(m, i, PPU_HOST_SEM_EXECUTE, inc);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_RELEASE, ch->chid), 1);
	ck_assert_uint_eq(env->ev[rtl_log_find(env, PPU_TRACE_SEM_RELEASE, ch->chid, 0)].b, 300);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_REDUCTION, ch->chid), 3);
	for (i = 0, k = 0; i < env->nev; i++)
		if (env->ev[i].kind == PPU_TRACE_SEM_REDUCTION)
			ck_assert_uint_eq(env->ev[i].b, 301 + k++);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 303);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(increment_once_header_increments_after_first_data_only)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 2, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32], rel64 = ppu_sem_release_op(1, 0, 0), rel32 = ppu_sem_release_op(0, 0, 0);
	struct ppu_pb pb;
	struct ppu_sim_event m[32];

	ppu_pb_init(&pb, buf, 32);
	/* ADDR_LO then ADDR_HI */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_ONEINC, PPU_HOST_SEM_ADDR_LO, 2));
	ppu_pb_push(&pb, sem.va + 16);
	ppu_pb_push(&pb, 0);
	/* PAYLOAD_LO once, then PAYLOAD_HI three times */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_ONEINC, PPU_HOST_SEM_PAYLOAD_LO, 4));
	ppu_pb_push(&pb, 0x11111111);
	ppu_pb_push(&pb, 0x22222222);
	ppu_pb_push(&pb, 0x33333333);
	ppu_pb_push(&pb, 0x44444444);
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_ONEINC, PPU_HOST_SEM_EXECUTE, 1));
	ppu_pb_push(&pb, rel64);
	/* a second semaphore: PAYLOAD_HI then SEM_EXECUTE (32-bit release) */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_ONEINC, PPU_HOST_SEM_ADDR_LO, 1));
	ppu_pb_push(&pb, sem.va + 32);
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_ONEINC, PPU_HOST_SEM_PAYLOAD_HI, 2));
	ppu_pb_push(&pb, 0x55555555);
	ppu_pb_push(&pb, rel32);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 32), 10);
	expect_method(m, 0, PPU_HOST_SEM_ADDR_LO, sem.va + 16);
	expect_method(m, 1, PPU_HOST_SEM_ADDR_HI, 0);
	expect_method(m, 2, PPU_HOST_SEM_PAYLOAD_LO, 0x11111111);
	expect_method(m, 3, PPU_HOST_SEM_PAYLOAD_HI, 0x22222222);
	expect_method(m, 4, PPU_HOST_SEM_PAYLOAD_HI, 0x33333333);
	expect_method(m, 5, PPU_HOST_SEM_PAYLOAD_HI, 0x44444444);
	expect_method(m, 6, PPU_HOST_SEM_EXECUTE, rel64);
	expect_method(m, 7, PPU_HOST_SEM_ADDR_LO, sem.va + 32);
	expect_method(m, 8, PPU_HOST_SEM_PAYLOAD_HI, 0x55555555);
	expect_method(m, 9, PPU_HOST_SEM_EXECUTE, rel32);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 16), 0x11111111);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 20), 0x44444444);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 32), 0x11111111);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 36), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(immediate_header_carries_its_data_in_the_header)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32], rel = ppu_sem_release_op(0, 0, 0);
	uint32_t immd_max = PPU_FMAX(PPU_MTHD_IMMD);
	struct ppu_pb pb;
	struct ppu_sim_event m[32];

	/* the release word fits an immediate */
	ck_assert_uint_le(rel, immd_max);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_SEM_PAYLOAD_LO, 0x1abc));
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 2));
	ppu_pb_push(&pb, sem.va);
	ppu_pb_push(&pb, 0);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_SEM_PAYLOAD_HI, 0));
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_SEM_EXECUTE, rel));
	/* the largest immediate, then an incrementing header right after */
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_SEM_PAYLOAD_LO, immd_max));
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 1));
	ppu_pb_push(&pb, sem.va + 4);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_SEM_EXECUTE, rel));
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 32), 8);
	expect_method(m, 0, PPU_HOST_SEM_PAYLOAD_LO, 0x1abc);
	expect_method(m, 1, PPU_HOST_SEM_ADDR_LO, sem.va);
	expect_method(m, 2, PPU_HOST_SEM_ADDR_HI, 0);
	expect_method(m, 3, PPU_HOST_SEM_PAYLOAD_HI, 0);
	expect_method(m, 4, PPU_HOST_SEM_EXECUTE, rel);
	expect_method(m, 5, PPU_HOST_SEM_PAYLOAD_LO, immd_max);
	expect_method(m, 6, PPU_HOST_SEM_ADDR_LO, sem.va + 4);
	expect_method(m, 7, PPU_HOST_SEM_EXECUTE, rel);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x1abc);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), immd_max);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(nop_methods_are_traced_and_change_nothing)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 4, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32], nops[3] = { 0xdeadbeef, 0, 0xffffffff };
	struct ppu_pb pb;
	struct ppu_sim_event m[32];

	ppu_pb_init(&pb, buf, 32);
	/* NOPs between the semaphore methods and SEM_EXECUTE */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 4));
	ppu_pb_push(&pb, sem.va);
	ppu_pb_push(&pb, 0);
	ppu_pb_push(&pb, 0x600d);
	ppu_pb_push(&pb, 0);
	ppu_pb_inc(&pb, PPU_HOST_NOP, nops, 1);
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_NOP, 3));
	ppu_pb_push(&pb, nops[0]);
	ppu_pb_push(&pb, nops[1]);
	ppu_pb_push(&pb, nops[2]);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_NOP, 0x15));
	ppu_pb_method(&pb, PPU_HOST_SEM_EXECUTE, ppu_sem_release_op(0, 0, 0));
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 32), 10);
	expect_method(m, 4, PPU_HOST_NOP, 0xdeadbeef);
	expect_method(m, 5, PPU_HOST_NOP, 0xdeadbeef);
	expect_method(m, 6, PPU_HOST_NOP, 0);
	expect_method(m, 7, PPU_HOST_NOP, 0xffffffff);
	expect_method(m, 8, PPU_HOST_NOP, 0x15);
	/* the semaphore state survived the NOPs */
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_RELEASE, -1), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x600d);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(non_stall_intr_sets_pending_bit_status_and_irq_until_w1c)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32], bit = 1u << 3, ns = PPU_FSET(PPU_INTR_NONSTALL, 1);
	struct ppu_pb pb;
	struct ppu_sim_event m[32];
	size_t n;

	rtl_reg_write(env, PPU_REG_INTR_ENABLE, ns);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem_release(&pb, sem.va, 1);
	ppu_pb_nonstall(&pb);
	ppu_pb_sem_release(&pb, sem.va + 4, 2);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	n = rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 32);
	ck_assert_uint_eq(n, 11);
	expect_method(m, 5, PPU_HOST_NON_STALL_INTR, 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 2);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), bit);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), ns);
	rtl_expect_irq_up(env->sim);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_LO(PPU_PERF_NONSTALL_INTRS)), 1);
	/* reading clears nothing */
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), bit);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), ns);
	rtl_expect_irq_up(env->sim);
	/* W1C of other channels' bits leaves ours */
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, ~bit);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), bit);
	rtl_expect_irq_up(env->sim);
	/* W1C of our bit clears status and irq */
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, bit);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	/* with the interrupt disabled: pending and status, no irq */
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, 0);
	rtl_log_clear(env);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_nonstall(&pb);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), bit);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), ns);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	/* enabling it raises the (level) irq */
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, ns);
	rtl_expect_irq_up(env->sim);
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, bit);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(launch_dma_interrupt_bit_raises_nonstall_when_the_copy_completes)
{
	enum { LEN = 16384 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 6, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, LEN);
	struct rtl_buf dst0 = rtl_buf_alloc(ctx, 0, LEN), dst1 = rtl_buf_alloc(ctx, 0, LEN);
	static uint8_t pat[LEN], got[LEN];
	uint32_t buf[32], bit = 1u << 6;
	struct ppu_pb pb;
	long e;
	int i;

	for (i = 0; i < LEN; i++)
		pat[i] = (uint8_t)(i * 13 + (i >> 9));
	rtl_buf_write(env, &src, 0, pat, LEN);
	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_NONSTALL, 1));

	/* INTERRUPT = 0: no non-stall interrupt */
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, src.va, dst0.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	/* INTERRUPT = 1: raised at completion, not at launch */
	rtl_log_clear(env);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, src.va, dst1.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 1);
	rtl_chan_submit(ch, &pb);
	rtl_expect_event(env, PPU_TRACE_COPY_START, -1, 4, WAIT_CYCLES);
	ck_assert_int_lt(rtl_log_find(env, PPU_TRACE_COPY_END, -1, 0), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	e = rtl_log_find(env, PPU_TRACE_COPY_END, ch->chid, 0);
	ck_assert_int_ge(e, 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), bit);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), PPU_FSET(PPU_INTR_NONSTALL, 1));
	rtl_expect_irq_up(env->sim);

	rtl_buf_read(env, &dst0, 0, got, LEN);
	ck_assert(memcmp(got, pat, LEN) == 0);
	rtl_buf_read(env, &dst1, 0, got, LEN);
	ck_assert(memcmp(got, pat, LEN) == 0);
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, bit);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(wfi_and_release_wfi_after_a_copy_are_no_ops)
{
	enum { LEN = 8192 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 10, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, LEN), dst = rtl_buf_alloc(ctx, 0, LEN);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	static uint8_t pat[LEN], got[LEN];
	uint32_t buf[64], wfi_rel = ppu_sem_release_op(0, 0, 1);
	struct ppu_pb pb;
	struct ppu_sim_event m[64];
	long e, w, r;
	size_t n;
	int i;

	for (i = 0; i < LEN; i++)
		pat[i] = (uint8_t)(i * 5 + 9);
	rtl_buf_write(env, &src, 0, pat, LEN);
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_copy(&pb, src.va, dst.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_WFI, 0));
	ppu_pb_sem(&pb, sem.va, 0x3f1, wfi_rel);
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	n = rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 64);
	ck_assert_uint_eq(n, 9 + 1 + 5);
	expect_method(m, 9, PPU_HOST_WFI, 0);
	expect_method(m, 14, PPU_HOST_SEM_EXECUTE, wfi_rel);
	e = rtl_log_find(env, PPU_TRACE_COPY_END, ch->chid, 0);
	r = rtl_log_find(env, PPU_TRACE_SEM_RELEASE, ch->chid, 0);
	for (w = 0; w < (long)env->nev; w++)
		if (env->ev[w].kind == PPU_TRACE_METHOD && env->ev[w].a == PPU_HOST_WFI)
			break;
	/* the method after LAUNCH_DMA ran only after the copy */
	ck_assert_int_ge(e, 0);
	ck_assert_int_gt(w, e);
	ck_assert_int_gt(r, w);
	ck_assert_uint_eq(env->ev[r].b, 0x3f1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x3f1);
	rtl_buf_read(env, &dst, 0, got, LEN);
	ck_assert(memcmp(got, pat, LEN) == 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/*
 * A: release 0xa1, YIELD, release 0xa2; B: release 0xb1.  Both bound, both
 * doorbelled, A first.  Returns the index of the CHAN_SWITCH record to B
 * between A's first release and B's release (-1 if none).
 */
static long run_yield_pair(struct rtl_semt *t)
{
	struct rtl_env *env = t->env;
	struct rtl_chan *a = t->a, *b = t->b;
	const struct rtl_buf *sem = &t->sem;
	uint32_t bufa[32], bufb[32];
	struct ppu_pb pa, pb;
	long ra1, rb, ra2, sw = -1;
	size_t i;

	rtl_ring_all(t->both, 2, WAIT_CYCLES);
	rtl_log_clear(env);

	ppu_pb_init(&pa, bufa, 32);
	ppu_pb_sem_release(&pa, sem->va, 0xa1);
	ppu_pb_push(&pa, ppu_mthd_immd(PPU_HOST_YIELD, 0));
	ppu_pb_sem_release(&pa, sem->va + 4, 0xa2);
	ppu_pb_init(&pb, bufb, 32);
	ppu_pb_sem_release(&pb, sem->va + 8, 0xb1);
	rtl_queue_pb(a, &pa);
	rtl_queue_pb(b, &pb);
	rtl_ring_all(t->both, 2, WAIT_CYCLES);

	ra1 = rtl_log_find(env, PPU_TRACE_SEM_RELEASE, a->chid, 0);
	ck_assert_int_ge(ra1, 0);
	ra2 = rtl_log_find(env, PPU_TRACE_SEM_RELEASE, a->chid, ra1 + 1);
	rb = rtl_log_find(env, PPU_TRACE_SEM_RELEASE, b->chid, 0);
	ck_assert_int_ge(ra2, 0);
	ck_assert_int_ge(rb, 0);
	ck_assert_uint_eq(env->ev[ra1].b, 0xa1);
	ck_assert_uint_eq(env->ev[rb].b, 0xb1);
	ck_assert_uint_eq(env->ev[ra2].b, 0xa2);
	/* A runs to its YIELD, B runs, A continues after the YIELD */
	ck_assert_int_lt(ra1, rb);
	ck_assert_int_lt(rb, ra2);
	for (i = (size_t)ra1; i < (size_t)rb; i++)
		if (env->ev[i].kind == PPU_TRACE_CHAN_SWITCH && env->ev[i].chid == b->chid)
			sw = (long)i;
	ck_assert_uint_eq(rtl_buf_rd32(env, sem, 0), 0xa1);
	ck_assert_uint_eq(rtl_buf_rd32(env, sem, 4), 0xa2);
	ck_assert_uint_eq(rtl_buf_rd32(env, sem, 8), 0xb1);
	return sw;
}

START_TEST(yield_hands_the_host_to_a_waiting_channel)
{
	struct rtl_semt t;
	uint32_t buf[32];
	struct ppu_pb pb;
	long sw;

	rtl_semt_init(&t, 0);
	sw = run_yield_pair(&t);
	ck_assert_int_ge(sw, 0);
	ck_assert_uint_eq(t.env->ev[sw].b, PPU_SWITCH_REASON_YIELD);

	/* alone, a channel just goes on after its YIELD */
	rtl_log_clear(t.env);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_YIELD, 0));
	ppu_pb_sem_release(&pb, t.sem.va + 12, 0xa3);
	rtl_submit_and_wait(t.a, &pb, WAIT_CYCLES);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 12), 0xa3);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_FAULT, -1), 0);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(yield_switch_record_names_the_yielding_channel)
{
	struct rtl_semt t;
	long sw;

	rtl_semt_init(&t, 0);
	sw = run_yield_pair(&t);
	ck_assert_int_ge(sw, 0);
	ck_assert_uint_eq(t.env->ev[sw].b, PPU_SWITCH_REASON_YIELD);
	/* A = previous resident: A yielded, so it is A and not "none" */
	ck_assert_msg(t.env->ev[sw].a == t.a->chid,
		      "CHAN_SWITCH(YIELD) to %u names previous resident 0x%x, want %u",
		      t.b->chid, t.env->ev[sw].a, t.a->chid);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(count_zero_headers_execute_nothing)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t buf[32];
	struct ppu_pb pb;
	struct ppu_sim_event m[32];

	ppu_pb_init(&pb, buf, 32);
	/* count 0 on SEM_EXECUTE: the next dword is a header, not data */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_EXECUTE, 0));
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_SEM_EXECUTE, 0));
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_ONEINC, PPU_HOST_SEM_EXECUTE, 0));
	ppu_pb_sem_release(&pb, sem.va, 0x77);
	/* and at the very end of the segment */
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_EXECUTE, 0));
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_SEM_EXECUTE, 0));
	rtl_submit_and_wait(ch, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 32), 5);
	expect_method(m, 0, PPU_HOST_SEM_ADDR_LO, sem.va);
	expect_method(m, 4, PPU_HOST_SEM_EXECUTE, ppu_sem_release_op(0, 0, 0));
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_RELEASE, -1), 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x77);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 1);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

/* A 4-page pushbuffer whose pages sit at scattered physical addresses. */
struct scattered_pb {
	uint32_t va;
	uint64_t pa[4];
};

static void scattered_pb_init(struct rtl_ctx *ctx, struct scattered_pb *s)
{
	static const int order[4] = { 3, 0, 2, 1 };
	uint64_t pages[4];
	int i;

	for (i = 0; i < 4; i++) {
		pages[i] = rtl_alloc_pa(ctx->env, 0, PAGE, PAGE);
		rtl_alloc_pa(ctx->env, 0, PAGE, PAGE);	/* keep them apart */
	}
	s->va = rtl_va_reserve(ctx, 4 * PAGE);
	for (i = 0; i < 4; i++) {
		s->pa[i] = pages[order[i]];
		rtl_map(ctx, s->va + i * PAGE, s->pa[i], 0, PAGE, PPU_PTE_PERM_R);
	}
}

/* Writes @n dwords at byte offset @off of the scattered pushbuffer. */
static void scattered_pb_write(struct rtl_env *env, const struct scattered_pb *s, uint32_t off,
			       const uint32_t *dw, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++, off += 4)
		rtl_mem_wr32(env, 0, s->pa[off / PAGE] + off % PAGE, dw[i]);
}

START_TEST(methods_spanning_pushbuffer_page_boundaries)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 8, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	static uint32_t buf[2048];
	struct scattered_pb s;
	struct ppu_pb pb;
	static struct ppu_sim_event m[2048];
	uint32_t off_a = PAGE - 8, off_b = 2 * PAGE - 4, off_c = 2 * PAGE + 64, i;
	uint32_t rel = ppu_sem_release_op(0, 0, 0);

	scattered_pb_init(ctx, &s);

	/* A: header and first data word in page 0, the rest in page 1 */
	ppu_pb_init(&pb, buf, 2048);
	ppu_pb_sem_release(&pb, sem.va, 0xa1a1a1a1);
	scattered_pb_write(env, &s, off_a, pb.dw, pb.len);
	rtl_chan_push_entry(ch, s.va + off_a, pb.len);
	/* B: header alone at the end of page 1, its data in page 2 */
	ppu_pb_init(&pb, buf, 2048);
	ppu_pb_sem_release(&pb, sem.va + 4, 0xb2b2b2b2);
	scattered_pb_write(env, &s, off_b, pb.dw, pb.len);
	rtl_chan_push_entry(ch, s.va + off_b, pb.len);
	/* C: one header's data runs from page 2 into page 3 */
	ppu_pb_init(&pb, buf, 2048);
	ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_NOP, 1100));
	for (i = 0; i < 1100; i++)
		ppu_pb_push(&pb, 0x4e000000 + i);
	ppu_pb_sem_release(&pb, sem.va + 8, 0xc3c3c3c3);
	ck_assert(!pb.overflow);
	ck_assert_uint_gt(off_c + pb.len * 4, 3 * PAGE);
	scattered_pb_write(env, &s, off_c, pb.dw, pb.len);
	rtl_chan_push_entry(ch, s.va + off_c, pb.len);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_log_records(env, PPU_TRACE_METHOD, ch->chid, m, 2048),
			  5 + 5 + 1100 + 5);
	expect_method(m, 0, PPU_HOST_SEM_ADDR_LO, sem.va);
	expect_method(m, 1, PPU_HOST_SEM_ADDR_HI, 0);
	expect_method(m, 2, PPU_HOST_SEM_PAYLOAD_LO, 0xa1a1a1a1);
	expect_method(m, 3, PPU_HOST_SEM_PAYLOAD_HI, 0);
	expect_method(m, 4, PPU_HOST_SEM_EXECUTE, rel);
	expect_method(m, 5, PPU_HOST_SEM_ADDR_LO, sem.va + 4);
	expect_method(m, 7, PPU_HOST_SEM_PAYLOAD_LO, 0xb2b2b2b2);
	expect_method(m, 9, PPU_HOST_SEM_EXECUTE, rel);
	for (i = 0; i < 1100; i++)
		expect_method(m, 10 + i, PPU_HOST_NOP, 0x4e000000 + i);
	expect_method(m, 1110, PPU_HOST_SEM_ADDR_LO, sem.va + 8);
	expect_method(m, 1112, PPU_HOST_SEM_PAYLOAD_LO, 0xc3c3c3c3);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0xa1a1a1a1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 4), 0xb2b2b2b2);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 8), 0xc3c3c3c3);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_FAULT, -1), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

START_TEST(header_whose_data_continues_in_the_next_entry_is_pb_runaway)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 9, 4, 0);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t hdr = ppu_mthd(PPU_MTHD_OP_INC, PPU_HOST_SEM_ADDR_LO, 5);
	uint32_t first[3] = { hdr, sem.va, 0 };
	uint32_t rest[3] = { 0x5a5a5a5a, 0, ppu_sem_release_op(0, 0, 0) };
	uint32_t va1, va2, info;
	long f;

	rtl_buf_wr32(env, &sem, 0, 0x11110000);
	va1 = rtl_chan_pb_put(ch, first, 3);
	va2 = rtl_chan_pb_put(ch, rest, 3);
	rtl_chan_push_entry(ch, va1, 3);
	rtl_chan_push_entry(ch, va2, 3);
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 1);

	info = rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_PB_RUNAWAY);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_HOST);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR), va1);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_DATA), hdr);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_GP_GET), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_FAULT_PENDING), 1u << 9);
	ck_assert(rtl_reg_read(env, PPU_REG_INTR_STATUS) & PPU_FSET(PPU_INTR_FAULT, 1));
	f = rtl_log_find(env, PPU_TRACE_FAULT, ch->chid, 0);
	ck_assert_int_ge(f, 0);
	ck_assert_uint_eq(env->ev[f].a, info);
	ck_assert_uint_eq(env->ev[f].b, va1);
	/* nothing of the overrunning header executed, nothing of entry 2 either */
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_METHOD, -1), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, -1), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_SEM_RELEASE, -1), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x11110000);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_finish(env);
}
END_TEST

Suite *suite_methods(void)
{
	Suite *s = suite_create("methods");
	TCase *tc = tcase_create("methods");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, incrementing_header_walks_consecutive_methods);
	tcase_add_test(tc, non_incrementing_header_repeats_one_method);
	tcase_add_test(tc, increment_once_header_increments_after_first_data_only);
	tcase_add_test(tc, immediate_header_carries_its_data_in_the_header);
	tcase_add_test(tc, nop_methods_are_traced_and_change_nothing);
	tcase_add_test(tc, non_stall_intr_sets_pending_bit_status_and_irq_until_w1c);
	tcase_add_test(tc, launch_dma_interrupt_bit_raises_nonstall_when_the_copy_completes);
	tcase_add_test(tc, wfi_and_release_wfi_after_a_copy_are_no_ops);
	tcase_add_test(tc, yield_hands_the_host_to_a_waiting_channel);
	tcase_add_test(tc, yield_switch_record_names_the_yielding_channel);
	tcase_add_test(tc, count_zero_headers_execute_nothing);
	tcase_add_test(tc, methods_spanning_pushbuffer_page_boundaries);
	tcase_add_test(tc, header_whose_data_continues_in_the_next_entry_is_pb_runaway);
	suite_add_tcase(s, tc);
	return s;
}
