// SPDX-License-Identifier: MIT
/*
 * Kernel launches (docs/compute-design.md §8.3).  Each priority level that
 * launches a kernel gets a compute channel, made at its first kernel with
 * priority = prio_min = the level's device priority and the context's
 * nesting depth.  A launch takes
 *
 * - a launch slot from a ring in system memory: the TMD (64-byte aligned)
 *   with the parameter block after it, both written by the CPU;
 * - a task block (thread records and stacks) from an arena in local
 *   memory (system memory when there is none), sized by launch_plan;
 *
 * and submits TMD_ADDR, LAUNCH and WFI (launch_cmds.h) into the compute
 * channel, in stream order with the level's copies (stream.c).  Both rings
 * are recycled by the channels' timelines (tl_ring.h): the TMD is re-read
 * by the PPU until the task completes, and the block holds its state.
 */
#include <stdlib.h>
#include <string.h>

#include "drm/ppu_drm.h"
#include "launch_cmds.h"
#include "ppu/ppu_workq.h"
#include "ppu_internal.h"

/* Launch slots: 2048 launches without parameters beyond 64 bytes. */
#define SLOTS_BYTES (256u << 10)
/* Task blocks: the arena grows (when idle) to the largest block asked for. */
#define ARENA_MIN_BYTES (256u << 10)
#define ARENA_ALIGN 256u

/* PPU_SUCCESS when the device runs kernels, with its limits in ctx->kern.lim. */
static ppu_status compute_check(ppu_ctx *ctx)
{
	const struct ppu_device_info *in = &ctx->info;
	struct ppu_launch_limits *lim = &ctx->kern.lim;

	if (!(in->features & DRM_PPU_FEATURE_COMPUTE_ENGINE) || !in->num_cu)
		return ppu_fail(PPU_ERROR_NOT_SUPPORTED, "ppu_launch_kernel: the PPU has no "
				"compute engine (features %#llx, %u compute units)",
				(unsigned long long)in->features, in->num_cu);
	if (!in->cu_contexts || !in->max_cta_threads)
		return ppu_fail(PPU_ERROR_NOT_SUPPORTED, "ppu_launch_kernel: the driver does not "
				"report the compute limits (GET_PARAM %u: %u contexts per unit, "
				"%u: %u threads per CTA)", DRM_PPU_PARAM_CU_CONTEXTS,
				in->cu_contexts, DRM_PPU_PARAM_MAX_CTA_THREADS,
				in->max_cta_threads);
	lim->num_cu = in->num_cu;
	lim->cu_contexts = in->cu_contexts;
	lim->max_cta_threads = in->max_cta_threads;
	return PPU_SUCCESS;
}

/* A range's work is finished, or will never run (its channel faulted). */
static int tag_done(const void *owner, uint32_t seq)
{
	const struct ppu_chan *ch = owner;

	return ch->dead || ppu_chan_done(ch, seq);
}

/* Waits for the oldest range's work and gives the range back. */
static ppu_status ring_free_oldest(struct ppu_tl_ring *r)
{
	const struct ppu_tl_ring_tag *t = ppu_tl_ring_oldest(r);
	struct ppu_chan *ch = (struct ppu_chan *)t->owner;
	ppu_status st;

	/*
	 * An entry that was never submitted: a launch that failed after it
	 * took the range (one launch of the context is in progress at a time,
	 * and it takes from this ring only once it is done waiting).
	 */
	if ((int32_t)(t->seq - ch->seq) > 0) {
		ppu_tl_ring_free_oldest(r);
		return PPU_SUCCESS;
	}
	st = ppu_chan_wait(ch, t->seq);
	/* Lost work never touches its range again. */
	if (st && !ch->dead)
		return st;
	ppu_clear_error();
	ppu_tl_ring_free_oldest(r);
	return PPU_SUCCESS;
}

/* @len bytes of @r until entry @seq of @ch has completed, waiting for room. */
static ppu_status ring_take(struct ppu_tl_ring *r, uint64_t len, struct ppu_chan *ch,
			    uint32_t seq, uint64_t *off)
{
	ppu_status st;

	ppu_tl_ring_reclaim(r, tag_done);
	while (ppu_tl_ring_alloc(r, len, ch, seq, off)) {
		if (!ppu_tl_ring_oldest(r))
			return ppu_fail(PPU_ERROR_INVALID_VALUE, "internal: %llu bytes do not fit "
					"a ring of %llu", (unsigned long long)len,
					(unsigned long long)r->bytes);
		st = ring_free_oldest(r);
		if (st)
			return st;
	}
	return PPU_SUCCESS;
}

/* Device memory of a ring, with its tags; local memory if @local and there is room. */
static ppu_status ring_new(ppu_ctx *ctx, struct ppu_alloc *mem, struct ppu_tl_ring *r,
			   struct ppu_tl_ring_tag **tags, uint64_t bytes, uint32_t align,
			   int local)
{
	ppu_status st = PPU_ERROR_NOT_SUPPORTED;

	*tags = calloc(ppu_tl_ring_tags_needed(bytes, align), sizeof(**tags));
	if (!*tags)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	if (local && ctx->info.local_mem_bytes)
		st = ppu_bo_new(ctx, mem, bytes, 1, 0);
	if (st == PPU_ERROR_NOT_SUPPORTED || st == PPU_ERROR_OUT_OF_DEVICE_MEMORY) {
		ppu_clear_error();
		st = ppu_bo_new(ctx, mem, bytes, 0, !local);
	}
	if (st) {
		free(*tags);
		*tags = NULL;
		return st;
	}
	ppu_tl_ring_init(r, bytes, align, *tags);
	return PPU_SUCCESS;
}

static void ring_free(ppu_ctx *ctx, struct ppu_alloc *mem, struct ppu_tl_ring_tag **tags)
{
	ppu_bo_free(ctx, mem);
	free(*tags);
	*tags = NULL;
}

/* A launch slot (TMD and parameters) until entry @seq of @ch has completed. */
static ppu_status slot_take(ppu_ctx *ctx, uint32_t bytes, struct ppu_chan *ch, uint32_t seq,
			    uint32_t *va, uint32_t **cpu)
{
	struct ppu_kernels *k = &ctx->kern;
	uint64_t off;
	ppu_status st;

	if (!k->slots_tags) {
		st = ring_new(ctx, &k->slots_mem, &k->slots, &k->slots_tags, SLOTS_BYTES,
			      PPU_TMD_BYTES, 0);
		if (st)
			return st;
	}
	st = ring_take(&k->slots, bytes, ch, seq, &off);
	if (st)
		return st;
	*va = (uint32_t)(k->slots_mem.va + off);
	*cpu = (uint32_t *)((uint8_t *)k->slots_mem.map + off);
	return PPU_SUCCESS;
}

/* A task block of @bytes until entry @seq of @ch has completed. */
static ppu_status block_take(ppu_ctx *ctx, uint32_t bytes, struct ppu_chan *ch, uint32_t seq,
			     uint32_t *va)
{
	struct ppu_kernels *k = &ctx->kern;
	uint64_t off, size;
	ppu_status st;

	if (k->arena_tags && bytes > k->arena.bytes) {
		/* Too small: let it drain, then make a larger one. */
		while (ppu_tl_ring_oldest(&k->arena)) {
			st = ring_free_oldest(&k->arena);
			if (st)
				return st;
		}
		ring_free(ctx, &k->arena_mem, &k->arena_tags);
	}
	if (!k->arena_tags) {
		for (size = ARENA_MIN_BYTES; size < bytes; size *= 2)
			;
		st = ring_new(ctx, &k->arena_mem, &k->arena, &k->arena_tags, size, ARENA_ALIGN, 1);
		if (st)
			return st;
	}
	st = ring_take(&k->arena, bytes, ch, seq, &off);
	if (st)
		return st;
	*va = (uint32_t)(k->arena_mem.va + off);
	return PPU_SUCCESS;
}

void ppu_kernels_free(ppu_ctx *ctx)
{
	struct ppu_kernels *k = &ctx->kern;

	ring_free(ctx, &k->slots_mem, &k->slots_tags);
	ring_free(ctx, &k->arena_mem, &k->arena_tags);
}

/* The level's compute channel, made at its first kernel. */
static ppu_status compute_chan(ppu_ctx *ctx, unsigned int level, struct ppu_chan **out)
{
	unsigned int dev_prio = ppu_prio_map_device(&ctx->map, (int)level);
	struct ppu_chan *ch = ctx->kchan[level];
	ppu_status st;

	if (!ch) {
		/*
		 * Launches are clamped to [prio_min, the level's device
		 * priority]: with kernel priorities off, the prior art's 0.
		 */
		st = ppu_chan_new_compute(ctx, level,
					  ctx->kernel_prios == PPU_KERNEL_PRIORITIES_ON ? dev_prio : 0,
					  (unsigned int)ctx->max_depth, &ch);
		if (st)
			return st;
		ctx->kchan[level] = ch;
	}
	*out = ch;
	return PPU_SUCCESS;
}

/* A launch; with @q, a work-creating one (workq.c). */
static ppu_status launch(ppu_function *fn, ppu_dim3 grid, ppu_dim3 cta, const void *params,
			 size_t param_bytes, ppu_stream *s, ppu_work_queue *q)
{
	struct ppu_launch_shape shape = {
		.grid = { grid.x, grid.y, grid.z },
		.cta = { cta.x, cta.y, cta.z },
	};
	struct ppu_launch_desc d = { 0 };
	struct ppu_launch_plan plan;
	struct ppu_stream_order o;
	struct ppu_chan *ch;
	uint32_t seq, slot_va, *slot, ndw = q ? PPU_WORKQ_LAUNCH_CMD_DWORDS : PPU_LAUNCH_CMD_DWORDS;
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	struct ppu_pb pb;
	char err[200];
	ppu_ctx *ctx;
	ppu_status st;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_launch_kernel");
	if (st)
		return st;
	ctx = s->ctx;
	if (!fn)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel: NULL function");
	if (ppu_function_ctx(fn) != ctx)
		return ppu_ctx_mismatch("ppu_launch_kernel", "the function", ppu_function_ctx(fn),
					"the stream", ctx);
	if (param_bytes && !params)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel: NULL parameters of "
				"%zu bytes", param_bytes);
	if (param_bytes > PPU_MAX_PARAM_BYTES)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel: %zu parameter bytes "
				"are more than %u", param_bytes, PPU_MAX_PARAM_BYTES);
	st = compute_check(ctx);
	if (st)
		return st;
	shape.stack_bytes = (uint32_t)ctx->stack_bytes;
	if (ppu_launch_plan(&ctx->kern.lim, &shape, &plan, err, sizeof(err)))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel: %s", err);
	if (q) {
		st = ppu_workq_launch_prepare(q, s, param_bytes, (uint64_t)plan.threads * plan.ctas);
		if (st)
			return st;
	}

	ppu_ctx_launch(ctx);
	st = compute_chan(ctx, s->level, &ch);
	if (st)
		return st;
	/* The entry this launch becomes: its resources are free once it has completed. */
	seq = ch->seq + 1;
	st = slot_take(ctx, ppu_launch_slot_bytes(param_bytes), ch, seq, &slot_va, &slot);
	if (!st)
		st = block_take(ctx, plan.block_bytes, ch, seq, &d.block_va);
	/* a window waits for the queue: its fault is the launch's (fault.c) */
	if (!st && q)
		st = ppu_chan_dep_reserve(ch);
	if (!st)
		st = ppu_stream_begin(s, ch, ndw, &pb, &o);
	if (st)
		return st;

	d.entry_pc = ppu_function_entry(fn);
	d.param_va = param_bytes ? slot_va + PPU_LAUNCH_SLOT_PARAMS : 0;
	d.prio = ctx->kernel_prios == PPU_KERNEL_PRIORITIES_ON ? ch->dev_prio : 0;
	/*
	 * The kernel's completion is the entry's, except for a window, whose
	 * entry ends only once Y is released: its timeline release at the end
	 * of the entry is the only one.
	 */
	d.sem_va = q ? 0 : ch->timeline.va;
	d.sem_payload = q ? 0 : seq;
	d.icache_invalidate = ch->icache_gen != ctx->module_gen;
	ppu_launch_tmd(slot, &shape, &plan, &d);
	if (param_bytes)
		memcpy((uint8_t *)slot + PPU_LAUNCH_SLOT_PARAMS, params, param_bytes);
	if (q) {
		uint32_t p0;

		ppu_workq_launch_emit(q, &pb, slot_va, plan.threads * plan.ctas, &p0);
		memcpy((uint8_t *)slot + PPU_LAUNCH_SLOT_PARAMS, &p0, sizeof(p0));
	} else {
		ppu_launch_cmds(&pb, slot_va);
	}
	/* ppu_chan_submit() orders the slot's stores before GP_PUT. */
	st = ppu_stream_submit(s, ch, &pb, &o, &seq);
	if (st)
		return st;
	ch->icache_gen = ctx->module_gen;
	if (q) {
		/* (its timeline never reaches 1: the dependency lasts until this entry is done) */
		ppu_chan_dep_add(ch, ppu_workq_chan(q), 1, seq);
		ppu_workq_launched(q, s);
	}
	if (PPU_TRACING()) {
		const char *mod, *name = ppu_function_name(fn, &mod);

		ppu_trace_line(t0, ppu_trace_now() - t0, "LAUNCH", "ctx=%u stream=%u ch=%u "
			       "copy_ch=%u prio=%d dev_prio=%u task_prio=%u fn=%s module=%s "
			       "grid=%u,%u,%u cta=%u,%u,%u params=%zu seq=%u%s", ctx->trace_id,
			       s->trace_id, ch->chid, s->chan->chid, s->prio, ch->dev_prio, d.prio,
			       name, mod, grid.x, grid.y, grid.z, cta.x, cta.y, cta.z, param_bytes,
			       seq, q ? " workq=1" : "");
	}
	return PPU_SUCCESS;
}

ppu_status ppu_launch_kernel(ppu_function *fn, ppu_dim3 grid, ppu_dim3 cta, const void *params,
			     size_t param_bytes, ppu_stream *s)
{
	return launch(fn, grid, cta, params, param_bytes, s, NULL);
}

ppu_status ppu_launch_kernel_workq(ppu_function *fn, ppu_dim3 grid, ppu_dim3 cta,
				   const void *params, size_t param_bytes, ppu_work_queue *q,
				   ppu_stream *s)
{
	if (!q) {
		ppu_clear_error();
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel_workq: NULL queue");
	}
	return launch(fn, grid, cta, params, param_bytes, s, q);
}
