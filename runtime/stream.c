// SPDX-License-Identifier: MIT
/*
 * Stream work: copies through the copy-priority module, cross-stream waits,
 * stream synchronisation.  A stream's work is the tail of its level's
 * (streams of one priority share the level's channels), so a stream is
 * complete when the timeline of the channel of its last work has passed
 * the stream's last entry.
 *
 * A level has a copy channel and, once it launched a kernel, a compute
 * channel; the two run side by side.  Work that goes to the other channel
 * than the level's latest work first waits for that work on the PPU (a
 * SEM_ACQUIRE of its timeline), so the level's work keeps its order across
 * both and the last entry completes last.  Semaphore operations (events,
 * waits, writes) go to the channel of the latest work and need no such wait.
 */
#include "drm/ppu_drm.h"
#include "ppu_internal.h"

ppu_status ppu_stream_check(ppu_stream *s, const char *fn)
{
	struct ppu_chan *k;

	if (!s || !s->ctx || !s->chan)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "%s: NULL stream", fn);
	if (s->chan->dead)
		return ppu_chan_fault_status(s->chan);
	/* Later work of the level would wait for the lost kernels. */
	k = s->ctx->kchan[s->level];
	if (k && k->dead)
		return ppu_chan_fault_status(k);
	return PPU_SUCCESS;
}

/* The channel of the level's latest work (the copy channel before any). */
static struct ppu_chan *level_last(ppu_ctx *ctx, unsigned int level)
{
	struct ppu_chan *c = ctx->chan[level], *k = ctx->kchan[level];

	return k && k->stamp > c->stamp ? k : c;
}

ppu_status ppu_stream_get_priority(ppu_stream *s, int *prio)
{
	ppu_clear_error();
	if (!s || !prio)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_stream_get_priority: NULL argument");
	*prio = s->prio;
	return PPU_SUCCESS;
}

ppu_status ppu_stream_get_device_priority(ppu_stream *s, unsigned int *device_prio)
{
	ppu_clear_error();
	if (!s || !device_prio || !s->chan)
		return ppu_fail(PPU_ERROR_INVALID_VALUE,
				"ppu_stream_get_device_priority: NULL argument");
	*device_prio = s->chan->dev_prio;
	return PPU_SUCCESS;
}

ppu_status ppu_stream_synchronize(ppu_stream *s)
{
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	ppu_status st;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_stream_synchronize");
	if (st || !s->has_work)
		return st;
	st = ppu_chan_wait(s->last_chan, s->last_seq);
	if (PPU_TRACING()) {
		ppu_trace_line(t0, ppu_trace_now() - t0, "STREAM_SYNC", "ctx=%u stream=%u ch=%u "
			       "seq=%u status=%s", s->ctx->trace_id, s->trace_id, s->last_chan->chid,
			       s->last_seq, ppu_status_name(st));
		ppu_trace_sync_counter(s->ctx);
	}
	return st;
}

ppu_status ppu_stream_query(ppu_stream *s)
{
	ppu_status st;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_stream_query");
	if (st || !s->has_work || ppu_chan_done(s->last_chan, s->last_seq))
		return st;
	st = ppu_chan_check(s->last_chan);
	return st ? st : PPU_ERROR_NOT_READY;
}

/* Channel @ch now ends with entry @seq, which belongs to the stream. */
static void stream_mark(ppu_stream *s, struct ppu_chan *ch, uint32_t seq)
{
	s->last_chan = ch;
	s->last_seq = seq;
	s->has_work = 1;
}

ppu_status ppu_stream_begin(ppu_stream *s, struct ppu_chan *ch, uint32_t min, struct ppu_pb *pb,
			    struct ppu_stream_order *o)
{
	struct ppu_chan *prev = level_last(s->ctx, s->level);
	ppu_status st;

	o->on = NULL;
	if (prev != ch && prev->stamp && !ppu_chan_done(prev, prev->seq)) {
		/* Work that waits for lost work is lost too (fault.c). */
		if (prev->dead) {
			ppu_chan_faulted(ch, prev);
			return ppu_chan_fault_status(ch);
		}
		st = ppu_chan_dep_reserve(ch);
		if (st)
			return st;
		o->on = prev;
		o->on_seq = prev->seq;
		min += PPU_SEM_METHOD_DWORDS;
	}
	st = ppu_chan_begin(ch, min, pb);
	if (st)
		return st;
	if (o->on)
		ppu_pb_sem(pb, o->on->timeline.va, o->on_seq,
			   ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0));
	return PPU_SUCCESS;
}

ppu_status ppu_stream_submit(ppu_stream *s, struct ppu_chan *ch, struct ppu_pb *pb,
			     const struct ppu_stream_order *o, uint32_t *seq)
{
	ppu_status st = ppu_chan_submit(ch, pb, seq);

	if (st)
		return st;
	if (o->on)
		ppu_chan_dep_add(ch, o->on, o->on_seq, *seq);
	stream_mark(s, ch, *seq);
	return PPU_SUCCESS;
}

/* The word of a stream memory operation: aligned, inside one allocation. */
static ppu_status value_word_check(ppu_stream *s, ppu_devptr addr, const char *fn)
{
	if (addr & 3)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "%s: address %#llx is not 4-byte aligned",
				fn, (unsigned long long)addr);
	if (!ppu_alloc_find(s->ctx, addr, 4)) {
		if (ppu_ctx_foreign(s->ctx, addr, 4, NULL, fn, "the address"))
			return PPU_ERROR_CONTEXT_MISMATCH;
		return ppu_fail(PPU_ERROR_INVALID_VALUE,
				"%s: address %#llx is not inside an allocation of this context", fn,
				(unsigned long long)addr);
	}
	return PPU_SUCCESS;
}

struct ppu_chan *ppu_stream_sem_chan(ppu_stream *s)
{
	return level_last(s->ctx, s->level);
}

ppu_status ppu_stream_sem_op(ppu_stream *s, uint32_t va, uint32_t payload, uint32_t exec,
			     uint32_t *seq)
{
	struct ppu_chan *ch = ppu_stream_sem_chan(s);
	struct ppu_pb pb;
	ppu_status st;

	ppu_ctx_launch(s->ctx);
	st = ppu_chan_begin(ch, PPU_SEM_METHOD_DWORDS, &pb);
	if (st)
		return st;
	ppu_pb_sem(&pb, va, payload, exec);
	st = ppu_chan_submit(ch, &pb, seq);
	if (!st)
		stream_mark(s, ch, *seq);
	return st;
}

static ppu_status stream_sem_op(ppu_stream *s, uint32_t va, uint32_t payload, uint32_t exec)
{
	uint32_t seq;

	return ppu_stream_sem_op(s, va, payload, exec, &seq);
}

ppu_status ppu_stream_wait_event(ppu_stream *s, ppu_event *ev)
{
	struct ppu_chan *ch;
	ppu_status st;
	uint32_t seq;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_stream_wait_event");
	if (st)
		return st;
	if (!ev)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_stream_wait_event: NULL event");
	if (ev->ctx != s->ctx)
		return ppu_ctx_mismatch("ppu_stream_wait_event", "the event", ev->ctx, "the stream",
					s->ctx);
	/* Nothing recorded, or recorded in this very level: already in order. */
	if (!ev->count || ev->chan->level == s->level)
		return PPU_SUCCESS;
	ch = ppu_stream_sem_chan(s);
	/* Work that waits for lost work is lost too (fault.c). */
	if (ev->chan->dead && !ppu_chan_done(ev->chan, ev->seq)) {
		ppu_chan_faulted(ch, ev->chan);
		return ppu_chan_fault_status(ch);
	}
	st = ppu_chan_dep_reserve(ch);
	if (!st)
		st = ppu_stream_sem_op(s, ev->sem.va, ev->count,
				       ppu_sem_acquire_op(PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ, 0),
				       &seq);
	if (!st)
		ppu_chan_dep_add(ch, ev->chan, ev->seq, seq);
	return st;
}

ppu_status ppu_stream_wait_value32(ppu_stream *s, ppu_devptr addr, uint32_t value,
				   enum ppu_wait_cond cond)
{
	static const uint32_t op[] = {
		[PPU_WAIT_VALUE_GEQ] = PPU_SEM_EXECUTE_OPERATION_ACQ_CIRC_GEQ,
		[PPU_WAIT_VALUE_EQ] = PPU_SEM_EXECUTE_OPERATION_ACQUIRE,
		[PPU_WAIT_VALUE_AND] = PPU_SEM_EXECUTE_OPERATION_ACQ_AND,
	};
	ppu_status st;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_stream_wait_value32");
	if (st)
		return st;
	if ((unsigned int)cond >= sizeof(op) / sizeof(op[0]))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_stream_wait_value32: unknown "
				"condition %d", (int)cond);
	if (cond == PPU_WAIT_VALUE_AND && !value)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_stream_wait_value32: "
				"PPU_WAIT_VALUE_AND with value 0 never completes");
	st = value_word_check(s, addr, "ppu_stream_wait_value32");
	if (st)
		return st;
	return stream_sem_op(s, (uint32_t)addr, value, ppu_sem_acquire_op(op[cond], 0));
}

ppu_status ppu_stream_write_value32(ppu_stream *s, ppu_devptr addr, uint32_t value)
{
	ppu_status st;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_stream_write_value32");
	if (!st)
		st = value_word_check(s, addr, "ppu_stream_write_value32");
	if (st)
		return st;
	return stream_sem_op(s, (uint32_t)addr, value, ppu_sem_release_op(0, 0, 0));
}

static const char *const copy_sem_mode[] = { "off", "strict", "patent" };

/* The chunks of @op that the segment submitted as entry @seq holds: [@from, @to) of @bytes. */
static void trace_chunks(const ppu_stream *s, const struct ppu_copy_op *op, size_t bytes,
			 uint64_t from, uint64_t to, uint32_t seq)
{
	int64_t now = ppu_trace_now();
	uint64_t i;

	for (i = from / op->chunk; i * op->chunk < to; i++) {
		uint64_t off = i * op->chunk, n = bytes - off < op->chunk ? bytes - off : op->chunk;

		ppu_trace_line(now, -1, "CHUNK", "ctx=%u stream=%u ch=%u index=%llu offset=%llu "
			       "bytes=%llu seq=%u", s->ctx->trace_id, s->trace_id, s->chan->chid,
			       (unsigned long long)i, (unsigned long long)off,
			       (unsigned long long)n, seq);
	}
}

static void trace_copy(const ppu_stream *s, const struct ppu_copy_op *op, int64_t t0,
		       ppu_devptr dst, ppu_devptr src, size_t bytes, uint32_t seq0, uint32_t seq1,
		       ppu_status st)
{
	ppu_ctx *ctx = s->ctx;
	const struct ppu_copy_prio *cp = &ctx->cp;
	int sem = cp->sems && s->level > 0;

	ppu_trace_line(t0, ppu_trace_now() - t0, "COPY", "ctx=%u stream=%u ch=%u prio=%d "
		       "dev_prio=%u bytes=%zu src=%s dst=%s src_va=%#llx dst_va=%#llx chunks=%llu "
		       "chunk_bytes=%u sem=%s inc=%d acquires=%u dec=%d sem_va=%#x seq=%u..%u "
		       "status=%s", ctx->trace_id, s->trace_id, s->chan->chid, s->prio,
		       s->chan->dev_prio, bytes, ppu_trace_mem_kind(ctx, src),
		       ppu_trace_mem_kind(ctx, dst), (unsigned long long)src,
		       (unsigned long long)dst,
		       (unsigned long long)((bytes + op->chunk - 1) / op->chunk), op->chunk,
		       copy_sem_mode[ctx->copy_sems], sem, ppu_copy_prio_acquires(cp, s->level),
		       sem, sem ? cp->sem_va[s->level] : 0, seq0, seq1, ppu_status_name(st));
}

ppu_status ppu_memcpy_async(ppu_devptr dst, ppu_devptr src, size_t bytes, ppu_stream *s)
{
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	uint32_t seq = 0, seq0 = 0;
	struct ppu_copy_op op;
	ppu_ctx *ctx;
	ppu_status st;
	int done = 0;

	ppu_clear_error();
	st = ppu_stream_check(s, "ppu_memcpy_async");
	if (st)
		return st;
	ctx = s->ctx;
	if (!bytes)
		return PPU_SUCCESS;
	if (!ppu_alloc_find(ctx, src, bytes) &&
	    ppu_ctx_foreign(ctx, src, bytes, NULL, "ppu_memcpy_async", "the source"))
		return PPU_ERROR_CONTEXT_MISMATCH;
	if (!ppu_alloc_find(ctx, dst, bytes) &&
	    ppu_ctx_foreign(ctx, dst, bytes, NULL, "ppu_memcpy_async", "the destination"))
		return PPU_ERROR_CONTEXT_MISMATCH;
	if (!ppu_alloc_find(ctx, src, bytes))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_memcpy_async: source [%#llx, +%zu) is "
				"not inside one allocation of this context",
				(unsigned long long)src, bytes);
	if (!ppu_alloc_find(ctx, dst, bytes))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_memcpy_async: destination [%#llx, "
				"+%zu) is not inside one allocation of this context",
				(unsigned long long)dst, bytes);
	if (ppu_copy_op_init(&ctx->cp, &op, s->level, (uint32_t)dst, (uint32_t)src, bytes,
			     (uint32_t)ctx->chunk_bytes))
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_memcpy_async: bad copy");
	ppu_ctx_launch(ctx);
	while (!done) {
		struct ppu_stream_order o;
		uint64_t left = op.left;
		struct ppu_pb pb;

		st = ppu_stream_begin(s, s->chan, ppu_copy_prio_step_dwords(&ctx->cp, s->level),
				      &pb, &o);
		if (st)
			break;
		done = ppu_copy_prio_emit(&ctx->cp, &op, &pb);
		st = ppu_stream_submit(s, s->chan, &pb, &o, &seq);
		if (st)
			break;
		if (!seq0)
			seq0 = seq;
		/* Chunks only when the copy is split; a whole copy is the COPY line. */
		if (PPU_TRACING() && bytes > op.chunk)
			trace_chunks(s, &op, bytes, bytes - left, bytes - op.left, seq);
	}
	if (PPU_TRACING())
		trace_copy(s, &op, t0, dst, src, bytes, seq0, seq, st);
	return st;
}

ppu_status ppu_memcpy(ppu_ctx *ctx, ppu_devptr dst, ppu_devptr src, size_t bytes)
{
	ppu_stream *s = ppu_ctx_default_stream(ctx);
	ppu_status st;

	if (!s)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_memcpy: NULL context");
	st = ppu_memcpy_async(dst, src, bytes, s);
	return st ? st : ppu_stream_synchronize(s);
}
