// SPDX-License-Identifier: MIT
#include "kprio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rtl_compute.h"
#include "../../runtime/device/samples/samples.h"

enum { DP_PARENTS = 4, FILL_CHID = 0, SMALL_CHID = 1 };

const char *const kprio_names[KPRIO_NSCENARIOS] = {
	[KPRIO_ALONE] = "alone",
	[KPRIO_PRIOR_ART] = "prior art",
	[KPRIO_NO_PREEMPTION] = "priorities, no preemption",
	[KPRIO_PREEMPTION] = "priorities with preemption",
};

static int spin_ok(struct rtl_env *env, const struct rtl_buf *out, const struct spin_params *p,
		   uint32_t threads)
{
	uint32_t i;

	for (i = 0; i < threads; i++)
		if (rtl_buf_rd32(env, out, 4 * i) != spin_run(p->seed ^ i, p->iters))
			return 0;
	return 1;
}

/* Mean CTA_PREEMPT -> CTA_SAVED of the same CTA (B = CTA id, A's tid). */
static double mean_save_cycles(const struct rtl_env *env)
{
	size_t i, j, n = 0;
	uint64_t sum = 0;

	for (i = 0; i < env->nev; i++) {
		if (env->ev[i].kind != PPU_TRACE_CTA_PREEMPT)
			continue;
		for (j = i + 1; j < env->nev; j++)
			if (env->ev[j].kind == PPU_TRACE_CTA_SAVED && env->ev[j].b == env->ev[i].b &&
			    (env->ev[j].a & 0xffff) == (env->ev[i].a & 0xffff)) {
				sum += env->ev[j].cycle - env->ev[i].cycle;
				n++;
				break;
			}
	}
	return n ? (double)sum / (double)n : 0;
}

/*
 * From the trace, after the small kernel's doorbell at @t0 (record @from):
 * its first and last CTA dispatch, and how many CTAs of the filling kernel
 * got a unit before its last one did.  Children (dp) run on the small
 * kernel's channel too, so they count as its CTAs.
 */
static void small_dispatches(const struct rtl_env *env, size_t from, uint64_t *first,
			     uint64_t *last, unsigned int *fill_ahead)
{
	unsigned int fill = 0;
	size_t k;

	*first = *last = 0;
	*fill_ahead = 0;
	for (k = from; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->kind != PPU_TRACE_CTA_DISPATCH && e->kind != PPU_TRACE_CTA_RESUME)
			continue;
		if (e->chid == FILL_CHID) {
			fill++;
		} else if (e->chid == SMALL_CHID) {
			if (!*first)
				*first = e->cycle;
			*last = e->cycle;
			*fill_ahead = fill;
		}
	}
}

int kprio_run(const struct kprio_opts *o, struct kprio_result *r)
{
	struct rtl_env *env = rtl_env_create_traced(o->cfg, o->trace_path);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	int dp = o->dp;
	struct rtl_chan *fill = rtl_cchan_create(env, ctx, FILL_CHID, 0, 63, 1);
	/* (dp: room above the parent for its children's priority and depth) */
	struct rtl_chan *small = rtl_cchan_create(env, ctx, SMALL_CHID, 0, dp ? 62 : 63, dp ? 2 : 1);
	int with_fill = o->scenario != KPRIO_ALONE;
	uint32_t ncu = rtl_reg_read(env, PPU_REG_CAP_NUM_CU);
	uint32_t nctx = rtl_reg_read(env, PPU_REG_CAP_CU_CONTEXTS);
	uint32_t fill_threads = o->fill_ctas_per_cu * ncu * nctx;
	struct rtl_buf ofill = rtl_buf_alloc(ctx, 0, fill_threads * 4);
	struct rtl_buf osmall = rtl_buf_alloc(ctx, 0, ncu * nctx * 4);
	struct spin_params pfill = { .iters = o->fill_rounds, .seed = 1, .out = ofill.va };
	struct spin_params psmall = { .iters = o->small_rounds, .seed = 2, .out = osmall.va };
	struct rtl_buf dpool = rtl_buf_alloc(ctx, 0, DP_PARENTS * 16384);
	struct rtl_buf dwords = rtl_buf_alloc(ctx, 0, 4 * DP_PARENTS * 4);
	uint32_t counts[DP_PARENTS] = { 2, 3, 1, 2 };
	struct dp_sum_params pdp = { .n = DP_PARENTS, .counts = dwords.va, .pool = dpool.va,
				     .stride = 16384, .out = dwords.va + 16, .res = dwords.va + 32,
				     .status = dwords.va + 48 };
	struct rtl_klaunch lfill, lsmall;
	struct ppu_sim_stats st;
	struct rtl_kimage k, kdp;
	uint64_t t0, first, last;
	const char *err = NULL;
	uint32_t dw[16];
	struct ppu_pb pb;
	size_t from;
	long done;

	memset(r, 0, sizeof(*r));
	r->num_cu = ncu;
	r->cu_contexts = nctx;
	rtl_kimage_load(ctx, "spin", &k);
	rtl_klaunch_init(&lfill, rtl_kimage_fn(&k, "spin"), o->fill_ctas_per_cu * ncu, nctx, &pfill,
			 sizeof(pfill));
	lfill.prio = 0;
	rtl_klaunch_prepare(ctx, &lfill, 1);
	lsmall = lfill;
	lsmall.grid[0] = ncu;
	lsmall.prio = o->scenario == KPRIO_PRIOR_ART ? 0 : KPRIO_HIGH;
	lsmall.params = &psmall;
	lsmall.param_bytes = sizeof(psmall);
	rtl_kimage_load(ctx, "dp_sum", &kdp);
	if (dp) {
		rtl_buf_write(env, &dwords, 0, counts, sizeof(counts));
		rtl_klaunch_init(&lsmall, rtl_kimage_fn(&kdp, "dp_sum"), 1, DP_PARENTS, &pdp,
				 sizeof(pdp));
		lsmall.prio = o->scenario == KPRIO_PRIOR_ART ? 0 : KPRIO_HIGH;
	}
	rtl_klaunch_prepare(ctx, &lsmall, 1);

	rtl_reg_write(env, PPU_REG_TASK_CTRL,
		      PPU_FSET(PPU_TASK_CTRL_NO_PREEMPT, o->scenario == KPRIO_NO_PREEMPTION));
	ppu_sim_reset_stats(env->sim);
	if (with_fill) {
		rtl_klaunch_submit(fill, &lfill, 0, 0);
		/*
		 * Launch the small kernel as the first wave of the filling one
		 * ends: the worst moment for a PPU that cannot preempt, the
		 * next wave having just started.
		 */
		if (rtl_wait_event(env, PPU_TRACE_CTA_EXIT, FILL_CHID, 16, 2000000) < 0) {
			err = "the filling kernel did not start";
			goto out;
		}
	}
	/* the doorbell apart, so that t0 is the doorbell's cycle */
	ppu_pb_init(&pb, dw, 16);
	ppu_pb_launch(&pb, lsmall.tmd.va);
	ppu_pb_method(&pb, PPU_HOST_WFI, 0);
	rtl_chan_push_entry(small, rtl_chan_pb_put(small, pb.dw, pb.len), pb.len);
	from = env->nev;
	t0 = ppu_sim_cycles(env->sim);
	rtl_chan_doorbell(small);
	if (rtl_chan_wait(small, 20000000)) {
		err = "the small kernel did not finish";
		goto out;
	}
	/* its own completion: its children complete before it */
	for (done = (long)from; done < (long)env->nev; done++)
		if (env->ev[done].kind == PPU_TRACE_TASK_COMPLETE && env->ev[done].b == lsmall.tmd.va)
			break;
	if (done == (long)env->nev) {
		err = "no TASK_COMPLETE of the small kernel";
		goto out;
	}
	if (with_fill && rtl_chan_wait(fill, 50000000)) {
		err = "the filling kernel did not finish";
		goto out;
	}
	ppu_sim_get_stats(env->sim, &st);
	r->sim_cycles_per_sec = st.cycles_per_sec;
	r->latency = env->ev[done].cycle - t0;
	r->total = ppu_sim_cycles(env->sim) - t0;
	small_dispatches(env, from, &first, &last, &r->fill_ctas_ahead);
	r->wait = first ? first - t0 : 0;
	r->preemptions = rtl_perf_read(env, PPU_PERF_PREEMPTIONS);
	r->save_cycles = mean_save_cycles(env);
	r->ctxsw_per_preemption = r->preemptions ?
		(double)rtl_perf_read(env, PPU_PERF_CTXSW_CYCLES) / (double)r->preemptions : 0;
	if (dp)
		r->data_ok = rtl_perf_read(env, PPU_PERF_DEV_LAUNCHES) == DP_PARENTS;
	else
		r->data_ok = spin_ok(env, &osmall, &psmall, ncu * nctx);
	if (with_fill)
		r->data_ok &= spin_ok(env, &ofill, &pfill, fill_threads);
out:
	rtl_kimage_free(&k);
	rtl_kimage_free(&kdp);
	rtl_chan_destroy(fill);
	rtl_chan_destroy(small);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	if (err) {
		fprintf(stderr, "kprio (%s): %s\n", kprio_names[o->scenario], err);
		return -1;
	}
	return 0;
}
