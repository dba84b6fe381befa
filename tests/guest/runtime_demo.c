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
 * 3. Kernel priorities (SEEDS §A through the whole stack): a small kernel
 *    of a high-priority stream launched while a low-priority kernel fills
 *    every compute unit, with every kernel at device priority 0 (the prior
 *    art) and at its stream's device priority (the technique): completion
 *    timeline and latency ratio against the small kernel alone.
 * 4. Dynamic parallelism (SEEDS §A device side): a kernel on the stream the
 *    runtime maps to device priority 4 (M = 64, N = 4) launches itself one
 *    level deeper from the PPU: levels at 4, 5, 6, 7 and the depth-limit
 *    error; then a parent that launches children, in a high-priority stream
 *    behind a device-filling kernel, prior art against the technique.
 * 5. Device-side work creation (SEEDS §C): a producer kernel whose threads
 *    enqueue follow-up kernels by data through a PPU-owned work queue, the
 *    stream going on only after all of them; then a thread's submission
 *    against the host round trip (a thread signals the host, the host
 *    submits), in PPU cycles.
 *
 * Exit status 1 when an order, a destination or a call is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <sys/mount.h>

#include "ppu_runtime.h"
#include "ppu/ppu_hw.h"
#include "priority_map.h"
#include "rt_guest.h"
#include "rt_prio_run.h"
#include "rt_workq.h"
#include "../../runtime/device/samples/samples.h"

#define SPIN_ELF "/lib/ppu/spin.elf"
#define DP_CHAIN_ELF "/lib/ppu/dp_chain.elf"
#define DP_SUM_ELF "/lib/ppu/dp_sum.elf"
#define WORKQ_SPAWN_ELF "/lib/ppu/workq_spawn.elf"

enum { DP_PARENTS = 4, DP_STRIDE = 16384 };

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

struct kprio_result {
	int64_t small_alone, small_loaded, big_done;	/* cycles */
	int64_t small_start, small_end;			/* from the big kernel's launch */
	long long preemptions;				/* CTAs preempted meanwhile, -1: unknown */
	unsigned int small_dev_prio;
	int small_first;				/* completed before the big kernel */
	int data_ok;
	void *pool;					/* the children's memory (dp) */
};

/* The debugfs directory of the demo's device (device 0): dri/<render minor>. */
static char debugfs_dir[192];

/*
 * The PPU's performance counter @name as the driver's debugfs shows it
 * for the demo's device (root; debugfs mounted here if the system has
 * not), or -1.
 */
static long long perf_counter(const char *name)
{
	char path[224], line[128], key[64];
	unsigned long long v;
	long long found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/counters", debugfs_dir);
	f = fopen(path, "r");
	if (!f && errno == ENOENT) {
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
		f = fopen(path, "r");
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu", key, &v) == 2 && !strcmp(key, name))
			found = (long long)v;
	fclose(f);
	return found;
}

/* dp_sum's results (counts at w[0..], sums at w[2 * DP_PARENTS..]) against the CPU. */
static int dp_sum_done(const uint32_t *w)
{
	unsigned int i, g, want;

	for (i = 0; i < DP_PARENTS; i++) {
		want = 0;
		for (g = 0; g < w[i] * DP_SUM_CHILD_T; g++)
			want += i * 1000 + g;
		if (w[2 * DP_PARENTS + i] != want || w[3 * DP_PARENTS + i] != PPU_ECALL_STATUS_OK)
			return 0;
	}
	return 1;
}

/* CTAs done yet: polls @n result words for the CPU reference. */
static int spin_done(const uint32_t *out, unsigned int n, const struct spin_params *p)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (out[i] != spin_run(p->seed ^ i, p->iters))
			return 0;
	return 1;
}

/*
 * One run: the big kernel (16 CTAs per unit, every context busy) on the
 * least-priority stream, then, once its first CTAs have finished, the
 * small one (one CTA per unit) on a higher stream; times from events.
 */
/*
 * With @dp the small kernel is a parent (dp_sum: DP_PARENTS threads, each
 * launching 1..3 child CTAs from the PPU and waiting for them) instead.
 */

static ppu_status kprio_run(int technique, int dp, const struct ppu_device_info *info,
			    struct kprio_result *r)
{
	const unsigned int ncu = info->num_cu, t = info->cu_contexts;
	const unsigned int big_n = 16 * ncu * t, small_n = ncu * t;
	struct spin_params pbig = { .iters = 300, .seed = 11 };
	struct spin_params psmall = { .iters = 60, .seed = 22 };
	struct dp_sum_params pdp = { .n = DP_PARENTS, .stride = DP_STRIDE };
	const void *sp = &psmall;
	size_t sp_bytes = sizeof(psmall);
	ppu_dim3 sgrid = { ncu, 1, 1 }, scta = { t, 1, 1 };
	ppu_function *sfn;
	uint32_t *dpw = NULL;
	ppu_devptr dpd, dpool;
	ppu_event *e0 = NULL, *e1 = NULL, *e2 = NULL, *b0 = NULL, *b1 = NULL;
	ppu_devptr dbig, dsmall;
	uint32_t *big, *small;
	ppu_stream *lo = NULL, *hi = NULL;
	ppu_function *fn;
	ppu_module *mod;
	ppu_ctx *ctx;
	ppu_status st;
	int i;

	memset(r, 0, sizeof(*r));
	st = ppu_ctx_create(&ctx, 0, 0);
	if (st)
		return st;
	RT_TRY(ppu_ctx_set_limit(ctx, PPU_LIMIT_KERNEL_PRIORITIES,
			      technique ? PPU_KERNEL_PRIORITIES_ON : PPU_KERNEL_PRIORITIES_OFF));
	if (dp)
		RT_TRY(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 2));
	RT_TRY(ppu_stream_create_with_priority(ctx, 0, &lo));
	RT_TRY(ppu_stream_create_with_priority(ctx, 1, &hi));
	RT_TRY(ppu_ctx_get_device_priority(ctx, 1, &r->small_dev_prio));
	if (!technique)
		r->small_dev_prio = 0;
	RT_TRY(ppu_module_load(ctx, SPIN_ELF, &mod));
	RT_TRY(ppu_module_get_function(mod, "spin", &fn));
	RT_TRY(ppu_mem_alloc_host(ctx, big_n * 4, (void **)&big, &dbig));
	RT_TRY(ppu_mem_alloc_host(ctx, small_n * 4, (void **)&small, &dsmall));
	RT_TRY(ppu_event_create(ctx, &e0));
	RT_TRY(ppu_event_create(ctx, &e1));
	RT_TRY(ppu_event_create(ctx, &e2));
	RT_TRY(ppu_event_create(ctx, &b0));
	RT_TRY(ppu_event_create(ctx, &b1));
	pbig.out = (uint32_t)dbig;
	psmall.out = (uint32_t)dsmall;
	sfn = fn;
	if (dp) {
		static const uint32_t counts[DP_PARENTS] = { 2, 3, 1, 2 };
		ppu_module *dmod;

		RT_TRY(ppu_module_load(ctx, DP_SUM_ELF, &dmod));
		RT_TRY(ppu_module_get_function(dmod, "dp_sum", &sfn));
		RT_TRY(ppu_mem_alloc_host(ctx, 16 * DP_PARENTS, (void **)&dpw, &dpd));
		RT_TRY(ppu_mem_alloc_host(ctx, DP_PARENTS * DP_STRIDE, (void **)&r->pool, &dpool));
		memcpy(dpw, counts, sizeof(counts));
		pdp.counts = (uint32_t)dpd;
		pdp.out = (uint32_t)dpd + 4 * DP_PARENTS;
		pdp.res = (uint32_t)dpd + 8 * DP_PARENTS;
		pdp.status = (uint32_t)dpd + 12 * DP_PARENTS;
		pdp.pool = (uint32_t)dpool;
		sp = &pdp;
		sp_bytes = sizeof(pdp);
		sgrid.x = 1;
		scta.x = DP_PARENTS;
	}

	/* once to create the level's compute channel and warm the I-caches */
	RT_TRY(ppu_launch_kernel(sfn, sgrid, scta, sp, sp_bytes, hi));
	RT_TRY(ppu_stream_synchronize(hi));
	/* the small kernel alone */
	if (dp)
		memset(dpw + DP_PARENTS, 0, 4 * DP_PARENTS);
	RT_TRY(ppu_event_record(e0, hi));
	RT_TRY(ppu_launch_kernel(sfn, sgrid, scta, sp, sp_bytes, hi));
	RT_TRY(ppu_event_record(e1, hi));
	RT_TRY(ppu_event_synchronize(e1));
	RT_TRY(ppu_event_elapsed_cycles(e0, e1, &r->small_alone));
	r->data_ok = dp ? dp_sum_done(dpw) : spin_done(small, small_n, &psmall);
	memset(small, 0, small_n * 4);
	if (dp)
		memset(dpw + DP_PARENTS, 0, 12 * DP_PARENTS);

	/* behind the big kernel, once it has filled the units */
	memset(big, 0, big_n * 4);
	RT_TRY(ppu_event_record(b0, lo));
	RT_TRY(ppu_launch_kernel(fn, (ppu_dim3){ 16 * ncu, 1, 1 }, (ppu_dim3){ t, 1, 1 }, &pbig,
			      sizeof(pbig), lo));
	RT_TRY(ppu_event_record(b1, lo));
	for (i = 0; i < 20000 && !spin_done(big, t, &pbig); i++)
		usleep(1000);
	r->preemptions = perf_counter("PREEMPTIONS");
	RT_TRY(ppu_event_record(e0, hi));
	RT_TRY(ppu_launch_kernel(sfn, sgrid, scta, sp, sp_bytes, hi));
	RT_TRY(ppu_event_record(e2, hi));
	RT_TRY(ppu_ctx_synchronize(ctx));
	if (r->preemptions >= 0) {
		long long after = perf_counter("PREEMPTIONS");

		r->preemptions = after >= 0 ? after - r->preemptions : -1;
	}
	RT_TRY(ppu_event_elapsed_cycles(e0, e2, &r->small_loaded));
	RT_TRY(ppu_event_elapsed_cycles(b0, b1, &r->big_done));
	{
		RT_TRY(ppu_event_elapsed_cycles(b0, e2, &r->small_end));
		RT_TRY(ppu_event_elapsed_cycles(b0, e0, &r->small_start));
		r->small_first = r->small_end < r->big_done;
	}
	r->data_ok = r->data_ok && (dp ? dp_sum_done(dpw) : spin_done(small, small_n, &psmall)) &&
		     spin_done(big, big_n, &pbig);
out:
	ppu_ctx_destroy(ctx);
	return st;
}

/* One line of a completion timeline: [from, to) of @span cycles as a bar. */
static void timeline_bar(const char *name, int64_t from, int64_t to, int64_t span, char c)
{
	const int w = 60;
	int a = (int)(from * w / span), b = (int)((to * w + span - 1) / span), i;

	if (b <= a)
		b = a + 1;
	printf("      %-6s|", name);
	for (i = 0; i < w; i++)
		putchar(i >= a && i < b ? c : ' ');
	printf("| %lld..%lld\n", (long long)from, (long long)to);
}

/* Section 3 (@dp = 0) and the second half of section 4 (@dp = 1). */
static void kprio_section(const struct ppu_device_info *info, int dp)
{
	static const char *const title[2] = {
		"prior art: every kernel at device priority 0",
		"technique: each kernel at its stream's device priority",
	};
	struct kprio_result r[2];
	double ratio[2];
	int i;

	for (i = 0; i < 2; i++) {
		if (!rt_ok(kprio_run(i, dp, info, &r[i]), title[i]))
			return;
		ratio[i] = (double)r[i].small_loaded / (double)r[i].small_alone;
		printf("  %s\n", title[i]);
		printf("    small kernel (device priority %u): %lld cycles, %lld alone: ratio %.2f\n",
		       r[i].small_dev_prio, (long long)r[i].small_loaded,
		       (long long)r[i].small_alone, ratio[i]);
		printf("    completes %s the big kernel (big: %lld cycles from its launch)\n",
		       r[i].small_first ? "before" : "after", (long long)r[i].big_done);
		{
			int64_t span = r[i].big_done > r[i].small_end ? r[i].big_done : r[i].small_end;

			printf("    timeline (cycles from the big kernel's launch):\n");
			timeline_bar("big", 0, r[i].big_done, span, '=');
			timeline_bar("small", r[i].small_start, r[i].small_end, span, '#');
		}
		if (r[i].preemptions >= 0)
			printf("    CTAs of the big kernel preempted (saved to memory, resumed later): "
			       "%lld\n", r[i].preemptions);
		CHECK(r[i].data_ok, "a kernel's results differ from the CPU's");
	}
	if (dp)
		printf("\nParent latency ratio (to its last child): prior art %.2f, technique %.2f.  The\n"
		       "parent and then its children (one priority higher) preempt the big kernel.\n",
		       ratio[0], ratio[1]);
	else
		printf("\nSmall-kernel latency ratio: prior art %.2f, technique %.2f.  With the technique\n"
		       "the small kernel's CTAs preempt the big one's at an instruction boundary; the\n"
		       "big kernel resumes where it stopped (`make bench` compares no preemption).\n",
		       ratio[0], ratio[1]);
	CHECK(!r[0].small_first, "prior art: the small kernel overtook the big one");
	CHECK(r[1].small_first, "technique: the small kernel did not overtake the big one");
	/* (with dp the prior art's children, at 1, do outrank the big kernel) */
	CHECK(dp || r[0].preemptions <= 0, "prior art: %lld CTAs preempted at equal priorities",
	      r[0].preemptions);
	CHECK(r[1].preemptions != 0, "technique: nothing was preempted");
	CHECK(ratio[1] < ratio[0], "technique ratio %.2f not below prior art %.2f", ratio[1],
	      ratio[0]);
}

static void section_c(const struct ppu_device_info *info)
{
	printf("\n== 3. Kernel priorities (SEEDS A) through libppu ==\n\n");
	printf("Low stream (priority 0): %u CTAs x %u threads of a compute-bound kernel, "
	       "16 per unit;\nhigh stream (priority 1): %u CTAs x %u threads, launched once "
	       "the first low CTAs have\nfinished.  Times are the PPU's cycle counter, "
	       "from the high stream's launch.\n\n", 16 * info->num_cu, info->cu_contexts,
	       info->num_cu, info->cu_contexts);
	kprio_section(info, 0);
}

/* SEEDS §A device side: the chain and the depth limit, then the latency. */
static void section_d(const struct ppu_device_info *info)
{
	enum { LEVELS = 6 };
	struct dp_chain_params p = { .level = 0, .levels = LEVELS };
	long long depth0 = perf_counter("DEV_LAUNCH_DEPTH_ERRORS"), depth1;
	unsigned int dp = 0, i;
	ppu_devptr pool, outd;
	ppu_function *fn;
	ppu_module *mod;
	ppu_stream *s;
	uint32_t *out;
	void *mem;
	ppu_ctx *ctx;
	int lo, hi;

	printf("\n== 4. Dynamic parallelism (SEEDS A, device side) through libppu ==\n\n");
	if (!rt_ok(ppu_ctx_create(&ctx, 0, 0), "ppu_ctx_create"))
		return;
	if (!rt_ok(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 4), "set_limit") ||
	    !rt_ok(ppu_ctx_get_stream_priority_range(ctx, &lo, &hi), "priority range") ||
	    !rt_ok(ppu_module_load(ctx, DP_CHAIN_ELF, &mod), DP_CHAIN_ELF) ||
	    !rt_ok(ppu_module_get_function(mod, "dp_chain", &fn), "dp_chain") ||
	    !rt_ok(ppu_stream_create_with_priority(ctx, lo + 1, &s), "stream") ||
	    !rt_ok(ppu_stream_get_device_priority(s, &dp), "device priority") ||
	    !rt_ok(ppu_mem_alloc_host(ctx, LEVELS * DP_CHAIN_STRIDE, &mem, &pool), "pool") ||
	    !rt_ok(ppu_mem_alloc_host(ctx, LEVELS * NEST_OUT_WORDS * 4, (void **)&out, &outd),
		   "out"))
		goto out;
	memset(out, 0, LEVELS * NEST_OUT_WORDS * 4);
	p.pool = (uint32_t)pool;
	p.out = (uint32_t)outd;
	printf("M = %u device priorities, N = 4: %d stream priorities; stream priority %d -> "
	       "device priority %u.\nA kernel there launches itself one level deeper from the "
	       "PPU (ppu_launch) until a\nlaunch fails:\n\n", info->num_device_priorities, hi - lo + 1,
	       lo + 1, dp);
	if (!rt_ok(ppu_launch_kernel(fn, (ppu_dim3){ 1, 1, 1 }, (ppu_dim3){ 1, 1, 1 }, &p, sizeof(p),
				     s), "launch") ||
	    !rt_ok(ppu_stream_synchronize(s), "synchronize"))
		goto out;
	for (i = 0; i < LEVELS && out[NEST_OUT_WORDS * i + NEST_DEPTH]; i++) {
		uint32_t st = out[NEST_OUT_WORDS * i + NEST_STATUS];

		printf("    level %u: device priority %u, depth %u, its launch: %s\n", i,
		       out[NEST_OUT_WORDS * i + NEST_PRIO], out[NEST_OUT_WORDS * i + NEST_DEPTH],
		       st == PPU_ECALL_STATUS_OK ? "OK" :
		       st == PPU_ECALL_STATUS_EDEPTH ? "EDEPTH (past the max nesting depth)" : "error");
		CHECK(out[NEST_OUT_WORDS * i + NEST_PRIO] == dp + i, "level %u at priority %u", i,
		      out[NEST_OUT_WORDS * i + NEST_PRIO]);
	}
	depth1 = perf_counter("DEV_LAUNCH_DEPTH_ERRORS");
	if (depth0 >= 0 && depth1 >= 0)
		printf("\n    DEV_LAUNCH_DEPTH_ERRORS rose by %lld\n", depth1 - depth0);
	CHECK(i == 4, "%u levels ran, 4 expected", i);
	CHECK(out[NEST_OUT_WORDS * 3 + NEST_STATUS] == PPU_ECALL_STATUS_EDEPTH,
	      "the launch from depth 4 did not fail with EDEPTH");
	CHECK(depth0 < 0 || depth1 - depth0 == 1, "depth errors counted: %lld", depth1 - depth0);

	printf("\nA parent of %u threads, each launching 1..3 child CTAs and waiting for them, in "
	       "the\nhigh stream behind the same device-filling kernel as in 3:\n\n", DP_PARENTS);
	kprio_section(info, 1);
out:
	ppu_ctx_destroy(ctx);
}

/* SEEDS §C through libppu: work created on the PPU by data, then the latency. */
static void section_e(void)
{
	enum { CTAS = 4, CTA = 8, N = CTAS * CTA };
	struct workq_spawn_params p = { 0 };
	ppu_devptr items_d, out_d, cnt_d, pool_d;
	uint32_t *items, *out, *cnt, want = 0, i, x = 12345;
	struct rt_workq_latency lat;
	ppu_work_queue *q = NULL;
	ppu_function *fn;
	ppu_module *mod;
	ppu_stream *s;
	ppu_ctx *ctx;
	void *h;

	printf("\n== 5. Device-side work creation (SEEDS C) through libppu ==\n\n");
	if (!rt_ok(ppu_ctx_create(&ctx, 0, 0), "ppu_ctx_create"))
		return;
	if (!rt_ok(ppu_module_load(ctx, WORKQ_SPAWN_ELF, &mod), WORKQ_SPAWN_ELF) ||
	    !rt_ok(ppu_module_get_function(mod, "workq_spawn", &fn), "workq_spawn") ||
	    !rt_ok(ppu_stream_create(ctx, &s), "stream") ||
	    !rt_ok(ppu_work_queue_create(ctx, 7, &q), "ppu_work_queue_create") ||
	    !rt_ok(ppu_mem_alloc_host(ctx, 4 * N, &h, &items_d), "items"))
		goto out;
	items = h;
	if (!rt_ok(ppu_mem_alloc_host(ctx, 4 * N, &h, &out_d), "out"))
		goto out;
	out = h;
	if (!rt_ok(ppu_mem_alloc_host(ctx, 4, &h, &cnt_d), "count") ||
	    !rt_ok(ppu_mem_alloc(ctx, (size_t)N * WORKQ_SPAWN_SLOT, &pool_d), "pool"))
		goto out;
	cnt = h;
	for (i = 0; i < N; i++) {
		x = x * 1103515245u + 12345u;
		items[i] = (x >> 16) % 20;
		out[i] = 0;
	}
	*cnt = 0;
	p = (struct workq_spawn_params){ .items = (uint32_t)items_d, .pool = (uint32_t)pool_d,
					 .out = (uint32_t)out_d, .spawned = (uint32_t)cnt_d };
	if (!rt_ok(ppu_launch_kernel_workq(fn, (ppu_dim3){ CTAS, 1, 1 }, (ppu_dim3){ CTA, 1, 1 },
					   &p, sizeof(p), q, s), "ppu_launch_kernel_workq") ||
	    !rt_ok(ppu_stream_synchronize(s), "synchronize"))
		goto out;
	printf("A producer of %u threads on a work queue of 128 entries: thread i enqueues a\n"
	       "follow-up kernel of items[i] %% 4 + 1 threads unless items[i] %% 3 == 0, each\n"
	       "adding items[i] to out[i]; the stream goes on once the queue has run them all.\n\n",
	       N);
	for (i = 0; i < N; i++) {
		want += workq_spawn_threads(items[i]) != 0;
		CHECK(out[i] == items[i] * workq_spawn_threads(items[i]), "out[%u] = %u, expected %u",
		      i, out[i], items[i] * workq_spawn_threads(items[i]));
	}
	printf("  %u follow-up kernels created on the PPU (%u expected), every result as on the "
	       "CPU\n", *cnt, want);
	CHECK(*cnt == want, "%u follow-up kernels, %u expected", *cnt, want);

	if (!rt_ok(rt_workq_latency(ctx, 4, &lat), "latency"))
		goto out;
	printf("\nA thread's work reaching the PPU, in PPU cycles (mean of 4):\n"
	       "  submitted by the thread to the queue (window included)   %8.0f\n"
	       "  host round trip (thread signals, host submits)            %8.0f\n"
	       "  ratio                                                     %8.2f x\n"
	       "  (co-simulation: the host's time is the guest's, counted in model cycles)\n",
	       lat.device, lat.host, lat.device / lat.host);
out:
	if (q)
		ppu_work_queue_destroy(q);
	ppu_ctx_destroy(ctx);
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
	/* (the render node's minor names its debugfs directory) */
	snprintf(debugfs_dir, sizeof(debugfs_dir), "/sys/kernel/debug/dri/%s",
		 strncmp(info.node, "/dev/dri/renderD", 16) ? "none" : info.node + 16);
	printf("libppu %d.%d on %s (PCI %s): PPU version %u.%u, %u channels (%u for "
	       "applications),\n%u device priorities, copy chunk %u bytes, %llu MiB local "
	       "memory\n", PPU_RUNTIME_VERSION_MAJOR, PPU_RUNTIME_VERSION_MINOR, info.node,
	       info.pci_bus_id, info.version >> 16, info.version & 0xffff, info.num_channels,
	       info.num_user_channels, info.num_device_priorities, info.copy_chunk_bytes,
	       (unsigned long long)(info.local_mem_bytes >> 20));
	section_a();
	section_b();
	section_c(&info);
	section_d(&info);
	section_e();
	printf("\n%s\n", failed ? "demo: FAILED" : "demo: all checks passed");
	return failed;
}
