// SPDX-License-Identifier: MIT
/*
 * Compute benchmarks (docs/benchmarks.md "Compute"): launch latency, the
 * compute units' issue rate, and how long a small high-priority kernel
 * takes behind a device-filling low-priority one, in device cycles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "kprio.h"
#include "rtl_compute.h"
#include "rtl_env.h"
#include "../../runtime/device/samples/samples.h"

static void die(const char *what)
{
	fprintf(stderr, "bench: %s\n", what);
	exit(1);
}

static void wait_idle(struct rtl_chan *ch, uint64_t max)
{
	if (rtl_chan_wait(ch, max))
		die("compute channel did not finish");
}

/* The PPU cycle counter minus the harness's cycle count (constant). */
static int64_t cycle_offset(struct rtl_env *env)
{
	uint64_t c0 = ppu_sim_cycles(env->sim);
	uint32_t v = rtl_reg_read(env, PPU_REG_CYCLE_LO);

	/* the read samples the counter one cycle after it is issued */
	return (int64_t)v - (int64_t)(uint32_t)(c0 + 1);
}

/*
 * Doorbell -> the kernel's first instruction (stamp_entry reads the cycle
 * counter before anything else), steady state: channel bound, TMDs of
 * successive launches on one page as libppu's slot ring keeps them (the
 * TMD's translation hits the TLB), code in the I-caches or not (the TMD
 * invalidates them); and once more with every TMD on a page of its own.
 */
static void bench_launch_latency(void)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_cchan_create(env, ctx, 0, 0, 63, 1);
	struct rtl_buf out = rtl_buf_alloc(ctx, 0, 64);
	struct rtl_buf ring = rtl_buf_alloc(ctx, 0, 4096);
	struct stamp_params p = { .out = out.va };
	struct rtl_klaunch l;
	struct rtl_kimage k;
	uint64_t sum[3] = { 0, 0, 0 };
	int64_t off = cycle_offset(env);
	int i, n = 8;	/* launches per variant */

	rtl_kimage_load(ctx, "stamp", &k);
	memset(&l, 0, sizeof(l));
	l.entry = rtl_kimage_fn(&k, "stamp_entry");
	l.params = &p;
	l.param_bytes = sizeof(p);
	/* bind the channel first */
	{
		uint32_t dw[4];
		struct ppu_pb pb;

		ppu_pb_init(&pb, dw, 4);
		ppu_pb_method(&pb, PPU_HOST_NOP, 0);
		rtl_chan_submit(ch, &pb);
		wait_idle(ch, 100000);
	}
	for (i = 0; i < 3 * n; i++) {
		uint32_t dw[16], tmd[16], stamp, tmd_va;
		struct ppu_pb pb;
		uint64_t t0;

		/* 0: I-caches invalidated first (cold), 1: warm, 2: warm, TMD on a new page */
		l.flags = (i % 3 == 0) ? PPU_FSET(PPU_TMD_FLAGS_ICACHE_INVALIDATE, 1) : 0;
		rtl_klaunch_prepare(ctx, &l, 1);
		tmd_va = l.tmd.va;
		if (i % 3 != 2) {
			tmd_va = ring.va + (uint32_t)i * sizeof(tmd);
			rtl_buf_read(env, &l.tmd, 0, tmd, sizeof(tmd));
			rtl_buf_write(env, &ring, (uint32_t)i * sizeof(tmd), tmd, sizeof(tmd));
		}
		ppu_pb_init(&pb, dw, 16);
		ppu_pb_launch(&pb, tmd_va);
		ppu_pb_method(&pb, PPU_HOST_WFI, 0);
		rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len);
		t0 = ppu_sim_cycles(env->sim);
		rtl_chan_doorbell(ch);
		wait_idle(ch, 200000);
		stamp = rtl_buf_rd32(env, &out, 0);
		/* the doorbell write reaches the register block one cycle later */
		t0 = (uint64_t)((int64_t)t0 + off + 1);
		sum[i % 3] += (uint32_t)(stamp - (uint32_t)t0);
	}
	bench_emit("kernel_doorbell_to_first_instruction_cold_icache", (double)sum[0] / n, "cycles");
	bench_emit("kernel_doorbell_to_first_instruction_warm_icache", (double)sum[1] / n, "cycles");
	bench_emit("kernel_doorbell_to_first_instruction_warm_tmd_tlb_miss", (double)sum[2] / n, "cycles");
	rtl_kimage_free(&k);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

/*
 * Device launch -> the child's first instruction: a parent thread reads the
 * counter and launches (LAUNCH ecall, the instruction after the read) a
 * stamp_entry child, whose first instruction reads the counter again.
 * Warm: the child's TMD on a page the TLBs hold and its code in the
 * I-cache (the same launch repeated); the TMD read (40-cycle memory) is on
 * the path.
 */
static void bench_device_launch_latency(void)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_cchan_create(env, ctx, 0, 0, 10, 4);
	struct rtl_buf out = rtl_buf_alloc(ctx, 0, 64);
	struct stamp_params cp = { .out = out.va + 8 };
	struct stamp_launch_params pp = { .out = out.va };
	struct rtl_klaunch lc, lp;
	struct rtl_kimage k;
	uint64_t sum = 0;
	int i, n = 8;

	rtl_kimage_load(ctx, "stamp", &k);
	rtl_klaunch_init(&lc, rtl_kimage_fn(&k, "stamp_entry"), 1, 1, &cp, sizeof(cp));
	rtl_klaunch_prepare(ctx, &lc, 1);
	pp.tmd = lc.tmd.va;
	rtl_klaunch_init(&lp, rtl_kimage_fn(&k, "stamp_launch"), 1, 1, &pp, sizeof(pp));
	lp.prio = 10;
	rtl_klaunch_prepare(ctx, &lp, 1);
	for (i = 0; i < n + 1; i++) {
		rtl_klaunch_submit(ch, &lp, 0, 0);
		wait_idle(ch, 200000);
		if (rtl_buf_rd32(env, &out, 4) != PPU_ECALL_STATUS_OK)
			die("device launch refused");
		/* the first round warms the caches and TLBs */
		if (i)
			sum += (uint32_t)(rtl_buf_rd32(env, &out, 8) - rtl_buf_rd32(env, &out, 0));
	}
	bench_emit("device_launch_to_child_first_instruction", (double)sum / n, "cycles");
	rtl_kimage_free(&k);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

/* Cycles from the first CTA_DISPATCH to the last CTA_EXIT of channel @chid. */
static uint64_t busy_span(struct rtl_env *env, unsigned int chid, size_t from)
{
	uint64_t first = 0, last = 0;
	size_t k;

	for (k = from; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->chid != chid)
			continue;
		if (e->kind == PPU_TRACE_CTA_DISPATCH && !first)
			first = e->cycle;
		if (e->kind == PPU_TRACE_CTA_EXIT)
			last = e->cycle;
	}
	if (!first || last <= first)
		die("no CTA span in the trace");
	return last - first;
}

/*
 * Issue rate with every context of every unit busy with register-only
 * work (spin: 4 CTAs x 8 threads), and the simulator's speed meanwhile.
 */
static void bench_issue_rate(void)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_cchan_create(env, ctx, 0, 0, 63, 1);
	struct rtl_buf out = rtl_buf_alloc(ctx, 0, 32 * 4);
	struct spin_params p = { .iters = 4000, .seed = 5, .out = out.va };
	uint32_t ncu = rtl_reg_read(env, PPU_REG_CAP_NUM_CU);
	struct ppu_sim_stats st;
	struct rtl_klaunch l;
	struct rtl_kimage k;
	uint64_t i0, i1, span;
	int i;

	rtl_kimage_load(ctx, "spin", &k);
	rtl_klaunch_init(&l, rtl_kimage_fn(&k, "spin"), ncu, rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS), &p, sizeof(p));
	rtl_klaunch_prepare(ctx, &l, 1);
	i0 = rtl_perf_read(env, PPU_PERF_CU_INSTRET);
	ppu_sim_reset_stats(env->sim);
	rtl_klaunch_submit(ch, &l, 0, 0);
	wait_idle(ch, 20000000);
	ppu_sim_get_stats(env->sim, &st);
	i1 = rtl_perf_read(env, PPU_PERF_CU_INSTRET);
	for (i = 0; i < 32; i++)
		if (rtl_buf_rd32(env, &out, 4 * i) != spin_run(p.seed ^ (uint32_t)i, p.iters))
			die("spin: wrong result");
	span = busy_span(env, 0, 0);
	bench_emit("cu_issue_rate_all_contexts_busy", (double)(i1 - i0) / (double)span / ncu,
		   "instructions/cycle/unit");
	bench_emit("verilator_speed_compute_all_units_busy", st.cycles_per_sec, "cycles/s");
	rtl_kimage_free(&k);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

/*
 * A small high-priority kernel (one CTA per unit, short) launched while a
 * low-priority kernel of 16 CTAs per unit fills every context: cycles from
 * its doorbell to its TASK_COMPLETE, divided by the same on an idle device
 * (tests/examples/kprio.h; the RTL demo runs the same with fewer CTAs).
 *   prior_art:       both at device priority 0, as when every parent kernel
 *                    gets the lowest priority: the small one queues behind
 *                    every CTA of the big one.
 *   no_preemption:   the small one at 40, the big one at 0, TASK_CTRL.
 *                    NO_PREEMPT: it waits for running CTAs to finish.
 *   preemption:      the same with preemption: the big one's CTAs on as
 *                    many units as needed are saved to their task block,
 *                    and resumed once the small one is done.
 * With preemption, the cost of one: PREEMPT -> SAVED in cycles (the CTA's
 * 8 threads store their registers through the unit's pipeline), and the
 * context-switch unit-cycles (saves and restores) per preemption.
 */
static struct kprio_result kprio(enum kprio_scenario sc, int dp)
{
	struct ppu_sim_config c = bench_cfg();
	struct kprio_opts o = { .scenario = sc, .fill_ctas_per_cu = 16, .fill_rounds = 400,
				.small_rounds = 100, .dp = dp, .cfg = &c };
	struct kprio_result r;

	if (kprio_run(&o, &r))
		die("kernel-priority scenario failed");
	if (!r.data_ok)
		die("kernel-priority scenario: wrong results");
	return r;
}

static void bench_kernel_priority(void)
{
	uint64_t alone = kprio(KPRIO_ALONE, 0).latency;
	uint64_t prior = kprio(KPRIO_PRIOR_ART, 0).latency;
	uint64_t nopre = kprio(KPRIO_NO_PREEMPTION, 0).latency;
	struct kprio_result pre = kprio(KPRIO_PREEMPTION, 0);

	bench_emit("kernel_prio_small_alone", (double)alone, "cycles");
	bench_emit("kernel_prio_small_behind_filling_prior_art_ratio", (double)prior / alone, "x");
	bench_emit("kernel_prio_small_behind_filling_priorities_no_preemption_ratio",
		   (double)nopre / alone, "x");
	bench_emit("kernel_prio_small_behind_filling_preemption_ratio",
		   (double)pre.latency / alone, "x");
	bench_emit("kernel_prio_preemptions", (double)pre.preemptions, "CTAs");
	bench_emit("kernel_prio_preemption_save_cycles", pre.save_cycles, "cycles");
	bench_emit("kernel_prio_ctxsw_unit_cycles_per_preemption", pre.ctxsw_per_preemption,
		   "cycles");
	bench_emit("verilator_speed_compute_priority", pre.sim_cycles_per_sec, "cycles/s");
}

/*
 * Technique A against the prior art with dynamic parallelism: a
 * latency-sensitive parent (4 threads, each launching 1..3 child CTAs with
 * ppu_launch and waiting for them) on a high-priority stream while a
 * device-filling kernel runs at 0.  Prior art: every parent at the lowest
 * priority (0; its children at 1).  Technique: the parent at its stream's
 * device priority (40; children at 41).  Cycles from its doorbell to its
 * TASK_COMPLETE (after every child), each divided by the same alone.
 */
static void bench_dp_priority(void)
{
	uint64_t alone = kprio(KPRIO_ALONE, 1).latency;
	uint64_t prior = kprio(KPRIO_PRIOR_ART, 1).latency;
	uint64_t tech = kprio(KPRIO_PREEMPTION, 1).latency;

	bench_emit("dp_parent_alone", (double)alone, "cycles");
	bench_emit("dp_parent_behind_filling_prior_art_ratio", (double)prior / alone, "x");
	bench_emit("dp_parent_behind_filling_technique_ratio", (double)tech / alone, "x");
	bench_emit("dp_parent_prior_art_over_technique", (double)prior / tech, "x");
}

/* Root launch -> the last TASK_COMPLETE (the root's, after every child). */
static uint64_t tree_span(struct rtl_env *env)
{
	uint64_t first = 0, last = 0;
	size_t i;

	for (i = 0; i < env->nev; i++) {
		if (env->ev[i].kind == PPU_TRACE_TASK_LAUNCH && !first)
			first = env->ev[i].cycle;
		if (env->ev[i].kind == PPU_TRACE_TASK_COMPLETE)
			last = env->ev[i].cycle;
	}
	if (!first || last <= first)
		die("no task span in the trace");
	return last - first;
}

/*
 * Dynamic-parallelism overhead: the same work with children and flat, on
 * the PPU, root launch to root completion.  Bezier: 32 curves, a thread
 * per curve; with children each curve's points are computed by a child
 * grid (a thread per point), flat the curve's thread computes them.
 * Quicksort of 500 random words: a child per partition down to depth 6,
 * flat the same recursion as calls in one thread.
 */
static uint64_t dp_work(const char *image, int flat)
{
	enum { CURVES = 32, WORDS = 500, SLOTS = 512 };
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_cchan_create(env, ctx, 0, 0, 0, 6);
	struct rtl_klaunch l;
	struct rtl_kimage k;
	struct rtl_buf a, b, pool;
	uint64_t seed = 3, span;
	uint32_t i, j;

	rtl_kimage_load(ctx, image, &k);
	if (!strcmp(image, "bezier")) {
		struct bezier_line lines[CURVES];
		struct bezier_params p;

		a = rtl_buf_alloc(ctx, 0, sizeof(lines));
		b = rtl_buf_alloc(ctx, 0, CURVES * BEZIER_MAX_POINTS * 8);
		pool = rtl_buf_alloc(ctx, 0, CURVES * BEZIER_STRIDE);
		memset(lines, 0, sizeof(lines));
		for (i = 0; i < CURVES; i++) {
			for (j = 0; j < 6; j++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				lines[i].p[j / 2][j % 2] = (int32_t)((seed >> 33) % (120u << 16)) - (60 << 16);
			}
			lines[i].points = b.va + i * BEZIER_MAX_POINTS * 8;
		}
		rtl_buf_write(env, &a, 0, lines, sizeof(lines));
		p = (struct bezier_params){ .n = CURVES, .lines = a.va, .pool = pool.va,
					    .flat = (uint32_t)flat };
		rtl_klaunch_init(&l, rtl_kimage_fn(&k, "bezier"), CURVES / 8, 8, &p, sizeof(p));
	} else {
		struct qsort_params p;

		a = rtl_buf_alloc(ctx, 0, WORDS * 4);
		b = rtl_buf_alloc(ctx, 0, 8);
		pool = rtl_buf_alloc(ctx, 0, SLOTS * QSORT_SLOT);
		for (i = 0; i < WORDS; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			rtl_buf_wr32(env, &a, 4 * i, (uint32_t)(seed >> 33));
		}
		p = (struct qsort_params){ .data = a.va, .left = 0, .right = WORDS - 1,
					   .pool = pool.va, .pool_slots = SLOTS, .next = b.va,
					   .refused = b.va + 4, .flat = (uint32_t)flat };
		rtl_klaunch_init(&l, rtl_kimage_fn(&k, "qsort_dp"), 1, 1, &p, sizeof(p));
	}
	rtl_klaunch_prepare(ctx, &l, 1);
	rtl_klaunch_submit(ch, &l, 0, 0);
	wait_idle(ch, 100000000);
	if (!flat && !rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES))
		die("no children ran");
	span = tree_span(env);
	rtl_kimage_free(&k);
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return span;
}

static void bench_dp_overhead(void)
{
	uint64_t bz = dp_work("bezier", 0), bzf = dp_work("bezier", 1);
	uint64_t qs = dp_work("qsort_dp", 0), qsf = dp_work("qsort_dp", 1);

	bench_emit("dp_bezier_children", (double)bz, "cycles");
	bench_emit("dp_bezier_flat", (double)bzf, "cycles");
	bench_emit("dp_bezier_children_over_flat", (double)bz / bzf, "x");
	bench_emit("dp_quicksort_children", (double)qs, "cycles");
	bench_emit("dp_quicksort_flat", (double)qsf, "cycles");
	bench_emit("dp_quicksort_children_over_flat", (double)qs / qsf, "x");
}

/*
 * Compute engine reset: ENGINE_CTRL.COMPUTE_RESET written -> reads 0, with
 * every context of every unit running checksum threads (loads and stores
 * to their stacks in local memory, stores of results to system memory),
 * once while they run and once halted (COMPUTE_HALT: requests held at the
 * boundary, the wedged case).  The time is the drain of the accesses
 * already made plus one fault report per channel that held tasks (two
 * here).
 */
static uint64_t reset_cycles(int halted)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch[2];
	struct rtl_klaunch l[2];
	struct rtl_kimage k;
	uint64_t t0, t;
	int i;

	rtl_kimage_load(ctx, "checksum", &k);
	for (i = 0; i < 2; i++) {
		struct rtl_buf out = rtl_buf_alloc(ctx, 1, 16 * 8 * 4);
		struct checksum_params p = { .iters = 100000, .seed = (uint32_t)i, .out = out.va };

		ch[i] = rtl_cchan_create(env, ctx, (unsigned int)i, 0, 63, 1);
		rtl_klaunch_init(&l[i], rtl_kimage_fn(&k, "checksum"), 2, 8, &p, sizeof(p));
		l[i].stack_bytes = 256;
		rtl_klaunch_prepare(ctx, &l[i], 1);
		rtl_klaunch_submit(ch[i], &l[i], 0, 0);
	}
	ppu_sim_clock(env->sim, 50000);
	if (rtl_perf_read(env, PPU_PERF_CTA_DISPATCHES) != 4)
		die("not every CTA on a unit");
	if (halted) {
		rtl_reg_write(env, PPU_REG_ENGINE_CTRL, PPU_FSET(PPU_ENGINE_CTRL_COMPUTE_HALT, 1));
		ppu_sim_clock(env->sim, 2000);
	}
	t0 = ppu_sim_cycles(env->sim);
	rtl_reg_write(env, PPU_REG_ENGINE_CTRL, PPU_FSET(PPU_ENGINE_CTRL_COMPUTE_RESET, 1));
	while (PPU_FGET(PPU_ENGINE_CTRL_COMPUTE_RESET, rtl_reg_read(env, PPU_REG_ENGINE_CTRL)))
		if (ppu_sim_cycles(env->sim) - t0 > 1000000)
			die("compute reset did not end");
	t = ppu_sim_cycles(env->sim) - t0;
	for (i = 0; i < 2; i++)
		if (PPU_FGET(PPU_CHAN_STATUS_STATE, rtl_chan_reg(ch[i], PPU_CHAN_STATUS)) !=
		    PPU_CHAN_STATUS_STATE_FAULTED)
			die("a channel that held tasks was not told");
	rtl_kimage_free(&k);
	rtl_chan_destroy(ch[0]);
	rtl_chan_destroy(ch[1]);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return t;
}

static void bench_compute_reset(void)
{
	bench_emit("compute_reset_cycles_all_contexts_running", (double)reset_cycles(0), "cycles");
	bench_emit("compute_reset_cycles_halted", (double)reset_cycles(1), "cycles");
}

/* The simulator-speed figure alone (ppu_bench speed), for profiling. */
void bench_compute_speed(void)
{
	bench_measuring("simulator speed and issue rate with every compute unit busy");
	bench_issue_rate();
}

void bench_compute(void)
{
	bench_measuring("host kernel launch latency");
	bench_launch_latency();
	bench_measuring("device-side (child) launch latency");
	bench_device_launch_latency();
	bench_measuring("compute issue rate and simulator speed, every unit busy");
	bench_issue_rate();
	bench_measuring("kernel priority ratios (high-priority kernel behind low-priority load)");
	bench_kernel_priority();
	bench_measuring("dynamic-parallelism priorities (children at parent + 1, SEEDS A)");
	bench_dp_priority();
	bench_measuring("dynamic-parallelism launch overhead");
	bench_dp_overhead();
	bench_measuring("compute engine reset time");
	bench_compute_reset();
}
