// SPDX-License-Identifier: MIT
/*
 * Device-side work creation through libppu in the co-simulated guest
 * (SEEDS §C): ppu_launch_kernel_workq() on a stream runs a kernel whose
 * threads submit command blocks to a PPU-owned work queue with no host
 * involvement; the stream's next work starts only after every submitted
 * block has run; the queue is reused by the next launch; a block that
 * faults kills the queue's channel and the stream gets CHANNEL_FAULT
 * instead of hanging; bad arguments are refused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "ppu/ppu_hw.h"
#include "ppu_guest.h"
#include "rt_guest.h"
#include "device/samples/samples.h"

static void *host_alloc(ppu_ctx *ctx, size_t bytes, ppu_devptr *d)
{
	void *p;

	RT(ppu_mem_alloc_host(ctx, bytes, &p, d));
	memset(p, 0, bytes);
	return p;
}

static ppu_dim3 dim(uint32_t x)
{
	return (ppu_dim3){ x, 1, 1 };
}

struct wq_run {
	ppu_ctx *ctx;
	ppu_stream *s;
	ppu_module *m;
	ppu_function *fn;
	ppu_work_queue *q;
	uint32_t *tickets, *total, *status, *snap;
	ppu_devptr tickets_d, total_d, status_d, arena_d, snap_d;
};

enum { CTAS = 2, CTA = 6, THREADS = CTAS * CTA };

/* A context, a stream, the kernel @name of @file and a 2^@log2-entry queue. */
static void wq_open(struct wq_run *r, unsigned int log2, const char *file, const char *name)
{
	memset(r, 0, sizeof(*r));
	RT(ppu_ctx_create(&r->ctx, 0, 0));
	RT(ppu_stream_create(r->ctx, &r->s));
	rt_load_kernel(r->ctx, file, name, &r->m, &r->fn);
	RT(ppu_work_queue_create(r->ctx, log2, &r->q));
	ck_assert_uint_ne(ppu_work_queue_devptr(r->q), 0);
}

static void wq_close(struct wq_run *r)
{
	RT(ppu_work_queue_destroy(r->q));
	RT(ppu_ctx_destroy(r->ctx));
}

static void wq_setup(struct wq_run *r, unsigned int log2)
{
	wq_open(r, log2, "workq_fill", "workq_gen");
	r->tickets = host_alloc(r->ctx, 4 * THREADS, &r->tickets_d);
	r->total = host_alloc(r->ctx, 4, &r->total_d);
	r->status = host_alloc(r->ctx, 4 * THREADS, &r->status_d);
	r->snap = host_alloc(r->ctx, 4, &r->snap_d);
	host_alloc(r->ctx, THREADS * WORKQ_FILL_ARENA, &r->arena_d);
}

/* One window of @subs submissions per thread; returns the blocks it makes. */
static uint32_t wq_launch(struct wq_run *r, uint32_t seed, uint32_t subs, ppu_devptr total_d)
{
	struct workq_fill_params p = {
		.subs = subs, .seed = seed, .arena = (uint32_t)r->arena_d,
		.tickets = (uint32_t)r->tickets_d, .total = (uint32_t)total_d,
		.status = (uint32_t)r->status_d,
	};
	uint32_t i, s, want = 0;

	memset(r->tickets, 0, 4 * THREADS);
	*r->total = 0;
	for (i = 0; i < THREADS; i++)
		for (s = 0; s < subs; s++)
			want += workq_fill_blocks(seed, i, s);
	RT(ppu_launch_kernel_workq(r->fn, dim(CTAS), dim(CTA), &p, sizeof(p), r->q, r->s));
	return want;
}

/*
 * Two windows through one queue: every block of each ran once and in its
 * thread's order (the tickets), and the stream's copy after the launch saw
 * the final total, so it ran only after the window closed.
 */
START_TEST(windows_run_every_block_before_the_stream_goes_on)
{
	struct wq_run r;
	uint32_t g, i, want;

	wq_setup(&r, 6);
	for (g = 1; g <= 2; g++) {
		want = wq_launch(&r, 0x1234 * g, 1, r.total_d);
		RT(ppu_memcpy_async(r.snap_d, r.total_d, 4, r.s));
		RT(ppu_stream_synchronize(r.s));
		ck_assert_uint_eq(*r.total, want);
		ck_assert_uint_eq(*r.snap, want);
		for (i = 0; i < THREADS; i++) {
			ck_assert_uint_eq(r.status[i], PPU_ECALL_STATUS_OK);
			ck_assert_uint_eq(r.tickets[i], workq_fill_blocks(0x1234 * g, i, 0));
		}
	}
	wq_close(&r);
}
END_TEST

/*
 * Queue blocks that copy (subchannel COPY of the queue's compute channel):
 * every thread submits src → stage (local memory) and stage → dst; every
 * byte arrives, each thread's semaphore is released once, and the stream's
 * next work sees all of it.
 */
START_TEST(queue_blocks_copy_through_the_copy_engine)
{
	enum { T = 16 };
	ppu_devptr src_d, stage_d, dst_d, blk_d, done_d, total_d, status_d, snap_d;
	uint32_t *done, *total, *status, *snap, i;
	uint8_t *src, *dst;
	struct workq_copy_params p;
	struct wq_run r;
	ppu_ctx *ctx;

	wq_open(&r, 6, "workq_copy", "workq_copy");
	ctx = r.ctx;
	src = host_alloc(ctx, T * WORKQ_COPY_SPAN, &src_d);
	dst = host_alloc(ctx, T * WORKQ_COPY_SPAN, &dst_d);
	RT(ppu_mem_alloc(ctx, T * WORKQ_COPY_SPAN, &stage_d));
	host_alloc(ctx, T * WORKQ_COPY_SLOT, &blk_d);
	done = host_alloc(ctx, 4 * T, &done_d);
	total = host_alloc(ctx, 4, &total_d);
	status = host_alloc(ctx, 4 * T, &status_d);
	snap = host_alloc(ctx, 4, &snap_d);
	for (i = 0; i < T * WORKQ_COPY_SPAN; i++)
		src[i] = (uint8_t)(i * 29u + (i >> 8));
	p = (struct workq_copy_params){
		.src = (uint32_t)src_d, .stage = (uint32_t)stage_d, .dst = (uint32_t)dst_d,
		.blocks = (uint32_t)blk_d, .done = (uint32_t)done_d, .total = (uint32_t)total_d,
		.status = (uint32_t)status_d,
	};
	RT(ppu_launch_kernel_workq(r.fn, dim(2), dim(T / 2), &p, sizeof(p), r.q, r.s));
	RT(ppu_memcpy_async(snap_d, total_d, 4, r.s));
	RT(ppu_stream_synchronize(r.s));
	ck_assert_uint_eq(*total, T);
	ck_assert_uint_eq(*snap, T);
	for (i = 0; i < T; i++) {
		uint32_t off = workq_copy_off(i), len = workq_copy_len(i);

		ck_assert_uint_eq(status[i], PPU_ECALL_STATUS_OK);
		ck_assert_uint_eq(done[i], i + 1);
		ck_assert_msg(!memcmp(dst + off, src + off, len), "thread %u: %u bytes at %u", i,
			      len, off);
		ck_assert_uint_eq(dst[off + len], 0);
	}
	wq_close(&r);
}
END_TEST

/*
 * Work-creating kernels launched from queue blocks (workq_tree enqueues
 * workq_leaf, which submits in turn) join the window: the stream's copy
 * after the launch sees every leaf's block.
 */
START_TEST(kernels_launched_from_the_queue_join_the_window)
{
	enum { T = 10 };
	ppu_devptr items_d, pool_d, out_d, spawned_d, snap_d;
	uint32_t *items, *out, *spawned, *snap, i, want = 0;
	struct workq_spawn_params p;
	struct wq_run r;
	ppu_ctx *ctx;

	wq_open(&r, 5, "workq_spawn", "workq_tree");
	ctx = r.ctx;
	items = host_alloc(ctx, 4 * T, &items_d);
	host_alloc(ctx, T * WORKQ_SPAWN_SLOT, &pool_d);
	out = host_alloc(ctx, 4 * T, &out_d);
	spawned = host_alloc(ctx, 4, &spawned_d);
	snap = host_alloc(ctx, 4 * T, &snap_d);
	for (i = 0; i < T; i++) {
		items[i] = 3 + 11 * i;
		want += !!workq_spawn_threads(items[i]);
	}
	p = (struct workq_spawn_params){ .items = (uint32_t)items_d, .pool = (uint32_t)pool_d,
					 .out = (uint32_t)out_d, .spawned = (uint32_t)spawned_d };
	RT(ppu_launch_kernel_workq(r.fn, dim(2), dim(T / 2), &p, sizeof(p), r.q, r.s));
	RT(ppu_memcpy_async(snap_d, out_d, 4 * T, r.s));
	RT(ppu_stream_synchronize(r.s));
	ck_assert_uint_eq(*spawned, want);
	for (i = 0; i < T; i++) {
		ck_assert_uint_eq(snap[i], items[i] * workq_spawn_threads(items[i]));
		ck_assert_uint_eq(out[i], snap[i]);
	}
	wq_close(&r);
}
END_TEST

/*
 * A block whose semaphore is in no mapping: the queue's channel faults, and
 * the stream (blocked on Y in hardware) reports CHANNEL_FAULT instead of
 * waiting forever; the context can still be destroyed.
 */
START_TEST(a_faulting_block_is_the_streams_fault)
{
	struct wq_run r;
	ppu_status st;

	wq_setup(&r, 6);
	wq_launch(&r, 5, 1, 0x7ff00000u);
	st = ppu_stream_synchronize(r.s);
	ck_assert_msg(st == PPU_ERROR_CHANNEL_FAULT, "%s: %s", ppu_status_name(st), ppu_last_error());
	/* the queue is gone with its channel */
	st = ppu_launch_kernel_workq(r.fn, dim(1), dim(1), &(uint32_t){ 0 }, 4, r.q, r.s);
	ck_assert_int_eq(st, PPU_ERROR_CHANNEL_FAULT);
	ppu_work_queue_destroy(r.q);
	ppu_ctx_destroy(r.ctx);
}
END_TEST

START_TEST(bad_arguments_are_refused)
{
	struct wq_run r;
	ppu_work_queue *q2;
	ppu_stream *s2;
	uint32_t p[8] = { 0 };

	ck_assert_int_eq(ppu_work_queue_create(NULL, 6, &q2), PPU_ERROR_INVALID_VALUE);
	wq_setup(&r, 6);
	ck_assert_int_eq(ppu_work_queue_create(r.ctx, PPU_WORK_QUEUE_LOG2_MIN - 1, &q2),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_work_queue_create(r.ctx, PPU_WORK_QUEUE_LOG2_MAX + 1, &q2),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_launch_kernel_workq(r.fn, dim(1), dim(1), p, sizeof(p), NULL, r.s),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_launch_kernel_workq(r.fn, dim(1), dim(1), p, 2, r.q, r.s),
			 PPU_ERROR_INVALID_VALUE);
	/* one stream per queue */
	wq_launch(&r, 9, 1, r.total_d);
	RT(ppu_stream_create(r.ctx, &s2));
	ck_assert_int_eq(ppu_launch_kernel_workq(r.fn, dim(1), dim(1), p, sizeof(p), r.q, s2),
			 PPU_ERROR_INVALID_VALUE);
	RT(ppu_stream_synchronize(r.s));
	wq_close(&r);
}
END_TEST

static Suite *workq_suite(void)
{
	Suite *s = suite_create("libppu work queue");
	TCase *tc = tcase_create("workq");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, windows_run_every_block_before_the_stream_goes_on);
	tcase_add_test(tc, queue_blocks_copy_through_the_copy_engine);
	tcase_add_test(tc, kernels_launched_from_the_queue_join_the_window);
	tcase_add_test(tc, a_faulting_block_is_the_streams_fault);
	tcase_add_test(tc, bad_arguments_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(workq_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
