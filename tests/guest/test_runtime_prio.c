// SPDX-License-Identifier: MIT
/*
 * Copy priorities (SEEDS §B, US 9483423) end to end through libppu's public
 * API on the co-simulated PPU: the worked example, the prior art, chunking,
 * and randomised mixes of priorities, sizes and submission times.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "ppu_runtime.h"
#include "ppu_guest.h"
#include "rt_guest.h"
#include "rt_prio_run.h"

static void print_run(const char *what, const struct rt_prio_result *r)
{
	printf("%s: order %s; high copy %llu cycles loaded, %llu alone, ratio %.2f\n", what,
	       r->order, (unsigned long long)r->loaded, (unsigned long long)r->alone, r->ratio);
}

/* The worked example: one engine, C_low and C_high, S_high. */
START_TEST(seeds_b_worked_example)
{
	struct rt_prio_cfg c = { .sems = 1, .chunk = 0, .nlow = 3, .nhigh = 2,
				 .low_bytes = 512 << 10, .high_bytes = 128 << 10 };
	struct rt_prio_result r;

	RT(rt_prio_run(&c, &r));
	print_run("semaphores", &r);
	ck_assert(r.data_ok);
	ck_assert_str_eq(r.order, "L1 H1 H2 L2 L3");
	ck_assert_uint_lt(r.dev_prio_low, r.dev_prio_high);
}
END_TEST

/* The same in the patent's exact sequence (acquire, then increment). */
START_TEST(seeds_b_worked_example_patent_order)
{
	struct rt_prio_cfg c = { .sems = PPU_COPY_PRIORITIES_PATENT_ORDER, .chunk = 0, .nlow = 3,
				 .nhigh = 2, .low_bytes = 512 << 10, .high_bytes = 128 << 10 };
	struct rt_prio_result r;

	RT(rt_prio_run(&c, &r));
	print_run("semaphores, patent order", &r);
	ck_assert(r.data_ok);
	ck_assert_str_eq(r.order, "L1 H1 H2 L2 L3");
}
END_TEST

/*
 * The prior art: no semaphores, the host's round robin keeps the low
 * channel for its whole time slice (1 M cycles, more than the low work).
 */
START_TEST(seeds_b_prior_art)
{
	struct rt_prio_cfg c = { .sems = 0, .chunk = 0, .nlow = 3, .nhigh = 2,
				 .low_bytes = 512 << 10, .high_bytes = 128 << 10 };
	struct rt_prio_result r;

	RT(rt_prio_run(&c, &r));
	print_run("prior art", &r);
	ck_assert(r.data_ok);
	ck_assert_str_eq(r.order, "L1 L2 L3 H1 H2");
	ck_assert_msg(r.ratio > 5, "ratio %.2f", r.ratio);
}
END_TEST

/* Chunked: the high copies overtake Mlow1 itself, waiting for one chunk. */
START_TEST(seeds_b_chunked)
{
	struct rt_prio_cfg c = { .sems = 1, .chunk = 16384, .nlow = 3, .nhigh = 2,
				 .low_bytes = 512 << 10, .high_bytes = 128 << 10 };
	struct rt_prio_result r;

	RT(rt_prio_run(&c, &r));
	print_run("semaphores + 16 KiB chunks", &r);
	ck_assert(r.data_ok);
	ck_assert_str_eq(r.order, "H1 H2 L1 L2 L3");
	ck_assert_msg(r.ratio <= 1.5, "ratio %.2f", r.ratio);
}
END_TEST

/*
 * With the device's local memory all taken (here by another context), a
 * higher level's S_n goes to a host semaphore slot instead, and the
 * technique works the same.
 */
/* A second context that holds all of the device's local memory. */
static ppu_ctx *local_hog(void)
{
	uint64_t size, held = 0;
	ppu_ctx *hog;
	ppu_devptr d;
	ppu_status st;

	/* (one file may hold half of local memory by default: lifted until the hog goes) */
	ppu_module_param_set("lmem_mib_per_file", 1ul << 20);
	RT(ppu_ctx_create(&hog, 0, 0));
	for (size = 32u << 20; size >= 4096;) {
		st = ppu_mem_alloc(hog, size, &d);
		if (st == PPU_SUCCESS) {
			held += size;
			continue;
		}
		ck_assert_msg(st == PPU_ERROR_OUT_OF_DEVICE_MEMORY, "%s: %s", ppu_status_name(st),
			      ppu_last_error());
		size /= 2;
	}
	ck_assert_uint_gt(held, 0);
	return hog;
}

START_TEST(seeds_b_with_local_memory_full)
{
	struct rt_prio_cfg c = { .sems = 1, .chunk = 0, .nlow = 3, .nhigh = 2,
				 .low_bytes = 512 << 10, .high_bytes = 128 << 10 };
	struct rt_prio_result r;
	ppu_ctx *hog = local_hog();
	ppu_devptr d;

	RT(rt_prio_run(&c, &r));
	print_run("local memory full, semaphores", &r);
	ck_assert(r.data_ok);
	ck_assert_str_eq(r.order, "L1 H1 H2 L2 L3");
	c.chunk = 16384;
	RT(rt_prio_run(&c, &r));
	print_run("local memory full, semaphores + 16 KiB chunks", &r);
	ck_assert(r.data_ok);
	ck_assert_str_eq(r.order, "H1 H2 L1 L2 L3");
	ck_assert_msg(r.ratio <= 1.5, "ratio %.2f", r.ratio);
	/* Full throughout: the other context still holds all of it. */
	ck_assert_int_eq(ppu_mem_alloc(hog, 4096, &d), PPU_ERROR_OUT_OF_DEVICE_MEMORY);
	RT(ppu_ctx_destroy(hog));
	ppu_module_param_set("lmem_mib_per_file", 0);
}
END_TEST

/* ---- three levels, staggered ---- */

#define STAG_LOW 6
#define STAG_MID 3
#define STAG_HIGH 2
#define STAG_COPIES (STAG_LOW + STAG_MID + STAG_HIGH)

struct stag_copy {
	char name[4];
	int level;
	uint64_t bytes;
	uint8_t *dst_p;
	ppu_devptr dst;
	ppu_event *done;
};

/* Spins until the copy's first destination byte has landed: it is on the engine. */
static void wait_started(const struct stag_copy *c)
{
	unsigned long spins;

	for (spins = 0; !__atomic_load_n(&c->dst_p[0], __ATOMIC_ACQUIRE); spins++) {
		ck_assert_msg(spins < 200000, "%s never started", c->name);
		usleep(50);
	}
}

static void stag_issue(struct stag_copy *c, ppu_devptr src, ppu_stream *s)
{
	RT(ppu_memcpy_async(c->dst, src, c->bytes, s));
	RT(ppu_event_record(c->done, s));
}

/*
 * Six low copies; three mid ones issued once the second low copy is on the
 * engine; two high ones issued while the first mid copy runs.  Writes the
 * completion order ("L1 L2 M1 ...", from the PPU's timestamps) to @order.
 */
static void staggered(int mode, uint64_t chunk, char *order)
{
	static const char lvl_name[3] = { 'L', 'M', 'H' };
	struct stag_copy c[STAG_COPIES], *by_time[STAG_COPIES];
	ppu_stream *s[3];
	ppu_devptr src;
	uint8_t *src_p;
	ppu_ctx *ctx;
	uint64_t k, ts[STAG_COPIES];
	unsigned int i, j, n[3] = { 0, 0, 0 };

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_PRIORITIES, (uint64_t)mode));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, chunk));
	for (i = 0; i < 3; i++)
		RT(ppu_stream_create_with_priority(ctx, (int)i, &s[i]));
	RT(ppu_mem_alloc_host(ctx, 384 << 10, (void **)&src_p, &src));
	for (k = 0; k < 384 << 10; k++)
		src_p[k] = (uint8_t)(1 + k % 251);	/* never 0: see wait_started() */
	for (i = 0; i < STAG_COPIES; i++) {
		int level = i < STAG_LOW ? 0 : i < STAG_LOW + STAG_MID ? 1 : 2;

		c[i].level = level;
		snprintf(c[i].name, sizeof(c[i].name), "%c%u", lvl_name[level], ++n[level]);
		c[i].bytes = level == 0 ? 384 << 10 : level == 1 ? 256 << 10 : 64 << 10;
		RT(ppu_mem_alloc_host(ctx, c[i].bytes, (void **)&c[i].dst_p, &c[i].dst));
		memset(c[i].dst_p, 0, c[i].bytes);
		RT(ppu_event_create(ctx, &c[i].done));
	}

	for (i = 0; i < STAG_LOW; i++)
		stag_issue(&c[i], src, s[0]);
	wait_started(&c[1]);
	for (i = STAG_LOW; i < STAG_LOW + STAG_MID; i++)
		stag_issue(&c[i], src, s[1]);
	wait_started(&c[STAG_LOW]);
	for (i = STAG_LOW + STAG_MID; i < STAG_COPIES; i++)
		stag_issue(&c[i], src, s[2]);
	RT(ppu_ctx_synchronize(ctx));

	for (i = 0; i < STAG_COPIES; i++) {
		ck_assert_msg(!memcmp(c[i].dst_p, src_p, c[i].bytes), "%s: data", c[i].name);
		RT(ppu_event_timestamp(c[i].done, &ts[i]));
		by_time[i] = &c[i];
	}
	/* insertion sort by completion time */
	for (i = 1; i < STAG_COPIES; i++)
		for (j = i; j > 0 && ts[by_time[j] - c] < ts[by_time[j - 1] - c]; j--) {
			struct stag_copy *t = by_time[j];

			by_time[j] = by_time[j - 1];
			by_time[j - 1] = t;
		}
	order[0] = '\0';
	for (i = 0; i < STAG_COPIES; i++) {
		if (i)
			strcat(order, " ");
		strcat(order, by_time[i]->name);
	}
	printf("three levels staggered, mode %d, chunk %llu: %s\n", mode,
	       (unsigned long long)chunk, order);
	RT(ppu_ctx_destroy(ctx));
}

/*
 * Strict order across three levels: once a copy is queued, no lower copy
 * starts before it; only the copy on the engine (without chunking) or its
 * chunk in flight (with chunking) finishes first.
 */
START_TEST(three_levels_staggered_whole_copies)
{
	char order[64];

	staggered(PPU_COPY_PRIORITIES_ON, 0, order);
	ck_assert_str_eq(order, "L1 L2 M1 H1 H2 M2 M3 L3 L4 L5 L6");
}
END_TEST

START_TEST(three_levels_staggered_chunked)
{
	char order[64];

	staggered(PPU_COPY_PRIORITIES_ON, 16384, order);
	ck_assert_str_eq(order, "L1 H1 H2 M1 M2 M3 L2 L3 L4 L5 L6");
}
END_TEST

/*
 * The patent's own order still puts the queued high copies first; what it
 * does not promise is the mid copies ahead of the low ones after that.
 */
START_TEST(three_levels_staggered_patent_order)
{
	char order[64];

	staggered(PPU_COPY_PRIORITIES_PATENT_ORDER, 0, order);
	ck_assert_msg(!strncmp(order, "L1 L2 M1 H1 H2 ", 15), "%s", order);
}
END_TEST

/* ---- a fault at a high level ---- */

/*
 * A context that takes every hardware channel still free: a stream per
 * level until one shares a lower level's channel, as libppu does when no
 * channel is left.
 */
static ppu_ctx *chan_hog(void)
{
	ppu_stream *s;
	ppu_ctx *hog;
	int prio, got = 0;

	RT(ppu_ctx_create(&hog, 0, 0));
	RT(ppu_ctx_set_limit(hog, PPU_LIMIT_MAX_NESTING_DEPTH, 1));	/* a level per priority */
	for (prio = 1; prio < 64; prio++) {
		RT(ppu_stream_create_with_priority(hog, prio, &s));
		RT(ppu_stream_get_priority(s, &got));
		if (got != prio)
			break;
	}
	ck_assert_msg(got < prio, "every level got a channel of its own");
	ck_assert_int_gt(prio, 1);
	return hog;
}

#define FAULT_HIGH_BYTES (2u << 20)
#define FAULT_LOW_BYTES (96u << 10)

/*
 * A high-level copy faults half-way (its destination is freed under it),
 * with S_high incremented: the lower levels, which do not depend on it,
 * still complete; a stream that waited for an event behind the lost copy
 * reports the fault instead of waiting for ever, and its copy never runs;
 * the context is destroyed without hanging.  Loop 0 keeps S_high in local
 * memory (cleared by the PPU through a channel of its own), loop 1 in a
 * host slot (cleared by the CPU), loop 2 in local memory with every other
 * hardware channel taken (the faulted channel's id is reused).
 */
START_TEST(fault_at_a_high_level_leaves_lower_levels_running)
{
	ppu_ctx *hog = _i == 1 ? local_hog() : NULL;
	ppu_ctx *chans = NULL;
	ppu_devptr src, dhi, dmid, dlow, d;
	uint8_t *src_p, *mid_p, *low_p, *p;
	ppu_stream *lo, *mid, *hi;
	ppu_event *eh;
	ppu_ctx *ctx;
	uint32_t k;

	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_MAX_NESTING_DEPTH, 21));	/* 3 levels of 64 */
	RT(ppu_stream_create_with_priority(ctx, 0, &lo));
	RT(ppu_stream_create_with_priority(ctx, 1, &mid));
	RT(ppu_stream_create_with_priority(ctx, 2, &hi));
	RT(ppu_event_create(ctx, &eh));
	RT(ppu_mem_alloc_host(ctx, FAULT_HIGH_BYTES, (void **)&src_p, &src));
	RT(ppu_mem_alloc_host(ctx, 4096, (void **)&mid_p, &dmid));
	RT(ppu_mem_alloc_host(ctx, FAULT_LOW_BYTES, (void **)&low_p, &dlow));
	if (_i == 1)
		RT(ppu_mem_alloc_host(ctx, FAULT_HIGH_BYTES, (void **)&p, &dhi));
	else
		RT(ppu_mem_alloc(ctx, FAULT_HIGH_BYTES, &dhi));
	if (_i == 2) {
		chans = chan_hog();
		RT(ppu_mem_alloc(ctx, FAULT_LOW_BYTES, &d));
	}
	for (k = 0; k < FAULT_HIGH_BYTES; k++)
		src_p[k] = (uint8_t)(k * 7 + (k >> 12));

	RT(ppu_memcpy_async(dhi, src, FAULT_HIGH_BYTES, hi));
	RT(ppu_event_record(eh, hi));
	/* A user error: freed while the copy runs; its next chunk faults. */
	RT(ppu_mem_free(ctx, dhi));
	RT(ppu_stream_wait_event(mid, eh));
	RT(ppu_memcpy_async(dmid, src, 4096, mid));
	RT(ppu_memcpy_async(dlow, src + 3, FAULT_LOW_BYTES, lo));

	/* Nothing has asked about the high channel: the wait finds its fault. */
	RT(ppu_stream_synchronize(lo));
	ck_assert_mem_eq(low_p, src_p + 3, FAULT_LOW_BYTES);
	ck_assert_int_eq(ppu_stream_synchronize(hi), PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_event_query(eh), PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_stream_synchronize(mid), PPU_ERROR_CHANNEL_FAULT);
	ck_assert_msg(strstr(ppu_last_error(), "waited for an event"), "%s", ppu_last_error());
	for (k = 0; k < 4096; k++)
		ck_assert_msg(!mid_p[k], "the copy behind the lost event ran (byte %u)", k);
	/* Sticky for the faulted levels; the lowest goes on. */
	ck_assert_int_eq(ppu_memcpy_async(dmid, src, 64, mid), PPU_ERROR_CHANNEL_FAULT);
	ck_assert_int_eq(ppu_memcpy_async(dmid, src, 64, hi), PPU_ERROR_CHANNEL_FAULT);
	memset(low_p, 0, FAULT_LOW_BYTES);
	if (_i == 1)
		RT(ppu_mem_alloc_host(ctx, FAULT_LOW_BYTES, (void **)&p, &d));
	else if (_i == 0)
		RT(ppu_mem_alloc(ctx, FAULT_LOW_BYTES, &d));
	RT(ppu_memcpy_async(d, src + 5, FAULT_LOW_BYTES, lo));
	RT(ppu_memcpy_async(dlow, d, FAULT_LOW_BYTES, lo));
	RT(ppu_stream_synchronize(lo));
	ck_assert_mem_eq(low_p, src_p + 5, FAULT_LOW_BYTES);
	ck_assert_int_eq(ppu_ctx_destroy(ctx), PPU_ERROR_CHANNEL_FAULT);
	if (hog) {
		RT(ppu_ctx_destroy(hog));
		ppu_module_param_set("lmem_mib_per_file", 0);
	}
	if (chans)
		RT(ppu_ctx_destroy(chans));
}
END_TEST

/* ---- randomised mixes ---- */

#define MIX_LEVELS 3
#define MIX_COPIES 40
#define MIX_MAX_BYTES (192u << 10)

/*
 * Each stream's work for one copy (its events and the copy) is issued
 * behind a closed gate, a host word the stream waits for, and runs once all
 * of it is issued: the CPU's time between the calls (often longer than a
 * copy under a co-simulated guest) is then not inside the PPU's timestamps.
 */
struct gate {
	uint32_t *word;
	ppu_devptr d;
	uint32_t n;
};

static void gate_close(struct gate *g, ppu_stream *s)
{
	RT(ppu_stream_wait_value32(s, g->d, ++g->n, PPU_WAIT_VALUE_GEQ));
}

static void gate_open(struct gate *g)
{
	__atomic_store_n(g->word, g->n, __ATOMIC_RELEASE);
}

struct mix_copy {
	int level;
	uint64_t bytes, soff, doff;
	ppu_devptr dst;
	uint8_t *dst_p;
	ppu_event *before, *after;
	int measured;	/* issued into an idle top stream */
};

/*
 * Slack for the top channel's own memory traffic under load: its channel,
 * GPFIFO, pushbuffer and semaphore reads queue behind the copy engine's
 * outstanding reads (COPY_MAX_READS), several times per copy.
 */
#define MIX_SLACK_CYCLES 4096

/*
 * Every copy completes with its data intact.  A copy of the highest
 * priority issued into its idle stream finishes within its own duration on
 * an idle PPU plus one chunk per lower level (the technique's bound, see
 * runtime/copy_prio.h), under any mix of lower-priority work, and no
 * lower-priority copy completes inside its window except by finishing such
 * a chunk.
 */
static void run_mix(unsigned int seed, uint64_t chunk)
{
	struct mix_copy m[MIX_COPIES];
	ppu_stream *s[MIX_LEVELS];
	struct gate gate[MIX_LEVELS];
	uint8_t *src_p, *ref_p;
	ppu_devptr src, ref;
	ppu_event *r0, *r1;
	double per_byte, fixed;
	int64_t t_small, t_big;
	ppu_ctx *ctx;
	unsigned int i, j, checked = 0;
	int64_t worst = 0;
	uint64_t k;

	srand(seed);
	RT(ppu_ctx_create(&ctx, 0, 0));
	RT(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, chunk));
	for (i = 0; i < MIX_LEVELS; i++) {
		RT(ppu_stream_create_with_priority(ctx, (int)i, &s[i]));
		RT(ppu_mem_alloc_host(ctx, 4, (void **)&gate[i].word, &gate[i].d));
		gate[i].n = 0;
	}
	RT(ppu_mem_alloc_host(ctx, MIX_MAX_BYTES + 64, (void **)&src_p, &src));
	RT(ppu_mem_alloc_host(ctx, MIX_MAX_BYTES, (void **)&ref_p, &ref));
	for (k = 0; k < MIX_MAX_BYTES + 64; k++)
		src_p[k] = (uint8_t)(k * 13 + (k >> 10) + seed);
	RT(ppu_event_create(ctx, &r0));
	RT(ppu_event_create(ctx, &r1));

	/* The top stream alone: a fixed cost plus a cost per byte. */
	gate_close(&gate[MIX_LEVELS - 1], s[MIX_LEVELS - 1]);
	RT(ppu_event_record(r0, s[MIX_LEVELS - 1]));
	RT(ppu_memcpy_async(ref, src, 8192, s[MIX_LEVELS - 1]));
	RT(ppu_event_record(r1, s[MIX_LEVELS - 1]));
	gate_open(&gate[MIX_LEVELS - 1]);
	RT(ppu_event_synchronize(r1));
	RT(ppu_event_elapsed_cycles(r0, r1, &t_small));
	gate_close(&gate[MIX_LEVELS - 1], s[MIX_LEVELS - 1]);
	RT(ppu_event_record(r0, s[MIX_LEVELS - 1]));
	RT(ppu_memcpy_async(ref, src, MIX_MAX_BYTES, s[MIX_LEVELS - 1]));
	RT(ppu_event_record(r1, s[MIX_LEVELS - 1]));
	gate_open(&gate[MIX_LEVELS - 1]);
	RT(ppu_event_synchronize(r1));
	RT(ppu_event_elapsed_cycles(r0, r1, &t_big));
	per_byte = (double)(t_big - t_small) / (double)(MIX_MAX_BYTES - 8192);
	fixed = (double)t_small - per_byte * 8192;

	for (i = 0; i < MIX_COPIES; i++) {
		struct mix_copy *c = &m[i];
		ppu_stream *st;

		c->level = rand() % MIX_LEVELS;
		c->bytes = 1 + (uint64_t)rand() % MIX_MAX_BYTES;
		c->soff = (uint64_t)rand() % 64;
		c->doff = (uint64_t)rand() % 16;
		RT(ppu_mem_alloc_host(ctx, c->bytes + 32, (void **)&c->dst_p, &c->dst));
		memset(c->dst_p, 0xa5, c->bytes + 32);
		RT(ppu_event_create(ctx, &c->before));
		RT(ppu_event_create(ctx, &c->after));
		st = s[c->level];
		c->measured = c->level == MIX_LEVELS - 1 && ppu_stream_query(st) == PPU_SUCCESS;
		gate_close(&gate[c->level], st);
		RT(ppu_event_record(c->before, st));
		RT(ppu_memcpy_async(c->dst + c->doff, src + c->soff, c->bytes, st));
		RT(ppu_event_record(c->after, st));
		gate_open(&gate[c->level]);
		/* Random submission times: 0..2 ms apart. */
		if (rand() % 3)
			usleep((useconds_t)(rand() % 2000));
	}
	RT(ppu_ctx_synchronize(ctx));

	for (i = 0; i < MIX_COPIES; i++) {
		struct mix_copy *c = &m[i];
		int64_t took, excess;
		int64_t bound = (int64_t)(per_byte * (double)chunk) * (MIX_LEVELS - 1) +
				MIX_SLACK_CYCLES;

		ck_assert_msg(!memcmp(c->dst_p + c->doff, src_p + c->soff, c->bytes),
			      "seed %u copy %u (level %d, %llu bytes): data", seed, i, c->level,
			      (unsigned long long)c->bytes);
		ck_assert_uint_eq(c->dst_p[c->doff + c->bytes], 0xa5);
		if (c->doff)
			ck_assert_uint_eq(c->dst_p[c->doff - 1], 0xa5);
		if (!c->measured)
			continue;
		RT(ppu_event_elapsed_cycles(c->before, c->after, &took));
		excess = took - (int64_t)(fixed + per_byte * (double)c->bytes);
		if (excess > worst)
			worst = excess;
		ck_assert_msg(excess <= bound,
			      "seed %u copy %u: %lld cycles for %llu bytes (alone %.0f + %.3f/byte)",
			      seed, i, (long long)took, (unsigned long long)c->bytes, fixed, per_byte);
		for (j = 0; j < MIX_COPIES; j++) {
			int64_t in_window;

			if (m[j].level == c->level)
				continue;
			RT(ppu_event_elapsed_cycles(c->before, m[j].after, &in_window));
			if (in_window <= 0 || in_window >= took)
				continue;
			ck_assert_msg(in_window <= bound, "seed %u: copy %u (level %d) completed %lld "
				      "cycles into top copy %u", seed, j, m[j].level,
				      (long long)in_window, i);
		}
		checked++;
	}
	printf("mix seed %u chunk %llu: %u copies intact, %u top-priority copies within "
	       "bound (alone: %.0f + %.3f cycles/byte; worst wait %lld cycles)\n", seed,
	       (unsigned long long)chunk, MIX_COPIES, checked, fixed, per_byte, (long long)worst);
	ck_assert_uint_gt(checked, 0);
	RT(ppu_ctx_destroy(ctx));
}

START_TEST(random_mixes)
{
	unsigned int seed = (unsigned int)time(NULL) ^ (unsigned int)(_i * 7919);

	run_mix(seed, _i % 2 ? 4096 : 16384);
}
END_TEST

static Suite *prio_suite(void)
{
	Suite *s = suite_create("libppu copy priorities");
	TCase *tc = tcase_create("seeds_b");

	tcase_add_unchecked_fixture(tc, NULL, ppu_module_params_reset);

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, seeds_b_worked_example);
	tcase_add_test(tc, seeds_b_worked_example_patent_order);
	tcase_add_test(tc, seeds_b_prior_art);
	tcase_add_test(tc, seeds_b_chunked);
	tcase_add_test(tc, seeds_b_with_local_memory_full);
	tcase_add_test(tc, three_levels_staggered_whole_copies);
	tcase_add_test(tc, three_levels_staggered_chunked);
	tcase_add_test(tc, three_levels_staggered_patent_order);
	tcase_add_loop_test(tc, fault_at_a_high_level_leaves_lower_levels_running, 0, 3);
	tcase_add_loop_test(tc, random_mixes, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(prio_suite());
	int failed;

	srunner_run_all(sr, CK_VERBOSE);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
