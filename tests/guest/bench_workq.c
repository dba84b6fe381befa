// SPDX-License-Identifier: MIT
/*
 * Device-side work creation against the host round trip, through libppu in
 * the co-simulated guest (make bench), in PPU cycles (rt_workq.c says what
 * each figure covers).  The device figure includes the window: the queue
 * runs the block only once the kernel has completed and the launching
 * channel has released X.  The host figure depends on how fast the guest
 * runs against the model, so both are printed with their ratio and neither
 * is judged.  Prints "bench:" lines; exit status 1 when a run fails.
 */
#include <stdio.h>

#include "ppu_runtime.h"
#include "rt_workq.h"

int main(void)
{
	struct rt_workq_latency l;
	ppu_status st;
	ppu_ctx *ctx;

	st = ppu_ctx_create(&ctx, 0, 0);
	if (!st)
		st = rt_workq_latency(ctx, 6, &l);
	if (st) {
		fprintf(stderr, "bench_workq: %s: %s\n", ppu_status_name(st), ppu_last_error());
		return 1;
	}
	printf("bench: workq_guest_device_submit_to_block %.0f cycles\n", l.device);
	printf("bench: workq_guest_host_roundtrip %.0f cycles\n", l.host);
	printf("bench: workq_guest_device_over_host_roundtrip %.3f x\n", l.device / l.host);
	return ppu_ctx_destroy(ctx) ? 1 : 0;
}
