// SPDX-License-Identifier: MIT
/*
 * Device-side work creation in the whole PPU (SEEDS §C, docs/compute-design.md
 * §6.4): threads of a kernel submit command blocks with ppu_workq_submit()
 * to a PPU-owned queue, a channel with an always-full ring (AUTO_PUT)
 * whose entries are guarded by per-entry semaphores.  The queue starts
 * parked on X and on its park entry's semaphore (ppu_workq_park()); X is
 * released as soon as the kernel runs, before anything is submitted, so
 * the queue consumes while the threads submit and the ring wraps many
 * times with submitters waiting for room.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_workq.h"
#include "rtl_check.h"
#include "rtl_env.h"
#include "rtl_suites.h"
#include "rtl_compute.h"
#include "../../runtime/device/samples/samples.h"

/* Queue memory (rtl_workq_new()): descriptor, X, Y. */
enum { Q_DESC = RTL_WORKQ_DESC, Q_X = RTL_WORKQ_X };

struct wq_case {
	uint32_t log2_entries, ctas, cta, subs;
};

static const struct wq_case wq_cases[] = {
	{ 4, 2, 8, 8 },		/* 16 entries, 16 threads */
	{ 3, 4, 8, 12 },	/* 8 entries (6 blocks a submission at most), 32 threads */
};

/*
 * The smallest case: one thread submits one block (a timestamped release)
 * to a running queue; the block runs once, the queue then waits at the
 * submission's trailing block with shadow advanced by 2, and soft is 3.
 */
START_TEST(one_thread_submits_one_block)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf qb, sems, t0, blks;
	struct workq_bench_params p;
	uint32_t sem[4], n;
	struct rtl_klaunch l;
	struct ppu_workq q;
	struct rtl_kimage k;
	struct rtl_chan *qc, *kc;

	rtl_kimage_load(ctx, "workq_bench", &k);
	qc = rtl_cchan_create(env, ctx, 5, 0, 32, 1);
	n = 1u << qc->log2_entries;
	qb = rtl_workq_new(env, ctx, qc, &q);
	sems = rtl_buf_alloc(ctx, 0, 16);
	t0 = rtl_buf_alloc(ctx, 0, 4);
	blks = rtl_buf_alloc(ctx, 0, 64);
	rtl_buf_wr32(env, &qb, Q_X, 1);
	p = (struct workq_bench_params){ .queue = qb.va + Q_DESC, .reps = 1, .sems = sems.va,
					 .t0 = t0.va, .blks = blks.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "workq_stamp"), 1, 1, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 0x55);
	kc = rtl_cchan_create(env, ctx, 2, 0, 32, 1);
	rtl_klaunch_submit(kc, &l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(kc, 2000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 0x55);
	rtl_buf_read(env, &sems, 0, sem, sizeof(sem));
	ck_assert_uint_eq(sem[0], 1);
	ck_assert_uint_ne(sem[2] | sem[3], 0);
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_SOFT), 3);
	ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_SHADOW), n - 1 + 2);
	ck_assert_uint_eq(rtl_chan_reg(qc, PPU_CHAN_GP_GET), 2);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, qc->chid), 3);
	ck_assert_uint_eq(rtl_chan_reg(qc, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(kc);
	rtl_chan_destroy(qc);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Every block runs exactly once and each thread's blocks in its order
 * (block j of a thread waits for its ticket == j: a duplicate or a
 * reordering hangs the queue), nothing is lost (the total), every submit
 * returns OK, soft and shadow end where the protocol says, and the queue
 * channel never faults.
 */
START_TEST(threads_submit_blocks_that_run_once_in_order)
{
	const struct wq_case *c = &wq_cases[_i];
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t n = 1u << c->log2_entries, threads = c->ctas * c->cta;
	uint32_t i, s, want = 0, entries = 1;
	struct rtl_buf qb, tickets, total, status, arena;
	struct workq_fill_params p;
	struct ppu_workq q;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *qc, *kc;
	uint64_t t;

	rtl_kimage_load(ctx, "workq_fill", &k);
	qc = rtl_chan_create(env, ctx, 5, c->log2_entries, 0);
	qb = rtl_workq_new(env, ctx, qc, &q);

	tickets = rtl_buf_alloc(ctx, 0, 4 * threads);
	total = rtl_buf_alloc(ctx, 0, 4);
	status = rtl_buf_alloc(ctx, 0, 4 * threads);
	arena = rtl_buf_alloc(ctx, 0, threads * WORKQ_FILL_ARENA);
	ck_assert_uint_le(c->subs, 21);
	p = (struct workq_fill_params){ .queue = qb.va + Q_DESC, .subs = c->subs, .seed = 0x5eed + _i,
					.arena = arena.va, .tickets = tickets.va, .total = total.va,
					.status = status.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "workq_fill"), c->ctas, c->cta, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 0x77);
	kc = rtl_cchan_create(env, ctx, 2, 0, 32, 1);
	rtl_klaunch_submit(kc, &l, 0, 0);
	ppu_sim_clock(env->sim, 500);
	ck_assert_uint_eq(rtl_buf_rd32(env, &total, 0), 0);
	rtl_buf_wr32(env, &qb, Q_X, 1);

	ck_assert_int_eq(rtl_chan_wait(kc, 20000000), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 0x77);
	for (i = 0; i < threads; i++) {
		uint32_t mine = 0;

		for (s = 0; s < c->subs; s++)
			mine += workq_fill_blocks(p.seed, i, s);
		want += mine;
		entries += mine + c->subs;
		ck_assert_uint_eq(rtl_buf_rd32(env, &status, 4 * i), PPU_ECALL_STATUS_OK);
		/* this thread's last block may still be queued */
		for (t = 0; t < 2000000 && rtl_buf_rd32(env, &tickets, 4 * i) != mine; t += 100)
			ppu_sim_clock(env->sim, 100);
		ck_assert_msg(rtl_buf_rd32(env, &tickets, 4 * i) == mine, "thread %u: ticket %u of %u", i,
			      rtl_buf_rd32(env, &tickets, 4 * i), mine);
	}
	ck_assert_uint_eq(rtl_buf_rd32(env, &total, 0), want);
	ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_SOFT), entries);
	/* the queue waits at the last trailing block, which has added its share */
	ppu_sim_clock(env->sim, 2000);
	ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_SHADOW), entries - 1 + n - 1);
	ck_assert_uint_eq(rtl_chan_reg(qc, PPU_CHAN_GP_GET), (entries - 1) & (n - 1));
	ck_assert_uint_eq(rtl_chan_reg(qc, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_gt(entries, 8 * n);
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	printf("workq: %u threads, %u blocks in %u entries of a %u-entry ring (%u wraps), "
	       "%zu acquires the queue waited on, done at cycle %llu\n", threads, want, entries, n,
	       entries / n, rtl_log_count(env, PPU_TRACE_SEM_ACQ_FAIL, qc->chid),
	       (unsigned long long)ppu_sim_cycles(env->sim));
	rtl_chan_destroy(kc);
	rtl_chan_destroy(qc);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * SEEDS §C end to end, twice on the same queue: the CPU-owned channel runs
 * the launch's part (the thread count, KERNEL LAUNCH, WAIT FOR IDLE,
 * SEM_RELEASE X, SEM_ACQUIRE Y) and then releases a marker; the queue is
 * parked on X and its park entry's semaphore; the kernel's threads submit
 * (the queue stays parked while they do: everything fits in the ring) and
 * the last one to finish closes the window, whose block waits for idle,
 * releases Y and parks the queue on X = 2.  The marker comes only after
 * every block of the launch has run; the second launch reuses the queue.
 */
START_TEST(seeds_c_launch_windows_run_device_work_before_the_stream_goes_on)
{
	enum { CTAS = 2, CTA = 6, SUBS = 1, MARK = 0x80 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t n, threads = CTAS * CTA, g, i, s, buf[64];
	struct rtl_buf qb, tickets, total, status, arena;
	struct workq_fill_params p;
	struct rtl_klaunch l[2];
	struct ppu_workq q;
	struct rtl_kimage k;
	struct rtl_chan *qc, *cc;
	struct ppu_pb pb;
	uint32_t entries = 1;

	rtl_kimage_load(ctx, "workq_fill", &k);
	qc = rtl_cchan_create(env, ctx, 5, 0, 32, 1);
	n = 1u << qc->log2_entries;
	qb = rtl_workq_new(env, ctx, qc, &q);

	tickets = rtl_buf_alloc(ctx, 0, 4 * threads);
	total = rtl_buf_alloc(ctx, 0, 4);
	status = rtl_buf_alloc(ctx, 0, 4 * threads);
	arena = rtl_buf_alloc(ctx, 0, threads * WORKQ_FILL_ARENA);
	cc = rtl_cchan_create(env, ctx, 2, 0, 32, 1);
	for (g = 1; g <= 2; g++) {
		uint32_t want = 0;

		p = (struct workq_fill_params){ .queue = qb.va + Q_DESC, .subs = SUBS, .seed = 77 * g,
						.arena = arena.va, .tickets = tickets.va,
						.total = total.va, .status = status.va };
		for (i = 0; i < threads; i++) {
			rtl_buf_wr32(env, &tickets, 4 * i, 0);
			for (s = 0; s < SUBS; s++) {
				want += workq_fill_blocks(p.seed, i, s);
				entries += workq_fill_blocks(p.seed, i, s) + 1;
			}
		}
		entries++;	/* the closing block */
		ck_assert_uint_le(want + threads * SUBS + 1, n - 2);
		rtl_buf_wr32(env, &total, 0, 0);
		rtl_klaunch_init(&l[g - 1], rtl_kimage_fn(&k, "workq_gen"), CTAS, CTA, &p, sizeof(p));
		rtl_klaunch_prepare(ctx, &l[g - 1], 0x70 + g);
		ppu_pb_init(&pb, buf, 64);
		ppu_workq_launch_cmds(&pb, &q, qb.va + Q_DESC, l[g - 1].tmd.va, threads, g);
		ppu_pb_sem_release(&pb, qb.va + MARK, g);
		rtl_chan_submit(cc, &pb);
		ck_assert_int_eq(rtl_chan_wait(cc, 10000000), 0);
		/* the stream went on only after the window's work had all run */
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, MARK), g);
		ck_assert_uint_eq(rtl_buf_rd32(env, &l[g - 1].sem, 0), 0x70 + g);
		ck_assert_uint_eq(rtl_buf_rd32(env, &total, 0), want);
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_X + 8), g);
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_X), g);
		for (i = 0; i < threads; i++)
			ck_assert_uint_eq(rtl_buf_rd32(env, &status, 4 * i), PPU_ECALL_STATUS_OK);
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_GEN), g + 1);
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_LIVE), 0);
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_SOFT), entries);
		/* parked at the closing block, on X = g + 1 */
		ppu_sim_clock(env->sim, 2000);
		ck_assert_uint_eq(rtl_chan_reg(qc, PPU_CHAN_GP_GET), (entries - 1) & (n - 1));
		ck_assert_uint_eq(rtl_buf_rd32(env, &qb, Q_DESC + PPU_WORKQ_SHADOW), entries - 1 + n - 1);
		ck_assert_uint_eq(rtl_chan_reg(qc, PPU_CHAN_FAULT_INFO), 0);
	}
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(cc);
	rtl_chan_destroy(qc);
	rtl_kimage_free(&k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* A queue on a compute channel, a kernel image, and the CPU-owned channel of its windows. */
struct wq_fx {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_kimage k;
	struct rtl_chan *qc, *cc;
	struct rtl_buf qb;
	struct ppu_workq q;
};

static void wq_begin(struct wq_fx *f, const char *file)
{
	f->env = rtl_env_create(NULL);
	f->ctx = rtl_ctx_create(f->env);
	rtl_kimage_load(f->ctx, file, &f->k);
	f->qc = rtl_cchan_create(f->env, f->ctx, 5, 0, 32, 1);
	f->qb = rtl_workq_new(f->env, f->ctx, f->qc, &f->q);
	f->cc = rtl_cchan_create(f->env, f->ctx, 2, 0, 32, 1);
}

/*
 * Window @gen of the launch @l (@threads threads) on the CPU-owned
 * channel, then @after's methods; returns once the stream has run them.
 */
static void wq_window(struct wq_fx *f, const struct rtl_klaunch *l, uint32_t threads,
		      uint32_t gen, const struct ppu_pb *after)
{
	uint32_t buf[96], i;
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 96);
	ppu_workq_launch_cmds(&pb, &f->q, f->qb.va + Q_DESC, l->tmd.va, threads, gen);
	for (i = 0; after && i < after->len; i++)
		ppu_pb_push(&pb, after->dw[i]);
	ck_assert(!pb.overflow);
	rtl_chan_submit(f->cc, &pb);
	ck_assert_int_eq(rtl_chan_wait(f->cc, 20000000), 0);
}

static void wq_end(struct wq_fx *f)
{
	ck_assert_uint_eq(rtl_chan_reg(f->qc, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_protocol_errors(f->env), 0);
	rtl_chan_destroy(f->cc);
	rtl_chan_destroy(f->qc);
	rtl_kimage_free(&f->k);
	rtl_ctx_destroy(f->ctx);
	rtl_env_destroy(f->env);
}

/*
 * Queue blocks that copy: in one launch window every thread submits two
 * blocks at once, src → stage and stage → dst on the copy engine (the
 * queue is a compute channel, its blocks use subchannel COPY); each pair
 * runs in order, every byte arrives, each thread's semaphore is released
 * once, and the stream goes on only after the last copy.
 */
START_TEST(queue_blocks_copy_through_the_copy_engine)
{
	enum { CTAS = 2, CTA = 9, THREADS = CTAS * CTA, MARK = 0x80 };
	struct rtl_buf src, stage, dst, blocks, done, total, status;
	uint8_t *data = malloc(THREADS * WORKQ_COPY_SPAN), *got = malloc(WORKQ_COPY_SPAN);
	struct workq_copy_params p;
	struct rtl_klaunch l;
	uint32_t i, mark[8];
	struct ppu_pb after;
	struct wq_fx f;

	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(got);
	wq_begin(&f, "workq_copy");
	src = rtl_buf_alloc(f.ctx, 1, THREADS * WORKQ_COPY_SPAN);
	stage = rtl_buf_alloc(f.ctx, 0, THREADS * WORKQ_COPY_SPAN);
	dst = rtl_buf_alloc(f.ctx, 1, THREADS * WORKQ_COPY_SPAN);
	blocks = rtl_buf_alloc(f.ctx, 0, THREADS * WORKQ_COPY_SLOT);
	done = rtl_buf_alloc(f.ctx, 0, 4 * THREADS);
	total = rtl_buf_alloc(f.ctx, 0, 4);
	status = rtl_buf_alloc(f.ctx, 0, 4 * THREADS);
	for (i = 0; i < THREADS * WORKQ_COPY_SPAN; i++)
		data[i] = (uint8_t)(i * 131u + (i >> 9));
	rtl_buf_write(f.env, &src, 0, data, THREADS * WORKQ_COPY_SPAN);

	p = (struct workq_copy_params){ .queue = f.qb.va + Q_DESC, .src = src.va,
					.stage = stage.va, .dst = dst.va, .blocks = blocks.va,
					.done = done.va, .total = total.va, .status = status.va };
	/* (a window's work fits in the ring: 3 entries a thread, the park and the close) */
	ck_assert_uint_le(THREADS * 3 + 2, (1u << f.qc->log2_entries) - 2);
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "workq_copy"), CTAS, CTA, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 0x61);
	ppu_pb_init(&after, mark, 8);
	ppu_pb_sem_release(&after, f.qb.va + MARK, 1);
	wq_window(&f, &l, THREADS, 1, &after);

	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.qb, MARK), 1);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &total, 0), THREADS);
	for (i = 0; i < THREADS; i++) {
		uint32_t off = workq_copy_off(i) - i * WORKQ_COPY_SPAN, len = workq_copy_len(i);

		ck_assert_uint_eq(rtl_buf_rd32(f.env, &status, 4 * i), PPU_ECALL_STATUS_OK);
		ck_assert_uint_eq(rtl_buf_rd32(f.env, &done, 4 * i), i + 1);
		rtl_buf_read(f.env, &dst, i * WORKQ_COPY_SPAN, got, WORKQ_COPY_SPAN);
		ck_assert_msg(memcmp(got + off, data + workq_copy_off(i), len) == 0,
			      "thread %u: %u bytes at %u", i, len, off);
		/* nothing around them */
		ck_assert_uint_eq(got[off + len], 0);
		if (off)
			ck_assert_uint_eq(got[off - 1], 0);
	}
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.qb, Q_DESC + PPU_WORKQ_SOFT), 1 + THREADS * 3 + 1);
	ck_assert_uint_eq(rtl_log_count(f.env, PPU_TRACE_COPY_END, f.qc->chid), 2 * THREADS);
	free(data);
	free(got);
	wq_end(&f);
}
END_TEST

/*
 * Kernels launched from queue blocks that submit in turn: each thread of
 * workq_tree enqueues workq_leaf (a work-creating kernel) and joins its
 * threads to the window (ppu_workq_join()), so the leaves' blocks run
 * before the window closes: the stream's marker finds out[] final.
 */
START_TEST(kernels_launched_from_the_queue_join_the_window)
{
	enum { CTAS = 2, CTA = 6, THREADS = CTAS * CTA };
	struct rtl_buf items, pool, out, spawned, snap, mark;
	uint32_t i, v[THREADS], buf[16], want = 0;
	struct workq_spawn_params p;
	struct rtl_klaunch l;
	struct ppu_pb after;
	struct wq_fx f;

	wq_begin(&f, "workq_spawn");
	items = rtl_buf_alloc(f.ctx, 0, 4 * THREADS);
	pool = rtl_buf_alloc(f.ctx, 0, THREADS * WORKQ_SPAWN_SLOT);
	out = rtl_buf_alloc(f.ctx, 0, 4 * THREADS);
	spawned = rtl_buf_alloc(f.ctx, 0, 4);
	snap = rtl_buf_alloc(f.ctx, 0, 4 * THREADS);
	mark = rtl_buf_alloc(f.ctx, 0, 4);
	for (i = 0; i < THREADS; i++) {
		v[i] = 5 + 7 * i;
		rtl_buf_wr32(f.env, &items, 4 * i, v[i]);
		want += !!workq_spawn_threads(v[i]);
	}
	p = (struct workq_spawn_params){ .queue = f.qb.va + Q_DESC, .items = items.va,
					 .pool = pool.va, .out = out.va, .spawned = spawned.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&f.k, "workq_tree"), CTAS, CTA, &p, sizeof(p));
	rtl_klaunch_prepare(f.ctx, &l, 0x62);
	/* what the stream sees right after the window */
	ppu_pb_init(&after, buf, 16);
	ppu_pb_copy_sub(&after, PPU_MTHD_SUBCH_COPY, out.va, snap.va, 4 * THREADS,
			PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, mark.va, 1, 0);
	wq_window(&f, &l, THREADS, 1, &after);

	ck_assert_uint_eq(rtl_buf_rd32(f.env, &mark, 0), 1);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &spawned, 0), want);
	for (i = 0; i < THREADS; i++)
		ck_assert_msg(rtl_buf_rd32(f.env, &snap, 4 * i) == v[i] * workq_spawn_threads(v[i]),
			      "item %u: %u, want %u", i, rtl_buf_rd32(f.env, &snap, 4 * i),
			      v[i] * workq_spawn_threads(v[i]));
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.qb, Q_DESC + PPU_WORKQ_LIVE), 0);
	ck_assert_uint_eq(rtl_buf_rd32(f.env, &f.qb, Q_DESC + PPU_WORKQ_GEN), 2);
	wq_end(&f);
}
END_TEST

Suite *suite_workq(void)
{
	Suite *s = suite_create("workq");
	TCase *tc = tcase_create("workq");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, one_thread_submits_one_block);
	tcase_add_loop_test(tc, threads_submit_blocks_that_run_once_in_order, 0,
			    sizeof(wq_cases) / sizeof(wq_cases[0]));
	tcase_add_test(tc, seeds_c_launch_windows_run_device_work_before_the_stream_goes_on);
	tcase_add_test(tc, queue_blocks_copy_through_the_copy_engine);
	tcase_add_test(tc, kernels_launched_from_the_queue_join_the_window);
	suite_add_tcase(s, tc);
	return s;
}
