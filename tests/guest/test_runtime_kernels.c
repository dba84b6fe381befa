// SPDX-License-Identifier: MIT
/*
 * libppu kernel launches in the co-simulated guest: the sample kernels of
 * runtime/device/samples (built into /lib/ppu/<name>.elf) against CPU
 * references, stream order between kernels and copies in one stream and
 * across streams through events, the launch rings' reuse, the task's
 * priority, the limits a first launch fixes, argument checks and a
 * faulting kernel.
 *
 * On a PPU without a compute engine every test fails at its first launch,
 * saying so: kernels are part of what this PPU must do.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"
#include "ppu_guest.h"
#include "rt_guest.h"
#include "device/samples/samples.h"


/* The device must run kernels; the message says why not. */
static void need_compute(ppu_ctx *ctx, struct ppu_device_info *info)
{
	RT(ppu_ctx_get_info(ctx, info));
	ck_assert_msg((info->features & DRM_PPU_FEATURE_COMPUTE_ENGINE) && info->num_cu &&
		      info->cu_contexts && info->max_cta_threads,
		      "this PPU runs no kernels: features %#llx (COMPUTE_ENGINE is bit 1), "
		      "%u compute units, %u contexts per unit, %u threads per CTA",
		      (unsigned long long)info->features, info->num_cu, info->cu_contexts,
		      info->max_cta_threads);
}

/* Threads per CTA for the tests: 8, or fewer when the device allows fewer. */
static uint32_t cta_threads(const struct ppu_device_info *info)
{
	return info->max_cta_threads < 8 ? info->max_cta_threads : 8;
}

static ppu_dim3 dim(uint32_t x)
{
	return (ppu_dim3){ x, 1, 1 };
}

static void load(ppu_ctx *ctx, const char *name, ppu_module **m, ppu_function **fn)
{
	rt_load_kernel(ctx, name, name, m, fn);
}

/* A host allocation of @n words. */
static uint32_t *host_words(ppu_ctx *ctx, size_t n, ppu_devptr *d)
{
	void *p;

	RT(ppu_mem_alloc_host(ctx, n * 4, &p, d));
	return p;
}

/* Deterministic test data. */
static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 7;
}

START_TEST(saxpy_matches_the_cpu)
{
	enum { N = 200 };
	struct saxpy_params p = { .n = N, .a = -7 };
	struct ppu_device_info info;
	uint32_t *x, *y, y0[N], seed = 1, t, i;
	ppu_devptr xd, yd;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "saxpy", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	x = host_words(ctx, N, &xd);
	y = host_words(ctx, N + 1, &yd);
	for (i = 0; i < N; i++) {
		x[i] = rnd(&seed) - 0x800000u;
		y[i] = y0[i] = rnd(&seed);
	}
	y[N] = 0xdeadbeef;
	p.x = (uint32_t)xd;
	p.y = (uint32_t)yd;
	/* Not a whole number of CTAs: the last threads have nothing to do. */
	RT(ppu_launch_kernel(fn, dim((N + t - 1) / t), dim(t), &p, sizeof(p),
			     ppu_ctx_default_stream(ctx)));
	/* The parameters were copied at the call. */
	p.a = 1000;
	p.n = 0;
	RT(ppu_stream_synchronize(ppu_ctx_default_stream(ctx)));
	for (i = 0; i < N; i++)
		ck_assert_msg(y[i] == (uint32_t)-7 * x[i] + y0[i], "y[%u] = %#x, expected %#x", i,
			      y[i], (uint32_t)-7 * x[i] + y0[i]);
	ck_assert_uint_eq(y[N], 0xdeadbeef);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * CTAs of more threads than a compute unit has contexts (here 100 and the
 * device's maximum) run in waves on a whole unit; SAXPY over them matches
 * the CPU.
 */
START_TEST(ctas_larger_than_a_unit_run_in_waves)
{
	enum { N = 2100 };
	struct saxpy_params p = { .n = N, .a = 5 };
	struct ppu_device_info info;
	uint32_t *x, *y, *y0, seed = 3, i, k;
	uint32_t shapes[2];
	ppu_devptr xd, yd;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "saxpy", &m, &fn);
	need_compute(ctx, &info);
	ck_assert_uint_gt(info.max_cta_threads, info.cu_contexts);
	shapes[0] = 100;
	shapes[1] = info.max_cta_threads;
	x = host_words(ctx, N, &xd);
	y = host_words(ctx, N, &yd);
	y0 = malloc(N * 4);
	ck_assert_ptr_nonnull(y0);
	p.x = (uint32_t)xd;
	p.y = (uint32_t)yd;
	for (k = 0; k < 2; k++) {
		uint32_t t = shapes[k];

		for (i = 0; i < N; i++) {
			x[i] = rnd(&seed);
			y[i] = y0[i] = rnd(&seed);
		}
		RT(ppu_launch_kernel(fn, dim((N + t - 1) / t), dim(t), &p, sizeof(p),
				     ppu_ctx_default_stream(ctx)));
		RT(ppu_stream_synchronize(ppu_ctx_default_stream(ctx)));
		for (i = 0; i < N; i++)
			ck_assert_msg(y[i] == 5u * x[i] + y0[i], "%u-thread CTAs: y[%u] = %#x, expected %#x",
				      t, i, y[i], 5u * x[i] + y0[i]);
	}
	free(y0);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(reduction_with_atomics_matches_the_cpu)
{
	enum { N = 1000, GRID = 3 };
	struct ppu_device_info info;
	uint32_t *in, *out, sum = 0, max = 0, seed = 7, t, i;
	struct reduce_params p = { .n = N };
	ppu_devptr ind, outd;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "reduce_atomic", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	in = host_words(ctx, N, &ind);
	out = host_words(ctx, 3, &outd);
	for (i = 0; i < N; i++) {
		in[i] = rnd(&seed) * 2654435761u;
		sum += in[i];
		if (in[i] > max)
			max = in[i];
	}
	p.in = (uint32_t)ind;
	p.out = (uint32_t)outd;
	RT(ppu_launch_kernel(fn, dim(GRID), dim(t), &p, sizeof(p), ppu_ctx_default_stream(ctx)));
	/* The context's synchronize covers kernels too. */
	RT(ppu_ctx_synchronize(ctx));
	ck_assert_uint_eq(out[0], sum);
	ck_assert_uint_eq(out[1], max);
	ck_assert_uint_eq(out[2], GRID * t);	/* one compare-and-swap per thread */
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(histogram_matches_the_cpu)
{
	enum { N = 600, BINS = 13, GRID = 2 };
	uint32_t *in, *bins, ref[BINS] = { 0 }, seed = 99, t, i;
	struct histogram_params p = { .n = N, .nbins = BINS };
	struct ppu_device_info info;
	ppu_devptr ind, binsd;
	ppu_function *fn;
	ppu_event *ev;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "histogram", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	in = host_words(ctx, N, &ind);
	bins = host_words(ctx, BINS, &binsd);
	for (i = 0; i < N; i++) {
		in[i] = rnd(&seed);
		ref[in[i] % BINS]++;
	}
	p.in = (uint32_t)ind;
	p.bins = (uint32_t)binsd;
	RT(ppu_event_create(ctx, &ev));
	RT(ppu_launch_kernel(fn, dim(GRID), dim(t), &p, sizeof(p), ppu_ctx_default_stream(ctx)));
	/* An event recorded after a kernel completes with it. */
	RT(ppu_event_record(ev, ppu_ctx_default_stream(ctx)));
	RT(ppu_event_synchronize(ev));
	for (i = 0; i < BINS; i++)
		ck_assert_msg(bins[i] == ref[i], "bin %u: %u, expected %u", i, bins[i], ref[i]);
	RT(ppu_event_destroy(ev));
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * Copy, kernel, copy in one stream, held behind a closed word until all
 * three are issued: the kernel reads what the copy wrote to local memory,
 * and the second copy reads what the kernel wrote.
 */
START_TEST(copies_and_kernels_keep_stream_order)
{
	enum { N = 64 };
	struct saxpy_params p = { .n = N, .a = 3 };
	struct ppu_device_info info;
	uint32_t *x, *out, *gate, seed = 5, t, i;
	ppu_devptr xd, outd, gated, xl, yl;
	ppu_stream *s;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "saxpy", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	s = ppu_ctx_default_stream(ctx);
	x = host_words(ctx, N, &xd);
	out = host_words(ctx, N, &outd);
	gate = host_words(ctx, 1, &gated);
	RT(ppu_mem_alloc(ctx, N * 4, &xl));
	RT(ppu_mem_alloc(ctx, N * 4, &yl));	/* zeroed: y = 3 * x */
	for (i = 0; i < N; i++)
		x[i] = rnd(&seed);
	p.x = (uint32_t)xl;
	p.y = (uint32_t)yl;
	RT(ppu_stream_wait_value32(s, gated, 1, PPU_WAIT_VALUE_GEQ));
	RT(ppu_memcpy_async(xl, xd, N * 4, s));
	RT(ppu_launch_kernel(fn, dim(N / t), dim(t), &p, sizeof(p), s));
	RT(ppu_memcpy_async(outd, yl, N * 4, s));
	ck_assert_int_eq(ppu_stream_query(s), PPU_ERROR_NOT_READY);
	__atomic_store_n(gate, 1, __ATOMIC_RELEASE);
	RT(ppu_stream_synchronize(s));
	for (i = 0; i < N; i++)
		ck_assert_msg(out[i] == 3 * x[i], "out[%u] = %#x, expected %#x", i, out[i],
			      3 * x[i]);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * Two streams of different levels (different channels): a kernel waits for
 * a copy of the other stream through an event, and a copy waits for a
 * kernel of the other stream.  The producers are held behind closed words
 * until the consumers are issued.
 */
START_TEST(events_order_kernels_and_copies_across_streams)
{
	enum { N = 64 };
	struct saxpy_params p = { .n = N, .a = 5 };
	struct ppu_device_info info;
	uint32_t *x, *y, *out, *gate, y0[N], seed = 11, t, i;
	ppu_devptr xd, yd, outd, gated, xl, yl;
	ppu_stream *a, *b;
	ppu_event *ev;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "saxpy", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	a = ppu_ctx_default_stream(ctx);
	RT(ppu_stream_create_with_priority(ctx, 1, &b));
	RT(ppu_event_create(ctx, &ev));
	x = host_words(ctx, N, &xd);
	y = host_words(ctx, N, &yd);
	out = host_words(ctx, N, &outd);
	gate = host_words(ctx, 2, &gated);
	RT(ppu_mem_alloc(ctx, N * 4, &xl));
	RT(ppu_mem_alloc(ctx, N * 4, &yl));
	for (i = 0; i < N; i++) {
		x[i] = rnd(&seed);
		y[i] = y0[i] = rnd(&seed);
	}

	/* B copies x to local memory; the kernel on A waits for it. */
	RT(ppu_stream_wait_value32(b, gated, 1, PPU_WAIT_VALUE_GEQ));
	RT(ppu_memcpy_async(xl, xd, N * 4, b));
	RT(ppu_event_record(ev, b));
	RT(ppu_stream_wait_event(a, ev));
	p.x = (uint32_t)xl;
	p.y = (uint32_t)yd;
	RT(ppu_launch_kernel(fn, dim(N / t), dim(t), &p, sizeof(p), a));
	ck_assert_int_eq(ppu_stream_query(a), PPU_ERROR_NOT_READY);
	__atomic_store_n(&gate[0], 1, __ATOMIC_RELEASE);
	RT(ppu_stream_synchronize(a));
	for (i = 0; i < N; i++)
		ck_assert_msg(y[i] == 5 * x[i] + y0[i], "y[%u] = %#x, expected %#x", i, y[i],
			      5 * x[i] + y0[i]);

	/* A's kernel writes local memory; the copy on B waits for it. */
	RT(ppu_stream_wait_value32(a, gated + 4, 1, PPU_WAIT_VALUE_GEQ));
	p.x = (uint32_t)xd;
	p.y = (uint32_t)yl;	/* zeroed: y = 5 * x */
	RT(ppu_launch_kernel(fn, dim(N / t), dim(t), &p, sizeof(p), a));
	RT(ppu_event_record(ev, a));
	RT(ppu_stream_wait_event(b, ev));
	RT(ppu_memcpy_async(outd, yl, N * 4, b));
	ck_assert_int_eq(ppu_stream_query(b), PPU_ERROR_NOT_READY);
	__atomic_store_n(&gate[1], 1, __ATOMIC_RELEASE);
	RT(ppu_stream_synchronize(b));
	for (i = 0; i < N; i++)
		ck_assert_msg(out[i] == 5 * x[i], "out[%u] = %#x, expected %#x", i, out[i],
			      5 * x[i]);
	RT(ppu_event_destroy(ev));
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * Many launches in a row wrap the task-block arena (256 KiB, about 10 KiB
 * a launch here): each launch's block is taken back once it completed.  A
 * block larger than the arena makes it grow.  Each launch adds x = 1 to y.
 */
START_TEST(launch_rings_wrap_and_grow)
{
	enum { LAUNCHES = 40 };
	struct saxpy_params p = { .a = 1 };
	struct ppu_device_info info;
	uint32_t *x, *y, t, i;
	ppu_devptr xd, yd;
	ppu_function *fn;
	ppu_module *m;
	ppu_stream *s;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "saxpy", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	s = ppu_ctx_default_stream(ctx);
	x = host_words(ctx, t, &xd);
	y = host_words(ctx, t, &yd);
	for (i = 0; i < t; i++)
		x[i] = 1;
	p.n = t;
	p.x = (uint32_t)xd;
	p.y = (uint32_t)yd;
	for (i = 0; i < LAUNCHES; i++)
		RT(ppu_launch_kernel(fn, dim(1), dim(t), &p, sizeof(p), s));
	RT(ppu_stream_synchronize(s));
	for (i = 0; i < t; i++)
		ck_assert_uint_eq(y[i], LAUNCHES);
	/* 8 threads with 32 KiB stacks: a block of 0x280 + 8 * (128 + 32 KiB) > 256 KiB. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_STACK_SIZE, 32768));
	RT(ppu_launch_kernel(fn, dim(1), dim(t), &p, sizeof(p), s));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_STACK_SIZE, 1024));
	RT(ppu_launch_kernel(fn, dim(1), dim(t), &p, sizeof(p), s));
	RT(ppu_stream_synchronize(s));
	for (i = 0; i < t; i++)
		ck_assert_uint_eq(y[i], LAUNCHES + 2);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/* One CTA of the ids kernel on @s; returns word 14 (prio << 16 | depth << 8 | max depth). */
static uint32_t task_prio_word(ppu_ctx *ctx, ppu_function *fn, ppu_stream *s, uint32_t t)
{
	struct ids_params p = { .trap_id = 0xffffffffu };
	ppu_devptr outd;
	uint32_t *out, w, i;

	out = host_words(ctx, IDS_OUT_WORDS * t, &outd);
	p.out = (uint32_t)outd;
	RT(ppu_launch_kernel(fn, dim(1), dim(t), &p, sizeof(p), s));
	RT(ppu_stream_synchronize(s));
	w = out[14];
	for (i = 0; i < t; i++) {
		ck_assert_uint_eq(out[IDS_OUT_WORDS * i + 0], i);		/* tid */
		ck_assert_uint_eq(out[IDS_OUT_WORDS * i + 13], 0);		/* params at PARAM */
		ck_assert_uint_eq(out[IDS_OUT_WORDS * i + 14], w);
		ck_assert_uint_eq(out[IDS_OUT_WORDS * i + 19], 0x600d);
	}
	RT(ppu_mem_free(ctx, outd));
	return w;
}

/* Kernels run at their stream's device priority; OFF puts every one at 0. */
START_TEST(kernels_run_at_their_streams_device_priority)
{
	struct ppu_device_info info;
	unsigned int dp;
	ppu_function *fn;
	ppu_stream *hi;
	ppu_module *m;
	ppu_ctx *ctx;
	uint32_t t;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4));
	load(ctx, "ids", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	RT(ppu_stream_create_with_priority(ctx, 3, &hi));
	RT(ppu_stream_get_device_priority(hi, &dp));
	ck_assert_uint_eq(dp, 12);
	/* Parents at the stream's device priority, depth 1 of N = 4. */
	ck_assert_uint_eq(task_prio_word(ctx, fn, hi, t), 12u << 16 | 1u << 8 | 4u);
	ck_assert_uint_eq(task_prio_word(ctx, fn, ppu_ctx_default_stream(ctx), t),
			  0u << 16 | 1u << 8 | 4u);
	RT(ppu_ctx_destroy(ctx));

	/* The prior art: every kernel at 0, whatever its stream. */
	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_KERNEL_PRIORITIES, PPU_KERNEL_PRIORITIES_OFF));
	load(ctx, "ids", &m, &fn);
	RT(ppu_stream_create_with_priority(ctx, 3, &hi));
	ck_assert_uint_eq(task_prio_word(ctx, fn, hi, t), 0u << 16 | 1u << 8 | 2u);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * The nesting depth and the kernel priorities are fixed by the first
 * launch; the stack size may change at any time.  (Loading a module into
 * local memory is a copy, so it is a launch already: limits go first.)
 */
START_TEST(limits_are_fixed_by_the_first_launch)
{
	struct ppu_device_info info;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;
	uint64_t v;
	uint32_t t;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_get_limit(ctx, PPU_LIMIT_STACK_SIZE, &v));
	ck_assert_uint_eq(v, 1024);
	RT(ppu_ctx_get_limit(ctx, PPU_LIMIT_KERNEL_PRIORITIES, &v));
	ck_assert_uint_eq(v, PPU_KERNEL_PRIORITIES_ON);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_STACK_SIZE, PPU_MAX_STACK_SIZE + 1),
			 PPU_ERROR_INVALID_VALUE);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_KERNEL_PRIORITIES, 2),
			 PPU_ERROR_INVALID_VALUE);
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_KERNEL_PRIORITIES, PPU_KERNEL_PRIORITIES_ON));
	load(ctx, "ids", &m, &fn);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	/* White-box: forget the upload copy's launch, so that the kernel is the first. */
	ctx->launched = 0;
	ck_assert_uint_eq(task_prio_word(ctx, fn, ppu_ctx_default_stream(ctx), t),
			  0u << 16 | 1u << 8 | 2u);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4),
			 PPU_ERROR_CONTEXT_ACTIVE);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2),
			 PPU_ERROR_CONTEXT_ACTIVE);
	ck_assert_int_eq(ppu_ctx_set_limit(ctx, PPU_LIMIT_KERNEL_PRIORITIES,
					   PPU_KERNEL_PRIORITIES_OFF), PPU_ERROR_CONTEXT_ACTIVE);
	/* Smaller stacks for the next kernels: they still run. */
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_STACK_SIZE, 256));
	RT(ppu_ctx_get_limit(ctx, PPU_LIMIT_STACK_SIZE, &v));
	ck_assert_uint_eq(v, 256);
	task_prio_word(ctx, fn, ppu_ctx_default_stream(ctx), t);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

START_TEST(bad_launches_are_refused)
{
	struct saxpy_params p = { 0 };
	struct ppu_device_info info;
	ppu_function *fn, *other_fn;
	ppu_module *m, *other_m;
	ppu_ctx *ctx, *other;
	uint8_t big[PPU_MAX_PARAM_BYTES + 1] = { 0 };
	ppu_stream *s;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_create(&other, 0, 0));
	load(ctx, "saxpy", &m, &fn);
	load(other, "saxpy", &other_m, &other_fn);
	need_compute(ctx, &info);
	s = ppu_ctx_default_stream(ctx);

#define BAD(call, text)                                                                  \
	do {                                                                             \
		ck_assert_int_eq((call), PPU_ERROR_INVALID_VALUE);                       \
		ck_assert_msg(strstr(ppu_last_error(), text), "%s: %s", #call,           \
			      ppu_last_error());                                         \
	} while (0)
	BAD(ppu_launch_kernel(fn, dim(0), dim(1), &p, sizeof(p), s), "at least 1");
	BAD(ppu_launch_kernel(fn, dim(1), (ppu_dim3){ 1, 0, 1 }, &p, sizeof(p), s), "at least 1");
	BAD(ppu_launch_kernel(fn, (ppu_dim3){ 1, 65536, 1 }, dim(1), &p, sizeof(p), s),
	    "65535");
	BAD(ppu_launch_kernel(fn, (ppu_dim3){ 65536, 65535, 2 }, dim(1), &p, sizeof(p), s),
	    "2^32");
	BAD(ppu_launch_kernel(fn, dim(1), dim(info.max_cta_threads + 1), &p, sizeof(p), s),
	    "threads");
	BAD(ppu_launch_kernel(fn, dim(1), (ppu_dim3){ info.max_cta_threads, 2, 1 }, &p,
			      sizeof(p), s), "threads");
	BAD(ppu_launch_kernel(NULL, dim(1), dim(1), &p, sizeof(p), s), "NULL function");
	BAD(ppu_launch_kernel(fn, dim(1), dim(1), &p, sizeof(p), NULL), "NULL stream");
	BAD(ppu_launch_kernel(fn, dim(1), dim(1), NULL, 16, s), "NULL parameters");
	BAD(ppu_launch_kernel(fn, dim(1), dim(1), big, sizeof(big), s), "4096");
#undef BAD
	/* A function of another context: the mismatch, naming both contexts. */
	ck_assert_int_eq(ppu_launch_kernel(other_fn, dim(1), dim(1), &p, sizeof(p), s),
			 PPU_ERROR_CONTEXT_MISMATCH);
	ck_assert_msg(strstr(ppu_last_error(), "the function is of context"), "%s",
		      ppu_last_error());
	/* Nothing was submitted, and good launches run (n = 0: no element). */
	RT(ppu_stream_query(s));
	RT(ppu_launch_kernel(fn, dim(1), dim(1), &p, sizeof(p), s));
	RT(ppu_launch_kernel(fn, dim(1), dim(1), &big, PPU_MAX_PARAM_BYTES, s));
	RT(ppu_stream_synchronize(s));
	RT(ppu_ctx_destroy(other));
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * A kernel that traps faults its level's compute channel: the stream
 * reports CHANNEL_FAULT like after a faulting copy, later copies of the
 * level (which would wait for the lost kernel) fail too, and another
 * level goes on with kernels and copies.
 */
START_TEST(faulting_kernel_is_reported_like_a_faulting_copy)
{
	struct ids_params ip = { .trap_id = 0 };
	struct saxpy_params sp = { .n = 8, .a = 2 };
	struct ppu_device_info info;
	ppu_function *ids, *saxpy;
	ppu_module *m1, *m2;
	uint32_t *x, *y, t, i;
	ppu_devptr outd, xd, yd;
	ppu_stream *lo, *hi;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "ids", &m1, &ids);
	load(ctx, "saxpy", &m2, &saxpy);
	need_compute(ctx, &info);
	t = cta_threads(&info);
	lo = ppu_ctx_default_stream(ctx);
	RT(ppu_stream_create_with_priority(ctx, 1, &hi));
	host_words(ctx, IDS_OUT_WORDS * t, &outd);
	x = host_words(ctx, 8, &xd);
	y = host_words(ctx, 8, &yd);
	ip.out = (uint32_t)outd;
	RT(ppu_launch_kernel(ids, dim(1), dim(t), &ip, sizeof(ip), hi));
	ck_assert_int_eq(ppu_stream_synchronize(hi), PPU_ERROR_CHANNEL_FAULT);
	ck_assert_msg(strstr(ppu_last_error(), "faulted: kernel trap"), "%s", ppu_last_error());
	ck_assert_int_eq(ppu_stream_query(hi), PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_launch_kernel(ids, dim(1), dim(t), &ip, sizeof(ip), hi),
			 PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_memcpy_async(yd, xd, 32, hi), PPU_ERROR_CHANNEL_FAULT);

	/* The other level is untouched. */
	for (i = 0; i < 8; i++)
		x[i] = i + 1;
	sp.x = (uint32_t)xd;
	sp.y = (uint32_t)yd;
	RT(ppu_launch_kernel(saxpy, dim((8 + t - 1) / t), dim(t), &sp, sizeof(sp), lo));
	RT(ppu_stream_synchronize(lo));
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(y[i], 2 * (i + 1));
	rt_small_copy(ctx, lo);
	ck_assert_int_eq(ppu_ctx_destroy(ctx), PPU_ERROR_CHANNEL_FAULT);
}
END_TEST

/*
 * A kernel that runs longer than the driver's watchdog allows (set to
 * 500 ms here) is stopped: the stream reports CHANNEL_FAULT saying so, and
 * another context's kernel runs afterwards.
 */
START_TEST(a_kernel_past_the_watchdog_is_stopped)
{
	struct spin_params sp = { .iters = 0x7fffffff, .seed = 1 };
	struct saxpy_params xp = { .n = 4, .a = 3 };
	ppu_function *spin, *saxpy;
	ppu_devptr outd, xd, yd;
	ppu_module *m1, *m2;
	ppu_ctx *ctx, *ctx2;
	uint32_t *x, *y, i;
	ppu_status st;

	ppu_module_param_set("watchdog_ms", 500);
	RT(ppu_ctx_create(&ctx, 0, 0));
	load(ctx, "spin", &m1, &spin);
	host_words(ctx, 4, &outd);
	sp.out = (uint32_t)outd;
	RT(ppu_launch_kernel(spin, dim(1), dim(4), &sp, sizeof(sp), ppu_ctx_default_stream(ctx)));
	st = ppu_stream_synchronize(ppu_ctx_default_stream(ctx));
	ppu_module_param_set("watchdog_ms", 30000);
	ck_assert_int_eq(st, PPU_ERROR_CHANNEL_FAULT);
	ck_assert_msg(strstr(ppu_last_error(), "watchdog"), "%s", ppu_last_error());
	ck_assert_int_eq(ppu_ctx_destroy(ctx), PPU_ERROR_CHANNEL_FAULT);

	RT(ppu_ctx_create(&ctx2, 0, 0));
	load(ctx2, "saxpy", &m2, &saxpy);
	x = host_words(ctx2, 4, &xd);
	y = host_words(ctx2, 4, &yd);
	for (i = 0; i < 4; i++)
		x[i] = i + 1;
	xp.x = (uint32_t)xd;
	xp.y = (uint32_t)yd;
	RT(ppu_launch_kernel(saxpy, dim(1), dim(4), &xp, sizeof(xp), ppu_ctx_default_stream(ctx2)));
	RT(ppu_stream_synchronize(ppu_ctx_default_stream(ctx2)));
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(y[i], 3 * (i + 1));
	RT(ppu_ctx_destroy(ctx2));
}
END_TEST

static Suite *kernels_suite(void)
{
	Suite *s = suite_create("libppu kernels");
	TCase *tc = tcase_create("kernels");

	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, saxpy_matches_the_cpu);
	tcase_add_test(tc, ctas_larger_than_a_unit_run_in_waves);
	tcase_add_test(tc, reduction_with_atomics_matches_the_cpu);
	tcase_add_test(tc, histogram_matches_the_cpu);
	tcase_add_test(tc, copies_and_kernels_keep_stream_order);
	tcase_add_test(tc, events_order_kernels_and_copies_across_streams);
	tcase_add_test(tc, launch_rings_wrap_and_grow);
	tcase_add_test(tc, kernels_run_at_their_streams_device_priority);
	tcase_add_test(tc, limits_are_fixed_by_the_first_launch);
	tcase_add_test(tc, bad_launches_are_refused);
	tcase_add_test(tc, faulting_kernel_is_reported_like_a_faulting_copy);
	tcase_add_test(tc, a_kernel_past_the_watchdog_is_stopped);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kernels_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
