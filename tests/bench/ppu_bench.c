// SPDX-License-Identifier: MIT
/*
 * `make bench`: RTL-level benchmarks.  Every figure is in PPU cycles from
 * the model's own trace and counters (independent of host speed), except
 * the simulator speed itself.  Prints `bench: <name> <value> <unit>`.
 *
 * Memory model for all figures: local memory 40 cycles latency, system
 * memory 200 cycles, each 8 bytes/cycle per direction (one beat).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rtl_env.h"
#include "seeds_b.h"

/* Engine time of one copy (COPY_START to COPY_END). */
static uint64_t copy_cycles(struct rtl_env *env, struct rtl_chan *ch, struct rtl_buf *src,
			    struct rtl_buf *dst, uint32_t bytes, uint64_t *submit_to_end)
{
	uint32_t buf[32];
	struct ppu_pb pb;
	size_t from = env->nev, k;
	uint64_t t0 = ppu_sim_cycles(env->sim), start = 0;

	ppu_pb_init(&pb, buf, 32);
	ppu_pb_copy(&pb, src->va, dst->va, bytes, PPU_LAUNCH_DMA_SEMAPHORE_NONE, 0, 0, 0);
	rtl_chan_submit(ch, &pb);
	if (rtl_chan_wait(ch, 20ull * bytes + 100000)) {
		fprintf(stderr, "bench: copy did not complete\n");
		exit(1);
	}
	for (k = from; k < env->nev; k++) {
		if (env->ev[k].kind == PPU_TRACE_COPY_START)
			start = env->ev[k].cycle;
		if (env->ev[k].kind == PPU_TRACE_COPY_END) {
			*submit_to_end = env->ev[k].cycle - t0;
			return env->ev[k].cycle - start;
		}
	}
	fprintf(stderr, "bench: no COPY_END\n");
	exit(1);
}

static void bench_copy_throughput(void)
{
	static const uint32_t sizes[] = { 4096, 16384, 65536, 262144, 1u << 20, 4u << 20, 16u << 20 };
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	struct rtl_buf src = rtl_buf_alloc(ctx, 0, 16u << 20);
	struct rtl_buf dst = rtl_buf_alloc(ctx, 0, 16u << 20);
	struct rtl_buf ssrc = rtl_buf_alloc(ctx, 1, 1u << 20);
	struct ppu_sim_stats st;
	unsigned int i;
	char name[96];
	uint64_t cyc, e2e;

	bench_measuring("copy engine throughput against the datapath peak, per copy size and aperture");
	ppu_sim_reset_stats(env->sim);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		cyc = copy_cycles(env, ch, &src, &dst, sizes[i], &e2e);
		snprintf(name, sizeof(name), "copy_local_%uKiB_of_peak", sizes[i] >> 10);
		bench_emit(name, (double)sizes[i] / 8.0 / (double)cyc, "fraction");
		snprintf(name, sizeof(name), "copy_local_%uKiB_submit_to_done_of_peak", sizes[i] >> 10);
		bench_emit(name, (double)sizes[i] / 8.0 / (double)e2e, "fraction");
	}
	/* misaligned source and destination */
	{
		struct rtl_buf s = src, d = dst;

		s.va += 3;
		d.va += 5;
		cyc = copy_cycles(env, ch, &s, &d, 1u << 20, &e2e);
		bench_emit("copy_local_1024KiB_misaligned_of_peak", (double)(1u << 20) / 8.0 / cyc,
		     "fraction");
	}
	cyc = copy_cycles(env, ch, &ssrc, &dst, 1u << 20, &e2e);
	bench_emit("copy_sys_to_local_1024KiB_of_peak", (double)(1u << 20) / 8.0 / cyc, "fraction");
	ppu_sim_get_stats(env->sim, &st);
	bench_emit("verilator_speed_copy_stream", st.cycles_per_sec, "cycles/s");
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

/*
 * Mean cycles from the doorbell's register write to the channel's first
 * GPFIFO fetch; @page: the doorbell page carrying GP_PUT instead of the
 * DOORBELL register (no USERD read).
 */
static double doorbell_latency(struct rtl_env *env, struct rtl_chan *ch, int page)
{
	uint32_t buf[8];
	struct ppu_pb pb;
	uint64_t t0, sum = 0;
	int i, n = 8;

	ppu_pb_init(&pb, buf, 8);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_NOP, 0));
	for (i = 0; i < n; i++) {
		size_t from = env->nev;
		long k;

		rtl_chan_push_entry(ch, rtl_chan_pb_put(ch, pb.dw, pb.len), pb.len);
		t0 = ppu_sim_cycles(env->sim);
		if (page)
			rtl_chan_doorbell_page(ch, ch->put);
		else
			rtl_chan_doorbell(ch);
		rtl_chan_wait(ch, 100000);
		k = rtl_log_find(env, PPU_TRACE_GP_FETCH, 0, from);
		if (k < 0) {
			fprintf(stderr, "bench: no GP_FETCH\n");
			exit(1);
		}
		sum += env->ev[k].cycle - t0;
	}
	return (double)sum / n;
}

static void bench_doorbell_latency(void)
{
	struct ppu_sim_config c = bench_cfg();
	struct rtl_env *env = rtl_env_create(&c);
	struct rtl_ctx *ctx = rtl_ctx_create(env);
	struct rtl_chan *ch = rtl_chan_create(env, ctx, 0, 4, 0);
	uint32_t buf[8];
	struct ppu_pb pb;

	bench_measuring("doorbell to first GPFIFO fetch latency");
	/* bind first, so the figure is the steady-state path */
	ppu_pb_init(&pb, buf, 8);
	ppu_pb_push(&pb, ppu_mthd_immd(PPU_HOST_NOP, 0));
	rtl_chan_submit(ch, &pb);
	rtl_chan_wait(ch, 100000);
	bench_emit("doorbell_to_first_gpfifo_fetch", doorbell_latency(env, ch, 0), "cycles");
	bench_emit("doorbell_page_to_first_gpfifo_fetch", doorbell_latency(env, ch, 1), "cycles");
	rtl_chan_destroy(ch);
	rtl_ctx_destroy(ctx);
	rtl_env_destroy(env);
}

static void bench_copy_priority(void)
{
	static const uint32_t lows[] = { 65536, 1u << 20, 16u << 20 };
	static const char *const cfg_name[] = {
		"one_queue", "prior_art", "semaphores", "hw_priority",
	};
	struct ppu_sim_config c = bench_cfg();
	unsigned int i;
	int k;
	char name[96];

	bench_measuring("copy priority ratios (high-priority copy behind low-priority load, SEEDS B)");
	/*
	 * k = 0: the high copy queued behind the lows in one channel (no
	 *        priority at all: what CUDA does for copies);
	 * k = 1: its own channel, time-sliced host, no semaphores (prior art);
	 * k = 2: its own channel with the semaphore insertion (US 9483423);
	 * k = 3: no semaphores, a runlist ranking the high channel above.
	 */
	for (i = 0; i < sizeof(lows) / sizeof(lows[0]); i++) {
		for (k = 0; k < 4; k++) {
			struct prio_latency_opts o = {
				.low_bytes = lows[i], .nlow = 8, .high_bytes = 65536,
				.semaphores = k == 2, .same_channel = k == 0,
				.hw_priority = k == 3, .cfg = &c,
			};
			struct prio_latency_result r;

			if (prio_latency_run(&o, &r)) {
				fprintf(stderr, "bench: copy-priority run failed\n");
				exit(1);
			}
			snprintf(name, sizeof(name), "copy_prio_64KiB_behind_8x%uKiB_%s_ratio",
				 lows[i] >> 10, cfg_name[k]);
			bench_emit(name, r.ratio, "x");
			snprintf(name, sizeof(name), "copy_prio_64KiB_behind_8x%uKiB_%s_lows_first",
				 lows[i] >> 10, cfg_name[k]);
			bench_emit(name, r.lows_before_high, "copies");
			if (k == 2) {
				snprintf(name, sizeof(name),
					 "copy_prio_64KiB_behind_8x%uKiB_one_low_copy_bound", lows[i] >> 10);
				bench_emit(name, r.bound, "x");
				snprintf(name, sizeof(name),
					 "copy_prio_64KiB_behind_8x%uKiB_semaphores_of_bound", lows[i] >> 10);
				bench_emit(name, r.ratio / r.bound, "fraction");
			}
			if (lows[i] == 16u << 20 && k == 2)
				bench_emit("verilator_speed_copy_priority", r.sim_cycles_per_sec, "cycles/s");
		}
	}
	bench_emit("h200_reference_64KiB_behind_8x256MiB_ratio", 4384, "x");
}

/*
 * No argument: every benchmark; "compute", "workq", "sched" (fairness and
 * switch cost) or "copy" (doorbell latency and copy throughput): only those;
 * "speed": only the simulator speed with every compute unit busy.
 */
int main(int argc, char **argv)
{
	printf("PPU RTL benchmarks (memory: local 40 cycles, system 200 cycles, 8 B/cycle each;\n"
	       "copy datapath peak 8 B/cycle; default time slice 1048576 cycles)\n");
	if (argc > 1 && !strcmp(argv[1], "compute")) {
		bench_compute();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "speed")) {
		bench_compute_speed();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "workq")) {
		bench_workq();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "sched")) {
		bench_sched();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "copy")) {
		bench_doorbell_latency();
		bench_copy_throughput();
		return 0;
	}
	bench_doorbell_latency();
	bench_copy_throughput();
	bench_copy_priority();
	bench_sched();
	bench_compute();
	bench_workq();
	return 0;
}
