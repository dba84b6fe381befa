// SPDX-License-Identifier: MIT
/*
 * The main job (make demo): libppu -> ppu.ko -> the PPU's RTL, in the
 * co-simulated guest.
 *
 * 1. Stream priorities with dynamic parallelism (SEEDS §A, US 9575760):
 *    the stream -> device priority mapping the runtime uses for several
 *    max nesting depths N on this PPU (M = 64), and the worked examples of
 *    the source text (M = 12, M = 10) from the same module.
 * 2. Prioritised copies (SEEDS §B, US 9483423): the worked example through
 *    the public API — Mlow1..3 in a low-priority stream, Mhigh1..2 issued
 *    into a high-priority stream while Mlow1 is on the engine — under the
 *    prior art, with the semaphores, and with semaphores and chunking:
 *    completion order, timeline in PPU cycles, latency ratio of Mhigh1.
 *
 * Exit status 1 when an order, a destination or a call is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu_runtime.h"
#include "priority_map.h"
#include "rt_prio_run.h"

static int failed;

#define CHECK(cond, ...)                                      \
	do {                                                  \
		if (!(cond)) {                                \
			printf("  FAILED: " __VA_ARGS__);     \
			printf("\n");                         \
			failed = 1;                           \
		}                                             \
	} while (0)

static int rt_ok(ppu_status st, const char *what)
{
	if (st)
		printf("  FAILED: %s: %s: %s\n", what, ppu_status_name(st), ppu_last_error());
	failed |= st != PPU_SUCCESS;
	return st == PPU_SUCCESS;
}

/* "s..t -> d" runs of one device priority, through the runtime. */
static void print_mapping(ppu_ctx *ctx, unsigned int n)
{
	unsigned int dp, prev = 0, col;
	int lo, hi, s, run = 0;
	char line[64];

	if (!rt_ok(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, n), "set max depth") ||
	    !rt_ok(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi), "priority range"))
		return;
	printf("  N = %-2u  %2d levels  ", n, hi - lo + 1);
	col = 24;
	for (s = lo; s <= hi + 1; s++) {
		if (s <= hi)
			ppu_ctx_get_device_priority(ctx, s, &dp);
		if (s > lo && (s > hi || dp != prev)) {
			if (run == s - 1)
				snprintf(line, sizeof(line), "%d->%u ", run, prev);
			else
				snprintf(line, sizeof(line), "%d..%d->%u ", run, s - 1, prev);
			if (col + strlen(line) > 100) {
				printf("\n%24s", "");
				col = 24;
			}
			printf("%s", line);
			col += (unsigned int)strlen(line);
			run = s;
		}
		prev = dp;
	}
	ppu_ctx_get_device_priority(ctx, hi + 100, &dp);
	printf("\n%24s(priority %d and above -> %u; children of level L run at dp(L)+1 .. "
	       "dp(L)+%u)\n", "", hi, dp, n - 1);
}

static void print_worked(unsigned int m, unsigned int n, int lo, int hi,
			 enum ppu_prio_embodiment e, const char *what)
{
	struct ppu_prio_map map;
	char buf[512], *line, *save;

	if (ppu_prio_map_init(&map, m, n, lo, hi, e)) {
		CHECK(0, "priority map M=%u N=%u", m, n);
		return;
	}
	printf("  M = %u, N = %u, stream priorities %d..%d%s:\n", m, n, lo, hi, what);
	ppu_prio_map_format(&map, buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("      %s\n", line);
}

static void section_a(void)
{
	struct ppu_prio_map m12;
	unsigned int p = 4, d = 1, cp, cd;
	ppu_ctx *ctx;
	int i;

	printf("\n== 1. Stream priorities with dynamic parallelism (SEEDS A) ==\n\n");
	if (!rt_ok(ppu_ctx_create(&ctx, 0, 0), "ppu_ctx_create"))
		return;
	printf("This PPU through libppu: M = 64 device priorities; stream priority s -> "
	       "device priority\n(a band of N per level, N-1 left for the children of "
	       "dynamic parallelism):\n\n");
	for (i = 0; i < 6; i++)
		print_mapping(ctx, (unsigned int[]){ 1, 2, 4, 8, 24, 64 }[i]);
	ppu_ctx_destroy(ctx);

	printf("\nThe worked examples of the source text, from the same module:\n\n");
	print_worked(12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST, "");
	print_worked(12, 2, 0, 5, PPU_PRIO_SHARE_HIGHEST, "");
	print_worked(10, 4, 100, 199, PPU_PRIO_SHARE_HIGHEST,
		     " (more than the 2 levels; the runtime's choice)");
	print_worked(10, 4, 100, 199, PPU_PRIO_SHARE_LOWEST, " (the alternative embodiment)");
	ppu_prio_map_init(&m12, 12, 4, 0, 2, PPU_PRIO_SHARE_HIGHEST);
	printf("  M = 12, N = 4: a chain launched at device priority 4:");
	while (!ppu_prio_map_child(&m12, p, d, &cp, &cd)) {
		printf(" -> %u (depth %u)", cp, cd);
		p = cp;
		d = cd;
	}
	printf(" -> launch from %u at depth %u fails (depth %u > N)\n", p, d, d + 1);
	CHECK(p == 7 && d == 4, "chain ends at %u depth %u, expected 7 at depth 4", p, d);
}

static void print_run(const char *title, const struct rt_prio_cfg *c,
		      const struct rt_prio_result *r)
{
	unsigned int i;

	printf("  %s\n", title);
	printf("    completion order   %s\n", r->order);
	printf("    timeline (cycles after Mlow1 was issued):");
	for (i = 0; i < c->nlow; i++)
		printf("  Mlow%u %lld", i + 1, (long long)r->low_done[i]);
	for (i = 0; i < c->nhigh; i++)
		printf("  Mhigh%u %lld", i + 1, (long long)r->high_done[i]);
	printf("\n    Mhigh1: issued at %lld, %llu cycles to complete (%llu on an idle PPU): "
	       "ratio %.2f\n", (long long)r->high_issue, (unsigned long long)r->loaded,
	       (unsigned long long)r->alone, r->ratio);
	CHECK(r->data_ok, "a destination differs from its source");
}

static void section_b(void)
{
	static const char *const title[3] = {
		"prior art: no semaphores; the host's time-sliced round robin (1 M-cycle slices)",
		"semaphores (SEEDS B): acq(S_high==0) before each low copy, inc/dec around each high",
		"semaphores + chunking: copies split into 16 KiB commands, acquires before each",
	};
	static const char *const expect[3] = {
		"L1 L2 L3 H1 H2", "L1 H1 H2 L2 L3", "H1 H2 L1 L2 L3",
	};
	struct rt_prio_result r[3];
	int i;

	printf("\n== 2. Prioritised memory copies (SEEDS B) through libppu ==\n\n");
	printf("Low stream (priority 0): Mlow1, Mlow2, Mlow3, 512 KiB each; high stream "
	       "(priority 1):\nMhigh1, Mhigh2, 128 KiB each, issued while Mlow1 is on the "
	       "engine.  Every copy is\nfollowed by an event; times are the PPU's cycle "
	       "counter.\n\n");
	for (i = 0; i < 3; i++) {
		struct rt_prio_cfg c = { .sems = i > 0, .chunk = i == 2 ? 16384 : 0, .nlow = 3,
					 .nhigh = 2, .low_bytes = 512 << 10,
					 .high_bytes = 128 << 10 };

		if (!rt_ok(rt_prio_run(&c, &r[i]), title[i]))
			return;
		print_run(title[i], &c, &r[i]);
		CHECK(!strcmp(r[i].order, expect[i]), "order %s, expected %s", r[i].order,
		      expect[i]);
		if (i == 1)
			printf("    = the patent's order Mlow1, Mhigh1, Mhigh2, Mlow2, Mlow3\n");
		printf("\n");
	}
	printf("Mhigh1 latency ratio (loaded / idle): prior art %.2f, semaphores %.2f, "
	       "chunked %.2f\n", r[0].ratio, r[1].ratio, r[2].ratio);
	printf("(`make bench`: 64 KiB behind 8 x 16 MiB, next to the H200's 4384x)\n");
	CHECK(r[2].ratio <= 1.5, "chunked ratio %.2f above 1.5", r[2].ratio);
}

int main(void)
{
	struct ppu_device_info info;
	int n = 0;

	if (!rt_ok(ppu_device_count(&n), "ppu_device_count") || n < 1 ||
	    !rt_ok(ppu_device_get_info(0, &info), "ppu_device_get_info")) {
		printf("no PPU found\n");
		return 1;
	}
	printf("libppu %d.%d on %s (PCI %s): PPU version %u.%u, %u channels (%u for "
	       "applications),\n%u device priorities, copy chunk %u bytes, %llu MiB local "
	       "memory\n", PPU_RUNTIME_VERSION_MAJOR, PPU_RUNTIME_VERSION_MINOR, info.node,
	       info.pci_bus_id, info.version >> 16, info.version & 0xffff, info.num_channels,
	       info.num_user_channels, info.num_device_priorities, info.copy_chunk_bytes,
	       (unsigned long long)(info.local_mem_bytes >> 20));
	section_a();
	section_b();
	printf("\n%s\n", failed ? "demo: FAILED" : "demo: all checks passed");
	return failed;
}
