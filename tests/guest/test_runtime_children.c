// SPDX-License-Identifier: MIT
/*
 * Dynamic parallelism through libppu in the co-simulated guest: kernels
 * launched on prioritised streams launch children on the PPU with no host
 * involvement (ppu_launch in the device header); the children run at the
 * parent's device priority + 1 (SEEDS §A with M = 64 and libppu's
 * mapping), a launch past the context's max nesting depth fails with
 * EDEPTH and is counted; SEEDS §D's divergent phase gives the book's
 * value in both styles; adaptive Bezier tessellation and a recursive
 * quicksort with children match the CPU.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "drm/ppu_drm.h"
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

static uint64_t counter(const char *name)
{
	char text[4096];
	size_t n = ppu_debugfs_read("counters", text, sizeof(text) - 1);

	text[n] = 0;
	return ppu_debugfs_value(text, name);
}

static ppu_dim3 dim(uint32_t x)
{
	return (ppu_dim3){ x, 1, 1 };
}

/*
 * SEEDS §A device side with M = 64 and N = 4: libppu maps stream priority
 * 1 to device priority 4 (floor(64 / 4) = 16 stream priorities, N apart);
 * a kernel on that stream launches itself one level deeper until a launch
 * fails: levels at 4, 5, 6, 7 (depths 1..4), and the launch from the task
 * at 7 fails with EDEPTH, counted once.  No host involvement after the
 * first launch.
 */
START_TEST(a_chain_on_a_prioritised_stream_runs_at_parent_plus_one)
{
	enum { LEVELS = 6 };
	struct dp_chain_params p = { .level = 0, .levels = LEVELS };
	uint64_t depth0 = counter("DEV_LAUNCH_DEPTH_ERRORS"), dl0 = counter("DEV_LAUNCHES");
	ppu_devptr pool, outd;
	ppu_function *fn;
	ppu_module *m;
	ppu_stream *s;
	ppu_ctx *ctx;
	unsigned int dp, i;
	uint32_t *out;
	int lo, hi;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4));
	RT(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi));
	ck_assert_int_eq(hi - lo + 1, 16);
	rt_load_kernel(ctx, "dp_chain", "dp_chain", &m, &fn);
	RT(ppu_stream_create_with_priority(ctx, lo + 1, &s));
	RT(ppu_stream_get_device_priority(s, &dp));
	ck_assert_uint_eq(dp, 4);
	host_alloc(ctx, LEVELS * DP_CHAIN_STRIDE, &pool);
	out = host_alloc(ctx, LEVELS * NEST_OUT_WORDS * 4, &outd);
	p.pool = (uint32_t)pool;
	p.out = (uint32_t)outd;
	RT(ppu_launch_kernel(fn, dim(1), dim(1), &p, sizeof(p), s));
	RT(ppu_stream_synchronize(s));
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(out[NEST_OUT_WORDS * i + NEST_PRIO], 4 + i);
		ck_assert_uint_eq(out[NEST_OUT_WORDS * i + NEST_DEPTH], 1 + i);
		ck_assert_uint_eq(out[NEST_OUT_WORDS * i + NEST_STATUS],
				  i < 3 ? PPU_ECALL_STATUS_OK : PPU_ECALL_STATUS_EDEPTH);
	}
	ck_assert_uint_eq(out[NEST_OUT_WORDS * 4 + NEST_PRIO], 0);	/* never ran */
	ck_assert_uint_eq(counter("DEV_LAUNCHES") - dl0, 3);
	ck_assert_uint_eq(counter("DEV_LAUNCH_DEPTH_ERRORS") - depth0, 1);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * SEEDS §D: K = 2 CTAs of 32 * M = 1024 threads, N = 128; foo = K * (N * M
 * + 5 * (M - 1)) = 8502 without and with dynamic parallelism.
 */
START_TEST(divergent_phase_gives_the_books_value_in_both_styles)
{
	enum { K = 2, M = 32, N = 128, SPACING = 32 };
	struct diverge_params p = { .n = N, .m = M, .spacing = SPACING, .dp = (uint32_t)_i };
	ppu_devptr food, xd, pool;
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;
	uint32_t *foo;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2));
	rt_load_kernel(ctx, "diverge", "diverge_cta", &m, &fn);
	foo = host_alloc(ctx, 4, &food);
	host_alloc(ctx, K * 4, &xd);
	host_alloc(ctx, K * DIVERGE_POOL_STRIDE, &pool);
	p.foo = (uint32_t)food;
	p.x = (uint32_t)xd;
	p.pool = (uint32_t)pool;
	RT(ppu_launch_kernel(fn, dim(K), dim(SPACING * M), &p, sizeof(p),
			     ppu_ctx_default_stream(ctx)));
	RT(ppu_stream_synchronize(ppu_ctx_default_stream(ctx)));
	ck_assert_uint_eq(*foo, K * (N * M + 5 * (M - 1)));
	ck_assert_uint_eq(*foo, 8502);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

/*
 * Children sized by data from C (ppu_launch), waited for per CTA, against
 * the CPU: the parent's stream synchronises only after every child.
 */
START_TEST(children_sized_by_data_add_up_like_the_cpu)
{
	enum { N = 16, STRIDE = 16384 };
	struct dp_sum_params p = { .n = N, .stride = STRIDE };
	uint32_t *counts, *res, *status, i, g, want, seed = 7;
	ppu_devptr cd, pool, od, rd, sd;
	ppu_function *fn;
	ppu_module *m;
	ppu_stream *s;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2));
	rt_load_kernel(ctx, "dp_sum", "dp_sum", &m, &fn);
	RT(ppu_stream_create_with_priority(ctx, 3, &s));
	counts = host_alloc(ctx, N * 4, &cd);
	for (i = 0; i < N; i++) {
		seed = seed * 1664525u + 1013904223u;
		counts[i] = 1 + (seed >> 8) % 6;
	}
	host_alloc(ctx, N * STRIDE, &pool);
	host_alloc(ctx, N * 4, &od);
	res = host_alloc(ctx, N * 4, &rd);
	status = host_alloc(ctx, N * 4, &sd);
	p.counts = (uint32_t)cd;
	p.pool = (uint32_t)pool;
	p.out = (uint32_t)od;
	p.res = (uint32_t)rd;
	p.status = (uint32_t)sd;
	RT(ppu_launch_kernel(fn, dim(2), dim(N / 2), &p, sizeof(p), s));
	RT(ppu_stream_synchronize(s));
	for (i = 0; i < N; i++) {
		want = 0;
		for (g = 0; g < counts[i] * DP_SUM_CHILD_T; g++)
			want += i * 1000 + g;
		ck_assert_uint_eq(status[i], PPU_ECALL_STATUS_OK);
		ck_assert_msg(res[i] == want, "parent %u: %#x, want %#x", i, res[i], want);
	}
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

static uint32_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/*
 * Adaptive Bezier tessellation with dynamic parallelism: a parent thread
 * per curve, a child grid per curve sized by its curvature; every point
 * against the CPU (the same fixed-point arithmetic, samples.h).
 */
START_TEST(bezier_tessellation_matches_the_cpu)
{
	enum { N = 24 };
	struct bezier_params p = { .n = N };
	struct bezier_line *lines;
	ppu_devptr ld, pd, pool;
	int32_t *pts, want[2];
	uint64_t seed = 5;
	ppu_function *fn;
	ppu_module *m;
	ppu_stream *s;
	ppu_ctx *ctx;
	uint32_t i, j;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2));
	rt_load_kernel(ctx, "bezier", "bezier", &m, &fn);
	RT(ppu_stream_create_with_priority(ctx, 5, &s));
	lines = host_alloc(ctx, N * sizeof(*lines), &ld);
	pts = host_alloc(ctx, N * BEZIER_MAX_POINTS * 8, &pd);
	host_alloc(ctx, N * BEZIER_STRIDE, &pool);
	for (i = 0; i < N; i++) {
		for (j = 0; j < 3; j++) {
			lines[i].p[j][0] = (int32_t)(lcg(&seed) % (120u << 16)) - (60 << 16);
			lines[i].p[j][1] = (int32_t)(lcg(&seed) % (120u << 16)) - (60 << 16);
		}
		lines[i].points = (uint32_t)pd + i * BEZIER_MAX_POINTS * 8;
	}
	p.lines = (uint32_t)ld;
	p.pool = (uint32_t)pool;
	RT(ppu_launch_kernel(fn, dim(3), dim(N / 3), &p, sizeof(p), s));
	RT(ppu_stream_synchronize(s));
	for (i = 0; i < N; i++) {
		ck_assert_uint_eq(lines[i].status, PPU_ECALL_STATUS_OK);
		ck_assert_uint_eq(lines[i].npoints, bezier_npoints(lines[i].p));
		for (j = 0; j < lines[i].npoints; j++) {
			const int32_t *pt = pts + 2 * (i * BEZIER_MAX_POINTS + j);

			bezier_point(lines[i].p, j, lines[i].npoints, want);
			ck_assert_msg(pt[0] == want[0] && pt[1] == want[1],
				      "curve %u point %u: (%d, %d), want (%d, %d)", i, j, pt[0],
				      pt[1], want[0], want[1]);
		}
	}
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A recursive quicksort that launches a child per partition and falls
 * back to a selection sort at the depth limit, on random data, against
 * qsort.
 */
START_TEST(recursive_quicksort_matches_qsort)
{
	enum { N = 600, SLOTS = 512 };
	struct qsort_params p = { .left = 0, .right = N - 1, .pool_slots = SLOTS };
	uint32_t *data, *ctr, ref[N], i;
	ppu_devptr dd, pool, cd;
	uint64_t seed = 77, dl0 = counter("DEV_LAUNCHES");
	ppu_function *fn;
	ppu_module *m;
	ppu_ctx *ctx;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 8));
	rt_load_kernel(ctx, "qsort_dp", "qsort_dp", &m, &fn);
	data = host_alloc(ctx, N * 4, &dd);
	for (i = 0; i < N; i++)
		data[i] = ref[i] = lcg(&seed);
	host_alloc(ctx, SLOTS * QSORT_SLOT, &pool);
	ctr = host_alloc(ctx, 8, &cd);
	p.data = (uint32_t)dd;
	p.pool = (uint32_t)pool;
	p.next = (uint32_t)cd;
	p.refused = (uint32_t)cd + 4;
	RT(ppu_launch_kernel(fn, dim(1), dim(1), &p, sizeof(p), ppu_ctx_default_stream(ctx)));
	RT(ppu_stream_synchronize(ppu_ctx_default_stream(ctx)));
	qsort(ref, N, 4, cmp_u32);
	for (i = 0; i < N; i++)
		ck_assert_msg(data[i] == ref[i], "[%u] = %u, want %u", i, data[i], ref[i]);
	ck_assert_uint_ge(counter("DEV_LAUNCHES") - dl0, 8);
	ck_assert_uint_le(ctr[0], SLOTS);
	RT(ppu_ctx_destroy(ctx));
}
END_TEST

static Suite *children_suite(void)
{
	Suite *s = suite_create("runtime_children");
	TCase *tc = tcase_create("device_launch");

	tcase_set_timeout(tc, 300);
	/* (the render node for the driver's debugfs counters) */
	tcase_add_checked_fixture(tc, ppu_guest_setup, ppu_guest_teardown);
	tcase_add_test(tc, a_chain_on_a_prioritised_stream_runs_at_parent_plus_one);
	tcase_add_loop_test(tc, divergent_phase_gives_the_books_value_in_both_styles, 0, 2);
	tcase_add_test(tc, children_sized_by_data_add_up_like_the_cpu);
	tcase_add_test(tc, bezier_tessellation_matches_the_cpu);
	tcase_add_test(tc, recursive_quicksort_matches_qsort);
	suite_add_tcase(s, tc);
	return s;
}

/* (outside a test: no ck_assert) */
static void set_watchdog_ms(const char *ms)
{
	FILE *f = fopen("/sys/module/ppu/parameters/watchdog_ms", "w");

	if (!f || fputs(ms, f) < 0 || fclose(f) != 0) {
		perror("watchdog_ms");
		exit(EXIT_FAILURE);
	}
}

int main(void)
{
	SRunner *sr = srunner_create(children_suite());
	int failed;

	/*
	 * The driver's watchdog stops a channel whose state and task count do
	 * not change for watchdog_ms; divergent_phase's parents wait that
	 * way for over a million cycles, 30 s of a co-simulated PPU running
	 * all its units at 35-40 k cycles/s on a loaded two-core host.
	 */
	set_watchdog_ms("120000");
	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	set_watchdog_ms("30000");
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
