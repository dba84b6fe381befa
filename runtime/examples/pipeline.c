// SPDX-License-Identifier: MIT
/*
 * pipeline: a pipeline of M stages in M prioritised streams, the use that
 * motivates prioritised memory copies (US 9483423): in a pipelined video
 * workflow on one copy engine, the copies of the first stages of frame 5
 * should not delay the last stage of frame 4, or frame latency jitters.
 *
 * The PPU has a copy engine only, so every stage is a copy of the frame
 * from the previous stage's buffer to its own:
 *
 *   input (host) -> stage 0 -> local -> stage 1 -> local ... -> stage M-1 -> output (host)
 *
 * Intermediate buffers are device-local (ppu_mem_alloc); input and output
 * are host memory so the CPU can fill and verify them.  Every frame has
 * its own buffers, so the only dependencies are the frame's own stage
 * chain and no stage ever waits for a buffer to be reused.
 *
 * Stage i runs in stream i, and later stages get higher stream priorities:
 * a frame already in flight then drains before new frames advance.  Stage
 * i of frame f waits (ppu_stream_wait_event) for the event recorded after
 * stage i-1's copy of frame f.  All F frames are submitted up front, then
 * the context is synchronised.
 *
 * The same pipeline runs twice in one process:
 *   A  the default context: copies wrapped in the priority semaphores;
 *   B  a context with PPU_LIMIT_COPY_PRIORITIES = 0 (the prior art): plain
 *      copies, and the PPU's host, a time-sliced round robin, knows nothing
 *      of priorities.
 * Both use the same streams, channels, device priorities and copy
 * splitting; only the semaphores differ.
 *
 * What is measured (PPU cycles, from event timestamps):
 *   ready(f)  an event recorded in stream 0 just before frame f's first
 *             copy.  A record completes when the stream's earlier work
 *             has, so this is when stage 0 finished frame f-1, i.e. when
 *             frame f reached the head of the pipeline, not necessarily
 *             when it started moving: with priorities its first copy is
 *             held back until frame f-1 has drained (one copy command of
 *             it may slip through before that).  The hold-back is part
 *             of the latency, as it should be.
 *   done(f)   the event recorded after the last stage's copy of frame f.
 *   latency   done(f) - ready(f), the per-frame latency compared;
 *   out at    done(f) - ready(0): when frame f came out, counted from the
 *             start of the run (all frames were submitted at once);
 *   makespan  ready(0) -> the last frame done.  Priorities only reorder
 *             the work, so this shows what the semaphores cost in
 *             throughput (a few per cent here, growing with the number
 *             of stages: seemingly the acquires that run between copy
 *             commands, one per higher level per command).
 *
 * Usage: pipeline [--check] [--frames N] [--stages M] [--bytes B]
 *   --check exits 1 unless every output frame is intact in both runs and
 *   the mean latency with priorities is lower than without.  With one
 *   frame nothing is in flight to drain first, so the semaphores only cost
 *   and --check fails, as it should.
 * Every libppu failure is reported with its status name and message and
 * makes the program exit 1.
 *
 * Sizes: the copy engine moves at most 8 bytes/cycle and the co-simulated
 * PPU runs about 1 M cycles/s, so the default (8 frames of 256 KiB through
 * 4 stages, 8 MiB of copies per run) takes a few seconds of model time.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppu_runtime.h"

#define PL_DEFAULT_FRAMES 8u
#define PL_DEFAULT_STAGES 4u
#define PL_DEFAULT_BYTES (256u << 10)
#define PL_MAX_FRAMES 1024u
/* Beyond that the stages only share the highest priority level anyway. */
#define PL_MAX_STAGES 32u
#define PL_MAX_BYTES (64u << 20)

struct pl_opts {
	unsigned int frames;
	unsigned int stages;
	size_t bytes;
	int check;
};

/* One run of the pipeline and what it measured. */
struct pl_run {
	const char *name;
	int copy_prio;			/* PPU_LIMIT_COPY_PRIORITIES */
	int *stream_prio;		/* per stage, after clamping */
	unsigned int *dev_prio;		/* per stage */
	uint64_t chunk;			/* PPU_LIMIT_COPY_CHUNK_BYTES in effect */
	int64_t *latency;		/* per frame: done - ready */
	int64_t *out_at;		/* per frame: done - ready(0) */
	uint64_t *stage_done;		/* [stage * frames + frame]: completion timestamps */
	int64_t makespan;
	unsigned int bad_frames;
};

/* Reports a libppu failure; returns -1 for the caller to pass on. */
static int __attribute__((format(printf, 2, 3))) fail(ppu_status st, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pipeline: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* ppu_last_error() belongs to the failed call: read it before any other. */
	fprintf(stderr, ": %s: %s\n", ppu_status_name(st), ppu_last_error());
	return -1;
}

/* The reference content of frame @f: distinct per frame, so mix-ups show. */
static void frame_fill(uint8_t *p, size_t bytes, unsigned int f)
{
	uint32_t x = 0x9e3779b9u * (f + 1) ^ (uint32_t)bytes;
	size_t i;

	for (i = 0; i < bytes; i++) {
		/* xorshift32 */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)(x >> 24);
	}
}

static const char *stage_route(unsigned int i, unsigned int m)
{
	if (i == 0)
		return "host  -> local";
	return i == m - 1 ? "local -> host " : "local -> local";
}

/*
 * Builds the pipeline in a fresh context, submits every frame, waits, and
 * collects timestamps and the verification.  The context, and with it
 * every stream, event and buffer, is destroyed on every path.
 */
static int run_pipeline(const struct pl_opts *o, const uint8_t *ref, struct pl_run *r)
{
	const unsigned int nf = o->frames, ns = o->stages;
	const size_t b = o->bytes;
	ppu_stream **stream = NULL;
	ppu_event **ready = NULL, **done = NULL;
	ppu_devptr in_d, out_d, *local = NULL;
	uint8_t *in_h, *out_h;
	struct ppu_device_info info;
	ppu_ctx *ctx = NULL;
	ppu_status st;
	int least, greatest, ret = -1;
	unsigned int f, i;
	uint64_t t0, t;

	stream = calloc(ns, sizeof(*stream));
	local = calloc(ns, sizeof(*local));
	ready = calloc(nf, sizeof(*ready));
	done = calloc((size_t)ns * nf, sizeof(*done));
	if (!stream || !local || !ready || !done) {
		fprintf(stderr, "pipeline: out of host memory\n");
		goto out;
	}

	st = ppu_ctx_create(&ctx, 0, 0);
	if (st) {
		fail(st, "ppu_ctx_create");
		ctx = NULL;
		goto out;
	}
	/* Only before the first launch: the semaphores are part of every copy. */
	if (!r->copy_prio) {
		st = ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_PRIORITIES, 0);
		if (st) {
			fail(st, "ppu_ctx_set_limit(COPY_PRIORITIES, 0)");
			goto out;
		}
	}
	st = ppu_ctx_get_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, &r->chunk);
	if (st) {
		fail(st, "ppu_ctx_get_limit(COPY_CHUNK_BYTES)");
		goto out;
	}
	st = ppu_ctx_get_info(ctx, &info);
	if (st) {
		fail(st, "ppu_ctx_get_info");
		goto out;
	}
	/* Say it plainly rather than fail halfway through the allocations. */
	if ((uint64_t)(ns - 1) * nf * b > info.local_mem_bytes) {
		fprintf(stderr, "pipeline: %u intermediate buffers of %u x %zu bytes need more than "
			"the device's %" PRIu64 " bytes of local memory\n", ns - 1, nf, b,
			info.local_mem_bytes);
		goto out;
	}
	st = ppu_ctx_get_stream_priority_range(ctx, &least, &greatest);
	if (st) {
		fail(st, "ppu_ctx_get_stream_priority_range");
		goto out;
	}

	/* Later stages higher: what is closest to the output goes first. */
	for (i = 0; i < ns; i++) {
		st = ppu_stream_create_with_priority(ctx, least + (int)i, &stream[i]);
		if (st) {
			fail(st, "ppu_stream_create_with_priority(%d) for stage %u", least + (int)i,
			     i);
			goto out;
		}
		st = ppu_stream_get_priority(stream[i], &r->stream_prio[i]);
		if (st) {
			fail(st, "ppu_stream_get_priority");
			goto out;
		}
		st = ppu_stream_get_device_priority(stream[i], &r->dev_prio[i]);
		if (st) {
			fail(st, "ppu_stream_get_device_priority");
			goto out;
		}
	}

	st = ppu_mem_alloc_host(ctx, (size_t)nf * b, (void **)&in_h, &in_d);
	if (st) {
		fail(st, "ppu_mem_alloc_host(input, %zu bytes)", (size_t)nf * b);
		goto out;
	}
	st = ppu_mem_alloc_host(ctx, (size_t)nf * b, (void **)&out_h, &out_d);
	if (st) {
		fail(st, "ppu_mem_alloc_host(output, %zu bytes)", (size_t)nf * b);
		goto out;
	}
	/* local[i]: what stage i writes, for i < ns - 1; the last one writes the output. */
	for (i = 0; i + 1 < ns; i++) {
		st = ppu_mem_alloc(ctx, (size_t)nf * b, &local[i]);
		if (st) {
			fail(st, "ppu_mem_alloc(stage %u, %zu bytes)", i, (size_t)nf * b);
			goto out;
		}
	}
	memcpy(in_h, ref, (size_t)nf * b);
	/* Not zero: a frame the last stage never wrote must not look intact by chance. */
	memset(out_h, 0xa5, (size_t)nf * b);

	for (f = 0; f < nf; f++) {
		st = ppu_event_create(ctx, &ready[f]);
		for (i = 0; i < ns && !st; i++)
			st = ppu_event_create(ctx, &done[(size_t)i * nf + f]);
		if (st) {
			fail(st, "ppu_event_create");
			goto out;
		}
	}

	/*
	 * Submit everything up front, frame by frame.  A wait must be issued
	 * after the record it waits for, so the order is the frames' own
	 * order through the stages; each stream's work stays in frame order.
	 */
	for (f = 0; f < nf; f++) {
		size_t off = (size_t)f * b;

		st = ppu_event_record(ready[f], stream[0]);
		if (st) {
			fail(st, "ppu_event_record(ready, frame %u)", f);
			goto out;
		}
		for (i = 0; i < ns; i++) {
			ppu_devptr src = i ? local[i - 1] + off : in_d + off;
			ppu_devptr dst = i + 1 < ns ? local[i] + off : out_d + off;

			if (i) {
				st = ppu_stream_wait_event(stream[i], done[(size_t)(i - 1) * nf + f]);
				if (st) {
					fail(st, "ppu_stream_wait_event(stage %u, frame %u)", i, f);
					goto out;
				}
			}
			st = ppu_memcpy_async(dst, src, b, stream[i]);
			if (st) {
				fail(st, "ppu_memcpy_async(stage %u, frame %u)", i, f);
				goto out;
			}
			st = ppu_event_record(done[(size_t)i * nf + f], stream[i]);
			if (st) {
				fail(st, "ppu_event_record(stage %u, frame %u)", i, f);
				goto out;
			}
		}
	}

	st = ppu_ctx_synchronize(ctx);
	if (st) {
		fail(st, "ppu_ctx_synchronize");
		goto out;
	}

	st = ppu_event_timestamp(ready[0], &t0);
	if (st) {
		fail(st, "ppu_event_timestamp(ready, frame 0)");
		goto out;
	}
	for (i = 0; i < ns; i++) {
		for (f = 0; f < nf; f++) {
			st = ppu_event_timestamp(done[(size_t)i * nf + f], &t);
			if (st) {
				fail(st, "ppu_event_timestamp(stage %u, frame %u)", i, f);
				goto out;
			}
			r->stage_done[(size_t)i * nf + f] = t;
		}
	}
	r->makespan = 0;
	for (f = 0; f < nf; f++) {
		ppu_event *last = done[(size_t)(ns - 1) * nf + f];

		st = ppu_event_elapsed_cycles(ready[f], last, &r->latency[f]);
		if (!st)
			st = ppu_event_elapsed_cycles(ready[0], last, &r->out_at[f]);
		if (st) {
			fail(st, "ppu_event_elapsed_cycles(frame %u)", f);
			goto out;
		}
		if (r->out_at[f] > r->makespan)
			r->makespan = r->out_at[f];
	}

	/* Byte for byte: the frame went through every stage, in order. */
	r->bad_frames = 0;
	for (f = 0; f < nf; f++) {
		const uint8_t *want = ref + (size_t)f * b, *got = out_h + (size_t)f * b;
		size_t k, nbad = 0, first = 0;

		if (!memcmp(want, got, b))
			continue;
		for (k = 0; k < b; k++) {
			if (want[k] != got[k] && !nbad++)
				first = k;
		}
		fprintf(stderr, "pipeline: run %s: frame %u: %zu of %zu bytes wrong, the first at "
			"offset %zu (%#04x, want %#04x)\n", r->name, f, nbad, b, first, got[first],
			want[first]);
		r->bad_frames++;
	}
	ret = 0;

out:
	/* Destroying the context waits for its work and frees all it owns. */
	if (ctx) {
		st = ppu_ctx_destroy(ctx);
		if (st && !ret)
			ret = fail(st, "ppu_ctx_destroy");
	}
	free(done);
	free(ready);
	free(local);
	free(stream);
	return ret;
}

/* The (frame, stage) copies in the order the PPU completed them. */
static void print_order(const struct pl_opts *o, const struct pl_run *r)
{
	size_t n = (size_t)o->frames * o->stages, k, j;
	size_t *idx = malloc(n * sizeof(*idx));

	if (!idx)
		return;
	for (k = 0; k < n; k++)
		idx[k] = k;
	/* Insertion sort: a few hundred entries at most, and ties keep issue order. */
	for (k = 1; k < n; k++) {
		size_t v = idx[k];

		for (j = k; j > 0 && r->stage_done[idx[j - 1]] > r->stage_done[v]; j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	printf("  completion order (frame.stage):");
	for (k = 0; k < n; k++) {
		if (k % 16 == 0)
			printf("\n   ");
		printf(" %zu.%zu", idx[k] % o->frames, idx[k] / o->frames);
	}
	printf("\n");
	free(idx);
}

static void stats(const int64_t *v, unsigned int n, double *mean, int64_t *max)
{
	unsigned int k;
	double sum = 0;

	*max = v[0];
	for (k = 0; k < n; k++) {
		sum += (double)v[k];
		if (v[k] > *max)
			*max = v[k];
	}
	*mean = sum / n;
}

static double ratio(double num, double den)
{
	return den > 0 ? num / den : 0;
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (end == s)
		return -1;
	if (*end == 'k' || *end == 'K') {
		v <<= 10;
		end++;
	} else if (*end == 'm' || *end == 'M') {
		v <<= 20;
		end++;
	}
	if (*end || v == 0 || v > PL_MAX_BYTES)
		return -1;
	*out = (size_t)v;
	return 0;
}

static int parse_uint(const char *s, unsigned int lo, unsigned int hi, unsigned int *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (end == s || *end || v < lo || v > hi)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static void usage(FILE *fp)
{
	fprintf(fp, "usage: pipeline [--check] [--frames N] [--stages M] [--bytes B[k|M]]\n"
		"  a pipeline of M copy stages in M prioritised streams; per-frame latency\n"
		"  with and without copy priorities (defaults: %u frames, %u stages, %u bytes)\n"
		"  --check  exit 1 unless all data is intact and the mean latency with\n"
		"           priorities is lower than without\n",
		PL_DEFAULT_FRAMES, PL_DEFAULT_STAGES, PL_DEFAULT_BYTES);
}

static int parse_args(int argc, char **argv, struct pl_opts *o)
{
	int k;

	o->frames = PL_DEFAULT_FRAMES;
	o->stages = PL_DEFAULT_STAGES;
	o->bytes = PL_DEFAULT_BYTES;
	o->check = 0;
	for (k = 1; k < argc; k++) {
		const char *a = argv[k], *v = k + 1 < argc ? argv[k + 1] : NULL;

		if (!strcmp(a, "--check")) {
			o->check = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--frames") && v) {
			if (parse_uint(v, 1, PL_MAX_FRAMES, &o->frames))
				goto bad;
			k++;
		} else if (!strcmp(a, "--stages") && v) {
			/* One stage has nothing to give priority over. */
			if (parse_uint(v, 2, PL_MAX_STAGES, &o->stages))
				goto bad;
			k++;
		} else if (!strcmp(a, "--bytes") && v) {
			if (parse_size(v, &o->bytes))
				goto bad;
			k++;
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	fprintf(stderr, "pipeline: bad argument '%s%s%s' (frames 1..%u, stages 2..%u, bytes 1..%u)\n",
		argv[k], k + 1 < argc ? " " : "", k + 1 < argc ? argv[k + 1] : "", PL_MAX_FRAMES,
		PL_MAX_STAGES, PL_MAX_BYTES);
	usage(stderr);
	return -1;
}

static int run_alloc(struct pl_run *r, const struct pl_opts *o)
{
	r->stream_prio = calloc(o->stages, sizeof(*r->stream_prio));
	r->dev_prio = calloc(o->stages, sizeof(*r->dev_prio));
	r->latency = calloc(o->frames, sizeof(*r->latency));
	r->out_at = calloc(o->frames, sizeof(*r->out_at));
	r->stage_done = calloc((size_t)o->frames * o->stages, sizeof(*r->stage_done));
	return r->stream_prio && r->dev_prio && r->latency && r->out_at && r->stage_done ? 0 : -1;
}

static void run_free(struct pl_run *r)
{
	free(r->stream_prio);
	free(r->dev_prio);
	free(r->latency);
	free(r->out_at);
	free(r->stage_done);
}

int main(int argc, char **argv)
{
	struct pl_run runs[2] = {
		{ .name = "A", .copy_prio = 1 },
		{ .name = "B", .copy_prio = 0 },
	};
	struct pl_run *ra = &runs[0], *rb = &runs[1];
	double mean_a, mean_b, out_a, out_b;
	int64_t max_a, max_b, omax_a, omax_b;
	struct ppu_device_info info;
	struct pl_opts o;
	uint8_t *ref = NULL;
	unsigned int f, i;
	ppu_status st;
	int ret = 1, k;

	if (parse_args(argc, argv, &o))
		return 1;
	ref = malloc((size_t)o.frames * o.bytes);
	if (!ref || run_alloc(ra, &o) || run_alloc(rb, &o)) {
		fprintf(stderr, "pipeline: out of host memory\n");
		goto out;
	}
	for (f = 0; f < o.frames; f++)
		frame_fill(ref + (size_t)f * o.bytes, o.bytes, f);

	st = ppu_device_get_info(0, &info);
	if (st) {
		fail(st, "ppu_device_get_info(0)");
		goto out;
	}
	/* Every stage is a priority level of its own, and every level a channel. */
	if (o.stages > info.num_user_channels) {
		fprintf(stderr, "pipeline: %u stages need %u copy channels, one per priority "
			"level; the device has %u for applications\n", o.stages, o.stages,
			info.num_user_channels);
		goto out;
	}
	printf("pipeline: %u frames of %zu bytes through %u copy stages, submitted up front\n",
	       o.frames, o.bytes, o.stages);
	printf("device: %s, %u device priorities, copy chunk %u bytes, %" PRIu64
	       " MiB local memory\n", info.node, info.num_device_priorities,
	       info.copy_chunk_bytes, info.local_mem_bytes >> 20);

	for (k = 0; k < 2; k++) {
		if (run_pipeline(&o, ref, &runs[k]))
			goto out;
	}

	printf("\nstages (stream -> device priority, ppu_stream_get_device_priority):\n");
	for (i = 0; i < o.stages; i++) {
		printf("  stage %2u: %s  stream priority %2d -> device priority %2u", i,
		       stage_route(i, o.stages), ra->stream_prio[i], ra->dev_prio[i]);
		if (ra->dev_prio[i] != rb->dev_prio[i] || ra->stream_prio[i] != rb->stream_prio[i])
			printf(" (run B: %d -> %u)", rb->stream_prio[i], rb->dev_prio[i]);
		if (i && ra->stream_prio[i] == ra->stream_prio[i - 1])
			printf(" (clamped: shares stage %u's level)", i - 1);
		printf("\n");
	}
	printf("  copies split into %" PRIu64 "-byte commands in both runs\n", ra->chunk);

	for (k = 0; k < 2; k++) {
		struct pl_run *r = &runs[k];

		printf("\nrun %s: %s\n", r->name, r->copy_prio ?
		       "copy priorities on (semaphores around every copy, US 9483423)" :
		       "copy priorities off (plain copies: the host's round robin alone)");
		print_order(&o, r);
		printf("  data: %u of %u frames intact\n", o.frames - r->bad_frames, o.frames);
	}

	printf("\nper-frame latency in PPU cycles: ready -> done\n"
	       "  ready: stage 0 has finished the previous frame (event recorded before the\n"
	       "         frame's first copy; it completes when the stream's earlier work has)\n"
	       "  done:  the last stage's copy of the frame has completed\n"
	       "  out at: done, counted from frame 0's ready (all frames were submitted at once)\n\n");
	printf("  frame | latency A (prio) | latency B (none) |   B/A | out at A | out at B\n");
	printf("  ------+------------------+------------------+-------+----------+---------\n");
	for (f = 0; f < o.frames; f++)
		printf("  %5u | %16" PRId64 " | %16" PRId64 " | %5.2f | %8" PRId64 " | %8" PRId64
		       "\n", f, ra->latency[f], rb->latency[f],
		       ratio((double)rb->latency[f], (double)ra->latency[f]), ra->out_at[f],
		       rb->out_at[f]);
	stats(ra->latency, o.frames, &mean_a, &max_a);
	stats(rb->latency, o.frames, &mean_b, &max_b);
	stats(ra->out_at, o.frames, &out_a, &omax_a);
	stats(rb->out_at, o.frames, &out_b, &omax_b);
	printf("  ------+------------------+------------------+-------+----------+---------\n");
	printf("   mean | %16.0f | %16.0f | %5.2f | %8.0f | %8.0f\n", mean_a, mean_b,
	       ratio(mean_b, mean_a), out_a, out_b);
	printf("    max | %16" PRId64 " | %16" PRId64 " | %5.2f | %8" PRId64 " | %8" PRId64 "\n",
	       max_a, max_b, ratio((double)max_b, (double)max_a), omax_a, omax_b);
	printf("\nmean latency: %.0f cycles with priorities, %.0f without: %.2fx\n", mean_a, mean_b,
	       ratio(mean_b, mean_a));
	printf("makespan (frame 0 ready -> last frame done): %" PRId64 " with, %" PRId64
	       " without (%.3fx)\n", ra->makespan, rb->makespan,
	       ratio((double)ra->makespan, (double)rb->makespan));

	ret = 0;
	if (ra->bad_frames || rb->bad_frames) {
		printf("data: FAILED (%u frames wrong with priorities, %u without)\n", ra->bad_frames,
		       rb->bad_frames);
		ret = 1;
	}
	if (o.check) {
		if (!ret && mean_a < mean_b) {
			printf("check: PASS (all data intact; mean latency lower with priorities)\n");
		} else {
			if (mean_a >= mean_b)
				printf("check: FAIL: mean latency with priorities (%.0f) is not lower "
				       "than without (%.0f)\n", mean_a, mean_b);
			else
				printf("check: FAIL: data\n");
			ret = 1;
		}
	}

out:
	run_free(ra);
	run_free(rb);
	free(ref);
	return ret;
}
