// SPDX-License-Identifier: MIT
/*
 * Random pushbuffers (suite random_pb).  Each round builds a PPU with a
 * victim channel copying random data and one to three channels of other
 * contexts fed random and mutated streams (tests/common/ppu_randpb.c):
 * bad headers, opcodes and subchannels, unmapped and foreign VAs, random
 * copy sizes, bad GPFIFO entries and GP_PUT values.  Every round must end,
 * within a bound, with each random channel complete or faulted, the victim
 * unfaulted and its data byte for byte, and the invariant checkers of
 * hw/chk silent (rtl_env_finish).
 *
 * Seeded: each test prints its first seed; PPU_RANDPB_SEED=S replays from
 * round seed S, PPU_RANDPB_ROUNDS=N runs N rounds per test.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/ppu_randpb.h"
#include "rtl_check.h"
#include "rtl_suites.h"

#define ROUND_CYCLES 3000000ull	/* a round that takes longer is a hang */
#define ACQ_TIMEOUT 20000u	/* a random acquire blocks no longer */
#define MAX_RAND 3
#define PB_DW 512
#define VICTIM_MAX (48u * 1024)

struct rand_chan {
	struct rtl_ctx *ctx;
	struct rtl_chan *ch;
	struct rtl_buf buf, sem;
	uint32_t bad[8];
	struct ppu_randpb_space sp;
	uint32_t gp_put;	/* what USERD.GP_PUT says */
};

static uint64_t env_u64(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

/* 1 when @ch has run all it was given or faulted (its CHAN_STATUS). */
static int settled(struct rtl_chan *ch, int *faulted)
{
	uint32_t st = rtl_chan_state(ch);

	*faulted = st == PPU_CHAN_STATUS_STATE_FAULTED;
	if (*faulted)
		return 1;
	return st == PPU_CHAN_STATUS_STATE_IDLE &&
	       rtl_chan_reg(ch, PPU_CHAN_GP_GET) == rtl_chan_reg(ch, PPU_CHAN_GP_PUT);
}

static void rand_chan_setup(struct rtl_env *env, struct ppu_randpb *r, struct rand_chan *rc,
			    unsigned int chid, const uint32_t *victim_va, unsigned int nvictim)
{
	unsigned int i, log2 = 2 + ppu_randpb_below(r, 4), n, nb = 0;
	uint32_t put = 0, mask = (1u << log2) - 1;

	rc->ctx = rtl_ctx_create(env);
	rc->ch = rtl_chan_create(env, rc->ctx, chid, log2, 0);
	rc->buf = rtl_buf_alloc(rc->ctx, ppu_randpb_below(r, 2), 64 * 1024);
	rc->sem = rtl_buf_alloc(rc->ctx, ppu_randpb_below(r, 2), 4096);
	/* the victim's VA numbers (meaningless here), unmapped VA, the ring */
	for (i = 0; i < nvictim; i++)
		rc->bad[nb++] = victim_va[i];
	rc->bad[nb++] = rtl_va_reserve(rc->ctx, 64 * 1024);
	rc->bad[nb++] = rc->ch->gpfifo.va;
	rc->bad[nb++] = 0;
	memset(&rc->sp, 0, sizeof(rc->sp));
	rc->sp.buf_va = rc->buf.va;
	rc->sp.buf_size = rc->buf.size;
	rc->sp.sem_va = rc->sem.va;
	rc->sp.bad_va = rc->bad;
	rc->sp.nbad = nb;
	rc->sp.subch = PPU_MTHD_SUBCH_ENGINE;

	n = 1 + ppu_randpb_below(r, mask);	/* the ring holds mask entries */
	for (i = 0; i < n; i++) {
		uint32_t dw[PB_DW], e[2], len, va;
		unsigned int m;

		len = ppu_randpb_stream(r, &rc->sp, 1 + ppu_randpb_below(r, 12), dw, PB_DW, &m);
		va = rtl_chan_pb_put(rc->ch, dw, len ? len : 1);
		ppu_randpb_entry(r, &rc->sp, e, va, len);
		rtl_buf_write(env, &rc->ch->gpfifo, put * 8, e, 8);
		put = (put + 1) & mask;
	}
	rc->gp_put = ppu_randpb_gp_put(r, put, log2);
	rtl_userd_wr32(rc->ch, PPU_USERD_GP_PUT, rc->gp_put);
}

/* One round; returns the number of random channels that faulted. */
static unsigned int round_run(uint64_t seed, unsigned int mutate_pct)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct ppu_randpb r = { .mutate_pct = mutate_pct };
	struct rand_chan rc[MAX_RAND];
	struct rtl_ctx *vctx;
	struct rtl_chan *vch;
	struct rtl_buf vsrc, vdst, vsem;
	uint8_t *img, *before;
	uint32_t vlen, soff, doff, victim_va[3];
	unsigned int i, nrand, vchid, faults = 0, done_mask = 0, order[MAX_RAND + 1];
	uint64_t t0;
	uint32_t dw[64];
	struct ppu_pb pb;

	ppu_randpb_seed(&r, seed);
	rtl_rnd_seed((uint32_t)seed | 1, 0);
	rtl_reg_write(env, PPU_REG_SCHED_ACQ_TIMEOUT, ACQ_TIMEOUT);

	/* the victim: one known-good copy and its completion release */
	vchid = ppu_randpb_below(&r, 16);
	vctx = rtl_ctx_create(env);
	vch = rtl_chan_create(env, vctx, vchid, 3, 0);
	vsrc = rtl_buf_alloc(vctx, ppu_randpb_below(&r, 2), VICTIM_MAX + 64);
	vdst = rtl_buf_alloc(vctx, ppu_randpb_below(&r, 2), VICTIM_MAX + 128);
	vsem = rtl_buf_alloc(vctx, 0, 4096);
	img = rtl_buf_randomize(env, &vsrc);
	before = rtl_buf_randomize(env, &vdst);
	vlen = 4096 + ppu_randpb_below(&r, VICTIM_MAX - 4096);
	soff = ppu_randpb_below(&r, 64);
	doff = ppu_randpb_below(&r, 64);
	ppu_pb_init(&pb, dw, 64);
	ppu_pb_copy(&pb, vsrc.va + soff, vdst.va + doff, vlen, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE,
		    vsem.va, 0x600d, 0);
	rtl_queue_pb(vch, &pb);
	victim_va[0] = vsrc.va;
	victim_va[1] = vdst.va;
	victim_va[2] = vsem.va;

	nrand = 1 + ppu_randpb_below(&r, MAX_RAND);
	for (i = 0; i < nrand; i++) {
		unsigned int chid = (vchid + 1 + i + ppu_randpb_below(&r, 4) * MAX_RAND) % 16;

		rand_chan_setup(env, &r, &rc[i], chid, victim_va, 3);
	}

	/* doorbells in a random order, some cycles apart */
	t0 = ppu_sim_cycles(env->sim);
	for (i = 0; i <= nrand; i++)
		order[i] = i;
	for (i = nrand; i > 0; i--) {
		unsigned int k = ppu_randpb_below(&r, i + 1), t = order[i];

		order[i] = order[k];
		order[k] = t;
	}
	for (i = 0; i <= nrand; i++) {
		rtl_chan_doorbell(order[i] == nrand ? vch : rc[order[i]].ch);
		ppu_sim_clock(env->sim, ppu_randpb_below(&r, 200));
	}
	/* now and then a second doorbell of a random channel, mid-run */
	if (ppu_randpb_chance(&r, 30)) {
		ppu_sim_clock(env->sim, ppu_randpb_below(&r, 3000));
		rtl_chan_doorbell(rc[ppu_randpb_below(&r, nrand)].ch);
	}

	for (;;) {
		int f, all = 1;

		for (i = 0; i < nrand; i++) {
			if (done_mask & (1u << i))
				continue;
			if (settled(rc[i].ch, &f)) {
				done_mask |= 1u << i;
				faults += f;
			} else {
				all = 0;
			}
		}
		if (all && settled(vch, &f))
			break;
		ck_assert_msg(ppu_sim_cycles(env->sim) - t0 < ROUND_CYCLES,
			      "seed %llu: hung: random channels done 0x%x of %u, victim state %u",
			      (unsigned long long)seed, done_mask, nrand, rtl_chan_state(vch));
		ppu_sim_clock(env->sim, 500);
	}

	ck_assert_msg(rtl_chan_state(vch) != PPU_CHAN_STATUS_STATE_FAULTED,
		      "seed %llu: the victim faulted (info 0x%x addr 0x%x)", (unsigned long long)seed,
		      rtl_chan_reg(vch, PPU_CHAN_FAULT_INFO), rtl_chan_reg(vch, PPU_CHAN_FAULT_ADDR));
	memcpy(before + doff, img + soff, vlen);
	rtl_expect_buf(env, &vdst, 0, before, vdst.size);
	ck_assert_uint_eq(rtl_buf_rd32(env, &vsem, 0), 0x600d);
	ck_assert_msg(rtl_check_errors(env) == 0, "seed %llu: %llu checker failures",
		      (unsigned long long)seed, (unsigned long long)rtl_check_errors(env));

	for (i = 0; i < nrand; i++) {
		rtl_chan_destroy(rc[i].ch);
		rtl_ctx_destroy(rc[i].ctx);
	}
	rtl_chan_destroy(vch);
	rtl_ctx_destroy(vctx);
	free(img);
	free(before);
	rtl_env_finish(env);
	return faults;
}

static void rounds(const char *name, uint64_t def_seed, unsigned int def_rounds,
		   unsigned int mutate_pct)
{
	uint64_t seed = env_u64("PPU_RANDPB_SEED", def_seed);
	unsigned int n = (unsigned int)env_u64("PPU_RANDPB_ROUNDS", def_rounds), i, faults = 0;

	printf("random_pb %s: seed %llu, %u rounds (PPU_RANDPB_SEED, PPU_RANDPB_ROUNDS)\n", name,
	       (unsigned long long)seed, n);
	fflush(stdout);
	for (i = 0; i < n; i++)
		faults += round_run(seed + i, mutate_pct);
	printf("random_pb %s: %u rounds, %u random channels faulted\n", name, n, faults);
}

START_TEST(random_streams_fault_only_their_channels)
{
	rounds("mild", 1, 40, 30);
}
END_TEST

START_TEST(heavily_mutated_streams_fault_only_their_channels)
{
	rounds("heavy", 1001, 40, 80);
}
END_TEST

/*
 * Each checker, told to enforce a wrong rule (ppu_sim_set_check_selftest),
 * reports a plain copy with a completion release: the checkers run and
 * their reports reach the test.  Without the self-test the copy is clean.
 */
static uint64_t selftest_copy(uint32_t mask)
{
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 5, 3, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 1, 8192), dst = rtl_buf_alloc(ctx, 0, 8192);
	struct rtl_buf sem = rtl_buf_alloc(ctx, 0, 4096);
	uint32_t dw[32];
	struct ppu_pb pb;
	uint64_t n;

	ppu_sim_set_check_selftest(env->sim, mask);
	ppu_pb_init(&pb, dw, 32);
	ppu_pb_copy(&pb, src.va + 3, dst.va + 5, 5000, PPU_LAUNCH_DMA_SEMAPHORE_RELEASE, sem.va, 1,
		    0);
	ppu_pb_sem_release(&pb, sem.va + 8, 2);
	rtl_submit_and_wait(ch, &pb, 200000);
	n = rtl_check_errors(env);
	env->check_errors_ok = 1;
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return n;
}

START_TEST(every_checker_fires_on_a_wrong_rule)
{
	static const uint32_t masks[] = { 1, 2, 4, 8 };	/* copy, semaphore, MMU, host */
	size_t i;

	ck_assert_uint_eq(selftest_copy(0), 0);
	for (i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
		ck_assert_msg(selftest_copy(masks[i]) > 0, "self-test 0x%x: no failure reported",
			      masks[i]);
}
END_TEST

Suite *suite_random_pb(void)
{
	Suite *s = suite_create("random_pb");
	TCase *tc = tcase_create("random_pb");

	tcase_set_timeout(tc, RTL_TEST_TIMEOUT);
	tcase_add_test(tc, every_checker_fires_on_a_wrong_rule);
	tcase_add_test(tc, random_streams_fault_only_their_channels);
	tcase_add_test(tc, heavily_mutated_streams_fault_only_their_channels);
	suite_add_tcase(s, tc);
	return s;
}
