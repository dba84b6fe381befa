// SPDX-License-Identifier: MIT
/*
 * Events: a record is a timestamped 16-byte semaphore release in the
 * channel of the stream's level's latest work, copy or compute (value =
 * the record's number), so other streams can wait for it on the PPU and
 * its time comes from the PPU's cycle counter.  The CPU side waits on the
 * channel's timeline instead: once the entry after the release has
 * completed, all 16 bytes are surely written.
 */
#include <stdlib.h>

#include "drm/ppu_drm.h"
#include "ppu_internal.h"

/*
 * The latest record has completed: its timestamp and the time the host saw
 * it make a sync point (once per record; the first sight is the closest).
 */
static void trace_event_done(ppu_event *ev)
{
	if (!PPU_TRACING() || !ev->chan || ev->synced == ev->count)
		return;
	ev->synced = ev->count;
	ppu_trace_sync_release(ev->ctx, ev->chan, &ev->sem, ev->count, "event", ev->trace_id);
}

ppu_status ppu_event_create(ppu_ctx *ctx, ppu_event **out)
{
	ppu_event *ev;
	ppu_status st;

	ppu_clear_error();
	if (!ctx || !out)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_create: NULL argument");
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return ppu_fail(PPU_ERROR_OUT_OF_MEMORY, "ppu_event_create: out of host memory");
	st = ppu_sem_alloc(ctx, &ev->sem);
	if (st) {
		free(ev);
		return st;
	}
	ev->ctx = ctx;
	ev->trace_id = ++ctx->trace_events;
	ev->next = ctx->events;
	ctx->events = ev;
	*out = ev;
	return PPU_SUCCESS;
}

ppu_status ppu_event_destroy(ppu_event *ev)
{
	ppu_event **pp;

	ppu_clear_error();
	if (!ev)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_destroy: NULL event");
	/*
	 * A record in flight still writes the slot: keep it out of reuse
	 * until then.
	 */
	if (ev->chan && !ev->chan->dead)
		ppu_chan_wait(ev->chan, ev->seq);
	for (pp = &ev->ctx->events; *pp; pp = &(*pp)->next) {
		if (*pp == ev) {
			*pp = ev->next;
			break;
		}
	}
	ppu_sem_free(ev->ctx, &ev->sem);
	free(ev);
	return PPU_SUCCESS;
}

ppu_status ppu_event_record(ppu_event *ev, ppu_stream *s)
{
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	struct ppu_chan *ch;
	ppu_status st;
	uint32_t seq;

	ppu_clear_error();
	if (!ev || !s || !s->chan)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_record: NULL event or stream");
	if (ev->ctx != s->ctx)
		return ppu_ctx_mismatch("ppu_event_record", "the event", ev->ctx, "the stream",
					s->ctx);
	if (s->chan->dead)
		return ppu_fail(PPU_ERROR_CHANNEL_FAULT, "ppu_event_record: channel %u faulted",
				s->chan->chid);
	st = ppu_stream_check(s, "ppu_event_record");
	if (st)
		return st;
	/* In the channel of the level's latest work, after it: copies or kernels. */
	ch = ppu_stream_sem_chan(s);
	st = ppu_stream_sem_op(s, ev->sem.va, ev->count + 1, ppu_sem_release_op(0, 1, 0), &seq);
	if (st)
		return st;
	ev->count++;
	ev->chan = ch;
	ev->seq = seq;
	if (PPU_TRACING())
		ppu_trace_line(t0, ppu_trace_now() - t0, "EVENT_RECORD", "ctx=%u stream=%u event=%u "
			       "ch=%u seq=%u va=%#x value=%u", ev->ctx->trace_id, s->trace_id,
			       ev->trace_id, ch->chid, seq, ev->sem.va, ev->count);
	return PPU_SUCCESS;
}

ppu_status ppu_event_query(ppu_event *ev)
{
	ppu_status st;

	ppu_clear_error();
	if (!ev)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_query: NULL event");
	if (!ev->chan)
		return PPU_SUCCESS;
	if (ppu_chan_done(ev->chan, ev->seq)) {
		trace_event_done(ev);
		return PPU_SUCCESS;
	}
	st = ppu_chan_check(ev->chan);
	return st ? st : PPU_ERROR_NOT_READY;
}

ppu_status ppu_event_synchronize(ppu_event *ev)
{
	int64_t t0 = PPU_TRACING() ? ppu_trace_now() : 0;
	ppu_status st;

	ppu_clear_error();
	if (!ev)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_synchronize: NULL event");
	if (!ev->chan)
		return PPU_SUCCESS;
	st = ppu_chan_wait(ev->chan, ev->seq);
	if (PPU_TRACING()) {
		if (!st)
			trace_event_done(ev);
		ppu_trace_line(t0, ppu_trace_now() - t0, "EVENT_SYNC", "ctx=%u event=%u ch=%u "
			       "seq=%u value=%u status=%s", ev->ctx->trace_id, ev->trace_id,
			       ev->chan->chid, ev->seq, ev->count, ppu_status_name(st));
	}
	return st;
}

ppu_status ppu_event_timestamp(ppu_event *ev, uint64_t *cycles)
{
	ppu_status st;

	ppu_clear_error();
	if (!ev || !cycles)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_timestamp: NULL argument");
	if (!ev->chan)
		return ppu_fail(PPU_ERROR_NOT_RECORDED, "ppu_event_timestamp: never recorded");
	st = ppu_event_query(ev);
	if (st)
		return st;
	*cycles = (uint64_t)ev->sem.cpu[PPU_SEM16_TIMESTAMP_LO / 4] |
		  (uint64_t)ev->sem.cpu[PPU_SEM16_TIMESTAMP_HI / 4] << 32;
	return PPU_SUCCESS;
}

ppu_status ppu_event_elapsed_cycles(ppu_event *start, ppu_event *end, int64_t *cycles)
{
	uint64_t t0, t1;
	ppu_status st;

	ppu_clear_error();
	if (!start || !end || !cycles)
		return ppu_fail(PPU_ERROR_INVALID_VALUE, "ppu_event_elapsed_cycles: bad argument");
	/* Two PPUs' cycle counters have nothing in common. */
	if (start->ctx != end->ctx)
		return ppu_ctx_mismatch("ppu_event_elapsed_cycles", "the end event", end->ctx,
					"the start event", start->ctx);
	st = ppu_event_timestamp(start, &t0);
	if (!st)
		st = ppu_event_timestamp(end, &t1);
	if (st)
		return st;
	*cycles = (int64_t)(t1 - t0);
	return PPU_SUCCESS;
}
