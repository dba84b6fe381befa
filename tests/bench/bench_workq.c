// SPDX-License-Identifier: MIT
/*
 * Work-queue benchmarks (docs/benchmarks.md "Device-side work creation"):
 * a thread's submission to the PPU-owned queue -> the block's first method
 * on an idle, running queue, and how many one-block submissions per 1000
 * cycles 32 threads get through a 64-entry ring, in device cycles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ppu/ppu_workq.h"
#include "rtl_compute.h"
#include "rtl_env.h"
#include "../../runtime/device/samples/samples.h"

enum { STAMP_REPS = 16, FLOOD_CTAS = 4, FLOOD_CTA = 8, FLOOD_REPS = 16 };

static void die(const char *what)
{
	fprintf(stderr, "bench: %s\n", what);
	exit(1);
}

void bench_workq(void)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *qc = rtl_cchan_create(env, ctx, 5, 0, 32, 1);
	struct rtl_chan *kc = rtl_cchan_create(env, ctx, 2, 0, 32, 1);
	uint32_t total = FLOOD_CTAS * FLOOD_CTA * FLOOD_REPS, buf[16], r;
	struct rtl_buf qb, sems, t0, blks, cnt;
	struct workq_bench_params p;
	struct rtl_klaunch ls, lf;
	struct ppu_workq q;
	struct rtl_kimage k;
	struct ppu_pb pb;
	uint64_t sum = 0, start, end;

	bench_measuring("device-side work creation against the host round trip (SEEDS C)");
	rtl_kimage_load(ctx, "workq_bench", &k);
	qb = rtl_workq_new(env, ctx, qc, &q);
	rtl_buf_wr32(env, &qb, RTL_WORKQ_X, 1);		/* the queue runs */

	/* latency: one submission at a time into an idle queue */
	sems = rtl_buf_alloc(ctx, 0, 16 * STAMP_REPS);
	t0 = rtl_buf_alloc(ctx, 0, 4 * STAMP_REPS);
	blks = rtl_buf_alloc(ctx, 0, 64 * STAMP_REPS);
	p = (struct workq_bench_params){ .queue = qb.va + RTL_WORKQ_DESC, .reps = STAMP_REPS,
					 .sems = sems.va, .t0 = t0.va, .blks = blks.va };
	rtl_klaunch_init(&ls, rtl_kimage_fn(&k, "workq_stamp"), 1, 1, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &ls, 1);
	rtl_klaunch_submit(kc, &ls, 0, 0);
	if (rtl_chan_wait(kc, 4000000) || rtl_chan_reg(qc, PPU_CHAN_FAULT_INFO))
		die("workq_stamp did not finish");
	/* the first submission warms the caches and TLBs */
	for (r = 1; r < STAMP_REPS; r++)
		sum += (uint32_t)(rtl_buf_rd32(env, &sems, 16 * r + 8) - rtl_buf_rd32(env, &t0, 4 * r));
	bench_emit("workq_submit_to_block_start", (double)sum / (STAMP_REPS - 1), "cycles");

	/* throughput: 32 threads, 16 one-block submissions each, the ring full most of the time */
	cnt = rtl_buf_alloc(ctx, 0, 64);
	ppu_pb_init(&pb, buf, 16);
	ppu_pb_sem_inc(&pb, cnt.va);
	rtl_buf_write(env, &cnt, 16, buf, 4 * pb.len);
	p = (struct workq_bench_params){ .queue = qb.va + RTL_WORKQ_DESC, .reps = FLOOD_REPS,
					 .blks = cnt.va + 16, .blk_dw = pb.len };
	rtl_klaunch_init(&lf, rtl_kimage_fn(&k, "workq_flood"), FLOOD_CTAS, FLOOD_CTA, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &lf, 1);
	start = ppu_sim_cycles(env->sim);
	rtl_klaunch_submit(kc, &lf, 0, 0);
	while (rtl_buf_rd32(env, &cnt, 0) != total) {
		if (ppu_sim_cycles(env->sim) - start > 20000000 || rtl_chan_reg(qc, PPU_CHAN_FAULT_INFO))
			die("workq_flood did not finish");
		ppu_sim_clock(env->sim, 20);
	}
	end = ppu_sim_cycles(env->sim);
	bench_emit("workq_submissions_per_1000_cycles", 1000.0 * total / (double)(end - start),
		   "blocks");
	bench_emit("workq_flood_cycles", (double)(end - start), "cycles");
	if (rtl_chan_wait(kc, 4000000))
		die("workq_flood did not complete");
	rtl_kimage_free(&k);
	rtl_chan_destroy(kc);
	rtl_chan_destroy(qc);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
