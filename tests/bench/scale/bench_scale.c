// SPDX-License-Identifier: MIT
/*
 * Scheduling as the number of channels grows: with 16, 256 and 4096
 * channels bound (up to the model's CAP_NUM_CHANNELS), what a doorbell
 * and a switch between channels cost in PPU cycles.  Built against the
 * default model (16 channels) and the 4096-channel one (hw/sim/wide.mk);
 * the names carry both counts: sched_scale_<figure>_<bound>_of_<channels>.
 *
 *   doorbell_to_fetch  the last channel's DOORBELL register write to its
 *                      first GPFIFO fetch, every other channel bound and
 *                      idle (mean of 8; the channel is bound already);
 *   switch_gap         every bound channel queues one 256-byte copy behind
 *                      a copy of channel 0 of 4 KiB per bound channel:
 *                      while it runs, every doorbell is taken and every
 *                      channel is served as a guest up to its launch, so
 *                      when it ends they all wait for the engine with the
 *                      launch pending.  Mean COPY_END -> COPY_START of the
 *                      next channel: the decision, the switch and the
 *                      launch (with less time behind channel 0 some
 *                      channels would still fetch their methods after it,
 *                      about 45 cycles more each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rtl_env.h"

#define SMALL 256u
/* channel 0's copy per bound channel: 512 cycles; a doorbell and a guest
 * service up to the launch take about 200 */
#define BIG_PER_CHANNEL 4096u

/* Room for 4096 channels (two pages each) and channel 0's 16 MiB copy. */
static struct ppu_sim_config local_room(struct ppu_sim_config c)
{
	c.local_mem_bytes = 256u << 20;
	return c;
}

static void wait_all(struct rtl_chan **ch, uint32_t n)
{
	if (rtl_wait_all(ch, (int)n, 400000000ull)) {
		fprintf(stderr, "bench: channels did not finish\n");
		exit(1);
	}
}

static void scale(uint32_t nb, uint32_t nch)
{
	struct ppu_sim_config c = local_room(bench_cfg());
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan **ch = calloc(nb, sizeof(*ch));
	struct rtl_buf big_s, big_d, s, d;
	struct rtl_chan *last;
	char name[96];
	uint64_t t0, sum = 0, last_end = 0;
	uint32_t i, prev = ~0u;
	double gaps = 0;
	size_t k, from;
	int ngap = 0, big_done = 0;

	if (!ch) {
		fprintf(stderr, "bench: out of memory\n");
		exit(1);
	}
	snprintf(name, sizeof(name), "%u of %u channels bound", nb, nch);
	bench_measuring(name);
	big_s = rtl_buf_alloc(ctx, 0, nb * BIG_PER_CHANNEL);
	big_d = rtl_buf_alloc(ctx, 0, nb * BIG_PER_CHANNEL);
	s = rtl_buf_alloc(ctx, 0, SMALL);
	d = rtl_buf_alloc(ctx, 0, SMALL);
	/* every channel bound first: the figures are the steady state */
	for (i = 0; i < nb; i++) {
		ch[i] = rtl_chan_create_small(env, ctx, i, 2);
		bench_push_nop(ch[i]);
		rtl_chan_doorbell(ch[i]);
	}
	wait_all(ch, nb);

	last = ch[nb - 1];
	for (i = 0; i < 8; i++) {
		long e;

		from = env->nev;
		bench_push_nop(last);
		t0 = ppu_sim_cycles(env->sim);
		rtl_chan_doorbell(last);
		wait_all(&last, 1);
		e = rtl_log_find(env, PPU_TRACE_GP_FETCH, (int)last->chid, from);
		if (e < 0) {
			fprintf(stderr, "bench: no GP_FETCH\n");
			exit(1);
		}
		sum += env->ev[e].cycle - t0;
	}
	snprintf(name, sizeof(name), "sched_scale_doorbell_to_fetch_%u_of_%u", nb, nch);
	bench_emit(name, (double)sum / 8, "cycles");

	from = env->nev;
	bench_push_copy(ch[0], big_s.va, big_d.va, nb * BIG_PER_CHANNEL);
	rtl_chan_doorbell(ch[0]);
	for (i = 1; i < nb; i++) {
		bench_push_copy(ch[i], s.va, d.va, SMALL);
		rtl_chan_doorbell(ch[i]);
	}
	wait_all(ch, nb);
	for (k = from; k < env->nev; k++) {
		const struct ppu_sim_event *e = &env->ev[k];

		if (e->kind == PPU_TRACE_COPY_END) {
			big_done |= e->chid == 0;
			last_end = e->cycle;
			prev = e->chid;
		} else if (e->kind == PPU_TRACE_COPY_START && big_done && prev != ~0u &&
			   e->chid != prev) {
			gaps += (double)(e->cycle - last_end);
			ngap++;
		}
	}
	if (nb > 1 && ngap != (int)nb - 1) {
		/* a channel's doorbell was not taken before the big copy ended */
		fprintf(stderr, "bench: %d switches after channel 0's copy, %u expected\n", ngap,
			nb - 1);
		exit(1);
	}
	snprintf(name, sizeof(name), "sched_scale_switch_gap_%u_of_%u", nb, nch);
	bench_emit(name, ngap ? gaps / ngap : 0, "cycles");

	for (i = 0; i < nb; i++)
		rtl_chan_destroy(ch[i]);
	free(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

int main(void)
{
	static const uint32_t counts[] = { 16, 256, 4096 };
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	uint32_t nch = rtl_reg_read(env, PPU_REG_CAP_NUM_CHANNELS);
	unsigned int i;

	rtl_env_destroy(env);
	printf("PPU scheduling at scale (%u channels; memory: local 40 cycles, 8 B/cycle)\n", nch);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (counts[i] <= nch)
			scale(counts[i], nch);
	return 0;
}
