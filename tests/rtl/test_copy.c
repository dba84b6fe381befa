// SPDX-License-Identifier: MIT
/*
 * Copy engine: every copy is checked byte for byte against a model of the
 * whole destination buffer (random data, random guard bytes around the
 * destination), over sizes, source/destination byte alignments, aperture
 * pairs and page layouts; plus completion semaphores and the COPIES /
 * COPY_BYTES performance counters.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define PAGE 4096u
#define WAIT_CYCLES 2000000
/* guard bytes kept before and after every large destination */
#define GUARD 64u
/* the byte of each random draw this suite's data has always used */
#define RND_SHIFT 11

/* Aperture pairs, indexed by the loop tests: local->local, local->sys, ... */
static const int ap_src[4] = { 0, 0, 1, 1 };
static const int ap_dst[4] = { 0, 1, 0, 1 };
static const char *const ap_name[4] = {
	"local->local", "local->sys", "sys->local", "sys->sys",
};

/* Index of the first differing byte, or -1. */
static long first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

static void push_copy(struct ppu_pb *pb, uint32_t src, uint32_t dst, uint32_t len)
{
	ppu_pb_copy(pb, src, dst, len, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
}

/* ------------------------------------------------------------------------ */

static const uint32_t small_sizes[] = { 0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65 };
#define NSMALL (sizeof(small_sizes) / sizeof(small_sizes[0]))
/* one slot per (size, src align, dst align); dst at SLOT_DST + align */
#define SLOT 128u
#define SLOT_DST 24u

START_TEST(small_copies_are_byte_exact_for_all_8x8_alignments)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 5, 0);
	const uint32_t nslot = NSMALL * 64, bytes = nslot * SLOT;
	struct rtl_buf src = rtl_buf_alloc(ctx, ap_src[_i], bytes);
	struct rtl_buf dst = rtl_buf_alloc(ctx, ap_dst[_i], bytes);
	uint8_t *simg, *want, *got;
	uint64_t copies0, bytes0, total = 0;
	uint32_t dw[64 * 11 + 8];
	struct ppu_pb pb;
	unsigned int si, a;
	long bad;

	rtl_rnd_seed(0xc0b1 + _i, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	want = rtl_buf_randomize(env, &dst);
	got = rtl_xmalloc(bytes);
	copies0 = rtl_perf_read(env, PPU_PERF_COPIES);
	bytes0 = rtl_perf_read(env, PPU_PERF_COPY_BYTES);

	/* one GPFIFO entry per size holding its 64 alignment pairs back to back */
	for (si = 0; si < NSMALL; si++) {
		ppu_pb_init(&pb, dw, sizeof(dw) / sizeof(dw[0]));
		for (a = 0; a < 64; a++) {
			uint32_t slot = si * 64 + a, sa = a >> 3, da = a & 7;
			uint32_t soff = slot * SLOT + sa, doff = slot * SLOT + SLOT_DST + da;

			push_copy(&pb, src.va + soff, dst.va + doff, small_sizes[si]);
			memcpy(want + doff, simg + soff, small_sizes[si]);
			total += small_sizes[si];
		}
		rtl_queue_pb(ch, &pb);
	}
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	rtl_buf_read(env, &dst, 0, got, bytes);
	bad = first_diff(got, want, bytes);
	ck_assert_msg(bad < 0, "%s: byte %ld differs (size %u, src align %u, dst align %u, "
		      "slot offset %u): got 0x%02x want 0x%02x", ap_name[_i], bad,
		      small_sizes[bad / (SLOT * 64)], (unsigned)(bad / SLOT % 64) >> 3,
		      (unsigned)(bad / SLOT % 64) & 7, (unsigned)(bad % SLOT),
		      bad < 0 ? 0 : got[bad], bad < 0 ? 0 : want[bad]);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPIES) - copies0, nslot);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPY_BYTES) - bytes0, total);
	ck_assert_uint_eq(rtl_chan_state(ch), PPU_CHAN_STATUS_STATE_IDLE);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(want);
	free(got);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

struct big_case {
	uint32_t len;
	uint32_t salign, dalign;
	struct rtl_buf src, dst;	/* dst has GUARD + dalign before, GUARD after */
	uint32_t dst_size;
	uint8_t *simg, *dimg;
	const char *what;		/* its aperture pair */
};

static const uint32_t large_sizes[] = { 4095, 4096, 4097, 3 * PAGE + 5 };
static const uint8_t large_align[][2] = {
	{ 0, 0 }, { 1, 0 }, { 0, 7 }, { 7, 1 }, { 3, 3 }, { 4, 5 },
};
static const uint8_t huge_align[][2] = { { 0, 0 }, { 5, 2 } };
#define NLARGE (sizeof(large_sizes) / sizeof(large_sizes[0]))
#define NLALIGN (sizeof(large_align) / sizeof(large_align[0]))
#define NHALIGN (sizeof(huge_align) / sizeof(huge_align[0]))

static void big_case_init(struct rtl_env *env, struct rtl_ctx *ctx, struct big_case *c,
			  int ssys, int dsys, uint32_t len, uint32_t sa, uint32_t da)
{
	c->len = len;
	c->salign = sa;
	c->dalign = da;
	c->what = ap_name[2 * ssys + dsys];
	c->src = rtl_buf_alloc(ctx, ssys, len + 8);
	c->dst_size = len + 2 * GUARD + 8;
	c->dst = rtl_buf_alloc(ctx, dsys, c->dst_size);
	c->simg = rtl_buf_randomize(env, &c->src);
	c->dimg = rtl_buf_randomize(env, &c->dst);
}

static void big_case_check(struct rtl_env *env, struct big_case *c)
{
	uint8_t *got = rtl_xmalloc(c->dst_size);
	uint32_t doff = GUARD + c->dalign;
	long bad;

	memcpy(c->dimg + doff, c->simg + c->salign, c->len);
	rtl_buf_read(env, &c->dst, 0, got, c->dst_size);
	bad = first_diff(got, c->dimg, c->dst_size);
	ck_assert_msg(bad < 0, "%s: copy of %u bytes, src align %u, dst align %u: "
		      "byte %ld of the destination buffer (copy starts at %u) differs: "
		      "got 0x%02x want 0x%02x", c->what, c->len, c->salign, c->dalign, bad, doff,
		      bad < 0 ? 0 : got[bad], bad < 0 ? 0 : c->dimg[bad]);
	free(got);
	free(c->simg);
	free(c->dimg);
}

/*
 * Queues one entry per case on @ch, rings once, and checks every
 * destination buffer and the COPIES / COPY_BYTES counters.
 */
static void run_big_cases(struct rtl_env *env, struct rtl_chan *ch, struct big_case *c,
			  unsigned int n)
{
	uint64_t copies0 = rtl_perf_read(env, PPU_PERF_COPIES);
	uint64_t bytes0 = rtl_perf_read(env, PPU_PERF_COPY_BYTES), total = 0;
	uint32_t dw[16];
	struct ppu_pb pb;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ppu_pb_init(&pb, dw, 16);
		push_copy(&pb, c[i].src.va + c[i].salign, c[i].dst.va + GUARD + c[i].dalign,
			  c[i].len);
		rtl_queue_pb(ch, &pb);
		total += c[i].len;
	}
	rtl_chan_doorbell(ch);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	for (i = 0; i < n; i++)
		big_case_check(env, &c[i]);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPIES) - copies0, n);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPY_BYTES) - bytes0, total);
}

START_TEST(large_copies_are_byte_exact_with_guards_intact)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 6, 0);
	struct big_case c[NLARGE * NLALIGN + NHALIGN];
	unsigned int i, j, n = 0;

	rtl_rnd_seed(0xb16 + _i, RND_SHIFT);
	for (i = 0; i < NLARGE; i++)
		for (j = 0; j < NLALIGN; j++)
			big_case_init(env, ctx, &c[n++], ap_src[_i], ap_dst[_i], large_sizes[i],
				      large_align[j][0], large_align[j][1]);
	for (j = 0; j < NHALIGN; j++)
		big_case_init(env, ctx, &c[n++], ap_src[_i], ap_dst[_i], 1u << 20,
			      huge_align[j][0], huge_align[j][1]);
	run_big_cases(env, ch, c, n);
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/*
 * Memory that is slow, narrow or both, so that the engine sees ready held
 * low, responses long after requests, and apertures of different speed.
 * Loop index: memory configuration.
 */
static const struct {
	uint32_t local_latency, sys_latency, local_bpc, sys_bpc;
} slow_mem[] = {
	{ 1, 1, 8, 8 },		/* fastest possible */
	{ 40, 300, 8, 8 },	/* long latency, full bandwidth */
	{ 8, 32, 1, 3 },	/* one beat every 8 (local) / ~3 (sys) cycles */
	{ 120, 5, 2, 8 },	/* slow local, fast system memory */
};

static const uint32_t slow_sizes[] = { 1, 9, 65, 4097, 3 * PAGE + 5, 20000 };
static const uint8_t slow_align[][2] = { { 0, 0 }, { 7, 1 }, { 3, 6 } };
#define NSLOWS (sizeof(slow_sizes) / sizeof(slow_sizes[0]))
#define NSLOWA (sizeof(slow_align) / sizeof(slow_align[0]))

START_TEST(copies_are_exact_with_slow_and_narrow_memory)
{
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct big_case c[NSLOWS * NSLOWA];
	unsigned int i, j, n = 0;

	env = rtl_env_create_mem(slow_mem[_i].local_latency, slow_mem[_i].sys_latency,
				 slow_mem[_i].local_bpc, slow_mem[_i].sys_bpc);
	ctx = rtl_ctx_create(env);
	ch = rtl_chan_create(env, ctx, 0, 6, 0);
	rtl_rnd_seed(0x510 + _i, RND_SHIFT);
	for (i = 0; i < NSLOWS; i++)
		for (j = 0; j < NSLOWA; j++, n++)
			big_case_init(env, ctx, &c[n], ap_src[n & 3], ap_dst[n & 3], slow_sizes[i],
				      slow_align[j][0], slow_align[j][1]);
	run_big_cases(env, ch, c, n);
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

/*
 * A buffer whose 4 KiB pages are mapped one by one to scattered physical
 * pages in both apertures: consecutive virtual pages never have
 * consecutive physical pages.
 */
#define SC_PAGES 40u
#define SC_POOL 64u	/* pool pages per aperture; the stride is coprime with it */

struct scattered {
	uint32_t va;
	uint64_t pa[SC_PAGES];
	int sys[SC_PAGES];
};

static void scattered_map(struct rtl_ctx *ctx, struct scattered *s, const uint64_t pool[2],
			  uint32_t stride, uint32_t first, unsigned int sys_mod)
{
	uint32_t i;

	s->va = rtl_va_reserve(ctx, SC_PAGES * PAGE);
	for (i = 0; i < SC_PAGES; i++) {
		s->sys[i] = (i % sys_mod) == 1;
		s->pa[i] = pool[s->sys[i]] + (uint64_t)((first + i * stride) % SC_POOL) * PAGE;
		rtl_map(ctx, s->va + i * PAGE, s->pa[i], s->sys[i], PAGE,
			PPU_PTE_PERM_R | PPU_PTE_PERM_W);
	}
}

static void scattered_io(struct rtl_env *env, const struct scattered *s, uint8_t *img, int wr)
{
	uint32_t i;

	for (i = 0; i < SC_PAGES; i++) {
		int r = wr ? ppu_sim_mem_write(env->sim, s->sys[i], s->pa[i], img + i * PAGE, PAGE)
			   : ppu_sim_mem_read(env->sim, s->sys[i], s->pa[i], img + i * PAGE, PAGE);

		ck_assert_int_eq(r, 0);
	}
}

START_TEST(copies_across_scattered_pages_in_both_apertures)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	const uint32_t bytes = SC_PAGES * PAGE;
	/* src and both destinations draw from disjoint thirds of each pool */
	uint64_t pool_src[2], pool_d1[2], pool_d2[2];
	struct scattered src, d1, d2;
	uint8_t *simg = rtl_xmalloc(bytes), *w1 = rtl_xmalloc(bytes), *w2 = rtl_xmalloc(bytes);
	uint8_t *got = rtl_xmalloc(bytes);
	const uint32_t len1 = bytes - 13, len2 = bytes - 3 * PAGE - 1000;
	uint32_t dw[64];
	struct ppu_pb pb;
	int ap;
	long bad;

	for (ap = 0; ap < 2; ap++) {
		pool_src[ap] = rtl_alloc_pa(env, ap, SC_POOL * PAGE, PAGE);
		pool_d1[ap] = rtl_alloc_pa(env, ap, SC_POOL * PAGE, PAGE);
		pool_d2[ap] = rtl_alloc_pa(env, ap, SC_POOL * PAGE, PAGE);
	}
	scattered_map(ctx, &src, pool_src, 7, 5, 3);
	scattered_map(ctx, &d1, pool_d1, 11, 3, 2);
	scattered_map(ctx, &d2, pool_d2, 13, 60, 4);
	rtl_rnd_seed(0x5ca7, RND_SHIFT);
	rtl_rnd_fill(simg, bytes);
	rtl_rnd_fill(w1, bytes);
	rtl_rnd_fill(w2, bytes);
	scattered_io(env, &src, simg, 1);
	scattered_io(env, &d1, w1, 1);
	scattered_io(env, &d2, w2, 1);

	/* 5 -> 3 over every page; 2 -> 7 starting mid-page, ending mid-page */
	ppu_pb_init(&pb, dw, 64);
	push_copy(&pb, src.va + 5, d1.va + 3, len1);
	push_copy(&pb, src.va + PAGE / 2 + 2, d2.va + 2 * PAGE + 7, len2);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	memcpy(w1 + 3, simg + 5, len1);
	memcpy(w2 + 2 * PAGE + 7, simg + PAGE / 2 + 2, len2);
	scattered_io(env, &d1, got, 0);
	bad = first_diff(got, w1, bytes);
	ck_assert_msg(bad < 0, "first copy: byte %ld (page %ld) differs", bad, bad / PAGE);
	scattered_io(env, &d2, got, 0);
	bad = first_diff(got, w2, bytes);
	ck_assert_msg(bad < 0, "second copy: byte %ld (page %ld) differs", bad, bad / PAGE);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(w1);
	free(w2);
	free(got);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

START_TEST(back_to_back_copies_in_one_segment_run_in_order)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	const uint32_t len = 20000, size = len + 16;
	/* A -> B -> C -> D, each step reads what the one before wrote */
	struct rtl_buf a = rtl_buf_alloc(ctx, 0, size), b = rtl_buf_alloc(ctx, 1, size);
	struct rtl_buf c = rtl_buf_alloc(ctx, 0, size), d = rtl_buf_alloc(ctx, 1, size);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 64);
	uint8_t *aimg, *dimg, *got = rtl_xmalloc(size);
	uint32_t dw[128];
	struct ppu_pb pb;
	long s, e, prev_end = -1;
	int k;
	long bad;

	rtl_rnd_seed(0xb2b, RND_SHIFT);
	aimg = rtl_buf_randomize(env, &a);
	free(rtl_buf_randomize(env, &b));
	free(rtl_buf_randomize(env, &c));
	dimg = rtl_buf_randomize(env, &d);

	ppu_pb_init(&pb, dw, 128);
	push_copy(&pb, a.va + 1, b.va + 6, len);
	push_copy(&pb, b.va + 6, c.va + 3, len);
	push_copy(&pb, c.va + 3, d.va + 8, len);
	ppu_pb_sem_release(&pb, sem.va, 0x600dd00d);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);

	memcpy(dimg + 8, aimg + 1, len);
	rtl_buf_read(env, &d, 0, got, size);
	bad = first_diff(got, dimg, size);
	ck_assert_msg(bad < 0, "byte %ld of D differs: got 0x%02x want 0x%02x", bad,
		      bad < 0 ? 0 : got[bad], bad < 0 ? 0 : dimg[bad]);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 0x600dd00d);

	/* one GPFIFO entry, three copies, each starting after the previous ended */
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_GP_FETCH, 0), 1);
	ck_assert_uint_eq(rtl_log_count(env, PPU_TRACE_COPY_START, 0), 3);
	s = -1;
	for (k = 0; k < 3; k++) {
		s = rtl_log_find(env, PPU_TRACE_COPY_START, 0, (size_t)(s + 1));
		ck_assert_int_ge(s, 0);
		ck_assert_int_gt(s, prev_end);
		e = rtl_log_find(env, PPU_TRACE_COPY_END, 0, (size_t)s);
		ck_assert_int_gt(e, s);
		prev_end = e;
	}
	/* the release after the last copy comes after that copy's end */
	ck_assert_int_gt(rtl_log_find(env, PPU_TRACE_SEM_RELEASE, 0, 0), prev_end);
	rtl_expect_no_protocol_errors(env);

	free(aimg);
	free(dimg);
	free(got);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

/*
 * Completion semaphores: the event callback looks at memory in the cycle
 * the release is traced, so "the data is all there before the semaphore is
 * released" is checked directly rather than inferred.
 */
#define NSEMCOPY 4

struct sem_watch {
	struct rtl_env *env;
	uint32_t sem_va[NSEMCOPY];
	const struct rtl_buf *dst[NSEMCOPY];
	const uint8_t *want[NSEMCOPY];
	uint32_t len[NSEMCOPY];
	int released[NSEMCOPY];
	int data_ready[NSEMCOPY];
};

static void sem_watch_cb(void *p, const struct ppu_sim_event *ev)
{
	struct sem_watch *w = p;
	int i;

	if (ev->kind != PPU_TRACE_SEM_RELEASE)
		return;
	for (i = 0; i < NSEMCOPY; i++) {
		if (ev->a == w->sem_va[i]) {
			uint8_t *got = malloc(w->len[i]);

			if (!got)
				return;
			w->released[i]++;
			ppu_sim_mem_read(w->env->sim, w->dst[i]->sys, w->dst[i]->pa, got, w->len[i]);
			w->data_ready[i] = !memcmp(got, w->want[i], w->len[i]);
			free(got);
		}
	}
}

START_TEST(completion_semaphore_is_released_after_the_data_lands)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	static const uint32_t lens[NSEMCOPY] = { 1, 777, 8192 + 3, 40000 };
	static const uint32_t pay[NSEMCOPY] = { 0x11111111, 0xdeadbeef, 0x80000001, 0 };
	struct rtl_buf src[NSEMCOPY], dst[NSEMCOPY];
	struct rtl_buf sem_l = rtl_buf_alloc(ctx, 0, 64), sem_s = rtl_buf_alloc(ctx, 1, 64);
	uint8_t *simg[NSEMCOPY], fill[64], got[64];
	struct sem_watch w;
	uint32_t dw[128];
	struct ppu_pb pb;
	int i;

	memset(&w, 0, sizeof(w));
	w.env = env;
	rtl_rnd_seed(0x5e3, RND_SHIFT);
	memset(fill, 0xa5, sizeof(fill));
	rtl_buf_write(env, &sem_l, 0, fill, 64);
	rtl_buf_write(env, &sem_s, 0, fill, 64);
	ppu_pb_init(&pb, dw, 128);
	for (i = 0; i < NSEMCOPY; i++) {
		src[i] = rtl_buf_alloc(ctx, i & 1, lens[i]);
		dst[i] = rtl_buf_alloc(ctx, !(i & 1), lens[i]);
		simg[i] = rtl_buf_randomize(env, &src[i]);
		/* semaphores at 0 and 4 of a beat, in both apertures */
		w.sem_va[i] = (i < 2 ? sem_l.va : sem_s.va) + 4 * (i & 1) + 8 * (i >> 1);
		w.dst[i] = &dst[i];
		w.want[i] = simg[i];
		w.len[i] = lens[i];
		ppu_pb_copy(&pb, src[i].va, dst[i].va, lens[i], PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
			    w.sem_va[i], pay[i], 0);
	}
	ppu_sim_set_event_cb(env->sim, sem_watch_cb, &w);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ppu_sim_set_event_cb(env->sim, NULL, NULL);

	for (i = 0; i < NSEMCOPY; i++) {
		ck_assert_msg(w.released[i] == 1, "copy %d: %d releases", i, w.released[i]);
		ck_assert_msg(w.data_ready[i], "copy %d: semaphore released before its data", i);
	}
	/* each release wrote exactly its 4 bytes */
	rtl_buf_read(env, &sem_l, 0, got, 64);
	ck_assert_uint_eq(*(uint32_t *)&got[0], pay[0]);
	ck_assert_uint_eq(*(uint32_t *)&got[4], pay[1]);
	ck_assert_mem_eq(got + 8, fill + 8, 56);
	rtl_buf_read(env, &sem_s, 0, got, 64);
	ck_assert_mem_eq(got, fill, 8);
	ck_assert_uint_eq(*(uint32_t *)&got[8], pay[2]);
	ck_assert_uint_eq(*(uint32_t *)&got[12], pay[3]);
	ck_assert_mem_eq(got + 16, fill + 16, 48);
	rtl_expect_no_protocol_errors(env);

	for (i = 0; i < NSEMCOPY; i++)
		free(simg[i]);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(completion_semaphore_with_timestamp_writes_sem16)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	const uint32_t len = 5000;
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, len), dst = rtl_buf_alloc(ctx, 1, len);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 1, 64);
	uint8_t fill[64], got[64];
	uint8_t *simg, *dimg = rtl_xmalloc(len);
	uint32_t dw[32], s16[4];
	uint64_t t0, t1, ts;
	struct ppu_pb pb;

	rtl_rnd_seed(0x7135, RND_SHIFT);
	simg = rtl_buf_randomize(env, &src);
	memset(fill, 0x5a, sizeof(fill));
	rtl_buf_write(env, &sem, 0, fill, 64);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va + 3, dst.va + 1, len - 3,
		    PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP, sem.va + 16, 0x13572468, 0);
	t0 = rtl_reg_read(env, PPU_REG_CYCLE_LO) |
	     (uint64_t)rtl_reg_read(env, PPU_REG_CYCLE_HI) << 32;
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	t1 = rtl_reg_read(env, PPU_REG_CYCLE_LO) |
	     (uint64_t)rtl_reg_read(env, PPU_REG_CYCLE_HI) << 32;

	rtl_buf_read(env, &dst, 1, dimg, len - 3);
	ck_assert_mem_eq(dimg, simg + 3, len - 3);
	rtl_buf_read(env, &sem, 0, got, 64);
	memcpy(s16, got + 16, 16);
	ck_assert_uint_eq(s16[PPU_SEM16_PAYLOAD_LO / 4], 0x13572468);
	ck_assert_uint_eq(s16[PPU_SEM16_PAYLOAD_HI / 4], 0);
	ts = s16[PPU_SEM16_TIMESTAMP_LO / 4] | (uint64_t)s16[PPU_SEM16_TIMESTAMP_HI / 4] << 32;
	ck_assert_uint_gt(ts, t0);
	ck_assert_uint_lt(ts, t1);
	/* the copy itself takes at least one cycle per destination beat */
	ck_assert_uint_ge(ts - t0, (len - 3) / 8);
	ck_assert_mem_eq(got, fill, 16);
	ck_assert_mem_eq(got + 32, fill + 32, 32);
	rtl_expect_no_protocol_errors(env);

	free(simg);
	free(dimg);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(launch_interrupt_flag_raises_nonstall_pending_on_completion)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 3, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 4096), dst = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t dw[32];
	struct ppu_pb pb;

	rtl_reg_write(env, PPU_REG_INTR_ENABLE, PPU_FSET(PPU_INTR_NONSTALL, 1));
	/* without the flag: nothing pending */
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va, dst.va, 100, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va, dst.va, 100, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 1);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 1u << 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_INTR_STATUS), PPU_FSET(PPU_INTR_NONSTALL, 1));
	rtl_expect_irq_up(env->sim);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_NONSTALL_INTRS), 1);
	rtl_reg_write(env, PPU_REG_NONSTALL_PENDING, 1u << 3);
	ck_assert_uint_eq(rtl_reg_read(env, PPU_REG_NONSTALL_PENDING), 0);
	ck_assert_int_eq(ppu_sim_irq(env->sim), 0);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

/* ------------------------------------------------------------------------ */

START_TEST(perf_counters_count_copies_and_bytes)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	static const uint32_t lens[] = { 0, 1, 4097, 65536 + 3, 12345, 8, 0 };
	const unsigned int n = sizeof(lens) / sizeof(lens[0]);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 65536 + 16);
	struct rtl_buf dst = rtl_buf_alloc(ctx, 0, 65536 + 16);
	uint64_t total = 0;
	uint32_t dw[160];
	struct ppu_pb pb;
	unsigned int i, round;

	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPIES), 0);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPY_BYTES), 0);
	for (round = 1; round <= 2; round++) {
		ppu_pb_init(&pb, dw, 160);
		for (i = 0; i < n; i++) {
			push_copy(&pb, src.va + (i & 7), dst.va + ((i * 3) & 7), lens[i]);
			total += lens[i];
		}
		rtl_chan_submit(ch, &pb);
		ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
		ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_LO(PPU_PERF_COPIES)), round * n);
		ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_HI(PPU_PERF_COPIES)), 0);
		ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_LO(PPU_PERF_COPY_BYTES)), total);
		ck_assert_uint_eq(rtl_reg_read(env, PPU_PERF_HI(PPU_PERF_COPY_BYTES)), 0);
	}
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

START_TEST(zero_length_copy_touches_no_memory)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	/* reserved, never mapped: any translation of them would fault */
	uint32_t hole = rtl_va_reserve(ctx, 2 * PAGE);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 64);
	uint32_t dw[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, hole + 5, hole + PAGE + 3, 0, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, sem.va,
		    42, 0);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, WAIT_CYCLES), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(rtl_buf_rd32(env, &sem, 0), 42);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPIES), 1);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_COPY_BYTES), 0);
	rtl_expect_no_protocol_errors(env);

	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}
END_TEST

Suite *suite_copy(void)
{
	Suite *s = suite_create("copy");
	TCase *tc = tcase_create("copy");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	/* loop index: aperture pair (ap_src / ap_dst) */
	tcase_add_loop_test(tc, small_copies_are_byte_exact_for_all_8x8_alignments, 0, 4);
	tcase_add_loop_test(tc, large_copies_are_byte_exact_with_guards_intact, 0, 4);
	tcase_add_loop_test(tc, copies_are_exact_with_slow_and_narrow_memory, 0,
			    sizeof(slow_mem) / sizeof(slow_mem[0]));
	tcase_add_test(tc, copies_across_scattered_pages_in_both_apertures);
	tcase_add_test(tc, back_to_back_copies_in_one_segment_run_in_order);
	tcase_add_test(tc, completion_semaphore_is_released_after_the_data_lands);
	tcase_add_test(tc, completion_semaphore_with_timestamp_writes_sem16);
	tcase_add_test(tc, launch_interrupt_flag_raises_nonstall_pending_on_completion);
	tcase_add_test(tc, perf_counters_count_copies_and_bytes);
	tcase_add_test(tc, zero_length_copy_touches_no_memory);
	suite_add_tcase(s, tc);
	return s;
}
