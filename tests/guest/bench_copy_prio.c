// SPDX-License-Identifier: MIT
/*
 * The copy-priority benchmark through libppu (make bench): a 64 KiB
 * high-priority copy issued while the first of 8 x 16 MiB low-priority
 * copies is on the engine, under the prior art (no semaphores), with the
 * semaphores of SEEDS §B, and with the semaphores and chunking.  The ratio
 * is the high copy's latency (issue to completion, PPU cycles from event
 * timestamps) divided by the same copy on an idle PPU.  The low stream's
 * throughput tells what chunking costs; chunking runs twice, at the
 * runtime's default chunk (or the one given) and at 64 KiB.
 *
 * Prints "bench:" lines (collected into build/bench.txt).  Exit status 1
 * when a run fails or data is wrong; the ratios are reported, not judged.
 *
 *   bench_copy_prio [low_mib [nlow [chunk_bytes]]]
 */
#include <stdio.h>
#include <stdlib.h>

#include "ppu_runtime.h"
#include "rt_prio_run.h"

/* NVIDIA H200, the same experiment without the technique. */
#define H200_PRIOR_ART_RATIO 4384.0

int main(int argc, char **argv)
{
	uint64_t low_mib = argc > 1 ? strtoull(argv[1], NULL, 0) : 16;
	unsigned int nlow = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0) : 8;
	uint64_t chunk = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
	struct rt_prio_cfg cfg[4] = {
		{ .sems = 0, .chunk = 0 },
		{ .sems = 1, .chunk = 0 },
		{ .sems = 1, .chunk = chunk },
		{ .sems = 1, .chunk = 65536 },
	};
	static const char *const name[4] = { "prior_art", "semaphores", "chunked", "chunked64k" };
	struct rt_prio_result r[4];
	uint64_t def_chunk = 0;
	ppu_ctx *ctx;
	int i;

	/* The runtime's default chunk unless one is given. */
	if (!chunk) {
		if (ppu_ctx_create(&ctx, 0, 0) ||
		    ppu_ctx_get_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, &def_chunk)) {
			fprintf(stderr, "bench_copy_prio: %s\n", ppu_last_error());
			return 1;
		}
		ppu_ctx_destroy(ctx);
		cfg[2].chunk = def_chunk;
	}
	for (i = 0; i < 4; i++) {
		ppu_status st;

		cfg[i].nlow = nlow;
		cfg[i].nhigh = 1;
		cfg[i].low_bytes = low_mib << 20;
		cfg[i].high_bytes = 64 << 10;
		cfg[i].shared_low_dst = 1;
		st = rt_prio_run(&cfg[i], &r[i]);
		if (st || !r[i].data_ok) {
			fprintf(stderr, "bench_copy_prio: %s run failed: %s%s\n", name[i],
				ppu_status_name(st), r[i].data_ok ? "" : " (data)");
			return 1;
		}
		printf("bench: copy_prio_%s_ratio %.2f (64 KiB high behind %u x %llu MiB low; "
		       "%llu cycles loaded, %llu alone; chunk %llu)\n", name[i], r[i].ratio, nlow,
		       (unsigned long long)low_mib, (unsigned long long)r[i].loaded,
		       (unsigned long long)r[i].alone, (unsigned long long)cfg[i].chunk);
		printf("bench: copy_prio_%s_low_throughput %.3f bytes/cycle\n", name[i],
		       r[i].low_bytes_per_cycle);
	}
	printf("bench: copy_prio_h200_prior_art_ratio %.0f (published figure, for comparison)\n",
	       H200_PRIOR_ART_RATIO);
	for (i = 2; i < 4; i++)
		printf("bench: copy_prio_%s_throughput_loss %.2f %% (low stream, chunk %llu vs "
		       "unchunked semaphores)\n", name[i],
		       100.0 * (1.0 - r[i].low_bytes_per_cycle / r[1].low_bytes_per_cycle),
		       (unsigned long long)cfg[i].chunk);
	printf("bench: runtime_copy_throughput %.3f bytes/cycle (host to host, 64 KiB, idle PPU: "
	       "%llu cycles)\n", (double)(64 << 10) / (double)r[1].alone,
	       (unsigned long long)r[1].alone);
	return 0;
}
