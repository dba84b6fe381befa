// SPDX-License-Identifier: MIT
/*
 * Training run of the profile-guided model build (hw/sim/sim.mk,
 * PPUSIM_PGO): drives the instrumented model through the work the
 * simulations spend their time on, so that the compiler lays out the
 * generated code for it.  The verilated model executes hundreds of
 * kilobytes of straight-line code per cycle and is bound by instruction
 * fetch; the profile puts each cycle's hot path together and the rest
 * aside (docs/benchmarks.md "Simulator speed").
 *
 * The workload: copies local -> local, system -> local and local ->
 * system with a completion semaphore, then kernels on every compute unit
 * (register-only spin, and SAXPY with loads and stores).  Results are
 * checked: a model that cannot run them fails the build here instead of
 * later in the tests.  Run from the top of the tree (device kernels are
 * read from build/device).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu_sim.h"
#include "rtl_env.h"
#include "rtl_compute.h"
#include "ppu/ppu_encode.h"
#include "samples.h"

static void die(const char *what)
{
	fprintf(stderr, "ppusim_train: %s\n", what);
	exit(1);
}

static void copy(struct rtl_env *env, struct rtl_ctx *ctx, struct rtl_chan *ch, int src_sys,
		 int dst_sys, uint32_t size)
{
	struct rtl_buf src = rtl_buf_alloc(ctx, src_sys, size);
	struct rtl_buf dst = rtl_buf_alloc(ctx, dst_sys, size);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 16);
	uint8_t *a = malloc(size), *b = malloc(size);
	uint32_t buf[64];
	struct ppu_pb pb;
	uint32_t i;

	if (!a || !b)
		die("out of memory");
	for (i = 0; i < size; i++)
		a[i] = (uint8_t)(i * 131u + size);
	rtl_buf_write(env, &src, 0, a, size);
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_copy(&pb, src.va, dst.va, size, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP, sem.va, 1, 0);
	rtl_chan_submit(ch, &pb);
	if (rtl_chan_wait(ch, 200ull * size + 100000))
		die("copy timed out");
	rtl_buf_read(env, &dst, 0, b, size);
	if (memcmp(a, b, size) || rtl_buf_rd32(env, &sem, 0) != 1)
		die("copy: wrong result");
	free(a);
	free(b);
}

static void spin(struct rtl_env *env, struct rtl_ctx *ctx, struct rtl_chan *ch)
{
	uint32_t ncu = rtl_reg_read(env, PPU_REG_CAP_NUM_CU);
	uint32_t nctx = rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS);
	struct rtl_buf out = rtl_buf_alloc(ctx, 0, 4 * ncu * nctx);
	struct spin_params p = { .iters = 200, .seed = 3, .out = out.va };
	struct rtl_klaunch l;
	struct rtl_kimage k;
	uint32_t i;

	rtl_kimage_load(ctx, "spin", &k);
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "spin"), ncu, nctx, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	if (rtl_chan_wait(ch, 5000000))
		die("spin timed out");
	for (i = 0; i < ncu * nctx; i++)
		if (rtl_buf_rd32(env, &out, 4 * i) != spin_run(p.seed ^ i, p.iters))
			die("spin: wrong result");
	rtl_kimage_free(&k);
}

static void saxpy(struct rtl_env *env, struct rtl_ctx *ctx, struct rtl_chan *ch)
{
	enum { N = 1000 };
	static int32_t x[N], y[N], out[N];
	struct rtl_buf bx = rtl_buf_alloc(ctx, 0, sizeof(x));
	struct rtl_buf by = rtl_buf_alloc(ctx, 1, sizeof(y));
	struct saxpy_params p = { .n = N, .a = 5, .x = bx.va, .y = by.va };
	struct rtl_klaunch l;
	struct rtl_kimage k;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = i * 3 - 700;
		y[i] = 20000 - i * i;
	}
	rtl_buf_write(env, &bx, 0, x, sizeof(x));
	rtl_buf_write(env, &by, 0, y, sizeof(y));
	rtl_kimage_load(ctx, "saxpy", &k);
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "saxpy"), (N + 31) / 32, 32, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	if (rtl_chan_wait(ch, 5000000))
		die("saxpy timed out");
	rtl_buf_read(env, &by, 0, out, sizeof(out));
	for (i = 0; i < N; i++)
		if (out[i] != 5 * x[i] + y[i])
			die("saxpy: wrong result");
	rtl_kimage_free(&k);
}

int main(void)
{
	struct ppu_sim_config c;
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *dma, *comp;

	ppu_sim_config_default(&c);
	env = rtl_env_create(&c);
	ctx = rtl_ctx_create(env);
	dma = rtl_chan_create(env, ctx, 0, 4, 0);
	copy(env, ctx, dma, 0, 0, 256 << 10);
	copy(env, ctx, dma, 1, 0, 128 << 10);
	copy(env, ctx, dma, 0, 1, 64 << 10);
	comp = rtl_cchan_create(env, ctx, 1, 0, 63, 1);
	spin(env, ctx, comp);
	saxpy(env, ctx, comp);
	printf("ppusim_train: %llu cycles\n", (unsigned long long)ppu_sim_cycles(env->sim));
	rtl_env_destroy(env);
	return 0;
}
