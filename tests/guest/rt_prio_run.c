// SPDX-License-Identifier: MIT
/*
 * The SEEDS §B scenario through libppu; see rt_prio_run.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_guest.h"
#include "rt_prio_run.h"

static uint8_t pattern(unsigned int id, uint64_t j)
{
	return (uint8_t)(j * (2u * id + 3u) + (j >> 9) * 17u + id * 41u + 1u);
}

struct buf {
	uint8_t *p;
	ppu_devptr d;
};

static ppu_status host_buf(ppu_ctx *ctx, uint64_t bytes, struct buf *b)
{
	return ppu_mem_alloc_host(ctx, bytes, (void **)&b->p, &b->d);
}

/*
 * A measured stretch of a stream is issued behind a closed gate and runs
 * once it is complete: the CPU's time between the calls (long under a
 * co-simulated guest) is then not part of the PPU's timestamps.
 */
static ppu_status gate_close(ppu_stream *s, struct buf *gate, uint32_t *n)
{
	return ppu_stream_wait_value32(s, gate->d, ++*n, PPU_WAIT_VALUE_GEQ);
}

static void gate_open(struct buf *gate, uint32_t n)
{
	__atomic_store_n((uint32_t *)gate->p, n, __ATOMIC_RELEASE);
}

static int64_t rel(ppu_event *ev, uint64_t t0)
{
	uint64_t t = 0;

	ppu_event_timestamp(ev, &t);
	return (int64_t)(t - t0);
}

ppu_status rt_prio_run(const struct rt_prio_cfg *c, struct rt_prio_result *r)
{
	ppu_event *go = NULL, *lo_done[RT_PRIO_MAX_COPIES], *hi_done[RT_PRIO_MAX_COPIES];
	ppu_event *hi_issue = NULL, *a0 = NULL, *a1 = NULL;
	struct buf src_lo, src_hi, dst_lo[RT_PRIO_MAX_COPIES], dst_hi[RT_PRIO_MAX_COPIES];
	struct buf dst_alone, gate = { 0 };
	uint32_t gate_n = 0;
	ppu_stream *lo, *hi;
	ppu_ctx *ctx = NULL;
	unsigned int i, j, nd;
	uint64_t t0, k;
	int64_t dt;
	ppu_status st;

	memset(r, 0, sizeof(*r));
	if (c->nlow > RT_PRIO_MAX_COPIES || c->nhigh > RT_PRIO_MAX_COPIES || !c->nhigh ||
	    !c->nlow)
		return PPU_ERROR_INVALID_VALUE;
	RT_TRY(ppu_ctx_create(&ctx, c->device, 0));
	RT_TRY(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_PRIORITIES, (uint64_t)c->sems));
	RT_TRY(ppu_ctx_set_limit(ctx, PPU_LIMIT_COPY_CHUNK_BYTES, c->chunk));
	RT_TRY(ppu_stream_create_with_priority(ctx, 0, &lo));
	RT_TRY(ppu_stream_create_with_priority(ctx, 1, &hi));
	RT_TRY(ppu_stream_get_device_priority(lo, &r->dev_prio_low));
	RT_TRY(ppu_stream_get_device_priority(hi, &r->dev_prio_high));

	RT_TRY(host_buf(ctx, c->low_bytes, &src_lo));
	RT_TRY(host_buf(ctx, c->high_bytes, &src_hi));
	RT_TRY(host_buf(ctx, c->high_bytes, &dst_alone));
	RT_TRY(host_buf(ctx, 4, &gate));
	nd = c->shared_low_dst ? 1 : c->nlow;
	for (i = 0; i < nd; i++)
		RT_TRY(host_buf(ctx, c->low_bytes, &dst_lo[i]));
	for (j = 0; j < c->nhigh; j++)
		RT_TRY(host_buf(ctx, c->high_bytes, &dst_hi[j]));
	for (k = 0; k < c->low_bytes; k++)
		src_lo.p[k] = pattern(0, k);
	for (k = 0; k < c->high_bytes; k++)
		src_hi.p[k] = pattern(1, k);

	RT_TRY(ppu_event_create(ctx, &go));
	RT_TRY(ppu_event_create(ctx, &hi_issue));
	RT_TRY(ppu_event_create(ctx, &a0));
	RT_TRY(ppu_event_create(ctx, &a1));
	for (i = 0; i < c->nlow; i++)
		RT_TRY(ppu_event_create(ctx, &lo_done[i]));
	for (j = 0; j < c->nhigh; j++)
		RT_TRY(ppu_event_create(ctx, &hi_done[j]));

	/* The reference: the first high copy on an idle PPU, same commands. */
	RT_TRY(gate_close(hi, &gate, &gate_n));
	RT_TRY(ppu_event_record(a0, hi));
	RT_TRY(ppu_memcpy_async(dst_alone.d, src_hi.d, c->high_bytes, hi));
	RT_TRY(ppu_event_record(a1, hi));
	gate_open(&gate, gate_n);
	RT_TRY(ppu_event_synchronize(a1));
	RT_TRY(ppu_event_elapsed_cycles(a0, a1, &dt));
	r->alone = (uint64_t)dt;

	RT_TRY(ppu_event_record(go, lo));
	for (i = 0; i < c->nlow; i++) {
		RT_TRY(ppu_memcpy_async(dst_lo[c->shared_low_dst ? 0 : i].d, src_lo.d, c->low_bytes,
				     lo));
		RT_TRY(ppu_event_record(lo_done[i], lo));
	}
	/* Mlow1 is on the engine once the event before it has completed. */
	RT_TRY(ppu_event_synchronize(go));
	/* The first high copy is measured; the others follow while it runs. */
	RT_TRY(gate_close(hi, &gate, &gate_n));
	RT_TRY(ppu_event_record(hi_issue, hi));
	for (j = 0; j < c->nhigh; j++) {
		RT_TRY(ppu_memcpy_async(dst_hi[j].d, src_hi.d, c->high_bytes, hi));
		RT_TRY(ppu_event_record(hi_done[j], hi));
		if (!j)
			gate_open(&gate, gate_n);
	}
	RT_TRY(ppu_ctx_synchronize(ctx));

	RT_TRY(ppu_event_timestamp(go, &t0));
	for (i = 0; i < c->nlow; i++)
		r->low_done[i] = rel(lo_done[i], t0);
	for (j = 0; j < c->nhigh; j++)
		r->high_done[j] = rel(hi_done[j], t0);
	r->high_issue = rel(hi_issue, t0);
	r->loaded = (uint64_t)(r->high_done[0] - r->high_issue);
	r->ratio = r->alone ? (double)r->loaded / (double)r->alone : 0;
	/* The high copies ran in the middle: count only the low stream's own time. */
	dt = r->low_done[c->nlow - 1];
	for (j = 0; j < c->nhigh; j++)
		if (r->high_done[j] < r->low_done[c->nlow - 1])
			dt -= (int64_t)r->alone;
	r->low_bytes_per_cycle = dt > 0 ? (double)(c->nlow * c->low_bytes) / (double)dt : 0;

	/* Completion order: a merge of the two sorted lists. */
	for (i = 0, j = 0; i < c->nlow || j < c->nhigh;) {
		int take_low = j == c->nhigh || (i < c->nlow && r->low_done[i] < r->high_done[j]);
		size_t n = strlen(r->order);

		snprintf(r->order + n, sizeof(r->order) - n, "%s%c%u", n ? " " : "",
			 take_low ? 'L' : 'H', take_low ? ++i : ++j);
	}

	r->data_ok = 1;
	for (i = 0; i < nd; i++)
		r->data_ok &= !memcmp(dst_lo[i].p, src_lo.p, c->low_bytes);
	for (j = 0; j < c->nhigh; j++)
		r->data_ok &= !memcmp(dst_hi[j].p, src_hi.p, c->high_bytes);
	r->data_ok &= !memcmp(dst_alone.p, src_hi.p, c->high_bytes);
	st = PPU_SUCCESS;
out:
	if (st) {
		/* Keep the message of the failure, not of the cleanup. */
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", ppu_last_error());
		/* A closed gate would hold the context's synchronisation forever. */
		if (gate.p)
			gate_open(&gate, gate_n);
		ppu_ctx_destroy(ctx);
		fprintf(stderr, "rt_prio_run: %s: %s\n", ppu_status_name(st), msg);
		return st;
	}
	return ppu_ctx_destroy(ctx);
}
