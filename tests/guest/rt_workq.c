// SPDX-License-Identifier: MIT
/*
 * Device-side work creation against the host round trip (rt_workq.h):
 *
 * - device: a work-creating launch (ppu_launch_kernel_workq) whose one
 *   thread reads the cycle counter and submits a block that releases a
 *   semaphore with the PPU's timestamp; from the counter to the timestamp;
 * - host round trip: a plain launch whose one thread reads the counter and
 *   raises a flag in host memory; the caller polls the flag and records an
 *   event on a stream of another priority (so nothing of the kernel's
 *   channel is ahead of it); from the counter to the event's timestamp.
 */
#include <string.h>

#include "rt_guest.h"
#include "rt_workq.h"
#include "../../runtime/device/samples/samples.h"

ppu_status rt_workq_latency(ppu_ctx *ctx, int reps, struct rt_workq_latency *res)
{
	const ppu_dim3 one = { 1, 1, 1 };
	ppu_devptr sems_d = 0, t0_d = 0, blk_d = 0;
	volatile uint32_t *sems, *t0;
	ppu_function *self, *signal;
	ppu_stream *s = NULL, *s2 = NULL;
	ppu_work_queue *q = NULL;
	ppu_event *ev = NULL;
	struct workq_rt_params p;
	uint64_t dev = 0, rt = 0, ts;
	ppu_module *m = NULL;
	void *h;
	ppu_status st;
	int lo, hi, r;

	RT_TRY(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi));
	RT_TRY(ppu_stream_create_with_priority(ctx, lo, &s));
	RT_TRY(ppu_stream_create_with_priority(ctx, hi, &s2));
	RT_TRY(ppu_event_create(ctx, &ev));
	RT_TRY(ppu_module_load(ctx, "/lib/ppu/workq_bench.elf", &m));
	RT_TRY(ppu_module_get_function(m, "workq_self", &self));
	RT_TRY(ppu_module_get_function(m, "workq_signal", &signal));
	RT_TRY(ppu_work_queue_create(ctx, 6, &q));
	RT_TRY(ppu_mem_alloc_host(ctx, 16, &h, &sems_d));
	sems = h;
	RT_TRY(ppu_mem_alloc_host(ctx, 8, &h, &t0_d));
	t0 = h;
	RT_TRY(ppu_mem_alloc_host(ctx, 64, &h, &blk_d));
	p = (struct workq_rt_params){ .sems = (uint32_t)sems_d, .t0 = (uint32_t)t0_d,
				      .blk = (uint32_t)blk_d };

	/* the first round of each warms caches and TLBs */
	for (r = 0; r <= reps; r++) {
		sems[0] = 0;
		RT_TRY(ppu_launch_kernel_workq(self, one, one, &p, sizeof(p), q, s));
		RT_TRY(ppu_stream_synchronize(s));
		if (sems[0] != 1) {
			st = PPU_ERROR_INVALID_VALUE;
			goto out;
		}
		if (r)
			dev += (uint32_t)(sems[2] - t0[0]);
	}
	for (r = 0; r <= reps; r++) {
		t0[0] = 0;
		RT_TRY(ppu_launch_kernel(signal, one, one, &p, sizeof(p), s));
		while (__atomic_load_n(&t0[0], __ATOMIC_ACQUIRE) != 1) {
			st = ppu_stream_query(s);
			if (st != PPU_SUCCESS && st != PPU_ERROR_NOT_READY)
				goto out;
		}
		RT_TRY(ppu_event_record(ev, s2));
		RT_TRY(ppu_event_synchronize(ev));
		RT_TRY(ppu_event_timestamp(ev, &ts));
		RT_TRY(ppu_stream_synchronize(s));
		if (r)
			rt += (uint32_t)((uint32_t)ts - t0[1]);
	}
	res->device = (double)dev / reps;
	res->host = (double)rt / reps;
out:
	if (blk_d)
		ppu_mem_free(ctx, blk_d);
	if (t0_d)
		ppu_mem_free(ctx, t0_d);
	if (sems_d)
		ppu_mem_free(ctx, sems_d);
	if (q)
		ppu_work_queue_destroy(q);
	if (ev)
		ppu_event_destroy(ev);
	if (m)
		ppu_module_unload(m);
	if (s2)
		ppu_stream_destroy(s2);
	if (s)
		ppu_stream_destroy(s);
	return st;
}
