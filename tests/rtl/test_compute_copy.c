// SPDX-License-Identifier: MIT
/*
 * Copies launched from compute channels (CAP_FEATURES.COMPUTE_COPY,
 * docs/compute-design.md §6.4): a header on subchannel COPY of a compute
 * channel addresses the copy class, its LAUNCH_DMA takes the copy engine
 * like a copy channel's, and kernel launches on subchannel ENGINE keep
 * working around it.  Other subchannels, and COPY on a copy channel, are
 * illegal.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_env.h"
#include "rtl_suites.h"
#include "rtl_compute.h"
#include "../../runtime/device/samples/samples.h"

static void fill(uint8_t *b, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = (uint8_t)(seed >> 16);
	}
}

/* @len bytes at @src_off of @src arrived at @dst_off of @dst, nothing around them. */
static void check_copied(struct rtl_env *env, const struct rtl_buf *src, uint32_t src_off,
			 const struct rtl_buf *dst, uint32_t dst_off, uint32_t len)
{
	uint8_t *a = malloc(len + 2), *b = malloc(len + 2);

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	rtl_buf_read(env, src, src_off, a, len);
	rtl_buf_read(env, dst, dst_off - 1, b, len + 2);
	ck_assert_uint_eq(b[0], 0);
	ck_assert_int_eq(memcmp(a, b + 1, len), 0);
	ck_assert_uint_eq(b[len + 1], 0);
	free(a);
	free(b);
}

START_TEST(caps_report_copies_from_compute_channels)
{
	struct rtl_env *env = rtl_env_create(NULL);

	ck_assert(rtl_reg_read(env, PPU_REG_CAP_FEATURES) &
		  PPU_FSET(PPU_CAP_FEATURES_COMPUTE_COPY, 1));
	rtl_env_destroy(env);
}
END_TEST

/*
 * One pushbuffer: the TMD address (ENGINE), a timestamped copy (COPY) that
 * writes the copy's source register at the same method offset as the TMD
 * address, LAUNCH (ENGINE), WFI, a marker.  The kernel runs from its own
 * TMD, the copy is byte-exact with its semaphore, and the marker comes last.
 */
START_TEST(a_compute_channel_copies_between_its_launches)
{
	enum { LEN = 5003, N = 40 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 8192), dst = rtl_buf_alloc(ctx, 0, 8192);
	struct rtl_buf csem = rtl_buf_alloc(ctx, 0, 16), mark = rtl_buf_alloc(ctx, 0, 4);
	struct rtl_buf bx = rtl_buf_alloc(ctx, 0, 4 * N), by = rtl_buf_alloc(ctx, 0, 4 * N);
	uint8_t data[LEN];
	uint32_t dw[64], sem[4], tmd[2];
	int32_t x[N], y[N], out[N];
	struct saxpy_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	struct ppu_pb pb;
	int i;

	fill(data, LEN, 7);
	rtl_buf_write(env, &src, 3, data, LEN);
	for (i = 0; i < N; i++) {
		x[i] = 3 * i - 11;
		y[i] = 500 - i;
	}
	rtl_buf_write(env, &bx, 0, x, sizeof(x));
	rtl_buf_write(env, &by, 0, y, sizeof(y));
	rtl_kimage_load(ctx, "saxpy", &k);
	p = (struct saxpy_params){ .n = N, .a = 5, .x = bx.va, .y = by.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "saxpy"), 5, 8, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 0x31);
	ch = rtl_cchan_create(env, ctx, 4, 0, 63, 1);

	ppu_pb_init(&pb, dw, 64);
	tmd[0] = l.tmd.va;
	tmd[1] = 0;
	ppu_pb_inc(&pb, PPU_COMPUTE_TMD_ADDR_LO, tmd, 2);
	ppu_pb_copy_sub(&pb, PPU_MTHD_SUBCH_COPY, src.va + 3, dst.va + 1, LEN,
			PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP, csem.va, 0xc0, 0);
	ppu_pb_method(&pb, PPU_COMPUTE_LAUNCH, 0);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_WFI, 0));
	ppu_pb_sem_release(&pb, mark.va, 0x77);
	ck_assert(!pb.overflow);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 2000000), 0);

	check_copied(env, &src, 3, &dst, 1, LEN);
	rtl_buf_read(env, &csem, 0, sem, sizeof(sem));
	ck_assert_uint_eq(sem[0], 0xc0);
	ck_assert_uint_ne(sem[2] | sem[3], 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 0x31);
	rtl_buf_read(env, &by, 0, out, sizeof(out));
	for (i = 0; i < N; i++)
		ck_assert_int_eq(out[i], 5 * x[i] + y[i]);
	ck_assert_uint_eq(rtl_buf_rd32(env, &mark, 0), 0x77);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_START, ch->chid), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_END, ch->chid), 1);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPY_BYTES), LEN);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(ch);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

struct bad_subch {
	int compute;
	uint32_t header;
	uint32_t kind;
};

/* (the header's data word is 0 in every case) */
static const struct bad_subch bad_subch_cases[] = {
	/* COPY on a copy channel */
	{ 0, 0, PPU_FAULT_KIND_ILLEGAL_OPCODE },
	/* a subchannel nothing is bound to */
	{ 1, 1, PPU_FAULT_KIND_ILLEGAL_OPCODE },
	{ 1, 7, PPU_FAULT_KIND_ILLEGAL_OPCODE },
	/* the copy class on the compute class's subchannel */
	{ 1, 2, PPU_FAULT_KIND_ILLEGAL_METHOD },
};

static uint32_t bad_header(const struct bad_subch *c)
{
	switch (c->header) {
	case 0:
		return ppu_mthd_sub(PPU_MTHD_OP_INC, PPU_MTHD_SUBCH_COPY, PPU_COPY_LENGTH, 1);
	case 2:
		return ppu_mthd(PPU_MTHD_OP_INC, PPU_COPY_LAUNCH_DMA, 1);
	default:
		return ppu_mthd_sub(PPU_MTHD_OP_INC, c->header, PPU_COPY_LENGTH, 1);
	}
}

/* Subchannels a channel does not have fault it, with the header as data. */
START_TEST(subchannels_a_channel_lacks_fault_it)
{
	const struct bad_subch *c = &bad_subch_cases[_i];
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = c->compute ? rtl_cchan_create(env, ctx, 13, 0, 63, 1)
					 : rtl_chan_create(env, ctx, 13, 4, 0);
	struct rtl_buf mark = rtl_buf_alloc(ctx, 0, 4);
	uint32_t dw[16];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 16);
	ppu_pb_sem_release(&pb, mark.va, 1);
	ppu_pb_push(&pb, bad_header(c));
	ppu_pb_push(&pb, 0);
	ppu_pb_sem_release(&pb, mark.va, 2);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 100000), 1);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO)),
			  c->kind);
	if (c->kind == PPU_FAULT_KIND_ILLEGAL_OPCODE)
		ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_DATA), bad_header(c));
	else
		ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_ADDR), PPU_COPY_LAUNCH_DMA);
	ck_assert_uint_eq(rtl_buf_rd32(env, &mark, 0), 1);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * A copy channel and a compute channel share the copy engine: each
 * submits copies at once, both wait for the engine in turn, and every copy
 * arrives byte for byte, in each channel's order (each copy's semaphore
 * value counts up).
 */
START_TEST(compute_and_copy_channels_share_the_copy_engine)
{
	enum { COPIES = 6, LEN = 24 * 1024 + 5 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch[2];
	struct rtl_buf src[2], dst[2], sem[2];
	uint8_t *data = malloc(COPIES * LEN);
	uint32_t dw[256];
	struct ppu_pb pb;
	long first;
	int c, i;

	ck_assert_ptr_nonnull(data);
	rtl_reg_write(env, PPU_REG_SCHED_TIMESLICE, 2000);
	ch[0] = rtl_chan_create(env, ctx, 2, 4, 0);
	ch[1] = rtl_cchan_create(env, ctx, 9, 0, 63, 1);
	for (c = 0; c < 2; c++) {
		src[c] = rtl_buf_alloc(ctx, c, COPIES * LEN);
		dst[c] = rtl_buf_alloc(ctx, !c, COPIES * LEN + 2);
		sem[c] = rtl_buf_alloc(ctx, 0, 4);
		fill(data, COPIES * LEN, 100 + c);
		rtl_buf_write(env, &src[c], 0, data, COPIES * LEN);
		ppu_pb_init(&pb, dw, 256);
		for (i = 0; i < COPIES; i++)
			ppu_pb_copy_sub(&pb, c ? PPU_MTHD_SUBCH_COPY : PPU_MTHD_SUBCH_ENGINE,
					src[c].va + i * LEN, dst[c].va + 1 + i * LEN, LEN,
					PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, sem[c].va, i + 1, 0);
		ck_assert(!pb.overflow);
		rtl_chan_pb_put(ch[c], pb.dw, pb.len);
		rtl_chan_push_entry(ch[c], ch[c]->pb.va, pb.len);
	}
	rtl_chan_doorbell(ch[0]);
	rtl_chan_doorbell(ch[1]);
	ck_assert_int_eq(rtl_wait_all(ch, 2, 20000000), 0);
	for (c = 0; c < 2; c++) {
		check_copied(env, &src[c], 0, &dst[c], 1, COPIES * LEN);
		ck_assert_uint_eq(rtl_buf_rd32(env, &sem[c], 0), COPIES);
		ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_END, ch[c]->chid), COPIES);
		ck_assert_uint_eq(rtl_chan_reg(ch[c], PPU_CHAN_FAULT_INFO), 0);
	}
	/* short time slices: they took turns from the first copy on */
	first = rtl_log_find(env, PPU_TRACE_COPY_END, -1, 0);
	ck_assert_int_ge(first, 0);
	c = env->ev[first].chid == ch[0]->chid;
	ck_assert_int_lt(rtl_log_find(env, PPU_TRACE_COPY_END, ch[c]->chid, 0),
			 rtl_log_find(env, PPU_TRACE_COPY_END, ch[!c]->chid, first + 1));
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	free(data);
	rtl_chan_destroy(ch[0]);
	rtl_chan_destroy(ch[1]);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * A copy of a compute channel that faults stops that channel (unit
 * COPY_DST, its kernel killed) and nobody else: a copy channel's copy and
 * another compute channel's kernel, running at the same time, complete.
 */
START_TEST(a_compute_channels_copy_fault_faults_only_it)
{
	enum { LEN = 8192 };
	struct checksum_params p = { .iters = 100000, .seed = 4 }, p2 = { .iters = 20, .seed = 5 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, LEN), dst = rtl_buf_alloc(ctx, 1, LEN + 2);
	struct rtl_buf out = rtl_buf_alloc(ctx, 0, 32 * 4), out2 = rtl_buf_alloc(ctx, 0, 32 * 4);
	uint32_t hole = rtl_va_reserve(ctx, 4096), dw[64], ring[8];
	struct rtl_chan *bad, *cp, *good;
	struct rtl_klaunch l, l2;
	struct rtl_kimage k;
	uint8_t data[LEN];
	struct ppu_pb pb;
	int i;

	rtl_kimage_load(ctx, "checksum", &k);
	p.out = out.va;
	p2.out = out2.va;
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "checksum"), 4, 8, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 0x11);
	rtl_klaunch_init(&l2, rtl_kimage_fn(&k, "checksum"), 4, 8, &p2, sizeof(p2));
	rtl_klaunch_prepare(ctx, &l2, 0x22);
	fill(data, LEN, 3);
	rtl_buf_write(env, &src, 0, data, LEN);

	bad = rtl_cchan_create(env, ctx, 3, 0, 63, 1);
	cp = rtl_chan_create(env, ctx, 5, 4, 0);
	good = rtl_cchan_create(env, ctx, 6, 0, 63, 1);
	/* the long kernel, then a copy into unmapped memory */
	ppu_pb_init(&pb, dw, 64);
	ppu_pb_launch(&pb, l.tmd.va);
	ppu_pb_copy_sub(&pb, PPU_MTHD_SUBCH_COPY, src.va, hole + 16, 64,
			PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(bad, &pb);
	ppu_pb_init(&pb, dw, 64);
	ppu_pb_copy(&pb, src.va, dst.va + 1, LEN, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(cp, &pb);
	rtl_klaunch_submit(good, &l2, 0, 0);

	ck_assert_int_eq(rtl_chan_wait(bad, 2000000), 1);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, rtl_chan_reg(bad, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_UNIT_COPY_DST);
	ck_assert_uint_eq(rtl_chan_reg(bad, PPU_CHAN_FAULT_ADDR), hole + 16);
	ck_assert_int_eq(rtl_chan_wait(cp, 2000000), 0);
	ck_assert_int_eq(rtl_chan_wait(good, 2000000), 0);
	check_copied(env, &src, 0, &dst, 1, LEN);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l2.sem, 0), 0x22);
	for (i = 0; i < 32; i++)
		ck_assert_uint_eq(rtl_buf_rd32(env, &out2, 4 * i),
				  checksum_run(ring, p2.seed, i, p2.iters));
	/* the faulted channel's kernel is gone, without completing */
	for (i = 0; i < 100 && rtl_chan_reg(bad, PPU_CHAN_TASKS); i++)
		ppu_sim_clock(env->sim, 1000);
	ck_assert_uint_eq(rtl_chan_reg(bad, PPU_CHAN_TASKS), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 0);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(bad);
	rtl_chan_destroy(cp);
	rtl_chan_destroy(good);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * An unbind that arrives while the compute channel's copy is on the
 * engine waits for the copy (as a copy channel's does), and the copy's
 * completion does not bring the unbound channel back.
 */
START_TEST(unbind_waits_for_a_compute_channels_copy)
{
	enum { LEN = 256 * 1024 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, LEN), dst = rtl_buf_alloc(ctx, 0, LEN + 2);
	struct rtl_buf csem = rtl_buf_alloc(ctx, 0, 4);
	struct rtl_chan *ch = rtl_cchan_create(env, ctx, 7, 0, 63, 1);
	uint8_t *data = malloc(LEN);
	uint32_t dw[32];
	struct ppu_pb pb;

	ck_assert_ptr_nonnull(data);
	fill(data, LEN, 9);
	rtl_buf_write(env, &src, 0, data, LEN);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy_sub(&pb, PPU_MTHD_SUBCH_COPY, src.va, dst.va + 1, LEN,
			PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, csem.va, 5, 0);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_ENGINE_BUSY, 16, 200000), 0);
	rtl_reg_write(env, PPU_REG_CHAN_CTRL,
		      PPU_FSET(PPU_CHAN_CTRL_OP, PPU_CHAN_CTRL_OP_UNBIND) | ch->chid);
	ck_assert_int_eq(rtl_chan_wait_state(ch, PPU_CHAN_STATUS_STATE_UNBOUND, 16, 2000000), 0);
	/* the copy had completed when the unbind was carried out */
	ck_assert_uint_eq(rtl_buf_rd32(env, &csem, 0), 5);
	check_copied(env, &src, 0, &dst, 1, LEN);
	ppu_sim_clock(env->sim, 5000);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_UNBOUND);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	free(data);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_compute_copy(void)
{
	Suite *s = suite_create("compute_copy");
	TCase *tc = tcase_create("compute_copy");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, caps_report_copies_from_compute_channels);
	tcase_add_test(tc, a_compute_channel_copies_between_its_launches);
	tcase_add_loop_test(tc, subchannels_a_channel_lacks_fault_it, 0,
			    sizeof(bad_subch_cases) / sizeof(bad_subch_cases[0]));
	tcase_add_test(tc, compute_and_copy_channels_share_the_copy_engine);
	tcase_add_test(tc, a_compute_channels_copy_fault_faults_only_it);
	tcase_add_test(tc, unbind_waits_for_a_compute_channels_copy);
	suite_add_tcase(s, tc);
	return s;
}
