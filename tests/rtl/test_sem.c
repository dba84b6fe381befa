// SPDX-License-Identifier: MIT
/*
 * Semaphores: every acquire condition (satisfied at once, and blocked until
 * another channel releases), 32/64-bit payloads, timestamped releases,
 * every reduction, copy completion releases, re-check on semaphore writes
 * and acquire timeouts.
 */
#include <check.h>
#include <string.h>

#include "rtl_check.h"
#include "rtl_suites.h"

#define WAIT_CYCLES 400000
#define FILL 0xa5a5a5a5u
#define MARK_OFF 0x800		/* marker released after an acquire */
#define MARK 0x600d600du

static void sem_wr64(struct rtl_semt *t, uint32_t off, uint64_t v)
{
	rtl_buf_wr32(t->env, &t->sem, off, (uint32_t)v);
	rtl_buf_wr32(t->env, &t->sem, off + 4, (uint32_t)(v >> 32));
}

static uint64_t sem_rd64(struct rtl_semt *t, uint32_t off)
{
	return rtl_buf_rd32(t->env, &t->sem, off) |
	       (uint64_t)rtl_buf_rd32(t->env, &t->sem, off + 4) << 32;
}

/* Acquire @op at sem offset 0, then release MARK at MARK_OFF. */
static void submit_acquire(struct rtl_semt *t, struct rtl_chan *ch, uint32_t op, int is64,
			   uint64_t payload)
{
	uint32_t buf[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem(&pb, t->sem.va, payload, ppu_sem_acquire_op(op, is64));
	ppu_pb_sem_release(&pb, t->sem.va + MARK_OFF, MARK);
	rtl_submit_pb(ch, &pb);
}

static void submit_release(struct rtl_semt *t, struct rtl_chan *ch, uint32_t off, int is64,
			   uint64_t payload)
{
	uint32_t buf[32];
	struct ppu_pb pb;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem(&pb, t->sem.va + off, payload, ppu_sem_release_op(is64, 0, 0));
	rtl_submit_pb(ch, &pb);
}

/* The acquire passes on its first evaluation. */
static void acquire_at_once(uint32_t op, int is64, uint64_t value, uint64_t payload)
{
	struct rtl_semt t;
	long k;

	rtl_semt_init(&t, 0);
	if (is64) {
		sem_wr64(&t, 0, value);
	} else {
		rtl_buf_wr32(t.env, &t.sem, 0, (uint32_t)value);
		rtl_buf_wr32(t.env, &t.sem, 4, FILL);
	}
	submit_acquire(&t, t.a, op, is64, payload);
	ck_assert_int_eq(rtl_chan_wait(t.a, WAIT_CYCLES), 0);

	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, -1), 0);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_OK, -1), 1);
	k = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	ck_assert_int_ge(k, 0);
	ck_assert_uint_eq(t.env->ev[k].a, t.sem.va);
	ck_assert_uint_eq(t.env->ev[k].b, (uint32_t)value);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), MARK);
	/* an acquire writes nothing */
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0), (uint32_t)value);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 4), is64 ? (uint32_t)(value >> 32) : FILL);
	rtl_semt_fini(&t);
}

/* ---- acquires ---- */

START_TEST(acquire_eq_passes_at_once_on_equal_value)
{
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 0x12345678, 0x12345678);
}
END_TEST

START_TEST(acquire_strict_geq_passes_at_once_on_equal_and_unsigned_greater)
{
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, 0, 100, 100);
	/* unsigned: 0x80000000 >= 0x7fffffff */
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, 0, 0x80000000, 0x7fffffff);
}
END_TEST

START_TEST(acquire_circ_geq_passes_at_once_across_wraparound)
{
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0, 7, 7);
	/* 3 is 6 past 0xfffffffd on the circle */
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0, 3, 0xfffffffd);
}
END_TEST

START_TEST(acquire_and_passes_at_once_on_a_common_bit)
{
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_AND, 0, 0x00f0, 0x0810);
}
END_TEST

/* ---- 64-bit payloads ---- */

START_TEST(acquire_64bit_compares_the_upper_half_too)
{
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 1, 0x100000005ull, 0x100000005ull);
	/* the 32-bit halves alone would say otherwise in each of these */
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_STRICT_GEQ, 1, 0x100000000ull, 0xffffffffull);
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 1, 0x100000000ull, 0x80000000ull);
	acquire_at_once(PPU_SEM_EXECUTE_OPERATION_ACQ_AND, 1, 0x100000000ull, 0x100000000ull);
}
END_TEST

/* ---- acquires that block ---- */

#define ACQ(op) PPU_SEM_EXECUTE_OPERATION_##op

/*
 * Loop index: an acquire that fails on its initial value, then passes on
 * what another channel releases (a release of the same payload size).
 */
static const struct {
	uint32_t op;
	int is64;
	uint64_t initial, payload, release;
} blocked_acquires[] = {
	/* EQ: until another channel releases the value */
	{ ACQ(ACQUIRE), 0, 0x12345677, 0x12345678, 0x12345678 },
	/* STRICT_GEQ: below the payload until released above */
	{ ACQ(ACQ_STRICT_GEQ), 0, 99, 100, 0xffffffff },
	/* CIRC_GEQ: 0xfffffffd is 6 behind 3 although larger unsigned; 4 is past 3 */
	{ ACQ(ACQ_CIRC_GEQ), 0, 0xfffffffd, 3, 4 },
	/* CIRC_GEQ half a circle ahead: 0x80000005 - 5 = 0x80000000, negative as s32 */
	{ ACQ(ACQ_CIRC_GEQ), 0, 0x80000005, 5, 0x80000004 },
	/* AND: on disjoint bits until released */
	{ ACQ(ACQ_AND), 0, 0x0f0f, 0xf0f0, 0x8000 },
	/* 64-bit EQ: low halves equal, upper halves differ, until a 64-bit release */
	{ ACQ(ACQUIRE), 1, 0x200000005ull, 0x100000005ull, 0x100000005ull },
};

/* Channel A's acquire fails and blocks; channel B releases and A must pass and run on. */
START_TEST(acquire_blocks_until_another_channel_releases)
{
	const uint32_t op = blocked_acquires[_i].op;
	const int is64 = blocked_acquires[_i].is64;
	const uint64_t initial = blocked_acquires[_i].initial;
	const uint64_t payload = blocked_acquires[_i].payload;
	const uint64_t release = blocked_acquires[_i].release;
	struct rtl_semt t;
	size_t i, nfail;
	long f, r, k, m;

	rtl_semt_init(&t, 0);
	sem_wr64(&t, 0, initial);
	submit_acquire(&t, t.a, op, is64, payload);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	/* several timed re-checks (SCHED_ACQ_RETRY 256), all failing */
	ppu_sim_clock(t.env->sim, 3000);
	ck_assert_uint_eq(rtl_chan_state(t.a), PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);
	nfail = rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid);
	ck_assert_uint_ge(nfail, 2);
	for (i = 0; i < t.env->nev; i++)
		if (t.env->ev[i].kind == PPU_TRACE_SEM_ACQ_FAIL) {
			ck_assert_uint_eq(t.env->ev[i].a, t.sem.va);
			ck_assert_uint_eq(t.env->ev[i].b, (uint32_t)initial);
		}
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_OK, -1), 0);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), 0);

	submit_release(&t, t.b, 0, is64, release);
	ck_assert_int_eq(rtl_wait_all(t.both, 2, WAIT_CYCLES), 0);

	f = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid, 0);
	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.b->chid, 0);
	k = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	m = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid, 0);
	ck_assert_int_ge(f, 0);
	ck_assert_int_ge(r, 0);
	ck_assert_int_ge(k, 0);
	ck_assert_int_ge(m, 0);
	/* fail ... B's release ... ok ... A's next method */
	ck_assert_int_lt(f, r);
	ck_assert_int_lt(r, k);
	ck_assert_int_lt(k, m);
	ck_assert_int_lt(rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid, r), 0);
	ck_assert_uint_eq(t.env->ev[r].b, (uint32_t)release);
	ck_assert_uint_eq(t.env->ev[k].a, t.sem.va);
	ck_assert_uint_eq(t.env->ev[k].b, (uint32_t)release);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_OK, -1), 1);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), MARK);
	ck_assert_uint_eq(sem_rd64(&t, 0) & (is64 ? ~0ull : 0xffffffffull),
			  is64 ? release : (uint32_t)release);
	ck_assert_uint_eq(rtl_reg_read(t.env, PPU_REG_FAULT_PENDING), 0);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(release_32bit_and_64bit_write_exactly_their_bytes)
{
	struct rtl_semt t;
	uint32_t buf[32], off;
	struct ppu_pb pb;
	long r;

	rtl_semt_init(&t, 0);
	for (off = 0; off < 0x40; off += 4)
		rtl_buf_wr32(t.env, &t.sem, off, FILL);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem(&pb, t.sem.va + 0x10, 0x1122334455667788ull, ppu_sem_release_op(1, 0, 0));
	ppu_pb_sem(&pb, t.sem.va + 0x24, 0x99999999deadbeefull, ppu_sem_release_op(0, 0, 0));
	rtl_submit_and_wait(t.a, &pb, WAIT_CYCLES);

	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x0c), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x10), 0x55667788);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x14), 0x11223344);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x18), FILL);
	/* 32-bit: PAYLOAD_HI is not written */
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x20), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x24), 0xdeadbeef);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x28), FILL);
	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid, 0);
	ck_assert_int_ge(r, 0);
	ck_assert_uint_eq(t.env->ev[r].a, t.sem.va + 0x10);
	ck_assert_uint_eq(t.env->ev[r].b, 0x55667788);
	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid, r + 1);
	ck_assert_int_ge(r, 0);
	ck_assert_uint_eq(t.env->ev[r].a, t.sem.va + 0x24);
	ck_assert_uint_eq(t.env->ev[r].b, 0xdeadbeef);
	rtl_semt_fini(&t);
}
END_TEST

/* ---- timestamped release ---- */

/* CYCLE_HI, CYCLE_LO, CYCLE_HI: a consistent 64-bit value. */
static uint64_t read_cycle(struct rtl_env *env)
{
	uint32_t hi, lo;

	do {
		hi = rtl_reg_read(env, PPU_REG_CYCLE_HI);
		lo = rtl_reg_read(env, PPU_REG_CYCLE_LO);
	} while (rtl_reg_read(env, PPU_REG_CYCLE_HI) != hi);
	return (uint64_t)hi << 32 | lo;
}

START_TEST(timestamped_release_writes_sem16_with_monotonic_timestamps)
{
	struct rtl_semt t;
	uint32_t buf[64], off;
	struct ppu_pb pb;
	uint64_t c0, c1, ts1, ts2;

	rtl_semt_init(&t, 0);
	for (off = 0x30; off < 0x90; off += 4)
		rtl_buf_wr32(t.env, &t.sem, off, FILL);
	c0 = read_cycle(t.env);
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_sem(&pb, t.sem.va + 0x40, 0x0000000012345678ull, ppu_sem_release_op(0, 1, 0));
	ppu_pb_sem(&pb, t.sem.va + 0x60, 0xabcdef0187654321ull, ppu_sem_release_op(1, 1, 0));
	rtl_submit_and_wait(t.a, &pb, WAIT_CYCLES);
	c1 = read_cycle(t.env);

	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x40 + PPU_SEM16_PAYLOAD_LO), 0x12345678);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x40 + PPU_SEM16_PAYLOAD_HI), 0);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x60 + PPU_SEM16_PAYLOAD_LO), 0x87654321);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x60 + PPU_SEM16_PAYLOAD_HI), 0xabcdef01);
	ts1 = rtl_buf_rd32(t.env, &t.sem, 0x40 + PPU_SEM16_TIMESTAMP_LO) |
	      (uint64_t)rtl_buf_rd32(t.env, &t.sem, 0x40 + PPU_SEM16_TIMESTAMP_HI) << 32;
	ts2 = rtl_buf_rd32(t.env, &t.sem, 0x60 + PPU_SEM16_TIMESTAMP_LO) |
	      (uint64_t)rtl_buf_rd32(t.env, &t.sem, 0x60 + PPU_SEM16_TIMESTAMP_HI) << 32;
	ck_assert_uint_ne(ts1, 0);
	ck_assert_uint_gt(ts1, c0);
	ck_assert_uint_gt(ts2, ts1);
	ck_assert_uint_le(ts2, c1);
	/* exactly 16 bytes each */
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x3c), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x50), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x5c), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x70), FILL);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid), 2);
	rtl_semt_fini(&t);
}
END_TEST

/* ---- reductions ---- */

struct red_case {
	uint32_t red;
	int is_unsigned;
	uint32_t init, payload, expect;
};

#define RED(r) PPU_SEM_EXECUTE_REDUCTION_##r

static const struct red_case reduction_imin_signed_and_unsigned[] = {
	{ RED(IMIN), 0, 0xfffffffe, 5, 0xfffffffe },
	{ RED(IMIN), 1, 0xfffffffe, 5, 5 },
	{ RED(IMIN), 0, 7, 3, 3 },
	{ RED(IMIN), 1, 3, 7, 3 },
	{ RED(IMIN), 0, 0x80000000, 0x7fffffff, 0x80000000 },
	{ RED(IMIN), 1, 0x80000000, 0x7fffffff, 0x7fffffff },
};

static const struct red_case reduction_imax_signed_and_unsigned[] = {
	{ RED(IMAX), 0, 0xfffffffe, 5, 5 },
	{ RED(IMAX), 1, 0xfffffffe, 5, 0xfffffffe },
	{ RED(IMAX), 0, 3, 0x80000000, 3 },
	{ RED(IMAX), 1, 3, 0x80000000, 0x80000000 },
	{ RED(IMAX), 0, 0xffffffff, 0xfffffffe, 0xffffffff },
	{ RED(IMAX), 1, 9, 9, 9 },
};

static const struct red_case reduction_ixor_iand_ior[] = {
	{ RED(IXOR), 1, 0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0 },
	{ RED(IXOR), 0, 0x12345678, 0x12345678, 0 },
	{ RED(IAND), 1, 0xff00ff00, 0x0ff00ff0, 0x0f000f00 },
	{ RED(IAND), 0, 0xffffffff, 0x80000001, 0x80000001 },
	{ RED(IOR), 1, 0xff00ff00, 0x0ff00ff0, 0xfff0fff0 },
	{ RED(IOR), 0, 0, 0x00010000, 0x00010000 },
};

static const struct red_case reduction_iadd_wraps_modulo_2_32[] = {
	{ RED(IADD), 1, 100, 23, 123 },
	{ RED(IADD), 1, 0xfffffff0, 0x20, 0x10 },
	{ RED(IADD), 0, 0x7fffffff, 1, 0x80000000 },
	{ RED(IADD), 0, 5, 0xfffffffd, 2 },
};

static const struct red_case reduction_inc_adds_one_whatever_the_payload[] = {
	{ RED(INC), 1, 41, 1000, 42 },
	{ RED(INC), 1, 0xffffffff, 0, 0 },
	{ RED(INC), 0, 0, 0xffffffff, 1 },
	{ RED(INC), 0, 0x7fffffff, 5, 0x80000000 },
};

static const struct red_case reduction_dec_subtracts_one_and_wraps_from_zero[] = {
	{ RED(DEC), 1, 42, 7, 41 },
	{ RED(DEC), 1, 0, 0, 0xffffffff },
	{ RED(DEC), 0, 1, 1, 0 },
	{ RED(DEC), 0, 0, 0x10, 0xffffffff },
};

#define RED_GROUP(g) { #g, g, sizeof(g) / sizeof(g[0]) }

/* Loop index: one group of cases, all run in one pushbuffer. */
static const struct {
	const char *name;
	const struct red_case *c;
	size_t n;
} red_groups[] = {
	RED_GROUP(reduction_imin_signed_and_unsigned),
	RED_GROUP(reduction_imax_signed_and_unsigned),
	RED_GROUP(reduction_ixor_iand_ior),
	RED_GROUP(reduction_iadd_wraps_modulo_2_32),
	RED_GROUP(reduction_inc_adds_one_whatever_the_payload),
	RED_GROUP(reduction_dec_subtracts_one_and_wraps_from_zero),
};

/*
 * Every case of a group in one pushbuffer, each on its own semaphore; the
 * semaphores alternate between the low and high half of a beat.
 */
START_TEST(reductions_write_and_trace_their_results)
{
	const char *name = red_groups[_i].name;
	const struct red_case *c = red_groups[_i].c;
	const size_t n = red_groups[_i].n;
	struct rtl_semt t;
	uint32_t buf[256];
	struct ppu_pb pb;
	size_t i, k;

	rtl_semt_init(&t, 0);
	ppu_pb_init(&pb, buf, 256);
	for (i = 0; i < n; i++) {
		uint32_t off = 8 * i + 4 * (i & 1);

		rtl_buf_wr32(t.env, &t.sem, 8 * i + 4 * !(i & 1), FILL);
		rtl_buf_wr32(t.env, &t.sem, off, c[i].init);
		ppu_pb_sem(&pb, t.sem.va + off, c[i].payload,
			   ppu_sem_reduction_op(c[i].red, c[i].is_unsigned));
	}
	rtl_submit_and_wait(t.a, &pb, WAIT_CYCLES);

	for (i = 0, k = 0; i < t.env->nev; i++) {
		const struct ppu_sim_event *e = &t.env->ev[i];

		if (e->kind != PPU_TRACE_SEM_REDUCTION)
			continue;
		ck_assert_uint_lt(k, n);
		ck_assert_uint_eq(e->chid, t.a->chid);
		ck_assert_uint_eq(e->a, t.sem.va + 8 * k + 4 * (k & 1));
		ck_assert_msg(e->b == c[k].expect, "%s case %zu: trace 0x%08x, want 0x%08x", name,
			      k, e->b, c[k].expect);
		k++;
	}
	ck_assert_uint_eq(k, n);
	for (i = 0; i < n; i++) {
		uint32_t got = rtl_buf_rd32(t.env, &t.sem, 8 * i + 4 * (i & 1));

		ck_assert_msg(got == c[i].expect,
			      "%s case %zu (red %u %s, 0x%08x with 0x%08x): 0x%08x, want 0x%08x",
			      name, i, c[i].red, c[i].is_unsigned ? "unsigned" : "signed",
			      c[i].init, c[i].payload, got, c[i].expect);
		ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 8 * i + 4 * !(i & 1)), FILL);
	}
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_RELEASE, -1), 0);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_FAULT, -1), 0);
	rtl_semt_fini(&t);
}
END_TEST

/* ---- copy completion semaphores ---- */

START_TEST(copy_completion_release_lands_after_the_copy)
{
	enum { LEN = 8192 };
	struct rtl_semt t;
	struct rtl_buf src, dst;
	static uint8_t pat[LEN], got[LEN];
	uint32_t buf[64];
	struct ppu_pb pb;
	long s, r, e, k;
	int i;

	rtl_semt_init(&t, 0);
	src = rtl_buf_alloc(t.ctx, 0, LEN);
	dst = rtl_buf_alloc(t.ctx, 0, LEN);
	for (i = 0; i < LEN; i++)
		pat[i] = (uint8_t)(i * 29 + 3);
	rtl_buf_write(t.env, &src, 0, pat, LEN);
	rtl_buf_wr32(t.env, &t.sem, 0, FILL);
	rtl_buf_wr32(t.env, &t.sem, 8, FILL);

	ppu_pb_init(&pb, buf, 64);
	ppu_pb_copy(&pb, src.va, dst.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, t.sem.va + 4,
		    0xc0de0001, 0);
	/* the next method runs only after completion: the value is there */
	ppu_pb_sem(&pb, t.sem.va + 4, 0xc0de0001,
		   ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0));
	rtl_submit_and_wait(t.a, &pb, WAIT_CYCLES);

	rtl_buf_read(t.env, &dst, 0, got, LEN);
	ck_assert(memcmp(got, pat, LEN) == 0);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 4), 0xc0de0001);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 8), FILL);
	s = rtl_log_find(t.env, PPU_TRACE_COPY_START, t.a->chid, 0);
	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid, 0);
	e = rtl_log_find(t.env, PPU_TRACE_COPY_END, t.a->chid, 0);
	k = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_gt(r, s);
	ck_assert_int_gt(e, r);
	ck_assert_int_gt(k, e);
	ck_assert_uint_eq(t.env->ev[r].a, t.sem.va + 4);
	ck_assert_uint_eq(t.env->ev[r].b, 0xc0de0001);
	ck_assert_uint_eq(t.env->ev[e].b, LEN);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, -1), 0);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(copy_completion_release_timestamp_writes_sem16)
{
	enum { LEN = 4096 };
	struct rtl_semt t;
	struct rtl_buf src, dst;
	static uint8_t pat[LEN], got[LEN];
	uint32_t buf[64], off;
	struct ppu_pb pb;
	uint64_t c0, c1, ts;
	int i;

	rtl_semt_init(&t, 0);
	src = rtl_buf_alloc(t.ctx, 0, LEN);
	dst = rtl_buf_alloc(t.ctx, 0, LEN);
	for (i = 0; i < LEN; i++)
		pat[i] = (uint8_t)(i * 7 + 1);
	rtl_buf_write(t.env, &src, 0, pat, LEN);
	for (off = 0x10; off < 0x40; off += 4)
		rtl_buf_wr32(t.env, &t.sem, off, FILL);

	c0 = read_cycle(t.env);
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_copy(&pb, src.va, dst.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE_TIMESTAMP,
		    t.sem.va + 0x20, 0x7e570001, 0);
	rtl_submit_and_wait(t.a, &pb, WAIT_CYCLES);
	c1 = read_cycle(t.env);

	rtl_buf_read(t.env, &dst, 0, got, LEN);
	ck_assert(memcmp(got, pat, LEN) == 0);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x20 + PPU_SEM16_PAYLOAD_LO), 0x7e570001);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x20 + PPU_SEM16_PAYLOAD_HI), 0);
	ts = rtl_buf_rd32(t.env, &t.sem, 0x20 + PPU_SEM16_TIMESTAMP_LO) |
	     (uint64_t)rtl_buf_rd32(t.env, &t.sem, 0x20 + PPU_SEM16_TIMESTAMP_HI) << 32;
	ck_assert_uint_gt(ts, c0);
	ck_assert_uint_lt(ts, c1);
	/* after the data: at least LEN / 8 beats past the start */
	ck_assert_uint_ge(ts - c0, LEN / 8);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x1c), FILL);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x30), FILL);
	rtl_semt_fini(&t);
}
END_TEST

/* ---- re-check and timeout ---- */

START_TEST(blocked_acquire_is_rechecked_on_a_semaphore_write_not_the_timer)
{
	struct rtl_semt t;
	long r, k;

	rtl_semt_init(&t, 0);
	/* the timer would not fire within this test */
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, 1u << 30);
	submit_acquire(&t, t.a, PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 7);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	ppu_sim_clock(t.env->sim, 20000);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid), 1);
	ck_assert_uint_eq(rtl_chan_state(t.a), PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);

	/* a write to another semaphore: re-checked at once, still failing */
	submit_release(&t, t.b, 0x40, 0, 1);
	ck_assert_int_eq(rtl_chan_wait(t.b, WAIT_CYCLES), 0);
	ppu_sim_clock(t.env->sim, 500);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid), 2);
	ck_assert_uint_eq(rtl_chan_state(t.a), PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);

	/* the awaited value */
	submit_release(&t, t.b, 0, 0, 7);
	ck_assert_int_eq(rtl_wait_all(t.both, 2, 5000), 0);
	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.b->chid, 0);
	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.b->chid, r + 1);
	k = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	ck_assert_int_ge(r, 0);
	ck_assert_int_gt(k, r);
	ck_assert_uint_lt(t.env->ev[k].cycle - t.env->ev[r].cycle, 500);
	ck_assert_uint_eq(t.env->ev[k].b, 7);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), MARK);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(acquire_timeout_faults_only_the_waiting_channel)
{
	enum { TIMEOUT = 3000, RETRY = 100, LEN = 4096, NCOPY = 6 };
	struct rtl_semt t;
	struct rtl_buf src, dst[NCOPY];
	static uint8_t pat[LEN], got[LEN];
	uint32_t buf[64], info;
	struct ppu_pb pb;
	long f, fail;
	int i;

	rtl_semt_init(&t, 0);
	src = rtl_buf_alloc(t.ctx, 0, LEN);
	for (i = 0; i < NCOPY; i++)
		dst[i] = rtl_buf_alloc(t.ctx, 0, LEN);
	for (i = 0; i < LEN; i++)
		pat[i] = (uint8_t)(i ^ (i >> 5));
	rtl_buf_write(t.env, &src, 0, pat, LEN);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_TIMEOUT, TIMEOUT);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, RETRY);
	rtl_buf_wr32(t.env, &t.sem, 0, 0x42);

	submit_acquire(&t, t.a, PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 1);
	/* B copies while A waits */
	for (i = 0; i < NCOPY / 2; i++) {
		ppu_pb_init(&pb, buf, 64);
		ppu_pb_copy(&pb, src.va, dst[i].va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
			    t.sem.va + 0x100 + 4 * i, 0x100 + i, 0);
		rtl_submit_pb(t.b, &pb);
	}
	ck_assert_int_eq(rtl_chan_wait(t.a, WAIT_CYCLES), 1);

	info = rtl_chan_reg(t.a, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_ACQ_TIMEOUT);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_SEM);
	ck_assert_uint_eq(rtl_chan_reg(t.a, PPU_CHAN_FAULT_ADDR), t.sem.va);
	ck_assert_uint_eq(rtl_chan_reg(t.a, PPU_CHAN_FAULT_DATA), 0x42);
	ck_assert_uint_eq(rtl_chan_state(t.a), PPU_CHAN_STATUS_STATE_FAULTED);
	f = rtl_log_find(t.env, PPU_TRACE_FAULT, t.a->chid, 0);
	fail = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid, 0);
	ck_assert_int_ge(f, 0);
	ck_assert_int_ge(fail, 0);
	ck_assert_uint_eq(t.env->ev[f].a, info);
	/* not before the timeout, and at the first re-check after it */
	ck_assert_uint_ge(t.env->ev[f].cycle - t.env->ev[fail].cycle, TIMEOUT);
	ck_assert_uint_le(t.env->ev[f].cycle - t.env->ev[fail].cycle, TIMEOUT + RETRY + 1000);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), 0);

	/* B goes on working, before and after A's fault */
	for (i = NCOPY / 2; i < NCOPY; i++) {
		ppu_pb_init(&pb, buf, 64);
		ppu_pb_copy(&pb, src.va, dst[i].va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
			    t.sem.va + 0x100 + 4 * i, 0x100 + i, 0);
		rtl_submit_pb(t.b, &pb);
	}
	ck_assert_int_eq(rtl_chan_wait(t.b, WAIT_CYCLES), 0);
	for (i = 0; i < NCOPY; i++) {
		rtl_buf_read(t.env, &dst[i], 0, got, LEN);
		ck_assert_msg(memcmp(got, pat, LEN) == 0, "copy %d", i);
		ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, 0x100 + 4 * i), 0x100 + i);
	}
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_COPY_END, t.b->chid), NCOPY);
	ck_assert_uint_eq(rtl_reg_read(t.env, PPU_REG_FAULT_PENDING), 1u << t.a->chid);
	ck_assert_uint_eq(rtl_chan_state(t.a), PPU_CHAN_STATUS_STATE_FAULTED);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_FAULT, -1), 1);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(blocked_acquire_at_the_end_of_an_entry_resumes_with_the_next_entry)
{
	struct rtl_semt t;
	uint32_t buf[32];
	struct ppu_pb pb;
	long k, m;

	rtl_semt_init(&t, 0);
	/* entry 0: only the acquire; entry 1: the marker */
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem_acquire(&pb, t.sem.va, 3);
	rtl_queue_pb(t.a, &pb);
	ppu_pb_init(&pb, buf, 32);
	ppu_pb_sem_release(&pb, t.sem.va + MARK_OFF, MARK);
	rtl_chan_push_entry(t.a, rtl_chan_pb_put(t.a, pb.dw, pb.len), pb.len);
	rtl_chan_doorbell(t.a);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	ppu_sim_clock(t.env->sim, 1000);
	/* the PPU never fetches past a blocking acquire */
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_GP_FETCH, t.a->chid), 1);
	ck_assert_uint_eq(rtl_chan_reg(t.a, PPU_CHAN_GP_GET), 0);

	submit_release(&t, t.b, 0, 0, 3);
	ck_assert_int_eq(rtl_wait_all(t.both, 2, WAIT_CYCLES), 0);
	k = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	m = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.a->chid, 0);
	ck_assert_int_ge(k, 0);
	ck_assert_int_gt(m, k);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_GP_FETCH, t.a->chid), 2);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_METHOD, t.a->chid), 10);
	ck_assert_uint_eq(rtl_chan_reg(t.a, PPU_CHAN_GP_GET), 2);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), MARK);
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_FAULT, -1), 0);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(blocked_acquire_is_rechecked_when_a_copy_releases_its_semaphore)
{
	enum { LEN = 16384 };
	struct rtl_semt t;
	struct rtl_buf src, dst;
	static uint8_t pat[LEN], got[LEN];
	uint32_t buf[64];
	struct ppu_pb pb;
	long r, k;
	int i;

	rtl_semt_init(&t, 0);
	src = rtl_buf_alloc(t.ctx, 0, LEN);
	dst = rtl_buf_alloc(t.ctx, 0, LEN);
	for (i = 0; i < LEN; i++)
		pat[i] = (uint8_t)(i * 3 + 11);
	rtl_buf_write(t.env, &src, 0, pat, LEN);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, 1u << 30);

	/* A waits for B's copy through B's completion semaphore */
	submit_acquire(&t, t.a, PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 0xd0e);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	ppu_pb_init(&pb, buf, 64);
	ppu_pb_copy(&pb, src.va, dst.va, LEN, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, t.sem.va, 0xd0e,
		    0);
	rtl_submit_pb(t.b, &pb);
	ck_assert_int_eq(rtl_wait_all(t.both, 2, WAIT_CYCLES), 0);

	r = rtl_log_find(t.env, PPU_TRACE_SEM_RELEASE, t.b->chid, 0);
	k = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 0);
	ck_assert_int_ge(r, 0);
	ck_assert_int_gt(k, r);
	ck_assert_uint_lt(t.env->ev[k].cycle - t.env->ev[r].cycle, 500);
	/* only the first evaluation failed: no timer-driven re-checks */
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid), 1);
	rtl_buf_read(t.env, &dst, 0, got, LEN);
	ck_assert(memcmp(got, pat, LEN) == 0);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), MARK);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(acquire_that_passed_on_recheck_survives_an_interrupted_service)
{
	struct rtl_semt t;
	struct rtl_chan *c;
	uint32_t buf[512], st_after_ok;
	struct ppu_pb pb;
	int i, k, rc;

	rtl_semt_init(&t, 0);
	c = rtl_chan_create(t.env, t.ctx, 2, 4, 0);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, 1u << 30);
	rtl_ring_all(&c, 1, WAIT_CYCLES);

	/* A: acquire, 16 NOP headers, marker */
	ppu_pb_init(&pb, buf, 512);
	ppu_pb_sem_acquire(&pb, t.sem.va, 1);
	for (i = 0; i < 16; i++) {
		ppu_pb_push(&pb, ppu_mthd(PPU_MTHD_OP_NONINC, PPU_HOST_NOP, 16));
		for (k = 0; k < 16; k++)
			ppu_pb_push(&pb, 0);
	}
	ppu_pb_sem_release(&pb, t.sem.va + MARK_OFF, MARK);
	rtl_submit_pb(t.a, &pb);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	submit_release(&t, t.b, 0, 0, 1);
	rtl_expect_event(t.env, PPU_TRACE_SEM_ACQ_OK, t.a->chid, 1, WAIT_CYCLES);
	st_after_ok = rtl_chan_state(t.a);
	/* a doorbell elsewhere interrupts A's service at a method boundary */
	rtl_chan_doorbell(c);
	rc = rtl_chan_wait(t.a, 100000);
	ck_assert_msg(rc == 0,
		      "A stuck after its acquire passed: wait %d, state %u, %zu methods run",
		      rc, rtl_chan_state(t.a), rtl_log_count(t.env, PPU_TRACE_METHOD, t.a->chid));
	ck_assert_uint_eq(rtl_log_count(t.env, PPU_TRACE_METHOD, t.a->chid), 5 + 16 * 16 + 5);
	ck_assert_uint_eq(rtl_buf_rd32(t.env, &t.sem, MARK_OFF), MARK);
	/* and the acquire that passed is not reported as blocked */
	ck_assert_uint_ne(st_after_ok, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);
	rtl_chan_destroy(c);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(maximum_retry_interval_does_not_recheck_a_blocked_acquire_early)
{
	struct rtl_semt t;

	rtl_semt_init(&t, 0);
	/* "re-check after this many cycles": 0xffffffff is about 4e9 cycles */
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, 0xffffffffu);
	submit_acquire(&t, t.a, PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 1);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	ppu_sim_clock(t.env->sim, 20000);
	ck_assert_msg(rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid) == 1,
		      "%zu acquire evaluations in 20000 cycles with SCHED_ACQ_RETRY = 0xffffffff",
		      rtl_log_count(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid));
	rtl_semt_fini(&t);
}
END_TEST

/*
 * One retry tick serves every blocked channel: a channel is re-checked
 * once it has been blocked across a whole interval, so between
 * SCHED_ACQ_RETRY and twice that after its last failed check.
 */
START_TEST(blocked_acquire_is_rechecked_between_one_and_two_retry_intervals)
{
	enum { RETRY = 1000, RUN = 20000, SERVICE = 200 };
	struct rtl_semt t;
	uint64_t prev = 0;
	size_t i, n = 0;

	rtl_semt_init(&t, 0);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, RETRY);
	submit_acquire(&t, t.a, PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 1);
	rtl_expect_state(t.a, PPU_CHAN_STATUS_STATE_ACQ_BLOCKED, 8, WAIT_CYCLES);
	ppu_sim_clock(t.env->sim, RUN);
	for (i = 0; i < t.env->nev; i++) {
		if (t.env->ev[i].kind != PPU_TRACE_SEM_ACQ_FAIL || t.env->ev[i].chid != t.a->chid)
			continue;
		if (n++) {
			ck_assert_uint_ge(t.env->ev[i].cycle - prev, RETRY);
			ck_assert_uint_le(t.env->ev[i].cycle - prev, 2 * RETRY + SERVICE);
		}
		prev = t.env->ev[i].cycle;
	}
	/* ~20 intervals: at least one re-check per two of them */
	ck_assert_uint_ge(n, RUN / (2 * RETRY + SERVICE));
	ck_assert_uint_eq(rtl_chan_state(t.a), PPU_CHAN_STATUS_STATE_ACQ_BLOCKED);
	rtl_semt_fini(&t);
}
END_TEST

START_TEST(acquire_timeout_fires_even_when_the_retry_interval_is_longer)
{
	enum { TIMEOUT = 3000 };
	struct rtl_semt t;
	uint64_t t0;
	long f, fail;

	rtl_semt_init(&t, 0);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_TIMEOUT, TIMEOUT);
	rtl_reg_write(t.env, PPU_REG_SCHED_ACQ_RETRY, 1u << 30);
	submit_acquire(&t, t.a, PPU_SEM_EXECUTE_OPERATION_ACQUIRE, 0, 1);
	t0 = ppu_sim_cycles(t.env->sim);
	/* SCHED_ACQ_TIMEOUT bounds the wait: well within 10 timeouts */
	ck_assert_msg(rtl_chan_wait(t.a, 10 * TIMEOUT) == 1,
		      "no ACQ_TIMEOUT fault %llu cycles into a %u-cycle timeout",
		      (unsigned long long)(ppu_sim_cycles(t.env->sim) - t0), TIMEOUT);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, rtl_chan_reg(t.a, PPU_CHAN_FAULT_INFO)),
			  PPU_FAULT_KIND_ACQ_TIMEOUT);
	f = rtl_log_find(t.env, PPU_TRACE_FAULT, t.a->chid, 0);
	fail = rtl_log_find(t.env, PPU_TRACE_SEM_ACQ_FAIL, t.a->chid, 0);
	ck_assert_int_ge(f, 0);
	ck_assert_int_ge(fail, 0);
	ck_assert_uint_ge(t.env->ev[f].cycle - t.env->ev[fail].cycle, TIMEOUT);
	ck_assert_uint_le(t.env->ev[f].cycle - t.env->ev[fail].cycle, TIMEOUT + 1000);
	rtl_semt_fini(&t);
}
END_TEST

Suite *suite_sem(void)
{
	Suite *s = suite_create("sem");
	TCase *acq = tcase_create("acquire");
	TCase *rel = tcase_create("release");
	TCase *red = tcase_create("reduction");
	TCase *sch = tcase_create("recheck_timeout");

	tcase_set_timeout(acq, RTL_TEST_TIMEOUT);
	tcase_add_test(acq, acquire_eq_passes_at_once_on_equal_value);
	tcase_add_test(acq, acquire_strict_geq_passes_at_once_on_equal_and_unsigned_greater);
	tcase_add_test(acq, acquire_circ_geq_passes_at_once_across_wraparound);
	tcase_add_test(acq, acquire_and_passes_at_once_on_a_common_bit);
	tcase_add_test(acq, acquire_64bit_compares_the_upper_half_too);
	tcase_add_loop_test(acq, acquire_blocks_until_another_channel_releases, 0,
			    sizeof(blocked_acquires) / sizeof(blocked_acquires[0]));
	suite_add_tcase(s, acq);

	tcase_set_timeout(rel, RTL_TEST_TIMEOUT);
	tcase_add_test(rel, release_32bit_and_64bit_write_exactly_their_bytes);
	tcase_add_test(rel, timestamped_release_writes_sem16_with_monotonic_timestamps);
	tcase_add_test(rel, copy_completion_release_lands_after_the_copy);
	tcase_add_test(rel, copy_completion_release_timestamp_writes_sem16);
	suite_add_tcase(s, rel);

	tcase_set_timeout(red, RTL_TEST_TIMEOUT);
	tcase_add_loop_test(red, reductions_write_and_trace_their_results, 0,
			    sizeof(red_groups) / sizeof(red_groups[0]));
	suite_add_tcase(s, red);

	tcase_set_timeout(sch, RTL_TEST_TIMEOUT);
	tcase_add_test(sch, blocked_acquire_is_rechecked_on_a_semaphore_write_not_the_timer);
	tcase_add_test(sch, acquire_timeout_faults_only_the_waiting_channel);
	tcase_add_test(sch, blocked_acquire_at_the_end_of_an_entry_resumes_with_the_next_entry);
	tcase_add_test(sch, blocked_acquire_is_rechecked_when_a_copy_releases_its_semaphore);
	tcase_add_test(sch, acquire_that_passed_on_recheck_survives_an_interrupted_service);
	tcase_add_test(sch, maximum_retry_interval_does_not_recheck_a_blocked_acquire_early);
	tcase_add_test(sch, acquire_timeout_fires_even_when_the_retry_interval_is_longer);
	tcase_add_test(sch, blocked_acquire_is_rechecked_between_one_and_two_retry_intervals);
	suite_add_tcase(s, sch);
	return s;
}
