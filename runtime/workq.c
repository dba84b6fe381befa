// SPDX-License-Identifier: MIT
/*
 * Device-side work creation through a PPU-owned work queue (SEEDS §C;
 * docs/compute-design.md §6.4; the formats in include/ppu/ppu_workq.h).
 *
 * A queue is a compute channel whose ring is always full (AUTO_PUT), one
 * buffer object holding its descriptor, X, Y, one semaphore per entry and
 * one trailing-block slot per entry, and a parking block at entry 0.  A
 * work-creating launch goes to the stream's compute channel as the SEEDS
 * sequence (the thread count, KERNEL LAUNCH, WAIT FOR IDLE, SEM_RELEASE X,
 * SEM_ACQUIRE Y); the kernel's threads submit, the last one closes the
 * window, and the queue parks again for the next launch.
 */
#include <stdlib.h>
#include <string.h>

#include "drm/ppu_drm.h"
#include "ppu/ppu_workq.h"
#include "ppu_internal.h"

/* Buffer layout: descriptor, X, Y, the parking block, then semaphores and trailing blocks. */
#define WQ_DESC 0x000u
#define WQ_X 0x040u
#define WQ_Y 0x048u
#define WQ_PARK 0x080u
#define WQ_PARK_DW 32u
#define WQ_SEMS 0x1000u

struct ppu_work_queue {
	ppu_ctx *ctx;
	ppu_work_queue *next;
	struct ppu_chan *ch;
	struct ppu_alloc mem;
	struct ppu_workq desc;		/* as written at creation (the PPU owns soft, shadow, live, gen) */
	uint32_t desc_va;
	uint32_t gen;			/* launches so far */
	ppu_stream *stream;		/* of its launches */
};

ppu_status ppu_work_queue_create(ppu_ctx *ctx, unsigned int log2_entries, ppu_work_queue **out)
{
	uint32_t n, bytes, *gp;
	ppu_work_queue *q;
	struct ppu_pb pb;
	ppu_status st;
	int ret;

	ppu_clear_error();
	if (!ctx || !out)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_work_queue_create: NULL argument");
	if (log2_entries < PPU_WORK_QUEUE_LOG2_MIN || log2_entries > PPU_WORK_QUEUE_LOG2_MAX)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_work_queue_create: 2^%u entries is "
				"outside 2^%u .. 2^%u", log2_entries, PPU_WORK_QUEUE_LOG2_MIN,
				PPU_WORK_QUEUE_LOG2_MAX);
	if (!(ctx->info.features & DRM_PPU_FEATURE_COMPUTE_ENGINE) ||
	    !(ctx->info.features & DRM_PPU_FEATURE_AUTO_PUT))
		return ppu_fail(PPU_ERROR_NOT_SUPPORTED, "ppu_work_queue_create: the PPU has no "
				"compute engine or no always-full rings (features %#llx)",
				(unsigned long long)ctx->info.features);
	q = calloc(1, sizeof(*q));
	if (!q)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "out of host memory");
	q->ctx = ctx;
	n = 1u << log2_entries;
	bytes = WQ_SEMS + 4 * n + PPU_WORKQ_TAIL_BYTES * n;
	/* Host-visible: the descriptor and the parking block are written here. */
	st = ppu_bo_new(ctx, &q->mem, bytes, 0, 1);
	if (st)
		goto err_free;
	st = ppu_chan_new_queue(ctx, ctx->default_stream.level, log2_entries, &q->ch);
	if (st)
		goto err_mem;

	q->desc_va = (uint32_t)q->mem.va + WQ_DESC;
	q->desc.soft = 1;
	q->desc.shadow = n - 1;
	q->desc.ring_va = (uint32_t)q->ch->ring.va;
	q->desc.log2_entries = log2_entries;
	q->desc.sems_va = (uint32_t)q->mem.va + WQ_SEMS;
	q->desc.tails_va = q->desc.sems_va + 4 * n;
	q->desc.gen = 1;
	q->desc.x_va = (uint32_t)q->mem.va + WQ_X;
	q->desc.y_va = (uint32_t)q->mem.va + WQ_Y;
	memcpy((uint8_t *)q->mem.map + WQ_DESC, &q->desc, sizeof(q->desc));
	/* Entry 0 parks the queue on X = 1 and on its own semaphore (ppu_workq_park()). */
	ppu_pb_init(&pb, (uint32_t *)((uint8_t *)q->mem.map + WQ_PARK), WQ_PARK_DW);
	ppu_workq_park(&pb, &q->desc, q->desc.x_va, 1, 0);
	gp = (uint32_t *)q->ch->ring.map;
	ppu_gp_entry(gp, (uint32_t)q->mem.va + WQ_PARK, pb.len, 0);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	/* The first doorbell binds the channel; it runs into the parking block and waits. */
	ret = ppu_ioctl(ctx->fd, DRM_IOCTL_PPU_DOORBELL, &(struct drm_ppu_doorbell){ .chid = q->ch->chid });
	if (ret) {
		st = ppu_fail_errno(-ret, "DOORBELL of the work queue's channel");
		goto err_chan;
	}
	if (PPU_TRACING())
		ppu_trace_line(ppu_trace_now(), -1, "WORKQ_CREATE", "ctx=%u ch=%u entries=%u "
			       "desc_va=%#x", ctx->trace_id, q->ch->chid, n, q->desc_va);
	q->next = ctx->workqs;
	ctx->workqs = q;
	*out = q;
	return PPU_SUCCESS;

err_chan:
	ppu_chan_free(q->ch);
err_mem:
	ppu_bo_free(ctx, &q->mem);
err_free:
	free(q);
	return st;
}

static void queue_free(ppu_work_queue *q)
{
	/* (its timeline stays 0: ppu_chan_free() has nothing to wait for) */
	ppu_chan_free(q->ch);
	ppu_bo_free(q->ctx, &q->mem);
	free(q);
}

ppu_status ppu_work_queue_destroy(ppu_work_queue *q)
{
	ppu_work_queue **p;
	ppu_status st = PPU_SUCCESS;

	ppu_clear_error();
	if (!q)
		return PPU_SUCCESS;
	/* Its last window must have closed (the stream that launched into it is past Y). */
	if (q->stream)
		st = ppu_stream_synchronize(q->stream);
	/*
	 * A window that faulted leaves its launching channel waiting on Y in
	 * hardware: the queue's memory stays until the context's channels are
	 * gone (ppu_ctx_destroy()).
	 */
	if (q->ch->dead)
		return st;
	for (p = &q->ctx->workqs; *p; p = &(*p)->next)
		if (*p == q) {
			*p = q->next;
			break;
		}
	queue_free(q);
	return st;
}

void ppu_work_queues_free(ppu_ctx *ctx)
{
	while (ctx->workqs) {
		ppu_work_queue *q = ctx->workqs;

		ctx->workqs = q->next;
		queue_free(q);
	}
}

ppu_devptr ppu_work_queue_devptr(ppu_work_queue *q)
{
	return q ? q->desc_va : 0;
}

ppu_status ppu_workq_launch_prepare(ppu_work_queue *q, ppu_stream *s, size_t param_bytes,
				    uint64_t threads)
{
	if (q->ctx != s->ctx)
		return ppu_ctx_mismatch("ppu_launch_kernel_workq", "the work queue", q->ctx,
					"the stream", s->ctx);
	if (param_bytes < sizeof(uint32_t))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel_workq: the parameters "
				"must begin with the queue's address (%zu bytes)", param_bytes);
	/* One stream per queue: its windows follow each other in that stream's order. */
	if (q->stream && q->stream != s)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel_workq: the queue is "
				"used by another stream");
	if (threads > UINT32_MAX)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_launch_kernel_workq: %llu threads are "
				"more than a window counts (2^32 - 1)", (unsigned long long)threads);
	if (q->ch->dead)
		return ppu_chan_fault_status(q->ch);
	return PPU_SUCCESS;
}

void ppu_workq_launch_emit(ppu_work_queue *q, struct ppu_pb *pb, uint32_t tmd_va, uint32_t threads,
			   uint32_t *param0)
{
	*param0 = q->desc_va;
	ppu_workq_launch_cmds(pb, &q->desc, q->desc_va, tmd_va, threads, q->gen + 1);
}

void ppu_workq_launched(ppu_work_queue *q, ppu_stream *s)
{
	q->gen++;
	q->stream = s;
}

struct ppu_chan *ppu_workq_chan(ppu_work_queue *q)
{
	return q->ch;
}
