// SPDX-License-Identifier: MIT
/*
 * Device-side work creation against the host round trip, through libppu in
 * the co-simulated guest (make bench), in PPU cycles:
 *
 * - device: a work-creating launch (ppu_launch_kernel_workq) whose one
 *   thread reads the cycle counter and submits a block that releases a
 *   semaphore with the PPU's timestamp; from the counter to the timestamp;
 * - host round trip: a plain launch whose one thread reads the counter and
 *   raises a flag in host memory; the program polls the flag and records an
 *   event on a stream of another priority (so nothing of the kernel's
 *   channel is ahead of it); from the counter to the event's timestamp.
 *
 * The device figure includes the window: the queue runs the block only
 * once the kernel has completed and the launching channel has released X.
 * The host figure depends on how fast the guest runs against the model
 * (co-simulation: the model is slow, so a host round trip costs few PPU
 * cycles), which is why both are printed with their ratio and neither is
 * judged.  Prints "bench:" lines; exit status 1 when a run fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu_runtime.h"

#define REPS 6

#define TRY(call)                                                                       \
	do {                                                                            \
		ppu_status st_ = (call);                                                \
		if (st_) {                                                              \
			fprintf(stderr, "bench_workq: %s: %s: %s\n", #call,             \
				ppu_status_name(st_), ppu_last_error());                \
			exit(1);                                                        \
		}                                                                       \
	} while (0)

struct rt_params {	/* struct workq_rt_params */
	uint32_t queue, sems, t0, blk;
};

static volatile uint32_t *host(ppu_ctx *ctx, size_t bytes, ppu_devptr *d)
{
	void *p;

	TRY(ppu_mem_alloc_host(ctx, bytes, &p, d));
	memset(p, 0, bytes);
	return p;
}

int main(void)
{
	ppu_devptr sems_d, t0_d, blk_d;
	volatile uint32_t *sems, *t0;
	ppu_function *self, *signal;
	uint64_t dev = 0, rt = 0, ts;
	int lo, hi, r, polls;
	ppu_stream *s, *s2;
	struct rt_params p;
	ppu_work_queue *q;
	ppu_module *m;
	ppu_event *ev;
	ppu_ctx *ctx;

	TRY(ppu_ctx_create(&ctx, 0, 0));
	TRY(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi));
	TRY(ppu_stream_create_with_priority(ctx, lo, &s));
	TRY(ppu_stream_create_with_priority(ctx, hi, &s2));
	TRY(ppu_event_create(ctx, &ev));
	TRY(ppu_module_load(ctx, "/lib/ppu/workq_bench.elf", &m));
	TRY(ppu_module_get_function(m, "workq_self", &self));
	TRY(ppu_module_get_function(m, "workq_signal", &signal));
	TRY(ppu_work_queue_create(ctx, 6, &q));
	sems = host(ctx, 16, &sems_d);
	t0 = host(ctx, 8, &t0_d);
	host(ctx, 64, &blk_d);
	p = (struct rt_params){ .sems = (uint32_t)sems_d, .t0 = (uint32_t)t0_d,
				.blk = (uint32_t)blk_d };

	/* the first round of each warms caches and TLBs */
	for (r = 0; r <= REPS; r++) {
		sems[0] = 0;
		TRY(ppu_launch_kernel_workq(self, (ppu_dim3){ 1, 1, 1 }, (ppu_dim3){ 1, 1, 1 }, &p,
					    sizeof(p), q, s));
		TRY(ppu_stream_synchronize(s));
		if (sems[0] != 1) {
			fprintf(stderr, "bench_workq: the queued block did not run\n");
			return 1;
		}
		if (r)
			dev += (uint32_t)(sems[2] - t0[0]);
	}
	for (r = 0; r <= REPS; r++) {
		t0[0] = 0;
		TRY(ppu_launch_kernel(signal, (ppu_dim3){ 1, 1, 1 }, (ppu_dim3){ 1, 1, 1 }, &p,
				      sizeof(p), s));
		for (polls = 0; __atomic_load_n(&t0[0], __ATOMIC_ACQUIRE) != 1; polls++)
			if (polls > 100000000) {
				fprintf(stderr, "bench_workq: no signal from the kernel\n");
				return 1;
			}
		TRY(ppu_event_record(ev, s2));
		TRY(ppu_event_synchronize(ev));
		TRY(ppu_event_timestamp(ev, &ts));
		TRY(ppu_stream_synchronize(s));
		if (r)
			rt += (uint32_t)((uint32_t)ts - t0[1]);
	}
	printf("bench: workq_guest_device_submit_to_block %.0f cycles\n", (double)dev / REPS);
	printf("bench: workq_guest_host_roundtrip %.0f cycles\n", (double)rt / REPS);
	printf("bench: workq_guest_device_over_host_roundtrip %.3f x\n", (double)dev / (double)rt);
	TRY(ppu_work_queue_destroy(q));
	TRY(ppu_ctx_destroy(ctx));
	return 0;
}
