// SPDX-License-Identifier: MIT
/*
 * Device-side launches (dynamic parallelism) in the whole PPU: a running
 * thread launches a child TMD with the LAUNCH ecall; the child runs at the
 * parent's priority + 1 and depth + 1; a launch past the channel's max
 * nesting depth fails with EDEPTH and is counted; a task completes (its
 * semaphore released) only after its children, also when it never waits;
 * WAIT_CHILDREN returns once the CTA's children are done, with their
 * writes visible (SEEDS §A device side, §D).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu/ppu_encode.h"
#include "rtl_check.h"
#include "rtl_env.h"
#include "rtl_suites.h"
#include "rtl_compute.h"
#include "../../runtime/device/samples/samples.h"

enum { MAX_LEVELS = 8 };

struct chain {
	struct rtl_env *env;
	struct rtl_ctx *ctx;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	struct rtl_buf tmds, out;
	struct rtl_klaunch l[MAX_LEVELS];
	struct nest_params p[MAX_LEVELS];
	unsigned int levels;
	uint32_t bad1;		/* nonzero: tmds[1] (the first child's TMD VA) instead */
	uint32_t bad1_faults;	/* ... and the TMD read faults the channel */
};

/* Submits @l on @ch and waits for it: no fault. */
static void run_one(struct rtl_chan *ch, const struct rtl_klaunch *l, uint64_t max_cycles)
{
	rtl_klaunch_submit(ch, l, 0, 0);
	ck_assert_int_eq(rtl_chan_wait(ch, max_cycles), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
}

/* No protocol error, then everything freed. */
static void finish(struct rtl_env *env, struct rtl_ctx *ctx, struct rtl_kimage *k,
		   struct rtl_chan *ch)
{
	ck_assert_uint_eq(rtl_protocol_errors(env), 0);
	rtl_chan_destroy(ch);
	rtl_kimage_free(k);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

/*
 * (@c zeroed but for bad1 and bad1_faults)
 * @levels positions of the nest kernel, the first launched by the host at
 * @prio on a channel with max nesting depth @max_depth; every position
 * waits for its children if @wait and spins @spin rounds before it ends.
 */
static void chain_run(struct chain *c, unsigned int levels, uint32_t prio, uint32_t max_depth,
		      uint32_t wait, uint32_t spin)
{
	uint32_t va[MAX_LEVELS];
	unsigned int i;

	ck_assert_uint_le(levels, MAX_LEVELS);
	uint32_t bad1 = c->bad1, bad1_faults = c->bad1_faults;

	memset(c, 0, sizeof(*c));
	c->bad1 = bad1;
	c->bad1_faults = bad1_faults;
	c->levels = levels;
	c->env = rtl_env_create(NULL);
	c->ctx = rtl_ctx_create(c->env);
	rtl_kimage_load(c->ctx, "nest", &c->k);
	c->tmds = rtl_buf_alloc(c->ctx, 0, sizeof(va));
	c->out = rtl_buf_alloc(c->ctx, 0, levels * NEST_OUT_WORDS * 4);
	for (i = 0; i < levels; i++) {
		c->p[i] = (struct nest_params){ .level = i, .levels = levels, .tmds = c->tmds.va,
						.out = c->out.va, .wait = wait, .spin = spin };
		rtl_klaunch_init(&c->l[i], rtl_kimage_fn(&c->k, "nest"), 1, 1, &c->p[i],
				 sizeof(c->p[i]));
		/* children: the hardware sets the priority, this one must not matter */
		c->l[i].prio = i ? 63 : prio;
		rtl_klaunch_prepare(c->ctx, &c->l[i], 0x100 + i);
		va[i] = c->l[i].tmd.va;
	}
	rtl_buf_write(c->env, &c->tmds, 0, va, sizeof(va));
	/* (a channel's bounds leave its children room: MAX + N - 1 <= 63) */
	c->ch = rtl_cchan_create(c->env, c->ctx, 1, 0, prio, max_depth);
	if (c->bad1)
		rtl_buf_wr32(c->env, &c->tmds, 4, c->bad1);
	rtl_klaunch_submit(c->ch, &c->l[0], 0, 0);
	ck_assert_int_eq(rtl_chan_wait(c->ch, 4000000), (c->bad1_faults ? 1 : 0));
	if (!c->bad1_faults)
		ck_assert_uint_eq(rtl_chan_reg(c->ch, PPU_CHAN_FAULT_INFO), 0);
}

static void chain_end(struct chain *c)
{
	finish(c->env, c->ctx, &c->k, c->ch);
}

static uint32_t out_word(struct chain *c, unsigned int level, unsigned int w)
{
	return rtl_buf_rd32(c->env, &c->out, (level * NEST_OUT_WORDS + w) * 4);
}

/* Completion semaphore of position @i: {payload, 0, timestamp lo, hi}. */
static uint64_t done_at(struct chain *c, unsigned int i)
{
	uint32_t sem[4];

	rtl_buf_read(c->env, &c->l[i].sem, 0, sem, sizeof(sem));
	ck_assert_msg(sem[0] == 0x100 + i, "position %u: completion semaphore 0x%x", i, sem[0]);
	return (uint64_t)sem[3] << 32 | sem[2];
}

/*
 * SEEDS §A device side: a chain launched at device priority 4 with N = 4
 * runs its children at 5, 6 and 7 (depths 2, 3, 4); the launch from the
 * task at 7 (depth 4 = N) fails with EDEPTH, is counted, and runs nothing.
 * No task waits, yet every parent completes after its child.
 */
START_TEST(children_run_at_parent_plus_one_up_to_the_depth_limit)
{
	struct chain c = { 0 };
	unsigned int i;

	chain_run(&c, 5, 4, 4, 0, 200);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(out_word(&c, i, NEST_PRIO), 4 + i);
		ck_assert_uint_eq(out_word(&c, i, NEST_DEPTH), 1 + i);
		ck_assert_uint_eq(out_word(&c, i, NEST_STATUS),
				  i < 3 ? PPU_ECALL_STATUS_OK : PPU_ECALL_STATUS_EDEPTH);
	}
	/* position 4 never ran */
	ck_assert_uint_eq(out_word(&c, 4, NEST_PRIO), 0);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCHES), 3);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCH_DEPTH_ERRORS), 1);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCH_ERRORS), 0);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_TASKS_COMPLETED), 4);
	ck_assert_uint_eq(rtl_log_count(c.env, PPU_TRACE_TASK_LAUNCH, -1), 4);
	ck_assert_uint_eq(rtl_log_count(c.env, PPU_TRACE_LAUNCH_FAIL, -1), 1);
	/* implicit synchronisation: each parent's release after its child's */
	for (i = 0; i + 1 < 4; i++)
		ck_assert_uint_gt(done_at(&c, i), done_at(&c, i + 1));
	chain_end(&c);
}
END_TEST

/* M = 64 and N = 64 (launched at 0): all of a chain of six runs. */
START_TEST(a_deep_limit_lets_the_whole_chain_run)
{
	struct chain c = { 0 };
	unsigned int i;

	chain_run(&c, 6, 0, 64, 0, 0);
	for (i = 0; i < 6; i++) {
		ck_assert_uint_eq(out_word(&c, i, NEST_PRIO), i);
		ck_assert_uint_eq(out_word(&c, i, NEST_DEPTH), 1 + i);
		ck_assert_uint_eq(out_word(&c, i, NEST_STATUS),
				  i < 5 ? PPU_ECALL_STATUS_OK : NEST_NO_LAUNCH);
	}
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCHES), 5);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCH_DEPTH_ERRORS), 0);
	for (i = 0; i + 1 < 6; i++)
		ck_assert_uint_gt(done_at(&c, i), done_at(&c, i + 1));
	chain_end(&c);
}
END_TEST

/*
 * WAIT_CHILDREN: every position waits for its child and then reads what the
 * child wrote (its priority); the wait returns 0, also where there is no
 * child to wait for.
 */
START_TEST(wait_children_sees_the_childrens_writes)
{
	struct chain c = { 0 };
	unsigned int i;

	chain_run(&c, 4, 20, 8, 1, 300);
	/* each waiting parent gave up its context while its child ran */
	ck_assert_uint_ge(rtl_perf_read(c.env, PPU_PERF_WAIT_SAVES), 3);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(out_word(&c, i, NEST_PRIO), 20 + i);
		ck_assert_uint_eq(out_word(&c, i, NEST_WAIT_RET), 0);
		ck_assert_uint_eq(out_word(&c, i, NEST_CHILD_PRIO), i < 3 ? 21 + i : 0);
	}
	for (i = 0; i + 1 < 4; i++)
		ck_assert_uint_gt(done_at(&c, i), done_at(&c, i + 1));
	chain_end(&c);
}
END_TEST

/*
 * A child TMD the thread got wrong is its error, not the channel's: a
 * misaligned TMD VA and TMD words that fail the checks return EINVAL,
 * counted, and the parent goes on; a TMD on an unmapped page faults the
 * channel like any bad access (unit TASKS), and the thread gets EINVAL.
 */
START_TEST(bad_child_tmds_are_the_threads_error)
{
	struct chain c;
	uint32_t info;

	memset(&c, 0, sizeof(c));
	c.bad1 = 0x1000020;			/* not 64-byte aligned */
	chain_run(&c, 2, 5, 4, 0, 0);
	ck_assert_uint_eq(out_word(&c, 0, NEST_STATUS), PPU_ECALL_STATUS_EINVAL);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCH_ERRORS), 1);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_TASKS_COMPLETED), 1);
	chain_end(&c);

	/* a chain that ran, run again with the child's GRID_X made 0 */
	memset(&c, 0, sizeof(c));
	chain_run(&c, 2, 5, 4, 0, 0);
	rtl_buf_wr32(c.env, &c.l[1].tmd, PPU_TMD_GRID_X, 0);
	rtl_klaunch_submit(c.ch, &c.l[0], 0, 0);
	ck_assert_int_eq(rtl_chan_wait(c.ch, 4000000), 0);
	ck_assert_uint_eq(rtl_chan_reg(c.ch, PPU_CHAN_FAULT_INFO), 0);
	ck_assert_uint_eq(out_word(&c, 0, NEST_STATUS), PPU_ECALL_STATUS_EINVAL);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCHES), 1);
	ck_assert_uint_eq(rtl_perf_read(c.env, PPU_PERF_DEV_LAUNCH_ERRORS), 1);
	chain_end(&c);

	memset(&c, 0, sizeof(c));
	c.bad1 = 0x7ff00000;			/* mapped nowhere */
	c.bad1_faults = 1;
	chain_run(&c, 2, 5, 4, 0, 0);
	info = rtl_chan_reg(c.ch, PPU_CHAN_FAULT_INFO);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_UNIT, info), PPU_FAULT_UNIT_TASKS);
	ck_assert_uint_eq(PPU_FGET(PPU_FAULT_INFO_KIND, info), PPU_FAULT_KIND_PTE_NOT_PRESENT);
	ck_assert_uint_eq(rtl_chan_reg(c.ch, PPU_CHAN_FAULT_ADDR), 0x7ff00000);
	chain_end(&c);
}
END_TEST

/*
 * Parents on every context of the PPU, each CTA launching one child and
 * all its threads waiting for it: a CTA whose threads all wait gives up
 * its contexts (saved, SAVED_WAIT, resumed once its child is done, when
 * it runs its WAIT_CHILDREN again), so the children run; every thread
 * then sees its CTA's child's value.  Also with preemption off (odd
 * loops): the waits alone make the room; and with CTAs in waves (loops 2
 * and 3: 2 * contexts + 3 threads, one CTA per unit), whose resident wave
 * waits and leaves the unit with its slot header.
 */
START_TEST(waiting_parents_on_every_context_do_not_deadlock)
{
	enum { MAXC = 32 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t ncu = rtl_reg_read(env, PPU_REG_CAP_NUM_CU);
	uint32_t nctx = rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS);
	uint32_t t = (_i & 2) ? 2 * nctx + 3 : nctx / 2, ctas = ncu * 2, threads = ctas * t;
	struct fanout_child_params cp[MAXC];
	struct rtl_klaunch lc[MAXC], lp;
	struct fanout_params pp;
	struct rtl_buf tmds, slots, res, status;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	uint32_t va[MAXC], i;

	ck_assert_uint_le(ctas, MAXC);
	if (_i & 1)
		rtl_reg_write(env, PPU_REG_TASK_CTRL, PPU_FSET(PPU_TASK_CTRL_NO_PREEMPT, 1));
	rtl_kimage_load(ctx, "fanout", &k);
	tmds = rtl_buf_alloc(ctx, 0, sizeof(va));
	slots = rtl_buf_alloc(ctx, 0, ctas * 4);
	res = rtl_buf_alloc(ctx, 0, threads * 4);
	status = rtl_buf_alloc(ctx, 0, ctas * 4);
	for (i = 0; i < ctas; i++) {
		cp[i] = (struct fanout_child_params){ .slot = slots.va + 4 * i, .value = 0x5000 + i,
						      .spin = 300 };
		rtl_klaunch_init(&lc[i], rtl_kimage_fn(&k, "fanout_child"), 1, 1, &cp[i], sizeof(cp[i]));
		rtl_klaunch_prepare(ctx, &lc[i], 0x200 + i);
		va[i] = lc[i].tmd.va;
	}
	rtl_buf_write(env, &tmds, 0, va, ctas * 4);
	pp = (struct fanout_params){ .tmds = tmds.va, .slots = slots.va, .res = res.va,
				     .status = status.va };
	rtl_klaunch_init(&lp, rtl_kimage_fn(&k, "fanout"), ctas, t, &pp, sizeof(pp));
	lp.prio = 8;
	rtl_klaunch_prepare(ctx, &lp, 0x1ff);
	ch = rtl_cchan_create(env, ctx, 2, 0, 8, 2);
	run_one(ch, &lp, 8000000);

	for (i = 0; i < ctas; i++)
		ck_assert_uint_eq(rtl_buf_rd32(env, &status, 4 * i), PPU_ECALL_STATUS_OK);
	for (i = 0; i < threads; i++)
		ck_assert_msg(rtl_buf_rd32(env, &res, 4 * i) == 0x5000 + i / t,
			      "thread %u: 0x%x", i, rtl_buf_rd32(env, &res, 4 * i));
	ck_assert_uint_eq(rtl_buf_rd32(env, &lp.sem, 0), 0x1ff);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), ctas);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_TASKS_COMPLETED), ctas + 1);
	/* (with NO_PREEMPT the only preemptions are an eviction's: 9 tasks, 8 slots) */
	ck_assert_uint_ge(rtl_perf_read(env, PPU_PERF_WAIT_SAVES) +
			  rtl_perf_read(env, PPU_PERF_PREEMPTIONS), 1);
	if (_i & 1)
		ck_assert_uint_ge(rtl_perf_read(env, PPU_PERF_WAIT_SAVES), 1);
	finish(env, ctx, &k, ch);
}
END_TEST

/*
 * More waiting parents than task slots: ten parent tasks (one CTA each)
 * whose threads all wait for the child their CTA launched, one priority
 * higher.  The children find every slot taken by parents, so parents are
 * evicted (their waiting CTAs saved with them) to make room; an evicted
 * parent waits for all of its task's children from then on, and every
 * thread still sees its own child's value.
 */
START_TEST(waiting_parents_in_every_slot_do_not_deadlock)
{
	enum { P = 10 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t nctx = rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS);
	uint32_t slots_n = rtl_reg_read(env, PPU_REG_CAP_NUM_TASK_SLOTS), t = nctx / 2;
	struct fanout_child_params cp[P];
	struct rtl_klaunch lc[P], lp[P];
	struct fanout_params pp[P];
	struct rtl_buf tmds, slots, res, status;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	uint32_t dw[8 * P + 8], i, j;
	struct ppu_pb pb;

	ck_assert_uint_gt(P, slots_n);
	rtl_kimage_load(ctx, "fanout", &k);
	tmds = rtl_buf_alloc(ctx, 0, P * 4);
	slots = rtl_buf_alloc(ctx, 0, P * 4);
	res = rtl_buf_alloc(ctx, 0, P * t * 4);
	status = rtl_buf_alloc(ctx, 0, P * 4);
	ppu_pb_init(&pb, dw, sizeof(dw) / 4);
	for (i = 0; i < P; i++) {
		cp[i] = (struct fanout_child_params){ .slot = slots.va + 4 * i, .value = 0x700 + i,
						      .spin = 200 };
		rtl_klaunch_init(&lc[i], rtl_kimage_fn(&k, "fanout_child"), 1, 1, &cp[i], sizeof(cp[i]));
		rtl_klaunch_prepare(ctx, &lc[i], 0x300 + i);
		rtl_buf_wr32(env, &tmds, 4 * i, lc[i].tmd.va);
		/* parent i: one CTA, its CTA id 0, so each parent gets its own arrays */
		pp[i] = (struct fanout_params){ .tmds = tmds.va + 4 * i, .slots = slots.va + 4 * i,
						.res = res.va + 4 * t * i, .status = status.va + 4 * i };
		rtl_klaunch_init(&lp[i], rtl_kimage_fn(&k, "fanout"), 1, t, &pp[i], sizeof(pp[i]));
		lp[i].prio = 8;
		rtl_klaunch_prepare(ctx, &lp[i], 0x400 + i);
		ppu_pb_launch(&pb, lp[i].tmd.va);
	}
	ppu_pb_method(&pb, PPU_HOST_WFI, 0);
	ch = rtl_cchan_create(env, ctx, 2, 0, 8, 2);
	rtl_chan_submit(ch, &pb);
	ck_assert_int_eq(rtl_chan_wait(ch, 20000000), 0);
	ck_assert_uint_eq(rtl_chan_reg(ch, PPU_CHAN_FAULT_INFO), 0);
	for (i = 0; i < P; i++) {
		ck_assert_uint_eq(rtl_buf_rd32(env, &status, 4 * i), PPU_ECALL_STATUS_OK);
		ck_assert_uint_eq(rtl_buf_rd32(env, &lp[i].sem, 0), 0x400 + i);
		ck_assert_uint_eq(rtl_buf_rd32(env, &lc[i].sem, 0), 0x300 + i);
		for (j = 0; j < t; j++)
			ck_assert_msg(rtl_buf_rd32(env, &res, 4 * (t * i + j)) == 0x700 + i,
				      "parent %u thread %u: 0x%x", i, j,
				      rtl_buf_rd32(env, &res, 4 * (t * i + j)));
	}
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), P);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_TASKS_COMPLETED), 2 * P);
	ck_assert_uint_ge(rtl_perf_read(env, PPU_PERF_EVICTIONS), 1);
	finish(env, ctx, &k, ch);
}
END_TEST

/*
 * ppu_launch from C: each parent thread launches a child grid sized by its
 * input (1..6 CTAs), the children add into the parent's sum atomically,
 * and each parent reads its sum after WAIT_CHILDREN; checked against the
 * CPU.  Parents of two CTAs, so the waits are per CTA.
 */
START_TEST(children_sized_by_data_add_up_like_the_cpu)
{
	enum { N = 16, STRIDE = 16384 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf counts, pool, out, res, status;
	struct dp_sum_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	uint32_t cnt[N], i, g, want, children = 0;
	uint64_t seed = 12345;

	rtl_kimage_load(ctx, "dp_sum", &k);
	for (i = 0; i < N; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		cnt[i] = 1 + (uint32_t)(seed >> 33) % 6;
	}
	counts = rtl_buf_alloc(ctx, 0, sizeof(cnt));
	rtl_buf_write(env, &counts, 0, cnt, sizeof(cnt));
	pool = rtl_buf_alloc(ctx, 0, N * STRIDE);
	out = rtl_buf_alloc(ctx, 0, N * 4);
	res = rtl_buf_alloc(ctx, 0, N * 4);
	status = rtl_buf_alloc(ctx, 0, N * 4);
	p = (struct dp_sum_params){ .n = N, .counts = counts.va, .pool = pool.va, .stride = STRIDE,
				    .out = out.va, .res = res.va, .status = status.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "dp_sum"), 2, N / 2, &p, sizeof(p));
	l.prio = 30;
	rtl_klaunch_prepare(ctx, &l, 7);
	ch = rtl_cchan_create(env, ctx, 3, 0, 30, 2);
	run_one(ch, &l, 8000000);
	for (i = 0; i < N; i++) {
		want = 0;
		for (g = 0; g < cnt[i] * DP_SUM_CHILD_T; g++)
			want += i * 1000 + g;
		ck_assert_uint_eq(rtl_buf_rd32(env, &status, 4 * i), PPU_ECALL_STATUS_OK);
		ck_assert_msg(rtl_buf_rd32(env, &res, 4 * i) == want, "parent %u: 0x%x, want 0x%x", i,
			      rtl_buf_rd32(env, &res, 4 * i), want);
		children++;
	}
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), children);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_TASKS_COMPLETED), children + 1);
	ck_assert_uint_eq(rtl_buf_rd32(env, &l.sem, 0), 7);
	finish(env, ctx, &k, ch);
}
END_TEST

/*
 * SEEDS §D, the divergent phase, K = 2 CTAs of 32 * M threads (M = 32, so
 * 1024-thread CTAs, which run in waves), N = 128: foo = K * (N * M + 5 *
 * (M - 1)) = 8502 without and with dynamic parallelism.
 */
START_TEST(divergent_phase_gives_the_books_value_in_both_styles)
{
	enum { K = 2, M = 32, N = 128, SPACING = 32 };
	uint32_t dp = (uint32_t)_i;
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf foo, x, pool;
	struct diverge_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *ch;

	rtl_kimage_load(ctx, "diverge", &k);
	foo = rtl_buf_alloc(ctx, 0, 4);
	x = rtl_buf_alloc(ctx, 0, K * 4);
	pool = rtl_buf_alloc(ctx, 0, K * DIVERGE_POOL_STRIDE);
	p = (struct diverge_params){ .foo = foo.va, .x = x.va, .n = N, .m = M, .spacing = SPACING,
				     .dp = dp, .pool = pool.va };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "diverge_cta"), K, SPACING * M, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 1);
	ch = rtl_cchan_create(env, ctx, 1, 0, 0, 2);
	run_one(ch, &l, 20000000);
	ck_assert_uint_eq(rtl_buf_rd32(env, &foo, 0), K * (N * M + 5 * (M - 1)));
	ck_assert_uint_eq(rtl_buf_rd32(env, &foo, 0), 8502);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), dp ? K : 0);
	finish(env, ctx, &k, ch);
}
END_TEST

static uint32_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/*
 * Adaptive Bezier tessellation: a parent thread per curve launches a child
 * grid sized by the curve's curvature; every point matches the CPU's
 * (same fixed-point arithmetic), with dynamic parallelism and flat.
 */
START_TEST(bezier_tessellation_matches_the_cpu)
{
	enum { N = 12 };
	uint32_t flat = (uint32_t)_i;
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct bezier_line lines[N];
	struct rtl_buf lb, pts, pool;
	struct bezier_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	uint64_t seed = 99;
	uint32_t i, j, launched = 0;

	rtl_kimage_load(ctx, "bezier", &k);
	lb = rtl_buf_alloc(ctx, 0, sizeof(lines));
	pts = rtl_buf_alloc(ctx, 0, N * BEZIER_MAX_POINTS * 8);
	pool = rtl_buf_alloc(ctx, 0, N * BEZIER_STRIDE);
	memset(lines, 0, sizeof(lines));
	for (i = 0; i < N; i++) {
		for (j = 0; j < 3; j++) {
			lines[i].p[j][0] = (int32_t)(lcg(&seed) % (80u << 16)) - (40 << 16);
			lines[i].p[j][1] = (int32_t)(lcg(&seed) % (80u << 16)) - (40 << 16);
		}
		lines[i].points = pts.va + i * BEZIER_MAX_POINTS * 8;
	}
	rtl_buf_write(env, &lb, 0, lines, sizeof(lines));
	p = (struct bezier_params){ .n = N, .lines = lb.va, .pool = pool.va, .flat = flat };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "bezier"), 2, N / 2, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 1);
	ch = rtl_cchan_create(env, ctx, 1, 0, 0, 2);
	run_one(ch, &l, 20000000);
	for (i = 0; i < N; i++) {
		struct bezier_line got;
		int32_t want[2], pt[2];

		rtl_buf_read(env, &lb, i * sizeof(got), &got, sizeof(got));
		ck_assert_uint_eq(got.status, PPU_ECALL_STATUS_OK);
		ck_assert_uint_eq(got.npoints, bezier_npoints(lines[i].p));
		for (j = 0; j < got.npoints; j++) {
			rtl_buf_read(env, &pts, (i * BEZIER_MAX_POINTS + j) * 8, pt, sizeof(pt));
			bezier_point(lines[i].p, j, got.npoints, want);
			ck_assert_msg(pt[0] == want[0] && pt[1] == want[1],
				      "curve %u point %u: (%d, %d), want (%d, %d)", i, j, pt[0], pt[1],
				      want[0], want[1]);
		}
		launched++;
	}
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), flat ? 0 : launched);
	finish(env, ctx, &k, ch);
}
END_TEST

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Recursive quicksort: a child per partition down to the channel's max
 * depth (then a selection sort), on random data, against qsort.
 */
START_TEST(recursive_quicksort_matches_qsort)
{
	enum { N = 300, SLOTS = 256 };
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	static uint32_t data[N], got[N];
	struct rtl_buf db, pool, ctr;
	struct qsort_params p;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_chan *ch;
	uint64_t seed = 4242;
	uint32_t i;

	rtl_kimage_load(ctx, "qsort_dp", &k);
	for (i = 0; i < N; i++)
		data[i] = lcg(&seed) % 1000;	/* duplicates too */
	db = rtl_buf_alloc(ctx, 0, sizeof(data));
	rtl_buf_write(env, &db, 0, data, sizeof(data));
	pool = rtl_buf_alloc(ctx, 0, SLOTS * QSORT_SLOT);
	ctr = rtl_buf_alloc(ctx, 0, 8);
	p = (struct qsort_params){ .data = db.va, .left = 0, .right = N - 1, .pool = pool.va,
				   .pool_slots = SLOTS, .next = ctr.va, .refused = ctr.va + 4 };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "qsort_dp"), 1, 1, &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 1);
	ch = rtl_cchan_create(env, ctx, 1, 0, 0, 6);
	run_one(ch, &l, 40000000);
	rtl_buf_read(env, &db, 0, got, sizeof(got));
	qsort(data, N, 4, cmp_u32);
	for (i = 0; i < N; i++)
		ck_assert_msg(got[i] == data[i], "[%u] = %u, want %u", i, got[i], data[i]);
	/* children really ran, deeper than one level, and stopped at N = 6 */
	ck_assert_uint_ge(rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), 4);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_DEV_LAUNCH_DEPTH_ERRORS), 0);
	finish(env, ctx, &k, ch);
}
END_TEST

/*
 * Random trees of device launches (random fan-out, shapes, barriers and
 * waits, up to N = 4) next to a spinning kernel of another channel at a
 * random priority, some runs with preemption off: everything completes,
 * every thread of every launched child ran exactly once, nothing faults.
 */
START_TEST(random_launch_trees_complete)
{
	enum { SLOTS = 192 };
	uint64_t seed = 0x5eed0000u + (uint64_t)_i;
	struct rtl_env *env = rtl_env_create(NULL);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	uint32_t ncu = rtl_reg_read(env, PPU_REG_CAP_NUM_CU);
	uint32_t nctx = rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS);
	struct rtl_buf ctr, pool, sout;
	struct dp_rand_params p;
	struct spin_params sp;
	struct rtl_kimage k, ks;
	struct rtl_klaunch l, lsp;
	struct rtl_chan *ch, *chs;
	uint32_t c[4], fill_prio = lcg(&seed) % 16;

	if (_i & 1)
		rtl_reg_write(env, PPU_REG_TASK_CTRL, PPU_FSET(PPU_TASK_CTRL_NO_PREEMPT, 1));
	rtl_kimage_load(ctx, "dp_rand", &k);
	rtl_kimage_load(ctx, "spin", &ks);
	ctr = rtl_buf_alloc(ctx, 0, 16);
	pool = rtl_buf_alloc(ctx, 0, SLOTS * DP_RAND_SLOT);
	sout = rtl_buf_alloc(ctx, 0, 8 * ncu * nctx * 4);
	p = (struct dp_rand_params){ .seed = lcg(&seed), .counters = ctr.va, .pool = pool.va,
				     .pool_slots = SLOTS };
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "dp_rand"), 4, 8, &p, sizeof(p));
	l.prio = 8;
	rtl_klaunch_prepare(ctx, &l, 1);
	sp = (struct spin_params){ .iters = 150, .seed = 3, .out = sout.va };
	rtl_klaunch_init(&lsp, rtl_kimage_fn(&ks, "spin"), 8 * ncu, nctx, &sp, sizeof(sp));
	lsp.prio = fill_prio;
	rtl_klaunch_prepare(ctx, &lsp, 1);
	chs = rtl_cchan_create(env, ctx, 3, 0, 63, 1);
	ch = rtl_cchan_create(env, ctx, 1, 0, 8, 4);
	rtl_klaunch_submit(chs, &lsp, 0, 0);
	run_one(ch, &l, 40000000);
	ck_assert_int_eq(rtl_chan_wait(chs, 40000000), 0);
	ck_assert_uint_eq(rtl_chan_reg(chs, PPU_CHAN_FAULT_INFO), 0);
	rtl_buf_read(env, &ctr, 0, c, sizeof(c));
	ck_assert_msg(c[0] == 32 + c[1], "seed %d: %u threads ran, %u expected (%u launched "
		      "threads, %u slots, %u refused)", _i, c[0], 32 + c[1], c[1], c[2], c[3]);
	ck_assert_uint_eq(rtl_perf_read(env, PPU_PERF_TASKS_COMPLETED),
			  2 + rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES));
	if (env->verbose)
		printf("random tree %d: %llu children, %u threads, %llu wait saves, %llu preemptions, "
		       "%llu evictions, filler at %u\n", _i,
		       (unsigned long long)rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES), c[0],
		       (unsigned long long)rtl_perf_read(env, PPU_PERF_WAIT_SAVES),
		       (unsigned long long)rtl_perf_read(env, PPU_PERF_PREEMPTIONS),
		       (unsigned long long)rtl_perf_read(env, PPU_PERF_EVICTIONS), fill_prio);
	rtl_chan_destroy(chs);
	rtl_kimage_free(&ks);
	finish(env, ctx, &k, ch);
}
END_TEST

Suite *suite_children(void)
{
	Suite *s = suite_create("children");
	TCase *tc = tcase_create("device_launch");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, children_run_at_parent_plus_one_up_to_the_depth_limit);
	tcase_add_test(tc, a_deep_limit_lets_the_whole_chain_run);
	tcase_add_test(tc, wait_children_sees_the_childrens_writes);
	tcase_add_test(tc, bad_child_tmds_are_the_threads_error);
	tcase_add_loop_test(tc, waiting_parents_on_every_context_do_not_deadlock, 0, 4);
	tcase_add_test(tc, waiting_parents_in_every_slot_do_not_deadlock);
	tcase_add_test(tc, children_sized_by_data_add_up_like_the_cpu);
	tcase_add_loop_test(tc, divergent_phase_gives_the_books_value_in_both_styles, 0, 2);
	tcase_add_loop_test(tc, bezier_tessellation_matches_the_cpu, 0, 2);
	tcase_add_test(tc, recursive_quicksort_matches_qsort);
	tcase_add_loop_test(tc, random_launch_trees_complete, 0, 6);
	suite_add_tcase(s, tc);
	return s;
}
