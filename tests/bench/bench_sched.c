// SPDX-License-Identifier: MIT
/*
 * Scheduling figures: fairness among channels of one priority under the
 * round robin and under a runlist level, and what a switch costs.
 *
 * Eight channels each queue 64 copies of 1 KiB (a 2,000-cycle time slice)
 * and are rung together.  Fairness is Jain's index of the copies each has
 * finished when the first finishes its last (1 = equal shares, 1/8 = one
 * channel took everything).  A switch's cost is the gap from the copy
 * before a time-slice switch to the first copy of the channel switched to.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "rtl_env.h"

enum { NCH = 8, NCOPY = 64, LEN = 1024, SLICE = 2000 };

struct sched_fig {
	double jain;
	double switch_gap;	/* mean cycles, COPY_END -> the next channel's COPY_START */
};

static struct sched_fig run(int runlist)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_buf s = rtl_buf_alloc(ctx, 0, LEN), d = rtl_buf_alloc(ctx, 0, LEN);
	struct rtl_chan *ch[NCH];
	struct sched_fig f = { 0 };
	double done[NCH] = { 0 }, sum = 0, sq = 0, gaps = 0;
	uint64_t first = 0, pa = rtl_alloc_pa(env, 0, 4 * NCH, 8), last_end = 0;
	uint32_t prev = ~0u, n[NCH] = { 0 };
	size_t k;
	int i, j, ngap = 0;

	for (i = 0; i < NCH; i++) {
		ch[i] = rtl_chan_create(env, ctx, i, 7, SLICE);
		for (j = 0; j < NCOPY; j++)
			bench_push_copy(ch[i], s.va, d.va, LEN);
		uint32_t e = PPU_FSET(PPU_RUNLIST_ENTRY_CHID, i) | PPU_FSET(PPU_RUNLIST_ENTRY_LEVEL, 7);

		if (ppu_sim_mem_write(env->sim, 0, pa + 4 * i, &e, 4)) {
			fprintf(stderr, "bench: cannot write the runlist\n");
			exit(1);
		}
	}
	if (runlist) {
		rtl_reg_write(env, PPU_REG_RUNLIST_LO, (uint32_t)pa);
		rtl_reg_write(env, PPU_REG_RUNLIST_HI, 0);
		rtl_reg_write(env, PPU_REG_RUNLIST_SUBMIT, PPU_FSET(PPU_RUNLIST_SUBMIT_COUNT, NCH));
		rtl_reg_write(env, PPU_REG_SCHED_CTRL, PPU_FSET(PPU_SCHED_CTRL_RUNLIST, 1));
	}
	for (i = 0; i < NCH; i++)
		rtl_chan_doorbell(ch[i]);
	if (rtl_wait_all(ch, NCH, 50000000)) {
		fprintf(stderr, "bench: sched channels did not finish\n");
		exit(1);
	}
	for (k = 0; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->kind == PPU_TRACE_COPY_START && e->chid < NCH) {
			if (prev != ~0u && prev != e->chid) {
				gaps += (double)(e->cycle - last_end);
				ngap++;
			}
			prev = e->chid;
		}
		if (e->kind == PPU_TRACE_COPY_END && e->chid < NCH) {
			last_end = e->cycle;
			if (++n[e->chid] == NCOPY && !first)
				first = e->cycle;
		}
	}
	for (k = 0; k < env->nev; k++)
		if (env->ev[k].kind == PPU_TRACE_COPY_END && env->ev[k].chid < NCH &&
		    env->ev[k].cycle <= first)
			done[env->ev[k].chid]++;
	for (i = 0; i < NCH; i++) {
		sum += done[i];
		sq += done[i] * done[i];
	}
	f.jain = sum * sum / (NCH * sq);
	f.switch_gap = ngap ? gaps / ngap : 0;
	for (i = 0; i < NCH; i++)
		rtl_chan_destroy(ch[i]);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
	return f;
}

void bench_sched(void)
{
	struct sched_fig rr, rl;

	bench_measuring("fairness of one priority: round robin and a runlist level");
	rr = run(0);
	rl = run(1);
	bench_emit("sched_fairness_jain_8ch_round_robin", rr.jain, "index");
	bench_emit("sched_fairness_jain_8ch_runlist_level", rl.jain, "index");
	bench_emit("sched_switch_copy_end_to_next_channel_copy_round_robin", rr.switch_gap, "cycles");
	bench_emit("sched_switch_copy_end_to_next_channel_copy_runlist", rl.switch_gap, "cycles");
}
